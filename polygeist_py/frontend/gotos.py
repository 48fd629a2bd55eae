"""`goto` as structured control flow.

Every label `L` gets a flag (an i1 carried like a variable, key ("goto", "L")), live while the innermost
compound statement `S` that encloses the label and all its gotos is emitted. `goto L` sets the flag; like
`return`, a set flag makes every statement after it skip and every loop around it stop, up to `S`. The
statements of `S` from the one that contains the label (its entry) to the end become one loop:

    do { <entry>; ...rest of S... } while (flag_L);

A set flag steers control to the label without running anything on the way: statements before the path to
the label are skipped, an `if` on the path takes the branch that holds the label without evaluating its
condition, and the label itself clears the flag. So a backward jump runs the statements again, and a forward
jump, or a jump into a block of an `if` (csmith makes both), enters at the label; a loop on the way starts at
its body, without its test (and a `for` loop's initialization: loops.py). A jump from one case of a
`switch` into another case (`default: dflt: ...`, `intcase: ...`, a label inside a case's block) makes the
segments of that switch one loop that repeats while the flag is set (switch.py), and the segment's statement
is the label's entry; a jump into a switch body from outside it is rejected with an error naming it.

A block with many labels at its top level (a scanner that re2c writes, a hand-written state machine) would
nest one loop per label, each carrying every flag: quadratic in the labels. When at least DISPATCH_MIN labels
have the block as their scope and all of them stand at its top level, the block becomes a dispatch loop
instead: its statements from the first label on are segments, one per label, and

    <statements before the first label>; while (jump) switch (segment) { case k: jump = 0; <segment k> ... }

where `goto L` sets the one flag `jump` and `segment` to L's segment, and a segment that ends normally falls
into the next one the same way. Its size is linear in the labels.

GNU labels as values: `&&L` is the label's address, a small non-null integer as a pointer (`address`), and a
computed goto `goto *p` may reach every label whose address the function takes: it sets each such label's flag
to `p == &&L` (the plan counts it as a goto to each of them). Label addresses compare and index tables as in gcc;
jumping to the address of a label of another function is undefined in GNU C, as it is here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mlir import ir
from mlir.dialects import arith, llvm, scf

from ..clang_ast import K, T, children
from ..errors import error_at
from .scan import contains, exits
from .values import Binding

PREFIX = "goto"
TARGET = "goto-segment"
DISPATCH_MIN = 6  # labels of one block from which it becomes a dispatch loop
ROUTE_KINDS = (K.COMPOUND_STMT, K.IF_STMT, K.LABEL_STMT)
LOOP_KINDS = (K.WHILE_STMT, K.FOR_STMT, K.DO_STMT)
CASE_KINDS = (K.CASE_STMT, K.DEFAULT_STMT)


def flag_key(name: str):
    """The walker's environment key of label `name`'s flag."""
    return (PREFIX, name)


def is_flag(key) -> bool:
    """Whether environment key `key` is a label's flag (or a dispatch loop's)."""
    return isinstance(key, tuple) and len(key) == 2 and key[0] == PREFIX


def is_jump_state(key) -> bool:
    """Whether environment key `key` is a goto's state: a label's flag, or a dispatch loop's flag or segment."""
    return isinstance(key, tuple) and len(key) == 2 and key[0] in (PREFIX, TARGET)


def dispatch_keys(scope: int):
    """The environment keys (flag, segment) of the dispatch loop of the block whose hash is `scope`."""
    return (PREFIX, f"@dispatch{scope}"), (TARGET, scope)


