/*
 * gemver.cu - rank-2 update followed by two matrix-vector products
 * (double precision, N x N):
 *   A  = A + u1 v1^T + u2 v2^T        gemver_rank2   2-D grid, 32x8 blocks
 *   x  = x + beta * A^T y             gemver_atx     1-D grid, 256 threads
 *   x  = x + z                        gemver_addz    1-D grid, 256 threads
 *   w  = w + alpha * A x              gemver_ax      1-D grid, 256 threads
 * Usage: gemver [n]            (default n = 500)
 */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

__global__ void gemver_rank2(double *A, const double *u1, const double *v1,
                             const double *u2, const double *v2, int n)
{
    int j = blockIdx.x * blockDim.x + threadIdx.x;
    int i = blockIdx.y * blockDim.y + threadIdx.y;
    if (i < n && j < n)
        A[i * n + j] = A[i * n + j] + u1[i] * v1[j] + u2[i] * v2[j];
}

__global__ void gemver_atx(const double *A, double *x, const double *y,
                           double beta, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double acc = x[i];
        for (int j = 0; j < n; j++)
            acc = acc + beta * A[j * n + i] * y[j];
        x[i] = acc;
    }
}

__global__ void gemver_addz(double *x, const double *z, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = x[i] + z[i];
}

__global__ void gemver_ax(const double *A, const double *x, double *w,
                          double alpha, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double acc = w[i];
        for (int j = 0; j < n; j++)
            acc = acc + alpha * A[i * n + j] * x[j];
        w[i] = acc;
    }
}

static double *device_copy(const double *h, int count)
{
    double *d = NULL;
    cudaMalloc((void **)&d, count * sizeof(double));
    cudaMemcpy(d, h, count * sizeof(double), cudaMemcpyHostToDevice);
    return d;
}

int main(int argc, char **argv)
{
    int n = 500;
    if (argc > 1)
        n = atoi(argv[1]);
    if (n < 2) {
        fprintf(stderr, "usage: %s [n >= 2]\n", argv[0]);
        return 1;
    }
    const double alpha = 1.25;
    const double beta = 0.75;

    double *A = (double *)malloc((size_t)n * n * sizeof(double));
    double *u1 = (double *)malloc(n * sizeof(double));
    double *v1 = (double *)malloc(n * sizeof(double));
    double *u2 = (double *)malloc(n * sizeof(double));
    double *v2 = (double *)malloc(n * sizeof(double));
    double *x = (double *)malloc(n * sizeof(double));
    double *y = (double *)malloc(n * sizeof(double));
    double *z = (double *)malloc(n * sizeof(double));
    double *w = (double *)malloc(n * sizeof(double));

    double fn = (double)n;
    for (int i = 0; i < n; i++) {
        u1[i] = (double)i / fn;
        u2[i] = (double)(i + 1) / fn / 2.0;
        v1[i] = (double)(i + 1) / fn / 4.0;
        v2[i] = (double)(i + 1) / fn / 6.0;
        y[i] = (double)(i + 1) / fn / 8.0;
        z[i] = (double)(i + 1) / fn / 9.0;
        x[i] = 0.0;
        w[i] = 0.0;
        for (int j = 0; j < n; j++)
            A[i * n + j] = (double)((i * j) % n) / fn;
    }

    double *d_A = device_copy(A, n * n);
    double *d_u1 = device_copy(u1, n);
    double *d_v1 = device_copy(v1, n);
    double *d_u2 = device_copy(u2, n);
    double *d_v2 = device_copy(v2, n);
    double *d_y = device_copy(y, n);
    double *d_z = device_copy(z, n);
    double *d_x, *d_w;
    cudaMalloc((void **)&d_x, n * sizeof(double));
    cudaMalloc((void **)&d_w, n * sizeof(double));
    cudaMemset(d_x, 0, n * sizeof(double));
    cudaMemset(d_w, 0, n * sizeof(double));

    dim3 block2d(32, 8);
    dim3 grid2d((n + 31) / 32, (n + 7) / 8);
    int threads = 256;
    int blocks = (n + threads - 1) / threads;

    gemver_rank2<<<grid2d, block2d>>>(d_A, d_u1, d_v1, d_u2, d_v2, n);
    gemver_atx<<<blocks, threads>>>(d_A, d_x, d_y, beta, n);
    gemver_addz<<<blocks, threads>>>(d_x, d_z, n);
    gemver_ax<<<blocks, threads>>>(d_A, d_x, d_w, alpha, n);
    cudaDeviceSynchronize();
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "gemver: %s\n", cudaGetErrorString(err));
        return 1;
    }

    cudaMemcpy(A, d_A, (size_t)n * n * sizeof(double), cudaMemcpyDeviceToHost);
    cudaMemcpy(x, d_x, n * sizeof(double), cudaMemcpyDeviceToHost);
    cudaMemcpy(w, d_w, n * sizeof(double), cudaMemcpyDeviceToHost);

    double a_sum = 0.0, x_sum = 0.0, w_sum = 0.0;
    for (int i = 0; i < n * n; i++)
        a_sum += A[i];
    for (int i = 0; i < n; i++) {
        x_sum += x[i];
        w_sum += w[i];
    }

    printf("gemver n=%d alpha=%.2f beta=%.2f\n", n, alpha, beta);
    printf("sum(A) = %.6f\n", a_sum);
    printf("sum(x) = %.6f\n", x_sum);
    printf("sum(w) = %.6f\n", w_sum);
    printf("x[0] = %.6f  x[n-1] = %.6f\n", x[0], x[n - 1]);
    printf("w[0] = %.6f  w[n-1] = %.6f\n", w[0], w[n - 1]);

    cudaFree(d_A);
    cudaFree(d_u1);
    cudaFree(d_v1);
    cudaFree(d_u2);
    cudaFree(d_v2);
    cudaFree(d_x);
    cudaFree(d_y);
    cudaFree(d_z);
    cudaFree(d_w);
    free(A);
    free(u1);
    free(v1);
    free(u2);
    free(v2);
    free(x);
    free(y);
    free(z);
    free(w);
    return 0;
}
