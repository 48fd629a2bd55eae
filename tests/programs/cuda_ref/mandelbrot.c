/*
 * Sequential C reference for examples/cuda/mandelbrot.cu.
 * Prints exactly the same stdout as the CUDA program.
 */
#include <stdio.h>
#include <stdlib.h>

#define WIDTH 192
#define HEIGHT 128

static int escape_time(float cr, float ci, int max_iter)
{
    float zr = 0.0f, zi = 0.0f;
    int it = 0;
    while (it < max_iter) {
        float zr2 = zr * zr;
        float zi2 = zi * zi;
        if (zr2 + zi2 > 4.0f)
            break;
        zi = 2.0f * zr * zi + ci;
        zr = zr2 - zi2 + cr;
        it++;
    }
    return it;
}

int main(int argc, char **argv)
{
    int max_iter = 256;
    int px, py, i;
    if (argc > 1)
        max_iter = atoi(argv[1]);
    if (max_iter < 1) {
        fprintf(stderr, "usage: %s [max_iter >= 1]\n", argv[0]);
        return 1;
    }
    const float x0 = -2.25f, y0 = -1.25f;
    const float step = 2.5f / (float)HEIGHT;

    int *counts = (int *)malloc(WIDTH * HEIGHT * sizeof(int));
    for (py = 0; py < HEIGHT; py++)
        for (px = 0; px < WIDTH; px++) {
            float cr = x0 + (float)px * step;
            float ci = y0 + (float)py * step;
            counts[py * WIDTH + px] = escape_time(cr, ci, max_iter);
        }

    const char *shades = " .:-=+*#%@";
    for (py = 0; py < HEIGHT; py += 4) {
        char line[WIDTH / 3 + 1];
        int len = 0;
        for (px = 0; px < WIDTH; px += 3) {
            int c = counts[py * WIDTH + px];
            int shade = c / 3;
            if (shade > 8)
                shade = 8;
            line[len++] = (c >= max_iter) ? shades[9] : shades[shade];
        }
        line[len] = '\0';
        printf("|%s|\n", line);
    }

    long long total_iter = 0;
    int inside = 0;
    for (i = 0; i < WIDTH * HEIGHT; i++) {
        total_iter += counts[i];
        if (counts[i] >= max_iter)
            inside++;
    }
    printf("image %dx%d max_iter=%d\n", WIDTH, HEIGHT, max_iter);
    printf("inside=%d total_iterations=%lld\n", inside, total_iter);
    printf("area estimate %.5f\n", (double)inside * step * step);

    free(counts);
    return 0;
}
