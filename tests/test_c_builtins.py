"""GNU builtins and math.h's macros (frontend/builtins.py): every `__builtin_*` that glibc's headers and real code
use is lowered and prints what gcc's build prints, or is an error naming it (never an undefined symbol at link
time or an internal error)."""

import re
import shutil
import subprocess

import pytest

from conftest import PROGRAMS, build_gcc, build_pgcc, run_exe, run_pgcc

C = PROGRAMS / "c"


@pytest.mark.parametrize("name", ["builtins.c", "libm_builtins.c"])
@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_builtins_match_gcc(name, opt, tmp):
    """Classification macros (isnan, isinf, fpclassify, signbit...), INFINITY/NAN/HUGE_VAL, libm builtins,
    bit operations of every width, overflow arithmetic, hints, memory builtins, alloca, abs on variables;
    every math function of the table and the __builtin_ forms of libm functions (float and double)."""
    src = C / name
    ref = run_exe(build_gcc(src, tmp / "ref"))
    assert ref.returncode == 0 and ref.stdout
    got = run_exe(build_pgcc(src, tmp / "app", extra=(opt,)))
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode)


def test_builtin_values(tmp):
    """Spot checks of what gcc x86-64 gives, so a shared mistake in the reference build cannot hide."""
    out = run_exe(build_pgcc(C / "builtins.c", tmp / "app")).stdout
    assert "d8 nan=0 inf=-1 fin=0 nor=0 sb=1 cls=1 json=null" in out  # isinf(-inf) is -1 (__builtin_isinf_sign)
    assert "f1 nan=0 inf=0 fin=1 nor=0 sb=-2147483648" in out  # signbit(-0.0f): the sign bit in place
    assert "nan 7ff8000000000000 7fc00000 7ff8000000000015 7fc00007" in out
    assert "add 1 -2147483648 0 2147483647" in out
    assert "abs 7 123456789012 5 7 123456789012 5 7" in out


def test_json_parser_condition_compiles(tmp):
    """`isnan(d) || isinf(d)` (a JSON parser's test for numbers it cannot print) was an internal error."""
    (tmp / "j.c").write_text("#include <math.h>\n#include <stdio.h>\n"
                             "int finite_number(double d) { if (isnan(d) || isinf(d)) return 0; return 1; }\n"
                             "int main(int argc, char **argv) { double z = argc - 1;\n"
                             "  printf(\"%d %d %d\\n\", finite_number(z), finite_number(1 / z), finite_number(z / z));\n"
                             "  return 0; }\n")
    got = run_exe(build_pgcc(tmp / "j.c", tmp / "j"))
    assert got.stdout == "1 0 0\n"


def test_trap_stops_the_program(tmp):
    """`__builtin_trap()` ends the program with SIGILL, as gcc's ud2 does; `__builtin_unreachable()` is
    nothing (reaching it is undefined)."""
    (tmp / "t.c").write_text("#include <stdio.h>\nint main(int argc, char **argv) {\n"
                             "  if (argc > 5) __builtin_unreachable();\n  printf(\"before\\n\");\n"
                             "  fflush(stdout);\n  if (argc == 1) __builtin_trap();\n  printf(\"after\\n\");\n"
                             "  return 0; }\n")
    ref = run_exe(build_gcc(tmp / "t.c", tmp / "ref"))
    got = run_exe(build_pgcc(tmp / "t.c", tmp / "app"))
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode) == ("before\n", -4)


UNSUPPORTED = [
    ("void *f(void) { return __builtin_apply_args(); }", "__builtin_apply_args"),
    ("__int128 f(__int128 *p) { return __sync_fetch_and_add(p, 1); }", "__sync_fetch_and_add"),
    ("__int128 f(__int128 *p) { return __atomic_load_n(p, 0); }", "__atomic_load_n"),
    ("void f(char *p) { __builtin___clear_cache(p, p + 4); }", "__builtin___clear_cache"),
]


