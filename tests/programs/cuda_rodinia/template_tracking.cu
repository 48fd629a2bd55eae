// Template tracking over video frames in the style of Rodinia's heartwall: the parameters of the frame and of
// every tracked point live in __constant__ structs (copied with cudaMemcpyToSymbol before each launch), one
// block per point, and a per-thread pointer into the point's template (`float *d_in`) is set in the branch of
// the first frame and again in the branch of the later frames, which holds __syncthreads(), and is used after
// them and in a third branch (the template update). Checked against a CPU version of the same steps.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>

#define NT 64
#define NPOINTS 6
#define TSIZE 150
#define FRAME 2048
#define NFRAMES 7

typedef struct { float *d_frame; int frame_no; } frame_params;
typedef struct { float *d_T; int in_pointer; int *d_Row; float *d_score; int point_no; } point_params;

__constant__ frame_params d_change;
__constant__ point_params d_unique[NPOINTS];

__global__ void track()
{
    float *d_in;
    __shared__ float partial[NT];
    __shared__ float total;
    int bx = blockIdx.x, tx = threadIdx.x, e, i;

    if (d_change.frame_no == 0) {
        d_in = &d_unique[bx].d_T[d_unique[bx].in_pointer];
        for (e = tx; e < TSIZE; e += NT)
            d_in[e] = d_change.d_frame[d_unique[bx].d_Row[d_unique[bx].point_no] + e];
    }
    if (d_change.frame_no != 0) {
        d_in = &d_unique[bx].d_T[d_unique[bx].in_pointer];
        int row = d_unique[bx].d_Row[d_unique[bx].point_no];
        partial[tx] = 0;
        for (e = tx; e < TSIZE; e += NT)
            partial[tx] += d_in[e] * d_change.d_frame[row + e];
        __syncthreads();
        if (tx == 0) {
            total = 0;
            for (i = 0; i < NT; i++)
                total += partial[i];
        }
        __syncthreads();
        for (e = tx; e < TSIZE; e += NT)
            d_in[e] = 0.5f * d_in[e] + 0.001f * total;
        __syncthreads();
        if (tx == 0)
            d_unique[bx].d_score[d_change.frame_no] = total;
    }
    if (d_change.frame_no != 0 && d_change.frame_no % 3 == 0) {
        int row = d_unique[bx].d_Row[d_unique[bx].point_no];
        for (e = tx; e < TSIZE; e += NT)
            d_in[e] = 0.75f * d_in[e] + 0.25f * d_change.d_frame[row + e];
    }
}

int main()
{
    std::vector<std::vector<float>> frames(NFRAMES, std::vector<float>(FRAME));
    for (int f = 0; f < NFRAMES; f++)
        for (int k = 0; k < FRAME; k++)
            frames[f][k] = (float)((k * 7 + f * 13) % 29) / 29.0f - 0.3f;
    int rows[NPOINTS];
    for (int p = 0; p < NPOINTS; p++) rows[p] = 17 + 251 * p;

    float *d_frame, *d_T, *d_score;
    int *d_Row;
    cudaMalloc((void **)&d_frame, FRAME * sizeof(float));
    cudaMalloc((void **)&d_T, NPOINTS * TSIZE * sizeof(float));
    cudaMalloc((void **)&d_score, NPOINTS * NFRAMES * sizeof(float));
    cudaMalloc((void **)&d_Row, NPOINTS * sizeof(int));
    cudaMemcpy(d_Row, rows, sizeof rows, cudaMemcpyHostToDevice);
    cudaMemset(d_score, 0, NPOINTS * NFRAMES * sizeof(float));
    point_params unique[NPOINTS];
    for (int p = 0; p < NPOINTS; p++) {
        unique[p].d_T = d_T;
        unique[p].in_pointer = p * TSIZE;
        unique[p].d_Row = d_Row;
        unique[p].d_score = d_score + p * NFRAMES;
        unique[p].point_no = p;
    }
    cudaMemcpyToSymbol(d_unique, unique, sizeof unique);
    frame_params change;
    change.d_frame = d_frame;
    for (change.frame_no = 0; change.frame_no < NFRAMES; change.frame_no++) {
        cudaMemcpy(d_frame, frames[change.frame_no].data(), FRAME * sizeof(float), cudaMemcpyHostToDevice);
        cudaMemcpyToSymbol(d_change, &change, sizeof change);
        track<<<NPOINTS, NT>>>();
        cudaDeviceSynchronize();
    }
    std::vector<float> score(NPOINTS * NFRAMES), tmpl(NPOINTS * TSIZE);
    cudaMemcpy(score.data(), d_score, score.size() * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(tmpl.data(), d_T, tmpl.size() * sizeof(float), cudaMemcpyDeviceToHost);

    // CPU: the same steps in the same order of additions
    int bad = 0;
    std::vector<float> T(NPOINTS * TSIZE), S(NPOINTS * NFRAMES, 0.0f);
    for (int f = 0; f < NFRAMES; f++)
        for (int p = 0; p < NPOINTS; p++) {
            float *in = &T[p * TSIZE];
            const float *fr = frames[f].data() + rows[p];
            if (f == 0)
                for (int e = 0; e < TSIZE; e++) in[e] = fr[e];
            else {
                float part[NT] = {0}, total = 0;
                for (int t = 0; t < NT; t++)
                    for (int e = t; e < TSIZE; e += NT) part[t] += in[e] * fr[e];
                for (int t = 0; t < NT; t++) total += part[t];
                for (int e = 0; e < TSIZE; e++) in[e] = 0.5f * in[e] + 0.001f * total;
                S[p * NFRAMES + f] = total;
                if (f % 3 == 0)
                    for (int e = 0; e < TSIZE; e++) in[e] = 0.75f * in[e] + 0.25f * fr[e];
            }
        }
    for (int k = 0; k < NPOINTS * NFRAMES; k++)
        if (std::fabs(score[k] - S[k]) > 1e-5f * (1.0f + std::fabs(S[k]))) bad++;
    for (int k = 0; k < NPOINTS * TSIZE; k++)
        if (std::fabs(tmpl[k] - T[k]) > 1e-5f * (1.0f + std::fabs(T[k]))) bad++;
    printf("score[1][4] %.4f, template[5][149] %.4f, %d differ\n", S[NFRAMES + 4], T[5 * TSIZE + 149], bad);
    printf(bad ? "FAIL\n" : "PASS\n");
    return 0;
}
