#include <stdio.h>
enum E { A, B, C, D };
enum S { M = -2, N = 1 };
struct F { enum E e : 2; enum S s : 2; };
int main(void) { struct F f; f.e = D; f.s = M; printf("%d %d\n", (int)f.e, (int)f.s); return 0; }
