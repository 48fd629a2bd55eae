/* Alignment written as C11 _Alignas(type), _Alignas(max_align_t), and aligned(...) through object-like macros and
   integer arithmetic (cache-line padding in allocators and lock-free queues): every object lands on its boundary. */
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
typedef struct { long double x; } wide_t;
#define CACHE_LINE 64

_Alignas(16) int counter;
int _Alignas(double) slot;
static char _Alignas(wide_t) scratch[3];
_Alignas(max_align_t) unsigned char pool[40];
int __attribute__((aligned(CACHE_LINE))) hot;
long __attribute__((aligned(CACHE_LINE * 2))) hotter;
int main(void) {
  _Alignas(32) char local[5];
  int _Alignas(long long) l2 = 3;
  printf("%d %d %d %d %d %d %d %d\n", (int)((uintptr_t)&counter % 16), (int)((uintptr_t)scratch % 16),
         (int)((uintptr_t)pool % 16), (int)((uintptr_t)&hot % 64), (int)((uintptr_t)&hotter % 128),
         (int)((uintptr_t)local % 32), (int)((uintptr_t)&l2 % 8), (int)((uintptr_t)&slot % 8));
  return 0;
}
