// Sorting in groups of four through a float4 texture reference, and bucket counting with the pre-atomics
// "tagged write" idiom on volatile shared memory, in the style of old hybrid sort benchmarks. Checked
// against a CPU reference.
#include <algorithm>
#include <cstdio>
#include <vector>

#define BUCKETS 32
#define WARP_LOG 5

texture<float4, 1, cudaReadModeElementType> quads;   // the input, four keys per texel
texture<float, 1, cudaReadModeElementType> pivots;   // BUCKETS - 1 ascending split points

__device__ float4 sort4(float4 r) {
    float a = fminf(r.x, r.y), b = fmaxf(r.x, r.y), c = fminf(r.z, r.w), d = fmaxf(r.z, r.w);
    float lo = fminf(a, c), hi = fmaxf(b, d), m1 = fmaxf(a, c), m2 = fminf(b, d);
    return make_float4(lo, fminf(m1, m2), fmaxf(m1, m2), hi);
}

__global__ void sort_quads(float4 *out, int nquads) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nquads)
        out[i] = sort4(tex1Dfetch(quads, i));
}

// every lane of a warp writes its tag with the incremented count; a lane whose write did not stick retries
__device__ unsigned tagged_increment(volatile unsigned *count, unsigned tag) {
    unsigned v;
    do {
        v = tag | ((count[0] & 0x07FFFFFFu) + 1);
        count[0] = v;
    } while (count[0] != v);
    return (v & 0x07FFFFFFu) - 1;
}

__global__ void bucket_count(const float *keys, int n, unsigned *block_counts, int *rank) {
    volatile __shared__ unsigned counts[BUCKETS];
    for (int b = threadIdx.x; b < BUCKETS; b += blockDim.x)
        counts[b] = 0;
    __syncthreads();
    unsigned tag = threadIdx.x << (32 - WARP_LOG);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        float k = keys[i];
        int lo = 0, hi = BUCKETS - 1;  // first pivot greater than k, by bisection
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (k < tex1Dfetch(pivots, mid))
                hi = mid;
            else
                lo = mid + 1;
        }
        rank[i] = tagged_increment(&counts[lo], tag);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BUCKETS; b += blockDim.x)
        block_counts[blockIdx.x * BUCKETS + b] = counts[b] & 0x07FFFFFFu;
}

int main() {
    const int n = 4096, blocks = 4;
    std::vector<float> keys(n), piv(BUCKETS - 1);
    unsigned s = 2024;
    for (auto &k : keys) {
        s = s * 1664525u + 1013904223u;
        k = (float)(s >> 8) / (float)(1u << 24);
    }
    for (int b = 0; b < BUCKETS - 1; b++)
        piv[b] = (b + 1) / (float)BUCKETS;

    float *d_keys, *d_piv, *d_sorted;
    unsigned *d_counts;
    int *d_rank;
    cudaMalloc((void **)&d_keys, n * sizeof(float));
    cudaMalloc((void **)&d_sorted, n * sizeof(float));
    cudaMalloc((void **)&d_piv, piv.size() * sizeof(float));
    cudaMalloc((void **)&d_counts, blocks * BUCKETS * sizeof(unsigned));
    cudaMalloc((void **)&d_rank, n * sizeof(int));
    cudaMemcpy(d_keys, keys.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_piv, piv.data(), piv.size() * sizeof(float), cudaMemcpyHostToDevice);

    cudaBindTexture(0, quads, (float4 *)d_keys, n * sizeof(float));
    sort_quads<<<(n / 4 + 63) / 64, 64>>>((float4 *)d_sorted, n / 4);
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaBindTexture(NULL, &pivots, d_piv, &desc, piv.size() * sizeof(float));
    bucket_count<<<blocks, 1 << WARP_LOG>>>(d_keys, n, d_counts, d_rank);

    std::vector<float> sorted(n);
    std::vector<unsigned> counts(blocks * BUCKETS);
    std::vector<int> rank(n);
    cudaMemcpy(sorted.data(), d_sorted, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(counts.data(), d_counts, counts.size() * sizeof(unsigned), cudaMemcpyDeviceToHost);
    cudaMemcpy(rank.data(), d_rank, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaUnbindTexture(quads);
    cudaUnbindTexture(&pivots);

    int bad = 0;
    for (int q = 0; q < n / 4; q++) {
        std::vector<float> g(keys.begin() + 4 * q, keys.begin() + 4 * q + 4);
        std::sort(g.begin(), g.end());
        for (int j = 0; j < 4; j++)
            bad += g[j] != sorted[4 * q + j];
    }
    std::vector<unsigned> want(BUCKETS), got(BUCKETS);
    for (float k : keys)
        want[std::upper_bound(piv.begin(), piv.end(), k) - piv.begin()]++;
    for (int b = 0; b < blocks * BUCKETS; b++)
        got[b % BUCKETS] += counts[b];
    for (int b = 0; b < BUCKETS; b++)
        bad += want[b] != got[b];
    // within a block and bucket the ranks are 0, 1, 2, ... (each once)
    std::vector<std::vector<int>> seen(blocks * BUCKETS);
    for (int i = 0; i < n; i++) {
        int blk = (i / (1 << WARP_LOG)) % blocks;
        int b = std::upper_bound(piv.begin(), piv.end(), keys[i]) - piv.begin();
        seen[blk * BUCKETS + b].push_back(rank[i]);
    }
    for (int c = 0; c < blocks * BUCKETS; c++) {
        std::sort(seen[c].begin(), seen[c].end());
        for (size_t r = 0; r < seen[c].size(); r++)
            bad += seen[c][r] != (int)r;
    }
    printf("bucket 0: %u keys\n%s\n", got[0], bad ? "FAIL" : "PASS");
    return bad != 0;
}
