/* The other file of wrong11_globals.c: the strong definition of a weak variable, and uses of the aliases. */
extern int counter_alias;
extern long weak_total;
int replaced = 30;

void lib_update(void) {
  counter_alias *= 2;
  weak_total += 2;
}

int lib_replaced(void) { return replaced + 1; }

static int shared_name __attribute__((alias("replaced")));
static int thrice(int x) { return 3 * x; }
static int scaled(int) __attribute__((alias("thrice")));

int lib_static_aliases(void) { return shared_name * 1000 + scaled(7); }
