/*
 * dot_product.cu - dot product, norms and cosine similarity of two float
 * vectors without shared memory or atomics.
 *
 * A fixed 1-D grid (48 blocks x 128 threads) walks the vectors with a
 * grid-stride loop; every thread accumulates its own partial sums in double
 * and writes them to per-thread slots.  The host adds the partials in thread
 * order, so the result does not depend on scheduling.
 * Usage: dot_product [n]       (default n = 300000)
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s\n", cudaGetErrorString(e)); exit(1);} } while (0)

#define BLOCKS 48
#define THREADS 128

__global__ void partial_dot(const float *x, const float *y, int n,
                            double *dot_part, double *xx_part, double *yy_part)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int stride = gridDim.x * blockDim.x;
    double d = 0.0, sx = 0.0, sy = 0.0;
    for (int i = tid; i < n; i += stride) {
        float xi = x[i];
        float yi = y[i];
        d += (double)(xi * yi);
        sx += (double)(xi * xi);
        sy += (double)(yi * yi);
    }
    dot_part[tid] = d;
    xx_part[tid] = sx;
    yy_part[tid] = sy;
}

int main(int argc, char **argv)
{
    int n = 300000;
    if (argc > 1)
        n = atoi(argv[1]);
    if (n <= 0) {
        fprintf(stderr, "usage: %s [n > 0]\n", argv[0]);
        return 1;
    }
    const int nthreads = BLOCKS * THREADS;

    float *x = (float *)malloc(n * sizeof(float));
    float *y = (float *)malloc(n * sizeof(float));
    double *dot_part = (double *)malloc(nthreads * sizeof(double));
    double *xx_part = (double *)malloc(nthreads * sizeof(double));
    double *yy_part = (double *)malloc(nthreads * sizeof(double));
    for (int i = 0; i < n; i++) {
        x[i] = sinf(0.001f * (float)(i % 6283));
        y[i] = 0.5f * x[i] + (float)((i * 37) % 101) / 101.0f - 0.5f;
    }

    float *d_x, *d_y;
    double *d_dot, *d_xx, *d_yy;
    CHECK(cudaMalloc((void **)&d_x, n * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_y, n * sizeof(float)));
    CHECK(cudaMalloc((void **)&d_dot, nthreads * sizeof(double)));
    CHECK(cudaMalloc((void **)&d_xx, nthreads * sizeof(double)));
    CHECK(cudaMalloc((void **)&d_yy, nthreads * sizeof(double)));
    CHECK(cudaMemcpy(d_x, x, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_y, y, n * sizeof(float), cudaMemcpyHostToDevice));

    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventRecord(start, 0));
    partial_dot<<<BLOCKS, THREADS>>>(d_x, d_y, n, d_dot, d_xx, d_yy);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(stop, 0));
    CHECK(cudaEventSynchronize(stop));
    float ms;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    fprintf(stderr, "partial_dot over %d elements: %.3f ms\n", n, ms);

    CHECK(cudaMemcpy(dot_part, d_dot, nthreads * sizeof(double), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(xx_part, d_xx, nthreads * sizeof(double), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(yy_part, d_yy, nthreads * sizeof(double), cudaMemcpyDeviceToHost));

    double dot = 0.0, xx = 0.0, yy = 0.0;
    for (int t = 0; t < nthreads; t++) {
        dot += dot_part[t];
        xx += xx_part[t];
        yy += yy_part[t];
    }
    double norm_x = sqrt(xx);
    double norm_y = sqrt(yy);

    printf("dot_product n=%d partials=%d\n", n, nthreads);
    printf("partial[0] = %.6f partial[%d] = %.6f\n",
           dot_part[0], nthreads - 1, dot_part[nthreads - 1]);
    printf("x.y   = %.6f\n", dot);
    printf("|x|   = %.6f\n", norm_x);
    printf("|y|   = %.6f\n", norm_y);
    printf("cos   = %.8f\n", dot / (norm_x * norm_y));

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    CHECK(cudaFree(d_dot));
    CHECK(cudaFree(d_xx));
    CHECK(cudaFree(d_yy));
    free(x);
    free(y);
    free(dot_part);
    free(xx_part);
    free(yy_part);
    return 0;
}
