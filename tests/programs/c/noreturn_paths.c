/* C11 `_Noreturn` functions on the error paths of a utility, as gnulib's die helpers write them: a fatal-error
   function that exits with a status, one that longjmps back to a recovery point, and callers whose code after the
   call is unreachable. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>

static jmp_buf recover;
static int failures;

_Noreturn static void bail_out(const char *what, int code) {
    failures++;
    printf("bail out: %s (%d)\n", what, code);
    longjmp(recover, code);
}

noreturn void fatal(int status) {
    printf("fatal, %d failures\n", failures);
    fflush(stdout);
    exit(status);
}

static int parse_digit(char ch) {
    if (ch < '0' || ch > '9')
        bail_out("not a digit", ch);
    return ch - '0';
}

static long parse_number(const char *s) {
    long v = 0;
    for (; *s; s++)
        v = v * 10 + parse_digit(*s);
    return v;
}

int main(int argc, char **argv) {
    const char *inputs[] = {"123", "4x5", "987654", "", "12-3"};
    long total = 0;
    for (int i = 0; i < 5; i++) {
        int code = setjmp(recover);
        if (code == 0)
            total += parse_number(inputs[i]);
        else
            printf("input %d rejected by '%c'\n", i, code);
    }
    printf("total %ld, %d failures\n", total, failures);
    if (argc > 3)
        fatal(failures - 2);  /* (the two rejected inputs are expected: status 0) */
    return 0;
}
