"""How pgcc's compile time grows with the size of a program's constructs (issue 18 item 6), against gcc -O2.

Generates C files in a temporary directory: an `if / else if` chain of N arms, a `switch` of N cases, blocks
and `if`s nested N deep, a scanner-like state machine of N labels with forward and backward gotos, N blocks
of variables with cleanup handlers, and a file of N lines of small functions; compiles each with `gcc -O2` and
`pgcc -O2` (median of --reps runs), checks that both programs print the same, and prints the seconds and the ratio
pgcc/gcc per size, so that a superlinear growth shows as a growing ratio.

    python benchmarks/compile_scaling.py [--reps 3] [--quick]

Not a test: timings depend on the machine's load (run it on a quiet machine; ratios, not seconds, matter).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PGCC = str(Path(sys.executable).parent / "pgcc")


def else_if_chain(n: int) -> str:
    arms = [f"  {'if' if i == 0 else 'else if'} (x == {3 * i}) return {7 * i % 13};" for i in range(n)]
    return ("#include <stdio.h>\nint classify(int x) {\n" + "\n".join(arms) + "\n  else return -1;\n}\n"
            "int main(void) { long s = 0; for (int i = 0; i < 4 * %d; i++) s += classify(i);\n"
            "  printf(\"%%ld\\n\", s); return 0; }\n" % n)


def switch_cases(n: int) -> str:
    cases = [f"  case {5 * i}: return {i % 11};" for i in range(n)]
    return ("#include <stdio.h>\nint pick(int x) { switch (x) {\n" + "\n".join(cases) + "\n  default: return -2; } }\n"
            "int main(void) { long s = 0; for (int i = 0; i < 6 * %d; i++) s += pick(i);\n"
            "  printf(\"%%ld\\n\", s); return 0; }\n" % n)


def label_machine(n: int) -> str:
    """A state machine of `n` labels at the top level of one block, as scanner generators write them: each state
    reads a byte and jumps to one of two pseudo-random states (a fixed generator), falls into the next, or
    returns; main prints what it computes on a fixed buffer."""
    lines = ["#include <stdio.h>", "int scan(const unsigned char *c, int len) {",
             "  int acc = 0, steps = 0; const unsigned char *end = c + len;", "  unsigned char ch;", "  goto L0;"]
    for i in range(n):
        a, b = (i * 7919 + 13) % n, (i * 104729 + 71) % n
        lines += [f"L{i}:", "  if (c >= end || ++steps > 20000) return acc;", f"  ch = *c++; acc = acc * 31 + ch + {i};",
                  f"  switch (ch & 3) {{ case 0: goto L{a}; case 1: goto L{b}; case 2: break; "
                  f"default: acc ^= {i}; goto L{(i + 1) % n}; }}", f"  acc += {i};"]
    return "\n".join(lines + ["  return acc;", "}", "int main(void) { unsigned char buf[4096];",
                              "  for (int i = 0; i < 4096; i++) buf[i] = (unsigned char)(i * 7 + i / 13);",
                              '  printf("%d\\n", scan(buf, 4096)); return 0; }']) + "\n"


def cleanup_guards(n: int) -> str:
    """`n` blocks in a row, each declaring a variable with a GNU cleanup handler, as macro-generated guard code
    (and tinycc's tests2/101_cleanup, 65,536 of them) writes them; every handler adds to a global."""
    blocks = "\n".join(f"  {{ int g{i} __attribute__((cleanup(bump))) = {i % 9 + 1}; acc += g{i}; }}" for i in range(n))
    return ("#include <stdio.h>\nstatic long total, acc;\nstatic void bump(int *p) { total += *p * 3 + 1; }\n"
            "int main(void) {\n" + blocks + "\n  printf(\"%ld %ld\\n\", total, acc); return 0; }\n")


def nested_ifs(n: int) -> str:
    return ("#include <stdio.h>\nint main(int argc, char **argv) { int x = argc;\n" + "if (x < 1000) {\n" * n +
            "x += 2;\n" + "}\n" * n + "printf(\"%d\\n\", x); return 0; }\n")


def many_functions(lines: int) -> str:
    body = []
    n = lines // 16
    for i in range(n):
        body.append(f"""static int f{i}(const int *a, int n, int k) {{
    int s = {i % 7};
    for (int j = 0; j < n; j++) {{
        if (a[j] > k) s += a[j] * {i % 5 + 1};
        else if (a[j] == k) s -= j;
        else s ^= a[j] << 1;
    }}
    switch (s & 3) {{
    case 0: s += 3; break;
    case 1: s -= 1; break;
    default: s *= 2;
    }}
    while (s > 1000) s /= 3;
    return s + k;
}}""")
    calls = "\n".join(f"  t += f{i}(a, 8, {i % 10});" for i in range(n))
    return ("#include <stdio.h>\n" + "\n".join(body) + "\nint main(void) { int a[8] = {1, 5, 3, 8, 2, 9, 4, 7};"
            " long t = 0;\n" + calls + "\n  printf(\"%ld\\n\", t); return 0; }\n")


def timed_build(cmd: list, reps: int) -> float:
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="smaller sizes")
    args = ap.parse_args()
    cases = [("else-if arms", else_if_chain, (100, 300, 600) if args.quick else (100, 300, 600, 1200)),
             ("switch cases", switch_cases, (100, 500, 2000)),
             ("nested ifs", nested_ifs, (100, 500, 2000)),
             ("goto labels", label_machine, (25, 50, 100)),
             ("cleanup guards", cleanup_guards, (1000, 4000, 16000)),
             ("lines of functions", many_functions, (2000, 10000) if args.quick else (2000, 10000, 50000))]
    print(f"{'construct':<20}{'size':>8}{'gcc s':>9}{'pgcc s':>9}{'ratio':>8}  same output")
    with tempfile.TemporaryDirectory() as d:
        for what, gen, sizes in cases:
            for n in sizes:
                src = Path(d) / "gen.c"
                src.write_text(gen(n))
                g = timed_build(["gcc", "-O2", "-w", str(src), "-o", f"{d}/g"], args.reps)
                p = timed_build([PGCC, "-O2", "-w", str(src), "-o", f"{d}/p"], args.reps)
                same = subprocess.run([f"{d}/g"], capture_output=True).stdout == \
                    subprocess.run([f"{d}/p"], capture_output=True).stdout
                print(f"{what:<20}{n:>8}{g:>9.2f}{p:>9.2f}{p / g:>8.1f}  {'yes' if same else 'NO'}", flush=True)


if __name__ == "__main__":
    main()
