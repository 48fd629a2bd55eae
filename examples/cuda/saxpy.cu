/*
 * saxpy.cu - single-precision y = a*x + y.
 *
 * The scalar `a` is passed by value to the kernel; 128-thread blocks on a
 * 1-D grid.  Two launches with different scalars are applied in sequence.
 * Kernel time is measured with CUDA events and reported on stderr.
 * Usage: saxpy [n]             (default n = 1 << 20)
 */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); exit(1);} } while (0)

#define BLOCK_SIZE 128

__global__ void saxpy(int n, float a, const float *x, float *y)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv)
{
    int n = 1 << 20;
    if (argc > 1)
        n = atoi(argv[1]);
    if (n < 4) {
        fprintf(stderr, "usage: %s [n >= 4]\n", argv[0]);
        return 1;
    }

    size_t bytes = (size_t)n * sizeof(float);
    float *x = (float *)malloc(bytes);
    float *y = (float *)malloc(bytes);
    if (x == NULL || y == NULL) {
        fprintf(stderr, "out of host memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        x[i] = (float)(i % 97) / 97.0f;
        y[i] = 1.0f - (float)(i % 13) * 0.125f;
    }

    float *d_x = NULL, *d_y = NULL;
    CHECK(cudaMalloc((void **)&d_x, bytes));
    CHECK(cudaMalloc((void **)&d_y, bytes));
    CHECK(cudaMemcpy(d_x, x, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_y, y, bytes, cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));

    int grid = (n + BLOCK_SIZE - 1) / BLOCK_SIZE;
    float alpha = 2.5f;
    float beta = -0.75f;

    CHECK(cudaEventRecord(start, 0));
    saxpy<<<grid, BLOCK_SIZE>>>(n, alpha, d_x, d_y);
    CHECK(cudaGetLastError());
    saxpy<<<grid, BLOCK_SIZE>>>(n, beta, d_x, d_y);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));

    float ms = 0.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    fprintf(stderr, "saxpy: 2 launches of %d blocks x %d threads took %.3f ms\n",
            grid, BLOCK_SIZE, ms);

    CHECK(cudaMemcpy(y, d_y, bytes, cudaMemcpyDeviceToHost));

    double sum = 0.0;
    double abs_sum = 0.0;
    for (int i = 0; i < n; i++) {
        sum += y[i];
        abs_sum += (y[i] < 0.0f) ? -y[i] : y[i];
    }

    printf("saxpy n=%d a1=%.2f a2=%.2f\n", n, alpha, beta);
    for (int k = 0; k < 4; k++) {
        int i = (int)((long long)k * (n - 1) / 3);
        printf("y[%d] = %.6f\n", i, y[i]);
    }
    printf("sum = %.4f\n", sum);
    printf("abs_sum = %.4f\n", abs_sum);

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    free(x);
    free(y);
    return 0;
}
