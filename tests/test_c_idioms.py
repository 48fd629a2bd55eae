"""Issue 18 item 2: C idioms of real projects, compared with gcc -O0 at pgcc -O0 and -O2: definitions of variadic
functions (va_start/va_arg/va_end/va_copy, a va_list passed on to vsnprintf, calls across objects built by gcc),
parameters declared as arrays used as the pointers they are (`argv++`), gotos between the cases of a switch,
addresses and compound literals in file-scope initializers, C's initializer rules for global arrays (brace
elision, designators), C11 idioms, GNU attributes that change meaning (constructors, weak, aligned, thread-local
storage, cleanup, named sections), GNU labels as values and computed gotos, long double, symbol aliases, GNU extended asm, GNU atomic builtins, volatile objects and setjmp, structs through `...`, GNU's `x ?: y`, case ranges and range designators, initializers that override earlier ones; ambiguous `_Generic` selections and
unsupported attributes are clear errors."""

import subprocess

import pytest

from conftest import PROGRAMS, build_gcc, build_pgcc, compile_error, run_exe, run_pgcc

C = PROGRAMS / "c"
ARGS = ("-v", "-q", "rest")


@pytest.mark.parametrize("name", ["variadic_functions.c", "array_parameters.c", "switch_gotos.c",
                                  "switch_gotos_nested.c", "global_addresses.c", "c11_idioms.c",
                                  "brace_elision_globals.c", "brace_elision_locals.c",
                                  "struct_initializers.c", "goto_into_loops.c",
                                  "unprototyped_pointers.c", "attributes.c", "vla_in_loops.c",
                                  "function_parameters.c", "cleanup_attribute.c",
                                  "constant_choice_tables.c", "int128.c", "nested_case_labels.c",
                                  "long_double.c", "switch_arms.c", "computed_goto.c", "symbol_aliases.c",
                                  "label_dispatch.c", "inline_asm.c", "gnu_atomics.c",
                                  "volatile_objects.c", "variadic_records.c",
                                  "goto_block_labels.c", "goto_past_declarations.c", "gnu_conditional.c",
                                  "gnu_case_ranges.c", "initializer_overrides.c", "static_local_tables.c",
                                  "included_encodings.c", "switch_goto_entry.c",
                                  "macro_defined_loops.c", "macro_written_builtins.c", "line_in_macro_calls.c",
                                  "long_double_records.c", "named_sections.c", "asm_dialects.c",
                                  "noreturn_paths.c", "compound_literal_statics.c",
                                  "statement_expression_jumps.c", "wide_string_literals.c",
                                  "alignas_forms.c", "packed_wide_bitfields.c",
                                  "type_compatibility.c", "vla_scopes_and_order.c",
                                  "vla_row_pointers.c", "wide_strings.c", "guarded_remainders.c", "lagged_fibonacci_seed.c",
                                  "union_struct_designators.c", "legacy_diagnostics.c",
                                  "used_statics.c", "wide_bitfield_arithmetic.c", "frame_builtins.c",
                                  "array_typedef_parameters.c", "self_referencing_initializers.c"])
@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_program_matches_gcc(name, opt, tmp):
    src = C / name
    ref = run_exe(build_gcc(src, tmp / "ref", extra=("-w",)), args=ARGS)
    assert ref.returncode == 0 and ref.stdout
    got = run_exe(build_pgcc(src, tmp / "app", extra=(opt, "-w")), args=ARGS)
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode)