@dataclass
class LabelPlan:
    """Where label `name` lives: its flag's compound `scope`, the child of it that holds the label (`entry`),
    the statements strictly inside the entry on the way to the label (`route`, by hash), the branch (1 then,
    2 else) each `if` on the way takes, and an error message when the label cannot be reached structurally."""
    name: str
    scope: int
    entry: int
    route: set = field(default_factory=set)
    branch: dict = field(default_factory=dict)
    error: str | None = None
    in_switch: bool = False  # the label is in a segment of switch `scope` (switch.py), its gotos all in the switch
    address: int | None = None  # `&&name` is taken: its value (address), and computed gotos may reach it
    segment: int | None = None  # the label's segment when its block is a dispatch loop (emit_dispatch)


def plan(body) -> dict:
    """LabelPlans of the labels in function body `body`, by name."""
    labels, gotos, computed = {}, {}, []

    def walk(c, path):
        path = path + [c]
        if c.kind == K.LABEL_STMT:
            if c.spelling in labels:  # (GNU local labels: `__label__ L;` in each expansion of a macro)
                raise error_at(c, f"unsupported construct: a second local label '{c.spelling}' in one function "
                                  "(labels are planned by name)")
            labels[c.spelling] = path
        elif c.kind == K.GOTO_STMT:
            gotos.setdefault(target(c), []).append(path)
        elif c.kind == K.INDIRECT_GOTO_STMT:
            computed.append(path)
        elif c.kind in CASE_KINDS and is_nested_case(path):
            # a case label inside a statement of the switch body (a state machine's `case S: ...` in a loop): a
            # label that the switch's dispatch jumps to from the top of its body
            body = next(i for i in range(len(path) - 1, -1, -1) if path[i - 1].kind == K.SWITCH_STMT)
            labels[case_label(c)] = path
            gotos.setdefault(case_label(c), []).append(path[:body + 1] + [None])
        for ch in c.get_children():
            if ch.kind.is_statement():
                walk(ch, path)

    walk(body, [])
    # (the whole-body scan for `&&L` only where a computed goto needs its targets: not on every function)
    taken = {ch.spelling: address(ch) for e in body.walk_preorder() if e.kind == K.ADDR_LABEL_EXPR
             for ch in e.get_children() if ch.kind == K.LABEL_REF} if computed else {}
    for name in taken:
        gotos.setdefault(name, []).extend(computed)
    out, blocks, top = {}, {}, set()
    for name, lpath in labels.items():
        paths = [lpath] + gotos.get(name, [])
        p = min(len(q) for q in paths)
        for q in paths[1:]:
            p = next((i for i in range(p) if q[i] != lpath[i]), p)
        # the innermost compound enclosing everything, strictly above the label
        s = max(i for i in range(min(p, len(lpath) - 1)) if lpath[i].kind == K.COMPOUND_STMT)
        way = lpath[s + 1:]
        in_switch = s > 0 and lpath[s - 1].kind == K.SWITCH_STMT
        if in_switch:  # the switch's segments are the loop; the entry is the statement of the label's segment
            while way[0].kind in CASE_KINDS:
                way = way[1:]
        lp = LabelPlan(name, lpath[s - 1 if in_switch else s].hash, way[0].hash, in_switch=in_switch)
        blocks[lp.scope] = lpath[s]
        if all(x.kind == K.LABEL_STMT for x in way):  # at the block's top level (`a: b: stmt` too)
            top.add(name)
        for node, nxt in zip(way[:-1], way[1:]):
            if node.kind in LOOP_KINDS and nxt == loop_body(node):  # entered without its test (loops.py)
                if node.hash != lp.entry:
                    lp.route.add(node.hash)
                continue
            if node.kind == K.SWITCH_STMT and nxt == children(node)[-1]:  # entered at the label's case (switch.py)
                if node.hash != lp.entry:
                    lp.route.add(node.hash)
                continue
            if node.kind in CASE_KINDS and _case_chain_parent(lpath, node).kind in (K.COMPOUND_STMT, K.SWITCH_STMT):
                lp.route.add(node.hash)  # (the case labels of the segment on the way; `case 1: case 2: L:` too)
                continue
            if node.kind not in ROUTE_KINDS and not (in_switch and node.kind in CASE_KINDS):
                what = {K.SWITCH_STMT: "a switch body"}.get(node.kind, "a loop body")
                lp.error = f"goto is not supported here: jump into {what} (label '{name}')"
                break
            if node.kind == K.IF_STMT:
                ch = children(node)
                lp.branch[node.hash] = next(i for i, x in enumerate(ch) if x == nxt)
            if node.hash != lp.entry:
                lp.route.add(node.hash)
        if lp.error is None and way[0].hash != lpath[-1].hash:
            lp.route.add(lpath[-1].hash)
        lp.address = taken.get(name)
        out[name] = lp
    _plan_dispatch(out, blocks, top)
    return out


