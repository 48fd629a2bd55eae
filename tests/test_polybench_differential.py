"""Differential tests: our PolyBench-style kernels compiled by pgcc and by gcc -O0 -ffp-contract=off print the
same bytes (stdout checksum and the stderr dump of every array element)."""

import pytest

from conftest import PROGRAMS, build_gcc, build_pgcc, run_exe

KERNELS = sorted((PROGRAMS / "polybench").glob("*.c"))


@pytest.mark.parametrize("src", KERNELS, ids=[k.stem for k in KERNELS])
def test_same_output_as_gcc(src, tmp):
    ref = run_exe(build_gcc(src, tmp / "ref"))
    got = run_exe(build_pgcc(src, tmp / "pg"))
    assert ref.returncode == got.returncode == 0
    assert got.stdout == ref.stdout
    assert got.stderr == ref.stderr


def test_corpus_is_large_enough():
    assert len(KERNELS) >= 12
