"""gcc behaviours Makefiles rely on, and the driver's diagnostics on every bad-input path: several errors
per file, errors in headers and in the second of several files, warnings, link errors, odd inputs, internal
errors in one line."""

import os
import re
import subprocess

import pytest

from conftest import run_exe, run_pgcc
from polygeist_py import driver


def no_traceback(r):
    assert "Traceback" not in r.stderr, r.stderr


def test_every_parse_error_is_reported(tmp):
    (tmp / "e.c").write_text("int main(void) {\n  int x = ;\n  int y = z;\n  return 0\n}\n")
    r = run_pgcc(["e.c", "-o", "x"], cwd=tmp)
    assert r.returncode == 1
    no_traceback(r)
    pos = re.findall(r"^e\.c:(\d+):(\d+): error: ", r.stderr, re.M)
    assert pos == [("2", "11"), ("3", "11"), ("4", "11")]
    assert r.stderr.rstrip().endswith("3 errors generated.")
    assert "  int y = z;\n          ^" in r.stderr  # each with its line and caret


def test_error_in_header_points_into_the_header(tmp):
    (tmp / "h.h").write_text("int ok(void);\nint broken(int a, ) ;\n")
    (tmp / "m.c").write_text('#include "h.h"\nint main(void) { return 0; }\n')
    r = run_pgcc(["m.c", "-c"], cwd=tmp)
    assert r.returncode == 1
    assert re.search(r"h\.h:2:19: error: expected parameter declarator\nint broken\(int a, \) ;\n {18}\^", r.stderr)


def test_error_in_second_file_all_files_compiled(tmp):
    (tmp / "a.c").write_text("int a(void) { return 1 }\n")
    (tmp / "b.c").write_text("int b(void) { return q; }\n")
    (tmp / "c.c").write_text("int c(void) { return 3; }\n")
    r = run_pgcc(["-c", "c.c", "a.c", "b.c"], cwd=tmp)
    assert r.returncode == 1
    no_traceback(r)
    assert "a.c:1:23: error: expected ';'" in r.stderr and "b.c:1:22: error: use of undeclared identifier 'q'" in r.stderr
    assert (tmp / "c.o").exists() and not (tmp / "a.o").exists()


def test_warnings_do_not_fail_the_build(tmp):
    (tmp / "w.c").write_text("int main(void) {\n  int x = 0;\n  if (x = 2) return x;\n  return 0;\n}\n")
    r = run_pgcc(["w.c", "-o", "w"], cwd=tmp)
    assert r.returncode == 0, r.stderr
    assert "w.c:3:9: warning: using the result of an assignment as a condition" in r.stderr
    assert run_exe(tmp / "w").returncode == 2
    assert run_pgcc(["-w", "w.c", "-o", "w"], cwd=tmp).stderr == ""
    r = run_pgcc(["-Werror", "w.c", "-o", "w"], cwd=tmp)
    assert r.returncode == 1 and "-Werror" in r.stderr


def test_undefined_symbol_is_a_linker_error(tmp):
    (tmp / "u.c").write_text("int missing(int);\nint main(void) { return missing(1); }\n")
    r = run_pgcc(["u.c", "-o", "u"], cwd=tmp)
    assert r.returncode == 1
    no_traceback(r)
    assert "undefined reference to `missing'" in r.stderr
    assert r.stderr.rstrip().splitlines()[-1] == "pgcc: error: linker command failed with exit code 1"
    r = run_pgcc(["u.c", "-lnosuchlibrary", "-o", "u"], cwd=tmp)
    assert r.returncode == 1 and "linker command failed" in r.stderr


@pytest.mark.parametrize("setup,args,pattern", [
    (None, ["nope.c"], r"pgcc: error: nope\.c: No such file or directory"),
    ("dir", ["d.c"], r"pgcc: error: d\.c: Is a directory"),
    (None, ["-E", "x.c", "x.h", "-o", "both.i"], r"pgcc: error: cannot specify -o with -E and multiple files"),
    (None, ["-x", "fortran", "x.c"], r"pgcc: error: language 'fortran' not recognized"),
    (None, ["x.c", "-o"], r"pgcc: error: argument to '-o' is missing"),
    (None, ["x.h"], r"pgcc: error: x\.h: cannot compile a header"),
    (None, ["-c", "x.c", "-o", "no/such/dir/x.o"], r"pgcc: error: cannot open output file 'no/such/dir/x\.o'"),
    ("garbage", ["-c", "g.c"], r"g\.c:1:\d+: error: "),
])
def test_bad_invocations(tmp, setup, args, pattern):
    (tmp / "x.c").write_text("int main(void) { return 0; }\n")
    (tmp / "x.h").write_text("int f(void);\n")
    if setup == "dir":
        (tmp / "d.c").mkdir()
    if setup == "garbage":
        (tmp / "g.c").write_bytes(bytes(range(256)) * 4)
    r = run_pgcc(args, cwd=tmp)
    assert r.returncode == 1
    no_traceback(r)
    assert re.search(pattern, r.stderr), r.stderr


