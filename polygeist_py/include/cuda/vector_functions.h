/* polygeist-py: see pgcc_vector_types.h (included by cuda_runtime.h) */
#include "cuda_runtime.h"
