"""Structs by value across translation units, differential against gcc: every combination of compilers for
caller and callee (pgcc/pgcc, pgcc/gcc, gcc/pgcc) at -O0 and -O2 prints what the gcc/gcc build prints.

The generated types cover every size from 1 to 64 bytes (char arrays), float, double, int and mixed members,
arrays inside structs, nested structs, long double members and padding; each is passed by value (alone and after the integer and SSE
registers are used up) and returned by value, so the x86-64 System V classification (INTEGER/SSE eightbytes,
MEMORY with byval/sret) is exercised on both sides of each call."""

from __future__ import annotations

import subprocess

import pytest

from conftest import PROGRAMS, build_gcc, run_exe, run_pgcc

TYPES = (
    [("c%d" % n, f"char v[{n}];", [("v[%d]" % i, "int") for i in range(n)]) for n in range(1, 65)]
    + [("f%d" % n, f"float v[{n}];", [("v[%d]" % i, "float") for i in range(n)]) for n in (1, 2, 3, 4, 5, 8)]
    + [("d%d" % n, f"double v[{n}];", [("v[%d]" % i, "float") for i in range(n)]) for n in (1, 2, 3, 8)]
    + [("i%d" % n, f"int v[{n}];", [("v[%d]" % i, "int") for i in range(n)]) for n in (1, 3, 5, 16)]
    + [
        ("if", "int a; float b;", [("a", "int"), ("b", "float")]),
        ("di", "double a; int b;", [("a", "float"), ("b", "int")]),
        ("cd", "char a; double b;", [("a", "int"), ("b", "float")]),
        ("ffd", "float a, b; double c;", [("a", "float"), ("b", "float"), ("c", "float")]),
        ("sf3", "short a; float b[3];", [("a", "int"), ("b[0]", "float"), ("b[1]", "float"), ("b[2]", "float")]),
        ("lc9", "long a; char b[9];", [("a", "int")] + [("b[%d]" % i, "int") for i in range(9)]),
        ("nest", "struct { float x, y; } p; struct { int k; double w; } q;",
         [("p.x", "float"), ("p.y", "float"), ("q.k", "int"), ("q.w", "float")]),
        ("dd3i", "double a[3]; int n;", [("a[0]", "float"), ("a[1]", "float"), ("a[2]", "float"), ("n", "int")]),
        # long double: X87 classes, so memory as an argument; a lone one is returned in %st0
        ("ld", "long double v;", [("v", "float")]),
        ("ld1", "struct { long double v[1]; } w;", [("w.v[0]", "float")]),
        ("ldi", "long double a; int b;", [("a", "float"), ("b", "int")]),
        ("dld", "double a; long double b;", [("a", "float"), ("b", "float")]),
    ]
)


def header():
    return "".join(f"typedef struct {{ {body} }} S_{name};\n" for name, body, _ in TYPES)


def callee_source():
    out = [header()]
    for name, _, members in TYPES:
        t = f"S_{name}"
        body = "".join(f"  r.{m} = a.{m} + b.{m} * (salt % 3 + 1) + salt;\n" for m, _ in members)
        out.append(f"{t} mix_{name}({t} a, {t} b, int salt) {{\n  {t} r;\n{body}  return r;\n}}\n")
        # the registers are used up before `s`: it goes in memory even when small
        out.append(f"double late_{name}(long i1, long i2, long i3, long i4, long i5, double f1, double f2, double f3,"
                   f" double f4, double f5, double f6, double f7, double f8, long i6, {t} s, long i7) {{\n"
                   f"  double acc = i1 + i2 * 2 + i3 * 3 + i4 * 4 + i5 * 5 + i6 * 6 + i7 * 7 + f1 + f2 + f3 + f4"
                   f" + f5 + f6 + f7 + f8;\n"
                   + "".join(f"  acc = acc * 3 + s.{m};\n" for m, _ in members)
                   + "  return acc;\n}\n")
    return "".join(out)


def caller_source():
    out = ["#include <stdio.h>\n", header()]
    for name, _, members in TYPES:
        t = f"S_{name}"
        out.append(f"{t} mix_{name}({t} a, {t} b, int salt);\n")
        out.append(f"double late_{name}(long, long, long, long, long, double, double, double, double, double, double,"
                   f" double, double, long, {t}, long);\n")
        fill = "".join(f"  a.{m} = (seed = seed * 1103515245 + 12345) % 7; b.{m} = seed % 5;\n" for m, _ in members)
        # each call in tail position of a small function, its arguments built just before: the shape in which
        # LLVM deletes the stores into an argument that it does not see passed byval
        out.append(f"{t} call_mix_{name}(int seed) {{\n  {t} a, b;\n{fill}  return mix_{name}(a, b, seed & 7);\n}}\n")
        out.append(f"double call_late_{name}({t} r) {{\n"
                   f"  return late_{name}(1, 2, 3, 4, 5, .5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 6, r, 7);\n}}\n")
    out.append("int main(void) {\n")
    for i, (name, _, members) in enumerate(TYPES):
        show = "".join(f'    printf("{"%d" if k == "int" else "%.17g"} ", {"(int)" if k == "int" else "(double)"}r.{m});\n'
                       for m, k in members)
        out.append(f"  {{\n    S_{name} r = call_mix_{name}({i + 1});\n{show}"
                   f'    printf("| %.17g\\n", call_late_{name}(r));\n  }}\n')
    out.append("  return 0;\n}\n")
    return "".join(out)


