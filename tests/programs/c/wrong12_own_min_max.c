/* A C program's own functions named min and max (no library defines them in C): calls reach them, whatever
   their parameter types, and their side effects happen. */
#include <stdio.h>

static int calls;

static const unsigned short *min(const unsigned short *a, const unsigned short *b)
{
    calls++;
    return *b < *a ? b : a;
}

double max(double a, double b, double c)
{
    calls++;
    return a > b ? (a > c ? a : c) : (b > c ? b : c);
}

int main(void)
{
    unsigned short x = 7, y = 3;
    const unsigned short *p = min(&x, &y);
    double m = max(1.5, -2.0, 4.25);
    printf("%d %d %.2f calls %d\n", *p, p == &y, m, calls);
    return 0;
}
