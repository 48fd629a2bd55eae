"""Generated code unchanged by driver/speed work: `--emit=llvm` of a fixed set of inputs, saved or compared.

    python benchmarks/codegen_unchanged.py save DIR [--pgcc PGCC]     # writes DIR/<name>.ll
    python benchmarks/codegen_unchanged.py compare DIR [--pgcc PGCC]  # prints differing inputs, exit 1 if any

Inputs: tests/programs/polybench/*.c at -O3 (the polyhedral stage) and -O0, tests/programs/c/*.c at -O2, and
examples/cuda/*.cu with --cpuify (device side). Inputs that pgcc rejects are recorded with their exit status.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cases() -> list[tuple[str, list[str]]]:
    """(name, pgcc arguments) for every input."""
    out = []
    for src in sorted((ROOT / "tests/programs/polybench").glob("*.c")):
        for lvl in ("-O3", "-O0"):
            out.append((f"polybench_{src.stem}{lvl}", [lvl, str(src)]))
    for src in sorted((ROOT / "tests/programs/c").glob("*.c")):
        out.append((f"c_{src.stem}", ["-O2", str(src)]))
    for src in sorted((ROOT / "examples/cuda").glob("*.cu")):
        out.append((f"cuda_{src.stem}", ["--cpuify", "-O2", str(src)]))
    return out


def emit(pgcc: str, args: list[str]) -> str:
    r = subprocess.run([pgcc, "--emit=llvm", "-o", "-", *args], capture_output=True, text=True,
                       cwd=ROOT / "tests/programs/polybench")
    return r.stdout if r.returncode == 0 else f"exit {r.returncode}\n"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("save", "compare"))
    ap.add_argument("dir")
    ap.add_argument("--pgcc", default=str(Path(sys.executable).parent / "pgcc"))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--only", default="", help="only the inputs whose name starts with this (polybench_, c_, cuda_)")
    a = ap.parse_args()
    d = Path(a.dir)
    d.mkdir(parents=True, exist_ok=True)
    todo = [c for c in cases() if c[0].startswith(a.only)]
    with ThreadPoolExecutor(a.j) as pool:
        texts = list(pool.map(lambda c: emit(a.pgcc, c[1]), todo))
    bad = 0
    for (name, _), text in zip(todo, texts):
        f = d / f"{name}.ll"
        if a.mode == "save":
            f.write_text(text)
        elif not f.exists() or f.read_text() != text:
            print(f"DIFFERENT: {name}")
            bad += 1
    print(f"{len(todo)} inputs, {bad} different" if a.mode == "compare" else f"{len(todo)} inputs saved in {d}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
