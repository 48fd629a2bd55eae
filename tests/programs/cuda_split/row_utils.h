// Host helpers of kernel_table_rows.cu: the host compiler's code only (std::vector), though the header is the
// program's own and the .cu file's device side reads it too.
#pragma once
#include <cmath>
#include <vector>

inline void fill_rows(std::vector<float> &v, int seed) {
  for (size_t i = 0; i < v.size(); i++) v[i] = (float)((i * 7 + seed) % 13) - 6.0f;
}

// the row_prefix kernel's result for one block: column sums of the block's ROWS x threads tile, as prefix
std::vector<float> row_prefix_cpu(const std::vector<float> &in, int rows, int threads, int block) {
  std::vector<float> sums(rows, 0.0f), out(rows);
  for (int t = 0; t < threads; t++)
    for (int r = 0; r < rows; r++) sums[r] += in[(size_t)block * rows * threads + t * rows + r];
  float acc = 0.0f;
  for (int r = 0; r < rows; r++) out[r] = acc += sums[r];
  return out;
}
