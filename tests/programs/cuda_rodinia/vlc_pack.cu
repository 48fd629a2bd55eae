// Variable-length encoding of a byte stream, one 32-bit word (4 symbols) per thread, in the style of the
// parallel Huffman encoders of the GPU benchmark suites: codeword table cached in dynamic shared memory,
// a work-efficient prefix sum of the code lengths, bits written with shared-memory atomicOr, the packed
// words copied out. Qualifiers written after the type (`__device__ void static`, `__global__ static`) as
// such codes do. First a byte histogram over two streams, taken only when the device reports copy/compute
// overlap (as the suite's histogram does). Checked against a serial histogram and bit packer.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define NUM_SYMBOLS 256
#define BLOCK 256

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); return 1; } } while (0)

__device__ void static put_bits(unsigned int *words, unsigned int at, unsigned int len, unsigned int code)
{
    unsigned int shift = 32 - at - len;
    atomicOr(&words[0], code << shift);
}

__device__ unsigned static int code_length(const unsigned int *lens, unsigned char s) { return lens[s]; }

__global__ static void encode(const unsigned int *data, const unsigned int *g_codes, const unsigned int *g_lens,
                              unsigned int *out, unsigned int *bits_out)
{
    extern __shared__ unsigned int smem[];
    __shared__ unsigned int last_word;
    unsigned int *codes = smem, *lens = smem + NUM_SYMBOLS, *pos = smem + 2 * NUM_SYMBOLS;
    unsigned int t = threadIdx.x, g = blockIdx.x * blockDim.x + t;

    codes[t] = g_codes[t];
    lens[t] = g_lens[t];
    unsigned int word = data[g];
    __syncthreads();

    unsigned long long cw = 0;
    unsigned int total = 0;
    for (int i = 0; i < 4; i++) {
        unsigned char s = (unsigned char)(word >> ((3 - i) * 8));
        unsigned int l = code_length(lens, s);
        cw = (cw << l) | codes[s];
        total += l;
    }
    pos[t] = total;

    unsigned int offset = 1;                      // up-sweep
    for (unsigned int d = blockDim.x >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            unsigned char a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
            pos[b] += pos[a];
        }
        offset <<= 1;
    }
    if (t == 0) pos[blockDim.x - 1] = 0;
    for (unsigned int d = 1; d < blockDim.x; d <<= 1) {  // down-sweep
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            unsigned char a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
            unsigned int tmp = pos[a];
            pos[a] = pos[b];
            pos[b] += tmp;
        }
    }
    __syncthreads();
    if (t == blockDim.x - 1) {
        bits_out[blockIdx.x] = pos[t] + total;
        last_word = (pos[t] + total) / 32;
    }
    unsigned int w = pos[t] / 32, at = pos[t] % 32;
    __syncthreads();
    pos[t] = 0;
    __syncthreads();

    unsigned int first = total > 32 - at ? 32 - at : total;
    put_bits(&pos[w], at, first, (unsigned int)(cw >> (total - first)));
    total -= first;
    if (total) {
        unsigned int second = total > 32 ? 32 : total;
        put_bits(&pos[w + 1], 0, second, (unsigned int)(cw >> (total - second)) & ((1u << second) - 1));
        total -= second;
    }
    __syncthreads();
    if (t <= last_word) out[g] = pos[t];
}

__global__ void histogram(const unsigned char *bytes, long n, unsigned int *hist)
{
    __shared__ unsigned int local[NUM_SYMBOLS];
    local[threadIdx.x] = 0;
    __syncthreads();
    for (long i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[bytes[i]], 1u);
    __syncthreads();
    atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

// Byte histogram of `n` bytes in two halves on two streams; false when the device has no overlap.
static bool stream_histogram(const unsigned char *host, long n, unsigned int *counts)
{
    cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess || !prop.deviceOverlap) return false;
    unsigned char *part[2];
    unsigned int *d_hist;
    cudaStream_t s[2];
    long half = n / 2;
    cudaMalloc((void **)&d_hist, NUM_SYMBOLS * sizeof(unsigned int));
    cudaMemset(d_hist, 0, NUM_SYMBOLS * sizeof(unsigned int));
    for (int k = 0; k < 2; k++) {
        cudaMalloc((void **)&part[k], half);
        cudaStreamCreate(&s[k]);
        cudaMemcpyAsync(part[k], host + k * half, half, cudaMemcpyHostToDevice, s[k]);
        histogram<<<2 * prop.multiProcessorCount, NUM_SYMBOLS, 0, s[k]>>>(part[k], half, d_hist);
    }
    for (int k = 0; k < 2; k++) cudaStreamSynchronize(s[k]);
    cudaMemcpy(counts, d_hist, NUM_SYMBOLS * sizeof(unsigned int), cudaMemcpyDeviceToHost);
    for (int k = 0; k < 2; k++) { cudaFree(part[k]); cudaStreamDestroy(s[k]); }
    cudaFree(d_hist);
    return true;
}

