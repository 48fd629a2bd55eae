"""`switch` as structured control flow.

The body is cut into segments at its top-level `case`/`default` labels. A flag `matched` (an i1 carried like a
variable) says whether control has entered the body: a segment's labels set it when the controlling value
equals one of their constants (`default`: when it equals none of the switch's constants), and each segment runs
under `scf.if (matched and no break/continue/return yet)`. Fall-through is then just `matched` staying set;
`break` sets the switch's own break flag (the walker's loop-exit machinery, with the enclosing loop's `continue`
flag passed through), which guards the remaining segments.

A goto from inside the switch to a label in a segment (`default: dflt: ...`, or inside a case's block) enters
that segment: the segments become one loop that repeats while the label's flag is set (gotos.py), the flag
skips every segment but the label's, and entering it sets `matched` so that fall-through goes on from there.

Labels nested inside other statements of the body (Duff's device), and declarations directly in the body
(their scope spans segments), are rejected with an error naming the construct.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith

from ..clang_ast import K, canonical, children, evaluate
from . import c_types as CT
from . import gotos
from .values import Binding

LABELS = (K.CASE_STMT, K.DEFAULT_STMT)


def segments(fg, body):
    """[(labels, stmt)] of a switch body: labels is a list of int constants and the string 'default'.

    Raises:
        CompileError: for a label nested inside another statement, a GNU case range or a declaration
        directly in the body.
    """
    stmts = children(body) if body.kind == K.COMPOUND_STMT else [body]
    out = []
    for s in stmts:
        labels = []
        while s.kind in LABELS:
            ch = children(s)
            if s.kind == K.CASE_STMT:
                if len(ch) != 2:
                    raise fg.unsupported(s, "case range in a switch")
                v = evaluate(ch[0])
                if not isinstance(v, int):
                    raise fg.unsupported(s, "case label that is not an integer constant")
                labels.append(v)
            else:
                labels.append("default")
            s = ch[-1]
        if s.kind == K.DECL_STMT:
            raise fg.unsupported(s, "declaration directly inside a switch body (put it in braces)")
        nested = find_nested_label(s)
        if nested is not None:
            raise fg.unsupported(nested, "case or default label inside a nested statement of a switch")
        out.append((labels, s))
    return out


def find_nested_label(node):
    """A case/default label inside `node` that belongs to the enclosing switch (not to a nested switch)."""
    if node.kind == K.SWITCH_STMT:
        return None
    if node.kind in LABELS:
        return node
    for ch in node.get_children():
        hit = find_nested_label(ch)
        if hit is not None:
            return hit
    return None


def emit_switch(fg, c):
    """Emit SWITCH_STMT `c` with FunctionGen `fg`.

    Raises:
        CompileError: for a switch with an initializer, on a non-integer value, or with a body `segments`
        rejects."""
    ch = children(c)
    if len(ch) != 2:
        raise fg.unsupported(c, "switch with an initializer or a declaration in its condition")
    cond, body = ch
    segs = segments(fg, body)
    x = fg.rvalue(cond)  # clang has promoted it already
    ct = canonical(cond.type)
    if not CT.is_int(ct):
        raise fg.unsupported(cond, f"switch on a value of type '{cond.type.spelling}'")
    width = ir.IntegerType(x.type).width
    consts = [v for labels, _ in segs for v in labels if v != "default"]

    def hit(labels):
        h = None
        for v in labels:
            if v == "default":
                t = fg.const_bool(True)
                for k in consts:  # default: no case matches
                    t = arith.andi(t, arith.cmpi(arith.CmpIPredicate.ne, x, fg.const_int(x.type, wrap(k, width))))
            else:
                t = arith.cmpi(arith.CmpIPredicate.eq, x, fg.const_int(x.type, wrap(v, width)))
            h = t if h is None else arith.ori(h, t)
        return h

    lid = next(fg.loop_ids)
    matched, brk = ("switch.matched", lid), ("switch.brk", lid)
    outer_cont = fg.loops[-1][1] if fg.loops else None
    fg.env[matched] = _binding(fg.const_bool(False))
    fg.env[brk] = _binding(fg.const_bool(False))
    fg.loops.append((brk, outer_cont))
    jumps = gotos.switch_labels(fg, c)  # labels of segments that gotos in this switch enter
    for n in jumps:
        fg.env[gotos.flag_key(n)] = _binding(fg.const_bool(False))

    def emit_segments():
        for labels, stmt in segs:
            if labels:
                fg.env[matched] = _binding(arith.ori(fg.env[matched].value, hit(labels)))
            if stmt.kind == K.NULL_STMT:
                continue
            entered = tuple(gotos.flag_key(n) for n, entry in jumps.items() if entry == stmt.hash)
            for k in entered:  # a goto enters here: as if this segment's case matched
                fg.env[matched] = _binding(arith.ori(fg.env[matched].value, fg.env[k].value))
            go = fg.env[matched].value
            rest = fg.not_exited(exclude=entered)
            if rest is not None:
                go = arith.andi(go, rest)
            fg.emit_if(go, lambda s=stmt: fg.visit(s), None, [stmt])

    try:
        if jumps:
            gotos.repeat_while_set(fg, [gotos.flag_key(n) for n in jumps], [s for _, s in segs], emit_segments,
                                   extra=[matched, brk])
        else:
            emit_segments()
    finally:
        fg.loops.pop()
        for n in jumps:
            fg.env.pop(gotos.flag_key(n), None)
    del fg.env[matched]
    del fg.env[brk]


def wrap(v: int, width: int) -> int:
    """Case constant `v` converted to the (promoted) controlling type of `width` bits, as a signed value."""
    v &= (1 << width) - 1
    return v - (1 << width) if v >> (width - 1) else v


def _binding(v):
    return Binding(v)
