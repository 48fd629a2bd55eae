"""examples/multifile built by make with pgcc as CC and NVCC, as gcc would build it: separate compilation,
-MMD dependency files, static functions and extern globals across files, a CUDA object, gcc objects linked by
pgcc."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT, pgcc_cmd, run_exe

EXAMPLE = ROOT / "examples" / "multifile"
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def make(d, *args):
    pgcc = pgcc_cmd()[0]
    env = dict(os.environ, PATH=f"{Path(pgcc).parent}{os.pathsep}{os.environ['PATH']}")
    return subprocess.run(["make", "-C", str(d), *args], capture_output=True, text=True, env=env)


@pytest.fixture
def tree(tmp):
    d = tmp / "multifile"
    shutil.copytree(EXAMPLE, d)
    return d


def build(d, *args):
    r = make(d, "clean")
    assert r.returncode == 0, r.stderr
    r = make(d, *args)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "Traceback" not in r.stderr
    return r


def test_make_with_pgcc_matches_gcc(tree):
    build(tree, "CC=pgcc", "NVCC=pgcc --cpuify")
    got = [run_exe(tree / "heat", threads=t) for t in (1, 2)]
    got50 = run_exe(tree / "heat", args=["50"])
    build(tree, "CC=gcc", "KERNEL=heat_ref.o")  # every file from gcc, the solver in plain C
    ref, ref50 = run_exe(tree / "heat"), run_exe(tree / "heat", args=["50"])
    assert ref.returncode == 0 and ref50.returncode == 0, ref.stderr
    for g in got + [got50]:
        assert g.returncode == 0, g.stderr  # heat conserved: checked by the program itself
    assert got[0].stdout == got[1].stdout == ref.stdout
    assert got50.stdout == ref50.stdout and got50.stdout != got[0].stdout
    # values known independently: 2650 units of heat (grid.c's initial state), conserved by the solver
    assert "before: sum 2650.000000 max 100.000000" in ref.stdout
    assert "after:  sum 2650.000000" in ref.stdout and "init calls 1" in ref.stdout


def test_gcc_objects_with_pgcc_cuda_object(tree):
    build(tree, "CC=pgcc", "NVCC=pgcc --cpuify")
    want = run_exe(tree / "heat").stdout
    build(tree, "CC=gcc", "NVCC=pgcc --cpuify", "LINK=pgcc")
    assert run_exe(tree / "heat").stdout == want


def test_dependency_files_drive_rebuilds(tree):
    build(tree, "CC=pgcc", "NVCC=pgcc --cpuify")
    dep = (tree / "main.d").read_text().replace(" \\\n", "")
    assert dep.startswith("main.o: main.c include/heat.h\n") and "\ninclude/heat.h:\n" in dep  # -MMD -MP
    assert "stdio.h" not in dep  # -MMD leaves system headers out
    assert make(tree, "-q", "CC=pgcc", "NVCC=pgcc --cpuify").returncode == 0  # up to date
    os.utime(tree / "include" / "heat.h")
    r = make(tree, "CC=pgcc", "NVCC=pgcc --cpuify")
    assert r.returncode == 0, r.stderr
    assert "-c main.c" in r.stdout and "-c heat.cu" in r.stdout  # the header's users are rebuilt


def test_one_command_mixing_c_cu_and_objects(tree):
    """.c, .cu and gcc .o inputs in one pgcc command, as gcc takes them."""
    build(tree, "CC=gcc", "KERNEL=heat_ref.o")
    want = run_exe(tree / "heat").stdout
    for f in ("grid.o", "heat_ref.o", "heat"):
        (tree / f).unlink()
    pgcc = pgcc_cmd()
    r = subprocess.run(pgcc + ["--cpuify", "-O2", "-Iinclude", "main.c", "params.o", "grid.c", "stats.o", "heat.cu",
                               "-o", "heat", "-lm"], cwd=tree, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert run_exe(tree / "heat").stdout == want