def test_spot_values(tmp):
    """Values worked out by hand (a mistake shared with the reference build cannot hide)."""
    out = run_exe(build_pgcc(C / "variadic_functions.c", tmp / "app", extra=("-O0",))).stdout.splitlines()
    assert out[0] == "60 11 9 0"
    assert out[2] == "77 -8 34359738375"
    assert out[4] == "a=1;b=2.5;xyz (13)"
    out = run_exe(build_pgcc(C / "array_parameters.c", tmp / "app2", extra=("-O0",)), args=ARGS).stdout
    assert out.splitlines()[:3] == ["option -v", "option -q", "1 7 9"] and out.rstrip().endswith(" rest")
    # global arrays with elided braces (a row-by-row fill that was once filled by the top-level index)
    out = run_exe(build_pgcc(C / "brace_elision_globals.c", tmp / "app3", extra=("-O2",))).stdout.splitlines()
    assert out[0] == "2 4 6 3" and out[1] == "2 3 4 5 0" and out[2] == "1 0 7 8 9"
    out = run_exe(build_pgcc(C / "brace_elision_locals.c", tmp / "app4", extra=("-O2",))).stdout.splitlines()
    assert out[0] == "2 4 6 3" and out[4] == "ab cdef xy" and out[6] == "3 5 6 0 3 0 122"


LIB = r"""
#include <stdarg.h>
#include <stdio.h>
int join(char *out, int n, const char *sep, ...) {
    va_list ap;
    va_start(ap, sep);
    int len = 0;
    for (const char *s = va_arg(ap, const char *); s; s = va_arg(ap, const char *))
        len += snprintf(out + len, n - len, "%s%s", len ? sep : "", s);
    va_end(ap);
    return len;
}
double avg(int n, ...) {
    va_list ap;
    va_start(ap, n);
    double s = 0;
    for (int i = 0; i < n; i++) s += va_arg(ap, double);
    va_end(ap);
    return s / n;
}
"""
MAIN = r"""
#include <stdio.h>
int join(char *out, int n, const char *sep, ...);
double avg(int n, ...);
int main(void) {
    char buf[64];
    int len = join(buf, sizeof buf, ", ", "alpha", "beta", "gamma", (char *)0);
    printf("%d [%s] %.3f\n", len, buf, avg(5, 1.0, 2.0, 3.5, 4.0, 10.0));
    return 0;
}
"""


