/* OpenMP idioms of Rodinia 3.1's C programs (written for pgcc's tests, in their style): K&R definitions with
   float parameters, a reduction over a variable every iteration resets (backprop), an orphaned barrier after a
   worksharing loop (nn), a parallel region whose threads swap private pointers around an `omp for` inside a
   do-while with a master-only print (hotspot3D), per-thread partial arrays indexed by the thread number with
   firstprivate and a reduction (kmeans), default(none) loops with aligned local tiles, simd loops and
   schedule(auto) (lud), a private struct (lavaMD). Results are exact (small integers in doubles). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { double x, y, z; } THREE;

float squash(x)
float x;
{
  return x > 0 ? x : x / 2;
}

void layerforward(l1, l2, conn, n1, n2)
float *l1, *l2, **conn;
int n1, n2;
{
  float sum;
  int j, k;
  l1[0] = 1.0;
#pragma omp parallel for shared(conn, n1, n2, l1) private(k, j) reduction(+: sum) schedule(static)
  for (j = 1; j <= n2; j++) {
    sum = 0.0;
    for (k = 0; k <= n1; k++)
      sum += conn[k][j] * l1[k];
    l2[j] = squash(sum);
  }
}

static void stencil(float *in, float *out, int nx, int ny, int iters) {
#pragma omp parallel
  {
    int count = 0;
    float *a = in, *b = out;
#pragma omp master
    printf("team ok %d\n", omp_get_num_threads() >= 1);
    do {
      int y;
#pragma omp for
      for (y = 0; y < ny; y++) {
        int x;
        for (x = 0; x < nx; x++) {
          int c = x + y * nx;
          int w = x == 0 ? c : c - 1, e = x == nx - 1 ? c : c + 1;
          int n = y == 0 ? c : c - nx, s = y == ny - 1 ? c : c + nx;
          b[c] = (a[w] + a[e] + a[n] + a[s]) * 0.25f;
        }
      }
      float *t = a;
      a = b;
      b = t;
      count++;
    } while (count < iters);
  }
}

int nthreads_used = 2;

static int nearest(float *pt, float (*centres)[2], int k) {
  int best = 0, i;
  float bd = 1e30f;
  for (i = 0; i < k; i++) {
    float dx = pt[0] - centres[i][0], dy = pt[1] - centres[i][1], d = dx * dx + dy * dy;
    if (d < bd) { bd = d; best = i; }
  }
  return best;
}

static void cluster_step(float (*pts)[2], int npts, float (*centres)[2], int k, int *member, int *moved) {
  int i, j, t;
  int partial_len[8][4] = {{0}};
  float partial[8][4][2] = {{{0}}};
  float delta = 0;
  omp_set_num_threads(nthreads_used);
#pragma omp parallel shared(pts, centres, member, partial, partial_len)
  {
    int tid = omp_get_thread_num();
#pragma omp for private(i, j) firstprivate(npts, k) schedule(static) reduction(+:delta)
    for (i = 0; i < npts; i++) {
      int idx = nearest(pts[i], centres, k);
      if (member[i] != idx) delta += 1.0f;
      member[i] = idx;
      partial_len[tid][idx]++;
      for (j = 0; j < 2; j++)
        partial[tid][idx][j] += pts[i][j];
    }
  }
  for (i = 0; i < k; i++) {
    int len = 0;
    float s[2] = {0, 0};
    for (t = 0; t < 8; t++) {
      len += partial_len[t][i];
      s[0] += partial[t][i][0];
      s[1] += partial[t][i][1];
    }
    if (len) { centres[i][0] = s[0] / len; centres[i][1] = s[1] / len; }
  }
  *moved = (int)delta;
}

#define BS 8
static void tiles(float *a, int size) {
  int chunk, chunks = size / BS;
#pragma omp parallel for default(none) private(chunk) shared(size, chunks, a) schedule(auto)
  for (chunk = 0; chunk < chunks * chunks; chunk++) {
    int i, j;
    float tile[BS * BS] __attribute__((aligned(64)));
    float sum[BS] __attribute__((aligned(64))) = {0.f};
    int gi = BS * (chunk / chunks), gj = BS * (chunk % chunks);
    for (i = 0; i < BS; i++) {
#pragma omp simd
      for (j = 0; j < BS; j++)
        tile[i * BS + j] = a[(gi + i) * size + gj + j];
    }
    for (i = 0; i < BS; i++) {
#pragma omp simd
      for (j = 0; j < BS; j++)
        sum[j] += tile[i * BS + j];
    }
#pragma omp simd
    for (j = 0; j < BS; j++)
      a[gi * size + gj + j] = sum[j];
  }
}

static double forces(THREE *pos, int n) {
  int i, j;
  THREE d;
  double total = 0;
#pragma omp parallel for private(j, d) reduction(+: total)
  for (i = 0; i < n; i++) {
    for (j = 0; j < n; j++) {
      d.x = pos[i].x - pos[j].x;
      d.y = pos[i].y - pos[j].y;
      d.z = pos[i].z - pos[j].z;
      total += d.x * d.x + d.y * d.y + d.z * d.z;
    }
  }
  return total;
}

int main(int argc, char **argv) {
  int i, j, n1 = 12, n2 = 6;
  float *l1 = malloc((n1 + 1) * sizeof(float)), *l2 = malloc((n2 + 1) * sizeof(float));
  float **conn = malloc((n1 + 1) * sizeof(float *));
  for (i = 0; i <= n1; i++) {
    l1[i] = (float)(i % 5 - 2);
    conn[i] = malloc((n2 + 1) * sizeof(float));
    for (j = 0; j <= n2; j++)
      conn[i][j] = (float)((i * 3 + j * 7) % 9 - 4);
  }
  layerforward(l1, l2, conn, n1, n2);
  for (j = 1; j <= n2; j++)
    printf("l2[%d] = %g\n", j, l2[j]);
#pragma omp barrier

  int nx = 16, ny = 12;
  float *g0 = malloc(nx * ny * sizeof(float)), *g1 = malloc(nx * ny * sizeof(float));
  for (i = 0; i < nx * ny; i++) { g0[i] = (float)(i % 13 * 16); g1[i] = 0; }
  stencil(g0, g1, nx, ny, 5);
  double s = 0;
  for (i = 0; i < nx * ny; i++) s += g1[i] * (i % 3 + 1) + g0[i];
  printf("stencil %.6f\n", s);

  float pts[64][2], centres[4][2];
  int member[64], moved, rounds = 0;
  for (i = 0; i < 64; i++) { pts[i][0] = (float)(i % 4 * 10 + i % 3); pts[i][1] = (float)(i / 16 * 8 + i % 2); member[i] = -1; }
  for (i = 0; i < 4; i++) { centres[i][0] = pts[i][0]; centres[i][1] = pts[i][1]; }
  do { cluster_step(pts, 64, centres, 4, member, &moved); rounds++; } while (moved && rounds < 20);
  for (i = 0; i < 4; i++) printf("centre %d: %.4f %.4f\n", i, centres[i][0], centres[i][1]);
  printf("rounds %d\n", rounds);

  int size = 32;
  float *m = malloc(size * size * sizeof(float));
  for (i = 0; i < size * size; i++) m[i] = (float)(i % 11);
  tiles(m, size);
  double t = 0;
  for (i = 0; i < size * size; i++) t += m[i] * (i % 7 + 1);
  printf("tiles %.1f\n", t);

  THREE pos[20];
  for (i = 0; i < 20; i++) { pos[i].x = i % 4; pos[i].y = i % 5; pos[i].z = i % 3; }
  printf("forces %.1f\n", forces(pos, 20));
  return 0;
}
