/*
 * Sequential C reference for examples/cuda/atax.cu.
 * Prints exactly the same stdout as the CUDA program.
 */
#include <stdio.h>
#include <stdlib.h>

#define NROWS 900
#define NCOLS 1100

int main(void)
{
    const int rows = NROWS, cols = NCOLS;
    int i, j;
    float *A = (float *)malloc((size_t)rows * cols * sizeof(float));
    float *x = (float *)malloc(cols * sizeof(float));
    float *y = (float *)malloc(cols * sizeof(float));
    float *tmp = (float *)malloc(rows * sizeof(float));

    for (j = 0; j < cols; j++)
        x[j] = 1.0f + (float)(j % 7) * 0.125f;
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j++)
            A[i * cols + j] = (float)((i + 2 * j) % 19) / 19.0f - 0.25f;

    /* tmp = A x */
    for (i = 0; i < rows; i++) {
        float acc = 0.0f;
        for (j = 0; j < cols; j++)
            acc += A[i * cols + j] * x[j];
        tmp[i] = acc;
    }
    /* y = A^T tmp, each y[j] accumulated over i in increasing order */
    for (j = 0; j < cols; j++) {
        float acc = 0.0f;
        for (i = 0; i < rows; i++)
            acc += A[i * cols + j] * tmp[i];
        y[j] = acc;
    }

    double tmp_sum = 0.0, y_sum = 0.0;
    for (i = 0; i < rows; i++)
        tmp_sum += tmp[i];
    for (j = 0; j < cols; j++)
        y_sum += y[j];

    printf("atax %d x %d\n", rows, cols);
    printf("tmp: sum %.4f first %.4f last %.4f\n", tmp_sum, tmp[0], tmp[rows - 1]);
    printf("y:   sum %.4f\n", y_sum);
    for (j = 0; j < cols; j += cols / 5)
        printf("y[%4d] = %.4f\n", j, y[j]);

    free(A);
    free(x);
    free(y);
    free(tmp);
    return 0;
}
