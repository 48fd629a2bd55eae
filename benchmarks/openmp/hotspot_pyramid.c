/*
 * OpenMP version of examples/cuda/hotspot_pyramid.cu (for benchmarks/cpuify_vs_openmp.py), written the way
 * Rodinia's OpenMP hotspot is: one sweep over the chip per time step, rows split between the OpenMP threads,
 * ping-pong buffers.  The cell update is the CUDA program's expression, so the floats are identical.
 * Usage: hotspot_pyramid [steps]; the time loop is timed and the time printed on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define ROWS 200
#define COLS 170
#define PYR 3

#define CAP 0.5f
#define RX 0.2f
#define RY 0.15f
#define RZ 0.01f
#define AMB 80.0f

static void init_chip(float *power, float *temp)
{
    int x, y;
    for (y = 0; y < ROWS; y++) {
        for (x = 0; x < COLS; x++) {
            float p = 0.02f * (float)((x * 7 + y * 11) % 13);
            if (x >= 30 && x < 60 && y >= 40 && y < 80)
                p += 3.0f;
            if (x >= 110 && x < 125 && y >= 120 && y < 170)
                p += 5.0f;
            if (y >= 10 && y < 14)
                p += 1.0f;
            power[y * COLS + x] = p;
            temp[y * COLS + x] = AMB + 0.5f * (float)((x * 3 + y * 5) % 9);
        }
    }
}

static void step(const float *power, const float *in, float *out)
{
    int x, y;
#pragma omp parallel for private(x)
    for (y = 0; y < ROWS; y++)
        for (x = 0; x < COLS; x++) {
            float c = in[y * COLS + x];
            float north = y == 0 ? c : in[(y - 1) * COLS + x];
            float south = y == ROWS - 1 ? c : in[(y + 1) * COLS + x];
            float west = x == 0 ? c : in[y * COLS + x - 1];
            float east = x == COLS - 1 ? c : in[y * COLS + x + 1];
            out[y * COLS + x] = c + CAP * (power[y * COLS + x] +
                                           (north + south - 2.0f * c) * RY +
                                           (east + west - 2.0f * c) * RX +
                                           (AMB - c) * RZ);
        }
}

int main(int argc, char **argv)
{
    int total_steps = 50;
    int i, t;
    if (argc > 1)
        total_steps = atoi(argv[1]);
    if (total_steps < 0) {
        fprintf(stderr, "usage: %s [steps >= 0]\n", argv[0]);
        return 1;
    }
    float *power = (float *)malloc((size_t)ROWS * COLS * sizeof(float));
    float *a = (float *)malloc((size_t)ROWS * COLS * sizeof(float));
    float *b = (float *)malloc((size_t)ROWS * COLS * sizeof(float));
    if (!power || !a || !b) {
        fprintf(stderr, "host malloc failed\n");
        return 1;
    }
    init_chip(power, a);
    double t0 = omp_get_wtime();
    for (t = 0; t < total_steps; t++) {
        float *tmp;
        step(power, a, b);
        tmp = a;
        a = b;
        b = tmp;
    }
    fprintf(stderr, "%d steps in %d launches on %ux%u blocks: %.3f ms\n", total_steps,
            (total_steps + PYR - 1) / PYR, (COLS + 9) / 10, (ROWS + 9) / 10, (omp_get_wtime() - t0) * 1e3);

    double sum = 0.0;
    int hot = 0, cold = 0;
    for (i = 0; i < ROWS * COLS; i++) {
        sum += a[i];
        if (a[i] > a[hot])
            hot = i;
        if (a[i] < a[cold])
            cold = i;
    }
    printf("hotspot_pyramid %dx%d, %d steps, %d steps per launch\n",
           ROWS, COLS, total_steps, PYR);
    printf("T[0][0] = %.4f\n", a[0]);
    printf("T[60][45] = %.4f\n", a[60 * COLS + 45]);
    printf("T[145][117] = %.4f\n", a[145 * COLS + 117]);
    printf("T[12][100] = %.4f\n", a[12 * COLS + 100]);
    printf("T[%d][%d] = %.4f\n", ROWS - 1, COLS - 1, a[ROWS * COLS - 1]);
    printf("hottest T[%d][%d] = %.4f\n", hot / COLS, hot % COLS, a[hot]);
    printf("coolest T[%d][%d] = %.4f\n", cold / COLS, cold % COLS, a[cold]);
    printf("mean = %.4f\n", sum / (ROWS * COLS));

    free(power);
    free(a);
    free(b);
    return 0;
}