@pytest.mark.parametrize("lib_cc,main_cc", [("pgcc", "gcc"), ("gcc", "pgcc"), ("pgcc", "pgcc")])
def test_variadic_definitions_across_objects(lib_cc, main_cc, tmp):
    """A variadic function defined in one object and called from another, each side built by pgcc -O2 or gcc."""
    objs = []
    for name, text, cc in (("lib", LIB, lib_cc), ("main", MAIN, main_cc)):
        src = tmp / f"{name}.c"
        src.write_text(text)
        obj = tmp / f"{name}.o"
        if cc == "pgcc":
            r = run_pgcc(["-O2", "-c", src, "-o", obj])
        else:
            r = subprocess.run(["gcc", "-O2", "-c", str(src), "-o", str(obj)], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        objs.append(str(obj))
    subprocess.run(["gcc", *objs, "-o", str(tmp / "app")], check=True)
    assert run_exe(tmp / "app").stdout == "18 [alpha, beta, gamma] 4.100\n"


@pytest.mark.parametrize("body,message", [
    ("va_list ap; va_start(ap, n); char c = va_arg(ap, char); va_end(ap); return c;",
     "va_arg of type 'char', which the default argument promotions change"),
])
def test_unsupported_va_arg_is_an_error(body, message, tmp):
    err = compile_error(tmp / "bad.c", "#include <stdarg.h>\nstruct P { long double x; };\nint f(int n, ...) {\n  "
                        + body + "\n}\nint main(void) { return f(1, 2); }\n")
    assert "bad.c:4:" in err and message in err, err


def test_variadic_definition_with_complex_parameter_is_an_error(tmp):
    src = tmp / "bad.c"
    src.write_text("long f(double _Complex z, ...) { return (long)__real__ z; }\n"
                   "int main(void) { return (int)f(1.0, 1); }\n")
    r = run_pgcc(["-O2", src, "-o", tmp / "bad"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "bad.c:1:" in r.stderr and "definition of the variadic function 'f' with a complex parameter" in r.stderr


def test_computed_goto_without_label_addresses_is_an_error(tmp):
    src = tmp / "lab.c"
    src.write_text("int f(void *p) { goto *p; }\nint main(void) { return 0; }\n")
    r = run_pgcc(["-O2", src, "-o", tmp / "lab"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "lab.c:1:" in r.stderr and "indirect goto in function with no address-of-label expressions" in r.stderr


def test_generic_selection_by_written_type(tmp):
    """Associations of one result type (libclang does not say which one clang chose): the one whose type name
    spells the controlling type is it; one that cannot be told apart (a typedef of it) stays an error."""
    src = tmp / "gen.c"
    src.write_text("int g(int a) { return _Generic(a, int: a + 1, long: a + 2); }\nint main(void) { return g(1); }\n")
    assert run_exe(build_pgcc(src, tmp / "gen", extra=("-O2",))).returncode == 2
    src.write_text("typedef int myint;\nint g(int a) { return _Generic(a, myint: a + 1, long: a + 2); }\n"
                   "int main(void) { return g(1); }\n")
    r = run_pgcc(["-O2", src, "-o", tmp / "gen2"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "gen.c:2:23: error" in r.stderr and "_Generic selection" in r.stderr


@pytest.mark.parametrize("code,message", [
    ("int f(void) { __attribute__((section(\".data.mine\"))) int g = 2; return g; }",
     "'section' attribute only applies to functions, global variables"),  # (an automatic variable: gcc's too)
    ("int f(void) { return 1; }\nint h(void) __attribute__((alias(\"g\")));",
     "'h' aliased to undefined symbol 'g'"),
    ("int f(void) { return 1; }\nint x = 1;\nextern int y __attribute__((alias(\"z\")));",
     "'y' aliased to undefined variable 'z'"),  # (alias and weak on variables: test_c_wrong11.py)
    ("#define AL(n) __attribute__((aligned(2 * n)))\nint f(void) { return 1; }\nint v AL(8) = 1;",
     "__attribute__((aligned)) on 'v' with an argument pgcc cannot read"),
])
def test_attributes_that_change_meaning_are_implemented_or_errors(code, message, tmp):
    err = compile_error(tmp / "attr.c", code + "\nint main(void) { return f(); }\n")
    assert "attr.c:" in err and message in err, err


@pytest.mark.parametrize("code,message", [
    ("int main(void) { int x = 1; __asm__(\"incl %0\" : \"+o\"(x)); return x; }",
     "asm.c:1:29: error: unsupported construct: asm operand with constraint '+o' (offsettable or autoincrement"),
    ("int main(void) { asm goto(\"jmp %l0\" :::: out); return 0; out: return 1; }", "asm.c:1:18: error: "
     "unsupported construct: asm goto"),
    ("int main(void) { long x = 1; __asm__(\"imulq $1099511628211, %0\" : \"+r\"(x)); return (int)x; }",
     "error: the assembler rejects an asm statement: invalid operand for instruction"),
])
def test_asm_that_pgcc_cannot_compile_is_an_error(code, message, tmp):
    err = compile_error(tmp / "asm.c", code + "\n")
    assert message in err, err


@pytest.mark.parametrize("pgcc_side", ["CALLEE", "CALLER"])
def test_variadic_records_across_compilers(pgcc_side, tmp):
    """Structs through `...` between a pgcc object and a gcc object (either side): the same as gcc alone."""
    src = C / "variadic_records.c"
    ref = run_exe(build_gcc(src, tmp / "ref")).stdout
    other = "CALLER" if pgcc_side == "CALLEE" else "CALLEE"
    r = run_pgcc(["-c", "-O2", f"-DONLY_{pgcc_side}", src, "-o", tmp / "p.o"])
    assert r.returncode == 0, r.stderr
    g = subprocess.run(["gcc", "-c", "-O2", f"-DONLY_{other}", str(src), "-o", str(tmp / "g.o")])
    assert g.returncode == 0
    subprocess.run(["gcc", str(tmp / "p.o"), str(tmp / "g.o"), "-o", str(tmp / "app")], check=True)
    assert run_exe(tmp / "app").stdout == ref and len(ref.splitlines()) == 4


def test_weak_alias_gives_way_to_a_definition_in_another_file(tmp):
    """A weak alias is what the program calls unless another object defines the name (as with gcc)."""
    strong = tmp / "strong.c"
    strong.write_text("unsigned mix_weak(unsigned h, unsigned c) { return h + c; }\n")
    src = C / "symbol_aliases.c"
    ref = run_exe(build_gcc(src, tmp / "ref", extra=("-w", str(strong)))).stdout
    r = run_pgcc(["-O2", src, strong, "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    got = run_exe(tmp / "app").stdout
    alone = run_exe(build_gcc(src, tmp / "alone", extra=("-w",))).stdout
    assert got == ref and got != alone


def test_long_double_literals_round_like_gcc(tmp):
    """300 random decimal and hexadecimal long double literals (clang evaluates them only in double; pgcc rounds
    their text once): the stored bits equal gcc's."""
    import random
    rng = random.Random(18)
    lits = []
    for _ in range(300):
        if rng.random() < 0.2:
            lits.append(f"0x{rng.getrandbits(60):x}.{rng.getrandbits(8):x}p{rng.randint(-16440, 16380)}L")
        else:
            digits = "".join(rng.choice("0123456789") for _ in range(rng.randint(1, 30)))
            lits.append(f"{digits[0]}.{digits[1:]}e{rng.randint(-4940, 4930)}L")
    src = tmp / "lits.c"
    src.write_text("#include <stdio.h>\n#include <string.h>\nstatic const long double g[] = {" + ", ".join(lits) +
                   "};\nint main(void) {\n  long double l[] = {" + ", ".join(lits) + "};\n"
                   "  for (unsigned i = 0; i < sizeof g / sizeof g[0]; i++) {\n"
                   "    unsigned char a[16], b[16]; memcpy(a, &g[i], 16); memcpy(b, &l[i], 16);\n"
                   "    for (int k = 9; k >= 0; k--) printf(\"%02x\", a[k]);\n"
                   "    printf(\" %d\\n\", memcmp(a, b, 10) == 0);\n  }\n  return 0;\n}\n")
    ref = run_exe(build_gcc(src, tmp / "ref", extra=("-w",))).stdout
    got = run_exe(build_pgcc(src, tmp / "app", extra=("-w",))).stdout
    assert len(ref.splitlines()) == 300 and got == ref


@pytest.mark.parametrize("code,message", [
    ("extern double __enzyme_autodiff(void *, ...);\n"
     "double f(double x) { long double y = x; return (double)(y * y); }\n"
     "double g(void) { return __enzyme_autodiff((void *)f, 2.0); }",
     "long double arithmetic in 'f', which is differentiated"),
])
def test_long_double_forms_without_support_are_errors(code, message, tmp):
    err = compile_error(tmp / "ld.c", code + "\nint main(void) { return 0; }\n", flags=("-O2", "-c"))
    assert "ld.c:" in err and message in err


def test_array_range_designator_with_a_side_effect_is_an_error(tmp):
    """GNU's `[lo ... hi] = v` evaluates v once; pgcc would evaluate it per element, so a v that is not a
    constant is an error that names the construct."""
    err = compile_error(tmp / "rng.c", "int f(void);\nint main(void) {\n  int t[4] = { [0 ... 3] = f() };\n"
                                       "  return t[3];\n}\n")
    assert "rng.c:3:16: error:" in err and "range designator" in err


def test_range_designator_inside_a_macro_is_an_error(tmp):
    """libclang's tokens show a macro's name where it is used, so `[1] RANGE(1, 2) = v` would read as the
    element `[1][1][2]`: pgcc stops with an error naming the construct instead of filling the wrong elements."""
    err = compile_error(tmp / "mrng.c", "#define RANGE(a, b) [a ... b]\nint t[3][4][2] = { [1] RANGE(1, 2) = {6} };\n"
                                        "int main(void) { return t[1][1][0]; }\n")
    assert "mrng.c:2:20: error:" in err and "range designator written inside a macro" in err


def test_preprocessed_output_without_line_markers_compiles(tmp):
    """`gcc -E -P` output puts glibc's declarations in the main file: the attributes clang adds itself to a
    redeclared scanf sit on the first declaration's name, and must not be read as written attributes."""
    src = tmp / "scan.c"
    src.write_text('#include <stdio.h>\nint main(void) {\n  int x = 0;\n  if (sscanf("41", "%d", &x) == 1)\n'
                   '    printf("%d\\n", x + 1);\n  return 0;\n}\n')
    flat = tmp / "flat.c"
    flat.write_text(subprocess.run(["gcc", "-E", "-P", str(src)], capture_output=True, text=True, check=True).stdout)
    got = run_exe(build_pgcc(flat, tmp / "app", extra=("-w",)))
    assert (got.stdout, got.returncode) == ("42\n", 0), got.stderr


@pytest.mark.parametrize("program", ["inline_defs", "variadic_records", "unprototyped_records"])
def test_two_files_link_with_gcc(program, tmp):
    """inline_defs: a header's C99 inline definitions (gnulib's `_GL_INLINE` style) included by two files, one of
    which makes them external with `extern inline`; GNU `extern inline` with gnu_inline; a static forward
    declaration (was 'multiple definition' at link time). variadic_records: variadic functions with struct
    parameters and results (were errors). unprototyped_records: structs through calls without a prototype, also
    through pointers to functions without a prototype (were errors). The program prints what gcc's build prints, also with either file from gcc."""
    main, lib = C / f"{program}_main.c", C / f"{program}_lib.c"
    ref = run_exe(build_gcc(main, tmp / "ref", extra=(str(lib),)))
    assert ref.returncode == 0 and ref.stdout
    objs = {}
    for name, src in (("main", main), ("lib", lib)):
        r = subprocess.run(["gcc", "-c", str(src), "-o", str(tmp / f"g_{name}.o")], capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        objs[name] = tmp / f"g_{name}.o"
    for opt in ("-O0", "-O2"):
        for name, inputs in (("pp", [main, lib]), ("pg", [main, objs["lib"]]), ("gp", [objs["main"], lib])):
            r = run_pgcc([*inputs, opt, "-o", tmp / name])
            assert r.returncode == 0, (opt, name, r.stderr)
            got = run_exe(tmp / name)
            assert (got.stdout, got.returncode) == (ref.stdout, 0), (opt, name)


@pytest.mark.parametrize("use, what", [
    ("  printf(\"%d\\n\", TRY(f()));\n", "return, break or continue inside a statement expression"),
    ("  *out = TRY(f());\n", "return, break or continue inside a statement expression"),
    ("  int r = ({ if (f()) goto out; 1; });\n  return r;\nout:\n", "goto out of a statement expression"),
    ("  int r = ({ __label__ l; l: if (f()) goto l; 1; }) + ({ __label__ l; l: if (f()) goto l; 2; });\n",
     "a second local label 'l' in one function")])
def test_statement_expression_jump_where_later_code_would_run_is_an_error(use, what, tmp):
    """A return inside a statement expression whose value still feeds a call or a store through a pointer
    would let that code run after the return (the walker's exit flags guard statements, not operands): an error
    naming the construct, never wrong code (statement_expression_jumps.c covers the positions that work)."""
    code = ("#include <stdio.h>\n#define TRY(x) ({ int r_ = (x); if (r_ < 0) return r_; r_; })\nint f(void);\n"
            "int g(int *out) {\n" + use + "  return 0;\n}\n")
    err = compile_error(tmp / "sej.c", code)
    assert "sej.c:5:" in err and what in err, err


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_glibc_inline_functions_at_each_level(opt, tmp):
    """The glibc extern inline functions that __OPTIMIZE__ defines (given here, at -O0 too; pgcc -O2 defines it
    itself, as gcc does), built by gcc and by pgcc at the same level: btowc's call of the library's btowc through an
    asm-labelled alias recursed into its own internal copy; <libintl.h> brings <locale.h>."""
    src = C / "glibc_inline_functions.c"
    flags = (opt, "-w", "-D__OPTIMIZE__=1", "-U__NO_INLINE__", "-lpthread")
    ref = run_exe(build_gcc(src, tmp / "ref", extra=flags), args=ARGS)
    assert ref.returncode == 0 and "bsearch 5 -> 2" in ref.stdout
    got = run_exe(build_pgcc(src, tmp / "app", extra=flags), args=ARGS)
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode)


def test_aligned_bitfield_in_packed_record_is_an_error(tmp):
    """`#pragma pack(1)` over an `aligned(16)` bit-field: gcc still aligns the field's unit (a 12-byte record
    here) and clang's layout, which pgcc uses, does not (11 bytes): an error naming it, never a different
    layout. Without the pack the two agree and it compiles."""
    body = ("struct hdr {\n  int tag : 12;\n  long long stamp : 63;\n  __attribute__((aligned(16))) char kind : 4;\n"
            "};\n")
    err = compile_error(tmp / "pk.c", "#pragma pack(push, 1)\n" + body + "#pragma pack(pop)\n"
                        "int main(void) { return sizeof(struct hdr); }\n")
    assert "pk.c:5:" in err and "aligned bit-field 'kind' in a packed record" in err, err
    (tmp / "ok.c").write_text(body + "int main(void) { return sizeof(struct hdr) == 32 ? 0 : 1; }\n")
    assert run_pgcc([tmp / "ok.c", "-o", tmp / "ok"]).returncode == 0
    assert run_exe(tmp / "ok").returncode == run_exe(build_gcc(tmp / "ok.c", tmp / "okg")).returncode == 0


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_fortified_glibc_calls(opt, tmp):
    """Debian's default -D_FORTIFY_SOURCE=2: pgcc defines __OPTIMIZE__ at -O1+ as gcc does, so glibc's fortified
    wrappers (__builtin___memcpy_chk..., __builtin_object_size of a wrapper's parameter) are compiled: the
    in-bounds calls print what gcc's build prints, and at -O2 each call that writes past a buffer of known size
    aborts with glibc's "buffer overflow detected", as in gcc's build."""
    src = C / "fortified_calls.c"
    flags = (opt, "-w", "-D_FORTIFY_SOURCE=2")
    ref_exe, got_exe = build_gcc(src, tmp / "ref", extra=flags), build_pgcc(src, tmp / "app", extra=flags)
    ref, got = run_exe(ref_exe), run_exe(got_exe)
    assert ref.returncode == 0 and "joined: alpha,beta" in ref.stdout
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode)
    if opt == "-O0":
        return  # (no fortification without optimization: the overflows are undefined behaviour there)
    for case in ("1", "2", "3", "4", "5", "6", "7"):
        ref, got = run_exe(ref_exe, args=("overflow", case)), run_exe(got_exe, args=("overflow", case))
        assert ref.returncode == -6 and "buffer overflow detected" in ref.stderr
        assert got.returncode == ref.returncode and "buffer overflow detected" in got.stderr, (case, got.stderr)


def test_optimize_macros_follow_the_level(tmp):
    """__OPTIMIZE__, __OPTIMIZE_SIZE__ and __NO_INLINE__ at -Os are gcc's (the first two; -O0's __NO_INLINE__ and
    -O2's __OPTIMIZE__ are read by fortified_calls.c's headers above)."""
    src = tmp / "levels.c"
    src.write_text("#include <stdio.h>\nint main(void) {\n#ifdef __OPTIMIZE__\n  puts(\"opt\");\n#endif\n"
                   "#ifdef __OPTIMIZE_SIZE__\n  puts(\"size\");\n#endif\n#ifdef __NO_INLINE__\n  puts(\"noinline\");\n"
                   "#endif\n  return 0;\n}\n")
    for level in ("-Os",):
        ref = run_exe(build_gcc(src, tmp / "ref", extra=(level,)))
        got = run_exe(build_pgcc(src, tmp / "app", extra=(level,)))
        assert ref.stdout and got.stdout == ref.stdout, level