def _case_chain_parent(path, node):
    """The statement above case label `node` in `path` and the case labels stacked over it (`case 1: case 2:`)."""
    i = path.index(node) - 1
    while i > 0 and path[i].kind in CASE_KINDS:
        i -= 1
    return path[i]


def _plan_dispatch(plans, blocks, top):
    """Give the labels of each block that becomes a dispatch loop their segments (see the module's docstring):
    a block whose labels number DISPATCH_MIN or more, all at its top level, none in a switch, none whose address
    is taken, and no declaration after its first label (a segment's variables would not reach the next)."""
    by_scope = {}
    for lp in plans.values():
        by_scope.setdefault(lp.scope, []).append(lp)
    for scope, lps in by_scope.items():
        if len(lps) < DISPATCH_MIN or any(lp.name not in top or lp.in_switch or lp.address is not None
                                          or lp.error for lp in lps):
            continue
        kids = children(blocks[scope])
        starts = segment_starts(kids, {lp.entry for lp in lps})
        if any(k.kind == K.DECL_STMT for k in kids[starts[0]:]):
            continue
        index = {kids[i].hash: n for n, i in enumerate(starts)}
        for lp in lps:
            lp.segment = index[lp.entry]


def segment_starts(kids, entries) -> list:
    """Indices in statements `kids` of a dispatch block of the labels that start its segments (hashes
    `entries`)."""
    return [i for i, k in enumerate(kids) if k.hash in entries]


def address(label_ref) -> int:
    """The value of `&&L` for LABEL_REF `label_ref`: 1 + the byte offset of label L's statement in its file, the
    same in every function and static initializer that names L, and never null. (emit_computed_goto checks that
    two labels of one function, e.g. written by one macro expansion, do not share it.)"""
    return 1 + label_ref.referenced.extent.start.offset


def loop_body(loop):
    """The body statement of a WHILE_STMT, FOR_STMT or DO_STMT."""
    ch = children(loop)
    return ch[0] if loop.kind == K.DO_STMT else ch[-1]


def entering_switch(fg, switch) -> dict:
    """{flag key: hashes of the statements on its way} of the live labels inside the body of SWITCH_STMT
    `switch` that a goto from outside it seeks (also from another segment of an enclosing switch, pcre2's
    `goto SET_RECURSION` from `case '\\'` into a switch under `case '('`): the segment on the way is entered
    without the dispatch."""
    return {flag_key(n): lp.route for n, lp in _plans(fg).items() if flag_key(n) in fg.env
            and not (lp.in_switch and lp.scope == switch.hash)  # (its own segments: switch_labels)
            and (switch.hash in lp.route or lp.entry == switch.hash)}


def entering(fg, loop) -> list:
    """Flag keys of the live labels inside the body of `loop` that a goto from outside it steers to: the loop
    starts at its body while one is set, without its initialization or test."""
    return [flag_key(n) for n, lp in _plans(fg).items() if flag_key(n) in fg.env
            and (loop.hash in lp.route or lp.entry == loop.hash)]


def case_label(case) -> str:
    """The label name of a case label nested inside a statement of its switch body (plan)."""
    return f"case@{case.hash}"


