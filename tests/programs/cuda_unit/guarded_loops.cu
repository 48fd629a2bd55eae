// Per-thread guards and block-uniform loops: a naive matrix product with partial edge blocks (the guard
// becomes the thread-loop bounds, the k loop moves around the thread loop), guards on thread ids against
// negative and unsigned bounds, a guard that also tests data, and a guarded loop after an integer division
// (not speculated). Integer data; tests/test_cuda_cpu_opts.py recomputes the results in Python.
#include <stdio.h>
#include <cuda_runtime.h>

#define M 37
#define K 101
#define N 45

__global__ void matmul(const int *A, const int *B, int *C, int m, int k, int n)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < n) {
        int acc = 0;
        for (int j = 0; j < k; j++)
            acc += A[row * k + j] * B[j * n + col];
        C[row * n + col] = acc;
    }
}

__global__ void guards(int *out, int shift, unsigned int lim, const int *data)
{
    int t = threadIdx.x;
    if (shift + t < 5)                  // shift is negative: threads 0 .. 4 - shift
        out[t] += 1;
    if (t >= shift + 60 && t <= 61)     // 60 + shift .. 61
        out[t] += 10;
    if ((unsigned int)t < lim)          // unsigned bound
        out[t] += 100;
    if (t == 7)
        out[t] += 1000;
    if (t > 3 && data[t] % 3 == 0)      // also tests data: left as it is
        out[t] += 10000;
}

__global__ void divided(int *out, const int *d, int k)
{
    int t = threadIdx.x;
    if (d[t] != 0) {
        int q = 1000 / d[t];            // must not run for d[t] == 0
        int acc = 0;
        for (int j = 0; j < k; j++)
            acc += q * j + out[j % 64];
        out[64 + t] = acc;
    }
}

// a constant-bound thread-strided loop with a per-thread sum, and an anti-diagonal guard ``u - tid < 16``
__global__ void diagonal(int *out, const int *data)
{
    int t = threadIdx.x;
    int sum = 0;
    for (int k = t; k < 100; k += 16)
        sum += data[k % 64] * (k + 1);
    out[t] = sum;
    for (int d = 0; d < 40; d++) {
        int c = d - t;
        if (t <= d && c < 16)
            out[16 + t] += c * (d + 1);
    }
}

int main(void)
{
    static int hA[M * K], hB[K * N], hC[M * N], hout[128], hdata[64], hd[64];
    for (int i = 0; i < M * K; i++)
        hA[i] = (i * 7 + 3) % 11 - 5;
    for (int i = 0; i < K * N; i++)
        hB[i] = (i * 5 + 1) % 13 - 6;
    for (int i = 0; i < 64; i++) {
        hdata[i] = i * i + 1;
        hd[i] = i % 4 == 0 ? 0 : i % 9 + 1;
    }
    int *A, *B, *C, *out, *data, *d;
    cudaMalloc(&A, sizeof hA);
    cudaMalloc(&B, sizeof hB);
    cudaMalloc(&C, sizeof hC);
    cudaMalloc(&out, sizeof hout);
    cudaMalloc(&data, sizeof hdata);
    cudaMalloc(&d, sizeof hd);
    cudaMemcpy(A, hA, sizeof hA, cudaMemcpyHostToDevice);
    cudaMemcpy(B, hB, sizeof hB, cudaMemcpyHostToDevice);
    cudaMemcpy(data, hdata, sizeof hdata, cudaMemcpyHostToDevice);
    cudaMemcpy(d, hd, sizeof hd, cudaMemcpyHostToDevice);
    cudaMemset(out, 0, sizeof hout);
    dim3 block(16, 8);
    dim3 grid((N + 15) / 16, (M + 7) / 8);
    matmul<<<grid, block>>>(A, B, C, M, K, N);
    guards<<<1, 64>>>(out, -3, 9u, data);
    divided<<<1, 64>>>(out, d, 77);
    int *out2, hout2[32];
    cudaMalloc(&out2, sizeof hout2);
    cudaMemset(out2, 0, sizeof hout2);
    diagonal<<<1, 16>>>(out2, data);
    cudaMemcpy(hout2, out2, sizeof hout2, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 32; i++)
        printf("%d ", hout2[i]);
    printf("\n");
    cudaMemcpy(hC, C, sizeof hC, cudaMemcpyDeviceToHost);
    cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost);
    long long s = 0;
    for (int i = 0; i < M * N; i++)
        s += (long long)hC[i] * (i % 17 + 1);
    printf("%d %d %d %lld\n", hC[0], hC[M * N / 2], hC[M * N - 1], s);
    for (int i = 0; i < 128; i++)
        printf("%d ", hout[i]);
    printf("\n");
    return 0;
}
