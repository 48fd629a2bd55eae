// Reference members of classes used in device code: a view class binding references to global memory in its
// constructor (`struct View { float &x; const float &y; }`), an aggregate whose reference member is bound to a
// local (`Counter c{hits};`), a reference to a __shared__ record read and written through the member, and a
// class with a reference member passed by value to a __device__ function. Checked against a CPU version.
#include <cstdio>
#include <cmath>

struct View {
    float &x;
    const float &y;
    __device__ View(float &a, const float &b) : x(a), y(b) {}
    __device__ void axpy(float a) { x += a * y; }
};

struct Counter {
    int &count;
    __device__ void add(int k) { count += k; }
};

struct Tile { float v[64]; int writes; };

struct TileRef {
    Tile &t;
    int lane;
    __device__ float rotated() const { return t.v[(lane + 1) % 64]; }
};

__device__ float read_through(TileRef r, float scale) { r.t.writes += 0; return r.rotated() * scale; }

__global__ void kernel(float *out, const float *in, int *cnt, float *rot)
{
    __shared__ Tile tile;
    int i = threadIdx.x;
    View v(out[i], in[i]);
    v.axpy(3.0f);
    v.x *= 2.0f;
    int hits = 0;
    Counter c{hits};
    c.add(i);
    c.add(1);
    cnt[i] = hits;
    TileRef r{tile, i};
    r.t.v[i] = in[i] + 1.0f;
    if (i == 0) tile.writes = 64;
    __syncthreads();
    rot[i] = read_through(r, 0.5f) + (float)r.t.writes;
}

int main()
{
    float out[64], in[64], rot[64];
    int cnt[64];
    for (int i = 0; i < 64; i++) { out[i] = 1.0f + i; in[i] = 0.25f * i - 3.0f; }
    float *d_out, *d_in, *d_rot;
    int *d_cnt;
    cudaMalloc((void **)&d_out, sizeof out);
    cudaMalloc((void **)&d_in, sizeof in);
    cudaMalloc((void **)&d_rot, sizeof rot);
    cudaMalloc((void **)&d_cnt, sizeof cnt);
    cudaMemcpy(d_out, out, sizeof out, cudaMemcpyHostToDevice);
    cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
    kernel<<<1, 64>>>(d_out, d_in, d_cnt, d_rot);
    float got[64], grot[64];
    cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost);
    cudaMemcpy(grot, d_rot, sizeof grot, cudaMemcpyDeviceToHost);
    cudaMemcpy(cnt, d_cnt, sizeof cnt, cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < 64; i++) {
        float want = (out[i] + 3.0f * in[i]) * 2.0f;
        float wrot = (in[(i + 1) % 64] + 1.0f) * 0.5f + 64.0f;
        if (std::fabs(got[i] - want) > 1e-5f || cnt[i] != i + 1 || std::fabs(grot[i] - wrot) > 1e-5f) bad++;
    }
    printf("out[5] %.3f, count[5] %d, rot[63] %.3f, %d differ\n", got[5], cnt[5], grot[63], bad);
    printf(bad ? "FAIL\n" : "PASS\n");
    return 0;
}
