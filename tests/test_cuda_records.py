"""Kernels over host data structures under --cpuify: arrays of structs and C++ bool arrays (one byte each)
copied to and from the device, a bool flag read back after each launch (a breadth-first search)."""

import re

from conftest import PROGRAMS, cpuify_outputs


def test_bool_masks_and_struct_arrays_in_kernels(tmp):
    outs = cpuify_outputs(PROGRAMS / "cuda_unit" / "graph_frontier.cu", tmp)
    for out in outs:
        m = re.fullmatch(r"rounds (\d+) reached (\d+) checksum (-?\d+) wrong (\d+)\n", out)
        assert m, out
        rounds, reached, _, wrong = map(int, m.groups())
        assert wrong == 0 and rounds > 2 and reached > 1500
    assert len(set(outs)) == 1


def test_shared_struct_arrays_and_by_value_struct_parameters(tmp):
    """A __shared__ array of structs, struct parameters passed by value, and a barrier under a block-uniform
    `if` whose condition is read from a by-value struct (the values loaded before the barrier are passed on)."""
    outs = cpuify_outputs(PROGRAMS / "cuda_unit" / "shared_records.cu", tmp)
    for out in outs:
        m = re.fullmatch(r"max difference (\S+) checksum (\S+)\n", out)
        assert m, out
        assert float(m.group(1)) < 1e-4 and abs(float(m.group(2))) > 1.0
    assert len(set(outs)) == 1
