/* A tokenizer's tables and its parse step: a static table whose names point into string literals past a prefix
   (`&"TK_NAME"[3]`, made by a stringizing macro), and a goto from before a switch to a label under stacked case
   labels (`case A: case B: label:`), with a backward goto that retries; the name hash is chosen by a function
   that returns a function pointer, declared without a typedef. */
#include <stdio.h>

enum tok { TK_ALT, TK_EOT, TK_OPEN, TK_CLOSE, TK_CHAR, TK_ANY, TK_COUNT };

#define STRINGIFY(x) #x
#define NAMED(x) { x, &STRINGIFY(TK_ ## x)[3], sizeof(STRINGIFY(x)) - 1 }

static const struct { int code; const char *name; int len; } names[] = {
    NAMED(TK_ALT), NAMED(TK_EOT), NAMED(TK_OPEN), NAMED(TK_CLOSE), NAMED(TK_CHAR), NAMED(TK_ANY),
};
static const char *const short_names[] = { &"alt|"[0], &"<eot>"[1], &"("[0], &")"[0] };

static int hash_string(const void *key, int n) {
    unsigned h = 0;
    const unsigned char *s = key;
    while (n-- > 0 && *s) h = (h << 3) ^ (h >> 28) ^ *s++;
    return (int)(h & 0x7fffffff);
}

static int hash_binary(const void *key, int n) {
    unsigned h = 2166136261u;
    for (const unsigned char *s = key; n-- > 0; s++) h = (h ^ *s) * 16777619u;
    return (int)(h >> 1);
}

static int (*hash_function(int key_class))(const void *, int) {
    if (key_class == 1)
        return &hash_string;
    return hash_binary;
}

static int parse_one(enum tok *toks, int *pos, int term, int *node) {
    int depth;
    enum tok t;
 retry:
    depth = 0;
    t = toks[*pos];
    if ((int)t == term)
        goto empty;
    switch (t) {
    case TK_ALT:
    case TK_EOT:
    empty:
        *node = 1000 + (int)t;
        return (int)t;
    case TK_OPEN:
        (*pos)++;
        depth++;
        if (toks[*pos] == TK_CLOSE) { (*pos)++; goto retry; }
        *node = depth;
        break;
    case TK_ANY:
        *node = -1;
        break;
    default:
        *node = 10 * (int)t + depth;
        (*pos)++;
        break;
    }
    return -1;
}

int main(void) {
    for (unsigned i = 0; i < sizeof names / sizeof *names; i++)
        printf("%d %s %d\n", names[i].code, names[i].name, names[i].len);
    for (unsigned i = 0; i < sizeof short_names / sizeof *short_names; i++)
        printf("[%s]", short_names[i]);
    printf("\n");
    for (int cls = 0; cls < 3; cls++) {
        int (*hash)(const void *, int) = hash_function(cls);
        for (unsigned i = 0; i < sizeof names / sizeof *names; i++)
            printf("%d ", (*hash)(names[i].name, names[i].len) & 1023);
        printf("\n");
    }
    enum tok toks[] = {TK_CHAR, TK_OPEN, TK_CLOSE, TK_CHAR, TK_OPEN, TK_ANY, TK_CLOSE, TK_ALT, TK_CHAR, TK_EOT};
    for (int term = TK_ALT; term <= TK_CHAR; term++) {
        int pos = 0, node = 0, r = 0, steps = 0;
        while (pos < 10 && steps++ < 12) {
            r = parse_one(toks, &pos, term, &node);
            printf("%d:%d/%d ", r, node, pos);
            if (r >= 0) pos++;
        }
        printf("\n");
    }
    return 0;
}
