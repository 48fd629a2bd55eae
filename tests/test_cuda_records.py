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
