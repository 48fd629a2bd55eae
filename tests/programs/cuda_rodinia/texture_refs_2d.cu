// Legacy 2-D texture references in the style of the classic GPU benchmark suites' image codes:
//  - a float image in a CUDA array (cudaMallocArray, cudaMemcpyToArray, cudaBindTextureToArray) read with
//    tex2D at default settings (point filtering, clamped addressing) by a 3x3 box filter whose taps fall off
//    the image at the edges;
//  - the same array read through a second texture set to bilinear filtering and normalized coordinates (an
//    image resize), and through a texture with border addressing (zero outside);
//  - a uchar4 image in pitched memory (cudaMallocPitch, cudaMemcpy2D, cudaBindTexture2D with a channel
//    descriptor) read with tex2D;
//  - a 1-D lookup table in a CUDA array read with tex1D and wrapped normalized coordinates;
//  - cudaUnbindTexture and rebinding between launches.
// A CPU reference computes each result; the program prints checksums and PASS or FAIL.
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <cuda_runtime.h>

#define W 37
#define H 23
#define OW 50
#define OH 31
#define LUTN 16

texture<float, 2, cudaReadModeElementType> img_tex;
texture<float, 2, cudaReadModeElementType> smooth_tex;
texture<float, 2> border_tex;
texture<uchar4, 2, cudaReadModeElementType> rgba_tex;
texture<float, 1, cudaReadModeElementType> lut_tex;

__global__ void box3x3(float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h)
        return;
    float s = 0.0f;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            s += tex2D(img_tex, x + dx + 0.5f, y + dy + 0.5f);
    out[y * w + x] = s / 9.0f;
}

__global__ void resize(float *out, int ow, int oh)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < ow && y < oh)
        out[y * ow + x] = tex2D(smooth_tex, (x + 0.5f) / ow, (y + 0.5f) / oh);
}

__global__ void shifted(float *out, int w, int h, int sx, int sy)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h)
        out[y * w + x] = tex2D(border_tex, x + sx, y + sy);
}

__global__ void luminance(float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        uchar4 p = tex2D(rgba_tex, (float)x, (float)y);
        float l = 0.25f * p.x + 0.5f * p.y + 0.125f * p.z + p.w / 256.0f;
        out[y * w + x] = l * tex1D(lut_tex, (float)(x + y) / LUTN);
    }
}

static float img[H][W];
static uchar4 rgba[H][W];
static float lut[LUTN];

static float texel(int x, int y, int border)
{
    if (border && (x < 0 || x >= W || y < 0 || y >= H))
        return 0.0f;
    x = x < 0 ? 0 : x >= W ? W - 1 : x;
    y = y < 0 ? 0 : y >= H ? H - 1 : y;
    return img[y][x];
}

static float lerp(float a, float b, float w) { return a + w * (b - a); }

static float bilinear(float u, float v)
{
    float xb = u * W - 0.5f, yb = v * H - 0.5f;
    int i = (int)floorf(xb), j = (int)floorf(yb);
    float a = xb - floorf(xb), b = yb - floorf(yb);
    return lerp(lerp(texel(i, j, 0), texel(i + 1, j, 0), a), lerp(texel(i, j + 1, 0), texel(i + 1, j + 1, 0), a), b);
}

static int check(const char *what, const float *got, const float *want, int n, float tol)
{
    double sum = 0.0;
    int bad = 0;
    for (int i = 0; i < n; i++) {
        sum += got[i];
        if (fabsf(got[i] - want[i]) > tol * (1.0f + fabsf(want[i]))) {
            if (bad < 3)
                printf("%s: [%d] %f, expected %f\n", what, i, got[i], want[i]);
            bad++;
        }
    }
    printf("%-10s checksum %.4f\n", what, sum);
    return bad;
}

