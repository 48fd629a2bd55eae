// Multi-pass tree reduction of sums and sums of squares (image statistics), in the style of older
// benchmarks: the last block holds fewer elements, so its tree depth is the largest power of two not above
// its element count, found by a small loop before the tree loop whose barriers it bounds; the remainder
// is added by one thread. Each pass reduces the previous pass's block results in place (stride `mul`).
#include <cmath>
#include <cstdio>
#include <vector>

#define THREADS 64

__global__ void block_sums(int count, int mul, float *sums, float *squares) {
    __shared__ float s[THREADS];
    __shared__ float q[THREADS];
    int tx = threadIdx.x, bx = blockIdx.x;
    int e = bx * THREADS + tx;
    int in_last = THREADS - (gridDim.x * THREADS - count);  // elements of the last block
    if (e < count) {
        s[tx] = sums[e * mul];
        q[tx] = squares[e * mul];
    }
    __syncthreads();
    int depth = THREADS;  // a full block
    if (bx == gridDim.x - 1 && in_last != THREADS) {
        depth = 0;
        for (int i = 1; i <= THREADS; i *= 2)
            if (in_last >= i)
                depth = i;
    }
    for (int i = 2; i <= depth; i *= 2) {
        if ((tx + 1) % i == 0 && tx < depth) {
            s[tx] += s[tx - i / 2];
            q[tx] += q[tx - i / 2];
        }
        __syncthreads();
    }
    if (tx == depth - 1) {
        float ts = s[tx], tq = q[tx];
        for (int r = depth; r < (bx == gridDim.x - 1 ? in_last : THREADS); r++) {  // the remainder
            ts += s[r];
            tq += q[r];
        }
        sums[bx * mul * THREADS] = ts;
        squares[bx * mul * THREADS] = tq;
    }
}

int main() {
    bool ok = true;
    for (int n : {64 * 64, 1000, 77, 5}) {
        std::vector<float> v(n), v2(n);
        double want = 0, want2 = 0;
        for (int i = 0; i < n; i++) {
            v[i] = (float)((i * 7919) % 23) * 0.25f;
            v2[i] = v[i] * v[i];
            want += v[i];
            want2 += v2[i];
        }
        float *d, *d2;
        cudaMalloc((void **)&d, n * sizeof(float));
        cudaMalloc((void **)&d2, n * sizeof(float));
        cudaMemcpy(d, v.data(), n * sizeof(float), cudaMemcpyHostToDevice);
        cudaMemcpy(d2, v2.data(), n * sizeof(float), cudaMemcpyHostToDevice);
        int count = n, mul = 1, blocks = (n + THREADS - 1) / THREADS;
        while (true) {
            block_sums<<<blocks, THREADS>>>(count, mul, d, d2);
            if (blocks == 1)
                break;
            count = blocks;
            mul *= THREADS;
            blocks = (blocks + THREADS - 1) / THREADS;
        }
        float got, got2;
        cudaMemcpy(&got, d, sizeof(float), cudaMemcpyDeviceToHost);
        cudaMemcpy(&got2, d2, sizeof(float), cudaMemcpyDeviceToHost);
        bool pass = std::fabs(got - want) <= 1e-4 * want + 1e-3 && std::fabs(got2 - want2) <= 1e-4 * want2 + 1e-3;
        printf("n=%d sum %.2f (%.2f) squares %.2f (%.2f)\n", n, got, want, got2, want2);
        ok = ok && pass;
        cudaFree(d);
        cudaFree(d2);
    }
    printf("%s\n", ok ? "PASS" : "FAIL");
    return !ok;
}
