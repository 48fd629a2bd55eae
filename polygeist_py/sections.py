"""Object-file sections (`__attribute__((section("name")))` on functions and global or static variables): the
frontend records them on the module (`pgcc.sections`), and after the lowering to the LLVM dialect each named
`llvm.func` / `llvm.mlir.global` gets its `section` attribute, as clang emits `section "name"` (a memref.global
loses its attributes in the lowering, so the section cannot be set earlier).
"""

from __future__ import annotations

from mlir import ir

ATTR = "pgcc.sections"


def record(module: ir.Module, sections: dict) -> None:
    """Note on `module` the sections of its symbols: `sections` maps a symbol to its section name (str)."""
    module.operation.attributes[ATTR] = ir.DictAttr.get(
        {name: ir.StringAttr.get(section) for name, section in sections.items()})


def apply_sections(module: ir.Module) -> None:
    """After the lowering: set the recorded section on each function and global of `module` (in place); a symbol
    that the lowering dropped (an unused static) has nothing to place."""
    if ATTR not in module.operation.attributes:
        return
    recorded = ir.DictAttr(module.operation.attributes[ATTR])
    table = {recorded[i].name: recorded[i].attr for i in range(len(recorded))}
    del module.operation.attributes[ATTR]
    for op in module.body.operations:
        if op.name in ("llvm.func", "llvm.mlir.global") and "sym_name" in op.attributes:
            name = ir.StringAttr(op.attributes["sym_name"]).value
            if name in table:
                op.attributes["section"] = table[name]
