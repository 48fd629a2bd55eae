"""`goto` to a label of an enclosing block, as structured control flow.

Each label `L` that is a direct statement of a compound statement `S` gets a flag (an i1 carried like a
variable, key ("goto", "L")) while `S` is emitted. `goto L` sets the flag; like `return`, a set flag makes
every statement after it skip and every loop around it stop, up to `S`. The statements of `S` from the label
to the end become one loop:

    do { flag_L = false; L: stmt; ...rest of S... } while (flag_L);

so a backward jump runs them again, and a forward jump (from earlier statements of `S`, which were skipped
since the flag was set) enters at the label. A `goto` whose label is not in a block enclosing it (a jump
into a block), or a label elsewhere (the body of an `if`, a switch segment), is rejected with an error.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, scf

from ..clang_ast import K, children

PREFIX = "goto"


def flag_key(name: str):
    """The walker's environment key of label `name`'s flag."""
    return (PREFIX, name)


def is_flag(key) -> bool:
    """Whether environment key `key` is a label's flag."""
    return isinstance(key, tuple) and len(key) == 2 and key[0] == PREFIX


def direct_labels(stmts):
    """Names of the labels written directly in statement list `stmts` (`L1: L2: s` gives both)."""
    out = []
    for s in stmts:
        while s.kind == K.LABEL_STMT:
            out.append(s.spelling)
            s = children(s)[0]
    return out


def emit_compound(fg, stmts):
    """Emit a compound statement's `stmts` with flags for its labels (see the module docstring)."""
    from .codegen import Binding
    names = [n for n in direct_labels(stmts) if flag_key(n) not in fg.env]
    for n in names:
        fg.env[flag_key(n)] = Binding(fg.const_bool(False))
    fg.emit_stmts(stmts)
    for n in names:
        fg.env.pop(flag_key(n), None)


def emit_goto(fg, c):
    """`goto L`: set L's flag.

    Raises:
        CompileError: when L is not a label of a block enclosing the goto (a jump into a block)."""
    from .codegen import Binding
    name = next((ch.spelling for ch in children(c) if ch.kind == K.LABEL_REF), c.spelling)
    key = flag_key(name)
    if key not in fg.env:
        raise fg.error(c, f"goto is not supported here: label '{name}' is not in a block enclosing the goto")
    fg.env[key] = Binding(fg.const_bool(True))


def emit_labeled(fg, label, rest):
    """Emit `L: stmt` followed by `rest` (the remaining statements of the block) as the label's loop.
    Runs when no other exit (return, break, continue, another goto) is pending; L's own flag means "enter".

    Raises:
        CompileError: when the label has no flag (it is not directly in a compound statement)."""
    key = flag_key(label.spelling)
    if key not in fg.env:
        raise fg.error(label, f"goto is not supported here: label '{label.spelling}' is not directly in a block")
    body = [children(label)[0]] + list(rest)
    others = fg.not_exited(exclude=(key,))
    if others is None:
        _loop(fg, key, body)
    else:
        fg.emit_if(others, lambda: _loop(fg, key, body), None, body)


def _loop(fg, key, body):
    from .codegen import Binding
    keys = fg.carried(body, extra=[key])
    if key not in keys:
        keys.append(key)
    types = [fg.env[k].value.type for k in keys]
    op = scf.WhileOp(types, [fg.env[k].value for k in keys])
    before = op.before.blocks.append(*types)
    after = op.after.blocks.append(*types)
    saved = dict(fg.env)
    with ir.InsertionPoint(before):
        for k, a in zip(keys, before.arguments):
            fg.env[k] = Binding(a)
        fg.env[key] = Binding(fg.const_bool(False))
        fg.emit_stmts(body)
        scf.ConditionOp(fg.env[key].value, [fg.env[k].value for k in keys])
    with ir.InsertionPoint(after):
        scf.YieldOp(list(after.arguments))
    fg.env = saved
    for k, r in zip(keys, op.results):
        fg.env[k] = Binding(r)
    fg.env[key] = Binding(arith.constant(ir.IntegerType.get_signless(1), 0))
