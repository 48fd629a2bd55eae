/* large: -DW=2048 -DH=1024 */
/*
 * deriche.c -- Deriche recursive (IIR) smoothing filter on a W x H image
 *
 * The separable second-order filter is run along each row (a causal and
 * an anti-causal pass whose results are added), then along each column
 * of that intermediate image.  Single precision throughout, as is usual
 * for image data; coefficients come from the smoothing parameter alpha.
 * The image buffers are allocated with posix_memalign.
 * Original test program written in the style of PolyBench/C.
 */
#define _POSIX_C_SOURCE 200112L
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#ifndef W
#define W 32
#endif
#ifndef H
#define H 24
#endif

static void init_image(int w, int h, float img[w][h])
{
  int i, j;

  for (i = 0; i < w; i++)
    for (j = 0; j < h; j++)
      img[i][j] = (float)((i * 37 + j * 11 + (i * j) % 5) % 256) / 255.0f;
}

static void kernel_deriche(int w, int h, float alpha, float img_in[w][h],
                           float img_out[w][h], float fwd[w][h],
                           float bwd[w][h])
{
  int i, j;
  float ea, k, a1, a2, a3, a4, b1, b2;
  float xm1, ym1, ym2, xp1, xp2, yp1, yp2;

  ea = (float)exp(-(double)alpha);
  k = (1.0f - ea) * (1.0f - ea) / (1.0f + 2.0f * alpha * ea - ea * ea);
  a1 = k;
  a2 = k * ea * (alpha - 1.0f);
  a3 = k * ea * (alpha + 1.0f);
  a4 = -k * ea * ea;
  b1 = 2.0f * ea;
  b2 = -ea * ea;

#pragma scop
  /* rows, left to right */
  for (i = 0; i < w; i++) {
    xm1 = 0.0f;
    ym1 = 0.0f;
    ym2 = 0.0f;
    for (j = 0; j < h; j++) {
      fwd[i][j] = a1 * img_in[i][j] + a2 * xm1 + b1 * ym1 + b2 * ym2;
      xm1 = img_in[i][j];
      ym2 = ym1;
      ym1 = fwd[i][j];
    }
  }
  /* rows, right to left */
  for (i = 0; i < w; i++) {
    xp1 = 0.0f;
    xp2 = 0.0f;
    yp1 = 0.0f;
    yp2 = 0.0f;
    for (j = h - 1; j >= 0; j--) {
      bwd[i][j] = a3 * xp1 + a4 * xp2 + b1 * yp1 + b2 * yp2;
      xp2 = xp1;
      xp1 = img_in[i][j];
      yp2 = yp1;
      yp1 = bwd[i][j];
    }
  }
  for (i = 0; i < w; i++)
    for (j = 0; j < h; j++)
      img_out[i][j] = fwd[i][j] + bwd[i][j];
  /* columns, top to bottom */
  for (j = 0; j < h; j++) {
    xm1 = 0.0f;
    ym1 = 0.0f;
    ym2 = 0.0f;
    for (i = 0; i < w; i++) {
      fwd[i][j] = a1 * img_out[i][j] + a2 * xm1 + b1 * ym1 + b2 * ym2;
      xm1 = img_out[i][j];
      ym2 = ym1;
      ym1 = fwd[i][j];
    }
  }
  /* columns, bottom to top */
  for (j = 0; j < h; j++) {
    xp1 = 0.0f;
    xp2 = 0.0f;
    yp1 = 0.0f;
    yp2 = 0.0f;
    for (i = w - 1; i >= 0; i--) {
      bwd[i][j] = a3 * xp1 + a4 * xp2 + b1 * yp1 + b2 * yp2;
      xp2 = xp1;
      xp1 = img_out[i][j];
      yp2 = yp1;
      yp1 = bwd[i][j];
    }
  }
  for (i = 0; i < w; i++)
    for (j = 0; j < h; j++)
      img_out[i][j] = fwd[i][j] + bwd[i][j];
#pragma endscop
}

int main(void)
{
  int i, j;
  double checksum = 0.0;
  void *m_in = NULL;
  void *m_out = NULL;
  void *m_fwd = NULL;
  void *m_bwd = NULL;
  float (*img_in)[W][H];
  float (*img_out)[W][H];
  float (*fwd)[W][H];
  float (*bwd)[W][H];

  if (posix_memalign(&m_in, 64, sizeof(float) * W * H) != 0 ||
      posix_memalign(&m_out, 64, sizeof(float) * W * H) != 0 ||
      posix_memalign(&m_fwd, 64, sizeof(float) * W * H) != 0 ||
      posix_memalign(&m_bwd, 64, sizeof(float) * W * H) != 0) {
    fprintf(stderr, "allocation failed\n");
    return 1;
  }
  img_in = (float(*)[W][H])m_in;
  img_out = (float(*)[W][H])m_out;
  fwd = (float(*)[W][H])m_fwd;
  bwd = (float(*)[W][H])m_bwd;

  init_image(W, H, *img_in);
  kernel_deriche(W, H, 0.25f, *img_in, *img_out, *fwd, *bwd);

  for (i = 0; i < W; i++)
    for (j = 0; j < H; j++) {
      fprintf(stderr, "%0.2lf ", (double)(*img_out)[i][j]);
      if ((i * H + j) % 20 == 19)
        fprintf(stderr, "\n");
      checksum += (*img_out)[i][j];
    }
  fprintf(stderr, "\n");
  printf("%.6e\n", checksum);

  free(m_in);
  free(m_out);
  free(m_fwd);
  free(m_bwd);
  return 0;
}
