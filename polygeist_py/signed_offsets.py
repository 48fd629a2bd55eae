"""Address arithmetic from memref accesses may step below its base: no `nuw` on the LLVM GEPs.

MLIR's memref lowering (finalize-memref-to-llvm) marks each element address `getelementptr inbounds|nuw`,
because a memref index is never negative. pgcc's memref for a C pointer (docs/memory_model.md) starts at the
pointer itself, and C lets a pointer index backwards inside its object (`p[-1]`, `end[-2]`, `q[k]` with
`k < 0`): with `nuw`, LLVM treats the negative offset as unsigned (zero-extends it, or folds the access to
poison) and the program reads 4 GiB past the pointer. `inbounds` alone is exactly C's rule (the result stays
in the object; offsets are signed), so after the lowering every GEP keeps `inbounds` and loses `nuw`, as clang
emits `getelementptr inbounds` for C subscripts.

The flags are an MLIR property that the Python bindings neither read nor write (`noWrapFlags` is not an
attribute), so the module goes once through its generic textual form, where properties are spelled out.
MLIR prints an f80 (long double) constant in decimal but parses decimals through a double: such constants are
respelled as their exact bit patterns before the text is parsed again.

The driver, which goes on to LLVM IR anyway, clears the flag in the LLVM IR text instead
(drop_unsigned_wrap_flags_in_llvm_ir): one scan of text that is printed in any case, where the MLIR round trip
printed and parsed the whole module once more (5 s of sqlite3.c's compile). The JIT of the Python API, which
takes the MLIR module itself, keeps the MLIR form.
"""

from __future__ import annotations

import re
from fractions import Fraction

from mlir import ir

from .frontend import x87

NUW = 4  # LLVM::GEPNoWrapFlags: inbounds = 1 | nusw = 2, nuw = 4
_FLAGS = re.compile(r"(\"llvm\.getelementptr\"\([^)]*\) <\{[^}]*?noWrapFlags = )(\d+)( : i32)")


def drop_unsigned_wrap_flags(module: ir.Module) -> ir.Module:
    """The LLVM-dialect `module` with the `nuw` flag of every `llvm.getelementptr` cleared.

    Returns:
        A new module in the same context (`module` itself when no GEP has the flag).
    """
    text = module.operation.get_asm(print_generic_op_form=True, enable_debug_info=True)
    changed = [0]

    def clear(m):
        flags = int(m.group(2))
        if not flags & NUW:
            return m.group(0)
        changed[0] += 1
        return f"{m.group(1)}{flags & ~NUW}{m.group(3)}"

    text = _FLAGS.sub(clear, text)
    if not changed[0]:
        return module
    return ir.Module.parse(exact_f80_constants(text), module.context)


# A quoted string (c"..." data, quoted names, metadata strings: LLVM escapes '"' inside them as \22), skipped
# whole so that no text inside one is touched; or a GEP's flags with `nuw` (LLVM prints `inbounds` or `nusw`,
# then `nuw`), in an instruction or (followed by its parenthesized operands) a constant expression.
_IR_GEP_NUW = re.compile(r'"[^"]*"|getelementptr( inbounds| nusw)? nuw\b( \()?')
_NON_NEGATIVE_INDEX = re.compile(r"i\d+ \d+")


def drop_unsigned_wrap_flags_in_llvm_ir(text: str) -> str:
    """LLVM IR `text` (as printed by LLVM) with `nuw` dropped from every getelementptr, as drop_unsigned_wrap_flags
    does to the LLVM dialect before translation. The translation folds a GEP of constants into a constant
    expression and then infers `nuw` itself when the GEP is `inbounds` and every index a non-negative constant:
    such expressions keep the flag, as they did when it was cleared before translation."""
    if "nuw" not in text:
        return text

    def clear(m):
        whole = m.group(0)
        if whole[0] == '"':
            return whole
        if m.group(2) and m.group(1) == " inbounds" and _non_negative_indices(text, m.end()):
            return whole
        return "getelementptr" + (m.group(1) or "") + (m.group(2) or "")

    return _IR_GEP_NUW.sub(clear, text)


def _non_negative_indices(text: str, start: int) -> bool:
    """Whether the constant GEP whose operand list starts at text[start] (after its '(') has only non-negative
    integer constants as indices (operands: element type, base pointer, then `iN <value>` each)."""
    depth, i, parts, begin = 0, start, [], start
    while i < len(text):
        c = text[i]
        if c in "([<{":
            depth += 1
        elif c in ")]>}":
            if depth == 0:
                parts.append(text[begin:i].strip())
                break
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[begin:i].strip())
            begin = i + 1
        elif c == '"':
            i = text.index('"', i + 1)
        i += 1
    return len(parts) > 2 and all(_NON_NEGATIVE_INDEX.fullmatch(p) for p in parts[2:])


_DECIMAL = r"[-+]?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?"
_F80_SCALAR = re.compile(rf"(?<![\w.])({_DECIMAL}) : f80\b")
_F80_DENSE = re.compile(r"dense<([^<>\"]*)> : (tensor|vector)<([\dx]*)f80>")  # (not a "0x..." blob: exact)


def exact_f80_constants(text: str) -> str:
    """MLIR `text` with every decimal f80 constant (scalar or in a dense attribute) spelled as its 80-bit
    pattern (`0x3FFBCCCCCCCCCCCCCCCD`), which the parser reads exactly."""
    def bits(number: str) -> str:
        value = x87.x87_bits(Fraction(number)) | (1 << 79 if number.startswith("-") else 0)  # (keeps -0.0)
        return f"0x{value:020X}"

    text = _F80_SCALAR.sub(lambda m: f"{bits(m.group(1))} : f80", text)
    return _F80_DENSE.sub(lambda m: "dense<" + re.sub(rf"(?<![\w.]){_DECIMAL}", lambda n: bits(n.group(0)), m.group(1))
                          + f"> : {m.group(2)}<{m.group(3)}f80>", text)
