/* Parameters of function type (a typedef of a function: C adjusts them to pointers), called, compared, passed
   on; memmove on pointer arithmetic over an array parameter. */
#include <stdio.h>
#include <string.h>
typedef int callback(int x, void *dat);
static int apply(callback cb, int v, void *dat) { return cb(v, dat) + (cb != 0); }
static int add_dat(int x, void *dat) { return x + *(int *)dat; }
int main(int argc, char *argv[]) {
    int d = 5, number = 1;
    char *names[4] = {"a", "b", "c", "d"};
    memmove(names + number, names + number + 1, 2 * sizeof(char *));
    memmove(argv + 0, argv + 0, sizeof(char *));
    printf("%d %s %s %s\n", apply(add_dat, 10, &d), names[1], names[2], argv[0] ? "argv" : "none");
    return 0;
}
