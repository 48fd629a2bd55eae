/* The other file of wrong11_globals.c: the strong definition of a weak variable, and uses of the aliases. */
extern int counter_alias;
extern long weak_total;
int replaced = 30;

void lib_update(void) {
  counter_alias *= 2;
  weak_total += 2;
}

int lib_replaced(void) { return replaced + 1; }
