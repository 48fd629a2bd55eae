/* volatile as C programs rely on it: a spin-wait on a flag another thread sets, locals modified between setjmp
   and longjmp, volatile globals, arrays, struct members and pointers to volatile (device-register style), and a
   volatile sink that keeps a loop's stores. */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>

static volatile int ready;
static volatile sig_atomic_t signalled;
static int payload;
static jmp_buf env;

struct regs { int control; volatile unsigned status; volatile int data[4]; };

static void *producer(void *arg) {
  (void)arg;
  payload = 42;
  __atomic_thread_fence(__ATOMIC_RELEASE);
  ready = 1;
  return 0;
}

static void on_signal(int sig) { signalled = sig; }

static void thrower(int n) {
  if (n > 2) longjmp(env, n);
}

static unsigned poll_status(volatile struct regs *r, int rounds) {
  unsigned seen = 0;
  for (int i = 0; i < rounds; i++) {
    r->status = r->status + 1;  /* every access happens: a device register's semantics */
    seen += r->status;
    r->data[i % 4] = i;
  }
  return seen;
}

int main(void) {
  pthread_t t;
  pthread_create(&t, 0, producer, 0);
  while (!ready) { }
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  pthread_join(t, 0);

  signal(SIGUSR1, on_signal);
  raise(SIGUSR1);
  while (!signalled) { }

  volatile int count = 0;
  volatile double sum = 0.5;
  int r = setjmp(env);
  if (r == 0) {
    for (int i = 0; i < 10; i++) {
      count++;
      sum = sum * 2;
      thrower(i);
    }
  }

  struct regs dev = {1, 0, {0}};
  unsigned seen = poll_status(&dev, 6);
  volatile int sink[3];
  for (int i = 0; i < 1000; i++) sink[i % 3] = i;
  volatile int *vp = &dev.data[0];
  int *plain = (int *)&dev.data[1];
  *vp += *plain;
  printf("%d %d %d %d %g\n", payload, (int)signalled == SIGUSR1, r, count, sum);
  printf("%u %u %d %d %d %d\n", seen, dev.status, dev.data[0], dev.data[3], sink[0], sink[2]);
  return 0;
}
