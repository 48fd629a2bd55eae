"""Overhead of automatic differentiation: time of the gradient / time of the primal, per program.

What is measured: for each program below (written for this benchmark, in the style of Enzyme's benchmarks),
``main`` calls the primal function and the gradient function (``__enzyme_autodiff``) ``reps`` times each,
interleaved, timing each call with a gcc-compiled ``CLOCK_MONOTONIC`` timer linked into the pgcc binary; the
reported time is the median; ratio = gradient median / primal median. The gradient includes its own forward
sweep (as Enzyme's does). Output arrays are ``restrict`` where the program's
arrays are distinct (it lets both LLVM and the AD's overwritten-memory analysis see that inputs are not
overwritten, so the reverse sweep re-reads them instead of caching). Programs are built with ``pgcc -O3`` (``--cpuify`` for the CUDA one) and run with
OMP_NUM_THREADS=1. One coordinate of each gradient is checked against a central finite difference and the
relative error printed (a benchmark that computes the wrong thing is not a benchmark).

JAX: when ``jax`` is importable, the programs that have a JAX twin below are timed the same way with
``jax.jit(f)`` and ``jax.jit(jax.grad(f))`` (float64): their ratio, JAX's gradient time and how many times slower
it is than ours are printed; otherwise the columns say n/a. The Taylor twin is the same recurrence as a
``lax.fori_loop``. The last line is the geometric mean of our ratios.

Usage: python benchmarks/ad_overhead.py [--reps 7] [--only taylor_log,matmul] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

TIMER_C = r"""
#define _POSIX_C_SOURCE 199309L
#include <time.h>
double bench_now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + 1e-9 * t.tv_nsec; }
/* opaque to the optimizer of the timed binary: the primal cannot be hoisted out of the repetition loop */
double bench_opaque(double x) { return x; }
void *bench_escaped;
void bench_escape(void *p) { bench_escaped = p; }
double bench_sunk;
void bench_sink(double x) { bench_sunk += x; }
"""

# Every program defines: PRIMAL_CALL (an expression), GRAD_CALL (a statement), FD_CHECK (prints the relative
# error of one gradient entry); SETUP fills the inputs. The harness below wraps them.
HARNESS = r"""
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#ifdef __cplusplus
extern "C" {  /* the timer is C (a .cu file is C++, compiled by the host compiler as nvcc does) */
#endif
double bench_now(void);
double bench_opaque(double x);
void bench_escape(void *p);
void bench_sink(double x);
#ifdef __cplusplus
}
#endif
extern int enzyme_const, enzyme_dup, enzyme_out;
extern double __enzyme_autodiff(void *, ...);
%(body)s
int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 5;
  %(setup)s
  for (int r = 0; r < reps; r++) {
    double t0 = bench_now();
    bench_sink(%(primal)s);  /* an opaque call: the primal cannot move past the timer */
    double t1 = bench_now();
    %(grad)s
    double t2 = bench_now();
    printf("times %%.9f %%.9f\n", t1 - t0, t2 - t1);
  }
  %(check)s
  return 0;
}
"""

PROGRAMS = {}


def program(name, body, setup, primal, grad, check, cuda=False):
    PROGRAMS[name] = dict(body=body, setup=setup, primal=primal, grad=grad, check=check, cuda=cuda)


program("taylor_log", r"""
/* log(x) around 1 by its Taylor series with N = 10^6 terms */
double taylor_log(double x, int n) {
  double s = 0, p = 1, y = x - 1;
  for (int k = 1; k <= n; k++) { p *= y; s += (k % 2 ? p : -p) / k; }
  return s;
}""", "int n = 1000000; double x = 1.3; double g = 0;",
    "taylor_log(bench_opaque(x), n)", "g = __enzyme_autodiff((void *)taylor_log, x, n);",
    r"""{ double h = 1e-6, fd = (taylor_log(x + h, n) - taylor_log(x - h, n)) / (2 * h);
          printf("check %.3e\n", fabs(g - fd) / fabs(fd)); }""")

program("gmm", r"""
/* log-likelihood of n points under a K-component diagonal Gaussian mixture in D dimensions */
double gmm(const double *x, const double *mu, const double *logs, const double *w, int n, int K, int D) {
  double ll = 0;
  for (int i = 0; i < n; i++) {
    double p = 0;
    for (int k = 0; k < K; k++) {
      double q = 0;
      for (int d = 0; d < D; d++) {
        double z = (x[i * D + d] - mu[k * D + d]) * exp(-logs[k * D + d]);
        q += z * z + 2 * logs[k * D + d];
      }
      p += w[k] * exp(-0.5 * q);
    }
    ll += log(p);
  }
  return ll;
}""", r"""int n = 20000, K = 8, D = 8;
  double *x = malloc(8 * n * D), *mu = malloc(8 * K * D), *dmu = malloc(8 * K * D), *ls = malloc(8 * K * D);
  double *dls = malloc(8 * K * D), w[8];
  for (int i = 0; i < n * D; i++) x[i] = sin(0.37 * i);
  for (int i = 0; i < K * D; i++) { mu[i] = cos(1.3 * i) * 0.5; ls[i] = 0.1 * sin(i); }
  for (int k = 0; k < K; k++) w[k] = 1.0 / K;
  bench_escape(x); bench_escape(mu); bench_escape(ls); bench_escape(w);""",
    "gmm(x, mu, ls, w, n, K, D)",
    r"""for (int i = 0; i < K * D; i++) { dmu[i] = 0; dls[i] = 0; }
    __enzyme_autodiff((void *)gmm, enzyme_const, x, enzyme_dup, mu, dmu, enzyme_dup, ls, dls, enzyme_const, w, n, K, D);""",
    r"""{ double h = 1e-6, s = mu[3]; mu[3] = s + h; double fp = gmm(x, mu, ls, w, n, K, D);
          mu[3] = s - h; double fm = gmm(x, mu, ls, w, n, K, D); mu[3] = s;
          printf("check %.3e\n", fabs(dmu[3] - (fp - fm) / (2 * h)) / fabs((fp - fm) / (2 * h))); }""")

program("lstm", r"""
/* an LSTM-like recurrence h_t = tanh(W h_{t-1} + x_t) * sigmoid(h_{t-1}) over T steps, state overwritten in place */
double lstm(const double *W, const double *xs, double *restrict h, double *restrict t, int H, int T) {
  for (int j = 0; j < H; j++) h[j] = 0.1 * j;
  for (int s = 0; s < T; s++) {
    for (int i = 0; i < H; i++) {
      double a = xs[s * H + i];
      for (int j = 0; j < H; j++) a += W[i * H + j] * h[j];
      t[i] = tanh(a) / (1 + exp(-h[i]));
    }
    for (int i = 0; i < H; i++) h[i] = t[i];
  }
  double l = 0;
  for (int i = 0; i < H; i++) l += h[i] * h[i];
  return l;
}""", r"""int H = 32, T = 400;
  double *W = malloc(8 * H * H), *dW = malloc(8 * H * H), *xs = malloc(8 * H * T), *h = malloc(8 * H);
  double *dh = malloc(8 * H), *t = malloc(8 * H), *dt = malloc(8 * H);
  for (int i = 0; i < H * H; i++) W[i] = 0.2 * sin(0.7 * i);
  for (int i = 0; i < H * T; i++) xs[i] = cos(0.11 * i);""",
    "lstm(W, xs, h, t, H, T)",
    r"""for (int i = 0; i < H * H; i++) dW[i] = 0;
    for (int i = 0; i < H; i++) { dh[i] = 0; dt[i] = 0; }
    __enzyme_autodiff((void *)lstm, enzyme_dup, W, dW, enzyme_const, xs, enzyme_dup, h, dh, enzyme_dup, t, dt, H, T);""",
    r"""{ double e = 1e-6, s = W[5]; W[5] = s + e; double fp = lstm(W, xs, h, t, H, T);
          W[5] = s - e; double fm = lstm(W, xs, h, t, H, T); W[5] = s;
          printf("check %.3e\n", fabs(dW[5] - (fp - fm) / (2 * e)) / fabs((fp - fm) / (2 * e))); }""")

program("stencil", r"""
/* explicit heat equation on a 2-D grid, T steps with two buffers; loss = sum of squares of the final field */
double heat(double *restrict u, double *restrict v, int n, int T) {
  for (int s = 0; s < T; s++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        v[i * n + j] = u[i * n + j] + 0.1 * (u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1]
                                             + u[i * n + j + 1] - 4 * u[i * n + j]);
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++) u[i * n + j] = v[i * n + j];
  }
  double l = 0;
  for (int i = 0; i < n * n; i++) l += u[i] * u[i];
  return l;
}
double heat_fresh(const double *u0, double *u, double *v, int n, int T) {
  for (int i = 0; i < n * n; i++) u[i] = u0[i];
  return heat(u, v, n, T);
}""", r"""int n = 200, T = 20;
  double *u0 = malloc(8 * n * n), *u = malloc(8 * n * n), *du = malloc(8 * n * n), *v = malloc(8 * n * n),
         *dv = malloc(8 * n * n);
  for (int i = 0; i < n * n; i++) { u0[i] = sin(0.01 * i); v[i] = 0; }""",
    "heat_fresh(u0, u, v, n, T)",
    r"""for (int i = 0; i < n * n; i++) { u[i] = u0[i]; du[i] = 0; dv[i] = 0; }
    __enzyme_autodiff((void *)heat, u, du, v, dv, n, T);""",
    r"""{ double e = 1e-6; int k = 3 * n + 7;
          for (int i = 0; i < n * n; i++) u[i] = u0[i]; u[k] += e; double fp = heat(u, v, n, T);
          for (int i = 0; i < n * n; i++) u[i] = u0[i]; u[k] -= e; double fm = heat(u, v, n, T);
          printf("check %.3e\n", fabs(du[k] - (fp - fm) / (2 * e)) / fabs((fp - fm) / (2 * e))); }""")

program("matmul", r"""
/* loss = sum of squares of A*B (n x n) */
double matmul(const double *A, const double *B, double *restrict C, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k < n; k++) s += A[i * n + k] * B[k * n + j];
      C[i * n + j] = s;
    }
  double l = 0;
  for (int i = 0; i < n * n; i++) l += C[i] * C[i];
  return l;
}""", r"""int n = 200;
  double *A = malloc(8 * n * n), *B = malloc(8 * n * n), *C = malloc(8 * n * n), *dA = malloc(8 * n * n),
         *dB = malloc(8 * n * n), *dC = malloc(8 * n * n);
  for (int i = 0; i < n * n; i++) { A[i] = sin(0.3 * i); B[i] = cos(0.7 * i); }""",
    "matmul(A, B, C, n)",
    r"""for (int i = 0; i < n * n; i++) { dA[i] = 0; dB[i] = 0; dC[i] = 0; }
    __enzyme_autodiff((void *)matmul, A, dA, B, dB, C, dC, n);""",
    r"""{ double e = 1e-6, s = A[11]; A[11] = s + e; double fp = matmul(A, B, C, n);
          A[11] = s - e; double fm = matmul(A, B, C, n); A[11] = s;
          printf("check %.3e\n", fabs(dA[11] - (fp - fm) / (2 * e)) / fabs((fp - fm) / (2 * e))); }""")

for size in (10000, 100000):
    program(f"normalize_{size}", r"""
