// Blending boxes into an image of float3 pixels, one launch per box, as detection overlays do: the kernel
// takes two pointers, six ints and a float4 colour by value (the ints use up the integer argument registers;
// the float4 still goes in two XMM registers, in the host compiler's call of the kernel's stub).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Box { int left, top, width, height; };

template <typename T>
__global__ void blend_box(const T *__restrict__ in, T *__restrict__ out, int width, int height, int x0, int y0,
                          int bw, int bh, const float4 color) {
  const int bx = blockIdx.x * blockDim.x + threadIdx.x;
  const int by = blockIdx.y * blockDim.y + threadIdx.y;
  if (bx >= bw || by >= bh) return;
  const int x = bx + x0, y = by + y0;
  if (x >= width || y >= height) return;
  T px = in[y * width + x];
  const float alpha = color.w / 255.0f, keep = 1.0f - alpha;
  px.x = alpha * color.x + keep * px.x;
  px.y = alpha * color.y + keep * px.y;
  px.z = alpha * color.z + keep * px.z;
  out[y * width + x] = px;
}

int main() {
  const int width = 96, height = 80, nboxes = 40;
  std::vector<float3> img(width * height), ref, got(width * height);
  srand(11);
  for (auto &p : img) p = make_float3(rand() % 256, rand() % 256, rand() % 256);
  ref = img;
  std::vector<Box> boxes(nboxes);
  for (auto &b : boxes) b = {rand() % (width - 8), rand() % (height - 8), 8 + rand() % 40, 8 + rand() % 40};
  const float4 color = make_float4(255, 204, 203, 60);

  float3 *d_in, *d_out;
  cudaMalloc(&d_in, img.size() * sizeof(float3));
  cudaMalloc(&d_out, img.size() * sizeof(float3));
  cudaMemcpy(d_in, img.data(), img.size() * sizeof(float3), cudaMemcpyHostToDevice);
  cudaMemcpy(d_out, d_in, img.size() * sizeof(float3), cudaMemcpyDeviceToDevice);
  for (const Box &b : boxes) {
    dim3 block(8, 8), grid((b.width + 7) / 8, (b.height + 7) / 8);
    blend_box<float3><<<grid, block>>>(d_in, d_out, width, height, b.left, b.top, b.width, b.height, color);
  }
  cudaMemcpy(got.data(), d_out, got.size() * sizeof(float3), cudaMemcpyDeviceToHost);

  const float alpha = color.w / 255.0f, keep = 1.0f - alpha;
  for (const Box &b : boxes)  // each box blends the input (not the previous boxes) into its pixels
    for (int y = b.top; y < b.top + b.height && y < height; y++)
      for (int x = b.left; x < b.left + b.width && x < width; x++) {
        const float3 p = img[y * width + x];
        ref[y * width + x] = make_float3(alpha * color.x + keep * p.x, alpha * color.y + keep * p.y,
                                         alpha * color.z + keep * p.z);
      }
  int bad = 0;
  for (int i = 0; i < width * height; i++)
    if (std::fabs(got[i].x - ref[i].x) > 1e-3f || std::fabs(got[i].y - ref[i].y) > 1e-3f ||
        std::fabs(got[i].z - ref[i].z) > 1e-3f) {
      if (bad++ < 3) printf("pixel %d: %f %f %f, expected %f %f %f\n", i, got[i].x, got[i].y, got[i].z,
                            ref[i].x, ref[i].y, ref[i].z);
    }
  cudaFree(d_in);
  cudaFree(d_out);
  printf("%s\n", bad ? "FAIL" : "PASS");
  return bad != 0;
}
