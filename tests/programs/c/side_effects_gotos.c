/* Two miscompiles found compiling Lua 5.4 (lgc.c's correctgraylist, lparser.c's allocupvalue):
   - `goto` to the second of two labels of one block (`remove: ...; continue; remain: ...; continue;`) skipped it;
   - `&p[i++]` of a struct element evaluated the subscript twice. */
#include <stdio.h>
#include <stdlib.h>

struct N { struct N *next; int v; };

static struct N **correct(struct N **p) {   /* lgc.c's correctgraylist */
  struct N *curr;
  while ((curr = *p) != NULL) {
    struct N **next = &curr->next;
    if (curr->v % 3 == 0)
      goto remove;
    else if (curr->v % 3 == 1) {
      curr->v += 100;
      goto remain;
    }
    else {
      goto remove;
    }
    remove: *p = *next; continue;
    remain: p = next; continue;
  }
  return p;
}

static int labels(int k) {
  int s = 0;
  if (k == 1) goto second;
  if (k == 2) goto third;
  goto first;
  first: s += 1; return s;
  second: s += 100;
  third: s += 1000; return s;
}

typedef struct U { void *name; unsigned char instack, idx, kind; } U;
typedef struct F { U *u; int size; unsigned char n; } F;

static U *alloc(F *fs) {   /* lparser.c's allocupvalue */
  int old = fs->size;
  if (fs->n + 1 > fs->size) {
    fs->size = fs->size ? 2 * fs->size : 4;
    fs->u = realloc(fs->u, fs->size * sizeof(U));
  }
  while (old < fs->size)
    fs->u[old++].name = NULL;
  return &fs->u[fs->n++];
}

int main(void) {
  struct N n[7]; struct N *head = &n[0];
  for (int i = 0; i < 7; i++) { n[i].v = i; n[i].next = i < 6 ? &n[i + 1] : NULL; }
  struct N **end = correct(&head);
  for (struct N *c = head; c; c = c->next) printf("%d ", c->v);
  printf("| %d\n", (int)(end == &n[4].next));
  printf("labels %d %d %d\n", labels(0), labels(1), labels(2));
  int a = 0, b = 0;
  for (int i = 0; i < 6; i++) {
    int k = i;
    if (k % 3 == 0) goto r;
    if (k % 3 == 1) { a += 10; goto m; }
    goto r;
    r: a += 1; continue;
    m: a += 100; b++; continue;
  }
  printf("loop %d %d\n", a, b);
  F fs = {NULL, 0, 0};
  int x = 0;
  for (int i = 0; i < 6; i++) { U *u = alloc(&fs); u->name = &x; u->idx = (unsigned char)(i * 3); u->kind = 1; }
  printf("alloc %d %d", fs.n, fs.size);
  for (int i = 0; i < fs.size; i++) printf(" %d:%d", fs.u[i].name == &x, fs.u[i].idx);
  printf("\n");
  U arr[8] = {{0}}; U *p = arr; int i = 0;
  U *q1 = &p[i++]; U *q2 = &arr[i++]; unsigned char *q3 = &p[i++].kind; U *q4 = &(p[i++]);
  printf("index %d %d %d %d %d\n", i, (int)(q1 - arr), (int)(q2 - arr), (int)((U *)(q3 - 10) - arr), (int)(q4 - arr));
  free(fs.u);
  return 0;
}