def test_preprocess_and_assemble_through_the_system_compiler(tmp):
    """-E preprocesses with the system's cc (pgcc's -D/-I and __PGCC__), and the output compiles; -M/-MM list
    the dependencies as gcc does; `-c x.S`
    assembles (it was taken for a linker input and no object was written)."""
    (tmp / "inc").mkdir()
    (tmp / "inc" / "k.h").write_text("#define K (SCALE * 7)\n")
    (tmp / "p.c").write_text('#include "k.h"\n#ifdef __PGCC__\nint k = K;\n#endif\nint main(void) { return k; }\n')
    r = run_pgcc(["-E", "-Iinc", "-DSCALE=3", "p.c"], cwd=tmp)
    assert r.returncode == 0 and "int k = (3 * 7);" in r.stdout, r.stderr
    r = run_pgcc(["-E", "-Iinc", "-DSCALE=2", "p.c", "-o", "p.i"], cwd=tmp)
    assert r.returncode == 0 and (tmp / "p.i").exists()
    # -M / -MM: make's rule, as gcc's driver prints it (the makedepend step of older Makefiles)
    for flags in (["-M"], ["-MM"], ["-MM", "-MT", "obj/p.o", "-MP"]):
        r = run_pgcc([*flags, "-Iinc", "p.c"], cwd=tmp)
        want = subprocess.run(["gcc", *flags, "-Iinc", "p.c"], cwd=tmp, capture_output=True, text=True).stdout
        assert r.returncode == 0 and r.stdout == want and "inc/k.h" in r.stdout, r.stderr
    r = run_pgcc(["-MM", "-Iinc", "p.c", "-MF", "p.dep"], cwd=tmp)
    assert r.returncode == 0 and (tmp / "p.dep").read_text().split() == ["p.o:", "p.c", "inc/k.h"]
    (tmp / "f.S").write_text("#define VALUE 42\n.globl forty_two\nforty_two:\n  movl $VALUE, %eax\n  ret\n"
                             ".section .note.GNU-stack,\"\",@progbits\n")
    (tmp / "m.c").write_text("int forty_two(void);\nint main(void) { return forty_two() - 42; }\n")
    r = run_pgcc(["-c", "f.S", "-o", "f.o"], cwd=tmp)
    assert r.returncode == 0 and (tmp / "f.o").exists() and not r.stderr, r.stderr
    for inputs in (["p.i"], ["m.c", "f.o"]):
        r = run_pgcc([*inputs, "-o", "app"], cwd=tmp)
        assert r.returncode == 0, r.stderr
        assert subprocess.run([str(tmp / "app")]).returncode == (14 if inputs == ["p.i"] else 0)


def test_empty_file_compiles_like_gcc(tmp):
    (tmp / "empty.c").write_text("")
    r = run_pgcc(["-c", "empty.c"], cwd=tmp)
    assert r.returncode == 0 and (tmp / "empty.o").exists()


def test_language_flag_dependency_files_and_shared_library(tmp):
    (tmp / "inc").mkdir()
    (tmp / "inc" / "k.h").write_text("#define K 7\n")
    (tmp / "lib.txt").write_text('#include "k.h"\nint k(void) { return K; }\n')
    (tmp / "main.c").write_text("int k(void);\nint main(void) { return k(); }\n")
    r = run_pgcc(["-x", "c", "lib.txt", "-x", "none", "-Iinc", "-MD", "-MF", "deps.mk", "-MT", "obj/lib.o",
                  "-fPIC", "-shared", "-o", "libk.so"], cwd=tmp)
    assert r.returncode == 0, r.stderr
    deps = (tmp / "deps.mk").read_text()
    assert deps.startswith("obj/lib.o: lib.txt") and "inc/k.h" in deps and "stdio" not in deps
    r = run_pgcc(["main.c", "-L.", "-lk", "-Wl,-rpath,$ORIGIN", "-pthread", "-std=c99", "-o", "app"], cwd=tmp)
    assert r.returncode == 0, r.stderr
    assert run_exe(tmp / "app").returncode == 7


