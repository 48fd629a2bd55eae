"""The --cpuify stage: kernel launches to loops (gpu_to_cpu), installed as polygeist_py.gpu_to_cpu."""

from __future__ import annotations

from mlir import ir

from .gpu_to_cpu.launch_to_loops import cpuify


def run_cpuify(module: ir.Module) -> None:
    """Rewrite every gpu.launch in `module` into scf.parallel over blocks and scf.for over threads."""
    cpuify(module)