def is_nested_case(path) -> bool:
    """Whether the CASE_STMT/DEFAULT_STMT at the end of `path` (statements from the function body) sits inside
    a statement of its switch's body, not in the chain of labels at the top level of the body."""
    i = len(path) - 1
    while i > 0 and path[i - 1].kind in CASE_KINDS:
        i -= 1
    parent = path[i - 1] if i > 0 else None
    if parent is None:
        return False
    if parent.kind == K.SWITCH_STMT:
        return False
    return not (parent.kind == K.COMPOUND_STMT and i > 1 and path[i - 2].kind == K.SWITCH_STMT)


def emit_case_label(fg, c):
    """A case label nested in a statement of its switch body reached: clear its flag, then its statement."""
    key = flag_key(case_label(c))
    if key not in fg.env:
        raise fg.unsupported(c, "case label outside the top level of a switch body")
    fg.env[key] = Binding(fg.const_bool(False))
    fg.visit(children(c)[-1])


def target(goto) -> str:
    """The label name of GOTO_STMT `goto`."""
    return next((ch.spelling for ch in children(goto) if ch.kind == K.LABEL_REF), goto.spelling)


def _plans(fg):
    return fg.__dict__.get("goto_plan", {})


def enter_expression_block(fg, block) -> list:
    """Plan the labels of compound statement `block` of a GNU statement expression (`plan` walks statements
    only, so the function's plan lacks them) and raise their flags; returns the flags' keys, which the caller
    drops when the block ends. Every goto to them is inside the block (exprs.expr_StmtExpr checks it).

    Raises:
        CompileError: a label of the block has the name of another label of the function."""
    inner = plan(block)
    plans = fg.__dict__.setdefault("goto_plan", {})
    for name, lp in inner.items():
        if name in plans and plans[name].scope != lp.scope:  # (the same block emitted again passes)
            raise error_at(block, f"unsupported construct: a second local label '{name}' in one function "
                                  "(labels are planned by name)")
        plans[name] = lp
    keys = [flag_key(n) for n, lp in inner.items() if lp.scope == block.hash and lp.segment is None]
    for k in keys:
        fg.env[k] = Binding(fg.const_bool(False))
    return keys


def emit_compound(fg, c):
    """Emit compound statement `c`, with the flags of the labels whose scope it is."""
    if "goto_plan" not in fg.__dict__:  # the first compound is the function body
        fg.goto_plan = plan(c)
    names = [n for n, lp in _plans(fg).items() if lp.scope == c.hash and flag_key(n) not in fg.env
             and lp.segment is None]  # (a dispatch loop's labels share one flag: emit_dispatch)
    for n in names:
        fg.env[flag_key(n)] = Binding(fg.const_bool(False))
    # a block that declares a variable-length array frees it at its end, as C's scoping says (and gcc does),
    # when it can run again: else every pass through it (a loop's body, or a block inside a label's loop that
    # a goto jumps back before) would leave its array on the stack. (Elsewhere the function's return frees it,
    # and a derivative's reverse sweep may still read it after the block.)
    again = fg.loops or fg.label_loops
    sp = llvm.StackSaveOp(ir.Type.parse("!llvm.ptr")).result if again and declares_vla(c) else None
    fg.block_cleanups.append([])  # `cleanup(f)` variables declared in this block (decls.arm_cleanup)
    dispatch = [lp for lp in _plans(fg).values() if lp.scope == c.hash and lp.segment is not None]
    head = next(iter(children(c)), None)
    if head is not None and head.kind == K.DECL_STMT and not dispatch and not contains(c, _ENTRY_POINTS) \
            and not exits(head, _ALL_JUMPS):
        fg.sure_declarations.add(head.hash)  # (first in a block nothing jumps into: its cleanups need no flag)
    if dispatch:
        emit_dispatch(fg, c, {lp.entry for lp in dispatch})
    else:
        fg.emit_stmts(children(c))
    fg.run_cleanups(fg.block_cleanups.pop())
    if sp is not None:
        llvm.StackRestoreOp(sp)
    for n in names:
        fg.env.pop(flag_key(n), None)


