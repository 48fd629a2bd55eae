/* -fcommon (code written before gcc 10 made -fno-common the default): a tentative definition in a header
   included by several files is one object, and a file that initializes it gives its value. */
#include <stdio.h>

int counts[4];
double total;
const int limit;
static int hidden;
struct stats { long calls; char tag[6]; } stats;

void record(double x);
int hidden_in_lib(void);

int main(void)
{
    hidden = 5;
    for (int i = 0; i < 4; i++)
        record(i * 1.5);
    printf("counts %d %d %d %d\n", counts[0], counts[1], counts[2], counts[3]);
    printf("total %.2f limit %d hidden %d %d\n", total, limit, hidden, hidden_in_lib());
    printf("stats %ld %s\n", stats.calls, stats.tag);
    return 0;
}
