/* A goto that jumps forward into a block past declarations with initializers, in the style of an escape-sequence
   reader: one branch of an if/else chain jumps into a case of a switch in another branch (`\N{U+...}` reusing the
   `\x{...}` code). The variables the jump passes keep indeterminate values in C, so the program only reads them
   on the paths that ran their initializers. */
#include <stdio.h>
#include <string.h>

enum { OPT_ALT = 1, OPT_EXTRA = 2 };

static int read_escape(const char **pp, const char *end, int options, int *err) {
    const char *p = *pp;
    int c = (unsigned char)*p++;
    int value = -1;
    *err = 0;
    if (c == 'N' && p < end && *p == '{' && p + 1 < end && p[1] == 'U') {
        p += 2;  /* \N{U+hhh}: the same digits as \x{hhh} */
        goto hex_braced;
    } else if (c >= '0' && c <= '7') {
        value = c - '0';
        while (p < end && *p >= '0' && *p <= '7')
            value = value * 8 + (*p++ - '0');
    } else {
        int alt = (options & OPT_ALT) != 0;
        long limit = (options & OPT_EXTRA) ? 0x10ffff : 0xff;
        if (c == 'q')
            alt = 0;
        switch (c) {
        case 'u':
            if (!alt) *err = 37;
            else value = 'u' + 1000;
            break;
        case 'U':
            if (!alt) *err = 38;
            break;
        case 'x':
            if (alt) {
                value = 0;
                for (int i = 0; i < 2 && p < end; i++, p++)
                    value = value * 16 + (*p >= 'a' ? *p - 'a' + 10 : *p - '0');
            } else if (p < end && *p == '{') {
            hex_braced:
                value = 0;
                for (p++; p < end && *p != '}'; p++) {
                    if (*p == '+') continue;
                    value = value * 16 + (*p >= 'a' ? *p - 'a' + 10 : *p - '0');
                }
                if (p < end) p++;
                if (value > 0x10ffff) *err = 77;
            }
            break;
        default:
            value = c + (int)limit;
            break;
        }
    }
    *pp = p;
    return value;
}

int main(void) {
    static const char *inputs[] = {"x41", "x{263a}", "N{U+1f600}", "u", "U", "101", "q", "z", "x{110000}"};
    for (int opt = 0; opt < 4; opt++) {
        for (unsigned i = 0; i < sizeof inputs / sizeof *inputs; i++) {
            const char *p = inputs[i], *end = p + strlen(p);
            int err;
            int v = read_escape(&p, end, opt, &err);
            printf("%d %-10s -> %d err %d used %d\n", opt, inputs[i], v, err, (int)(p - inputs[i]));
        }
    }
    return 0;
}
