// Nearest-center assignment in the style of old CUDA clustering codes: global configuration computed at
// start-up, texture references bound with both forms of cudaBindTexture, constant memory filled with
// cudaMemcpyToSymbol, driver-API result codes from cuda.h, OpenMP's timer from omp.h; checked against a
// CPU reference at every thread count.
#include <float.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include <cuda.h>

#define THREADS_PER_DIM 8
#include "assign_kernels.cu"

unsigned int threads_per_dim = THREADS_PER_DIM;
unsigned int num_threads = threads_per_dim * threads_per_dim;  // dynamic initialization in host code

static float frand(unsigned *s) {
    *s = *s * 1664525u + 1013904223u;
    return (float)(*s >> 8) / (float)(1u << 24);
}

int main(int argc, char **argv) {
    const int npoints = 1000, ndims = 5, ncenters = 7;
    double t0 = omp_get_wtime();
    unsigned seed = 12345;
    float *points = (float *)malloc(sizeof(float) * npoints * ndims);
    float centers[MAX_CENTERS * MAX_DIMS];
    for (int i = 0; i < npoints * ndims; i++)
        points[i] = frand(&seed) * 10.0f;
    for (int i = 0; i < ncenters * ndims; i++)
        centers[i] = frand(&seed) * 10.0f;

    float *rows_d, *cols_d, *dist_d;
    int *label_d;
    cudaMalloc((void **)&rows_d, sizeof(float) * npoints * ndims);
    cudaMalloc((void **)&cols_d, sizeof(float) * npoints * ndims);
    cudaMalloc((void **)&dist_d, sizeof(float) * npoints);
    cudaMalloc((void **)&label_d, sizeof(int) * npoints);
    cudaMemcpy(rows_d, points, sizeof(float) * npoints * ndims, cudaMemcpyHostToDevice);

    // the template form, by reference
    size_t offset = 99;
    if (cudaBindTexture(&offset, t_points_rows, rows_d, sizeof(float) * npoints * ndims) != cudaSuccess ||
        offset != 0) {
        printf("bind rows failed\n");
        return 1;
    }
    unsigned int blocks = (npoints + num_threads - 1) / num_threads;
    to_dimension_major<<<blocks, num_threads>>>(cols_d, npoints, ndims);
    cudaUnbindTexture(t_points_rows);

    // the C form, through the texture's address, compared with the driver API's code
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    t_points.filterMode = cudaFilterModePoint;
    t_points.normalized = false;
    t_points.channelDesc = desc;
    if (cudaBindTexture(NULL, &t_points, cols_d, &desc, sizeof(float) * npoints * ndims) != (int)CUDA_SUCCESS) {
        printf("bind columns failed\n");
        return 1;
    }
    cudaMemcpyToSymbol(c_centers, centers, sizeof(float) * ncenters * ndims, 0, cudaMemcpyHostToDevice);

    unsigned int per_dim = (unsigned int)ceil(sqrt((double)blocks));
    dim3 grid(per_dim, per_dim), threads(num_threads);
    nearest_center<<<grid, threads>>>(label_d, dist_d, npoints, ndims, ncenters);
    cudaDeviceSynchronize();

    int *label = (int *)malloc(sizeof(int) * npoints);
    float *dist = (float *)malloc(sizeof(float) * npoints);
    cudaMemcpy(label, label_d, sizeof(int) * npoints, cudaMemcpyDeviceToHost);
    cudaMemcpy(dist, dist_d, sizeof(float) * npoints, cudaMemcpyDeviceToHost);

    int bad = 0, count[MAX_CENTERS] = {0};
    for (int p = 0; p < npoints; p++) {
        int best = -1;
        float best_d = FLT_MAX;
        for (int c = 0; c < ncenters; c++) {
            float sum = 0.0f;
            for (int d = 0; d < ndims; d++) {
                float diff = points[p * ndims + d] - centers[c * ndims + d];
                sum += diff * diff;
            }
            if (sum < best_d) {
                best_d = sum;
                best = c;
            }
        }
        if (label[p] != best || fabsf(dist[p] - best_d) > 1e-4f * (1.0f + best_d))
            bad++;
        count[label[p] < 0 ? 0 : label[p]]++;
    }
    for (int c = 0; c < ncenters; c++)
        printf("center %d: %d points\n", c, count[c]);
    double elapsed = omp_get_wtime() - t0;
    cudaUnbindTexture(&t_points);
    cudaFree(rows_d);
    cudaFree(cols_d);
    cudaFree(dist_d);
    cudaFree(label_d);
    printf("%s\n", bad == 0 && elapsed >= 0.0 ? "PASS" : "FAIL");
    return bad != 0;
}
