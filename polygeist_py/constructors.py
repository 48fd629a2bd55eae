"""Functions that run before and after `main` (`__attribute__((constructor))`/`((destructor))`, with priorities):
the frontend records them on the module (`pgcc.startup`), and after the lowering to the LLVM dialect they become
`llvm.mlir.global_ctors`/`global_dtors` (which must name llvm.func symbols, so they cannot be made earlier), as
clang emits `@llvm.global_ctors`.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import llvm

ATTR = "pgcc.startup"


def record(module: ir.Module, startup: dict) -> None:
    """Note on `module` the constructors and destructors: `startup` maps 'constructor'/'destructor' to
    [(function symbol, priority)]."""
    module.operation.attributes[ATTR] = ir.DictAttr.get({
        which: ir.ArrayAttr.get([ir.ArrayAttr.get([ir.FlatSymbolRefAttr.get(name),
                                                   ir.IntegerAttr.get(ir.IntegerType.get_signless(32), prio)])
                                 for name, prio in entries])
        for which, entries in startup.items()})


def emit_global_ctors(module: ir.Module) -> None:
    """After the lowering: turn the recorded constructors/destructors into llvm.mlir.global_ctors/dtors (in place)."""
    if ATTR not in module.operation.attributes:
        return
    table = ir.DictAttr(module.operation.attributes[ATTR])
    with ir.InsertionPoint(module.body), ir.Location.unknown(module.context):
        for which, op in (("constructor", llvm.GlobalCtorsOp), ("destructor", llvm.GlobalDtorsOp)):
            if which not in table:
                continue
            entries = [ir.ArrayAttr(e) for e in ir.ArrayAttr(table[which])]
            op(ir.ArrayAttr.get([e[0] for e in entries]), ir.ArrayAttr.get([e[1] for e in entries]),
               ir.ArrayAttr.get([ir.Attribute.parse("#llvm.zero") for _ in entries]))
    del module.operation.attributes[ATTR]
