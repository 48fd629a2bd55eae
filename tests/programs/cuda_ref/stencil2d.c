/*
 * Sequential C reference for examples/cuda/stencil2d.cu.
 * Prints exactly the same stdout as the CUDA program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define W 160
#define H 120

static float neighbour_mean(const float *g, int idx, int width)
{
    float vertical = g[idx - width] + g[idx + width];
    float horizontal = g[idx - 1] + g[idx + 1];
    return 0.25f * (vertical + horizontal);
}

static void jacobi_step(const float *in, float *out, int width, int height)
{
    int x, y;
    for (y = 1; y < height - 1; y++)
        for (x = 1; x < width - 1; x++) {
            int idx = y * width + x;
            out[idx] = neighbour_mean(in, idx, width);
        }
}

static void init_plate(float *g)
{
    int x, y;
    for (y = 0; y < H; y++) {
        for (x = 0; x < W; x++) {
            float v;
            if (y == 0)
                v = 100.0f;
            else if (y == H - 1)
                v = 0.0f;
            else if (x == 0)
                v = 75.0f;
            else if (x == W - 1)
                v = 25.0f + 0.25f * (float)y;
            else if (x > W / 2 - 8 && x < W / 2 + 8 && y > H / 2 - 8 && y < H / 2 + 8)
                v = 400.0f;
            else
                v = 20.0f + 0.5f * (float)((x * 13 + y * 7) % 31);
            g[y * W + x] = v;
        }
    }
}

int main(int argc, char **argv)
{
    int steps = 200;
    int t, x, y;
    if (argc > 1)
        steps = atoi(argv[1]);
    if (steps < 0) {
        fprintf(stderr, "usage: %s [steps >= 0]\n", argv[0]);
        return 1;
    }

    size_t bytes = (size_t)W * H * sizeof(float);
    float *cur = (float *)malloc(bytes);
    float *next = (float *)malloc(bytes);
    init_plate(cur);
    memcpy(next, cur, bytes);

    printf("stencil2d %dx%d steps=%d\n", W, H, steps);
    int centre = (H / 2) * W + W / 2;
    for (t = 0; t < steps; t++) {
        jacobi_step(cur, next, W, H);
        float *tmp = cur;
        cur = next;
        next = tmp;

        if ((t + 1) % 50 == 0)
            printf("step %4d centre %.5f\n", t + 1, cur[centre]);
    }

    double total = 0.0;
    float hottest = 0.0f;
    for (y = 1; y < H - 1; y++)
        for (x = 1; x < W - 1; x++) {
            float v = cur[y * W + x];
            total += v;
            if (v > hottest)
                hottest = v;
        }

    printf("interior sum %.4f\n", total);
    printf("interior max %.5f\n", hottest);
    for (y = 10; y < H; y += 25)
        printf("row %3d: %.4f %.4f %.4f %.4f\n", y,
               cur[y * W + 1], cur[y * W + W / 4],
               cur[y * W + W / 2], cur[y * W + W - 2]);

    free(cur);
    free(next);
    return 0;
}
