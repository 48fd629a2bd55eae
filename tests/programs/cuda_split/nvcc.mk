# A Makefile written for nvcc (separate compilation with -dc, a device link step, nvcc-only flags).
NVCC ?= nvcc
NVCCFLAGS = -O3 -arch=sm_80 -gencode arch=compute_80,code=sm_80 -std=c++17 -Xcompiler -Wall,-Wextra --use_fast_math -lineinfo -rdc=true
app: kernels_lib.o kernels_main.o link.o
	$(NVCC) -o $@ $^ -lcudart
%.o: %.cu kernels_lib.h
	$(NVCC) $(NVCCFLAGS) -dc $< -o $@
link.o: kernels_lib.o kernels_main.o
	$(NVCC) -arch=sm_80 -dlink $^ -o $@
