/* polygeist-py: see cuda_runtime.h */
#include "cuda_runtime.h"
