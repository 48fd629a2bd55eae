/* Wide and Unicode string literals (C11 6.4.5) as localized programs write them: L"" (wchar_t, 32-bit),
   u"" (UTF-16, with surrogate pairs), U"" (UTF-32) and u8"", with non-ASCII characters written directly or as
   \x, \u and octal escapes; as pointers, local and global arrays, struct members and a table of messages. */
#include <stdio.h>
#include <string.h>
#include <uchar.h>
#include <wchar.h>

struct message { int id; wchar_t text[8]; char16_t short_text[4]; char bytes[8]; };
struct message greeting = { 1, L"héllo", u"😀a", "ñ\xff\x01" };
static const wchar_t *catalog[] = { L"zero", L"één", L"\x10FFFF", L"日本語" };
wchar_t currency[] = L"€$¢";

static unsigned checksum(const wchar_t *w) {
  unsigned h = 0;
  for (; *w; w++)
    h = h * 31 + (unsigned)*w;
  return h;
}

int main(void) {
  char local[] = "naïve\xe9\377";
  unsigned char raw[] = "\xff\x80z";
  wchar_t padded[10] = L"ab\0cd€";
  struct message reply = { 2, L"wörld", u"\u00e9x", "\x7f\x80" };
  char16_t pair[] = u"a😀b";
  const char32_t *wide32 = U"h€😀";
  const char *utf8 = u8"é€";
  int i;
  printf("%zu %zu %zu %zu\n", sizeof(L"abc"), sizeof(u"abc"), sizeof(U"ab€"), sizeof(u8"é"));
  for (i = 0; i < (int)sizeof local; i++) printf("%d ", local[i]);
  for (i = 0; i < (int)sizeof raw; i++) printf("%d ", raw[i]);
  for (i = 0; i < 10; i++) printf("%X ", (unsigned)padded[i]);
  printf("\n");
  for (i = 0; i < 8; i++) printf("%X ", (unsigned)greeting.text[i]);
  for (i = 0; i < 4; i++) printf("%X ", (unsigned)greeting.short_text[i]);
  for (i = 0; i < 8; i++) printf("%d ", greeting.bytes[i]);
  for (i = 0; i < 8; i++) printf("%X ", (unsigned)reply.text[i]);
  for (i = 0; i < 4; i++) printf("%X ", (unsigned)reply.short_text[i]);
  printf("\n");
  for (i = 0; i < (int)(sizeof pair / sizeof pair[0]); i++) printf("%X ", (unsigned)pair[i]);
  for (i = 0; wide32[i]; i++) printf("%X ", (unsigned)wide32[i]);
  for (i = 0; utf8[i]; i++) printf("%X ", (unsigned char)utf8[i]);
  for (i = 0; i < 4; i++) printf("%zu:%X:%u ", wcslen(catalog[i]), (unsigned)catalog[i][1], checksum(catalog[i]));
  printf("\n%d %zu %u %d\n", wcscmp(L"abc", L"abd") < 0, wcslen(currency), checksum(L"hi\x263A!"),
         L'€' == 0x20AC);
  return 0;
}
