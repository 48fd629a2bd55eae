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
typedef struct { char tag[8]; } slot_t __attribute__((aligned(32)));   /* alignment on the typedef */
typedef int counter_t __attribute__((aligned(16)));
slot_t slot_a; char gap1; slot_t slot_b;
counter_t count_a; char gap2; counter_t count_b;
int __attribute__((aligned(CACHE_LINE))) hot;
long __attribute__((aligned(CACHE_LINE * 2))) hotter;
int main(void) {
  _Alignas(32) char local[5];
  int _Alignas(long long) l2 = 3;
  slot_t ls; char g3; counter_t lc; char g4; counter_t lc2;
  printf("%d %d %d %d %d %d %d\n", (int)((uintptr_t)&slot_a % 32), (int)((uintptr_t)&slot_b % 32),
         (int)((uintptr_t)&count_a % 16), (int)((uintptr_t)&count_b % 16), (int)((uintptr_t)&ls % 32),
         (int)((uintptr_t)&lc % 16), (int)((uintptr_t)&lc2 % 16) + (g3 = gap1) * 0 + (g4 = gap2) * 0);
  printf("%d %d %d %d %d %d %d %d\n", (int)((uintptr_t)&counter % 16), (int)((uintptr_t)scratch % 16),
         (int)((uintptr_t)pool % 16), (int)((uintptr_t)&hot % 64), (int)((uintptr_t)&hotter % 128),
         (int)((uintptr_t)local % 32), (int)((uintptr_t)&l2 % 8), (int)((uintptr_t)&slot % 8));
  return 0;
}
