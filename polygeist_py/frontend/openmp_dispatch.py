"""Which lowering an OpenMP directive gets: the dispatch from a statement's `#pragma omp` directives to the simple
forms (openmp.py: `scf.parallel`), general regions and the constructs inside them (openmp_regions.py: `omp`
dialect ops), atomics (openmp.py, openmp_atomic.py). The modules it dispatches to reach it back only through
the walker (`StmtGen.emit_directives`), so imports go one way.
"""

from __future__ import annotations

from ..clang_ast import K
from . import openmp as O
from . import openmp_atomic as OA
from . import openmp_regions as OR
from . import openmp_scan as OS


def emit(gen, stmt, dirs: list) -> None:
    """Emit statement `stmt` that has the OpenMP directives `dirs` attached (stmts.StmtGen.visit calls
    this instead of visiting it). The simple forms (a parallel loop, a region of worksharing loops) are
    `scf.parallel`; general regions and the constructs inside them are `omp` dialect ops (openmp_regions).

    Raises:
        CompileError: unsupported constructs and data races (see the module docstring).
    """
    while dirs and dirs[0].name in O.STANDALONE:
        OR.emit_standalone(gen, dirs[0])
        dirs = dirs[1:]
    if not dirs:
        return OR.visit_plain(gen, stmt)
    names = [d.name for d in dirs]
    if names == ["atomic"]:
        return O.emit_atomic(gen, stmt, dirs[0])
    if names[0] in ("atomic read", "atomic write", "atomic capture", "atomic compare"):
        return OA.emit_atomic_form(gen, stmt, dirs[0])
    if names[0] in ("parallel for", "parallel", "parallel sections") and OS.general_parallel(gen, stmt, dirs):
        return OR.emit_parallel(gen, stmt, dirs)
    loop = O.unwrap_hints(stmt)
    if names == ["simd"]:
        if loop.kind != K.FOR_STMT:
            raise O.unsupported("simd", dirs[0].where, "the directive must precede a for loop")
        for c in dirs[0].clauses:
            if c.name not in ("private", "reduction", "collapse"):
                raise O.unsupported(c.name, c.where, "on 'simd'")
        return OR.visit_plain(gen, stmt)  # a reduction or private variable of a loop that runs in order
    if names == ["parallel for"]:
        return O.ParallelLoop(gen, loop, dirs[0], dirs[0].clauses).emit()
    if names == ["parallel", "for"]:
        return O.ParallelLoop(gen, O.unwrap_hints(stmt), dirs[1], dirs[0].clauses + dirs[1].clauses).emit()
    if names == ["parallel"] and O.simple_region(gen, stmt):
        return O.parallel_region(gen, stmt, dirs[0])
    if names[0] == "for":
        return OR.emit_for(gen, loop, dirs[0], dirs[0].clauses)
    if names[0] in OS.SYNC:
        return OR.emit_sync(gen, stmt, dirs[0], dirs[1:])
    if names[0] == "section":
        raise O.unsupported("section", dirs[0].where, "outside a 'sections' construct")
    raise O.unsupported(" ".join(names), dirs[0].where)
