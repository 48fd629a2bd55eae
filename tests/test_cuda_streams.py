"""Streams and asynchronous copies under --cpuify (cudaStreamCreate, cudaMemcpyAsync, cudaMemsetAsync, launches
with a stream argument, cudaStreamWaitEvent, cudaStreamSynchronize): run synchronously in program order."""

from conftest import PROGRAMS, cpuify_outputs


def expected() -> str:
    n, chunks = 1000, 4
    c = n // chunks
    h = [0.0] * n
    for k in range(chunks):
        for i in range(c):
            b, t = divmod(i, 50)
            h[k * c + i] = (2.0 + k) * (k * c + b * 50 + 49 - t)
    counts = [2 * (i % 3) for i in range(64)]
    csum = sum(v * (i + 1) for i, v in enumerate(counts))
    return f"{h[0]:.1f} {h[499]:.1f} {h[999]:.1f} {sum(h):.1f} {csum}\n"


def test_streams_run_in_program_order(tmp):
    for out in cpuify_outputs(PROGRAMS / "cuda_unit" / "streams.cu", tmp):
        assert out == expected()
