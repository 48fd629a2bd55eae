#include <cstdlib>
#include "grid.h"

int Grid::created = 0;

Grid::Grid(int w_, int h_) : w(w_), h(h_) {
  cells = (double *)calloc(w * h, sizeof(double));
  created++;
}

double &Grid::at(int x, int y) { return cells[y * w + x]; }

double Grid::total() const {
  double t = 0;
  for (int i = 0; i < size(); i++) t += cells[i];
  return t;
}

void Grid::smooth(int passes) {
  for (int p = 0; p < passes; p++)
    for (int i = 1; i + 1 < size(); i++) cells[i] = 0.25 * cells[i - 1] + 0.5 * cells[i] + 0.25 * cells[i + 1];
}

double weighted(const Grid &g, double weight) { return g.total() * weight; }

extern "C" int grid_version(void) { return 3; }
