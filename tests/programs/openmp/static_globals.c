/* OpenMP clauses on file-scope static variables, as single-file programs keep their accumulators: a reduction
   into static totals, lastprivate and firstprivate statics, and an array section of a static histogram. */
#include <stdio.h>

#define N 1000

static double samples[N];
static double energy;
static long hits;
static int last_index;
static double threshold = 0.25;
static int buckets[8];

static void fill(void)
{
    for (int i = 0; i < N; i++)
        samples[i] = (double)((i * 7919) % 1000) / 1000.0;
}

int main(void)
{
    fill();

    #pragma omp parallel for reduction(+:energy, hits) schedule(dynamic, 16)
    for (int i = 0; i < N; i++) {
        energy += samples[i] * samples[i];
        if (samples[i] > 0.5)
            hits++;
    }

    #pragma omp parallel for lastprivate(last_index) firstprivate(threshold)
    for (int i = 0; i < N; i++) {
        threshold += 0.0;
        last_index = samples[i] > threshold ? i : -i;
    }

    #pragma omp parallel for reduction(+:buckets[:8])
    for (int i = 0; i < N; i++)
        buckets[(int)(samples[i] * 8)]++;

    printf("energy %.6f hits %ld last %d threshold %.2f\n", energy, hits, last_index, threshold);
    for (int b = 0; b < 8; b++)
        printf("bucket %d: %d\n", b, buckets[b]);
    return 0;
}
