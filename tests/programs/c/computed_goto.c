/* GNU labels as values: a threaded-code interpreter with a static dispatch table of label addresses, a label
   address chosen at run time, label addresses compared, and offsets between labels as some interpreters keep. */
#include <stdio.h>

enum { PUSH, ADD, MUL, DUP, JNZ, DEC, HALT };

static long run(const int *code) {
    static const void *const dispatch[] = {&&op_push, &&op_add, &&op_mul, &&op_dup, &&op_jnz, &&op_dec, &&op_halt};
    long stack[16];
    int sp = 0;
    const int *pc = code;
#define NEXT goto *dispatch[*pc++]
    NEXT;
op_push: stack[sp++] = *pc++; NEXT;
op_add: sp--; stack[sp - 1] += stack[sp]; NEXT;
op_mul: sp--; stack[sp - 1] *= stack[sp]; NEXT;
op_dup: stack[sp] = stack[sp - 1]; sp++; NEXT;
op_dec: stack[sp - 1]--; NEXT;
op_jnz: if (stack[sp - 1]) { pc = code + *pc; NEXT; } pc++; NEXT;
op_halt: return stack[sp - 1] * 1000 + sp;
#undef NEXT
}

static int sign_word(int x) {
    void *where = x > 0 ? &&positive : x < 0 ? &&negative : &&zero;
    int r = 0;
    goto *where;
negative: r -= 1;
positive: r += 10; goto done;
zero: r = 100;
done:
    return r + (where == &&positive) * 1000;
}

static int by_offset(int k) {
    static const int offsets[] = {&&a - &&a, &&b - &&a, &&c - &&a};
    int r = 0;
    goto *(&&a + offsets[k]);
a: r += 1;
b: r += 20;
c: r += 300;
    return r;
}

int main(void) {
    /* a counted loop in the interpreter (DUP/JNZ/ADD) */
    const int fact[] = {PUSH, 1, PUSH, 5, DUP, JNZ, 8, HALT, /* 8: */ DUP, PUSH, 0, ADD, PUSH, -1, ADD, DUP,
                        JNZ, 19, HALT, /* 19 */ HALT};
    const int arith[] = {PUSH, 6, PUSH, 7, MUL, PUSH, 8, ADD, HALT};
    printf("%ld %ld\n", run(arith), run(fact));
    printf("%d %d %d\n", sign_word(5), sign_word(-5), sign_word(0));
    printf("%d %d %d\n", by_offset(0), by_offset(1), by_offset(2));
    return 0;
}
