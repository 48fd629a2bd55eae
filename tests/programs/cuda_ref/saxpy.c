/*
 * Sequential C reference for examples/cuda/saxpy.cu.
 * Prints exactly the same stdout as the CUDA program.
 */
#include <stdio.h>
#include <stdlib.h>

static void saxpy(int n, float a, const float *x, float *y)
{
    int i;
    for (i = 0; i < n; i++)
        y[i] = a * x[i] + y[i];
}

int main(int argc, char **argv)
{
    int n = 1 << 20;
    int i, k;
    if (argc > 1)
        n = atoi(argv[1]);
    if (n < 4) {
        fprintf(stderr, "usage: %s [n >= 4]\n", argv[0]);
        return 1;
    }

    size_t bytes = (size_t)n * sizeof(float);
    float *x = (float *)malloc(bytes);
    float *y = (float *)malloc(bytes);
    if (x == NULL || y == NULL) {
        fprintf(stderr, "out of host memory\n");
        return 1;
    }
    for (i = 0; i < n; i++) {
        x[i] = (float)(i % 97) / 97.0f;
        y[i] = 1.0f - (float)(i % 13) * 0.125f;
    }

    float alpha = 2.5f;
    float beta = -0.75f;
    saxpy(n, alpha, x, y);
    saxpy(n, beta, x, y);

    double sum = 0.0;
    double abs_sum = 0.0;
    for (i = 0; i < n; i++) {
        sum += y[i];
        abs_sum += (y[i] < 0.0f) ? -y[i] : y[i];
    }

    printf("saxpy n=%d a1=%.2f a2=%.2f\n", n, alpha, beta);
    for (k = 0; k < 4; k++) {
        i = (int)((long long)k * (n - 1) / 3);
        printf("y[%d] = %.6f\n", i, y[i]);
    }
    printf("sum = %.4f\n", sum);
    printf("abs_sum = %.4f\n", abs_sum);

    free(x);
    free(y);
    return 0;
}