_ENTRY_POINTS = (K.LABEL_STMT, K.CASE_STMT, K.DEFAULT_STMT)  # (where a jump can enter a block past its head)
_ALL_JUMPS = (K.RETURN_STMT, K.GOTO_STMT, K.BREAK_STMT, K.CONTINUE_STMT)


def emit_dispatch(fg, block, entries):
    """Compound statement `block` as a dispatch loop over its segments (the labels' statements: hashes `entries`);
    see the module's docstring."""
    kids = children(block)
    starts = segment_starts(kids, entries)
    segments = [kids[a:b] for a, b in zip(starts, starts[1:] + [len(kids)])]
    body = kids[starts[0]:]
    flag, segment = dispatch_keys(block.hash)
    index = ir.IndexType.get()
    fg.env[flag] = Binding(fg.const_bool(False))
    fg.env[segment] = Binding(arith.constant(index, 0))
    if starts[0]:
        fg.emit_stmts(kids[:starts[0]])
    _fall_into(fg, flag, segment, 0)

    def run(k):
        def emit():
            fg.emit_stmts(segments[k])
            if k + 1 < len(segments):
                _fall_into(fg, flag, segment, k + 1)
        return emit

    def dispatch():
        fg.env[flag] = Binding(fg.const_bool(False))
        fg.emit_index_switch(fg.env[segment].value, list(range(len(segments))),
                             [run(k) for k in range(len(segments))], None, body, extra=(flag, segment))

    fg.emit_if(fg.env[flag].value, lambda: repeat_while_set(fg, [flag], body, dispatch, extra=(segment,)),
               None, body)
    fg.env.pop(flag, None)
    fg.env.pop(segment, None)


def _fall_into(fg, flag, segment, k):
    """A segment (or what precedes the first) ended: unless an exit is pending, go on to segment `k`."""
    go = fg.not_exited()
    fg.env[flag] = Binding(arith.ori(fg.env[flag].value, go))
    fg.env[segment] = Binding(arith.select(go, arith.constant(ir.IndexType.get(), k), fg.env[segment].value))


def declares_vla(block) -> bool:
    """Whether compound statement `block` declares a variable-length array among its own statements."""
    return declares_vla_in(children(block))


def declares_vla_in(stmts) -> bool:
    """Whether one of statements `stmts` declares a variable-length array."""
    return any(s.kind == K.DECL_STMT and any(d.kind == K.VAR_DECL and d.type.get_canonical().kind == T.VARIABLEARRAY
                                             for d in children(s))
               for s in stmts)


def entries(fg, s):
    """(labels whose loop starts at statement `s`, labels whose path passes through `s`), live flags only."""
    loop, route = [], []
    for n, lp in _plans(fg).items():
        if flag_key(n) not in fg.env:
            continue
        if lp.entry == s.hash:
            if not lp.in_switch:  # (a switch's segments are that label's loop: switch.py)
                loop.append(n)
        elif s.hash in lp.route:
            route.append(n)
    return loop, route


def emit_goto(fg, c):
    """`goto L`: set L's flag.

    Raises:
        CompileError: when L cannot be reached in structured control flow (a jump into a switch body)."""
    name = target(c)
    lp = _plans(fg).get(name)
    if lp is not None and lp.error:
        raise fg.error(c, lp.error)
    if lp is not None and lp.segment is not None:  # a label of a dispatch loop: its segment next
        flag, segment = dispatch_keys(lp.scope)
        if flag not in fg.env:
            raise fg.error(c, f"goto is not supported here (label '{name}')")
        fg.env[flag] = Binding(fg.const_bool(True))
        fg.env[segment] = Binding(arith.constant(ir.IndexType.get(), lp.segment))
        return
    if flag_key(name) not in fg.env:
        raise fg.error(c, f"goto is not supported here (label '{name}')")
    fg.env[flag_key(name)] = Binding(fg.const_bool(True))


