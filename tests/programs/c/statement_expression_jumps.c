/* Error-propagating macros written as GNU statement expressions that return, break or continue, as C projects
   write them (`TRY(x)` returning a negative error code, `NEXT_OR_SKIP(p)` continuing a loop): as a whole
   statement, a local's initializer, the right side of `=` and `+=` on a local, in loops and nested. */
#include <stdio.h>

#define TRY(x) ({ int r_ = (x); if (r_ < 0) return r_; r_; })
#define CHECK(c) ({ if (!(c)) { printf("check failed: %s\n", #c); return -100; } })
#define VALUE_OR_SKIP(p) ({ if (!(p)) continue; (p)->value; })
#define STOP_AT(v, limit) ({ if ((v) > (limit)) break; (v) * 2; })

struct item { int value; struct item *next; };
static int calls;

static int read_field(int k) { calls++; return k == 3 ? -7 : k > 20 ? k * 50 : k * 2; }

static int parse_record(int n) {
  int total = 0, i, last;
  for (i = 0; i < n; i++) {
    int got = TRY(read_field(i));
    total += got;
    last = TRY(read_field(i + 10));
    total += last;
  }
  TRY(read_field(n));
  (void)TRY(read_field(n + 1));
  CHECK(total < 1000);
  return total;
}

static int parse_large(int n) {
  int total = 0;
  for (int i = 20; i < 20 + n; i++)
    total += TRY(read_field(i));
  CHECK(total < 1000);
  return total;
}

static long weigh(struct item **slots, int n) {
  long s = 0;
  for (int i = 0; i < n; i++) {
    int v = VALUE_OR_SKIP(slots[i]);
    s += v * (i + 1);
  }
  return s;
}

static int doubled_prefix(const int *v, int n, int limit) {
  int acc = 0, k = 0;
  while (k < n) {
    int d = STOP_AT(v[k], limit);
    acc = acc * 3 + d;
    k++;
  }
  return acc * 100 + k;
}

static double ratio(double a, double b) {
  double q;
  q = ({ if (b == 0) return -1.0; a / b; });
  return q * 2;
}

static int nested(int a, int b) {
  int r = ({ int x = TRY(a - 1); int y = TRY(b - x); x * 10 + y; });
  return r;
}

/* a bounded retry written with a GNU local label: the goto stays inside the statement expression */
#define SPIN_UNTIL(cond, limit) ({ __label__ again_; int tries_ = 0; \
  again_: tries_++; if (!(cond) && tries_ < (limit)) goto again_; tries_; })

static int drain(int *queue, int n) {
  int head = 0;
  int spins = SPIN_UNTIL(queue[head++] == 0 || head == n, 10);
  return spins * 100 + head;
}

/* a forward jump to the labelled value of the expression */
static int clamp_scaled(int n) {
  int r = ({ __label__ done; int v = n * 2; if (n > 3) goto done; v += 100; done: v + 1; });
  return r;
}

int main(void) {
  struct item a = {5, 0}, b = {7, 0};
  struct item *slots[4] = {&a, 0, &b, 0};
  int v[6] = {1, 4, 2, 9, 3, 5};
  int r0 = parse_record(0), r1 = parse_record(1), r2 = parse_record(2), r5 = parse_record(5);
  int l1 = parse_large(1), l30 = parse_large(30);
  printf("%d %d %d %d | %d %d\n", r0, r1, r2, r5, l1, l30);
  printf("%d %ld %g %g\n", calls, weigh(slots, 4), ratio(3, 4), ratio(1, 0));
  printf("%d %d %d\n", doubled_prefix(v, 6, 8), doubled_prefix(v, 6, 100), doubled_prefix(v, 0, 1));
  printf("%d %d %d\n", nested(3, 9), nested(0, 9), nested(5, 2));
  int q1[] = {3, 3, 0, 7}, q2[] = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  printf("%d %d %d\n", drain(q1, 4), drain(q2, 12), drain(q2, 3));
  printf("%d %d\n", clamp_scaled(2), clamp_scaled(9));
  return 0;
}
