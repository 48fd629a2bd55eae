/* A record formatter in the style of small C tools built with Debian's default flags (-O2 -D_FORTIFY_SOURCE=2):
   every string.h / stdio.h call below goes through glibc's fortified wrappers (__builtin___*_chk with the
   destination's object size) and stays in bounds; `overflow N` makes call N write past a buffer whose size is
   known, which must abort ("buffer overflow detected") as gcc's build does. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct entry {
    char key[12];
    char value[20];
    int weight;
};

static char scratch[64];

static int format_into(char *dst, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(dst, cap, fmt, ap);
    va_end(ap);
    return n;
}

static int format_all(char *dst, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsprintf(dst, fmt, ap);
    va_end(ap);
    return n;
}

static void set_entry(struct entry *e, const char *k, const char *v, int w)
{
    memset(e, 0, sizeof *e);
    strncpy(e->key, k, sizeof e->key - 1);
    size_t lv = strlen(v);
    if (lv >= sizeof e->value)
        lv = sizeof e->value - 1;
    memcpy(e->value, v, lv);
    e->weight = w;
}

static const char *joined(const struct entry *es, int n)
{
    char *p = scratch;
    *p = 0;
    for (int i = 0; i < n; i++) {
        if (i)
            p = stpcpy(p, ",");
        p = stpcpy(p, es[i].key);
    }
    return scratch;
}

static void overflow(int which, const char *src)
{
    char small[8];
    struct entry e;
    size_t n = strlen(src);
    switch (which) {
    case 1: strcpy(small, src); break;
    case 2: memcpy(small, src, n); break;
    case 3: sprintf(small, "<%s>", src); break;
    case 4: strcat(strcpy(small, "ab"), src); break;
    case 5: memset(e.key, '-', n + sizeof e.key); break;
    case 6: snprintf(small, n, "%s", src); break;
    case 7: memmove(e.value, src, n + sizeof e.value); break;
    }
    printf("%.4s %.4s\n", small, e.key);
}

int main(int argc, char **argv)
{
    if (argc > 2 && strcmp(argv[1], "overflow") == 0) {
        overflow(atoi(argv[2]), "0123456789abcdefghijklmnopqrstuvwxyz0123456789");
        return 0;
    }
    struct entry es[4];
    const char *keys[] = {"alpha", "beta", "gamma-long-key-name", "d"};
    const char *vals[] = {"one", "a value that is far too long to fit", "3", ""};
    for (int i = 0; i < 4; i++)
        set_entry(&es[i], keys[i], vals[i], i * 7 - 3);
    for (int i = 0; i < 4; i++)
        printf("[%s] [%s] %d\n", es[i].key, es[i].value, es[i].weight);
    printf("joined: %s\n", joined(es, 4));

    char line[32];
    int n = format_into(line, sizeof line, "%s=%s;w=%d", es[0].key, es[1].value, es[2].weight);
    printf("vsnprintf %d [%s]\n", n, line);
    n = snprintf(line, 10, "%08x-%s", 0xbeefu, "tail");
    printf("snprintf %d [%s]\n", n, line);
    n = format_all(line, "%-6s|%5d", "ab", 42);
    printf("vsprintf %d [%s]\n", n, line);
    n = sprintf(line, "%.3s%c%d", "xyzzy", ':', -17);
    printf("sprintf %d [%s]\n", n, line);

    char buf[24];
    strcpy(buf, "head");
    strcat(buf, "-");
    strncat(buf, "middle-part", 6);
    printf("strcat %s %zu\n", buf, strlen(buf));
    memmove(buf + 2, buf, 8);
    buf[10] = 0;
    printf("memmove %s\n", buf);
    char *end = mempcpy(buf, "0123", 4);
    *end = 0;
    printf("mempcpy %s\n", buf);
    memset(buf, '.', sizeof buf - 1);
    buf[sizeof buf - 1] = 0;
    printf("memset %s\n", buf);
    fprintf(stdout, "fprintf %d %s\n", argc, argc > 1 ? argv[1] : "-");

    /* object sizes of objects clang and gcc both see at any level */
    printf("sizes %zu %zu %zu %zu\n", __builtin_object_size(buf, 0), __builtin_object_size(buf + 5, 0),
           __builtin_object_size(es[1].value, 1), __builtin_object_size(&es[2], 0));
    printf("write %zd\n", write(1, "written\n", 8));
    /* a null buffer has no known size: getcwd allocates one of the size asked for */
    char *cwd = getcwd(NULL, 4096);
    printf("getcwd %d\n", cwd != NULL && cwd[0] == '/');
    free(cwd);
    return 0;
}
