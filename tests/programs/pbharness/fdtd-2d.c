/*
 * fdtd-2d.c -- 2-D finite-difference time-domain update of the fields
 * ex, ey, hz; the boundary row of ey is driven by a 1-D source signal.
 * Original test kernel for pgcc in the layout of a PolyBench/C kernel.
 */
#include <stdio.h>
#include <unistd.h>
#include <string.h>
#include <math.h>

#include "bench.h"
#include "fdtd-2d.h"

static void init_array(int tmax, int nx, int ny,
                       DATA_TYPE BENCH_2D(ex, NX, NY, nx, ny),
                       DATA_TYPE BENCH_2D(ey, NX, NY, nx, ny),
                       DATA_TYPE BENCH_2D(hz, NX, NY, nx, ny),
                       DATA_TYPE BENCH_1D(_fict_, TMAX, tmax))
{
  int i, j;

  for (i = 0; i < tmax; i++)
    _fict_[i] = (DATA_TYPE)i * SCALAR_VAL(0.5);
  for (i = 0; i < nx; i++)
    for (j = 0; j < ny; j++) {
      ex[i][j] = ((DATA_TYPE)i * (j + 2)) / nx;
      ey[i][j] = ((DATA_TYPE)i * (j + 1)) / ny;
      hz[i][j] = ((DATA_TYPE)i * (j + 3)) / nx;
    }
}

static void print_array(int nx, int ny,
                        DATA_TYPE BENCH_2D(ex, NX, NY, nx, ny),
                        DATA_TYPE BENCH_2D(ey, NX, NY, nx, ny),
                        DATA_TYPE BENCH_2D(hz, NX, NY, nx, ny))
{
  int i, j;

  BENCH_DUMP_START;
  BENCH_DUMP_BEGIN("ex");
  for (i = 0; i < nx; i++)
    for (j = 0; j < ny; j++) {
      if ((i * nx + j) % 20 == 0)
        fprintf(BENCH_DUMP_TARGET, "\n");
      fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, ex[i][j]);
    }
  BENCH_DUMP_END("ex");
  BENCH_DUMP_BEGIN("ey");
  for (i = 0; i < nx; i++)
    for (j = 0; j < ny; j++) {
      if ((i * nx + j) % 20 == 0)
        fprintf(BENCH_DUMP_TARGET, "\n");
      fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, ey[i][j]);
    }
  BENCH_DUMP_END("ey");
  BENCH_DUMP_BEGIN("hz");
  for (i = 0; i < nx; i++)
    for (j = 0; j < ny; j++) {
      if ((i * nx + j) % 20 == 0)
        fprintf(BENCH_DUMP_TARGET, "\n");
      fprintf(BENCH_DUMP_TARGET, DATA_PRINTF_MODIFIER, hz[i][j]);
    }
  BENCH_DUMP_END("hz");
  BENCH_DUMP_FINISH;
}

static void kernel_fdtd_2d(int tmax, int nx, int ny,
                           DATA_TYPE BENCH_2D(ex, NX, NY, nx, ny),
                           DATA_TYPE BENCH_2D(ey, NX, NY, nx, ny),
                           DATA_TYPE BENCH_2D(hz, NX, NY, nx, ny),
                           DATA_TYPE BENCH_1D(_fict_, TMAX, tmax))
{
  int t, i, j;

#pragma scop
  for (t = 0; t < _PB_TMAX; t++) {
    for (j = 0; j < _PB_NY; j++)
      ey[0][j] = _fict_[t];
    for (i = 1; i < _PB_NX; i++)
      for (j = 0; j < _PB_NY; j++)
        ey[i][j] = ey[i][j] - SCALAR_VAL(0.5) * (hz[i][j] - hz[i - 1][j]);
    for (i = 0; i < _PB_NX; i++)
      for (j = 1; j < _PB_NY; j++)
        ex[i][j] = ex[i][j] - SCALAR_VAL(0.5) * (hz[i][j] - hz[i][j - 1]);
    for (i = 0; i < _PB_NX - 1; i++)
      for (j = 0; j < _PB_NY - 1; j++)
        hz[i][j] = hz[i][j] - SCALAR_VAL(0.7) * (ex[i][j + 1] - ex[i][j] +
                                                 ey[i + 1][j] - ey[i][j]);
  }
#pragma endscop
}

int main(int argc, char **argv)
{
  int tmax = TMAX;
  int nx = NX;
  int ny = NY;

  BENCH_2D_ARRAY(ex, DATA_TYPE, NX, NY, nx, ny);
  BENCH_2D_ARRAY(ey, DATA_TYPE, NX, NY, nx, ny);
  BENCH_2D_ARRAY(hz, DATA_TYPE, NX, NY, nx, ny);
  BENCH_1D_ARRAY(_fict_, DATA_TYPE, TMAX, tmax);

  init_array(tmax, nx, ny, BENCH_ARRAY(ex), BENCH_ARRAY(ey), BENCH_ARRAY(hz), BENCH_ARRAY(_fict_));

  bench_start_instruments;
  kernel_fdtd_2d(tmax, nx, ny, BENCH_ARRAY(ex), BENCH_ARRAY(ey), BENCH_ARRAY(hz), BENCH_ARRAY(_fict_));
  bench_stop_instruments;
  bench_print_instruments;

  bench_prevent_dce(print_array(nx, ny, BENCH_ARRAY(ex), BENCH_ARRAY(ey), BENCH_ARRAY(hz)));

  BENCH_FREE_ARRAY(ex);
  BENCH_FREE_ARRAY(ey);
  BENCH_FREE_ARRAY(hz);
  BENCH_FREE_ARRAY(_fict_);
  return 0;
}
