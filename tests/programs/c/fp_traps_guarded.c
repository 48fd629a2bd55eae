/* A program that enables floating-point traps (as a validation suite does to catch a division by zero) and
   guards its divisions with conditions: only a guarded division that runs may trap, as with gcc's build. */
#define _GNU_SOURCE
#include <fenv.h>
#include <stdio.h>

struct sample { double sum, weight; int count; };

static double mean(const struct sample *s) { return s->weight != 0 ? s->sum / s->weight : 0; }
static double rate(double done, double total) { return total > 0 ? done / total * 100.0 : -1.0; }
static float inverse(float x) { return x == 0.0f ? 0.0f : 1.0f / x; }

int main(int argc, char **argv) {
  (void)argv;
  feenableexcept(FE_DIVBYZERO | FE_INVALID);
  struct sample empty = {0.0, 0.0, 0}, full = {12.0, 4.0, 3};
  volatile double zero = 0.0;
  printf("%.3f %.3f\n", mean(&empty), mean(&full));
  printf("%.3f %.3f\n", rate(3, zero), rate(3, 8));
  printf("%.3f %.3f\n", inverse((float)zero), inverse(0.25f));
  double acc = 0;
  for (int i = 0; i < argc + 4; i++)
    acc += (zero != 0) ? 1.0 / zero : 0.5 * i;
  printf("%.3f\n", acc);
  return 0;
}
