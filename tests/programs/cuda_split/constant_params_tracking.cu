// Per-point window statistics with every parameter in one __constant__ struct (as image-tracking benchmarks
// keep theirs): blocks beyond the number of points return at once, and the loops holding barriers are
// bounded by fields of the constant struct, which every thread of a block reads alike.
#include <cmath>
#include <cstdio>
#include <vector>

#define THREADS 32

struct TrackParams {
    int points;     // tracked points (one block each)
    int window;     // pixels per window
    int rounds;     // refinement rounds
    float gain;
    const float *frames;  // device pointer: points * window pixels
};

__constant__ TrackParams params;

__global__ void track(float *score, int *best) {
    __shared__ float win[256];
    __shared__ float total;
    __shared__ int arg;
    int b = blockIdx.x, t = threadIdx.x;
    if (b >= params.points)
        return;
    const float *src = &params.frames[b * params.window];
    for (int r = 0; r < params.rounds; r++) {
        for (int i = t; i < params.window; i += THREADS)
            win[i] = src[i] * (1.0f + params.gain * r);
        __syncthreads();
        if (t == 0) {
            total = 0.0f;
            arg = 0;
            for (int i = 0; i < params.window; i++) {
                total += win[i];
                if (win[i] > win[arg])
                    arg = i;
            }
        }
        __syncthreads();
        if (t == 0) {
            score[b * params.rounds + r] = total;
            best[b * params.rounds + r] = arg;
        }
        __syncthreads();
    }
}

int main() {
    TrackParams h = {5, 120, 4, 0.5f, nullptr};
    std::vector<float> frames(h.points * h.window);
    for (size_t i = 0; i < frames.size(); i++)
        frames[i] = (float)((i * 2654435761u) % 1000) / 100.0f;
    float *d_frames, *d_score;
    int *d_best;
    cudaMalloc((void **)&d_frames, frames.size() * sizeof(float));
    cudaMalloc((void **)&d_score, h.points * h.rounds * sizeof(float));
    cudaMalloc((void **)&d_best, h.points * h.rounds * sizeof(int));
    cudaMemcpy(d_frames, frames.data(), frames.size() * sizeof(float), cudaMemcpyHostToDevice);
    h.frames = d_frames;
    cudaMemcpyToSymbol(params, &h, sizeof h);
    track<<<h.points + 3, THREADS>>>(d_score, d_best);  // more blocks than points
    std::vector<float> score(h.points * h.rounds);
    std::vector<int> best(h.points * h.rounds);
    cudaMemcpy(score.data(), d_score, score.size() * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(best.data(), d_best, best.size() * sizeof(int), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int b = 0; b < h.points; b++)
        for (int r = 0; r < h.rounds; r++) {
            float total = 0.0f;
            int arg = 0;
            std::vector<float> w(h.window);
            for (int i = 0; i < h.window; i++)
                w[i] = frames[b * h.window + i] * (1.0f + h.gain * r);
            for (int i = 0; i < h.window; i++) {
                total += w[i];
                if (w[i] > w[arg])
                    arg = i;
            }
            bad += std::fabs(total - score[b * h.rounds + r]) > 1e-3f * total || arg != best[b * h.rounds + r];
        }
    printf("point 0 round 3: %.2f at %d\n%s\n", score[3], best[3], bad ? "FAIL" : "PASS");
    return bad != 0;
}
