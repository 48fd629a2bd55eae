#pragma once
__global__ void saturate(float *x, float lo, float hi, int n);
void launch_fill(int *x, int start, int n);
