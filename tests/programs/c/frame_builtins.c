/* GNU frame builtins as an error-recovery parser and a call-site profiler use them:
   __builtin_setjmp/__builtin_longjmp out of a recursive descent, __builtin_return_address to tell call
   sites apart, __builtin_frame_address to see that the stack grows down; a legacy file's own K&R strcmp
   that __builtin_strcmp binds to; constant float-to-int conversions as gcc folds them. */
#include <stdio.h>

static void *recover[5];
static const char *cursor;
static int depth_at_error;

static int strcmp(a, b)
    const char *a, *b;
{
    while (*a && *a == *b)
        a++, b++;
    return (unsigned char)*a - (unsigned char)*b;
}

static void __attribute__((noinline)) fail(int depth) {
    depth_at_error = depth;
    __builtin_longjmp(recover, 1);
}

static long expr(int depth);

static long atom(int depth) {
    if (*cursor == '(') {
        cursor++;
        long v = expr(depth + 1);
        if (*cursor++ != ')')
            fail(depth);
        return v;
    }
    if (*cursor < '0' || *cursor > '9')
        fail(depth);
    long v = 0;
    while (*cursor >= '0' && *cursor <= '9')
        v = v * 10 + (*cursor++ - '0');
    return v;
}

static long expr(int depth) {
    long v = atom(depth);
    while (*cursor == '+' || *cursor == '*') {
        char op = *cursor++;
        long w = atom(depth);
        v = op == '+' ? v + w : v * w;
    }
    return v;
}

static int __attribute__((noinline)) parse(const char *text, long *out) {
    cursor = text;
    if (__builtin_setjmp(recover))
        return 0;
    *out = expr(0);
    return *cursor == 0;
}

static void *sites[8];
static int nsites;

static void __attribute__((noinline)) profile_hit(void) {
    void *site = __builtin_extract_return_addr(__builtin_return_address(0));
    for (int i = 0; i < nsites; i++)
        if (sites[i] == site)
            return;
    sites[nsites++] = site;
}

static int helper_runs;

static void __attribute__((noinline)) through_helper(void) {
    profile_hit();  /* one site, however often the helper runs (not a tail call: work follows) */
    helper_runs++;
}

static int __attribute__((noinline)) callee_frame_below(char *caller_frame) {
    char *mine = __builtin_frame_address(0);
    return mine < caller_frame;
}

static volatile int last_check;

static int __attribute__((noinline)) caller(void) {
    int below = callee_frame_below(__builtin_frame_address(0));
    last_check = below;  /* (keeps this frame alive during the call: no tail call) */
    return below;
}

int main(void) {
    const char *inputs[] = {"1+2*3", "(4+5)*(2+(1*7))", "((3)", "2+x", "((((9))))+1"};
    for (int i = 0; i < 5; i++) {
        long v = -1;
        int ok = parse(inputs[i], &v);
        printf("%-18s ok=%d", inputs[i], ok);
        if (ok)
            printf(" value=%ld\n", v);
        else
            printf(" error at depth %d, offset %d\n", depth_at_error, (int)(cursor - inputs[i]));
    }
    profile_hit();
    profile_hit();
    through_helper();
    through_helper();
    printf("distinct call sites: %d (helper ran %d times)\n", nsites, helper_runs);
    printf("frame below caller: %d\n", caller());
    printf("strcmp: %d %d %d\n", __builtin_strcmp("abc", "abd") < 0, strcmp("b", "a") > 0,
           __builtin_strcmp(inputs[0], "1+2*3") == 0);
    printf("folded: %d %d %u\n", (int)3e9, (int)-1e12f, (unsigned)-4.0);
    return 0;
}