def emit_computed_goto(fg, c):
    """`goto *p`: set the flag of each label whose address the function takes to `p == &&L`.

    Raises:
        CompileError: two labels share an address, or a label cannot be reached in structured control flow.
        (clang rejects a computed goto in a function that takes no label's address.)"""
    targets = [lp for lp in _plans(fg).values() if lp.address is not None]
    if len({lp.address for lp in targets}) < len(targets):
        raise fg.error(c, "unsupported construct: computed goto to labels written by one macro expansion")
    i64 = ir.IntegerType.get_signless(64)
    p = llvm.PtrToIntOp(i64, fg.raw_pointer(children(c)[0])).result
    for lp in targets:
        if lp.error:
            raise fg.error(c, lp.error)
        if flag_key(lp.name) not in fg.env:
            raise fg.error(c, f"goto is not supported here (label '{lp.name}')")
        fg.env[flag_key(lp.name)] = Binding(arith.cmpi(arith.CmpIPredicate.eq, p, arith.constant(i64, lp.address)))


def label_address(label_ref):
    """`&&L` (LABEL_REF `label_ref`) as an !llvm.ptr at the insertion point (also in a global's initializer)."""
    i64 = ir.IntegerType.get_signless(64)
    return llvm.IntToPtrOp(ir.Type.parse("!llvm.ptr"),
                           llvm.ConstantOp(i64, ir.IntegerAttr.get(i64, address(label_ref))).result).result


def emit_label_flag(fg, c):
    """LABEL_STMT `c` reached as the value of a statement expression: its flag cleared (its statement is the
    caller's)."""
    if flag_key(c.spelling) in fg.env:
        fg.env[flag_key(c.spelling)] = Binding(fg.const_bool(False))


def emit_label(fg, c):
    """`L: stmt` reached: clear L's flag, then the statement."""
    lp = _plans(fg).get(c.spelling)
    if lp is not None and lp.error:
        raise fg.error(c, lp.error)
    if lp is not None and lp.segment is not None:  # (its segment's dispatch has cleared the flag)
        fg.visit(children(c)[0])
        return
    if flag_key(c.spelling) not in fg.env:
        raise fg.error(c, f"goto is not supported here: label '{c.spelling}' inside a switch case")
    fg.env[flag_key(c.spelling)] = Binding(fg.const_bool(False))
    fg.visit(children(c)[0])


def if_condition(fg, c, cond):
    """The i1 an `if` on the way to a label branches on: the branch holding the label when its flag is set,
    else the C condition (not evaluated then); None when no live label's path passes through `c`."""
    then_f = else_f = None
    for n, lp in _plans(fg).items():
        b = lp.branch.get(c.hash)
        if b is None or flag_key(n) not in fg.env:
            continue
        f = fg.env[flag_key(n)].value
        if b == 1:
            then_f = f if then_f is None else arith.ori(then_f, f)
        else:
            else_f = f if else_f is None else arith.ori(else_f, f)
    if then_f is None and else_f is None:
        return None
    steer = then_f if else_f is None else else_f if then_f is None else arith.ori(then_f, else_f)
    i1 = ir.IntegerType.get_signless(1)
    return fg.emit_if(steer, lambda: then_f if then_f is not None else fg.const_bool(False),
                      lambda: fg.condition(cond), [cond], result_type=i1)


def emit_route(fg, s, names):
    """Statement `s` on the way to labels `names`: runs unless another exit is pending."""
    go = fg.not_exited(exclude=tuple(flag_key(n) for n in names))
    if go is None:
        fg.visit(s)
    else:
        fg.emit_if(go, lambda: fg.visit(s), None, [s])


