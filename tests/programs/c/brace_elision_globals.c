/* Initializers of global numeric arrays under C's rules: braces elided across rows, a braced first row then
   elided ones, designators into rows and past the end of a positional run, strings for rows of characters. */
#include <stdio.h>

int flat[2][3] = {1, 2, 3, 4, 5, 6};
int mixed[2][2][2] = {{1, 2, 3}, 4, 5};
short rows[3][4] = {{1}, [2] = {7, 8}, [1][3] = 9};
double grid[2][3] = {[0][1] = 1.5, 2.5, [1] = {0.25}, [1][2] = 4};
char words[3][6] = {"ab", "cdef", {'x', 'y'}};
unsigned char bytes[2][2] = {{255}, 256 + 7, 3};
long scalars[3] = {{1}, {2}, 3};

int main(void) {
    printf("%d %d %d %d\n", flat[0][1], flat[1][0], flat[1][2], flat[0][2]);
    printf("%d %d %d %d %d\n", mixed[0][0][1], mixed[0][1][0], mixed[1][0][0], mixed[1][0][1], mixed[1][1][1]);
    printf("%d %d %d %d %d\n", rows[0][0], rows[0][1], rows[2][0], rows[2][1], rows[1][3]);
    printf("%g %g %g %g %g\n", grid[0][1], grid[0][2], grid[1][0], grid[1][1], grid[1][2]);
    printf("%s %s %s %d %d %d\n", words[0], words[1], words[2], bytes[0][0], bytes[0][1], bytes[1][0]);
    printf("%ld %ld %ld\n", scalars[0], scalars[1], scalars[2]);
    return 0;
}
