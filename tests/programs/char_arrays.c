/* char arrays initialized from string literals: local, global, braced, exactly full (no NUL), incomplete. */
#include <stdio.h>
static const char names[4] = "ACG";
char g2[] = "xy\n";
int main(void) {
  char s[4] = "ACG"; char t[6] = {"hi"}; char u[3] = "abc";
  printf("%d %d %d %d | %c %d | %d %d %d %d | %d %d %d\n", s[0], s[1], s[2], s[3], names[1], names[3], g2[0], g2[1], g2[2], g2[3], t[0], t[5], u[2]);
  return 0;
}