@pytest.mark.parametrize("body, name", UNSUPPORTED)
def test_unknown_builtin_is_a_clear_error(body, name, tmp):
    (tmp / "u.c").write_text(body + "\nint main(void) { return 0; }\n")
    r = run_pgcc([tmp / "u.c", "-o", tmp / "u"])
    assert r.returncode == 1
    assert re.search(rf"u\.c:1:\d+: error: unsupported builtin '{name}(_\d+)?'", r.stderr), r.stderr
    assert "internal compiler error" not in r.stderr and "undefined reference" not in r.stderr


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
def test_type_generic_builtins_in_cxx(tmp):
    """In C++ the classification builtins are called directly (libstdc++'s std::isinf is
    `__builtin_isinf(x)`): they were an internal error. std::isnan and friends of <cmath> (bool results,
    float and double overloads) are lowered the same way."""
    src = tmp / "g.cpp"
    src.write_text("#include <cmath>\n#include <cstdio>\n"
                   "int main(int argc, char **) { double z = argc - 1; float f = 1.0f / (float)z;\n"
                   "  std::printf(\"%d %d %d %d %d\\n\", __builtin_isinf(1 / z) != 0, __builtin_isnan(z / z) != 0,\n"
                   "    __builtin_isfinite(f) != 0, __builtin_signbit(-z) != 0, __builtin_popcount(argc + 6));\n"
                   "  std::printf(\"%d %d %d %d %d %d %d\\n\", std::isinf(-1 / z), std::isnan(f), std::isfinite(z),\n"
                   "    std::signbit(-f), std::isnormal(z), std::fpclassify(z), std::fpclassify(f));\n"
                   "  return 0; }\n")
    r = subprocess.run(["g++", "-O0", str(src), "-o", str(tmp / "ref")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    want = run_exe(tmp / "ref").stdout
    got = run_exe(build_pgcc(src, tmp / "app"))
    assert got.stdout == want == "1 1 0 1 3\n1 0 1 1 0 2 1\n"


UNPROTOTYPED = """#include <stdio.h>
double sqrt();              /* K&R declarations of library functions: calls of the symbols as declared */
double floor();
char pow ();                /* autoconf's link probe (AC_CHECK_FUNC / AC_CHECK_LIB) declares it so */
int main(void) {
    if (sizeof(char) == 2) return pow ();   /* (never taken: the probe only has to compile and link) */
    printf("%.6f %.1f %.1f\\n", sqrt(2.0), floor(-2.5), floor(7.0 / 2));
    return 0;
}
"""


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_unprototyped_library_functions_are_plain_calls(opt, tmp):
    """A library function redeclared without a prototype (`char pow ();`, which libpng's configure links to find
    libm) is an ordinary call of the symbol, not the builtin lowering for its name (which rejected it)."""
    src = tmp / "knr.c"
    src.write_text(UNPROTOTYPED)
    ref = run_exe(build_gcc(src, tmp / "ref", extra=("-w",)))
    assert ref.returncode == 0 and ref.stdout
    got = run_exe(build_pgcc(src, tmp / "app", extra=(opt, "-w", "-lm")))
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode)


CMAKE_PROBES = """int printf(const char *, ...);
/* CMake's check_function_exists declares the symbol as `char NAME(void);` and calls it, to see that it links
   (autoconf's AC_CHECK_FUNCS too, without <stdio.h>: `char snprintf (void);`) */
char snprintf(void);
char sscanf(void);
char log2(void);
char sqrt(void);
char memcpy(void);
char abs(void);
char modff(void);
int main(int argc, char **argv) {
    int linked = 0;
    if (argc > 1000)        /* (never taken: a probe only has to compile and link) */
        linked = log2() + sqrt() + memcpy() + abs() + modff() + snprintf() + sscanf();
    printf("%d %s\\n", linked, argv[argc > 1]);
    return linked;
}
"""


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_library_functions_redeclared_otherwise_are_plain_calls(opt, tmp):
    """A library function redeclared with a prototype of another shape (`char log2(void);`, CMake's
    check_function_exists probe) is clang's incompatible redeclaration: an ordinary call of the symbol, not the
    builtin lowering (which rejected brotli's log2 probe, so its build took the slower log() fallback; a
    variadic one, snprintf, was an internal error, so sed's configure found no snprintf and its gnulib tests
    did not link)."""
    src = tmp / "probe.c"
    src.write_text(CMAKE_PROBES)
    ref = run_exe(build_gcc(src, tmp / "ref", extra=("-w", "-lm")), args=("x",))
    assert ref.returncode == 0 and ref.stdout
    got = run_exe(build_pgcc(src, tmp / "app", extra=(opt, "-w", "-lm")), args=("x",))
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode)


