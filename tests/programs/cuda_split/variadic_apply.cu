// A variadic kernel template that hands its trailing arguments to a functor (the launch names no template
// arguments: all are deduced, a parameter pack among them), a chunk table passed by value, and vector
// copies through a standard-library POD type (std::aligned_storage) in device code.
#include <chrono>
#include <cstdio>
#include <random>
#include <type_traits>
#include <vector>

struct Chunks {
  const float *src[8];
  float *dst[8];
  int len[8];
  int chunk_of_block[64];
  int list_of_block[64];
};

template <typename F, typename... Args>
__global__ void apply_chunks(int chunk, Chunks table, F f, Args... args) {
  f(chunk, table, args...);
}

struct ScaleShift {
  __device__ void operator()(int chunk, const Chunks &t, float scale, float shift) const {
    int l = t.list_of_block[blockIdx.x], c = t.chunk_of_block[blockIdx.x];
    for (int i = c * chunk + threadIdx.x; i < (c + 1) * chunk && i < t.len[l]; i += blockDim.x)
      t.dst[l][i] = scale * t.src[l][i] + shift;
  }
};

struct CopyQuads {
  __device__ void operator()(int chunk, const Chunks &t) const {
    typedef std::aligned_storage<4 * sizeof(float), 4 * alignof(float)>::type Quad;
    int l = t.list_of_block[blockIdx.x], c = t.chunk_of_block[blockIdx.x];
    for (int q = (c * chunk) / 4 + threadIdx.x; q < ((c + 1) * chunk) / 4 && 4 * q < t.len[l]; q += blockDim.x)
      ((Quad *)t.dst[l])[q] = ((const Quad *)t.src[l])[q];
  }
};

int main() {
  const int lists = 5, chunk = 512;
  std::mt19937 gen(13);
  std::uniform_real_distribution<float> dist(-4.f, 4.f);
  Chunks t{};
  std::vector<std::vector<float>> in(lists);
  int blocks = 0;
  for (int l = 0; l < lists; l++) {
    t.len[l] = 4 * (300 + 250 * l);  // multiples of 4 for the quad copy
    in[l].resize(t.len[l]);
    for (auto &v : in[l]) v = dist(gen);
    float *s, *d;
    cudaMalloc(&s, t.len[l] * sizeof(float));
    cudaMalloc(&d, t.len[l] * sizeof(float));
    cudaMemcpy(s, in[l].data(), t.len[l] * sizeof(float), cudaMemcpyHostToDevice);
    t.src[l] = s;
    t.dst[l] = d;
    for (int c = 0; c * chunk < t.len[l]; c++, blocks++) {
      t.list_of_block[blocks] = l;
      t.chunk_of_block[blocks] = c;
    }
  }
  bool ok = true;
  auto start = std::chrono::steady_clock::now();
  apply_chunks<<<blocks, 128>>>(chunk, t, ScaleShift(), 1.5f, -2.f);
  for (int l = 0; l < lists; l++) {
    std::vector<float> got(t.len[l]);
    cudaMemcpy(got.data(), t.dst[l], t.len[l] * sizeof(float), cudaMemcpyDeviceToHost);
    for (int i = 0; i < t.len[l]; i++) ok = ok && got[i] == 1.5f * in[l][i] + -2.f;
    cudaMemset(t.dst[l], 0, t.len[l] * sizeof(float));
  }
  apply_chunks<<<blocks, 64>>>(chunk, t, CopyQuads());
  for (int l = 0; l < lists; l++) {
    std::vector<float> got(t.len[l]);
    cudaMemcpy(got.data(), t.dst[l], t.len[l] * sizeof(float), cudaMemcpyDeviceToHost);
    ok = ok && got == in[l];
  }
  fprintf(stderr, "%f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
