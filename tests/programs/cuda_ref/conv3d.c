/*
 * Sequential C reference for examples/cuda/conv3d.cu.
 * Prints exactly the same stdout as the CUDA program.
 */
#include <stdio.h>
#include <stdlib.h>

#define NX 60
#define NY 44
#define NZ 36

static float stencil_weight(int dx, int dy, int dz)
{
    int dist = (dx != 0) + (dy != 0) + (dz != 0);
    if (dist == 0)
        return 0.40f;
    if (dist == 1)
        return 0.06f;
    if (dist == 2)
        return 0.015f;
    return 0.0075f;
}

static void conv3d(const float *in, float *out, int nx, int ny, int nz)
{
    int x, y, z, dx, dy, dz;
    for (z = 0; z < nz; z++)
        for (y = 0; y < ny; y++)
            for (x = 0; x < nx; x++) {
                int idx = (z * ny + y) * nx + x;
                if (x == 0 || y == 0 || z == 0 || x == nx - 1 || y == ny - 1 || z == nz - 1) {
                    out[idx] = in[idx];
                    continue;
                }
                float acc = 0.0f;
                for (dz = -1; dz <= 1; dz++)
                    for (dy = -1; dy <= 1; dy++)
                        for (dx = -1; dx <= 1; dx++)
                            acc += stencil_weight(dx, dy, dz) * in[idx + (dz * ny + dy) * nx + dx];
                out[idx] = acc;
            }
}

int main(void)
{
    const int nx = NX, ny = NY, nz = NZ;
    const int total = nx * ny * nz;
    size_t bytes = (size_t)total * sizeof(float);
    int x, y, z, i, k;

    float *vol = (float *)malloc(bytes);
    float *tmp = (float *)malloc(bytes);
    for (z = 0; z < nz; z++)
        for (y = 0; y < ny; y++)
            for (x = 0; x < nx; x++) {
                int h = (x * 31 + y * 17 + z * 7) % 64;
                float v = (float)h / 16.0f;
                if ((x / 10 + y / 10 + z / 10) % 2 == 0)
                    v += 2.0f;
                vol[(z * ny + y) * nx + x] = v;
            }

    unsigned bx = 8, by = 8, bz = 4;
    unsigned gx = (nx + bx - 1) / bx, gy = (ny + by - 1) / by, gz = (nz + bz - 1) / bz;

    conv3d(vol, tmp, nx, ny, nz);
    conv3d(tmp, vol, nx, ny, nz);

    double sum = 0.0;
    float vmin = vol[0], vmax = vol[0];
    for (i = 0; i < total; i++) {
        sum += vol[i];
        if (vol[i] < vmin) vmin = vol[i];
        if (vol[i] > vmax) vmax = vol[i];
    }

    printf("conv3d %dx%dx%d grid=(%u,%u,%u) block=(%u,%u,%u)\n",
           nx, ny, nz, gx, gy, gz, bx, by, bz);
    printf("sum %.4f min %.5f max %.5f\n", sum, vmin, vmax);
    for (k = 1; k < nz; k += 11) {
        int idx = (k * ny + k) * nx + k;
        printf("out[%d][%d][%d] = %.5f\n", k, k, k, vol[idx]);
    }

    free(vol);
    free(tmp);
    return 0;
}
