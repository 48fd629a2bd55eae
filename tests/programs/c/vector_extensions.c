/* GCC vector extensions as a SIMD-minded C library writes them: a lane-parallel mixing function with a scalar
 * reference, element-wise compares used as masks, shuffles, conversions and unaligned loads. */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

typedef uint32_t u32x4 __attribute__((vector_size(16)));
typedef int32_t i32x4 __attribute__((vector_size(16)));
typedef int16_t i16x8 __attribute__((vector_size(16)));
typedef uint8_t u8x16 __attribute__((vector_size(16)));
typedef float f32x4 __attribute__((vector_size(16)));
typedef double f64x2 __attribute__((vector_size(16)));
typedef uint64_t u64x2 __attribute__((vector_size(16)));
typedef int32_t i32x2 __attribute__((vector_size(8)));
typedef uint32_t u32x4_u __attribute__((vector_size(16), aligned(1)));

#define REVERSE(a, b) __builtin_shufflevector(a, b, 3, 2, 1, 0)
#define TO_FLOAT(a) __builtin_convertvector(a, f32x4)
#define PRIME1 0x9E3779B1u
#define PRIME2 0x85EBCA77u

static u32x4 rotl(u32x4 v, int r) { return (v << r) | (v >> (32 - r)); }

static u32x4 round_lanes(u32x4 acc, u32x4 in) {
    acc += in * PRIME2;
    acc = rotl(acc, 13);
    return acc * PRIME1;
}

static uint32_t rotl32(uint32_t v, int r) { return (v << r) | (v >> (32 - r)); }

/* scalar reference of the same four-lane hash */
static uint32_t hash_scalar(const uint8_t *p, size_t n) {
    uint32_t acc[4] = {1, 2, 3, 4};
    for (size_t i = 0; i + 16 <= n; i += 16)
        for (int l = 0; l < 4; l++) {
            uint32_t w;
            memcpy(&w, p + i + 4 * l, 4);
            acc[l] = rotl32(acc[l] + w * PRIME2, 13) * PRIME1;
        }
    return rotl32(acc[0], 1) + rotl32(acc[1], 7) + rotl32(acc[2], 12) + rotl32(acc[3], 18);
}

static uint32_t hash_vector(const uint8_t *p, size_t n) {
    u32x4 acc = {1, 2, 3, 4};
    for (size_t i = 0; i + 16 <= n; i += 16)
        acc = round_lanes(acc, *(const u32x4_u *)(p + i));
    return rotl32(acc[0], 1) + rotl32(acc[1], 7) + rotl32(acc[2], 12) + rotl32(acc[3], 18);
}

static void print_i32(const char *what, i32x4 v) {
    printf("%s: %d %d %d %d\n", what, v[0], v[1], v[2], v[3]);
}

/* count bytes equal to c with compare masks (0 / -1 per lane) */
static int count_byte(const uint8_t *p, size_t n, uint8_t c) {
    u8x16 needle = (u8x16){0} + c;
    int total = 0;
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        u8x16 chunk;
        memcpy(&chunk, p + i, 16);
        u8x16 eq = (u8x16)(chunk == needle);
        for (int k = 0; k < 16; k++)
            total += eq[k] & 1;
    }
    for (; i < n; i++)
        total += p[i] == c;
    return total;
}

f64x2 axpy2(double a, f64x2 x, f64x2 y) { return a * x + y; }

/* vectors inside unions, structs and globals */
typedef union { u32x4 v; uint32_t w[4]; } lanes;
struct state { u32x4 acc[2]; int rounds; };
static const i32x4 offsets = {1, -2, 3, -4};
static u32x4 seed = {5, 6};

static void state_step(struct state *s, const lanes *in) {
    s->acc[0] = round_lanes(s->acc[0], in->v);
    s->acc[1] ^= s->acc[0] + (u32x4)offsets;
    s->rounds++;
}

int main(void) {
    uint8_t buf[203];
    for (int i = 0; i < (int)sizeof buf; i++)
        buf[i] = (uint8_t)(i * 37 + 11);
    printf("hash %08x %08x\n", hash_scalar(buf + 1, 200), hash_vector(buf + 1, 200));
    printf("count %d\n", count_byte(buf, sizeof buf, buf[5]));

    i32x4 a = {7, -3, 100, -2147483647 - 1}, b = {2, 5, -100, 1};
    print_i32("add", a + b);
    print_i32("sub", a - b);
    print_i32("mul", a * b);
    print_i32("div", a / b);
    print_i32("rem", a % b);
    print_i32("and/or/xor", (a & b) ^ (a | 3));
    print_i32("shifts", (a >> 1) + (b << 2));
    print_i32("lt", a < b);
    print_i32("ge", a >= b);
    print_i32("neg/not", -a + ~b);
    print_i32("scalar", 3 * a - 1);
    u32x4 ua = (u32x4)a;
    u32x4 us = ua >> 28;
    print_i32("logical shift", (i32x4)us);
    i32x4 c = a;
    c[2] = 42;
    c += b;
    c[0] *= 3;
    print_i32("lanes", c);
    i32x4 sh = __builtin_shufflevector(a, b, 7, 0, 5, 2);
    print_i32("shuffle", sh);
    i16x8 h = __builtin_shufflevector((i16x8)a, (i16x8)a, 1, 0, 3, 2, 5, 4, 7, 6);
    printf("halves: %d %d %d %d\n", h[0], h[1], h[6], h[7]);

    f32x4 f = __builtin_convertvector(a, f32x4);
    f32x4 g = f * 0.5f + (f32x4){1.0f, 2.0f};
    printf("float: %.2f %.2f %.2f %.2f\n", g[0], g[1], g[2], g[3]);
    i32x4 back = __builtin_convertvector(g, i32x4);
    print_i32("back", back);
    print_i32("fcmp", f > g);
    f64x2 d = axpy2(2.0, (f64x2){1.5, -2.25}, (f64x2){0.25, 8});
    printf("axpy %.3f %.3f\n", d[0], d[1]);
    u64x2 bits = (u64x2)d;
    printf("bits %016llx\n", (unsigned long long)bits[1]);

    i32x4 arr[3] = {{1, 2, 3, 4}, {5, 6, 7, 8}};
    arr[2] = arr[0] + arr[1];
    i32x4 *pa = &arr[1];
    pa[1][3] = -1;
    print_i32("array", arr[2]);
    int out[4];
    memcpy(out, &arr[2], sizeof out);
    printf("memcpy %d %d\n", out[0], out[3]);
    u64x2 interleaved = (u64x2)__builtin_shufflevector(a, b, 0, 4, 1, 5);
    u64x2 reversed = (u64x2)REVERSE(a, b);
    f32x4 halves = TO_FLOAT(a) / 2;
    printf("macros %llx %llx %.1f\n", (unsigned long long)interleaved[1], (unsigned long long)reversed[0],
           halves[2]);
    i32x2 packed = (i32x2)0x700000003LL;  /* casts between a scalar and a vector of its size: the bits */
    long long unpacked = (long long)(packed + 1);
    printf("scalar casts %d %d %llx\n", packed[0], packed[1], unpacked);
    lanes in = {.v = seed};
    in.w[3] = 99;
    struct state st = {{{1, 2, 3, 4}, {0}}, 0};
    for (int r = 0; r < 3; r++)
        state_step(&st, &in);
    seed += st.acc[1];
    printf("state %d %08x %08x %08x\n", st.rounds, st.acc[0][2], st.acc[1][3], seed[0]);
    return 0;
}
