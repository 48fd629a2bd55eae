"""Scheduling experiments from Python: load a C file, list its SCoPs, inspect dependences, transform schedules,
check legality, regenerate, compile and time.

    import polygeist_py.affine.experiments as px
    exp = px.load("gemm.c", defines={"NI": 1000})
    s = exp.scop("kernel_gemm.scop0")
    print(s.dependences["RAW"])
    s.interchange(1, 3)            # schedule dimensions, see s.schedule
    s.tile(3, 32)
    s.parallelize(1)
    s.check()                      # IllegalSchedule names a violated dependence
    exe = exp.compile("gemm_exp")  # pgcc -O3 --schedule=<these schedules>
    print(exp.time(exe, threads=2))

Many variants at once, measured on Dask (`pip install 'polygeist-py[distributed]'`; sweep.py, autotune.py):

    res = px.sweep(["gemm.c"], px.grid(tile_sizes=[None, (16, 16, 16), (64, 64, 64)], parallel=[True, False]),
                   config=px.SweepConfig(reps=5, threads=2), journal="gemm.jsonl")
    res.to_csv("gemm.csv"); print(res.best("gemm"))
    tuned = px.autotune("gemm.c", budget=32)          # successive halving; stored in the tuning database

Schedules are flat isl union maps from statement instances to time vectors of one length (dimension numbers
as printed by `s.schedule`); they start as the original 2d+1 schedule or, with `scheduled=True`, as the one
pgcc's scheduler computes. Transformations compose on that map; nothing is checked until `check()`, `legal`
or `compile()`.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import islpy as isl

from . import isl_model, legality
from .scheduler import ScheduleOptions, compute_schedule
from .transform import model_scops

# sweeps and the autotuner (their Dask parts import dask.distributed only when used)
from .sweep import Kernel, Sweep, SweepConfig, Variant, grid, sweep  # noqa: E402,F401
from .autotune import autotune, default_space, tune_scops  # noqa: E402,F401


class ScopView:
    """One SCoP of a loaded program and the schedule being built for it."""

    def __init__(self, name, model, deps, schedule):
        self.name, self.model, self.deps = name, model, deps
        self.experiment = None  # the Experiment holding the MLIR module the model refers to
        self.schedule = legality.flat_map(model, schedule)
        self.parallel: set = set()

    @property
    def statements(self) -> list:
        return [s.name for s in self.model.scop.statements]

    @property
    def domain(self) -> str:
        return str(self.model.domain)

    @property
    def dependences(self) -> dict:
        """{"RAW"|"WAR"|"WAW": isl text} of the value-based dependences."""
        return self.deps.printable()

    @property
    def width(self) -> int:
        return max(m.dim(isl.dim_type.out) for m in isl_model.maps(self.schedule))

    def _remap(self, outs: list) -> "ScopView":
        """New schedule dims from expressions `outs` over the current dims t0.."""
        ts = ", ".join(f"t{k}" for k in range(self.width))
        m = isl.Map.read_from_str(self.model.ctx, f"{{ [{ts}] -> [{', '.join(outs)}] }}")
        self.schedule = self.schedule.apply_range(isl.UnionMap.from_map(m))
        return self

    def interchange(self, a: int, b: int) -> "ScopView":
        """Swap schedule dimensions a and b."""
        outs = [f"t{k}" for k in range(self.width)]
        outs[a], outs[b] = outs[b], outs[a]
        return self._remap(outs)

    def skew(self, dim: int, by: int, factor: int = 1) -> "ScopView":
        """Dimension `dim` becomes t_dim + factor * t_by."""
        outs = [f"t{k}" for k in range(self.width)]
        outs[dim] = f"t{dim} + {int(factor)} * t{by}"
        return self._remap(outs)

    def tile(self, dim: int, size: int) -> "ScopView":
        """Strip-mine dimension `dim` by `size`: a tile dimension floor(t/size) is inserted before it
        (interchange tile dimensions outward to tile a band)."""
        outs = [f"t{k}" for k in range(self.width)]
        outs[dim:dim + 1] = [f"floor(t{dim} / {int(size)})", f"t{dim}"]
        self.parallel = {d + (d >= dim) for d in self.parallel}
        return self._remap(outs)

    def fuse(self, dim: int) -> "ScopView":
        """Give every statement the same value (0) at scalar dimension `dim` (fuses the loops below it)."""
        outs = [f"t{k}" for k in range(self.width)]
        outs[dim] = "0"
        return self._remap(outs)

    def parallelize(self, dim: int) -> "ScopView":
        """Run schedule dimension `dim` as a parallel loop (checked by check())."""
        self.parallel.add(int(dim))
        return self

    def violations(self) -> dict:
        """{kind: isl text} of violated dependences (empty when the schedule is legal)."""
        bad = {k: str(v) for k, v in legality.violations(self.model, self.deps, self.schedule).items()}
        for d in sorted(self.parallel):
            for k, v in legality.carried_at(self.model, self.deps, self.schedule, d).items():
                bad[f"{k} carried by parallel dimension {d}"] = str(v)
        return bad

    @property
    def legal(self) -> bool:
        return not self.violations()

    def check(self) -> None:
        """Raise legality.IllegalSchedule naming a violated dependence, if any."""
        legality.check(self.model, self.deps, self.schedule, self.name)
        legality.mark_dims_parallel(self.model, self.deps, legality.schedule_from_map(self.model, str(self.schedule)),
                                    sorted(self.parallel), self.name)

    def document(self) -> dict:
        return {"name": self.name, "schedule": str(self.schedule), "parallel": sorted(self.parallel)}


class Experiment:
    """A C file loaded for scheduling experiments (keeps its MLIR context alive)."""

    def __init__(self, path, clang_args, scops, ctx, module):
        self.path, self.clang_args, self.scops = path, clang_args, scops
        self._ctx, self._module = ctx, module
        # (`load(path).scop(name).model` keeps only the model: it must keep the module alive, whose ops it names;
        # freed with the Experiment, they were read after the free: a crash)
        for s in scops:
            s.experiment = s.model.experiment = s.model.scop.experiment = self

    def scop(self, name: str) -> ScopView:
        for s in self.scops:
            if s.name == name:
                return s
        raise KeyError(f"no SCoP named {name!r}; the program has {', '.join(s.name for s in self.scops)}")

    def write_schedules(self, path: str) -> None:
        """The --schedule=FILE document for the current schedules."""
        with open(path, "w") as f:
            json.dump({"scops": [s.document() for s in self.scops]}, f, indent=1)

    def compile(self, output: str, flags=("-O3",)) -> str:
        """Build an executable with pgcc imposing the current schedules. Returns `output`.

        Raises:
            RuntimeError: pgcc failed (its message, e.g. an illegal schedule, is included).
        """
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            sched = f.name
        try:
            self.write_schedules(sched)
            pgcc = os.path.join(os.path.dirname(sys.executable), "pgcc")
            cmd = [pgcc if os.path.exists(pgcc) else "pgcc", *flags, *self.clang_args, self.path,
                   f"--schedule={sched}", "-o", output]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError(r.stderr.strip())
        finally:
            os.unlink(sched)
        return output

    @staticmethod
    def time(exe: str, threads: int = 1, reps: int = 3, args=()) -> float:
        """Median wall-clock seconds of `reps` runs of `exe` (output discarded) with OMP_NUM_THREADS=threads."""
        env = dict(os.environ, OMP_NUM_THREADS=str(threads))
        times = []
        for _ in range(reps):
            t0 = time.perf_counter()
            subprocess.run([os.path.abspath(exe), *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           env=env, check=True)
            times.append(time.perf_counter() - t0)
        return statistics.median(times)


def load(path: str, *, defines=None, include_dirs=(), scheduled: bool = False,
         options: ScheduleOptions | None = None, clang_args=()) -> Experiment:
    """Load C file `path` and model its SCoPs.

    Args:
        defines: {name: value} or [name] macros; include_dirs: -I directories; clang_args: further parser
        flags (-D, -I, -std= as given to pgcc);
        scheduled: start from pgcc's computed schedule instead of the original one;
        options: ScheduleOptions for `scheduled`.

    Raises:
        CompileError: the program does not compile.
    """
    from mlir import ir

    from polygeist_py.clang_ast import parse
    from polygeist_py.stages import run_stages

    args = []
    items = defines.items() if isinstance(defines, dict) else ((d, None) for d in (defines or ()))
    for k, v in items:
        args.append(f"-D{k}" if v is None else f"-D{k}={v}")
    args += [f"-I{d}" for d in include_dirs]
    args += list(clang_args)
    tu = parse(path, args, None)
    ctx = ir.Context()
    with ctx:
        module = run_stages(tu, path, cpuify=False, on_stage=lambda stage, m: stage == "cpuify")
        # as the driver does before its polyhedral stage (stages.run_stages): loads and stores of rank-0
        # globals (syrk's `alpha`) become affine ops, so that they do not end a SCoP; without it a SCoP that
        # pgcc schedules was missing here, so the autotuner could not tune it nor the tuning database key it
        from polygeist_py import pipeline
        pipeline.run(module, "builtin.module(func.func(affine-raise-from-memref))", "raising to affine")
        views = []
        for r in model_scops(module):
            if r.model is not None:
                sched = compute_schedule(r.model, r.deps, options or ScheduleOptions()) if scheduled \
                    else r.model.original
                views.append(ScopView(r.name, r.model, r.deps, sched))
    return Experiment(path, args, views, ctx, module)
