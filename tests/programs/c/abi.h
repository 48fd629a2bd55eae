struct I2 { int a, b; };                 /* one INTEGER eightbyte */
struct D2 { double x, y; };              /* SSE, SSE */
struct Mix { int k; double v; };         /* INTEGER, SSE */
struct F3 { float a, b, c; };            /* SSE, SSE (partial) */
struct C3 { char c[3]; };                /* INTEGER partial */
struct L3 { long a, b, c; };             /* MEMORY */
struct Bits { unsigned lo : 4; int mid : 7; unsigned hi : 12; };
union Num { long i; double d; };
struct I2 i2_make(int a, int b);
int i2_sum(struct I2 s);
struct D2 d2_scale(struct D2 s, double f);
struct Mix mix_make(int k, double v);
double mix_use(struct Mix m, int extra);
struct F3 f3_add(struct F3 a, struct F3 b);
struct C3 c3_rot(struct C3 c);
struct L3 l3_make(long a);
long l3_sum(struct L3 s, long extra);
long many(long a, long b, long c, long d, long e, struct I2 s, struct Mix m, struct D2 dd);
int bits_sum(struct Bits b);
struct Bits bits_make(int lo, int mid, int hi);
double num_d(union Num n);
/* defined by the other side */
long cb_sum(struct L3 s);
struct Mix cb_mix(struct Mix m);
