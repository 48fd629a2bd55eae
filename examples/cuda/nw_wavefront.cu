/*
 * nw_wavefront.cu - Needleman-Wunsch global alignment score matrix computed
 * by 16x16 blocks in wavefront order, followed by a host traceback.
 *
 * Two protein-like sequences of length N = 16 * NB (the second one is a
 * mutated copy of the first) are aligned with a 20x20 substitution table
 * and a linear gap penalty.  Cell (i, j) of the (N+1) x (N+1) score matrix
 * depends on its north, west and north-west neighbours, so the matrix is
 * processed in 16x16 blocks along anti-diagonals of blocks: one kernel
 * launch per block diagonal, one CUDA block per matrix block.
 *
 * Inside a block, 16 threads stage the block's top row and left column, the
 * two sequence chunks and the substitution table in __shared__ memory.
 * Thread tx owns row tx of the tile; the tile is swept along its 31
 * anti-diagonals, and in diagonal d thread tx updates column d - tx when
 * that column is inside the tile.  Every thread runs all 31 iterations and
 * meets the __syncthreads() at the end of each one.
 *
 * Integer scores: the result is exact and independent of scheduling.
 * Usage: nw_wavefront [NB]       (default NB = 24, i.e. N = 384)
 */
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define BS 16
#define ALPHA 20
#define GAP 4

/* one-letter code of residue k */
static char residue(int k)
{
    const char *letters = "ARNDCQEGHILKMFPSTWYV";
    return letters[k];
}

__device__ int max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

__global__ void nw_block_diagonal(int *score, const int *seq_a, const int *seq_b,
                                  const int *subst, int n, int nb, int diag)
{
    __shared__ int tile[BS + 1][BS + 1];
    __shared__ int s_sub[ALPHA * ALPHA];
    __shared__ int s_a[BS];
    __shared__ int s_b[BS];

    int tx = threadIdx.x;
    int first = diag < nb ? 0 : diag - nb + 1;
    int bi = first + blockIdx.x;   /* block row */
    int bj = diag - bi;            /* block column */
    int row0 = bi * BS;
    int col0 = bj * BS;
    int ld = n + 1;

    for (int k = tx; k < ALPHA * ALPHA; k += BS)
        s_sub[k] = subst[k];
    s_a[tx] = seq_a[row0 + tx];
    s_b[tx] = seq_b[col0 + tx];
    tile[0][tx + 1] = score[row0 * ld + col0 + tx + 1];
    tile[tx + 1][0] = score[(row0 + tx + 1) * ld + col0];
    if (tx == 0)
        tile[0][0] = score[row0 * ld + col0];
    __syncthreads();

    for (int d = 0; d < 2 * BS - 1; d++) {
        int c = d - tx;
        if (tx <= d && c < BS) {
            int r = tx + 1;
            int nw = tile[r - 1][c] + s_sub[s_a[tx] * ALPHA + s_b[c]];
            int up = tile[r - 1][c + 1] - GAP;
            int left = tile[r][c] - GAP;
            tile[r][c + 1] = max3(nw, up, left);
        }
        __syncthreads();
    }

    for (int r = 1; r <= BS; r++)
        score[(row0 + r) * ld + col0 + tx + 1] = tile[r][tx + 1];
}

static unsigned int rng = 99991u;

static int rand_below(int m)
{
    rng = rng * 1664525u + 1013904223u;
    return (int)((rng >> 16) % (unsigned int)m);
}

static void make_inputs(int *a, int *b, int *subst, int n)
{
    for (int x = 0; x < ALPHA; x++)
        for (int y = 0; y < ALPHA; y++)
            subst[x * ALPHA + y] = x == y ? 4 + x % 3 : -1 - (x + y + x * y) % 4;
    for (int i = 0; i < n; i++)
        a[i] = rand_below(ALPHA);
    /* b: a copy of a with substitutions, deletions and insertions */
    int j = 0;
    for (int i = 0; i < n && j < n; i++) {
        int r = rand_below(100);
        if (r < 10) {
            b[j++] = rand_below(ALPHA);           /* substitution */
        } else if (r < 14) {
            /* deletion: skip a[i] */
        } else if (r < 18) {
            b[j++] = rand_below(ALPHA);           /* insertion */
            if (j < n)
                b[j++] = a[i];
        } else {
            b[j++] = a[i];
        }
    }
    while (j < n)
        b[j++] = rand_below(ALPHA);
}

