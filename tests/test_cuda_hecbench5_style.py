"""CUDA programs in the style of HeCBench's self-checking codes (tests/programs/cuda/), fifth set, built with
`pgcc --cpuify -O2` and run at 1, 2 and 4 OpenMP threads against their own checks.

timer_sm_registers: inline PTX reading the global nanosecond timer (`mov.u64 %0, %globaltimer;` in a
`__globaltimer()` helper, with one `%` as nvcc takes it, and its `_lo`/`_hi` halves), `%%clock64`, `%%smid` and
`%%nsmid` was the error "inline PTX assembly 'mov.u64' in device code". The stamps are checked against the host's
real-time clock read around the launch, the spin-wait's length against the requested nanoseconds, and the
processor ids against cudaGetDeviceProperties' multiProcessorCount.

launch_in_macro_args: a launch written in a macro's argument (a lambda passed to nested dispatch macros, as
HeCBench geglu does, and a parenthesized launch given to a checking macro) was the error "kernel launch whose
`<<<` is not in the program's text": libclang places it at the macro invocation, whose text holds the launch.
"""

from __future__ import annotations

from conftest import PROGRAMS, assert_passes, build_pgcc

CUDA = PROGRAMS / "cuda"


def test_global_timer_clock_and_processor_id_registers(tmp):
    build_pgcc(CUDA / "timer_sm_registers.cu", tmp / "app", extra=("--cpuify",))
    for out in assert_passes(tmp / "app"):
        assert "bad: 0" in out


def test_launches_written_in_macro_arguments(tmp):
    build_pgcc(CUDA / "launch_in_macro_args.cu", tmp / "app", extra=("--cpuify",))
    for out in assert_passes(tmp / "app"):
        assert "mismatches: 0" in out
