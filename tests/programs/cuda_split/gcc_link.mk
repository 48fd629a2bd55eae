# A Makefile in the style of Rodinia's (common/make.config): nvcc from $(CUDA_DIR)/bin for the .cu file, gcc
# for the C file and for the link, with -L$(CUDA_LIB_DIR) -lcuda -lcudart.
CUDA_DIR ?= /usr/local/cuda
CUDA_LIB_DIR := $(CUDA_DIR)/lib64
NVCC := $(CUDA_DIR)/bin/nvcc
CC := gcc
app: layer_main.o layer_cuda.o
	$(CC) -O2 layer_main.o layer_cuda.o -o app -L$(CUDA_LIB_DIR) -lcuda -lcudart -lm
layer_main.o: layer_main.c layer.h
	$(CC) -O2 -c layer_main.c -o $@
layer_cuda.o: layer_cuda.cu layer.h
	$(NVCC) -O3 -I$(CUDA_DIR)/include -c layer_cuda.cu -o $@
