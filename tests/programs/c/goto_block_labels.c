/* gotos into blocks that hold other labels, as bytecode interpreters write them: a label (unused or not) on a
   block that holds another label reached from outside, followed by labels that gotos from outside the block
   also reach; the same in a computed-goto interpreter (generated: each opcode's case ends by fetching and
   dispatching the next one, some jump into a later case's block or out of the loop). */
#include <stdio.h>
static long blocks(const int *code) {
  long acc = 0; int steps = 0, pc = 0;
  for (;;) {
    if (++steps > 200) break;
    if (code[pc++ % 5] == 0) goto ret; else goto L3;
    {
      L2: { acc += 5; ret: acc += 5; continue; }
      L3: { acc += 7; continue; }
    }
  }
  return acc + steps;
}
typedef unsigned Instruction;
#define GET_OPCODE(i) ((i) % 7)
#define GETARG_A(i) (((i) >> 8) & 7)
#define GETARG_B(i) ((int)(((i) >> 16) & 0xff))
#define vmfetch() { if (trap) { trap = hook(trap); } if (++steps > 5000) goto out; if (pc >= code + len) pc = code; i = *(pc++); ra = regs + GETARG_A(i); }
#define vmdispatch(x) goto *disptab[x];
#define vmcase(l) L_##l:
#define vmbreak vmfetch(); vmdispatch(GET_OPCODE(i));
static int hook(int t) { return t - 1; }
long execute(const Instruction *code, int len, long *regs) {
  static const void *const disptab[7] = { &&L_OP_0, &&L_OP_1, &&L_OP_2, &&L_OP_3, &&L_OP_4, &&L_OP_5, &&L_OP_6 };
  const Instruction *pc = code; int trap = 2; long acc = 0; int steps = 0;
 startfunc:
  acc += 1;
 returning:
  acc ^= 3;
  for (;;) {
    Instruction i;
    long *ra;
    vmfetch();
    if (++steps > 5000 || pc >= code + len) goto out;
    vmdispatch(GET_OPCODE(i)) {
      vmcase(OP_0) { *ra += 0 + GETARG_B(i); vmbreak; }
      vmcase(OP_1) { if (*ra & 1) pc += 1; *ra ^= 1; vmbreak; }
      vmcase(OP_2) { acc += *ra; if (acc % 7 == 0) goto l_shared; vmbreak; }
      vmcase(OP_3) { int t = *ra * 3; regs[(t & 7)] += 3; vmbreak; }
      vmcase(OP_4) { if (acc > 1000) { acc -= 1000; goto retlab5; } else { acc += 2; } vmbreak; }
      vmcase(OP_5) { if (acc & 8) { acc += 1; } else { acc += 5; }
       retlab5:
        acc += 5; if (acc > 5000) { acc /= 3; goto returning; } vmbreak; }
      vmcase(OP_6) { *ra += 6 + GETARG_B(i); vmbreak; }
      L_EXTRA: { l_shared: acc = acc * 3 + 1; vmbreak; }
    }
  }
 out:
  return acc + regs[0] + regs[3];
}
int main(void) {
  int code5[5] = {0, 1, 2, 3, 1};
  Instruction code[64];
  long regs[8] = {0};
  for (int k = 0; k < 64; k++) code[k] = (unsigned)(k * 2654435761u);
  printf("%ld %ld\n", blocks(code5), execute(code, 64, regs));
  return 0;
}
