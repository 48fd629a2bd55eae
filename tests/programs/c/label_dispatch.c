/* Blocks with many labels at their top level, as scanner generators and hand-written state machines write them:
   forward and backward gotos, chains of labels, gotos out of nested loops and switches, a goto in the statements
   before the first label, break and continue of an enclosing loop from inside the labelled block, returns,
   and an empty last label. */
#include <stdio.h>
#include <string.h>

/* a token scanner: identifiers, numbers, operators, blanks, comments */
static int scan(const char *s, int *kinds) {
  int n = 0;
  const char *p = s;
  unsigned char ch;
start:
  ch = (unsigned char)*p;
  if (ch == 0) goto done;
  if (ch == ' ' || ch == '\t') goto blank;
  if (ch >= '0' && ch <= '9') goto number;
  if (ch == '/' && p[1] == '*') goto comment;
  if ((ch | 32) >= 'a' && (ch | 32) <= 'z') goto ident;
  goto op;
blank:
  p++;
  goto start;
number:
  while (*p >= '0' && *p <= '9') p++;
  if (*p == '.') { p++; goto fraction; }
  kinds[n++] = 1;
  goto start;
fraction:
  while (*p >= '0' && *p <= '9') p++;
  kinds[n++] = 2;
  goto start;
comment:
  p += 2;
  for (;;) {
    if (*p == 0) goto unterminated;
    if (p[0] == '*' && p[1] == '/') { p += 2; goto start; }
    p++;
  }
ident:
  while ((*p | 32) >= 'a' && (*p | 32) <= 'z') p++;
  kinds[n++] = 3;
  goto start;
op:
  switch (*p++) {
  case '+': case '-': kinds[n++] = 4; goto start;
  case '(': case ')': kinds[n++] = 5; goto start;
  default: kinds[n++] = 9; goto start;
  }
unterminated:
  kinds[n++] = -1;
done:
  return n;
}

/* a loop whose body is a labelled block: continue and break of the loop from inside it */
static long machine(const int *in, int len) {
  long acc = 0;
  int state = 0;
  for (int i = 0; i < len; i++) {
    int v = in[i];
    if (v < 0) goto neg;
    if (v == 0) goto zero;
    goto pos;
  zero:
    if (state > 3) break;
    state++;
    continue;
  neg:
    acc -= v * (state + 1);
  neg2:
  neg3:
    if (acc > 1000) goto big;
    continue;
  pos:
    acc += v;
    if (v % 7 == 0) goto neg2;
    if (v % 5 == 0) { state = 0; goto zero; }
    continue;
  big:
    acc /= 3;
    if (acc % 2) goto neg3;
  end:;
  }
  return acc * 10 + state;
}

/* gotos back into the block from a nested loop, counted */
static int collatz_steps(unsigned x) {
  int steps = 0;
  if (x == 0) goto zero;
top:
  if (x == 1) goto one;
  if (x & 1) goto odd;
even:
  x /= 2;
  steps++;
  goto top;
odd:
  x = 3 * x + 1;
  steps++;
  for (int k = 0; k < 3; k++)
    if (!(x & 1)) goto even;
  goto top;
one:
  return steps;
zero:
  return -1;
}

int main(void) {
  int kinds[64];
  const char *texts[] = {"x1 = 42 + (y - 3.25) /* note */ * z", "abc/* open", "  12.5.5 ++", ""};
  for (int t = 0; t < 4; t++) {
    int n = scan(texts[t], kinds);
    printf("%d:", n);
    for (int i = 0; i < n; i++) printf(" %d", kinds[i]);
    printf("\n");
  }
  int in[40];
  for (int i = 0; i < 40; i++) in[i] = (i * 37 % 23) - 6;
  printf("%ld %ld\n", machine(in, 40), machine(in + 5, 20));
  long total = 0;
  for (unsigned x = 0; x < 200; x++) total += collatz_steps(x) * (x % 5 + 1);
  printf("%ld\n", total);
  return 0;
}