int main(void)
{
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            img[y][x] = (float)((x * 7 + y * 13) % 29) / 4.0f + (x == y ? 10.0f : 0.0f);
            rgba[y][x] = make_uchar4((x * 11) % 256, (y * 17) % 256, (x * y) % 256, 255 - x - y);
        }
    for (int i = 0; i < LUTN; i++)
        lut[i] = 1.0f + 0.125f * i;

    cudaChannelFormatDesc fdesc = cudaCreateChannelDesc<float>();
    cudaArray *img_arr, *lut_arr;
    cudaMallocArray(&img_arr, &fdesc, W, H);
    cudaMemcpyToArray(img_arr, 0, 0, img, sizeof img, cudaMemcpyHostToDevice);
    cudaMallocArray(&lut_arr, &fdesc, LUTN);
    cudaMemcpyToArray(lut_arr, 0, 0, lut, sizeof lut, cudaMemcpyHostToDevice);

    uchar4 *d_rgba;
    size_t pitch;
    cudaMallocPitch((void **)&d_rgba, &pitch, W * sizeof(uchar4), H);
    cudaMemcpy2D(d_rgba, pitch, rgba, W * sizeof(uchar4), W * sizeof(uchar4), H, cudaMemcpyHostToDevice);

    float *d_out;
    cudaMalloc((void **)&d_out, OW * OH * sizeof(float));
    static float out[OH * OW], want[OH * OW];
    dim3 block(8, 8);
    dim3 grid((W + 7) / 8, (H + 7) / 8), ogrid((OW + 7) / 8, (OH + 7) / 8);
    int bad = 0;

    cudaBindTextureToArray(img_tex, img_arr);
    box3x3<<<grid, block>>>(d_out, W, H);
    cudaMemcpy(out, d_out, W * H * sizeof(float), cudaMemcpyDeviceToHost);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            float s = 0.0f;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++)
                    s += texel(x + dx, y + dy, 0);
            want[y * W + x] = s / 9.0f;
        }
    bad += check("box3x3", out, want, W * H, 1e-6f);

    smooth_tex.normalized = true;
    smooth_tex.filterMode = cudaFilterModeLinear;
    smooth_tex.addressMode[0] = cudaAddressModeClamp;
    smooth_tex.addressMode[1] = cudaAddressModeClamp;
    cudaBindTextureToArray(smooth_tex, img_arr, fdesc);
    resize<<<ogrid, block>>>(d_out, OW, OH);
    cudaMemcpy(out, d_out, OW * OH * sizeof(float), cudaMemcpyDeviceToHost);
    for (int y = 0; y < OH; y++)
        for (int x = 0; x < OW; x++)
            want[y * OW + x] = bilinear((x + 0.5f) / OW, (y + 0.5f) / OH);
    bad += check("resize", out, want, OW * OH, 1e-5f);

    border_tex.addressMode[0] = cudaAddressModeBorder;
    border_tex.addressMode[1] = cudaAddressModeBorder;
    cudaBindTextureToArray(border_tex, img_arr);
    for (int shift = 0; shift < 2; shift++) {
        int sx = shift ? -5 : 4, sy = shift ? 3 : -2;
        shifted<<<grid, block>>>(d_out, W, H, sx, sy);
        cudaMemcpy(out, d_out, W * H * sizeof(float), cudaMemcpyDeviceToHost);
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                want[y * W + x] = texel(x + sx, y + sy, 1);
        bad += check(shift ? "shift2" : "shift1", out, want, W * H, 0.0f);
    }
    cudaUnbindTexture(border_tex);

    cudaChannelFormatDesc cdesc = cudaCreateChannelDesc<uchar4>();
    size_t offset = 1;
    cudaBindTexture2D(&offset, rgba_tex, d_rgba, cdesc, W, H, pitch);
    lut_tex.normalized = 1;
    lut_tex.addressMode[0] = cudaAddressModeWrap;
    cudaBindTextureToArray(lut_tex, lut_arr);
    luminance<<<grid, block>>>(d_out, W, H);
    cudaMemcpy(out, d_out, W * H * sizeof(float), cudaMemcpyDeviceToHost);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            uchar4 p = rgba[y][x];
            float l = 0.25f * p.x + 0.5f * p.y + 0.125f * p.z + p.w / 256.0f;
            want[y * W + x] = l * lut[(x + y) % LUTN];
        }
    bad += check("luminance", out, want, W * H, 1e-6f);
    if (offset != 0)
        bad++;

    cudaUnbindTexture(img_tex);
    cudaUnbindTexture(rgba_tex);
    cudaFreeArray(img_arr);
    cudaFreeArray(lut_arr);
    cudaFree(d_rgba);
    cudaFree(d_out);
    printf("%s\n", bad ? "FAIL" : "PASS");
    return bad != 0;
}
