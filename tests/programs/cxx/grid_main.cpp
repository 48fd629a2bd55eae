#include <cstdio>
#include <cstdlib>
#include "grid.h"

int main() {
  Grid g(5, 4);
  for (int y = 0; y < g.h; y++)
    for (int x = 0; x < g.w; x++) g.at(x, y) = (x * 3 + y * 7) % 5;
  g.smooth(2);
  printf("%d %.6f %.6f %d %d\n", g.size(), g.total(), weighted(g, 0.5), grid_version(), Grid::created);
  free(g.cells);
  return 0;
}
