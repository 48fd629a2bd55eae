/* Calls through pointers to functions declared without a prototype (`double (*f)()`): arguments promoted as
   gcc passes them (float to double), results of the declared type, pointers in tables. */
#include <stdio.h>
static double half(double x) { return x / 2; }
static int add3(int a, int b, int c) { return a + b + c; }
struct op { const char *name; double (*fn)(); };
int main(void) {
    double (*f)() = half;
    int (*g)() = add3;
    struct op ops[] = {{"half", half}};
    float fl = 3.0f;
    printf("%g %d %g %g\n", f(5.0), g(1, 2, 3), ops[0].fn(9.0), f(fl));
    return 0;
}