int main()
{
    const int blocks = 12, n = blocks * BLOCK;
    std::vector<unsigned int> data(n), codes(NUM_SYMBOLS), lens(NUM_SYMBOLS);
    for (int s = 0; s < NUM_SYMBOLS; s++) {
        lens[s] = 3 + (s * 5) % 6;                // 3..8 bits: at most 32 per thread, two words
        codes[s] = (s * 40503u + 17u) & ((1u << lens[s]) - 1);
    }
    srand(5);
    for (int i = 0; i < n; i++) data[i] = ((unsigned int)rand() << 16) ^ (unsigned int)rand();

    std::vector<unsigned int> counts(NUM_SYMBOLS, 0), want_counts(NUM_SYMBOLS, 0);
    const unsigned char *bytes = (const unsigned char *)data.data();
    for (int i = 0; i < 4 * n; i++) want_counts[bytes[i]]++;
    if (!stream_histogram(bytes, 4L * n, counts.data())) printf("no copy/compute overlap: no histogram\n");
    int hist_errors = counts != want_counts;

    unsigned int *d_data, *d_codes, *d_lens, *d_out, *d_bits;
    CHECK(cudaMalloc((void **)&d_data, n * sizeof(unsigned int)));
    CHECK(cudaMalloc((void **)&d_codes, NUM_SYMBOLS * sizeof(unsigned int)));
    CHECK(cudaMalloc((void **)&d_lens, NUM_SYMBOLS * sizeof(unsigned int)));
    CHECK(cudaMalloc((void **)&d_out, n * sizeof(unsigned int)));
    CHECK(cudaMalloc((void **)&d_bits, blocks * sizeof(unsigned int)));
    CHECK(cudaMemcpy(d_data, data.data(), n * sizeof(unsigned int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_codes, codes.data(), NUM_SYMBOLS * sizeof(unsigned int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_lens, lens.data(), NUM_SYMBOLS * sizeof(unsigned int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_out, 0, n * sizeof(unsigned int)));
    size_t shmem = (2 * NUM_SYMBOLS + BLOCK) * sizeof(unsigned int);
    encode<<<blocks, BLOCK, shmem>>>(d_data, d_codes, d_lens, d_out, d_bits);
    CHECK(cudaGetLastError());

    std::vector<unsigned int> out(n), bits(blocks);
    CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(bits.data(), d_bits, blocks * sizeof(unsigned int), cudaMemcpyDeviceToHost));

    int errors = hist_errors;
    unsigned long long all_bits = 0;
    for (int b = 0; b < blocks; b++) {
        std::vector<unsigned int> ref(BLOCK, 0);
        unsigned int bit = 0;
        for (int t = 0; t < BLOCK; t++)
            for (int i = 0; i < 4; i++) {
                unsigned int s = (data[b * BLOCK + t] >> ((3 - i) * 8)) & 255;
                for (int j = (int)lens[s] - 1; j >= 0; j--, bit++)
                    if ((codes[s] >> j) & 1) ref[bit / 32] |= 1u << (31 - bit % 32);
            }
        if (bits[b] != bit) errors++;
        for (unsigned int w = 0; w <= bit / 32 && w < BLOCK; w++)
            if (out[b * BLOCK + w] != ref[w]) errors++;
        all_bits += bit;
    }
    printf("%d blocks, %llu bits\n", blocks, all_bits);
    printf("%s\n", errors ? "FAIL" : "PASS");
    return errors != 0;
}
