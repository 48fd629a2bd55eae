/* Pointers to the rows of variable-length arrays: differences of row pointers (a row's size is known only at run
   time), sizeof of a row of a VLA parameter, and tables with flexible array members filled by a static
   initializer (GNU). */
#include <stdio.h>
#include <stdlib.h>

struct table {
    int count;
    int values[];
};

static struct table primes = { 5, { 2, 3, 5, 7, 11 } };
static struct table none = { 0 };

struct message {
    unsigned short length;
    char text[];
};

struct message greeting = { 5, "hello" };

/* Index of the first row of `grid` whose sum exceeds `limit`, found by walking a row pointer. */
static long first_heavy_row(int rows, int cols, double grid[rows][cols], double limit)
{
    for (double (*row)[cols] = grid; row < grid + rows; row++) {
        double sum = 0;
        for (int j = 0; j < cols; j++)
            sum += (*row)[j];
        if (sum > limit)
            return row - grid;
    }
    return -1;
}

static size_t row_bytes(int rows, int cols, float m[rows][cols])
{
    return sizeof m[0] + sizeof(*m) * 1000;
}

/* Slices of a stack of `planes` planes, each rows x cols: the distance between two plane pointers, and one
   value read through a pointer moved by a plane (a view of a view: its offset is computed at run time). */
static void planes_report(int planes, int rows, int cols)
{
    int stack[planes][rows][cols];
    for (int p = 0; p < planes; p++)
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++)
                stack[p][i][j] = p * 100 + i * 10 + j;
    int (*top)[rows][cols] = stack + planes - 1, (*second)[rows][cols] = &stack[1];
    printf("planes apart %td %td, plane %zu row %zu\n", top - second, second - stack, sizeof *top, sizeof **top);
    printf("reads %d %d %d\n", top[-2][1][1], (*second)[rows - 1][cols - 1], second[1][0][0]);
    int (*line)[cols] = stack[2];
    line += rows - 1;
    printf("line %d %td\n", line[0][cols - 1], line - stack[2]);
}

int main(int argc, char **argv)
{
    int rows = 6 + argc, cols = 3 + argc;
    double grid[rows][cols];
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            grid[i][j] = i * 1.5 - j;
    printf("heavy row %ld\n", first_heavy_row(rows, cols, grid, 20.0));

    double (*last)[cols] = grid + rows - 1;
    double (*mid)[cols] = &grid[rows / 2];
    printf("distances %td %td %td\n", last - grid, mid - last, last - mid);
    printf("row %zu whole %zu\n", sizeof *last, sizeof grid);

    float m[rows][cols + 2];
    printf("row bytes %zu\n", row_bytes(rows, cols + 2, m));

    int total = 0;
    for (int i = 0; i < primes.count; i++)
        total += primes.values[i];
    printf("primes %d total %d last %d none %d\n", primes.count, total, primes.values[primes.count - 1], none.count);
    printf("greeting %u %s\n", greeting.length, greeting.text);
    planes_report(4 + argc, 3, 2 + argc);
    return 0;
}
