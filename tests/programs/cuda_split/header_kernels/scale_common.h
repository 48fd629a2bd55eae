// Device helpers shared by the kernels of ops/scale_ops.h (included from there as "../scale_common.h").
#pragma once

__host__ __device__ inline float blend(float a, float b, float t) { return a + t * (b - a); }

__device__ inline int clamp_index(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }
