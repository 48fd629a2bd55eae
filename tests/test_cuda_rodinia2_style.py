"""More programs in the style of the classic CUDA benchmark suite (Rodinia), each for a construct that its
programs use and pgcc once rejected or got wrong: C/C++ host code with a CPU reference printing PASS or FAIL,
built with `pgcc --cpuify` and run at OMP_NUM_THREADS=1, 2 and 4."""

from conftest import PROGRAMS, assert_passes, run_pgcc

DIR = PROGRAMS / "cuda_rodinia"


def test_storage_class_after_the_type_stream_histogram_and_shared_bit_packing(tmp):
    """huffman's `__device__ void static put_bits_atomic2(...)`: libclang gives no tokens for such a declaration,
    and the host side's removal of `static` stopped with "'static' kernel declared through a macro"; its
    histogram runs only when cudaGetDeviceProperties reports deviceOverlap (was 0: no histogram, FAIL)."""
    r = run_pgcc([DIR / "vlc_pack.cu", "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    outs = assert_passes(tmp / "app")
    assert outs[1] == outs[0] and outs[2] == outs[0]


def test_shifts_by_the_width_in_device_code_clamp_as_on_a_gpu(tmp):
    """huffman's pack2 writes `dw << 32 - bit` with bit 0 and its encoder masks with `(1 << 32) - 1`: PTX
    clamps shift amounts to the width (0, all ones, the sign); x86 masks them (the word itself), which garbled
    531 of 11263 packed words."""
    r = run_pgcc([DIR / "shift_pack.cu", "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    outs = assert_passes(tmp / "app")
    assert outs[1] == outs[0] and outs[2] == outs[0]
