/*
 * matmul.cu - dense double-precision matrix product C = A * B.
 *
 * A is M x K, B is K x N, C is M x N, all row-major.  One thread computes
 * one element of C; 16x16 thread blocks on a 2-D grid sized with ceiling
 * division, so sizes need not be multiples of 16 (default 200 x 150 x 170).
 * Usage: matmul [M K N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul_kernel(const double *A, const double *B, double *C,
                              int M, int K, int N)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;

    if (row < M && col < N) {
        double acc = 0.0;
        for (int k = 0; k < K; k++)
            acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}

static void fill_matrices(double *A, double *B, int M, int K, int N)
{
    for (int i = 0; i < M; i++)
        for (int k = 0; k < K; k++)
            A[i * K + k] = (double)((i * 3 + k * 5) % 17) / 17.0 - 0.5;
    for (int k = 0; k < K; k++)
        for (int j = 0; j < N; j++)
            B[k * N + j] = (double)((k * 7 + j * 2 + 1) % 23) / 11.0 - 1.0;
}

int main(int argc, char **argv)
{
    int M = 200, K = 150, N = 170;
    if (argc > 3) {
        M = atoi(argv[1]);
        K = atoi(argv[2]);
        N = atoi(argv[3]);
    }
    if (M <= 0 || K <= 0 || N <= 0) {
        fprintf(stderr, "usage: %s [M K N]\n", argv[0]);
        return 1;
    }

    size_t sizeA = (size_t)M * K * sizeof(double);
    size_t sizeB = (size_t)K * N * sizeof(double);
    size_t sizeC = (size_t)M * N * sizeof(double);
    double *h_A = (double *)malloc(sizeA);
    double *h_B = (double *)malloc(sizeB);
    double *h_C = (double *)malloc(sizeC);
    if (!h_A || !h_B || !h_C) {
        fprintf(stderr, "host malloc failed\n");
        return 1;
    }
    fill_matrices(h_A, h_B, M, K, N);

    double *d_A, *d_B, *d_C;
    cudaMalloc((void **)&d_A, sizeA);
    cudaMalloc((void **)&d_B, sizeB);
    cudaMalloc((void **)&d_C, sizeC);
    cudaMemcpy(d_A, h_A, sizeA, cudaMemcpyHostToDevice);
    cudaMemcpy(d_B, h_B, sizeB, cudaMemcpyHostToDevice);
    cudaMemset(d_C, 0, sizeC);

    dim3 block(TILE, TILE);
    dim3 grid((N + block.x - 1) / block.x, (M + block.y - 1) / block.y);

    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    cudaEventRecord(t0, 0);

    matmul_kernel<<<grid, block>>>(d_A, d_B, d_C, M, K, N);

    cudaEventRecord(t1, 0);
    cudaEventSynchronize(t1);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "matmul_kernel: %s\n", cudaGetErrorString(err));
        return 1;
    }
    float elapsed = 0.0f;
    cudaEventElapsedTime(&elapsed, t0, t1);
    fprintf(stderr, "matmul %dx%dx%d: grid %ux%u, %.3f ms, %.2f GFLOP/s\n",
            M, K, N, grid.x, grid.y, elapsed,
            elapsed > 0.0f ? 2.0 * M * K * N / (elapsed * 1.0e6) : 0.0);

    cudaMemcpy(h_C, d_C, sizeC, cudaMemcpyDeviceToHost);

    double trace = 0.0;
    double total = 0.0;
    for (int i = 0; i < M; i++) {
        double row_sum = 0.0;
        for (int j = 0; j < N; j++)
            row_sum += h_C[i * N + j];
        total += row_sum;
        if (i < N)
            trace += h_C[i * N + i];
    }

    printf("matmul M=%d K=%d N=%d\n", M, K, N);
    printf("C[0][0] = %.6f\n", h_C[0]);
    printf("C[%d][%d] = %.6f\n", M / 2, N / 3, h_C[(M / 2) * N + N / 3]);
    printf("C[%d][%d] = %.6f\n", M - 1, N - 1, h_C[(M - 1) * N + (N - 1)]);
    printf("trace = %.6f\n", trace);
    printf("checksum = %.6f\n", total);

    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    cudaFree(d_A);
    cudaFree(d_B);
    cudaFree(d_C);
    free(h_A);
    free(h_B);
    free(h_C);
    return 0;
}