def test_cuda_language_for_a_c_file(tmp):
    (tmp / "k.c").write_text("__global__ void k(int *a) { a[threadIdx.x] = threadIdx.x; }\n"
                             "int main(void) { int *d; cudaMalloc((void **)&d, 32 * sizeof(int));\n"
                             "  k<<<1, 32>>>(d); int h[32]; cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n"
                             "  return h[31]; }\n")
    r = run_pgcc(["-x", "cuda", "k.c", "--cpuify", "-o", "k"], cwd=tmp)
    assert r.returncode == 0, r.stderr
    assert run_exe(tmp / "k").returncode == 31
    r = run_pgcc(["-x", "cuda", "k.c", "-o", "k"], cwd=tmp)
    assert r.returncode == 1 and "need --cpuify" in r.stderr


def test_version_and_help():
    r = run_pgcc(["--version"])
    assert r.returncode == 0 and r.stdout.startswith("pgcc (polygeist-py)")
    assert run_pgcc(["--help"]).stdout.startswith("Usage: pgcc")


def test_internal_error_is_one_line(tmp, monkeypatch, capsys):
    (tmp / "x.c").write_text("int main(void) { return 0; }\n")

    def broken(*a, **k):
        raise RuntimeError("stage exploded\nsecond line")

    monkeypatch.setattr("polygeist_py.stages.run_stages", broken)
    assert driver.main([str(tmp / "x.c"), "-S", "-o", str(tmp / "x.s")]) == 1
    err = capsys.readouterr().err
    assert err.splitlines() == [f"pgcc: internal compiler error: RuntimeError while compiling '{tmp / 'x.c'}': "
                                "stage exploded (run with --debug for the trace)"]
    assert driver.main([str(tmp / "x.c"), "-S", "--debug", "-o", str(tmp / "x.s")]) == 1
    assert "Traceback" in capsys.readouterr().err


def test_deeply_nested_expression(tmp):
    """libclang's child visitor is a ctypes callback: deep recursion there must neither print 'Exception
    ignored' tracebacks nor truncate the tree; pgcc runs on a deep stack."""
    (tmp / "deep.c").write_text("int main(void) { int x = 1; return " + "+".join(["x"] * 3000) + "; }\n")
    r = run_pgcc(["deep.c", "-o", "deep"], cwd=tmp)
    assert r.returncode == 0 and r.stderr == "", r.stderr
    assert run_exe(tmp / "deep").returncode == 3000 % 256


def test_constant_index_outside_a_global_is_an_error(tmp):
    """Found by the fuzzer: MLIR's constant folding asserted (the process aborted) on this index."""
    (tmp / "cb.c").write_text('static const char names[4] = "ACG";\nint main(void) { return names[9223372036854775807LL]; }\n')
    r = run_pgcc(["cb.c", "-o", "cb"], cwd=tmp)
    assert r.returncode == 1
    assert "cb.c:2:25: error: array index 9223372036854775807 is outside the array's 4 elements" in r.stderr


def test_kernel_without_launch(tmp):
    """Found by the fuzzer (a truncated CUDA file): block ids left outside a launch crashed LLVM's translation.
    Without --cpuify (and with host code compiled by pgcc) that is an error; with --cpuify and nvcc's model the
    kernel gets its stub, for launches from other files."""
    (tmp / "k.cu").write_text("__global__ void k(int *a) { a[threadIdx.x] = 1; }\n")
    for flags in ([], ["--cpuify", "--cuda-host=pgcc"]):
        r = run_pgcc(["-c", "k.cu", *flags], cwd=tmp)
        assert r.returncode == 1 and "Traceback" not in r.stderr
        assert "k.cu:1:41: error: unsupported construct: kernel code outside a launch in this file" in r.stderr
    r = run_pgcc(["-c", "k.cu", "--cpuify"], cwd=tmp)
    assert r.returncode == 0, r.stderr
    nm = subprocess.run(["nm", str(tmp / "k.o")], capture_output=True, text=True).stdout
    assert " T _Z1kPi" in nm


def test_subscript_constant_beyond_int64(tmp):
    """Found by the fuzzer: an affine subscript whose constant leaves int64 is not affine (it failed building
    the affine map); the branch never runs."""
    (tmp / "s.c").write_text("#include <stdio.h>\nint main(int argc, char **argv) {\n  double h[400];\n"
                             "  for (int i = 0; i < 400; i++) h[i] = i;\n"
                             "  if (argc > 5) printf(\"%f\\n\", h[9223372036854775807LL * 20 + 100]);\n"
                             "  printf(\"%f\\n\", h[12 * 20 + 100]);\n  return 0;\n}\n")
    r = run_pgcc(["-w", "s.c", "-o", "s"], cwd=tmp)
    assert r.returncode == 0, r.stderr
    assert run_exe(tmp / "s").stdout == "340.000000\n"
