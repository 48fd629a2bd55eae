"""Wrong code found by running gcc 12's testsuite (gcc.dg run tests 133..666, gcc.dg/torture) through pgcc: each
program here printed something else than gcc's build, failed to link, or stopped pgcc with an internal error."""

import pytest

from conftest import PROGRAMS, build_gcc, build_pgcc, compile_error, run_exe

C = PROGRAMS / "c"


def same_as_gcc(tmp, src, opt, flags=(), gcc_flags=()):
    ref = run_exe(build_gcc(src, tmp / "ref", extra=(*flags, *gcc_flags)))
    assert ref.returncode == 0 and ref.stdout
    got = run_exe(build_pgcc(src, tmp / "app", extra=(opt, *flags)))
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode)
    return got.stdout


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_function_name_is_an_array_of_its_own(opt, tmp):
    """gcc.dg/c99-func-3.c: `"main" == __func__` was true (__func__ shared the constant of an equal string
    literal); `__PRETTY_FUNCTION__` in C gave clang's `const char *f(int)` where gcc gives `f`."""
    out = same_as_gcc(tmp, C / "wrong12_function_names.c", opt)
    assert "literal 0 stable 1 scale-literal 0" in out and "pretty_of_scale record" in out


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_signaling_nan_constants(opt, tmp):
    """gcc.dg/c2x-float-7.c: FLT_SNAN and LDBL_SNAN in a global initializer became quiet NaNs (clang's evaluator
    widens to double, which quiets them; so did the f32 attribute builder and the x87 encoder), so `f += f` did
    not raise FE_INVALID; `__builtin_nans[f,l]` in a function was an error."""
    out = same_as_gcc(tmp, C / "wrong12_signaling_nans.c", opt, ("-std=gnu2x",))
    assert "global float 7fa00000" in out and "invalid 1 1 1" in out


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_signbit_declared_by_the_program(opt, tmp):
    """gcc.dg/builtins-32.c: `extern int signbitf(float);` called the symbol, which libc does not have (a link
    error); gcc's builtin answers, as the program's own prototypes of other math builtins do."""
    src = tmp / "sb.c"
    src.write_text("#include <stdio.h>\n"
                   "extern int signbit(double);\nextern int signbitf(float);\nextern int signbitl(long double);\n"
                   "int main(void) {\n  volatile float f = -0.0f; volatile double d = 2.0; volatile long double l = -3;\n"
                   "  printf(\"%d %d %d\\n\", signbitf(f) != 0, signbit(d) != 0, signbitl(l) != 0);\n  return 0;\n}\n")
    # (gcc -O0 calls the missing symbols too: its reference is built at -O2, where the builtin folds)
    assert same_as_gcc(tmp, src, opt, gcc_flags=("-O2",)) == "1 0 1\n"


def test_hex_float_under_c90_is_an_error(tmp):
    """gcc.dg/c90-hexfloat-2.c: under -std=c90 gcc's preprocessing number `0x1p+f` ends at the sign, so `f` is a
    macro that expands; clang lexes the C99 constant and the program stringized other text."""
    code = ("#define f (\n#define str(x) #x\n#define xstr(x) str(x)\n"
            "const char *s = xstr(0x1p+f);\nint main(void) { return s[5] != '('; }\n")
    err = compile_error(tmp / "h.c", code, flags=("-std=c90",))
    assert "h.c:4:22: error: unsupported construct: hexadecimal floating constant '0x1p+f' under -std=c90" in err
    # (under -std=gnu89 and C99 gcc reads the constant as clang does: no error)
    src = tmp / "g.c"
    src.write_text("int main(void) { double d = 0x1p+3; return d != 8.0; }\n")
    assert run_exe(build_pgcc(src, tmp / "g", extra=("-std=gnu89",))).returncode == 0


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_long_double_literals_read_whole(opt, tmp):
    """gcc.dg/float-exact-1.c: a long double literal was read from an 80-character window of its source line, so
    one with more digits lost its exponent (1.0...025e-3L became 1.0) and one continued with backslash-newline
    stopped at the backslash."""
    out = same_as_gcc(tmp, C / "wrong12_long_double_literals.c", opt)
    assert out.endswith("\n1\n")


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_fcommon_tentative_definitions(opt, tmp):
    """gcc.dg/pr83100-2.c: -fcommon was ignored, so a tentative definition (`int counts[4];`, `const int
    limit;`) in two files was a duplicate symbol at link time; they are common symbols now, merged with the
    file that initializes them, while `static` ones stay apart."""
    flags = (str(C / "wrong12_common_lib.c"), "-fcommon")
    out = same_as_gcc(tmp, C / "wrong12_common_main.c", opt, flags)
    assert "counts 11 21 31 41" in out and "limit 9 hidden 5 0" in out


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_int128_constants_wider_than_64_bits(opt, tmp):
    """gcc.dg/pr89037.c: libclang's evaluator gives the low 64 bits of an __int128 constant, so
    `((__int128)1 << 64) | 7` initialized a global to 7 and a 66-bit bit-field lost its high bits; the i128
    attribute builder zero-extended -1 from 64 bits and stopped pgcc with an internal error beyond them."""
    out = same_as_gcc(tmp, C / "wrong12_int128_constants.c", opt)
    assert "third 55555555555555555555555555555555" in out


