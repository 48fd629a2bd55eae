/* Bit-fields of a packed record that straddle eight bytes (a 63-bit field starting at bit 18 lives in a 72-bit
   storage unit), as wire formats and register maps declare them: stores, compound assignments, reads. */
#include <stdio.h>
#include <string.h>

#pragma pack(push, 1)
struct frame {
  int kind : 12;
  char flags : 6;
  long long stamp : 63;
  char level : 4;
  long long tail : 2;
};
#pragma pack(pop)

static void dump(const void *p, int n) {
  const unsigned char *b = p;
  for (int i = n; --i >= 0;)
    printf("%02X", b[i]);
  printf("\n");
}

int main(void) {
  struct frame f;
  memset(&f, 0, sizeof f);
  f.kind = -1, f.flags = -1, f.stamp = -1, f.level = -1, f.tail = -1;
  dump(&f, sizeof f);
  f.kind = 3, f.flags = 30, f.stamp = 0x123456789abcdef0LL, f.level += 5, ++f.level, f.tail = 2;
  dump(&f, sizeof f);
  f.stamp >>= 4;
  f.stamp ^= 0x55;
  printf("%d %d %llx %d %lld %zu\n", f.kind, f.flags, (unsigned long long)f.stamp, f.level, (long long)f.tail,
         sizeof f);
  return 0;
}
