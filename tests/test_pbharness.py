"""Differential tests in the layout of the PolyBench/C 4.2.1 suite.

Each kernel in tests/programs/pbharness is a program of two translation units, the kernel and the harness
``bench.c`` (as a PolyBench kernel is built with ``utilities/polybench.c``): heap arrays seen through pointers
to constant-size arrays, array parameters written with size macros, scalars returned through pointers,
results dumped to stderr in dump mode. pgcc -O2 and gcc -O0 -ffp-contract=off must print the same bytes.
Variants cover the harness switches: float data, C99 VLA prototypes, padding and macro loop bounds, stack
arrays, the timer path, and the parts pgcc rejects (real timing needs ``struct timeval``).
"""

import re

import pytest

from conftest import PROGRAMS, build_gcc, run_exe, run_pgcc

HARNESS = PROGRAMS / "pbharness"
BENCH = HARNESS / "bench.c"
KERNELS = sorted(p for p in HARNESS.glob("*.c") if p != BENCH)
DUMP = ["-I", str(HARNESS), "-DBENCH_DUMP_ARRAYS"]


def build_pair(kernel, tmp, flags):
    """The kernel and bench.c built by pgcc -O2 and by gcc -O0; returns (gcc result, pgcc result) of a run."""
    r = run_pgcc([BENCH, kernel, "-O2", *flags, "-o", tmp / "pg"])
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    ref = run_exe(build_gcc(kernel, tmp / "ref", [BENCH, *flags]))
    got = run_exe(tmp / "pg")
    return ref, got


def assert_same(ref, got):
    assert ref.returncode == got.returncode == 0
    assert got.stdout == ref.stdout
    assert got.stderr == ref.stderr


@pytest.mark.parametrize("kernel", KERNELS, ids=[k.stem for k in KERNELS])
def test_same_dump_as_gcc(kernel, tmp):
    ref, got = build_pair(kernel, tmp, [*DUMP, "-DSMALL_DATASET"])
    assert ref.stderr.startswith("<<< arrays\n[") and ref.stderr.endswith(">>> arrays\n")
    assert_same(ref, got)


VARIANTS = {
    # single precision: SCALAR_VAL(x) is x##f, SQRT_FUN is sqrtf, "%0.2f" gets promoted floats
    "float-gemm": ("gemm", ["-DDATA_TYPE_IS_FLOAT"]),
    "float-correlation": ("correlation", ["-DDATA_TYPE_IS_FLOAT"]),
    "double-deriche": ("deriche", ["-DDATA_TYPE_IS_DOUBLE"]),
    # C99 prototypes: VLA parameters, main's pointers to VLAs, a VLA pointer and a VLA scratch array
    "c99-gemm": ("gemm", ["-DBENCH_USE_C99_PROTO"]),
    "c99-cholesky": ("cholesky", ["-DBENCH_USE_C99_PROTO"]),
    "c99-durbin": ("durbin", ["-DBENCH_USE_C99_PROTO"]),
    "c99-doitgen": ("doitgen", ["-DBENCH_USE_C99_PROTO"]),
    "c99-nussinov": ("nussinov", ["-DBENCH_USE_C99_PROTO"]),
    # padded rows (allocation and strides differ from the logical sizes) and loop bounds from the macros
    "pad-jacobi-2d": ("jacobi-2d", ["-DBENCH_PADDING_FACTOR=3", "-DBENCH_USE_SCALAR_LB"]),
    "pad-c99-heat-3d": ("heat-3d", ["-DBENCH_PADDING_FACTOR=2", "-DBENCH_USE_C99_PROTO"]),
    # local arrays instead of heap blocks: constant-size, then C99 variable-length
    "stack-lu": ("lu", ["-DBENCH_STACK_ARRAYS"]),
    "stack-c99-adi": ("adi", ["-DBENCH_STACK_ARRAYS", "-DBENCH_USE_C99_PROTO"]),
}


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_variant_same_dump_as_gcc(name, tmp):
    kernel, flags = VARIANTS[name]
    ref, got = build_pair(HARNESS / f"{kernel}.c", tmp, [*DUMP, "-DMINI_DATASET", *flags])
    assert_same(ref, got)


def test_timer_path_without_dump(tmp):
    """Timer calls (cache flush with calloc + assert, zero clock) and the `argc > 42 && !strcmp(...)` guard
    that keeps print_array alive without running it."""
    ref, got = build_pair(HARNESS / "gemm.c", tmp, ["-I", str(HARNESS), "-DMINI_DATASET", "-DBENCH_RUN_TIMERS"])
    assert ref.stdout == "0.000000\n" and ref.stderr == ""
    assert_same(ref, got)


def test_real_timer(tmp):
    """-DBENCH_TIME: gettimeofday into a local `struct timeval`, fields read back; prints the elapsed seconds."""
    r = run_pgcc([BENCH, HARNESS / "gemm.c", "-I", HARNESS, "-DMINI_DATASET", "-DBENCH_TIME", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    got = run_exe(tmp / "app")
    assert got.returncode == 0 and re.fullmatch(r"\d+\.\d{6}\n", got.stdout), got.stdout
    assert float(got.stdout) < 60.0


def test_corpus_covers_the_suite():
    assert len(KERNELS) == 30


CONSTRUCTS = r"""
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#define REAL double
#define FOR(i, n) for (i = 0; i < (n); i++)
#define ROWS(v, n, m) v[n + 0][m + 0]

double t_total, t_count;  /* tentative definitions: zero-initialized definitions */
static int calls;

static REAL sum(int n, int m, REAL ROWS(A, n, m))  /* VLA sizes written inside a macro */
{
  int i, j;
  REAL s = 0;  /* a declaration that starts with a macro, with an initializer */
  FOR(i, n) FOR(j, m) s += A[i][j] * (i + 1) - j;
  calls++;
  return s;
}

int main(int argc, char **argv)
{
  int n = 5 + argc, m = 3 + argc, i, j;
  REAL (*P)[n][m] = 0;
  REAL (*Q)[m];
  assert(P == 0 && n > 0);
  Q = malloc(sizeof(REAL) * n * m);  /* the sizes come from Q's declaration */
  P = (REAL (*)[n][m]) Q;
  FOR(i, n) FOR(j, m) Q[i][j] = i * 0.5 + j;
  t_total += sum(n, m, Q) + sum(n, m, *P);
  t_count += calls;
  printf("%.3f %.0f %d %s\n", t_total, t_count, (*P)[n - 1][m - 1] == Q[n - 1][m - 1], __func__);
  free(Q);
  return 0;
}
"""


def test_harness_constructs_in_one_program(tmp):
    """The C the harness leans on, in isolation: glibc's assert (a statement expression), tentative
    definitions, pointers to VLA rows (declared, cast, assigned from malloc, compared with null),
    declarations and loops written by macros."""
    src = tmp / "constructs.c"
    src.write_text(CONSTRUCTS)
    r = run_pgcc([src, "-O2", "-o", tmp / "pg"])
    assert r.returncode == 0, r.stderr
    assert_same(run_exe(build_gcc(src, tmp / "ref")), run_exe(tmp / "pg"))
