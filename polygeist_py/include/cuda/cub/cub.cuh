/* polygeist-py: the part of CUB that pgcc provides, cub::BlockReduce (cub/block/block_reduce.cuh). Any other
   CUB name (cub::DeviceRadixSort, cub::BlockScan, ...) is the error "CUDA library not supported: cub::NAME";
   another CUB header, "CUDA library not supported: cub". */
#ifndef PGCC_CUB_CUH
#define PGCC_CUB_CUH
#include "block/block_reduce.cuh"
#endif
