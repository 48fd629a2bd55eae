#include <stdio.h>
#include <stdlib.h>
#include <string.h>
typedef struct Tree { int key; char name[12]; struct Tree *left, *right; } Tree;
typedef int (*visit_fn)(Tree *, void *);
static Tree *insert(Tree *t, int key, const char *name) {
  if (!t) {
    t = calloc(1, sizeof *t);
    t->key = key;
    strncpy(t->name, name, sizeof t->name - 1);
    return t;
  }
  if (key < t->key) t->left = insert(t->left, key, name);
  else t->right = insert(t->right, key, name);
  return t;
}
static int walk(Tree *t, visit_fn f, void *ctx) {
  if (!t) return 0;
  return walk(t->left, f, ctx) + f(t, ctx) + walk(t->right, f, ctx);
}
static int print_node(Tree *t, void *ctx) { int *depth = ctx; (*depth)++; printf("%d:%s ", t->key, t->name); return 1; }
static int sum_keys(Tree *t, void *ctx) { long *s = ctx; *s += t->key; return 0; }
static visit_fn pick(int which) { return which ? print_node : sum_keys; }
static void destroy(Tree *t) { if (t) { destroy(t->left); destroy(t->right); free(t); } }
typedef struct { int n; int cap; int *data; } Vec;
static void push(Vec *v, int x) {
  if (v->n == v->cap) { v->cap = v->cap ? 2 * v->cap : 4; v->data = realloc(v->data, v->cap * sizeof *v->data); }
  v->data[v->n++] = x;
}
int main(void) {
  Tree *root = NULL;
  const char *names[] = {"m", "c", "x", "a", "e", "q", "z"};
  int keys[] = {50, 20, 80, 10, 30, 70, 90};
  for (int i = 0; i < 7; i++) root = insert(root, keys[i], names[i]);
  int count = 0;
  int visited = walk(root, pick(1), &count);
  long s = 0;
  walk(root, pick(0), &s);
  printf("\n%d %d %ld %s\n", visited, count, s, root->left->right->name);
  destroy(root);
  Vec v = {0, 0, NULL};
  for (int i = 0; i < 37; i++) push(&v, i * i);
  long t = 0;
  for (int i = 0; i < v.n; i++) t += v.data[i];
  printf("%d %d %ld\n", v.n, v.cap, t);
  free(v.data);
  return 0;
}
