"""Loop-invariant code motion across parallel constructs (issue 20; polygeist_py/licm.py): Enzyme's and Tapir's
normalization ``for (i) out[i] = in[i] / mag(in, n)`` with ``mag`` defined in the same file and ``out`` declared
restrict, against the same program with ``mag`` hoisted by hand.

Forms: sequential C, ``#pragma omp parallel for`` (-fopenmp), a cpuified CUDA kernel whose threads divide by a
__device__ ``mag`` (``cuda``: one element per thread; ``cuda_gs``: a grid-stride loop over 64 blocks of 256), and
the reverse-mode gradients of the sequential and OpenMP forms (``__enzyme_autodiff``) and of the CUDA form
(``grad_cuda``: each thread differentiates its own element, Enzyme's GPU form; the adjoint of the invariant ``mag``
runs once per launch, ad/gpu_block.py; no hand-hoisted program: ``hand`` is nan).
The hoisted ``mag`` is a serial reduction (a floating-point sum is not reassociated unless the program says
so), which bounds the 2-thread speed-up of the OpenMP, CUDA and gradient forms (Amdahl); form ``omp_red`` is the
OpenMP form whose ``mag`` says so (``#pragma omp parallel for reduction(+ : s)``), hoisted all the same.
Each is built by pgcc -O3 as written (``auto``) and with ``mag`` hoisted by hand (``-DHOIST``) by pgcc -O3 and,
for the C forms, by gcc -O3 (gcc cannot build the CUDA form or the gradients' ``__enzyme_autodiff``: n/a there).
gcc -O3 without the hand hoisting is
quadratic (its outlined OpenMP body calls ``mag`` per iteration): it is timed only up to ``--max-quadratic``.

What is measured: each program times only its normalizations (clock_gettime around ``inner`` calls, input
generation excluded, ``inner`` chosen for about 4*10^7 element operations per run) and prints the seconds per
call; the programs of one row run interleaved ``--reps`` times and the median is taken. Printed ratios:
- ``auto/hand``: pgcc's time over the hand-hoisted pgcc program's (1.0 = as good as hoisting by hand);
- ``auto/gcc``: pgcc's time over the hand-hoisted gcc -O3 program's;
- ``x10n``: time at n over time at n/10 (10 = linear, 100 = quadratic);
- ``1t/2t``: time at 1 thread over time at 2 threads (parallel speed-up; the machine's load is printed);
- ``bound``: the most 2 threads can give a form whose hoisted ``mag`` is serial (Amdahl: 1 / (f + (1 - f) / 2)
  with f = the time of ``mag`` alone over the hand-hoisted program's at 1 thread).

Usage: python benchmarks/parallel_licm.py [--sizes 10000,100000,1000000] [--reps 5] [--pgcc PGCC]
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
#ifdef PAR_MAG
#pragma omp parallel for reduction(+ : s)
#endif
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt(s);
}
void normalize(double *restrict out, const double *in, int n) {
#ifdef MAG_ONLY
  out[0] = mag(in, n);  /* the serial part of the hoisted forms, timed alone */
  return;
#endif
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
#ifdef GRID_STRIDE
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
#else
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
#endif
#ifdef HOIST
    out[i] = in[i] / m;
#else
    out[i] = in[i] / mag(in, n);
#endif
}
__global__ void norm_kernel(double *m, const double *in, int n) { *m = mag(in, n); }
#ifdef GRAD
extern int enzyme_dup, enzyme_const;
template <typename... T> __device__ void __enzyme_autodiff(void *, T...);
__device__ void norm_thread(double *__restrict__ out, const double *__restrict__ in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] / mag(in, n);
}
__global__ void norm_grad(double *__restrict__ out, double *__restrict__ dout, const double *__restrict__ in,
                          double *__restrict__ din, int n) {
  __enzyme_autodiff((void *)norm_thread, enzyme_dup, out, dout, enzyme_dup, in, din, enzyme_const, n);
}
#endif
int main(int argc, char **argv) {
  int n = atoi(argv[1]), reps = atoi(argv[2]);
  double *in = (double *)malloc(n * sizeof(double)), *out = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) in[i] = (i % 7) + 0.5;
  double *din, *dout, *dm, m = 0;
  cudaMalloc(&din, n * sizeof(double)); cudaMalloc(&dout, n * sizeof(double)); cudaMalloc(&dm, sizeof(double));
  cudaMemcpy(din, in, n * sizeof(double), cudaMemcpyHostToDevice);
#ifdef GRAD
  double *seed, *grad;  /* the seeds of out and the gradient of in */
  cudaMalloc(&seed, n * sizeof(double)); cudaMalloc(&grad, n * sizeof(double));
  cudaMemset(grad, 0, n * sizeof(double));
#endif
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; r++) {
#ifdef GRAD
    cudaMemcpy(seed, in, n * sizeof(double), cudaMemcpyHostToDevice);  /* (the reverse sweep zeroes the seeds) */
    norm_grad<<<(n + 255) / 256, 256>>>(dout, seed, din, grad, n);
    continue;
#endif
#ifdef HOIST
    norm_kernel<<<1, 1>>>(dm, din, n);
    cudaMemcpy(&m, dm, sizeof(double), cudaMemcpyDeviceToHost);
#endif
#ifdef GRID_STRIDE
    normalize<<<64, 256>>>(dout, din, n, m);
#else
    normalize<<<(n + 255) / 256, 256>>>(dout, din, n, m);
#endif
  }
  cudaDeviceSynchronize();
  double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / reps;
  cudaMemcpy(out, dout, n * sizeof(double), cudaMemcpyDeviceToHost);
  double s = 0; for (int i = 0; i < n; i++) s += out[i];
#ifdef GRAD
  cudaMemcpy(out, grad, n * sizeof(double), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) s += out[i];
#endif
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


def run_interleaved(exes, n, threads, reps, quadratic=()):
    """Median seconds per normalization of each of `exes` at size `n` with `threads` OpenMP threads, over `reps`
    rounds that run every program once, in turn (the exes in `quadratic` do n^2 work per call: fewer calls)."""
    env = dict(os.environ, OMP_NUM_THREADS=str(threads))
    ts = {e: [] for e in exes}
    for _ in range(reps):
        for e in exes:
            inner = max(1, int(4e7 // (n * n if e in quadratic else n)))
            r = subprocess.run([str(e), str(n), str(inner)], capture_output=True, text=True, env=env, timeout=900)
            if r.returncode != 0:
                sys.exit(f"{e} failed: {r.stderr}")
            ts[e].append(float(r.stdout.split()[0]))
    return {e: statistics.median(v) for e, v in ts.items()}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--max-quadratic", type=int, default=10000)
    ap.add_argument("--forms", help="comma-separated subset of seq,omp,omp_red,cuda,cuda_gs,grad_seq,grad_omp,"
                                    "grad_cuda")
    ap.add_argument("--pgcc", default=str(Path(sys.executable).parent / "pgcc"))
    a = ap.parse_args()
    sizes = [int(s) for s in a.sizes.split(",")]
    d = Path(tempfile.mkdtemp(prefix="parallel_licm_"))
    c, cu = d / "norm.c", d / "norm.cu"
    c.write_text(C_SRC)
    cu.write_text(CU_SRC)
    forms = [  # (name, source, flags, thread counts, gcc builds it, its hoisted mag is serial)
        ("seq", c, [], [1], True, False),
        ("omp", c, ["-fopenmp", "-DPAR"], [1, 2], True, True),
        ("omp_red", c, ["-fopenmp", "-DPAR", "-DPAR_MAG"], [1, 2], True, False),
        ("cuda", cu, ["--cpuify"], [1, 2], False, True),
        ("cuda_gs", cu, ["--cpuify", "-DGRID_STRIDE"], [1, 2], False, True),
        ("grad_seq", c, ["-DGRAD"], [1], False, False),
        ("grad_omp", c, ["-fopenmp", "-DPAR", "-DGRAD"], [1, 2], False, False),
        ("grad_cuda", cu, ["--cpuify", "-DGRAD"], [1, 2], False, False),
    ]
    if a.forms:
        forms = [f for f in forms if f[0] in a.forms.split(",")]
    print(f"load average before: {os.getloadavg()[0]:.2f} (2 cores shared)")
    print(f"{'form':9} {'thr':>3} {'n':>8} {'auto s':>10} {'hand s':>10} {'auto/hand':>9} {'gcc hand s':>10} "
          f"{'auto/gcc':>8} {'x10n':>6} {'1t/2t':>6} {'bound':>5} {'gcc auto s':>10}")
    mag_only = build(a.pgcc, c, d / "mag_only", ["-DMAG_ONLY"])
    for name, src, flags, threads, gcc_builds, serial_mag in forms:
        auto = build(a.pgcc, src, d / name, flags)
        # (grad_cuda: the hand-hoisted kernel takes the norm as an argument, so its gradient is another function)
        hand = build(a.pgcc, src, d / f"{name}_hand", [*flags, "-DHOIST"]) if name != "grad_cuda" else None
        ghand = build("gcc", src, d / f"{name}_gcc_hand", [*flags, "-DHOIST"]) if gcc_builds else None
        gauto = build("gcc", src, d / f"{name}_gcc", flags) if gcc_builds else None
        one_thread, prev, bound = {}, {}, {}
        for th in threads:
            for n in sizes:
                exes = [e for e in (auto, hand, ghand) if e is not None]
                if gauto is not None and n <= a.max_quadratic:
                    exes.append(gauto)
                if serial_mag and th == 1 and len(threads) > 1:
                    exes.append(mag_only)
                t = run_interleaved(exes, n, th, a.reps, quadratic=(gauto,))
                ta, th_ = t[auto], t.get(hand, float("nan"))
                if th == 1:
                    one_thread[n] = ta
                if mag_only in t and hand is not None:  # Amdahl: the serial fraction f of the hand-hoisted
                    # program at 1 thread
                    f = min(1.0, t[mag_only] / th_)
                    bound[n] = 1 / (f + (1 - f) / 2)
                bnd = f"{bound[n]:5.2f}" if th > 1 and n in bound else f"{'':5}"
                speed = f"{one_thread[n] / ta:6.2f}" if th > 1 and n in one_thread else f"{'':6}"
                scale = f"{ta / prev[(th, n // 10)]:6.1f}" if (th, n // 10) in prev else f"{'':6}"
                prev[(th, n)] = ta
                g = f"{t[ghand]:10.3e} {ta / t[ghand]:8.2f}" if ghand in t else f"{'n/a':>10} {'':8}"
                ga = f"{t[gauto]:10.3e}" if gauto in t else f"{'':10}"
                print(f"{name:9} {th:3} {n:8} {ta:10.3e} {th_:10.3e} {ta / th_:9.2f} {g} {scale} {speed} {bnd} "
                      f"{ga}", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
