/* Pairwise interactions of particles grouped in cells: a cell's particles (structs of four floats) are staged
 * in a __shared__ array of structs, the kernel takes parameter structs by value, and the barrier sits inside
 * a block-uniform `if` whose condition reads a by-value struct.  The host recomputes every force serially;
 * the program prints the largest difference and a checksum. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <cuda_runtime.h>

#define PER_CELL 32

typedef struct { float q, x, y, z; } particle;
typedef struct { int id; long first; } cell;
typedef struct { float softening; } params;
typedef struct { long cells; long particles; } extent;

__global__ void forces(params prm, extent ext, const cell *cells, const particle *p, float *fx)
{
    __shared__ particle local[PER_CELL];
    __shared__ float charge[PER_CELL];
    int c = blockIdx.x, t = threadIdx.x;
    if (c < ext.cells) {
        long base = cells[c].first;
        for (int i = t; i < PER_CELL; i += blockDim.x) {
            local[i] = p[base + i];
            charge[i] = local[i].q;
        }
        __syncthreads();
        for (int i = t; i < PER_CELL; i += blockDim.x) {
            float f = 0.0f;
            for (int j = 0; j < PER_CELL; j++) {
                float dx = local[j].x - local[i].x, dy = local[j].y - local[i].y, dz = local[j].z - local[i].z;
                float r2 = dx * dx + dy * dy + dz * dz + prm.softening;
                f += charge[j] * dx / (r2 * sqrtf(r2));
            }
            fx[base + i] = f * local[i].q;
        }
    }
}

int main(void)
{
    extent ext;
    ext.cells = 24;
    ext.particles = ext.cells * PER_CELL;
    params prm;
    prm.softening = 0.01f;
    cell *cells = (cell *)malloc(ext.cells * sizeof(cell));
    particle *p = (particle *)malloc(ext.particles * sizeof(particle));
    float *fx = (float *)malloc(ext.particles * sizeof(float));
    for (int c = 0; c < ext.cells; c++) {
        cells[c].id = c;
        cells[c].first = (long)c * PER_CELL;
    }
    for (long i = 0; i < ext.particles; i++) {
        p[i].q = 0.5f + (float)(i % 5) * 0.25f;
        p[i].x = (float)((i * 7) % 17) * 0.1f;
        p[i].y = (float)((i * 11) % 13) * 0.1f;
        p[i].z = (float)((i * 3) % 19) * 0.05f;
    }
    cell *dc; particle *dp; float *dfx;
    cudaMalloc((void **)&dc, ext.cells * sizeof(cell));
    cudaMalloc((void **)&dp, ext.particles * sizeof(particle));
    cudaMalloc((void **)&dfx, ext.particles * sizeof(float));
    cudaMemcpy(dc, cells, ext.cells * sizeof(cell), cudaMemcpyHostToDevice);
    cudaMemcpy(dp, p, ext.particles * sizeof(particle), cudaMemcpyHostToDevice);
    forces<<<(int)ext.cells + 2, 12>>>(prm, ext, dc, dp, dfx);
    cudaMemcpy(fx, dfx, ext.particles * sizeof(float), cudaMemcpyDeviceToHost);

    double worst = 0.0, sum = 0.0;
    for (long c = 0; c < ext.cells; c++)
        for (int i = 0; i < PER_CELL; i++) {
            const particle *a = &p[c * PER_CELL + i];
            float f = 0.0f;
            for (int j = 0; j < PER_CELL; j++) {
                const particle *b = &p[c * PER_CELL + j];
                float dx = b->x - a->x, dy = b->y - a->y, dz = b->z - a->z;
                float r2 = dx * dx + dy * dy + dz * dz + prm.softening;
                f += b->q * dx / (r2 * sqrtf(r2));
            }
            f *= a->q;
            double d = fabs((double)f - fx[c * PER_CELL + i]);
            worst = d > worst ? d : worst;
            sum += fx[c * PER_CELL + i] * (double)(i + 1);
        }
    printf("max difference %.3g checksum %.4f\n", worst, sum);
    free(cells); free(p); free(fx);
    cudaFree(dc); cudaFree(dp); cudaFree(dfx);
    return 0;
}
