/* Switches without fall-through (each arm ends in break, return or continue), which pgcc lowers to one
   multi-way branch: several labels per arm, default first, in the middle or absent, negative and character
   cases, an arm that breaks early, continue to an enclosing loop, variables assigned in arms. */
#include <stdio.h>

static int grade(int x) {
    int r = 0;
    switch (x) {
    case 1: r = 10; break;
    case 2:
    case 3: r = 20; if (x == 3) break; r++; break;
    case -5: { r = x * 2; break; }
    default: r = -1; break;
    case 7: return 70;
    }
    return r;
}

static int letters(const char *s) {
    int n = 0;
    for (; *s; s++) {
        switch (*s) {
        case 'a': case 'e': case 'i': case 'o': case 'u': n += 1; continue;
        case ' ': n += 100; break;
        default: n += 10000; break;
        }
        n *= 2;
    }
    return n;
}

static int first_default(int x) {
    switch (x) {
    default: return 9;
    case 4: return 4;
    case 5: x++;
    }
    return x;
}

static unsigned char narrow(unsigned char c) {
    switch (c) {
    case 255: return 1;
    case (unsigned char)-2: return 2;
    }
    return 0;
}

int main(void) {
    for (int i = -6; i < 9; i++) printf("%d ", grade(i));
    printf("\n%d %d %d %d %d %d %d %d\n", letters("a cat"), letters("xyz"), first_default(4), first_default(5),
           first_default(0), narrow(255), narrow(254), narrow(3));
    return 0;
}
