/*
 * Sequential C reference for examples/cuda/vector_add.cu.
 * Prints exactly the same stdout as the CUDA program.
 */
#include <stdio.h>
#include <stdlib.h>

static void vector_add(const float *a, const float *b, float *c, int n)
{
    int i;
    for (i = 0; i < n; i++)
        c[i] = a[i] + b[i];
}

int main(int argc, char **argv)
{
    int n = 1000000;
    int i;
    if (argc > 1)
        n = atoi(argv[1]);
    if (n <= 0) {
        fprintf(stderr, "usage: %s [n > 0]\n", argv[0]);
        return 1;
    }

    size_t bytes = (size_t)n * sizeof(float);
    float *a = (float *)malloc(bytes);
    float *b = (float *)malloc(bytes);
    float *c = (float *)malloc(bytes);
    if (!a || !b || !c) {
        fprintf(stderr, "host allocation failed\n");
        return 1;
    }

    for (i = 0; i < n; i++) {
        a[i] = (float)(i % 1000) * 0.001f;
        b[i] = (float)((i % 500) * 7 % 500) * 0.002f + 1.0f;
    }

    int threads = 256;
    int blocks = (n + 255) / 256;
    vector_add(a, b, c, n);

    int errors = 0;
    double checksum = 0.0;
    for (i = 0; i < n; i++) {
        if (c[i] != a[i] + b[i])
            errors++;
        checksum += c[i];
    }

    printf("vector_add n=%d blocks=%d threads=%d\n", n, blocks, threads);
    printf("c[0]=%.4f c[%d]=%.4f c[%d]=%.4f\n",
           c[0], n / 2, c[n / 2], n - 1, c[n - 1]);
    printf("checksum=%.4f\n", checksum);
    printf("errors=%d\n", errors);

    free(a);
    free(b);
    free(c);
    return errors != 0;
}