/* Enzyme's normalization example: out[i] = in[i] / |in|, the norm a read-only call inside the loop */
double mag(const double *x, int n) { double s = 0; for (int i = 0; i < n; i++) s += x[i] * x[i]; return sqrt(s); }
void normalize(double *restrict out, const double *in, int n) { for (int i = 0; i < n; i++) out[i] = in[i] / mag(in, n); }
double norm_fast(double *out, const double *in, int n) {  /* the primal with the norm hoisted by hand */
  double m = mag(in, n);
  for (int i = 0; i < n; i++) out[i] = in[i] / m;
  return out[0];
}
""", f"int n = {size};" + r"""
  double *in = malloc(8 * n), *din = malloc(8 * n), *out = malloc(8 * n), *dout = malloc(8 * n);
  for (int i = 0; i < n; i++) in[i] = 1 + sin(0.1 * i);""",
        "norm_fast(out, in, n)",
        r"""for (int i = 0; i < n; i++) { din[i] = 0; dout[i] = 1.0 + (i % 3); }
    __enzyme_autodiff((void *)normalize, out, dout, in, din, n);""",
        r"""{ double e = 1e-6, s = in[2], fp = 0, fm = 0;
          in[2] = s + e; normalize(out, in, n); for (int i = 0; i < n; i++) fp += (1.0 + (i % 3)) * out[i];
          in[2] = s - e; normalize(out, in, n); for (int i = 0; i < n; i++) fm += (1.0 + (i % 3)) * out[i];
          in[2] = s;
          printf("check %.3e\n", fabs(din[2] - (fp - fm) / (2 * e)) / fabs((fp - fm) / (2 * e))); }""")

program("nbody", r"""
/* one leapfrog step of n gravitating bodies (O(n^2) forces), loss = kinetic + potential energy after it */
double nbody(double *restrict p, double *restrict v, const double *m, double *restrict f, int n, double dt) {
  for (int i = 0; i < n; i++) {
    double fx = 0, fy = 0, fz = 0;
    for (int j = 0; j < n; j++) {
      double dx = p[3 * j] - p[3 * i], dy = p[3 * j + 1] - p[3 * i + 1], dz = p[3 * j + 2] - p[3 * i + 2];
      double r2 = dx * dx + dy * dy + dz * dz + 0.01;
      double inv = m[j] / (r2 * sqrt(r2));
      fx += dx * inv; fy += dy * inv; fz += dz * inv;
    }
    f[3 * i] = fx; f[3 * i + 1] = fy; f[3 * i + 2] = fz;
  }
  for (int i = 0; i < 3 * n; i++) { v[i] += dt * f[i]; p[i] += dt * v[i]; }
  double e = 0;
  for (int i = 0; i < n; i++) {
    e += 0.5 * m[i] * (v[3 * i] * v[3 * i] + v[3 * i + 1] * v[3 * i + 1] + v[3 * i + 2] * v[3 * i + 2]);
    for (int j = i + 1; j < n; j++) {
      double dx = p[3 * j] - p[3 * i], dy = p[3 * j + 1] - p[3 * i + 1], dz = p[3 * j + 2] - p[3 * i + 2];
      e -= m[i] * m[j] / sqrt(dx * dx + dy * dy + dz * dz + 0.01);
    }
  }
  return e;
}
double nbody_fresh(const double *p0, const double *v0, double *p, double *v, const double *m, double *f, int n,
                   double dt) {
  for (int i = 0; i < 3 * n; i++) { p[i] = p0[i]; v[i] = v0[i]; }
  return nbody(p, v, m, f, n, dt);
}""", r"""int n = 400; double dt = 0.01;
  double *p0 = malloc(24 * n), *v0 = malloc(24 * n), *p = malloc(24 * n), *v = malloc(24 * n), *m = malloc(8 * n);
  double *f = malloc(24 * n), *dp = malloc(24 * n), *dv = malloc(24 * n), *df = malloc(24 * n);
  for (int i = 0; i < 3 * n; i++) { p0[i] = sin(1.1 * i) * 3; v0[i] = cos(0.9 * i) * 0.1; }
  for (int i = 0; i < n; i++) m[i] = 1.0 + 0.1 * (i % 5);""",
    "nbody_fresh(p0, v0, p, v, m, f, n, dt)",
    r"""for (int i = 0; i < 3 * n; i++) { p[i] = p0[i]; v[i] = v0[i]; dp[i] = dv[i] = df[i] = 0; }
    __enzyme_autodiff((void *)nbody, p, dp, v, dv, enzyme_const, m, f, df, n, enzyme_const, dt);""",
    r"""{ double e = 1e-6; int k = 7;
          for (int i = 0; i < 3 * n; i++) { p[i] = p0[i]; v[i] = v0[i]; } p[k] += e; double fp = nbody(p, v, m, f, n, dt);
          for (int i = 0; i < 3 * n; i++) { p[i] = p0[i]; v[i] = v0[i]; } p[k] -= e; double fm = nbody(p, v, m, f, n, dt);
          printf("check %.3e\n", fabs(dp[k] - (fp - fm) / (2 * e)) / fabs((fp - fm) / (2 * e))); }""")

program("cuda_kernel", r"""
extern __device__ double __enzyme_autodiff_d(void *, ...);
__host__ __device__ double site(double x, double w) {
  double s = x;
  for (int k = 0; k < 64; k++) s = s * w + sin(s) * 0.1;
  return s;
}
__global__ void primal_kernel(const double *x, double *y, double w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = site(x[i], w);
}
__global__ void grad_kernel(const double *x, double *g, double w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) g[i] = __enzyme_autodiff_d((void *)site, x[i], enzyme_const, w);
}
double launch_primal(const double *x, double *y, double w, int n) {
  primal_kernel<<<(n + 127) / 128, 128>>>(x, y, w, n);
  cudaDeviceSynchronize();
  return y[0];
}
""", r"""int n = 200000;
  double *x, *y, *g;
  cudaMallocManaged(&x, 8 * n); cudaMallocManaged(&y, 8 * n); cudaMallocManaged(&g, 8 * n);
  for (int i = 0; i < n; i++) x[i] = 0.5 * sin(0.01 * i);""",
    "launch_primal(x, y, 0.9, n)",
    r"""grad_kernel<<<(n + 127) / 128, 128>>>(x, g, 0.9, n); cudaDeviceSynchronize();""",
    r"""{ double e = 1e-6, fd = (site(x[5] + e, 0.9) - site(x[5] - e, 0.9)) / (2 * e);
          printf("check %.3e\n", fabs(g[5] - fd) / fabs(fd)); }""", cuda=True)


def jax_twins():
    """JAX versions of some programs (float64), or {} without jax."""
    try:
        import jax
        import jax.numpy as jnp
        jax.config.update("jax_enable_x64", True)
    except Exception:
        return {}

    import numpy as np

    def taylor_log(x, n=1000000):
        # the same recurrence as the C program, as a lax.fori_loop (jax.grad reverses it as a scan)
        y = x - 1.0

        def step(k, c):
            s, p = c
            p = p * y
            return s + jnp.where(k % 2 == 1, p, -p) / k, p
        return jax.lax.fori_loop(1, n + 1, step, (jnp.zeros_like(x), jnp.ones_like(x)))[0]

    def gmm(mu, logs, x, w):
        z = (x[:, None, :] - mu[None]) * jnp.exp(-logs)[None]
        q = jnp.sum(z * z + 2 * logs[None], axis=-1)
        return jnp.sum(jnp.log(jnp.sum(w[None] * jnp.exp(-0.5 * q), axis=1)))

    def lstm(W, xs):
        def step(h, x):
            h = jnp.tanh(x + W @ h) / (1 + jnp.exp(-h))
            return h, None
        h, _ = jax.lax.scan(step, 0.1 * jnp.arange(W.shape[0], dtype=jnp.float64), xs)
        return jnp.sum(h * h)

    def heat(u, T=20):
        def step(_, u):
            inner = u[1:-1, 1:-1] + 0.1 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:] - 4 * u[1:-1, 1:-1])
            return u.at[1:-1, 1:-1].set(inner)
        u = jax.lax.fori_loop(0, T, step, u)
        return jnp.sum(u * u)

    def matmul(A, B):
        return jnp.sum((A @ B) ** 2)

    def normalize(x, c):
        return jnp.sum(c * (x / jnp.sqrt(jnp.sum(x * x))))

    def nbody(p, v, m, dt=0.01):
        d = p[None, :, :] - p[:, None, :]
        r2 = jnp.sum(d * d, axis=-1) + 0.01
        f = jnp.sum(d * (m[None, :] / (r2 * jnp.sqrt(r2)))[..., None], axis=1)
        v = v + dt * f
        p = p + dt * v
        d = p[None, :, :] - p[:, None, :]
        pot = m[:, None] * m[None, :] / jnp.sqrt(jnp.sum(d * d, axis=-1) + 0.01)
        upper = jnp.triu(jnp.ones_like(pot), 1)
        return 0.5 * jnp.sum(m[:, None] * v * v) - jnp.sum(pot * upper)

    a = lambda x: jnp.asarray(x)
    n, K, D = 20000, 8, 8
    H, T = 32, 400
    N = 200
    twins = {
        "taylor_log": (taylor_log, (a(1.3),), 0),
        "gmm": (gmm, (a(np.cos(1.3 * np.arange(K * D)).reshape(K, D) * 0.5), a(0.1 * np.sin(np.arange(K * D)).reshape(K, D)),
                      a(np.sin(0.37 * np.arange(n * D)).reshape(n, D)), a(np.full(K, 1.0 / K))), (0, 1)),
        "lstm": (lstm, (a(0.2 * np.sin(0.7 * np.arange(H * H)).reshape(H, H)), a(np.cos(0.11 * np.arange(H * T)).reshape(T, H))), 0),
        "stencil": (heat, (a(np.sin(0.01 * np.arange(N * N)).reshape(N, N)),), 0),
        "matmul": (matmul, (a(np.sin(0.3 * np.arange(N * N)).reshape(N, N)), a(np.cos(0.7 * np.arange(N * N)).reshape(N, N))), (0, 1)),
        "nbody": (nbody, (a(np.sin(1.1 * np.arange(1200)).reshape(400, 3) * 3), a(np.cos(0.9 * np.arange(1200)).reshape(400, 3) * 0.1),
                          a(1.0 + 0.1 * (np.arange(400) % 5))), 0),
    }
    for size in (10000, 100000):
        twins[f"normalize_{size}"] = (normalize, (a(1 + np.sin(0.1 * np.arange(size))), a(1.0 + np.arange(size) % 3)), 0)
    return twins


def time_jax(f, args, argnums, reps):
    import time

    import jax
    pf, gf = jax.jit(f), jax.jit(jax.grad(f, argnums=argnums))
    jax.block_until_ready(pf(*args))
    jax.block_until_ready(gf(*args))
    tp, tg = [], []
    for _ in range(reps):
        t0 = time.perf_counter()
        jax.block_until_ready(pf(*args))
        t1 = time.perf_counter()
        jax.block_until_ready(gf(*args))
        t2 = time.perf_counter()
        tp.append(t1 - t0)
        tg.append(t2 - t1)
    return statistics.median(tg) / statistics.median(tp), statistics.median(tg)


def pgcc() -> str:
    exe = Path(sys.executable).parent / "pgcc"
    return str(exe) if exe.exists() else (shutil.which("pgcc") or "pgcc")


def run_one(name, spec, tmp: Path, reps: int):
    src = tmp / (name + (".cu" if spec["cuda"] else ".c"))
    src.write_text(HARNESS % dict(body=spec["body"], setup=spec["setup"], primal=spec["primal"],
                                  grad=spec["grad"], check=spec["check"]))
    exe = tmp / name
    cmd = [pgcc(), str(src), str(tmp / "timer.o"), "-O3", "-o", str(exe), "-lm"]
    if spec["cuda"]:
        cmd.insert(2, "--cpuify")
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return {"name": name, "error": r.stderr.strip().splitlines()[0] if r.stderr.strip() else "build failed"}
    env = dict(os.environ, OMP_NUM_THREADS="1")
    out = subprocess.run([str(exe), str(reps)], capture_output=True, text=True, env=env, timeout=1800)
    if out.returncode != 0:
        return {"name": name, "error": f"exit {out.returncode}: {out.stderr.strip()[:200]}"}
    tp, tg, check = [], [], None
    for line in out.stdout.splitlines():
        parts = line.split()
        if parts[0] == "times":
            tp.append(float(parts[1]))
            tg.append(float(parts[2]))
        elif parts[0] == "check":
            check = float(parts[1])
    p, g = statistics.median(tp), statistics.median(tg)
    return {"name": name, "primal_s": p, "grad_s": g, "ratio": g / p, "fd_rel_err": check}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--only", default=None, help="comma-separated program names")
    ap.add_argument("--json", default=None)
    a = ap.parse_args(argv)
    names = a.only.split(",") if a.only else list(PROGRAMS)
    twins = jax_twins()
    rows = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        (tmp / "timer.c").write_text(TIMER_C)
        subprocess.run(["cc", "-O2", "-c", str(tmp / "timer.c"), "-o", str(tmp / "timer.o")], check=True)
        print(f"{'program':<18}{'primal (s)':>12}{'gradient (s)':>14}{'ratio':>8}{'FD rel err':>12}{'JAX ratio':>11}"
              f"{'JAX grad (s)':>14}{'JAX grad / ours':>17}")
        for name in names:
            row = run_one(name, PROGRAMS[name], tmp, a.reps)
            if name in twins:
                f, args, argnums = twins[name]
                row["jax_ratio"], row["jax_grad_s"] = time_jax(f, args, argnums, a.reps)
            rows.append(row)
            if "error" in row:
                print(f"{name:<18}  error: {row['error']}")
                continue
            jr = f"{row['jax_ratio']:.2f}" if "jax_ratio" in row else "n/a"
            jg = f"{row['jax_grad_s']:.5f}" if "jax_grad_s" in row else "n/a"
            js = f"{row['jax_grad_s'] / row['grad_s']:.2f}" if "jax_grad_s" in row else "n/a"
            print(f"{name:<18}{row['primal_s']:>12.5f}{row['grad_s']:>14.5f}{row['ratio']:>8.2f}"
                  f"{row['fd_rel_err']:>12.1e}{jr:>11}{jg:>14}{js:>17}", flush=True)
    ok = [r["ratio"] for r in rows if "ratio" in r]
    if ok:
        import math
        print(f"geometric mean of the ratios: {math.exp(sum(map(math.log, ok)) / len(ok)):.2f}")
    if a.json:
        Path(a.json).write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