def gcc_object(src, obj):
    r = subprocess.run(["gcc", "-O0", "-ffp-contract=off", "-c", str(src), "-o", str(obj)], capture_output=True,
                       text=True)
    assert r.returncode == 0, r.stderr
    return obj


def pgcc_object(src, obj, level):
    r = run_pgcc([src, level, "-c", "-o", obj])
    assert r.returncode == 0, r.stderr
    return obj


def link(objs, exe):
    r = subprocess.run(["gcc", *map(str, objs), "-o", str(exe), "-lm"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return exe


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_structs_by_value_across_compilers(tmp, level):
    callee, caller = tmp / "callee.c", tmp / "caller.c"
    callee.write_text(callee_source())
    caller.write_text(caller_source())
    g_callee, g_caller = gcc_object(callee, tmp / "g_callee.o"), gcc_object(caller, tmp / "g_caller.o")
    p_callee, p_caller = pgcc_object(callee, tmp / "p_callee.o", level), pgcc_object(caller, tmp / "p_caller.o", level)
    want = run_exe(link([g_callee, g_caller], tmp / "gg"))
    assert want.returncode == 0 and want.stdout.count("\n") == len(TYPES)
    for objs, name in (([p_callee, p_caller], "pp"), ([p_callee, g_caller], "pg"), ([g_callee, p_caller], "gp")):
        got = run_exe(link(objs, tmp / name))
        assert got.returncode == 0, (name, got.stderr)
        for line, (want_line, (t, _, _)) in zip(got.stdout.splitlines(), zip(want.stdout.splitlines(), TYPES)):
            assert line == want_line, (name, t)


@pytest.mark.parametrize("level", ["-O0", "-O1", "-O2", "-O3"])
def test_negative_subscripts(tmp, level):
    """Pointers indexed below themselves (`p[-1]`, `q[k]` with k < 0, backward walks, windows around a pointer)
    read and write the elements gcc's build does, at every optimization level."""
    src = PROGRAMS / "negative_subscripts.c"
    ref = run_exe(build_gcc(src, tmp / "ref"))
    r = run_pgcc([src, level, "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    got = run_exe(tmp / "app")
    assert (got.returncode, got.stdout) == (0, ref.stdout)


def test_struct_after_one_kind_of_registers_runs_out(tmp):
    """A struct after seven integer arguments (the six integer registers used up, the SSE ones free) goes in
    XMM registers when its eightbytes are all SSE and in memory otherwise; after nine doubles, the reverse.
    Every caller/callee pairing of pgcc and gcc agrees with gcc/gcc (a struct of floats there was passed in
    memory by pgcc: the kernel stub of a launch with eight integer arguments and a float4 read garbage)."""
    types = {"f4": ("float v[4];", "s.v[0] + 2 * s.v[1] + 3 * s.v[2] + 4 * s.v[3]", "{1, 2, 3, 4}"),
             "d2": ("double a, b;", "s.a - 3 * s.b", "{1.5, 2.25}"),
             "fi": ("float x; int k;", "s.x * 5 + s.k", "{2.5f, 7}"),
             "i3": ("int v[3];", "s.v[0] * 9 + s.v[1] * 3 + s.v[2]", "{4, 5, 6}")}
    decls = "".join(f"typedef struct {{ {body} }} T_{n};\n" for n, (body, _, _) in types.items())
    callee, caller = [decls], ["#include <stdio.h>\n", decls, "int main(void) {\n"]
    for n, (_, use, init) in types.items():
        callee.append(f"double ints_{n}(long a, long b, long c, long d, long e, long f, long g, T_{n} s, double x)"
                      f" {{ return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 11 * ({use}) + x; }}\n"
                      f"double sses_{n}(double a, double b, double c, double d, double e, double f, double g,"
                      f" double h, double i, T_{n} s, long k) {{ return a + b * 2 + c * 3 + d + e + f + g + h * 5"
                      f" + i * 7 + 13 * ({use}) + k; }}\n")
        caller.append(f"  {{ double ints_{n}(long, long, long, long, long, long, long, T_{n}, double);\n"
                      f"    double sses_{n}(double, double, double, double, double, double, double, double, double,"
                      f" T_{n}, long);\n    T_{n} s = {init};\n"
                      f'    printf("%.17g %.17g\\n", ints_{n}(1, 2, 3, 4, 5, 6, 7, s, 0.5),'
                      f" sses_{n}(.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, s, 9)); }}\n")
    caller.append("  return 0;\n}\n")
    (tmp / "callee.c").write_text("".join(callee))
    (tmp / "caller.c").write_text("".join(caller))
    g = [gcc_object(tmp / f, tmp / f"g_{f}.o") for f in ("callee.c", "caller.c")]
    p = [pgcc_object(tmp / f, tmp / f"p_{f}.o", "-O2") for f in ("callee.c", "caller.c")]
    want = run_exe(link(g, tmp / "gg"))
    assert want.returncode == 0 and want.stdout.count("\n") == len(types)
    for objs, name in (([p[0], g[1]], "pg"), ([g[0], p[1]], "gp"), (p, "pp")):
        got = run_exe(link(objs, tmp / name))
        assert (got.returncode, got.stdout) == (0, want.stdout), name
