"""Streams and asynchronous copies under --cpuify (cudaStreamCreate, cudaMemcpyAsync, cudaMemsetAsync, launches
with a stream argument, cudaStreamWaitEvent, cudaStreamSynchronize): run synchronously in program order; and
the other host-side runtime calls (device queries, cache preferences, pinned allocations)."""

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


def test_device_queries_and_host_api(tmp):
    """Device count/properties/memory/versions describe one device with CUDA's limits; cache preferences and
    pinned allocations work; a bad device number is an error code."""
    for out in cpuify_outputs(PROGRAMS / "cuda_unit" / "host_api.cu", tmp):
        assert out == ("count 1 device 0 warp 32 threads 256 sms>0 1 mem 1 versions 1\n"
                       f"sum {sum(5 + i for i in range(1000))} bad device 1\n")
