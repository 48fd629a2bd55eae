/* A bignum-style handle: a one-element array of a struct as a typedef (as GMP's mpz_t and jmp_buf are), so
   that a variable is an object and a parameter is a pointer; the accessors read members through `->` on
   parameters declared with the typedef, const and not, and on a local array. */
#include <stdio.h>

typedef struct {
    int size;
    int alloc;
    unsigned limbs[4];
} num_struct;
typedef num_struct num_t[1];

#define num_sgn(z) ((z)->size < 0 ? -1 : (z)->size > 0)
#define num_abs_size(z) ((z)->size < 0 ? -(z)->size : (z)->size)

static void num_set(num_t r, long v)
{
    unsigned long m = v < 0 ? -(unsigned long)v : (unsigned long)v;
    r->alloc = 4;
    r->size = 0;
    while (m) {
        r->limbs[r->size++] = (unsigned)(m & 0xffffu);
        m >>= 16;
    }
    if (v < 0)
        r->size = -r->size;
}

static int num_cmp_abs(const num_t a, const num_t b)
{
    int na = num_abs_size(a), nb = num_abs_size(b);
    if (na != nb)
        return na < nb ? -1 : 1;
    for (int i = na - 1; i >= 0; i--)
        if (a->limbs[i] != b->limbs[i])
            return a->limbs[i] < b->limbs[i] ? -1 : 1;
    return 0;
}

static unsigned long num_low(const num_t z)
{
    unsigned long v = 0;
    for (int i = num_abs_size(z) - 1; i >= 0; i--)
        v = v << 16 | z->limbs[i];
    return v;
}

int main(void)
{
    num_t a, b, c[2];
    num_struct d[2];
    num_set(a, -123456789L);
    num_set(b, 70000L);
    num_set(c[1], 0);
    d->size = 1;
    d->limbs[0] = 9;
    printf("%d %d %d %d\n", num_sgn(a), num_sgn(b), num_sgn(c[1]), num_sgn(d));
    printf("%d %d %d\n", num_cmp_abs(a, b), num_cmp_abs(b, a), num_cmp_abs(a, a));
    printf("%lu %lu %lu %d\n", num_low(a), num_low(b), num_low(d), a->alloc + d[0].size);
    return 0;
}
