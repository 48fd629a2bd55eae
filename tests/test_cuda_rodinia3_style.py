"""Programs in the style of the classic CUDA benchmark suite (Rodinia), third round: constructs of mummergpu and
dwt2d that pgcc once rejected or failed to link (b+tree's host program and myocyte needed no change), each a
C/C++ host program with a CPU reference printing PASS or FAIL, built with `pgcc --cpuify` and run at
OMP_NUM_THREADS=1, 2 and 4."""

from conftest import PROGRAMS, assert_passes, run_pgcc

DIR = PROGRAMS / "cuda_rodinia"


def test_driver_api_device_queries_size_the_blocks_of_reads(tmp):
    """mummergpu sizes its query blocks by the driver API's cuMemGetInfo (and the SDK's CUT_DEVICE_INIT_DRV
    calls cuInit, cuDeviceGetCount, cuDeviceComputeCapability, cuDeviceGet): these were undeclared-identifier
    errors ("use of undeclared identifier 'cuMemGetInfo'")."""
    r = run_pgcc([DIR / "driver_query_blocks.cu", "--cpuify", "-O2", "-o", tmp / "app"])
    assert r.returncode == 0, r.stderr
    outs = assert_passes(tmp / "app")
    assert "in 3 blocks" in outs[0] and outs[1] == outs[0] and outs[2] == outs[0]


def test_kernel_templates_launched_from_explicitly_instantiated_host_templates(tmp):
    """dwt2d's components.cu launches `c_CopySrcToComponents<<<...>>>(d_r, ...)` (template arguments deduced)
    from `rgbToComponents<T>`, which only `template void rgbToComponents<float>(...);` instantiates, and its main
    file calls it: libclang shows no cursor for an explicit instantiation, so no stub was made and the link
    failed (undefined reference to `void split_planes<float>(...)`)."""
    r = run_pgcc([DIR / "explicit_inst_planes.cu", DIR / "explicit_inst_main.cu", "--cpuify", "-O2", "-o",
                  tmp / "app"])
    assert r.returncode == 0, r.stderr
    outs = assert_passes(tmp / "app")
    assert "0 differ, int planes: 0 differ" in outs[0] and outs[1] == outs[0] and outs[2] == outs[0]
