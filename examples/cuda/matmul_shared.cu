/*
 * matmul_shared.cu - single-precision C = A * B with shared-memory tiling.
 *
 * A is M x K, B is K x N, C is M x N, row-major.  Each 16x16 thread block
 * owns a 16x16 tile of C.  It walks along K one tile at a time: the threads
 * cooperatively stage a tile of A and a tile of B in __shared__ arrays
 * (zero-padding past the matrix edges), synchronize, accumulate the 16
 * partial products from shared memory, and synchronize again before the
 * tiles are overwritten.  The default sizes 231 x 190 x 205 are not
 * multiples of the tile, so the edge blocks exercise the padding.
 *
 * Determinism: every C element is accumulated in k order (tile by tile,
 * then k inside the tile), exactly as a plain triple loop does; the padded
 * terms add +0.0f to a sum that starts at +0.0f, which never changes it.
 * The output is therefore bit-identical to a sequential C version.
 * Usage: matmul_shared [M K N]
 */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define TILE 16

__global__ void matmul_tiled(const float *A, const float *B, float *C,
                             int M, int K, int N)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];

    int tx = threadIdx.x;
    int ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    int ntiles = (K + TILE - 1) / TILE;

    float acc = 0.0f;
    for (int t = 0; t < ntiles; t++) {
        int a_col = t * TILE + tx;
        int b_row = t * TILE + ty;
        As[ty][tx] = (row < M && a_col < K) ? A[row * K + a_col] : 0.0f;
        Bs[ty][tx] = (b_row < K && col < N) ? B[b_row * N + col] : 0.0f;
        __syncthreads();

        for (int k = 0; k < TILE; k++)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }

    if (row < M && col < N)
        C[row * N + col] = acc;
}

static unsigned int lcg_state = 12345u;

static float lcg_uniform(void)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    /* 16 random bits -> [-1, 1) in steps of 2^-15 */
    return (float)((int)(lcg_state >> 16) - 32768) / 32768.0f;
}

int main(int argc, char **argv)
{
    int M = 231, K = 190, N = 205;
    if (argc > 3) {
        M = atoi(argv[1]);
        K = atoi(argv[2]);
        N = atoi(argv[3]);
    }
    if (M <= 0 || K <= 0 || N <= 0) {
        fprintf(stderr, "usage: %s [M K N]\n", argv[0]);
        return 1;
    }

    size_t sizeA = (size_t)M * K * sizeof(float);
    size_t sizeB = (size_t)K * N * sizeof(float);
    size_t sizeC = (size_t)M * N * sizeof(float);
    float *h_A = (float *)malloc(sizeA);
    float *h_B = (float *)malloc(sizeB);
    float *h_C = (float *)malloc(sizeC);
    if (!h_A || !h_B || !h_C) {
        fprintf(stderr, "host malloc failed\n");
        return 1;
    }
    for (int i = 0; i < M * K; i++)
        h_A[i] = lcg_uniform();
    for (int i = 0; i < K * N; i++)
        h_B[i] = lcg_uniform();

    float *d_A, *d_B, *d_C;
    cudaMalloc((void **)&d_A, sizeA);
    cudaMalloc((void **)&d_B, sizeB);
    cudaMalloc((void **)&d_C, sizeC);
    cudaMemcpy(d_A, h_A, sizeA, cudaMemcpyHostToDevice);
    cudaMemcpy(d_B, h_B, sizeB, cudaMemcpyHostToDevice);

    dim3 block(TILE, TILE);
    dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);

    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    cudaEventRecord(t0, 0);
    matmul_tiled<<<grid, block>>>(d_A, d_B, d_C, M, K, N);
    cudaEventRecord(t1, 0);
    cudaEventSynchronize(t1);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "matmul_tiled: %s\n", cudaGetErrorString(err));
        return 1;
    }
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, t0, t1);
    fprintf(stderr, "matmul_tiled %dx%dx%d, grid %ux%u: %.3f ms\n",
            M, K, N, grid.x, grid.y, ms);

    cudaMemcpy(h_C, d_C, sizeC, cudaMemcpyDeviceToHost);

    double total = 0.0, abs_total = 0.0;
    for (int i = 0; i < M * N; i++) {
        total += h_C[i];
        abs_total += h_C[i] < 0.0f ? -h_C[i] : h_C[i];
    }
    printf("matmul_shared M=%d K=%d N=%d tile=%d\n", M, K, N, TILE);
    printf("C[0][0] = %.6f\n", h_C[0]);
    printf("C[%d][%d] = %.6f\n", M / 2, N / 2, h_C[(M / 2) * N + N / 2]);
    printf("C[%d][%d] = %.6f\n", M - 1, N - 1, h_C[(M - 1) * N + N - 1]);
    for (int i = 0; i < M; i += M / 4 > 0 ? M / 4 : 1) {
        double rs = 0.0;
        for (int j = 0; j < N; j++)
            rs += h_C[i * N + j];
        printf("row %d sum = %.6f\n", i, rs);
    }
    printf("sum = %.6f\n", total);
    printf("sum |C| = %.6f\n", abs_total);

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
