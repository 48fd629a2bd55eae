/* C bools in memory: one byte each (heap, stack and global arrays, address-taken locals, struct fields),
 * converted to 0/1 when stored, including from initializers that are not 0 or 1. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool table[5] = {2, 0, 5, 1};
bool flag = 4;
struct cell { bool alive; int age; };

static int count(const bool *m, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += m[i];
    return s;
}

int main(void)
{
    bool *mask = malloc(12);
    for (int i = 0; i < 12; i++)
        mask[i] = i % 3 == 0;
    bool local[4] = {1, 0, 7};
    local[3] = mask[3] && !mask[4];
    bool seen = 9;
    bool *p = &seen;
    *p = *p && count(mask, 12) > 3;
    struct cell c = {3, 4};
    c.alive = c.alive && local[2];
    unsigned char raw[12];
    memcpy(raw, mask, 12);
    int bytes = 0;
    for (int i = 0; i < 12; i++)
        bytes = bytes * 3 + raw[i];
    printf("%d %d %d %d %d\n", count(mask, 12), count(local, 4), count(table, 5), flag, seen);
    printf("%d %d %d %zu\n", c.alive, c.age, bytes, sizeof(bool[7]));
    free(mask);
    return 0;
}
