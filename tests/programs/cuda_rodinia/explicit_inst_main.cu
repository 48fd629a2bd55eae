// Driver of explicit_inst_planes.cu: splits a generated interleaved image into planes and blurs them, for float
// and int samples, and checks both against a CPU reference. Prints PASS or FAIL.
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

template <typename T> void splitPlanes(T *d_r, T *d_g, T *d_b, const unsigned char *host_rgb, int w, int h);
template <typename T> void blurRows(const T *d_in, T *d_out, int w, int h);

static float ref_sample(unsigned char c, float) { return c / 255.0f - 0.5f; }
static int ref_sample(unsigned char c, int) { return (int)c - 128; }

template <typename T> static int check(const unsigned char *rgb, int w, int h) {
  int n = w * h, bad = 0;
  T *d[6];
  for (int i = 0; i < 6; i++) cudaMalloc((void **)&d[i], n * sizeof(T));
  splitPlanes<T>(d[0], d[1], d[2], rgb, w, h);
  for (int c = 0; c < 3; c++) blurRows<T>(d[c], d[3 + c], w, h);
  T *out = (T *)malloc(n * sizeof(T));
  for (int c = 0; c < 3; c++) {
    cudaMemcpy(out, d[3 + c], n * sizeof(T), cudaMemcpyDeviceToHost);
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        int xl = x > 0 ? x - 1 : x, xr = x + 1 < w ? x + 1 : x;
        T want = ref_sample(rgb[(y * w + xl) * 3 + c], T()) + ref_sample(rgb[(y * w + x) * 3 + c], T()) +
                 ref_sample(rgb[(y * w + xr) * 3 + c], T());
        if (fabs((double)(out[y * w + x] - want)) > 1e-6) bad++;
      }
  }
  for (int i = 0; i < 6; i++) cudaFree(d[i]);
  free(out);
  return bad;
}

int main(void) {
  const int w = 150, h = 37;  // not multiples of the block sizes
  unsigned char *rgb = (unsigned char *)malloc(w * h * 3);
  unsigned s = 7;
  for (int i = 0; i < w * h * 3; i++) { s = s * 1664525u + 1013904223u; rgb[i] = (unsigned char)(s >> 24); }
  int bad_f = check<float>(rgb, w, h), bad_i = check<int>(rgb, w, h);
  printf("float planes: %d differ, int planes: %d differ\n", bad_f, bad_i);
  printf(bad_f == 0 && bad_i == 0 ? "PASS\n" : "FAIL\n");
  free(rgb);
  return bad_f != 0 || bad_i != 0;
}
