/* C driver of layer_cuda.cu, compiled by gcc: random inputs and weights, the same layer computed on the
   CPU, PASS when they agree. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "layer.h"

int main(void) {
  const int n_in = 200, n_out = 37;
  float *in = malloc(n_in * sizeof(float)), *w = malloc(n_in * n_out * sizeof(float));
  float *out = malloc(n_out * sizeof(float));
  srand(7);
  for (int i = 0; i < n_in; i++) in[i] = (float)rand() / RAND_MAX - 0.5f;
  for (int i = 0; i < n_in * n_out; i++) w[i] = ((float)rand() / RAND_MAX - 0.5f) * 0.2f;
  layer_forward_cuda(in, w, out, n_in, n_out);
  int bad = 0;
  for (int j = 0; j < n_out; j++) {
    double sum = 0;
    for (int i = 0; i < n_in; i++) sum += (double)in[i] * w[i * n_out + j];
    double want = 1.0 / (1.0 + exp(-sum));
    if (fabs(out[j] - want) > 1e-4) {
      if (bad++ < 3) printf("out[%d] = %f, expected %f\n", j, out[j], want);
    }
  }
  printf("%s\n", bad ? "FAIL" : "PASS");
  free(in);
  free(w);
  free(out);
  return bad != 0;
}
