"""The libclang walker: C and CUDA translation units to func/affine/scf/memref/arith/math MLIR."""
