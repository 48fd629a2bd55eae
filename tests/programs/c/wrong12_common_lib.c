#include <string.h>

int counts[4] = { 10, 20, 30, 40 };
double total;
const int limit = 9;
static int hidden;
struct stats { long calls; char tag[6]; } stats;

void record(double x)
{
    total += x;
    counts[stats.calls % 4] += 1;
    stats.calls++;
    strcpy(stats.tag, "lib");
}

int hidden_in_lib(void)
{
    return hidden;
}
