"""Warp intrinsics under --cpuify follow CUDA's semantics for 32 consecutive threads of a block."""

from conftest import PROGRAMS, cpuify_outputs


def expected():
    data = [i % 11 for i in range(128)]
    lines = []
    for w in range(4):  # 2 blocks of 64 threads: warps 0, 2 hold threadIdx 0..31, warps 1, 3 hold 32..63
        first = 32 * (w % 2)
        ballot = sum(1 << lane for lane in range(32) if (first + lane) % 3 == 0)
        lines.append(f"warp {w} sum {sum(data[32 * w:32 * w + 32])} x {first ^ 1} {(first + 6) ^ 1} "
                     f"u {first} {first + 4} bal {ballot:x} any {int(w % 2 == 0)} all 1")
    return "\n".join(lines)


def test_warp_intrinsics(tmp):
    for out in cpuify_outputs(PROGRAMS / "cuda_unit" / "warp.cu", tmp):
        assert out.strip() == expected()


def guarded_expected():
    lines = []
    for b in range(3):
        v = [(i * 7 + 3) % 23 - 11 for i in range(b * 256, (b + 1) * 256)]
        part = [sum(v[32 * w:32 * w + 32]) for w in range(8)]
        lines.append(f"{sum(v)} {max(part[lane % 8] * (lane + 1) for lane in range(32))}")
    return "\n".join(lines)


def test_shuffles_under_warp_uniform_conditions(tmp):
    """``if (warp == 0) total = warp_sum(total)`` (a loop of shuffles whose result is used after the if) and
    a butterfly loop of __shfl_xor_sync under ``if (warp == 1)``: legal CUDA, the other warps skip them."""
    for out in cpuify_outputs(PROGRAMS / "cuda_unit" / "warp_guarded.cu", tmp, threads=(1, 2, 4)):
        assert out.strip() == guarded_expected()