int main(int argc, char **argv)
{
    int nb = 24;
    if (argc > 1)
        nb = atoi(argv[1]);
    if (nb <= 0 || nb > 512) {
        fprintf(stderr, "usage: %s [blocks per side, 1..512]\n", argv[0]);
        return 1;
    }
    int n = nb * BS;
    int ld = n + 1;
    size_t mat_bytes = (size_t)ld * ld * sizeof(int);

    int *h_a = (int *)malloc(n * sizeof(int));
    int *h_b = (int *)malloc(n * sizeof(int));
    int *h_sub = (int *)malloc(ALPHA * ALPHA * sizeof(int));
    int *h_score = (int *)malloc(mat_bytes);
    if (!h_a || !h_b || !h_sub || !h_score) {
        fprintf(stderr, "host malloc failed\n");
        return 1;
    }
    make_inputs(h_a, h_b, h_sub, n);
    for (int i = 0; i < ld * ld; i++)
        h_score[i] = 0;
    for (int i = 0; i <= n; i++) {
        h_score[i * ld] = -i * GAP;
        h_score[i] = -i * GAP;
    }

    int *d_a, *d_b, *d_sub, *d_score;
    cudaMalloc((void **)&d_a, n * sizeof(int));
    cudaMalloc((void **)&d_b, n * sizeof(int));
    cudaMalloc((void **)&d_sub, ALPHA * ALPHA * sizeof(int));
    cudaMalloc((void **)&d_score, mat_bytes);
    cudaMemcpy(d_a, h_a, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_b, h_b, n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_sub, h_sub, ALPHA * ALPHA * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemcpy(d_score, h_score, mat_bytes, cudaMemcpyHostToDevice);

    cudaEvent_t t0, t1;
    cudaEventCreate(&t0);
    cudaEventCreate(&t1);
    cudaEventRecord(t0, 0);

    for (int diag = 0; diag < 2 * nb - 1; diag++) {
        int blocks = diag + 1;
        if (blocks > nb)
            blocks = nb;
        if (blocks > 2 * nb - 1 - diag)
            blocks = 2 * nb - 1 - diag;
        nw_block_diagonal<<<blocks, BS>>>(d_score, d_a, d_b, d_sub, n, nb, diag);
    }

    cudaEventRecord(t1, 0);
    cudaEventSynchronize(t1);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess) {
        fprintf(stderr, "nw_block_diagonal: %s\n", cudaGetErrorString(err));
        return 1;
    }
    float ms = 0.0f;
    cudaEventElapsedTime(&ms, t0, t1);
    fprintf(stderr, "N=%d: %d launches, %.3f ms\n", n, 2 * nb - 1, ms);

    cudaMemcpy(h_score, d_score, mat_bytes, cudaMemcpyDeviceToHost);

    long long checksum = 0;
    for (int i = 0; i < ld * ld; i++)
        checksum += (long long)h_score[i] * (i % 7 + 1);

    /* traceback from the bottom-right corner */
    char *line_a = (char *)malloc(2 * n + 1);
    char *line_b = (char *)malloc(2 * n + 1);
    int len = 0, matches = 0, mismatches = 0, gaps = 0;
    int i = n, j = n;
    while (i > 0 || j > 0) {
        int here = h_score[i * ld + j];
        if (i > 0 && j > 0 &&
            here == h_score[(i - 1) * ld + j - 1] + h_sub[h_a[i - 1] * ALPHA + h_b[j - 1]]) {
            line_a[len] = residue(h_a[i - 1]);
            line_b[len] = residue(h_b[j - 1]);
            if (h_a[i - 1] == h_b[j - 1])
                matches++;
            else
                mismatches++;
            i--;
            j--;
        } else if (i > 0 && here == h_score[(i - 1) * ld + j] - GAP) {
            line_a[len] = residue(h_a[i - 1]);
            line_b[len] = '-';
            gaps++;
            i--;
        } else {
            line_a[len] = '-';
            line_b[len] = residue(h_b[j - 1]);
            gaps++;
            j--;
        }
        len++;
    }

    printf("nw_wavefront N=%d blocks=%dx%d gap=%d\n", n, nb, nb, GAP);
    printf("score[%d][%d] = %d\n", n / 2, n / 3, h_score[(n / 2) * ld + n / 3]);
    printf("score[%d][%d] = %d\n", BS, BS, h_score[BS * ld + BS]);
    printf("alignment score = %d\n", h_score[n * ld + n]);
    printf("checksum = %lld\n", checksum);
    printf("alignment length %d: %d matches, %d mismatches, %d gaps\n",
           len, matches, mismatches, gaps);
    int show = len < 60 ? len : 60;
    printf("A: ");
    for (int k = 0; k < show; k++)
        putchar(line_a[len - 1 - k]);
    printf("\nB: ");
    for (int k = 0; k < show; k++)
        putchar(line_b[len - 1 - k]);
    printf("\n");

    cudaEventDestroy(t0);
    cudaEventDestroy(t1);
    cudaFree(d_a);
    cudaFree(d_b);
    cudaFree(d_sub);
    cudaFree(d_score);
    free(h_a);
    free(h_b);
    free(h_sub);
    free(h_score);
    free(line_a);
    free(line_b);
    return 0;
}
