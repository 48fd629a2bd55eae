/* case labels inside statements of the switch body: a resumable decoder's states inside a loop and an if (the
   bzip2 style), Duff's device; and a goto from outside into a case (an error handler shared with the switch). */
#include <stdio.h>
enum { S_START, S_BITS, S_MORE, S_DONE };
struct st { int state, i, acc, avail; };
/* a resumable decoder: returns 0 when it needs more input, 1 when done (bzip2-style state machine) */
static int step(struct st *s) {
    switch (s->state) {
    case S_START:
        s->acc = 0;
        for (s->i = 0; s->i < 4; s->i++) {
    case S_BITS:
            s->state = S_BITS;
            if (s->avail == 0) return 0;
            s->avail--;
            s->acc = s->acc * 3 + s->i;
        }
        if (s->acc > 10) {
    case S_MORE:
            s->state = S_MORE;
            if (s->avail == 0) return 0;
            s->avail--;
            s->acc += 100;
        }
        s->state = S_DONE;
    default:
        return 1;
    }
}
static void duff(int *to, const int *from, int count) {
    int n = (count + 3) / 4;
    switch (count % 4) {
    case 0: do { *to++ = *from++;
    case 3:      *to++ = *from++;
    case 2:      *to++ = *from++;
    case 1:      *to++ = *from++;
            } while (--n > 0);
    }
}
int main2(void);
int main(void) {
    struct st s = {S_START, 0, 0, 0};
    int calls = 0, feeds[] = {1, 2, 0, 3, 1};
    while (!step(&s)) { s.avail += feeds[calls % 5]; calls++; }
    int src[11], dst[11] = {0};
    for (int i = 0; i < 11; i++) src[i] = i * i;
    duff(dst, src, 11);
    int sum = 0;
    for (int i = 0; i < 11; i++) sum += dst[i];
    printf("%d %d %d %d\n", s.acc, calls, s.state, sum);
    return main2();
}

static int log_[16], n;
static int handle(int ret, int io_failed) {
    if (io_failed) goto errhandler_io;
    switch (ret) {
    case 1:
        log_[n++] = 1;
        return 10;
    case 2:
    errhandler_io:
        log_[n++] = 2;
        break;
    default:
        log_[n++] = 3;
    }
    return 20 + ret;
}
int main2(void) {
    int a = handle(1, 0), b = handle(2, 0), c = handle(5, 0), d = handle(1, 1), e = handle(7, 1);
    printf("%d %d %d %d %d |", a, b, c, d, e);
    for (int i = 0; i < n; i++) printf(" %d", log_[i]);
    printf("\n");
    return 0;
}
