// Kernels of the nearest-center program (included by main.cu, as old CUDA codes include their kernel files):
// the points are read through 1-D texture references, the centers from constant memory.
#ifndef ASSIGN_KERNELS_CU
#define ASSIGN_KERNELS_CU

#include <cuda.h>

#define MAX_CENTERS 16
#define MAX_DIMS 8

texture<float, 1, cudaReadModeElementType> t_points;      // dimension-major: [dim][point]
texture<float, 1, cudaReadModeElementType> t_points_rows; // point-major: [point][dim]

__constant__ float c_centers[MAX_CENTERS * MAX_DIMS];

__global__ void to_dimension_major(float *out, int npoints, int ndims) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < npoints)
        for (int d = 0; d < ndims; d++)
            out[d * npoints + p] = tex1Dfetch(t_points_rows, p * ndims + d);
}

__global__ void nearest_center(int *label, float *best_dist, int npoints, int ndims, int ncenters) {
    unsigned int block = gridDim.x * blockIdx.y + blockIdx.x;
    unsigned int p = block * blockDim.x + threadIdx.x;
    if (p >= npoints)
        return;
    int best = -1;
    float best_d = FLT_MAX;
    for (int c = 0; c < ncenters; c++) {
        float sum = 0.0f;
        for (int d = 0; d < ndims; d++) {
            float diff = tex1Dfetch(t_points, d * npoints + p) - c_centers[c * ndims + d];
            sum += diff * diff;
        }
        if (sum < best_d) {
            best_d = sum;
            best = c;
        }
    }
    label[p] = best;
    best_dist[p] = best_d;
}

#endif
