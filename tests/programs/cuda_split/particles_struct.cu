// Particles as an array of structs with __host__ __device__ operators, a struct of parameters passed by value
// (larger than 16 bytes), streams and asynchronous copies.
#include <vector>
#include <cstdio>
#include <cmath>
#include "check.h"

struct Vec3 {
  float x, y, z;
  __host__ __device__ Vec3 operator+(const Vec3 &o) const { Vec3 r = {x + o.x, y + o.y, z + o.z}; return r; }
  __host__ __device__ Vec3 operator*(float s) const { Vec3 r = {x * s, y * s, z * s}; return r; }
};

struct Params { Vec3 gravity; float dt; float drag; int steps; };

__host__ __device__ Vec3 step(Vec3 p, Vec3 &v, const Params &prm) {
  v = (v + prm.gravity * prm.dt) * (1.f - prm.drag);
  return p + v * prm.dt;
}

__global__ void advance(Vec3 *pos, Vec3 *vel, Params prm, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  Vec3 p = pos[i], v = vel[i];
  for (int s = 0; s < prm.steps; s++) p = step(p, v, prm);
  pos[i] = p;
  vel[i] = v;
}

int main() {
  const int n = 2000;
  std::vector<Vec3> pos(n), vel(n), rp, rv;
  for (int i = 0; i < n; i++) { pos[i] = {(float)i, 0.f, 1.f}; vel[i] = {0.f, 1.f + i % 7, -0.5f}; }
  rp = pos; rv = vel;
  Params prm{{0.f, -9.81f, 0.f}, 0.01f, 0.001f, 25};
  for (int i = 0; i < n; i++)
    for (int s = 0; s < prm.steps; s++) rp[i] = step(rp[i], rv[i], prm);
  Vec3 *dp, *dv;
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_CUDA(cudaMalloc(&dp, n * sizeof(Vec3)));
  CHECK_CUDA(cudaMalloc(&dv, n * sizeof(Vec3)));
  CHECK_CUDA(cudaMemcpyAsync(dp, pos.data(), n * sizeof(Vec3), cudaMemcpyHostToDevice, stream));
  CHECK_CUDA(cudaMemcpyAsync(dv, vel.data(), n * sizeof(Vec3), cudaMemcpyHostToDevice, stream));
  advance<<<(n + 127) / 128, 128, 0, stream>>>(dp, dv, prm, n);
  CHECK_CUDA(cudaMemcpyAsync(pos.data(), dp, n * sizeof(Vec3), cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_CUDA(cudaStreamDestroy(stream));
  bool ok = true;
  for (int i = 0; i < n; i++)
    ok = ok && std::fabs(pos[i].x - rp[i].x) < 1e-4f && std::fabs(pos[i].y - rp[i].y) < 1e-4f &&
         std::fabs(pos[i].z - rp[i].z) < 1e-4f;
  printf("%.4f %.4f\n%s\n", pos[n - 1].y, rp[n - 1].y, ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