@pytest.mark.parametrize("declared", [False, True])
def test_library_function_named_without_declaration_is_undeclared(declared, tmp):
    """autoconf's probe of how to make the compiler report undeclared builtins (`(void) strchr;` with and
    without <string.h>): gcc rejects the name when nothing declares it (an implicit declaration is only for a
    call) and accepts it when declared; pgcc must agree, or configure stops ("cannot make ... report undeclared
    builtins", xz-utils). A call without a declaration stays gcc 12's warning."""
    src = tmp / "undeclared.c"
    src.write_text(("#include <string.h>\n" if declared else "") +
                   "int main(void) {\n#ifndef strchr\n    (void) strchr;\n#endif\n    return (int) strlen(\"x\") - 1;\n}\n")
    gcc = subprocess.run(["gcc", "-c", str(src), "-o", str(tmp / "g.o")], capture_output=True, text=True)
    r = run_pgcc(["-c", src, "-o", tmp / "p.o"])
    assert (r.returncode == 0) == (gcc.returncode == 0) == declared, r.stderr
    if not declared:
        assert "undeclared.c:3:12: error: 'strchr' undeclared" in r.stderr and "Traceback" not in r.stderr


def test_flt_rounds_follows_the_rounding_mode(tmp):
    """<float.h>'s FLT_ROUNDS (`__builtin_flt_rounds()` in clang's header; dtoa code reads it) is C's encoding of
    the current rounding direction: 1 to nearest, 2 upward, 0 toward zero, 3 downward (gcc 12's header says 1
    whatever the mode; C11 5.2.4.2.2 asks for the mode fesetround set)."""
    src = tmp / "fr.c"
    src.write_text("#include <fenv.h>\n#include <float.h>\n#include <stdio.h>\nint main(void) {\n"
                   "  int a = FLT_ROUNDS; fesetround(FE_UPWARD); int b = FLT_ROUNDS;\n"
                   "  fesetround(FE_TOWARDZERO); int c = FLT_ROUNDS; fesetround(FE_DOWNWARD); int d = FLT_ROUNDS;\n"
                   "  fesetround(FE_TONEAREST);\n  printf(\"%d %d %d %d %d\\n\", a, b, c, d, FLT_ROUNDS);\n"
                   "  return 0;\n}\n")
    for opt in ("-O0", "-O2"):
        r = run_pgcc([src, opt, "-o", tmp / "app", "-lm"])
        assert r.returncode == 0, r.stderr
        assert run_exe(tmp / "app").stdout == "1 2 0 3 1\n", opt


def test_classification_of_each_precision(tmp):
    """gcc's suffixed classification builtins (__builtin_isinff/l, isnanf/l, finite/f) and the type-generic ones
    on long double (whose |x| was an internal error: no lowering for x86_fp80), as gcc computes them; a
    __builtin_choose_expr whose condition libclang does not fold (the other operand's side effect never runs)."""
    (tmp / "c.c").write_text(
        "#include <stdio.h>\nint main(int argc, char **argv) {\n"
        "  float f = 1e38f * (argc + 9); double d = 1e308 * (argc + 1); long double l = (argc - 1) / 0.0L;\n"
        "  long double big = 1e4000L * argc;\n"
        "  printf(\"%d %d %d %d %d %d %d\\n\", __builtin_isinff(f) != 0, __builtin_isinf(d) != 0,\n"
        "         __builtin_isinfl(l) != 0, __builtin_isnanf(f - f) != 0, __builtin_isnanl(l),\n"
        "         __builtin_finite(d), __builtin_finitef(1.5f));\n"
        "  printf(\"%d %d %d\\n\", __builtin_isinf(big) != 0, __builtin_isfinite(big * 0), __builtin_isnormal(big));\n"
        "  int calls = 0, pick = __builtin_choose_expr(!__builtin_constant_p(argc), 3, calls++);\n"
        "  printf(\"%d %d\\n\", pick, calls);\n"
        "  return 0;\n}\n")
    ref = run_exe(build_gcc(tmp / "c.c", tmp / "ref"))
    got = run_exe(build_pgcc(tmp / "c.c", tmp / "app", extra=("-O2",)))
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode) and ref.stdout.count("\n") == 3
