"""Issue 18 items 2 and 4: structs declared before they are defined, and legacy C as gcc 12 accepts it
(implicit function declarations, implicit int and pointer/integer conversions with a warning, -Werror=/-Wno-error= as in
gcc, K&R definitions,
calls through declarations without a prototype), compared with gcc -O0 at pgcc -O0 and -O2."""

import subprocess

import pytest

from conftest import PROGRAMS, build_gcc, build_pgcc, run_exe, run_pgcc

C = PROGRAMS / "c"


@pytest.mark.parametrize("name", ["forward_structs.c", "legacy_c.c", "side_effects_gotos.c",
                                  "pointer_integer_conversions.c", "braced_scalar_initializers.c"])
@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_program_matches_gcc(name, opt, tmp):
    src = C / name
    ref = run_exe(build_gcc(src, tmp / "ref", extra=("-w",)))
    assert ref.returncode == 0 and ref.stdout
    got = run_exe(build_pgcc(src, tmp / "app", extra=(opt, "-w")))
    assert (got.stdout, got.returncode) == (ref.stdout, ref.returncode)


def test_forward_struct_values(tmp):
    """Spot checks (a mistake shared with the reference build cannot hide)."""
    out = run_exe(build_pgcc(C / "forward_structs.c", tmp / "app", extra=("-O0",))).stdout.splitlines()
    assert out[0] == "depth 4, top nresults 3 savedpc 30 status -3, base d 2.50"
    assert out[3] == "handle 42"


IMPLICIT = "#include <stdio.h>\nint main(void) {\n  printf(\"%d\\n\", twice(21));\n  return 0;\n}\n" \
           "int twice(int x) { return 2 * x; }\n"


def _gcc(args, tmp):
    return subprocess.run(["gcc", *map(str, args), "-o", str(tmp / "g")], capture_output=True, text=True)


@pytest.mark.parametrize("flags,fails", [
    ((), False),
    (("-std=gnu89",), False),
    (("-std=gnu99",), False),
    (("-std=c11",), False),
    (("-Werror=implicit-function-declaration",), True),
    (("-Werror=implicit",), True),
    (("-Werror=implicit-function-declaration", "-Wno-error=implicit-function-declaration"), False),
    (("-Werror",), True),
    (("-Werror", "-Wno-error=implicit-function-declaration"), False),
    (("-fpermissive",), False),
])
def test_implicit_declaration_flags_like_gcc(flags, fails, tmp):
    src = tmp / "impl.c"
    src.write_text(IMPLICIT)
    g = _gcc([src, *flags], tmp)
    assert (g.returncode != 0) == fails, g.stderr  # the expectation is gcc 12's
    r = run_pgcc([src, "-O2", *flags, "-o", tmp / "p"])
    assert "Traceback" not in r.stderr and "internal compiler error" not in r.stderr
    assert (r.returncode != 0) == fails, r.stderr
    if fails:
        assert "twice" in r.stderr and "error" in r.stderr
    else:
        assert run_exe(tmp / "p").stdout == "42\n"
        warned = "-std=gnu89" not in flags  # gcc warns in C99 and later, not in gnu89 without -Wall
        assert ("impl.c:3:18: warning:" in r.stderr) == warned, r.stderr


def test_k_and_r_float_and_bool_parameters_are_converted_on_entry(tmp):
    """A float or _Bool parameter of a K&R definition receives the promoted double or int (the caller promotes
    it) and is converted on entry, as gcc does."""
    src = tmp / "krf.c"
    src.write_text("#include <stdio.h>\nfloat h(x) float x; { return x / 3; }\n"
                   "int pick(b, k) _Bool b; int k; { return b ? k : -k; }\n"
                   "int main(void) { printf(\"%.7g %d %d\\n\", h(3.5), pick(4, 7), pick(0, 7)); return 0; }\n")
    ref = run_exe(build_gcc(src, tmp / "ref", extra=("-w",)))
    got = run_exe(build_pgcc(src, tmp / "app", extra=("-O0", "-w")))
    assert got.returncode == ref.returncode == 0 and got.stdout == ref.stdout, got.stderr


def test_implicit_call_links_with_gcc_object(tmp):
    """A function called without any declaration in one file and defined (with a prototype) in a gcc-built
    object: the promoted arguments and the int result cross the boundary as gcc passes them."""
    lib = tmp / "lib.c"
    lib.write_text("double scale(double x, int k) { return x * k; }\nint pick(char c, short s) { return c - s; }\n")
    main = tmp / "main.c"
    main.write_text("#include <stdio.h>\ndouble scale();\nint main(void) { float f = 1.5f; char c = 'a';"
                    " short s = -2;\n  printf(\"%.2f %d\\n\", scale(f, 3), pick(c, s));\n  return 0; }\n")
    subprocess.run(["gcc", "-c", str(lib), "-o", str(tmp / "lib.o")], check=True)
    r = run_pgcc([main, tmp / "lib.o", "-O2", "-o", tmp / "p"])
    assert r.returncode == 0, r.stderr
    assert run_exe(tmp / "p").stdout == "4.50 99\n"


def test_extern_arrays_of_unknown_size(tmp):
    """`extern const unsigned char codes[];` (zlib's _length_code) and arrays of structs or rows of unknown size,
    defined in a gcc-built object: declarations of unknown size, indexed like gcc (negative subscripts too)."""
    tab = tmp / "tab.c"
    tab.write_text("const unsigned char codes[8] = {1, 2, 3, 5, 8, 13, 21, 34};\n"
                   "struct P { int a; double b; } ptab[3] = {{1, 0.5}, {2, 1.5}, {3, 2.5}};\n"
                   "double dtab[2][3] = {{1, 2, 3}, {4, 5, 6}};\n")
    main = tmp / "main.c"
    main.write_text("#include <stdio.h>\nextern const unsigned char codes[];\nstruct P { int a; double b; };\n"
                    "extern struct P ptab[];\nextern double dtab[][3];\nint main(void) {\n  int s = 0;\n"
                    "  for (int i = 0; i < 8; i++) s += codes[i] * (i + 1);\n  const unsigned char *p = codes + 2;\n"
                    "  double t = 0;\n  for (int i = 0; i < 3; i++) t += ptab[i].a * ptab[i].b;\n"
                    "  dtab[1][2] += 10;\n  printf(\"%d %d %d %.2f %.1f %.1f\\n\", s, p[-1], codes[7], t, dtab[1][2],"
                    " dtab[0][1]);\n  return 0;\n}\n")
    subprocess.run(["gcc", "-c", str(tab), "-o", str(tmp / "tab.o")], check=True)
    for opt in ("-O0", "-O2"):
        r = run_pgcc([main, tmp / "tab.o", opt, "-o", tmp / "p"])
        assert r.returncode == 0, r.stderr
        assert run_exe(tmp / "p").stdout == "571 2 34 11.00 16.0 2.0\n"
