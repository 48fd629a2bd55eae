/* Statics marked __attribute__((used)) stay in the object file though nothing refers to them: version strings
   written by a macro (the RCS/SCCS id idiom of old Unix tools), a static local, a static function. The program
   looks for the strings in its own executable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TOOL_RCSID(id) static const char rcsid[] __attribute__((__used__)) = id
#define TOOL_SCCSID(id) static const char sccsid[] __attribute__((used)) = "@(#)" id

TOOL_RCSID("@(#)$Id: scanner.c,v 1.42 1999/04/01 tool Exp $");
TOOL_SCCSID("scanner 3.7 (unreferenced)");

static int spare_hook(int x) __attribute__((used));
static int spare_hook(int x) { return x * 7 + 1; }

static const char *const keywords[] __attribute__((used)) = {"begin", "end", "loop", "exit"};

static long find(const char *buf, long n, const char *needle) {
    long k = (long)strlen(needle);
    for (long i = 0; i + k <= n; i++)
        if (memcmp(buf + i, needle, (size_t)k) == 0)
            return i;
    return -1;
}

int main(void) {
    static const char build_tag[] __attribute__((used)) = "build-tag:unreferenced-local";
    FILE *f = fopen("/proc/self/exe", "rb");
    if (!f) {
        puts("no /proc/self/exe");
        return 0;
    }
    char *buf = malloc(1 << 24);
    long n = (long)fread(buf, 1, 1 << 24, f);
    fclose(f);
    /* (the needles are built at run time so that they are not the strings being looked for) */
    char needle[64];
    const char *parts[][2] = {{"$Id: scanner.c", ",v 1.42"}, {"@(#)scanner 3.7", " (unreferenced)"},
                              {"build-tag:", "unreferenced-local"}};
    for (int i = 0; i < 3; i++) {
        snprintf(needle, sizeof needle, "%s%s", parts[i][0], parts[i][1]);
        printf("%s: %s\n", parts[i][0], find(buf, n, needle) >= 0 ? "kept" : "dropped");
    }
    printf("%s %d\n", keywords[2], (int)(sizeof keywords / sizeof *keywords));
    free(buf);
    return 0;
}
