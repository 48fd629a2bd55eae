/* Globals with initializers, static locals, const globals, volatile. */
#include <stdio.h>
#include <stdint.h>

int g_int = -7;
static uint8_t g_u8 = 0x1FF;                 /* converted: 255 */
static int8_t g_s8 = 200;                     /* converted: -56 */
uint64_t g_u64 = 18446744073709551615ULL;
int64_t g_s64 = -5000000000LL;
double g_d = 2.5;
float g_f = 1.0f / 3;
int g_zero;                                   /* tentative: zero */
static int g_arr[6] = {1, 2, 3};              /* partially initialized */
static int16_t g_2d[3][4] = {{1, -2}, {3}, {0, 0, 0, 9}};
static uint32_t g_3d[2][2][3] = {{{1, 2, 3}, {4}}, {{0xFFFFFFFF}}};
const int g_const = 42;
static const int8_t g_ctab[5] = {-1, -2, 127, -128, 5};
static volatile uint32_t g_vol = 0x8EDF1FEBL;
static volatile int16_t g_varr[2][3] = {{1, 2, 3}, {4, 5, 6}};
char g_str[] = "hi";
long g_enum_based = sizeof(g_2d) + 'a';

static int counter(void) {
    static int calls;                         /* zero, kept across calls */
    static int64_t acc = 100;                 /* initializer applied once */
    static uint8_t tab[4] = {250, 251};
    calls++;
    acc += calls * 3;
    tab[calls % 4] += 5;                      /* wraps */
    return calls * 1000 + (int)acc + tab[0] + tab[1] + tab[2] + tab[3];
}

static int other(void) {
    static int calls = 10;                    /* a different variable from counter's */
    return ++calls;
}

static int same_names(int k) {
    int r = 0;
    if (k) { static int x = 5; x++; r += x; }
    else { static int x = 100; x--; r += x; }   /* another variable of the same name */
    return r;
}

int main(void) {
    printf("%d %u %d %llu %lld %.3f %.6f %d\n", g_int, g_u8, g_s8, (unsigned long long)g_u64, (long long)g_s64,
           g_d, g_f, g_zero);
    for (int i = 0; i < 6; i++) printf("%d ", g_arr[i]);
    printf("\n");
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) printf("%d ", g_2d[i][j]);
    printf("\n");
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++)
            for (int k = 0; k < 3; k++) printf("%u ", g_3d[i][j][k]);
    printf("\n%d", g_const);
    for (int i = 0; i < 5; i++) printf(" %d", g_ctab[i]);
    printf("\n");
    for (int i = 0; i < 5; i++) printf("%d %d\n", counter(), other());
    for (int i = 0; i < 4; i++) printf("%d ", same_names(i & 1));
    printf("\n");
    g_vol = g_vol + 1;
    g_vol ^= 0xFF;
    g_varr[1][2] += g_varr[0][1];
    printf("%u %d %s %ld\n", g_vol, g_varr[1][2], g_str, g_enum_based);
    g_int += 3; g_u8++; g_s8 -= 100; g_arr[5] = g_arr[0] + g_arr[2];
    printf("%d %u %d %d\n", g_int, g_u8, g_s8, g_arr[5]);
    return 0;
}
