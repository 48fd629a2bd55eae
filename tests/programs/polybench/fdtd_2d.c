/* large: -DTMAX=1000 -DNX=600 -DNY=800 */
/*
 * fdtd_2d.c -- 2-D finite-difference time-domain (Yee scheme, TE mode)
 *
 * Fields ex, ey (electric) and hz (magnetic) on an NX x NY grid.  Each
 * step injects a source value along the first row of ey, then updates
 * ey, ex and finally hz.  Update factors 0.5 and 0.6 keep the scheme
 * inside its stability limit, so the fields stay bounded.
 * Original test program written in the style of PolyBench/C.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef TMAX
#define TMAX 10
#endif
#ifndef NX
#define NX 20
#endif
#ifndef NY
#define NY 24
#endif

static void init_fields(int tmax, int nx, int ny, double ex[nx][ny],
                        double ey[nx][ny], double hz[nx][ny], double src[tmax])
{
  int i, j;

  for (i = 0; i < tmax; i++)
    src[i] = sin(0.3 * i);
  for (i = 0; i < nx; i++)
    for (j = 0; j < ny; j++) {
      ex[i][j] = ((double)i * (j + 1)) / nx / ny;
      ey[i][j] = ((double)i * (j + 2)) / nx / ny;
      hz[i][j] = ((double)i * (j + 3)) / nx / ny;
    }
}

static void kernel_fdtd_2d(int tmax, int nx, int ny, double ex[nx][ny],
                           double ey[nx][ny], double hz[nx][ny],
                           double src[tmax])
{
  int t, i, j;

#pragma scop
  for (t = 0; t < tmax; t++) {
    for (j = 0; j < ny; j++)
      ey[0][j] = src[t];
    for (i = 1; i < nx; i++)
      for (j = 0; j < ny; j++)
        ey[i][j] = ey[i][j] - 0.5 * (hz[i][j] - hz[i - 1][j]);
    for (i = 0; i < nx; i++)
      for (j = 1; j < ny; j++)
        ex[i][j] = ex[i][j] - 0.5 * (hz[i][j] - hz[i][j - 1]);
    for (i = 0; i < nx - 1; i++)
      for (j = 0; j < ny - 1; j++)
        hz[i][j] = hz[i][j] - 0.6 * (ex[i][j + 1] - ex[i][j] +
                                     ey[i + 1][j] - ey[i][j]);
  }
#pragma endscop
}

static double print_field(int nx, int ny, double f[nx][ny])
{
  int i, j;
  double s = 0.0;

  for (i = 0; i < nx; i++)
    for (j = 0; j < ny; j++) {
      fprintf(stderr, "%0.2lf ", f[i][j]);
      if ((i * ny + j) % 20 == 19)
        fprintf(stderr, "\n");
      s += f[i][j];
    }
  fprintf(stderr, "\n");
  return s;
}

int main(void)
{
  double checksum;
  double (*ex)[NX][NY] = (double(*)[NX][NY])malloc(sizeof(double) * NX * NY);
  double (*ey)[NX][NY] = (double(*)[NX][NY])malloc(sizeof(double) * NX * NY);
  double (*hz)[NX][NY] = (double(*)[NX][NY])malloc(sizeof(double) * NX * NY);
  double (*src)[TMAX] = (double(*)[TMAX])malloc(sizeof(double) * TMAX);

  init_fields(TMAX, NX, NY, *ex, *ey, *hz, *src);
  kernel_fdtd_2d(TMAX, NX, NY, *ex, *ey, *hz, *src);

  checksum = print_field(NX, NY, *ex);
  checksum += print_field(NX, NY, *ey);
  checksum += print_field(NX, NY, *hz);
  printf("%.6e\n", checksum);

  free(ex);
  free(ey);
  free(hz);
  free(src);
  return 0;
}
