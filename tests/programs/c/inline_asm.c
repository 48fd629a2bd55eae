/* GNU extended asm as x86-64 C code writes it: cpuid behind a macro, in-out operands, named operands and
   operand modifiers, matching constraints, memory operands, SSE registers, `%%` registers, memory clobbers, asm in a loop
   that updates a variable, asm without outputs, and file-scope asm. */
#include <stdint.h>
#include <stdio.h>

/* file-scope asm: a symbol defined by the assembler */
__asm__(".section .rodata\n\t.globl asm_answer\n\t.p2align 2\nasm_answer:\n\t.long 42\n\t.text");
extern const int asm_answer;

#define CPUID(leaf, a, b, c, d) \
  __asm__ __volatile__("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(leaf), "c"(0))

static uint32_t byte_swap(uint32_t v) {
  __asm__("bswap %0" : "+r"(v));
  return v;
}

static uint64_t rotate_left(uint64_t x, unsigned r) {
  __asm__("rolq %%cl, %[x]" : [x] "+r"(x) : "c"(r));
  return x;
}

static int add_low_bytes(int a, int b) {
  int out;
  __asm__("movl %k1, %k0\n\taddb %b2, %b0" : "=&r"(out) : "r"(a), "q"(b));
  return out;
}

static long twice_plus(long a, long b) {
  long r;
  __asm__("leaq (%1,%1), %0\n\taddq %2, %0" : "=&r"(r) : "r"(a), "r"(b) : "cc");
  return r;
}

/* a raw system call (lzo's clock): the kernel overwrites rcx and r11, which the asm does not list */
static long sys_getpid(void) {
  long r = 39;
  __asm__ __volatile__("syscall" : "=a"(r) : "0"(r));
  return r;
}

struct pair { long lo, hi; };

static void fill_pair(struct pair *p, long v) {
  p->hi = ~v;
  __asm__("movq %1, %0" : "=m"(*p) : "r"(v));  /* (writes the first member: the struct's bytes are the operand) */
}

static double sse_add(double a, double b) {
  __asm__("addsd %1, %0" : "=x"(a) : "x"(b), "0"(a));
  return a;
}

struct counter { long pad; int value; };

static int fetch_add(struct counter *c, int d) {
  __asm__ __volatile__("lock; xaddl %0, %1" : "+r"(d), "+m"(c->value) :: "memory");
  return d;
}

static int ring[4] = {5, 6, 7, 8}, cursor_calls;
static int *next_slot(void) { return &ring[cursor_calls++ & 3]; }  /* an output lvalue with a side effect */

int main(void) {
  uint32_t a, b, c, d;
  CPUID(0, a, b, c, d);
  char vendor[13];
  for (int i = 0; i < 4; i++) {
    vendor[i] = (char)(b >> (8 * i));
    vendor[4 + i] = (char)(d >> (8 * i));
    vendor[8 + i] = (char)(c >> (8 * i));
  }
  vendor[12] = 0;
  printf("%s %d\n", vendor, a > 0);
  printf("%08x %016llx\n", byte_swap(0x11223344u), (unsigned long long)rotate_left(0x8000000000000003ull, 5));
  printf("%d %ld %.3f\n", add_low_bytes(0x1234, 0x21), twice_plus(21, -5), sse_add(1.25, 2.5));
  uint64_t h = 1469598103934665603ull;
  for (int i = 0; i < 10; i++) {
    __asm__("xorq %1, %0\n\timulq %2, %0" : "+r"(h) : "r"((uint64_t)i), "r"(1099511628211ull) : "cc");
    if (h & 1) __asm__ __volatile__("" ::: "memory");
  }
  __asm__ __volatile__("pause");
  struct counter ctr = {0, 10};
  int old = fetch_add(&ctr, 5), local = 3, copy, arr[4] = {1, 2, 3, 4};
  __asm__("incl %0" : "+m"(local));
  __asm__("addl %1, %0" : "+rm"(local) : "g"(2));
  __asm__("movl %1, %0" : "=r"(copy) : "m"(local));
  __asm__("addl $100, %0" : "=m"(arr[2]) : "m"(arr[2]));
  long pid = sys_getpid();
  struct pair pr;
  fill_pair(&pr, 12345);
  printf("%d %d %d %d %d %ld %ld %d\n", old, ctr.value, local, copy, arr[2], pr.lo, pr.hi, pid > 0);
  __asm__("addl $3, %0" : "+r"(*next_slot()));
  __asm__("" : "=r"(*next_slot()) : "0"(40));
  printf("%016llx %d\n", (unsigned long long)h, asm_answer);
  printf("%d %d %d %d %d\n", cursor_calls, ring[0], ring[1], ring[2], ring[3]);
  return 0;
}
