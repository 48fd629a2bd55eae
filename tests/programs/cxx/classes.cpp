// C++ classes in host code: constructors (default, with parameters, member initializer lists, in-class
// member initializers), const and static member functions, `this`, member operators, objects by value,
// new/delete of classes, an empty destructor. Compiled by pgcc and by g++.
#include <cstdio>
#include <cstdlib>
#include <cmath>

struct Vec2 {
  double x = 0, y = 0;
  Vec2() {}
  Vec2(double a, double b) : x(a), y(b) {}
  Vec2 operator+(const Vec2 &o) const { return Vec2(x + o.x, y + o.y); }
  Vec2 operator*(double f) const { return Vec2(x * f, y * f); }
  Vec2 &operator+=(const Vec2 &o) { x += o.x; y += o.y; return *this; }
  double norm() const { return std::sqrt(x * x + y * y); }
};

class Counter {
  int hits = 0;
  int limit;
public:
  explicit Counter(int l) : limit(l) {}
  bool hit() { if (hits < limit) { hits++; return true; } return false; }
  int value() const { return hits; }
  ~Counter() {}
};

class Matrix {
public:
  int rows, cols;
  double *data;
  Counter writes{1000};
  Matrix(int r, int c) : rows(r), cols(c) {
    data = (double *)calloc(r * c, sizeof(double));
  }
  double &at(int i, int j) { writes.hit(); return data[i * cols + j]; }
  double get(int i, int j) const { return data[i * cols + j]; }
  void fill(double base) {
    for (int i = 0; i < rows; i++)
      for (int j = 0; j < cols; j++) at(i, j) = base + i * cols + j;
  }
  double trace() const;
  static Matrix identity(int n) {
    Matrix m(n, n);
    for (int i = 0; i < n; i++) m.at(i, i) = 1.0;
    return m;
  }
  void release() { free(data); data = nullptr; }
};

double Matrix::trace() const {  // defined outside the class
  double t = 0;
  for (int i = 0; i < rows && i < cols; i++) t += get(i, i);
  return t;
}

struct Particle {
  Vec2 pos, vel;
  float mass;
  int id;
  static int next_id;
  Particle(Vec2 p, Vec2 v, float m) : pos(p), vel(v), mass(m), id(0) {}
  void step(double dt) { pos += vel * dt; }
  double energy() const { return 0.5 * mass * (vel.x * vel.x + vel.y * vel.y); }
};

static Vec2 midpoint(Vec2 a, Vec2 b) { return (a + b) * 0.5; }

int main() {
  Vec2 a(3, 4), b;
  Vec2 c = a + Vec2(1, 1);
  c += a;
  Vec2 d = c;
  d = midpoint(a, c);
  printf("vec %.2f %.2f %.3f %.2f %.2f %.2f\n", c.x, c.y, a.norm(), b.x, d.x, d.y);

  Counter k(3);
  int ok = 0;
  for (int i = 0; i < 5; i++) ok += k.hit();
  printf("counter %d %d\n", ok, k.value());

  Matrix m(3, 4);
  m.fill(0.5);
  m.at(2, 1) *= 2;
  Matrix id = Matrix::identity(4);
  printf("matrix %.2f %.2f %.2f %d %d\n", m.get(2, 1), m.trace(), id.trace(), m.writes.value(), id.writes.value());
  m.release();
  id.release();

  Particle *p = new Particle(Vec2(0, 0), Vec2(1, 2), 2.0f);
  Particle q(Vec2(1, 1), Vec2(-1, 0.5), 1.0f);
  for (int s = 0; s < 4; s++) { p->step(0.5); q.step(0.25); }
  printf("particles %.2f %.2f %.2f %.2f %.3f %.3f\n", p->pos.x, p->pos.y, q.pos.x, q.pos.y, p->energy(),
         q.energy());
  delete p;
  return 0;
}
