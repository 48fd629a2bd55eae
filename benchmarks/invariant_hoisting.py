"""Loop-invariant code motion of calls across parallel constructs (issue 20; polygeist_py/licm.py): Enzyme's and
Tapir's normalization ``for (i) out[i] = in[i] / mag(in, n)`` with ``mag`` defined in the same file and ``out``
declared restrict.

Forms: sequential C, ``#pragma omp parallel for`` (-fopenmp), a cpuified CUDA kernel whose threads divide by a
__device__ ``mag``, and the reverse-mode gradient of the sequential and OpenMP forms (``__enzyme_autodiff``).
Each is compared with the same program with ``mag`` hoisted by hand (``-DHOIST``), built by pgcc -O3 and, for the
C forms, by gcc -O3 (gcc hoists nothing across the OpenMP loop: its outlined body calls ``mag`` per iteration).

What is measured: each program times only its normalizations (clock_gettime around ``reps`` calls, input
generation excluded) and prints the seconds per call; the median of ``--reps`` runs is taken. Printed ratios:
- ``n2/n``: time at 2n over time at n (2.0 = linear, 4.0 = quadratic);
- ``vs hand``: time over the hand-hoisted pgcc program's (1.0 = as good as hoisting by hand);
- ``1t/2t``: time at 1 thread over time at 2 threads (parallel speed-up).
Quadratic forms are timed only up to ``--max-quadratic`` elements (gcc's unhoisted programs).

Usage: python benchmarks/invariant_hoisting.py [--sizes 10000,100000] [--reps 3] [--pgcc PGCC]
Timings are printed, never asserted (tests/test_licm*.py check the transformation itself).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

C_SRC = r"""
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#ifdef GRAD
extern void __enzyme_autodiff(void *, ...);
#endif
double mag(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt(s);
}
void normalize(double *restrict out, const double *in, int n) {
#ifdef HOIST
  double m = mag(in, n);
#endif
#ifdef PAR
#pragma omp parallel for
#endif
  for (int i = 0; i < n; i++)
#ifdef HOIST
    out[i] = in[i] / m;
#else
    out[i] = in[i] / mag(in, n);
#endif
}
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
int main(int argc, char **argv) {
  int n = atoi(argv[1]), reps = atoi(argv[2]);
  double *in = malloc(n * sizeof(double)), *out = malloc(n * sizeof(double));
  double *din = calloc(n, sizeof(double)), *dout = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) { in[i] = (i % 7) + 0.5; dout[i] = 1.0 + i % 3; }
  double t0 = now();
  for (int r = 0; r < reps; r++) {
#ifdef GRAD
    __enzyme_autodiff((void *)normalize, out, dout, in, din, n);
#else
    normalize(out, in, n);
#endif
  }
  double t = (now() - t0) / reps, s = 0;
  for (int i = 0; i < n; i++) s += out[i] + din[i];
  printf("%.9g %.6g\n", t, s);
  return 0;
}
"""

CU_SRC = r"""
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <chrono>
__device__ double mag(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt(s);
}
__global__ void normalize(double *__restrict__ out, const double *in, int n, double m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef HOIST
  if (i < n) out[i] = in[i] / m;
#else
  if (i < n) out[i] = in[i] / mag(in, n);
#endif
}
__global__ void norm_kernel(double *m, const double *in, int n) { *m = mag(in, n); }
int main(int argc, char **argv) {
  int n = atoi(argv[1]), reps = atoi(argv[2]);
  double *in = (double *)malloc(n * sizeof(double)), *out = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) in[i] = (i % 7) + 0.5;
  double *din, *dout, *dm, m = 0;
  cudaMalloc(&din, n * sizeof(double)); cudaMalloc(&dout, n * sizeof(double)); cudaMalloc(&dm, sizeof(double));
  cudaMemcpy(din, in, n * sizeof(double), cudaMemcpyHostToDevice);
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; r++) {
#ifdef HOIST
    norm_kernel<<<1, 1>>>(dm, din, n);
    cudaMemcpy(&m, dm, sizeof(double), cudaMemcpyDeviceToHost);
#endif
    normalize<<<(n + 255) / 256, 256>>>(dout, din, n, m);
  }
  cudaDeviceSynchronize();
  double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps;
  cudaMemcpy(out, dout, n * sizeof(double), cudaMemcpyDeviceToHost);
  double s = 0; for (int i = 0; i < n; i++) s += out[i];
  printf("%.9g %.6g\n", t, s);
  return 0;
}
"""


def build(compiler, src, out, flags):
    cmd = [compiler, str(src), "-O3", "-o", str(out), *flags]
    if compiler == "gcc":
        cmd += ["-lm"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"build failed: {' '.join(cmd)}\n{r.stderr}")
    return out


def run(exe, n, threads, reps, quadratic=False):
    """Median seconds per normalization over `reps` runs of `exe` at size `n` (each run repeats the
    normalization for about 2*10^7 element operations, n^2 per call when `quadratic`)."""
    inner = max(1, int(2e7 // (n * n if quadratic else n)))
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    ts = []
    for _ in range(reps):
        r = subprocess.run([str(exe), str(n), str(inner)], capture_output=True, text=True, env=env, timeout=600)
        if r.returncode != 0:
            sys.exit(f"{exe} failed: {r.stderr}")
        ts.append(float(r.stdout.split()[0]))
    return statistics.median(ts)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--max-quadratic", type=int, default=20000)
    ap.add_argument("--pgcc", default=str(Path(sys.executable).parent / "pgcc"))
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    d = Path(tempfile.mkdtemp(prefix="licm_bench_"))
    c, cu = d / "norm.c", d / "norm.cu"
    c.write_text(C_SRC)
    cu.write_text(CU_SRC)
    forms = [  # (name, compiler, source, flags, thread counts)
        ("seq", a.pgcc, c, [], [1]),
        ("omp", a.pgcc, c, ["-fopenmp", "-DPAR"], [1, 2]),
        ("cuda", a.pgcc, cu, ["--cpuify"], [1, 2]),
        ("grad seq", a.pgcc, c, ["-DGRAD"], [1]),
        ("grad omp", a.pgcc, c, ["-fopenmp", "-DPAR", "-DGRAD"], [1, 2]),
        ("gcc seq", "gcc", c, [], [1]),
        ("gcc omp", "gcc", c, ["-fopenmp", "-DPAR"], [1, 2]),
    ]
    print(f"{'form':10} {'thr':>3} {'n':>8} {'s/call':>10} {'hand s/call':>11} {'vs hand':>7} {'n2/n':>6} "
          f"{'1t/2t':>6}")
    for name, comp, src, flags, threads in forms:
        tag = name.replace(" ", "_")
        exe = build(comp, src, d / tag, flags)
        hand = build(comp, src, d / f"{tag}_hand", [*flags, "-DHOIST"])
        quadratic = comp == "gcc"
        one_thread = {}
        for th in threads:
            for n in sizes:
                if quadratic and n > a.max_quadratic:
                    continue
                t, t2 = run(exe, n, th, a.reps, quadratic), run(exe, 2 * n, th, a.reps, quadratic)
                h = run(hand, n, th, a.reps)
                if th == 1:
                    one_thread[n] = t
                speed = f"{one_thread[n] / t:6.2f}" if th > 1 and n in one_thread else f"{'':6}"
                print(f"{name:10} {th:3} {n:8} {t:10.3e} {h:11.3e} {t / h:7.2f} {t2 / t:6.2f} {speed}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
