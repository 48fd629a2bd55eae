#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ctype.h>
typedef struct { const char *key; int val; } KV;
static int kvcmp(const void *a, const void *b) { return strcmp(((const KV *)a)->key, ((const KV *)b)->key); }
int main(int argc, char **argv) {
  KV tab[] = {{"ant", 1}, {"bee", 2}, {"cat", 3}, {"dog", 4}};
  KV probe = {"cat", 0};
  KV *hit = bsearch(&probe, tab, 4, sizeof(KV), kvcmp);
  printf("%s %d\n", hit->key, hit->val);
  char line[] = "a,bb,,ccc";
  for (char *t = strtok(line, ","); t; t = strtok(NULL, ",")) printf("[%s]", t);
  printf("\n");
  time_t t0 = time(NULL); clock_t c0 = clock();
  printf("%d %d\n", t0 > 0, c0 >= 0);
  fputs("fputs\n", stdout); fputc('c', stdout); fputc('\n', stdout);
  printf("%d %d %c\n", isdigit('7') != 0, isalpha('7') != 0, toupper('q'));
  char *dup = malloc(strlen(argv[0]) + 1);
  strcpy(dup, "dup");
  printf("%s %d\n", dup, (int)strspn("aaab", "a"));
  free(dup);
  if (argc > 5) abort();
  exit(3);
}
