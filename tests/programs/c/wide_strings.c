/* Wide and Unicode string literals (L"", u"", U"", u8"") with escapes and characters outside ASCII: pointers to
   them, arrays initialized from them (local, static and global, in structs), their lengths and code units. */
#include <stdio.h>
#include <string.h>
#include <wchar.h>
#include <uchar.h>

struct label {
    int id;
    wchar_t text[8];
};

static const wchar_t *greetings[] = { L"hej", L"gr\u00fc\u00df dich", L"\x263A smile" };
static struct label labels[] = { { 1, L"caf\u00e9" }, { 2, L"\x3b1\x3b2\x3b3" } };
wchar_t banner[] = L"[\u2500\u2500]";
const char16_t *utf16 = u"\U0001F600!";
static const char32_t emoji[] = U"\U0001F642 ok";

static unsigned long checksum(const wchar_t *s)
{
    unsigned long h = 5381;
    while (*s)
        h = h * 33 + (unsigned long)*s++;
    return h;
}

static void dump16(const char *name, const char16_t *s)
{
    printf("%s:", name);
    for (; *s; s++)
        printf(" %04x", (unsigned)*s);
    printf("\n");
}

int main(void)
{
    for (int i = 0; i < 3; i++)
        printf("greeting %d: len %zu sum %lu\n", i, wcslen(greetings[i]), checksum(greetings[i]));
    for (int i = 0; i < 2; i++)
        printf("label %d: %lu last %x\n", labels[i].id, checksum(labels[i].text),
               (unsigned)labels[i].text[wcslen(labels[i].text) - 1]);
    printf("banner %zu %x %lu\n", sizeof banner / sizeof *banner, (unsigned)banner[1], checksum(banner));

    wchar_t local[] = L"na\u00efve\x20AC";
    static wchar_t kept[16] = L"\u00bfqu\u00e9?";
    printf("local %zu %x %x, kept %lu %x\n", wcslen(local), (unsigned)local[2], (unsigned)local[5],
           checksum(kept), (unsigned)kept[15]);
    dump16("utf16", utf16);
    char16_t pair[] = u"a\U00010437z";
    dump16("pair", pair);
    printf("emoji %x %x %zu\n", (unsigned)emoji[0], (unsigned)emoji[2], sizeof emoji);
    printf("units %x %x\n", (unsigned)L"\u00e9t\u00e9"[2], (unsigned)U"x\U0010FFFF"[1]);

    const char *utf8 = u8"\u00e9\u20ac";
    char bytes[] = "\xe9\x41\101\0end";
    printf("utf8 %zu %02x %02x, bytes %zu %d %d %d %zu\n", strlen(utf8), (unsigned char)utf8[0],
           (unsigned char)utf8[4], strlen(bytes), bytes[0], bytes[1], bytes[2], sizeof bytes);
    return 0;
}
