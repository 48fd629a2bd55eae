// Concatenating per-block bit streams into one, as the packing step of GPU variable-length encoders does:
// each thread appends its block's words shifted by the bit offset of a prefix sum, written
// `w << 32 - bit` and `(1u << len) - 1`, which on a GPU are 0 and all ones when bit is 0 and len is 32
// (PTX clamps shift amounts to the width). Also a signed right shift by the width (the sign), a 64-bit
// shift and a compound `<<=`. Checked against a CPU version that spells the GPU's results out.
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) { \
    printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); return 1; } } while (0)

__device__ unsigned int low_mask(unsigned int len) { return (1u << len) - 1; }

__global__ void pack(const unsigned int *src, const unsigned int *bits, const unsigned int *start,
                     unsigned int *dst, int words_per_block)
{
    unsigned int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int nbits = bits[t], pos = start[t], word = pos / 32, bit = pos % 32;
    const unsigned int *in = src + t * words_per_block;
    unsigned int i, w = in[0], carry;
    atomicOr(&dst[word], w >> bit);
    carry = w << 32 - bit;
    for (i = 1; i < nbits / 32; i++) {
        w = in[i];
        dst[word + i] = carry | (w >> bit);
        carry = w << 32 - bit;
    }
    if (bit != 0 || nbits % 32 != 0)
        atomicOr(&dst[word + i], carry);
    if (nbits % 32 != 0) {
        w = in[i] & ~low_mask(32 - nbits % 32);
        atomicOr(&dst[word + i], w >> bit);
        atomicOr(&dst[word + i + 1], w << 32 - bit);
    }
}

__global__ void shifts(const int *v, const unsigned int *n, int *sign, unsigned int *mask,
                       unsigned long long *wide, unsigned int *acc)
{
    int i = threadIdx.x;
    sign[i] = v[i] >> n[i];
    mask[i] = low_mask(n[i]);
    wide[i] = 0xF00DFACEDEADBEEFull >> (2 * n[i]);
    unsigned int a = 0x9E3779B9u;
    a <<= n[i];
    acc[i] = a;
}

static unsigned int gpu_shl(unsigned int x, unsigned int n) { return n >= 32 ? 0 : x << n; }
static unsigned int gpu_shr(unsigned int x, unsigned int n) { return n >= 32 ? 0 : x >> n; }

int main()
{
    const int blocks = 32, per = 6;
    std::vector<unsigned int> src(blocks * per), nbits(blocks), start(blocks);
    srand(21);
    unsigned int total = 0;
    for (int b = 0; b < blocks; b++) {
        nbits[b] = (b % 4 == 0) ? 32 * (1 + rand() % per) : 1 + rand() % (32 * per);  // whole words too
        start[b] = total;
        total += nbits[b];
        for (int i = 0; i < per; i++) {
            unsigned int w = ((unsigned int)rand() << 16) ^ (unsigned int)rand();
            int keep = (int)nbits[b] - 32 * i;     // the stream's bits past its length are zero
            src[b * per + i] = keep >= 32 ? w : keep <= 0 ? 0 : w & ~((1u << (32 - keep)) - 1);
        }
    }
    int words = total / 32 + 2;

    unsigned int *d_src, *d_bits, *d_start, *d_dst;
    CHECK(cudaMalloc((void **)&d_src, src.size() * 4));
    CHECK(cudaMalloc((void **)&d_bits, blocks * 4));
    CHECK(cudaMalloc((void **)&d_start, blocks * 4));
    CHECK(cudaMalloc((void **)&d_dst, words * 4));
    CHECK(cudaMemcpy(d_src, src.data(), src.size() * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_bits, nbits.data(), blocks * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_start, start.data(), blocks * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_dst, 0, words * 4));
    pack<<<blocks / 8, 8>>>(d_src, d_bits, d_start, d_dst, per);
    std::vector<unsigned int> dst(words);
    CHECK(cudaMemcpy(dst.data(), d_dst, words * 4, cudaMemcpyDeviceToHost));

    int errors = 0;
    std::vector<unsigned int> ref(words, 0);
    for (int b = 0; b < blocks; b++)
        for (unsigned int k = 0; k < nbits[b]; k++)
            if ((src[b * per + k / 32] >> (31 - k % 32)) & 1) {
                unsigned int at = start[b] + k;
                ref[at / 32] |= 1u << (31 - at % 32);
            }
    for (int i = 0; i < words; i++) errors += dst[i] != ref[i];

    const int n = 64;
    std::vector<int> v(n), sign(n);
    std::vector<unsigned int> amount(n), mask(n), acc(n);
    std::vector<unsigned long long> wide(n);
    for (int i = 0; i < n; i++) {
        v[i] = (i % 2 ? -1 : 1) * (1000 + 77 * i);
        amount[i] = i % 40;                       // 32..39 too
    }
    int *d_v, *d_sign;
    unsigned int *d_n, *d_mask, *d_acc;
    unsigned long long *d_wide;
    CHECK(cudaMalloc((void **)&d_v, n * 4));
    CHECK(cudaMalloc((void **)&d_sign, n * 4));
    CHECK(cudaMalloc((void **)&d_n, n * 4));
    CHECK(cudaMalloc((void **)&d_mask, n * 4));
    CHECK(cudaMalloc((void **)&d_acc, n * 4));
    CHECK(cudaMalloc((void **)&d_wide, n * 8));
    CHECK(cudaMemcpy(d_v, v.data(), n * 4, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_n, amount.data(), n * 4, cudaMemcpyHostToDevice));
    shifts<<<1, n>>>(d_v, d_n, d_sign, d_mask, d_wide, d_acc);
    CHECK(cudaMemcpy(sign.data(), d_sign, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(mask.data(), d_mask, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(acc.data(), d_acc, n * 4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(wide.data(), d_wide, n * 8, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) {
        unsigned int s = amount[i];
        int want_sign = s >= 32 ? (v[i] < 0 ? -1 : 0) : v[i] >> s;
        unsigned long long want_wide = 2 * s >= 64 ? 0 : 0xF00DFACEDEADBEEFull >> (2 * s);
        errors += sign[i] != want_sign;
        errors += mask[i] != gpu_shl(1u, s) - 1;
        errors += acc[i] != gpu_shl(0x9E3779B9u, s);
        errors += wide[i] != want_wide;
    }
    (void)gpu_shr;
    printf("%u bits packed into %d words\n", total, words);
    printf("%s\n", errors ? "FAIL" : "PASS");
    return errors != 0;
}
