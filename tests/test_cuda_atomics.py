"""CUDA atomics under --cpuify are real CPU atomics: with 2 OpenMP threads racing, the totals are exact."""

from conftest import PROGRAMS, cpuify_outputs, run_pgcc


def expected():
    data = [(i * 7919) % 1013 for i in range(1000)]
    bins = [sum(1 for v in data if v % 10 == k) for k in range(10)]
    # atomicAdd float, atomicMax, atomicSub, atomicInc (wraps at 7 -> mod 8), atomicCAS (someone won)
    return " ".join(map(str, bins)) + f" | 500.0 {max(data)} -2000 {1000 % 8} 1"


def test_atomics_exact_under_races(tmp):
    for out in cpuify_outputs(PROGRAMS / "cuda_unit" / "atomics.cu", tmp):
        assert out.strip() == expected()


def test_atomics_lower_to_atomic_ops(tmp):
    r = run_pgcc([PROGRAMS / "cuda_unit" / "atomics.cu", "--cpuify", "--emit=cpuify", "-o", "-"])
    assert r.returncode == 0, r.stderr
    for kind in ("addi", "addf", "maxs"):
        assert f"memref.atomic_rmw {kind}" in r.stdout
    assert r.stdout.count("memref.generic_atomic_rmw") == 2  # atomicInc and atomicCAS
