// A class declared in a header, its member functions defined in grid.cpp (external), one inline.
#pragma once
class Grid {
public:
  int w, h;
  double *cells;
  Grid(int w_, int h_);
  double &at(int x, int y);
  double total() const;
  void smooth(int passes);
  int size() const { return w * h; }
  static int created;
};
double weighted(const Grid &g, double weight);  // C++ linkage
extern "C" int grid_version(void);               // C linkage
