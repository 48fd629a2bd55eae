/*
 * conv3d.cu - 3x3x3 convolution of a single-precision volume.
 *
 * The volume is NZ x NY x NX (x fastest).  A 3-D grid of 8x8x4 thread
 * blocks covers it, one thread per voxel: x from blockIdx.x/threadIdx.x,
 * y from .y, z from .z.  Interior voxels get the weighted sum of their 27
 * neighbours (weights from a __device__ helper that depends on the distance
 * class: centre, face, edge, corner); boundary voxels are copied unchanged.
 * The filter is applied twice, ping-ponging between two buffers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define NX 60
#define NY 44
#define NZ 36

__device__ float stencil_weight(int dx, int dy, int dz)
{
    int dist = (dx != 0) + (dy != 0) + (dz != 0);
    if (dist == 0)
        return 0.40f;
    if (dist == 1)
        return 0.06f;
    if (dist == 2)
        return 0.015f;
    return 0.0075f;
}

__global__ void conv3d(const float *in, float *out, int nx, int ny, int nz)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x >= nx || y >= ny || z >= nz)
        return;

    int idx = (z * ny + y) * nx + x;
    if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
        out[idx] = in[idx];
        return;
    }

    float acc = 0.0f;
    for (int dz = -1; dz <= 1; dz++)
        for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++)
                acc += stencil_weight(dx, dy, dz) * in[idx + (dz * ny + dy) * nx + dx];
    out[idx] = acc;
}

int main(void)
{
    const int nx = NX, ny = NY, nz = NZ;
    const int total = nx * ny * nz;
    size_t bytes = (size_t)total * sizeof(float);

    float *vol = (float *)malloc(bytes);
    for (int z = 0; z < nz; z++)
        for (int y = 0; y < ny; y++)
            for (int x = 0; x < nx; x++) {
                int h = (x * 31 + y * 17 + z * 7) % 64;
                float v = (float)h / 16.0f;
                if ((x / 10 + y / 10 + z / 10) % 2 == 0)
                    v += 2.0f;
                vol[(z * ny + y) * nx + x] = v;
            }

    float *d_a, *d_b;
    cudaMalloc((void **)&d_a, bytes);
    cudaMalloc((void **)&d_b, bytes);
    cudaMemcpy(d_a, vol, bytes, cudaMemcpyHostToDevice);

    dim3 block(8, 8, 4);
    dim3 grid((nx + block.x - 1) / block.x,
              (ny + block.y - 1) / block.y,
              (nz + block.z - 1) / block.z);

    conv3d<<<grid, block>>>(d_a, d_b, nx, ny, nz);
    conv3d<<<grid, block>>>(d_b, d_a, nx, ny, nz);
    cudaDeviceSynchronize();
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "conv3d: %s\n", cudaGetErrorString(err));
        return 1;
    }

    cudaMemcpy(vol, d_a, bytes, cudaMemcpyDeviceToHost);

    double sum = 0.0;
    float vmin = vol[0], vmax = vol[0];
    for (int i = 0; i < total; i++) {
        sum += vol[i];
        if (vol[i] < vmin) vmin = vol[i];
        if (vol[i] > vmax) vmax = vol[i];
    }

    printf("conv3d %dx%dx%d grid=(%u,%u,%u) block=(%u,%u,%u)\n",
           nx, ny, nz, grid.x, grid.y, grid.z, block.x, block.y, block.z);
    printf("sum %.4f min %.5f max %.5f\n", sum, vmin, vmax);
    for (int k = 1; k < nz; k += 11) {
        int idx = (k * ny + k) * nx + k;
        printf("out[%d][%d][%d] = %.5f\n", k, k, k, vol[idx]);
    }

    cudaFree(d_a);
    cudaFree(d_b);
    free(vol);
    return 0;
}
