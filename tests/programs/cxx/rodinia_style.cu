// A CUDA host program in the style of Rodinia's: a parameter class with a constructor, helpers with `int &`
// and `float *&` out-parameters, a timer, a kernel launched in a loop, a device helper taking references.
// Without CUDA (g++ -x c++), the same computation runs in a host loop, so both outputs can be compared.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cmath>
#include <sys/time.h>
#ifdef __CUDACC__
#include <cuda_runtime.h>
#define DEVICE __device__
#else
#define DEVICE
#endif

#define BLOCK 64

class Params {
public:
  int rows, cols, iterations;
  float alpha = 0.25f;
  float decay;
  Params(int r, int c, int it) : rows(r), cols(c), iterations(it) { decay = 1.0f / (it + 1); }
  int cells() const { return rows * cols; }
  bool valid() const { return rows > 0 && cols > 0; }
};

struct Timer {
  double start = 0;
  static double now() { struct timeval tv; gettimeofday(&tv, NULL); return tv.tv_sec + 1e-6 * tv.tv_usec; }
  void begin() { start = now(); }
  double elapsed() const { return now() - start; }
};

static void read_input(const Params &p, int &n, float *&grid, float *&next) {
  n = p.cells();
  grid = (float *)malloc(n * sizeof(float));
  next = (float *)malloc(n * sizeof(float));
  for (int i = 0; i < n; i++) grid[i] = (float)((i * 37) % 11) - 4.0f;
  memset(next, 0, n * sizeof(float));
}

DEVICE inline void relax(float &cell, const float &left, const float &right, float alpha) {
  cell = cell + alpha * (left + right - 2.0f * cell);
}

DEVICE inline float clampf(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

#ifdef __CUDACC__
__global__ void step_kernel(float *out, const float *in, int rows, int cols, float alpha, float decay) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < rows * cols) {
    int c = idx % cols;
    float cell = in[idx];
    float left = c > 0 ? in[idx - 1] : cell;
    float right = c < cols - 1 ? in[idx + 1] : cell;
    relax(cell, left, right, alpha);
    out[idx] = clampf(cell * (1.0f - decay), -4.0f, 4.0f);
  }
}
#endif

static void run(const Params &p, float *&grid, float *&next, int n) {
#ifdef __CUDACC__
  float *d_a, *d_b;
  cudaMalloc((void **)&d_a, n * sizeof(float));
  cudaMalloc((void **)&d_b, n * sizeof(float));
  cudaMemcpy(d_a, grid, n * sizeof(float), cudaMemcpyHostToDevice);
  int blocks = (n + BLOCK - 1) / BLOCK;
  for (int it = 0; it < p.iterations; it++) {
    step_kernel<<<blocks, BLOCK>>>(d_b, d_a, p.rows, p.cols, p.alpha, p.decay);
    float *t = d_a; d_a = d_b; d_b = t;
  }
  cudaDeviceSynchronize();
  cudaMemcpy(grid, d_a, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(d_a);
  cudaFree(d_b);
#else
  for (int it = 0; it < p.iterations; it++) {
    for (int idx = 0; idx < n; idx++) {
      int c = idx % p.cols;
      float cell = grid[idx];
      float left = c > 0 ? grid[idx - 1] : cell;
      float right = c < p.cols - 1 ? grid[idx + 1] : cell;
      relax(cell, left, right, p.alpha);
      next[idx] = clampf(cell * (1.0f - p.decay), -4.0f, 4.0f);
    }
    float *t = grid; grid = next; next = t;
  }
#endif
}

static void checksum(const float *g, int n, double &sum, double &sumsq, int &positives) {
  sum = 0; sumsq = 0; positives = 0;
  for (int i = 0; i < n; i++) {
    sum += g[i];
    sumsq += (double)g[i] * g[i];
    if (g[i] > 0) positives++;
  }
}

int main(int argc, char **argv) {
  Params p(argc > 1 ? atoi(argv[1]) : 12, 20, 5);
  if (!p.valid()) return 1;
  Timer t;
  t.begin();
  int n = 0;
  float *grid = nullptr, *next = nullptr;
  read_input(p, n, grid, next);
  run(p, grid, next, n);
  double sum, sumsq;
  int pos;
  checksum(grid, n, sum, sumsq, pos);
  printf("cells=%d sum=%.4f rms=%.5f positives=%d first=%.5f last=%.5f\n", n, sum, std::sqrt(sumsq / n), pos,
         grid[0], grid[n - 1]);
  printf("timer %s\n", t.elapsed() >= 0.0 ? "ok" : "bad");
  free(grid);
  free(next);
  return 0;
}
