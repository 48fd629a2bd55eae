"""Issue 23: the `pgcc` command ends without the interpreter's teardown (driver.exit_now), and loses nothing by it:
exit handlers still run, buffered output still reaches a pipe, exit statuses are kept (the timings are in
benchmarks/compile_time.py)."""

import os
import subprocess
import sys

from conftest import build_gcc, run_exe, run_pgcc

# A child Python process: an object whose finalizer would print at teardown, an exit handler, text left in
# stdout's buffer (a pipe: block-buffered), then exit_now.
CHILD = r"""
import atexit, sys
from polygeist_py.driver import exit_now
class Finalized:
    def __del__(self):
        print("finalizer ran")
kept = Finalized()
atexit.register(lambda: print("exit handler ran"))
sys.stdout.write("buffered " * 2000)
exit_now(int(sys.argv[1]))
"""


def test_exit_now_skips_teardown_but_flushes_and_runs_exit_handlers():
    for status in (0, 1, 130):
        r = subprocess.run([sys.executable, "-c", CHILD, str(status)], capture_output=True, text=True,
                           env={k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"})
        assert r.returncode == status, r.stderr
        assert r.stdout.count("buffered ") == 2000  # nothing lost from the buffer
        assert r.stdout.endswith("exit handler ran\n")
        assert "finalizer ran" not in r.stdout  # no teardown: module globals are never freed


def test_pgcc_output_to_a_pipe_and_exit_status(tmp):
    """The command itself: `-S -o -` writes the whole assembly through a pipe; a program compiled and linked by
    the same run prints what gcc's build prints; an error exits 1 with its diagnostic."""
    src = tmp / "p.c"
    src.write_text("#include <stdio.h>\n"
                   "static double a[64];\n"
                   "int main(void) {\n"
                   "  double s = 0;\n"
                   "  for (int i = 0; i < 64; i++) a[i] = i * 0.5;\n"
                   "  for (int i = 0; i < 64; i++) s += a[i] * a[i];\n"
                   "  printf(\"%.3f\\n\", s);\n"
                   "  return 0;\n"
                   "}\n")
    asm = run_pgcc(["-O3", "-S", src, "-o", "-"])
    assert asm.returncode == 0, asm.stderr
    assert "main:" in asm.stdout and asm.stdout.rstrip().endswith(".section\t\".note.GNU-stack\",\"\",@progbits")
    got = run_pgcc(["-O3", src, "-o", tmp / "app"])
    assert got.returncode == 0, got.stderr
    assert run_exe(tmp / "app").stdout == run_exe(build_gcc(src, tmp / "ref")).stdout
    bad = tmp / "bad.c"
    bad.write_text("int main(void) { return undeclared_name; }\n")
    r = run_pgcc(["-c", bad, "-o", tmp / "bad.o"])
    assert r.returncode == 1
    assert "bad.c:1:" in r.stderr and "error:" in r.stderr and "Traceback" not in r.stderr


def test_c_links_without_the_cxx_library_and_cxx_objects_still_link(tmp):
    """A link of C sources only does not read libstdc++ (as gcc's C link; backend.needs_cxx_library), and the
    program runs as gcc's build does; an object from elsewhere (here a C++ one, as a .cu file's host code is)
    still gets the C++ library."""
    main = tmp / "main.c"
    main.write_text("#include <stdio.h>\n"
                    "double twice(double);\n"
                    "int main(void) { printf(\"%.1f\\n\", twice(20.5)); return 0; }\n")
    lib = tmp / "lib.c"
    lib.write_text("double twice(double x) { return 2 * x; }\n")
    dry = run_pgcc(["-###", main, lib, "-o", tmp / "app"])
    assert dry.returncode == 0, dry.stderr
    link_line = dry.stderr.strip().splitlines()[-1]
    assert "-lomp" in link_line and "stdc++" not in link_line
    got = run_pgcc([main, lib, "-o", tmp / "app"])
    assert got.returncode == 0, got.stderr
    assert run_exe(tmp / "app").stdout == "41.0\n"
    cxx = tmp / "twice.cpp"  # std::string needs libstdc++
    cxx.write_text('#include <string>\n'
                   'extern "C" double twice(double x) { return std::stod(std::to_string(x)) * 2; }\n')
    r = subprocess.run(["g++", "-O1", "-c", str(cxx), "-o", str(tmp / "twice.o")], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    got = run_pgcc([main, tmp / "twice.o", "-o", tmp / "app2"])
    assert got.returncode == 0, got.stderr
    assert run_exe(tmp / "app2").stdout == "41.0\n"
