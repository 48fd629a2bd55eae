/* Plain C reference for texture.cu: the same smoothing (twice) and lookups with ordinary array reads. */
#include <stdio.h>
#include <stdlib.h>

#define N 1000
#define LUT 64

static void smooth(const float *in, float *out, int n)
{
    for (int i = 0; i < n; i++) {
        float left = i > 0 ? in[i - 1] : 0.0f;
        float right = i < n - 1 ? in[i + 1] : 0.0f;
        out[i] = 0.25f * left + 0.5f * in[i] + 0.25f * right;
    }
}

int main(void)
{
    float *x = malloc(N * sizeof(float)), *y = malloc(N * sizeof(float)), *z = malloc(N * sizeof(float));
    int *b = malloc(N * sizeof(int));
    int lut[LUT];
    for (int i = 0; i < N; i++)
        x[i] = (float)((i * 37) % 101) / 8.0f;
    for (int k = 0; k < LUT; k++)
        lut[k] = (k * k) % 17;
    smooth(x, y, N);
    smooth(y, z, N);
    for (int i = 0; i < N; i++) {
        int k = (int)(z[i] * 8.0f) & (LUT - 1);
        b[i] = lut[k] + lut[(k + 1) & (LUT - 1)];
    }
    double s = 0.0;
    long long t = 0;
    for (int i = 0; i < N; i++) {
        s += z[i] * (i % 5 + 1);
        t += b[i] * (i % 3 + 1);
    }
    printf("offset %d\n", 0);
    printf("z[0] %.6f z[1] %.6f z[500] %.6f z[999] %.6f\n", z[0], z[1], z[500], z[N - 1]);
    printf("weighted sum %.6f buckets %lld b[7] %d\n", s, t, b[7]);
    double ws = 0.0;
    for (int i = 0; i < N; i++)
        ws += (float)(x[i] * (float)(i % 4 + 1));
    printf("weights %.6f\n", ws);
    return 0;
}
