"""Wrong code found by running gcc 12's testsuite (gcc.c-torture/execute/builtins, gcc.dg run tests) through pgcc:
each program here printed something else than gcc's build, or stopped pgcc with an internal error; the
constructs pgcc cannot translate exactly are clear errors naming them."""

import pytest

from conftest import PROGRAMS, build_gcc, build_pgcc, compile_error, run_exe

C = PROGRAMS / "c"


def same_as_gcc(tmp, sources, opt, flags=()):
    ref = run_exe(build_gcc(sources[0], tmp / "ref", extra=(*sources[1:], *flags)))
    assert ref.returncode == 0 and ref.stdout
    got = run_exe(build_pgcc(sources[0], tmp / "app", extra=(opt, *sources[1:], *flags)))
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode)
    return got.stdout


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_self_referential_aliased_and_weak_globals(opt, tmp):
    """`struct A p = { &p }` (gcc.dg/20020310-1.c: an internal error, unbounded recursion), `alias("v")` on
    variables (an error before), weak variables: a weak definition replaced by another file's strong one, an
    undefined weak declaration whose address is null; `static` aliases of the same names in both files (internal
    symbols, as gcc makes them: they were external, one definition per name)."""
    out = same_as_gcc(tmp, [C / "wrong11_globals.c", C / "wrong11_globals_lib.c"], opt)
    assert "same 1 1" in out and "weak 30 31 4 1" in out


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_va_arg_typeof_and_empty_structs(opt, tmp):
    """gcc.c-torture/execute/va-arg-22.c: `va_arg(ap, typeof(x))` was an error naming __builtin_va_arg, and a
    struct of size 0 passed to a variadic function took a stack slot (gcc passes nothing), so every later
    argument in memory was read from the wrong place."""
    same_as_gcc(tmp, [C / "wrong11_varargs.c"], opt)


@pytest.mark.parametrize("flag", ["-fno-builtin-abs", "-fno-builtin"])
@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_no_builtin_calls_the_programs_function(flag, opt, tmp):
    """gcc.c-torture/execute/builtins/abs-1.c: -fno-builtin-abs was ignored, so abs() never reached the program's
    own abs (nor did LLVM keep the call at -O2)."""
    out = same_as_gcc(tmp, [C / "wrong11_no_builtin_main.c", C / "wrong11_no_builtin_lib.c"], opt, (flag,))
    assert "abs calls 3" in out


def test_mode_attribute_in_a_type_name_is_an_error(tmp):
    """gcc.dg/20011214-1.c: `(__attribute__((mode(QI))) int) y` converts to 8 bits in gcc; clang drops the
    attribute (a warning) and pgcc converted to int."""
    err = compile_error(tmp / "m.c", "#define small __attribute__((mode(QI))) int\n"
                                     "int f(int y) { return (small) y; }\n")
    assert "m.c:2:24: error: unsupported construct: 'mode' attribute in a type name" in err


def test_unknown_builtins_with_other_types_are_errors(tmp):
    """`__builtin_imaxabs(x)`, which clang does not know (an implicit `int ()` declaration), truncated x to int
    (gcc.c-torture/execute/builtins/abs-3.c); `__builtin_fwrite(p, 1, n, f)` passed its size_t arguments as int."""
    err = compile_error(tmp / "i.c", "#include <stdint.h>\n"
                                     "long f(intmax_t x) { return __builtin_imaxabs(x); }\n")
    assert "i.c:2:29: error: unsupported builtin '__builtin_imaxabs'" in err
    err = compile_error(tmp / "w.c", "#include <stdio.h>\n"
                                     "int f(int n) { return __builtin_fwrite(\"ab\", 1, n, stdout); }\n")
    assert "w.c:2:23: error: unsupported builtin '__builtin_fwrite'" in err


