"""CUDA atomics, integer intrinsics and __constant__/__device__ globals under --cpuify (atomics are real CPU
atomics: with 2 OpenMP threads racing, the totals are exact)."""

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
    r = run_pgcc([PROGRAMS / "cuda_unit" / "atomics.cu", "--cpuify", "--cuda-host=pgcc", "--emit=cpuify", "-o", "-"])
    assert r.returncode == 0, r.stderr
    for kind in ("addi", "addf", "maxs"):
        assert f"memref.atomic_rmw {kind}" in r.stdout
    assert r.stdout.count("memref.generic_atomic_rmw") == 2  # atomicInc and atomicCAS


def int_intrinsics_expected():
    def s32(x):
        x &= 0xFFFFFFFF
        return x - (1 << 32) if x >> 31 else x

    def s24(x):
        x &= 0xFFFFFF
        return x - (1 << 24) if x >> 23 else x

    lines = []
    for i in range(40):
        v = 0 if i == 0 else ((i * 2654435761) & 0xFFFFFFFF) >> (i % 13)
        w = v << 20
        ffs = lambda x: (x & -x).bit_length()  # noqa: E731
        row = [bin(v).count("1"), bin(w).count("1"), 32 - v.bit_length(), 64 - w.bit_length(), ffs(v), ffs(w),
               s32(s24(v) * -3), s32((v & 0xFFFFFF) * 5)]
        lines.append(" ".join(map(str, row)) + " ")
    return "\n".join(lines) + "\n"


def test_integer_intrinsics(tmp):
    for out in cpuify_outputs(PROGRAMS / "cuda_unit" / "int_intrinsics.cu", tmp):
        assert out == int_intrinsics_expected()


def test_constant_and_device_globals(tmp):
    data = [i % 7 for i in range(50)]
    out = [sum((j + 1) * data[(i + j) % 50] for j in range(5)) * 2 for i in range(50)]
    for got in cpuify_outputs(PROGRAMS / "cuda_unit" / "constant_memory.cu", tmp):
        assert got == f"{out[3]:.1f} {sum(out):.1f} 50\n"  # the __device__ counter saw every thread's atomicAdd
