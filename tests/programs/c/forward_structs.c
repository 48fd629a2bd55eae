/* Structs and enums declared before they are defined: `struct S;`, `typedef struct S S;`, opaque handles,
   a struct first used as a pointer member of another struct (Lua's lua_State / CallInfo), unions. */
#include <stdio.h>
#include <stdlib.h>

struct State;
typedef struct State State;
typedef struct CallInfo CallInfo;        /* typedef of a tag never declared before */
typedef union Value Value;
struct Handle;                           /* opaque: only pointers to it cross the API below */
typedef struct Handle *handle_t;
enum Color;
typedef enum Color Color;

struct Node { struct Node *next; State *owner; int key; };

struct CallInfo {
  CallInfo *previous, *next;
  State *L;
  int nresults;
  union { struct { int savedpc; short status; } l; double d; } u;
};

union Value { void *p; long long i; double n; struct Node *gc; };

struct State {
  CallInfo *ci;          /* a pointer member to a struct defined above through its typedef */
  CallInfo base_ci;
  Value top[4];
  struct Node *list;
  unsigned char status;
  struct Global *g;      /* first mention of struct Global: a pointer member */
};

enum Color { RED = 1, GREEN = 2, BLUE = -3 };
struct Global { State *mainthread; int total; Color c; };

handle_t handle_new(int v);
int handle_get(handle_t h);
void handle_free(handle_t h);

static int depth(const State *L) {
  int n = 0;
  for (const CallInfo *ci = L->ci; ci != NULL; ci = ci->previous) n++;
  return n;
}

static CallInfo *push(State *L, int nres) {
  CallInfo *ci = malloc(sizeof *ci);
  ci->previous = L->ci; ci->next = NULL; ci->L = L; ci->nresults = nres;
  ci->u.l.savedpc = nres * 10; ci->u.l.status = (short)-nres;
  L->ci->next = ci; L->ci = ci;
  return ci;
}

int main(void) {
  struct Global g = {0, 0, BLUE};
  State st = {0};
  State *L = &st;
  L->g = &g; g.mainthread = L;
  L->ci = &L->base_ci; L->base_ci.L = L; L->base_ci.u.d = 2.5;
  for (int i = 1; i <= 3; i++) push(L, i);
  printf("depth %d, top nresults %d savedpc %d status %d, base d %.2f\n", depth(L), L->ci->nresults,
         L->ci->u.l.savedpc, L->ci->u.l.status, L->base_ci.u.d);
  L->top[0].n = 1.5; L->top[1].i = -7; L->top[2].p = L; L->top[3].gc = NULL;
  printf("values %.1f %lld %d %d\n", L->top[0].n, L->top[1].i, L->top[2].p == (void *)L, L->top[3].gc == NULL);
  for (int k = 0; k < 3; k++) {
    struct Node *n = malloc(sizeof *n);
    n->next = L->list; n->owner = L; n->key = k * k; L->list = n;
  }
  int sum = 0;
  for (struct Node *n = L->list; n; n = n->next) sum += n->key + (n->owner == L);
  printf("list %d, global %d mainthread %d color %d size %zu %zu %zu\n", sum, L->g->c,
         L->g->mainthread == L, (int)g.c, sizeof(State), sizeof(CallInfo), sizeof(Color));
  while (L->ci != &L->base_ci) { CallInfo *p = L->ci->previous; free(L->ci); L->ci = p; }
  while (L->list) { struct Node *n = L->list->next; free(L->list); L->list = n; }
  handle_t h = handle_new(41);
  printf("handle %d\n", handle_get(h));
  handle_free(h);
  return 0;
}

struct Handle { int value; char tag[3]; };   /* defined after its uses through pointers */
handle_t handle_new(int v) { handle_t h = malloc(sizeof *h); h->value = v; h->tag[0] = 'h'; return h; }
int handle_get(handle_t h) { return h->value + (h->tag[0] == 'h'); }
void handle_free(handle_t h) { free(h); }
