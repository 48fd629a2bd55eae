/* Named sections (__attribute__((section))): a registration table whose entries are globals placed in one section
   and walked through the linker's __start_/__stop_ symbols, as plugin and test-case registries do; cold helper
   functions grouped in their own text section (a database's error paths); a static local in a section. */
#include <stdio.h>
#include <string.h>

struct command {
    const char *name;
    int (*run)(int);
    int weight;
};

#define COLD __attribute__((section("cold_paths")))
#define REGISTER(n, fn, w) struct command cmd_##n __attribute__((section("commands"), aligned(8))) = {#n, fn, w}

extern struct command __start_commands[], __stop_commands[];
extern char __start_cold_paths[], __stop_cold_paths[];

static int twice(int x) { return 2 * x; }
static int square(int x) { return x * x; }
static int negate(int x) { return -x; }

REGISTER(twice, twice, 3);
REGISTER(square, square, 1);
REGISTER(negate, negate, 2);

int plain_counter = 7;
int tuned[4] __attribute__((section(".data.tuned"))) = {5, 6, 7, 8};

static const char *COLD describe_error(int code) {
    switch (code) {
    case 1: return "not found";
    case 2: return "map full";
    default: return "unknown";
    }
}

int COLD report(int code, char *buf, int n) { return snprintf(buf, n, "error %d: %s", code, describe_error(code)); }

static int in_cold(const void *p) {
    return (const char *)p >= __start_cold_paths && (const char *)p < __stop_cold_paths;
}

int main(int argc, char **argv) {
    int n = (int)(__stop_commands - __start_commands);
    printf("%d commands\n", n);
    /* the order of a section's entries is the linker's: sum and look up by name instead */
    int total = 0, weights = 0;
    for (struct command *c = __start_commands; c < __stop_commands; c++) {
        total += c->run(argc + 4);
        weights += c->weight;
    }
    printf("total %d weights %d\n", total, weights);
    for (int i = 1; i < argc; i++) {
        const char *want = argv[i][0] == '-' ? "negate" : "square";
        for (struct command *c = __start_commands; c < __stop_commands; c++)
            if (strcmp(c->name, want) == 0)
                printf("%s(%d) = %d\n", want, i, c->run(i));
    }
    char buf[64];
    for (int code = 0; code < 3; code++) {
        report(code, buf, sizeof buf);
        puts(buf);
    }
    printf("report in cold_paths: %d, main in cold_paths: %d\n", in_cold((const void *)report),
           in_cold((const void *)main));
    static int calls __attribute__((section(".data.calls"))) = 40;
    for (int i = 0; i < 3; i++)
        calls += tuned[i];
    printf("%d %d %d\n", calls, plain_counter, tuned[3]);
    return 0;
}