def emit_labeled(fg, entry, rest, names, route=()):
    """The loop of labels `names` over their entry statement and the rest of the block; it runs when no other
    exit (return, break, continue, another goto) is pending, or to reach labels `route` inside `entry`."""
    keys = tuple(flag_key(n) for n in names)
    body = [entry] + list(rest)
    # labels later in the block (`a: ...; continue; b: ...;`) are inside this loop too: a goto to one of them
    # enters the loop, skips the entry and reaches its own label through the rest
    later = {r.hash for r in rest}
    # (also a label of an outer block whose way passes through the rest: `{ L2: {...} L3: ... }` with L3's gotos
    # outside the braces; skipping this loop would skip L3, and its flag would stay set)
    inner = tuple(flag_key(n) for n, lp in _plans(fg).items() if flag_key(n) in fg.env
                  and (lp.entry in later or later & lp.route))
    entering = keys + tuple(flag_key(n) for n in route)
    others = fg.not_exited(exclude=entering + inner)
    if others is None:
        _loop(fg, keys, body, entering, bool(inner))
    else:
        fg.emit_if(others, lambda: _loop(fg, keys, body, entering, bool(inner)), None, body)


def switch_labels(fg, switch) -> dict:
    """{label name: hash of the segment statement that holds it} of the labels in the segments of SWITCH_STMT
    `switch` that gotos inside the switch target."""
    return {n: lp.entry for n, lp in _plans(fg).items() if lp.in_switch and lp.scope == switch.hash}


def repeat_while_set(fg, flags, nodes, emit, extra=()):
    """scf.while whose before region runs `emit()` (which emits statements `nodes`) and repeats while one of
    `flags` is set; `extra`: more environment keys the body changes (carried through the loop)."""
    _loop(fg, flags, nodes, emit=emit, extra=extra)


def _loop(fg, flags, body, entering=(), seek_later=False, emit=None, extra=()):
    """scf.while whose before region runs `body` (or `emit()`) and repeats while one of `flags` is set."""
    keys = fg.carried(body, extra=list(flags) + list(extra))
    keys += [k for k in flags if k not in keys]
    types = [fg.env[k].value.type for k in keys]
    op = scf.WhileOp(types, [fg.env[k].value for k in keys])
    before = op.before.blocks.append(*types)
    after = op.after.blocks.append(*types)
    saved = dict(fg.env)
    with ir.InsertionPoint(before):
        for k, a in zip(keys, before.arguments):
            fg.env[k] = Binding(a)
        # a VLA declared after the label is freed when a goto jumps back before its declaration (C11 6.2.4p7)
        sp = llvm.StackSaveOp(ir.Type.parse("!llvm.ptr")).result if declares_vla_in(body) else None
        fg.label_loops += 1
        if emit is not None:
            emit()
            body = []
        first, rest = (body[0], body[1:]) if body else (None, [])
        go = fg.not_exited(exclude=entering)  # (entered as it is, unless a later label of the block is sought)
        if first is None:
            pass
        elif go is None:
            fg.visit(first)
        else:
            fg.emit_if(go, lambda: fg.visit(first), None, [first])
        if rest and (fg.may_exit(first) or seek_later):  # (what precedes a sought later label is skipped)
            fg.emit_rest(rest)
        elif rest:
            fg.emit_stmts(rest)
        again = None
        for k in flags:
            again = fg.env[k].value if again is None else arith.ori(again, fg.env[k].value)
        if sp is not None:
            llvm.StackRestoreOp(sp)
        fg.label_loops -= 1
        scf.ConditionOp(again, [fg.env[k].value for k in keys])
    with ir.InsertionPoint(after):
        scf.YieldOp(list(after.arguments))
    fg.env = saved
    for k, r in zip(keys, op.results):
        fg.env[k] = Binding(r)
    for k in flags:
        fg.env[k] = Binding(arith.constant(ir.IntegerType.get_signless(1), 0))