def test_big_endian_scalar_storage_order_is_an_error(tmp):
    """gcc.dg/sso-6.c, sso-7.c, sso-8.c: gcc stores the scalars of a `scalar_storage_order("big-endian")` struct
    byte-swapped; clang ignores the attribute, the pragma and -fsso-struct, so the bytes in memory differed."""
    attr = compile_error(tmp / "a.c", "struct __attribute__((scalar_storage_order(\"big-endian\"))) be { int i; };\n"
                                      "struct be v = { 0x12345678 };\nint main(void) { return 0; }\n")
    assert "a.c:1:23: error: unsupported construct: 'scalar_storage_order(\"big-endian\")' attribute" in attr
    pragma = compile_error(tmp / "p.c", "#pragma scalar_storage_order big-endian\nstruct be { int i; };\n"
                                        "struct be v = { 1 };\nint main(void) { return v.i != 1; }\n")
    assert "p.c:1:1: error: unsupported construct: '#pragma scalar_storage_order big-endian'" in pragma
    flag = compile_error(tmp / "f.c", "int main(void) { return 0; }\n", flags=("-fsso-struct=big-endian",))
    assert "-fsso-struct=big-endian is not supported by pgcc" in flag
    # (inside an inactive `#if`, the pragma and a C90 hex float mean nothing, as in gcc: accepted)
    inactive = tmp / "i.c"
    inactive.write_text("#if 0\n#pragma scalar_storage_order big-endian\ndouble h = 0x1p+3;\n#endif\n"
                        "struct s { int i; };\nstruct s v = { 5 };\nint main(void) { return v.i != 5; }\n")
    assert run_exe(build_pgcc(inactive, tmp / "i", extra=("-std=c90",))).returncode == 0
    # (little-endian is x86's own order: accepted)
    src = tmp / "l.c"
    src.write_text("struct __attribute__((scalar_storage_order(\"little-endian\"))) le { int i; };\n"
                   "struct le v = { 7 };\nint main(void) { return v.i != 7; }\n")
    assert run_exe(build_pgcc(src, tmp / "l")).returncode == 0


def test_spec_files_are_an_error(tmp):
    """gcc.dg/spec-options.c: a gcc spec file (`--specs=F`) can define macros and add options; pgcc warned that
    it ignored the option and built another program (FOO undefined: abort)."""
    flag = compile_error(tmp / "s.c", "int main(void) { return 0; }\n", flags=("--specs=extra.specs",))
    assert "--specs=extra.specs is not supported by pgcc" in flag


def test_typeof_of_a_variably_modified_expression_is_an_error(tmp):
    """gcc.dg/vla-4.c, vla-12.c: `__typeof__(b[i++]) c;` with b a VLA of VLAs (C evaluates the operand there) and
    a cast to `typeof((int (*)[k = ++i])p)` stopped pgcc with an internal error: the typeof's operand was taken
    for an array size."""
    err = compile_error(tmp / "t.c", "int f(int n) {\n  int b[n][n + 1], i = 0;\n  __typeof__(b[i++]) row;\n"
                                     "  return (int)sizeof row + i;\n}\nint main(void) { return f(3) != 17; }\n")
    assert "t.c:3:13: error: unsupported construct: a variably modified type taken from an expression" in err


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_complex_constants_with_special_parts(opt, tmp):
    """gcc.dg/torture/builtin-complex-1.c: a static complex constant with a NaN or infinite part stopped pgcc with
    an internal error (its attribute text spelled `nan`; a long double part became a Fraction), and `-0.0L` as a
    long double complex part lost its sign."""
    out = same_as_gcc(tmp, C / "wrong12_complex_specials.c", opt)
    assert "float im ff800000" in out and "long double 80000000000000000000" in out


def test_float16_global_is_an_error(tmp):
    """gcc.dg/torture/float16-nan.c: a `volatile _Float16` global initialized with a NaN stopped pgcc with an
    internal error (the initializer's bytes were written as an integer's, which would also truncate 1.5)."""
    err = compile_error(tmp / "h.c", "volatile _Float16 h = __builtin_nanf16(\"\");\n"
                                     "int main(void) { return 0; }\n")
    assert "h.c:1:23: error: unsupported construct: type 'volatile _Float16'" in err


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_programs_own_min_and_max(opt, tmp):
    """gcc.dg/torture/pr103037.c: a C program's own `min` of two pointers was lowered as pgcc's CUDA-style min
    of two numbers (an internal error: the module did not verify); a program's definition of a library name
    outside the system headers is now called."""
    assert "3 1 4.25 calls 2" in same_as_gcc(tmp, C / "wrong12_own_min_max.c", opt)


def test_rounding_math_is_an_error(tmp):
    """gcc.dg/torture/fp-double-convert-float-1.c: under -frounding-math a conversion after fesetround(FE_UPWARD)
    rounds upward at run time; pgcc accepted the flag and folded or converted in round-to-nearest."""
    flag = compile_error(tmp / "r.c", "int main(void) { return 0; }\n", flags=("-frounding-math",))
    assert "-frounding-math is not supported by pgcc" in flag


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_failed_posix_memalign_keeps_the_pointer(opt, tmp):
    """gcc.dg/torture/pr60092.c: pgcc's posix_memalign copied its result slot into the variable even when the call
    failed, so the pointer became the slot's uninitialized contents instead of keeping its value."""
    assert "failed 1 kept 1" in same_as_gcc(tmp, C / "wrong12_posix_memalign_failure.c", opt)
