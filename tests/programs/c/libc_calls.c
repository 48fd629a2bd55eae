#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef int (*binop)(int, int);
static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
int mul(int a, int b) { return a * b; }
static binop table[3] = {add, sub, mul};
struct Ops { const char *name; binop f; };
static struct Ops ops[] = {{"add", add}, {"mul", mul}};
int apply(binop f, int x, int y) { return f(x, y); }
int cmp_int(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
struct Rec { int key; double w; };
int cmp_rec(const void *a, const void *b) {
  const struct Rec *ra = a, *rb = b;
  return ra->key - rb->key;
}
int main(int argc, char **argv) {
  struct Rec *rs = malloc(4 * sizeof(struct Rec));
  for (int i = 0; i < 4; i++) { rs[i].key = (i * 7) % 5; rs[i].w = i * 1.25; }
  qsort(rs, 4, sizeof *rs, cmp_rec);
  for (int i = 0; i < 4; i++) printf("%d:%g ", rs[i].key, rs[i].w);
  printf("\n");
  rs = realloc(rs, 8 * sizeof(struct Rec));
  rs[7].key = 77;
  printf("%d\n", rs[7].key);
  free(rs);
  int *z = calloc(10, sizeof(int));
  printf("%d\n", z[9]);
  memset(z, 0xff, 3 * sizeof(int));
  printf("%d %d\n", z[2], z[3]);
  int w[10]; memcpy(w, z, sizeof w); memmove(w + 1, w, 4 * sizeof(int));
  printf("%d %d %d\n", w[0], w[3], w[4]);
  printf("%d\n", memcmp(w, z, 4) == 0);
  free(z);
  const char *s = "hello world";
  printf("%d %d %s %s\n", strcmp("a", "b") < 0, strncmp(s, "help", 3), strchr(s, 'w'), strstr(s, "lo w"));
  char buf[64];
  strncpy(buf, s, 5); buf[5] = 0;
  printf("%s %d %g %ld %g\n", buf, atoi("42"), atof("2.5"), strtol("ff", NULL, 16), strtod("1e3", NULL));
  printf("%d %ld\n", abs(-5), labs(-7L));
  sprintf(buf, "%d-%s", 12, "x");
  puts(buf);
  snprintf(buf, 4, "%s", "abcdef");
  puts(buf);
  int a1, a2; double d1;
  sscanf("10 20 3.5", "%d %d %lf", &a1, &a2, &d1);
  printf("%d %d %g\n", a1, a2, d1);
  putchar('Z'); putchar('\n');
  fprintf(stderr, "err\n");
  srand(1); int r1 = rand(); srand(1); printf("%d\n", r1 == rand());
  printf("%d\n", getenv("PGCC_NO_SUCH_VAR") == NULL);
  FILE *fp = fopen(argv[1], "w");
  fprintf(fp, "%d %s\n", 5, "five");
  fwrite("xyz\n", 1, 4, fp);
  fclose(fp);
  fp = fopen(argv[1], "r");
  int k; char word[16];
  fscanf(fp, "%d %15s", &k, word);
  fgets(buf, sizeof buf, fp);
  fgets(buf, sizeof buf, fp);
  printf("%d %s %s", k, word, buf);
  rewind(fp);
  char raw[8] = {0};
  size_t got = fread(raw, 1, 6, fp);
  printf("%zu %c\n", got, raw[2]);
  fclose(fp);
  return 0;
}