def test_unknown_builtins_with_library_types_still_compile(tmp):
    """The unknown builtins whose arguments already have the library prototype's types stay calls of it."""
    src = tmp / "p.c"
    src.write_text("#include <stdio.h>\nint main(void) { __builtin_puts(\"x\"); __builtin_fputs(\"y\\n\", stdout);\n"
                   "  __builtin_putchar('z'); __builtin_putchar('\\n'); return 0; }\n")
    assert run_exe(build_pgcc(src, tmp / "p")).stdout == run_exe(build_gcc(src, tmp / "ref")).stdout == "x\ny\nz\n"


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_library_builtins_and_asm_labels(opt, tmp):
    """gcc's builtins tests: __builtin_conjl/creall/cimagl, __builtin_stpcpy/stpncpy/mempcpy/bcopy and
    __builtin_bswap128 (gcc.dg/builtin-bswap-11.c) were errors;
    `__builtin_strstr`/`__builtin_memcpy` after `strstr(...) __asm__("wrong11_strstr")` called the C library's
    function instead of the renamed one (strstr-asm.c)."""
    out = same_as_gcc(tmp, [C / "wrong11_library_builtins.c"], opt)
    assert "strstr calls 2 memcpy calls 2" in out


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_unsigned_bitfields_flag(opt, tmp):
    """gcc.dg/bitfld-9.c: -funsigned-bitfields was passed to clang, which ignores it, so plain `int x : 7` read
    back -1 where gcc reads 127."""
    out = same_as_gcc(tmp, [C / "wrong11_unsigned_bitfields.c"], opt, ("-funsigned-bitfields",))
    assert out.startswith("7 3 -1 31 -1 127 15 15 -1 -1 -1\n")


def test_unsigned_bitfields_flag_on_a_full_width_field_is_an_error(tmp):
    """An unsigned `int x : 32` has type unsigned int in gcc (clang's stays int): an error, not signed
    arithmetic."""
    err = compile_error(tmp / "b.c", "struct s { int x : 32; };\nint f(struct s *p) { return p->x < 0; }\n",
                        flags=("-funsigned-bitfields",))
    assert "b.c:1:16: error: unsupported construct: -funsigned-bitfields on the 32-bit bit-field 'x'" in err


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_constant_conditions_emit_only_the_branch_taken(opt, tmp):
    """gcc.dg/builtin-bswap-5.c: `if (__builtin_bswap16(0xaabb) != 0xbbaa) link_error();` left a call of the
    undefined link_error at -O0 (a link error); gcc and clang emit no code for a branch a constant excludes."""
    same_as_gcc(tmp, [C / "wrong11_constant_conditions.c"], opt)


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_choose_expr_as_lvalue_and_callee(opt, tmp):
    """gcc.dg/builtin-choose-expr.c: `__builtin_choose_expr(0, bad(), s) = v` was 'expression used as an
    lvalue', `__builtin_choose_expr(1, good, bad)()` 'function designator'."""
    same_as_gcc(tmp, [C / "wrong11_choose_expr.c"], opt)


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_addresses_of_complex_parts_and_string_literals(opt, tmp):
    """gcc.dg/builtin-object-size-1.c: `&__imag__ x.f` was 'address of this expression (a register variable)'
    and `&"abcd\\0efg"` 'expression used as an lvalue'."""
    same_as_gcc(tmp, [C / "wrong11_part_addresses.c"], opt)


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_object_size_type_3_never_exceeds_the_subobject(opt, tmp):
    """gcc.dg/builtin-object-size-4.c: `__builtin_object_size(p, 3)` with p = &s.name[3] answered the bytes left
    in all of s (25), more than the least size left in s.name (7), which type 3 promises not to exceed."""
    src = C / "wrong11_object_size_least.c"
    got = run_exe(build_pgcc(src, tmp / "app", extra=(opt,))).stdout.split("\n")
    ref = run_exe(build_gcc(src, tmp / "ref", extra=("-O2",))).stdout.split("\n")
    rows = [line.split() for line in got if line]
    assert len(rows) == 5 and all(int(answer) <= int(bound) for _, answer, bound in rows), got
    assert got[1] == ref[1]  # (`&s.name[3]` itself: clang folds it, as gcc does)


def test_address_before_an_array_is_an_error(tmp):
    """gcc.dg/builtin-object-size-5.c: `&buf[-4]` of an array (undefined behaviour, even unused) stopped the
    cleanup passes with an internal error (a memref offset below zero)."""
    err = compile_error(tmp / "n.c", "char buf[64];\nchar *f(void) { char *p = &buf[-4]; return p + 6; }\n")
    assert "n.c:2:28: error: unsupported construct: the address of element -4 of array 'buf'" in err
