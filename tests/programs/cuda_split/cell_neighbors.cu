// Short-range forces between particles sorted into cells, in the style of molecular-dynamics benchmarks:
// each block owns one cell and walks that cell's neighbor list, whose length it reads from global memory,
// staging every neighbor's particles in shared arrays of structs between barriers. The loop over neighbors
// holds the barriers, so its bound (`cells[blockIdx.x].count`, the same address in every thread) must be
// recognized as the same in every thread of the block.
#include <cmath>
#include <cstdio>
#include <vector>

constexpr int PER_CELL = 24;  // particles per cell
constexpr int THREADS = 16;   // fewer threads than particles: each thread strides over the cell
constexpr int MAX_NEIGHBORS = 6;

struct Particle { float w, x, y, z; };
struct Cell { int first; int count; int neighbor[MAX_NEIGHBORS]; };
struct Params { float cutoff2; float scale; };

__global__ void cell_forces(Params prm, int ncells, const Cell *cells, const Particle *pos, Particle *force) {
    __shared__ Particle mine[PER_CELL];
    __shared__ Particle other[PER_CELL];
    int c = blockIdx.x;
    if (c >= ncells)
        return;
    const Cell *cell = &cells[c];
    for (int i = threadIdx.x; i < PER_CELL; i += blockDim.x)
        mine[i] = pos[cell->first + i];
    __syncthreads();
    for (int k = 0; k <= cells[c].count; k++) {  // the cell itself, then its neighbors
        int n = k == 0 ? c : cell->neighbor[k - 1];
        for (int j = threadIdx.x; j < PER_CELL; j += blockDim.x)
            other[j] = pos[cells[n].first + j];
        __syncthreads();
        for (int i = threadIdx.x; i < PER_CELL; i += blockDim.x) {
            Particle f = force[cell->first + i];
            for (int j = 0; j < PER_CELL; j++) {
                float dx = mine[i].x - other[j].x, dy = mine[i].y - other[j].y, dz = mine[i].z - other[j].z;
                float r2 = dx * dx + dy * dy + dz * dz;
                if (r2 > 0.0f && r2 < prm.cutoff2) {
                    float e = prm.scale * other[j].w * expf(-r2);
                    f.w += e;
                    f.x += e * dx;
                    f.y += e * dy;
                    f.z += e * dz;
                }
            }
            force[cell->first + i] = f;
        }
        __syncthreads();
    }
}

int main() {
    const int side = 4, ncells = side * side;
    std::vector<Cell> cells(ncells);
    std::vector<Particle> pos(ncells * PER_CELL), force(ncells * PER_CELL), ref(ncells * PER_CELL);
    unsigned s = 7;
    auto rnd = [&s]() { s = s * 1103515245u + 12345u; return (float)((s >> 9) & 0xffff) / 65536.0f; };
    for (int c = 0; c < ncells; c++) {
        int cx = c % side, cy = c / side, n = 0;
        cells[c].first = c * PER_CELL;
        for (int d = 0; d < 4 && n < MAX_NEIGHBORS; d++) {  // open boundary: corner cells have fewer neighbors
            int nx = cx + (d == 0) - (d == 1), ny = cy + (d == 2) - (d == 3);
            if (nx >= 0 && nx < side && ny >= 0 && ny < side)
                cells[c].neighbor[n++] = ny * side + nx;
        }
        cells[c].count = n;
        for (int i = 0; i < PER_CELL; i++)
            pos[c * PER_CELL + i] = {0.5f + rnd(), cx + rnd(), cy + rnd(), rnd()};
    }
    Params prm = {1.5f, 0.25f};
    Cell *d_cells;
    Particle *d_pos, *d_force;
    cudaMalloc(&d_cells, sizeof(Cell) * ncells);
    cudaMalloc(&d_pos, sizeof(Particle) * pos.size());
    cudaMalloc(&d_force, sizeof(Particle) * pos.size());
    cudaMemcpy(d_cells, cells.data(), sizeof(Cell) * ncells, cudaMemcpyHostToDevice);
    cudaMemcpy(d_pos, pos.data(), sizeof(Particle) * pos.size(), cudaMemcpyHostToDevice);
    cudaMemset(d_force, 0, sizeof(Particle) * pos.size());
    cell_forces<<<ncells, THREADS>>>(prm, ncells, d_cells, d_pos, d_force);
    cudaMemcpy(force.data(), d_force, sizeof(Particle) * pos.size(), cudaMemcpyDeviceToHost);

    for (int c = 0; c < ncells; c++)
        for (int k = 0; k <= cells[c].count; k++) {
            int n = k == 0 ? c : cells[c].neighbor[k - 1];
            for (int i = 0; i < PER_CELL; i++)
                for (int j = 0; j < PER_CELL; j++) {
                    const Particle &a = pos[c * PER_CELL + i], &b = pos[n * PER_CELL + j];
                    float dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z, r2 = dx * dx + dy * dy + dz * dz;
                    if (r2 > 0.0f && r2 < prm.cutoff2) {
                        float e = prm.scale * b.w * expf(-r2);
                        Particle &f = ref[c * PER_CELL + i];
                        f.w += e, f.x += e * dx, f.y += e * dy, f.z += e * dz;
                    }
                }
        }
    int bad = 0;
    double total = 0;
    for (size_t i = 0; i < ref.size(); i++) {
        total += force[i].w;
        if (std::fabs(force[i].w - ref[i].w) > 1e-4f * (1 + std::fabs(ref[i].w)) ||
            std::fabs(force[i].x - ref[i].x) > 1e-4f * (1 + std::fabs(ref[i].x)))
            bad++;
    }
    printf("potential %.3f\n%s\n", total, bad ? "FAIL" : "PASS");
    return bad != 0;
}
