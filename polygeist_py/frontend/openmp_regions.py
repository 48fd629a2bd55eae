"""General OpenMP regions (OpenMP 4.5 sections 2.5, 2.7, 2.13, 2.15) -> the upstream `omp` dialect.

A `#pragma omp parallel` region whose body is arbitrary code is an `omp.parallel` whose region every thread of
the team runs; inside it (or in a function called from it: orphaned constructs) the walker emits

- `#pragma omp for` -> `omp.wsloop` + `omp.loop_nest` (private, firstprivate, lastprivate, reduction with
  + - * & | ^ max min on scalars, arrays of fixed size and sections `p[lo:len]` through pointers, collapse,
  schedule(kind[, chunk]) as the wsloop's schedule, nowait); an orphaned loop outside any region runs on a
  team of one thread, i.e. sequentially, as with gcc;
- `single` (`nowait`, `copyprivate` through a slot shared by the team), `master`, `masked` (`filter(n)`),
  `critical` (named and unnamed), `sections` / `section` (`nowait`), `ordered` (in a loop with the `ordered`
  clause), `barrier`, `flush` -> omp.single, omp.master, omp.masked, omp.critical, omp.sections,
  omp.ordered.region, omp.barrier, omp.flush; `num_threads(n)` and `if(cond)`
  on `parallel` (arguments: openmp_exprs);
- `atomic` read (`v = x`), write (`x = e`), update and capture (`v = x op= e`, `v = x++`, `v = ++x`,
  `{v = x; x op= e;}`, `{x op= e; v = x;}`) on memory -> memref.atomic_rmw (openmp_atomic).

Data sharing. Every thread runs the region's code with its own SSA values, so variables declared in the region
and `private`/`firstprivate` ones are private for free. A variable that a construct region assigns and that is
declared outside it cannot flow out of the omp op as an SSA value: openmp_scan.memory_variables finds those
before the function is emitted and the walker keeps them in memory (as it does address-taken variables); a
shared one lives at the function entry, a thread's own one in an alloca that is moved into the `omp.parallel`
region (one per thread). A reduction accumulates into a private copy (a per-thread alloca set to the operator's
identity) that is combined into the shared variable in an `omp.critical` at the end of the construct, before its
barrier.

Data races are errors (openmp_scan.check_races): a shared variable (declared outside the region and not private,
or a global) assigned in the region outside `critical`/`single`/`master`/`masked`/`section`/`atomic`, or in a
worksharing loop without being listed in its private/lastprivate/reduction clauses. A private scalar that a
worksharing loop assigns and that is read before an iteration assigns it, or after the loop, is an error too
(its value would depend on the schedule). Clause arguments are expressions of numbers and variables
(openmp_exprs). Unsupported: `copyin`, `ordered(n)`, `linear`, tasks, `return`/`goto`/`break` out
of a construct.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, memref, scf, ub
from mlir.dialects import openmp as omp

from ..clang_ast import K, T, canonical, children
from ..errors import CompileError
from . import c_types as CT
from . import openmp as O
from . import openmp_scan as S
from .scan import assigned_decls, decl_key, exits
from .values import Binding, MemVar

PARALLEL_CLAUSES = ("private", "firstprivate", "shared", "default", "num_threads", "proc_bind", "if")


def _state(gen) -> dict:
    """This module's per-function state: the stack of enclosing general regions, and the placeholders of
    private variables (with their names and directives' positions) whose reads are errors."""
    st = gen.__dict__.get("_omp_regions")
    if st is None:
        st = gen.__dict__["_omp_regions"] = {"regions": [], "markers": []}
    return st




def visit_plain(gen, stmt) -> None:
    """Visit `stmt` as if no directive were attached to it."""
    attached = gen.omp.pop(stmt.hash, None)
    try:
        gen.visit(stmt)
    finally:
        if attached is not None:
            gen.omp[stmt.hash] = attached


def emit_trailing(gen, compound) -> None:
    """Standalone directives (`barrier`) written after the last statement of `compound`."""
    for d in gen.omp.get(("end", compound.hash), []):
        emit_standalone(gen, d)


def emit_standalone(gen, d) -> None:
    if d.clauses:
        raise O.unsupported(d.clauses[0].name, d.clauses[0].where, f"on '{d.name}'")
    if d.name == "barrier":
        omp.BarrierOp()
    else:
        omp.FlushOp([])


# ------------------------------------------------------------------------------------------ private copies
def _ensure_global(gen, decl) -> None:
    """Register a global variable the function has not used yet (the walker does it at the first use)."""
    k = decl_key(decl)
    if k not in gen.mem and k not in gen.env and k not in gen.struct_vars and S.shared_decl(decl, None, set()) \
            and decl.kind == K.VAR_DECL and (decl.storage_class != decl.storage_class.STATIC or
                                             decl.semantic_parent.kind == K.TRANSLATION_UNIT):  # (file-scope static)
        gen.mem[k] = gen.mg.global_var(decl)


def _private_copy(gen, key, decl, how: str, where, op=None):
    """Give the current thread its own copy of variable `key` (`how`: private, firstprivate, reduction with
    operator `op`), in place in gen.mem / gen.struct_vars / gen.env. Returns the private memref for memory
    variables (None for SSA ones).

    Raises:
        CompileError: a variable pgcc cannot copy (a variable-length array, a reduction on a struct).
    """
    name = decl.spelling
    _ensure_global(gen, decl)
    if key in gen.mem and gen.mem[key].is_raw_global:
        raise O.unsupported(how, where, f"on the global '{name}' of type '{decl.type.spelling}'")
    if key in gen.struct_vars:
        if how == "reduction":
            raise O.unsupported("reduction", where, f"on '{name}' of type '{decl.type.spelling}'")
        ty = canonical(decl.type)
        new = gen.byte_alloca(CT.size_of(ty), ty.get_align())
        if how == "firstprivate":
            gen.copy_bytes(new, gen.struct_vars[key], CT.size_of(ty))
        gen.struct_vars[key] = new
        return None
    if key in gen.mem:
        mv = gen.mem[key]
        old = gen.mem_ref(mv)
        mt = ir.MemRefType(old.type)
        if not mt.has_static_shape:
            raise O.unsupported(how, where, f"'{name}' is a variable-length array")
        new = gen.alloca_entry(ir.MemRefType.get(mt.shape, mt.element_type))
        if how == "firstprivate":
            memref.CopyOp(old, new)
        elif how == "reduction":
            ety = CT.array_shape(canonical(decl.type)).elem if mt.shape else canonical(decl.type)
            if not CT.is_arith(ety) or CT.is_bool(ety):
                raise O.unsupported(f"reduction({op}:...)", where, f"on '{name}' of type '{decl.type.spelling}'")
            _fill(gen, new, O.identity(op, mt.element_type, CT.is_int(ety) and CT.is_unsigned(ety)))
        gen.mem[key] = MemVar(new, mv.ctype)
        return new
    if key in gen.env:
        if how == "private":
            marker = ub.PoisonOp(gen.env[key].value.type).result
            _state(gen)["markers"].append((marker, name, where))
            gen.env[key] = Binding(marker)
        elif how == "reduction":
            raise O.unsupported("reduction", where, f"'{name}' is not shared")
        return None
    raise O.unsupported(how, where, f"on '{name}'")


def _element_loop(gen, m, fn) -> None:
    """fn(indices) for every element of the statically shaped memref `m` (scf.for nest)."""
    shape = ir.MemRefType(m.type).shape

    def nest(d, idx):
        if d == len(shape):
            fn(idx)
            return
        f = scf.ForOp(gen.const_index(0), gen.const_index(shape[d]), gen.const_index(1))
        with ir.InsertionPoint(f.body):
            nest(d + 1, idx + [f.induction_variable])
            scf.YieldOp([])

    nest(0, [])


def _fill(gen, m, v) -> None:
    _element_loop(gen, m, lambda idx: memref.StoreOp(v, m, idx))


def _combine_into(gen, shared, private, op: str, unsigned: bool) -> None:
    """shared[...] = shared[...] op private[...] for every element, in an unnamed omp.critical."""
    crit = omp.CriticalOp()
    with ir.InsertionPoint(crit.regions[0].blocks.append()):
        def one(idx):
            a = memref.LoadOp(shared, idx).result
            b = memref.LoadOp(private, idx).result
            memref.StoreOp(O.combine(op, a, b, unsigned), shared, idx)
        _element_loop(gen, shared, one)
        omp.TerminatorOp()


def _reductions(gen, node, clauses, where) -> list:
    """[(key, decl, op, unsigned)] of the reduction clauses."""
    refs = S.clause_refs(node)
    out = []
    for c in clauses:
        if c.name != "reduction":
            continue
        args = c.args or []
        colon = next((i for i, (t, _) in enumerate(args) if t == ":"), None)
        op = "".join(t for t, _ in args[:colon]) if colon is not None else None
        if op not in O.REDUCTION_OPS:
            raise O.unsupported(f"reduction({op or ''}:...)", c.where,
                                "the operator must be one of " + " ".join(O.REDUCTION_OPS))
        sections = S.sections_of(c)
        for t, w in S.items(c):
            for v in refs.get(t, []):
                ty = canonical(v.type)
                if ty.kind == T.POINTER and t in sections:
                    ety = canonical(CT.pointee(ty))
                else:
                    ety = CT.array_shape(ty).elem if CT.is_array(ty) else ty
                if not CT.is_arith(ety) or op in ("&", "|", "^") and not CT.is_int(ety):
                    raise O.unsupported(f"reduction({op}:...)", w, f"on '{t}' of type '{v.type.spelling}'")
                out.append((decl_key(v), v, op, CT.is_int(ety) and CT.is_unsigned(ety), w))
    return out






def _check_markers(gen, upto=0) -> None:
    st = _state(gen)
    for marker, name, where in st["markers"][upto:]:
        if not O.unobserved(marker):
            raise CompileError(f"private variable '{name}' may be read before it is assigned (in an iteration of "
                               "a worksharing loop, or after it): its value would depend on how the iterations "
                               "are shared among threads (unsupported OpenMP construct)", *where)
    del st["markers"][upto:]


def finish(gen) -> None:
    """After the function is emitted: the placeholders of orphaned loops' private variables are unread."""
    if "_omp_regions" in gen.__dict__:
        _check_markers(gen)


# ------------------------------------------------------------------------------------------ parallel
def emit_parallel(gen, stmt, dirs) -> None:
    """A general `parallel` region (also `parallel for` with lastprivate or an array reduction, and
    `parallel sections`): an omp.parallel whose region each thread runs.

    Raises:
        CompileError: unsupported clauses, data races, exits from the region.
    """
    d = dirs[0]
    st = _state(gen)
    S.no_exit(stmt, d)
    inner = list(dirs[1:])
    par_clauses = [c for c in d.clauses if c.name in PARALLEL_CLAUSES or c.name == "reduction"]
    if d.name in ("parallel for", "parallel sections"):  # the combined construct's clauses go to the inner one
        # (a loop's private/firstprivate copies too, so that lastprivate copies out to the original variable)
        own = ("shared", "default", "num_threads", "proc_bind", "if") if d.name == "parallel for" else \
            PARALLEL_CLAUSES
        par_clauses = [c for c in d.clauses if c.name in own]
        kind = d.name.split()[1]
        inner = [O.Directive(kind, [c for c in d.clauses if c.name not in own], d.where, d.end)] + inner
    if d.name == "parallel":
        for c in d.clauses:
            if c.name not in PARALLEL_CLAUSES + ("reduction",):
                raise O.unsupported(c.name, c.where, "on 'parallel'")
    nthreads = cond = None
    for c in par_clauses:
        if c.name == "num_threads":
            nthreads = _clause_value(gen, stmt, c)
        elif c.name == "if":  # false: a team of one thread
            from .openmp_exprs import ClauseExpr
            cond = ClauseExpr(gen, c).value("i1")
    refs = S.clause_refs(stmt)
    private = {decl_key(v) for c in par_clauses if c.name in ("private", "firstprivate", "reduction")
               for t, _ in S.items(c) for v in refs.get(t, [])}
    allowed = set()
    if d.name == "parallel for":  # the loop's own clauses and indices
        allowed = S.loop_ivs(gen, stmt, d) | S.keys(stmt, S.listed([d], ("private", "firstprivate", "lastprivate",
                                                                      "reduction")))
    S.check_races(gen, stmt, stmt, private, d.where, allowed)
    reds = _reductions(gen, stmt, [c for c in par_clauses if c.name == "reduction"], d.where)
    for k, v, op, _, w in reds:
        _ensure_global(gen, v)
    # a variable the region does not assign stays an SSA value: its copies would stay the identity
    reds = [r for r in reds if r[0] in gen.mem]
    par = omp.ParallelOp([], [], [], [], num_threads=nthreads, if_expr=cond)
    block = par.regions[0].blocks.append()
    saved_env, saved_mem, saved_struct, saved_loops = dict(gen.env), dict(gen.mem), dict(gen.struct_vars), gen.loops
    before = list(gen.entry.operations)
    marks = len(st["markers"])
    st["regions"].append(stmt)
    gen.loops = []
    try:
        with ir.InsertionPoint(block):
            shared = {k: gen.mem_ref(gen.mem[k]) for k, *_ in reds}
            for c in par_clauses:
                if c.name in ("private", "firstprivate"):
                    for t, w in S.items(c):
                        for v in refs.get(t, []):
                            _private_copy(gen, decl_key(v), v, c.name, w)
            privs = [(_private_copy(gen, k, v, "reduction", w, op), k, op, u) for k, v, op, u, w in reds]
            if inner:
                gen.emit_directives(stmt, inner)
            else:
                visit_plain(gen, stmt)
            for p, k, op, u in privs:
                _combine_into(gen, shared[k], p, op, u)
            omp.TerminatorOp()
    finally:
        st["regions"].pop()
        gen.loops = saved_loops
    gen.env, gen.mem, gen.struct_vars = saved_env, saved_mem, saved_struct
    O._privatize_allocas(gen, par, before + st.get("shared_slots", []))
    _check_markers(gen, marks)


def _clause_value(gen, stmt, c):
    """The i32 value of a clause's argument (num_threads, filter, a schedule's chunk); see openmp_exprs.

    Raises:
        CompileError: an argument outside the expressions openmp_exprs evaluates."""
    from .openmp_exprs import ClauseExpr
    return ClauseExpr(gen, c).value("i32")


# ------------------------------------------------------------------------------------------ for
def emit_for(gen, stmt, d, clauses) -> None:
    """`#pragma omp for` (in a general region, or orphaned): omp.wsloop + omp.loop_nest. The bounds are
    evaluated by each thread before the loop; reductions accumulate into per-thread copies combined in an
    omp.critical after the loop; lastprivate variables are copied out by the iteration that is sequentially
    last.

    Raises:
        CompileError: a loop not in canonical form, unsupported clauses, data races (orphaned loops).
    """
    st = _state(gen)
    region = st["regions"][-1] if st["regions"] else None
    for c in clauses:
        if c.name not in ("private", "firstprivate", "lastprivate", "reduction", "schedule", "collapse",
                          "nowait", "shared", "default", "proc_bind", "num_threads", "ordered"):
            raise O.unsupported(c.name, c.where, f"on '{d.name}'")
        if c.name == "ordered" and c.args:
            raise O.unsupported("ordered(n)", c.where, "doacross loops")
    ordered = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 0) if any(c.name == "ordered" for c in clauses) \
        else None
    pl = O.ParallelLoop(gen, stmt, d, clauses)
    collapse = 1
    for c in clauses:
        if c.name == "collapse":
            if not c.args or len(c.args) != 1 or not c.args[0][0].isdigit() or int(c.args[0][0]) < 1:
                raise O.unsupported("collapse", c.where, "the argument must be a positive integer literal")
            collapse = int(c.args[0][0])
    nowait = any(c.name == "nowait" for c in clauses)
    loops = pl.loop_nest(collapse)
    body = loops[-1][1]["body"]
    ivs = {m["key"] for _, m in loops}
    if region is None:  # orphaned: only globals and static locals are shared
        S.check_races(gen, stmt, None, set(), d.where, ivs | S.keys(stmt, S.listed([d], ("private", "firstprivate",
                                                                                      "lastprivate", "reduction"))))
    refs = S.clause_refs(stmt)
    reds = _reductions(gen, stmt, clauses, d.where)
    psec = S.pointer_sections(gen, stmt, clauses)
    heap = [r for r in reds if r[0] in psec]  # reduced over a section of what a pointer points to
    reds = [r for r in reds if r[0] not in psec]
    for k, v, op, _, w in reds:
        _ensure_global(gen, v)
        if k not in gen.mem:
            raise O.unsupported("reduction", w, f"on '{v.spelling}' here")
    last = [(decl_key(v), v, w) for c in clauses if c.name == "lastprivate" for t, w in S.items(c)
            for v in refs.get(t, [])]
    for k, v, w in last:
        _ensure_global(gen, v)
        if k not in gen.mem or ir.MemRefType(gen.mem_ref(gen.mem[k]).type).shape:
            raise O.unsupported("lastprivate", w, f"on '{v.spelling}' (only scalar variables)")
    bnds = []
    for c, m in loops:
        with gen.loc(c):
            bnds.append(pl.bounds(m))
    saved_env, saved_mem, saved_struct = dict(gen.env), dict(gen.mem), dict(gen.struct_vars)
    shared = {k: gen.mem_ref(gen.mem[k]) for k, *_ in reds}
    shared_last = {k: gen.mem_ref(gen.mem[k]) for k, _, _ in last}
    for c in clauses:
        if c.name in ("private", "firstprivate"):
            for t, w in S.items(c):
                for v in refs.get(t, []):
                    if decl_key(v) not in ivs:
                        _private_copy(gen, decl_key(v), v, c.name, w)
    privs = [(_private_copy(gen, k, v, "reduction", w, op), k, op, u) for k, v, op, u, w in reds]
    heaps = [_section_copy(gen, k, v, op, u, w, clauses) for k, v, op, u, w in heap]
    first = S.keys(stmt, S.listed([O.Directive(d.name, clauses)], ("firstprivate",)))
    for k, v, w in last:
        if k not in first:  # (firstprivate and lastprivate: one copy, initialized and copied out)
            _private_copy(gen, k, v, "private", w)
    kind, chunk = _schedule(gen, stmt, clauses)
    ws = omp.WsloopOp([], [], [], [], [], [], nowait=ir.UnitAttr.get() if nowait or privs or heaps else None,
                      schedule_kind=kind, schedule_chunk=chunk, ordered=ordered)
    with ir.InsertionPoint(ws.regions[0].blocks.append()):
        nest = omp.LoopNestOp([lo for lo, _, _, _ in bnds], [hi for _, hi, _, _ in bnds],
                              [s for _, _, s, _ in bnds])
    block = nest.regions[0].blocks.append(*[ir.IndexType.get()] * len(loops))
    assigned = assigned_decls([body])
    local = S.declared_in(body)
    cont = ("cont", next(gen.loop_ids)) if exits(body, (K.CONTINUE_STMT,)) else None
    gen.loops.append((None, cont))
    carried = [k for k in gen.env if k in assigned and k not in local and k not in ivs]
    try:
        with ir.InsertionPoint(block):
            for (c, m), iv, (_, _, _, ivmap) in zip(loops, block.arguments, bnds):
                gen.mem.pop(m["key"], None)
                gen.env[m["key"]] = Binding(gen.from_index(ivmap(iv), m["ty"]))
            for k in carried:  # a thread's own scalar: not read before the iteration assigns it
                marker = ub.PoisonOp(gen.env[k].value.type).result
                st["markers"].append((marker, _name(refs, k), d.where))
                gen.env[k] = Binding(marker)
            if cont:
                gen.env[cont] = Binding(gen.const_bool(False))
            gen.visit(body)
            if last:
                cond = None
                for iv, (lo, hi, step, _) in zip(block.arguments, bnds):
                    # the last iteration: iv + step >= hi
                    c = arith.cmpi(arith.CmpIPredicate.sge, arith.addi(iv, step), hi)
                    cond = c if cond is None else arith.andi(cond, c)
                ifop = scf.IfOp(cond)
                with ir.InsertionPoint(ifop.then_block):
                    for k, _, _ in last:
                        memref.StoreOp(memref.LoadOp(gen.mem_ref(gen.mem[k]), []).result, shared_last[k], [])
                    scf.YieldOp([])
            omp.YieldOp([])
    finally:
        gen.loops.pop()
    gen.env, gen.mem, gen.struct_vars = saved_env, saved_mem, saved_struct
    for k in carried:  # after the loop: whichever iteration this thread ran last assigned it
        marker = ub.PoisonOp(gen.env[k].value.type).result
        st["markers"].append((marker, _name(refs, k), d.where))
        gen.env[k] = Binding(marker)
    for p, k, op, u in privs:
        _combine_into(gen, shared[k], p, op, u)
    for shared_m, (priv, raw), lo, hi, op, u in heaps:
        crit = omp.CriticalOp()
        with ir.InsertionPoint(crit.regions[0].blocks.append()):
            f = scf.ForOp(lo, hi, gen.const_index(1))
            with ir.InsertionPoint(f.body):
                i = [f.induction_variable]
                a, b = memref.LoadOp(shared_m, i).result, memref.LoadOp(priv, i).result
                memref.StoreOp(O.combine(op, a, b, u), shared_m, i)
                scf.YieldOp([])
            omp.TerminatorOp()
        gen.mg.builtins.libc("free", None, [raw])
    if (privs or heaps) and not nowait:
        omp.BarrierOp()


def _schedule(gen, stmt, clauses):
    """(schedule kind attribute or None, chunk size value or None) of a `schedule(kind[, chunk])` clause
    (modifiers such as `monotonic:` are not supported)."""
    c = next((c for c in clauses if c.name == "schedule"), None)
    if c is None:
        return None, None
    args = [t for t, _ in c.args or []]
    if not args or args[0] not in ("static", "dynamic", "guided", "auto", "runtime") or \
            len(args) == 2 or len(args) > 2 and args[1] != ",":
        raise O.unsupported("schedule", c.where, "expected schedule(static|dynamic|guided|auto|runtime[, chunk])")
    kind = ir.Attribute.parse(f"#omp<schedulekind {args[0]}>")
    if len(args) == 1:
        return kind, None
    chunk = O.Clause("chunk", c.args[2:], c.where)
    return kind, _clause_value(gen, stmt, chunk)


def _section_copy(gen, key, decl, op, unsigned, where, clauses):
    """A thread's copy of the section `p[lo:len]` that pointer `p` points to, for a reduction: a malloc'ed
    buffer of lo + len elements set to the operator's identity (the loop body indexes it as it indexes p), which
    gen.env then binds to p. Returns (p's memref, (the copy, its raw pointer), lo, lo + len as index values, op,
    unsigned).

    Raises:
        CompileError: a pointer that is not a memref of numbers, a section without a length."""
    from .openmp_exprs import ClauseExpr
    c = next(c for c in clauses if c.name == "reduction" and decl.spelling in S.sections_of(c))
    lo_t, len_t = S.sections_of(c)[decl.spelling]
    if key not in gen.env or not isinstance(gen.env[key].value.type, ir.MemRefType) or \
            ir.MemRefType(gen.env[key].value.type).rank != 1 or not len_t:
        raise O.unsupported("reduction", where, f"on the section of '{decl.spelling}' (a pointer to numbers, "
                                                "with a length: p[lo:len])")
    shared_m = gen.env[key].value
    mt = ir.MemRefType(shared_m.type)

    def index(toks, default):
        if not toks:
            return gen.const_index(default)
        return arith.index_cast(ir.IndexType.get(), ClauseExpr(gen, c, toks).value("i32"))

    lo, n = index(lo_t, 0), index(len_t, 0)
    hi = arith.addi(lo, n)
    i64 = ir.IntegerType.get_signless(64)
    size = arith.muli(arith.index_cast(i64, hi), arith.constant(i64, CT.size_of(canonical(CT.pointee(decl.type)))))
    raw = gen.mg.builtins.libc("malloc", CT.llvm_ptr(), [size])  # (the C library's, as the program's malloc)
    priv = gen.from_ptr(raw, canonical(decl.type), [], None)
    f = scf.ForOp(gen.const_index(0), hi, gen.const_index(1))
    with ir.InsertionPoint(f.body):
        memref.StoreOp(O.identity(op, mt.element_type, unsigned), priv, [f.induction_variable])
        scf.YieldOp([])
    gen.env[key] = Binding(priv, gen.env[key].form)
    return shared_m, (priv, raw), lo, hi, op, unsigned


def _name(refs, key) -> str:
    return next((n for n, vs in refs.items() for v in vs if decl_key(v) == key), "?")


# ------------------------------------------------------------------------------------------ single, ...
def emit_sync(gen, stmt, d, rest) -> None:
    """single / master / masked / critical / sections: one omp op whose region holds the statement.

    Raises:
        CompileError: unsupported clauses, exits from the construct, a `sections` body that is not a block.
    """
    S.no_exit(stmt, d)
    if stmt.kind == K.DECL_STMT:
        raise O.unsupported(d.name, d.where, "its statement is a declaration (it must be a statement or a block)")
    allowed = {"single": ("nowait", "copyprivate"), "sections": ("nowait",), "masked": ("filter",)}.get(d.name, ())
    for c in d.clauses:
        if c.name not in allowed:
            raise O.unsupported(c.name, c.where, f"on '{d.name}'")
    nowait = ir.UnitAttr.get() if any(c.name == "nowait" for c in d.clauses) else None
    copies = _copyprivate(gen, stmt, d, nowait)
    if d.name == "single":
        op = omp.SingleOp([], [], [], [], nowait=nowait)
    elif d.name == "master":
        op = omp.MasterOp()
    elif d.name == "masked":
        filt = next((c for c in d.clauses if c.name == "filter"), None)
        op = omp.MaskedOp(filtered_thread_id=_clause_value(gen, stmt, filt) if filt else None)
    elif d.name == "critical":
        op = omp.CriticalOp(name=ir.FlatSymbolRefAttr.get(_critical_symbol(gen, d.arg)) if d.arg else None)
    elif d.name == "ordered":  # in iteration order, in a loop with the ordered clause
        op = omp.OrderedRegionOp()
    else:
        op = omp.SectionsOp([], [], [], [], nowait=nowait)
    saved_env, saved_mem, saved_struct = dict(gen.env), dict(gen.mem), dict(gen.struct_vars)
    with ir.InsertionPoint(op.regions[0].blocks.append()):
        if d.name == "sections":
            _sections(gen, stmt, d, rest)
        elif rest:
            gen.emit_directives(stmt, rest)
        else:
            visit_plain(gen, stmt)
        for src, slot, copy in copies:  # the executing thread's values to the shared slots
            copy(slot, src)
        omp.TerminatorOp()
    gen.env, gen.mem, gen.struct_vars = saved_env, saved_mem, saved_struct
    if copies:  # (after the single's barrier) every thread takes the values; the barrier frees the slots
        for dst, slot, copy in copies:
            copy(dst, slot)
        omp.BarrierOp()


def _copyprivate(gen, stmt, d, nowait) -> list:
    """[(the variable's storage, a shared slot, copy(dst, src))] of a single's `copyprivate(x, ...)`: the
    thread that runs the single stores its x into a slot at the function entry (kept out of the region: one
    for the team), and after the single's barrier every thread loads it into its own x.

    Raises:
        CompileError: with `nowait`; an item that is not a thread's variable in memory."""
    out = []
    for c in d.clauses:
        if c.name != "copyprivate":
            continue
        if nowait is not None:
            raise O.unsupported("copyprivate", c.where, "with 'nowait'")
        refs = S.var_refs(stmt)
        for t, w in S.items(c):
            from .openmp_exprs import visible
            decls = refs.get(t) or visible(gen, t, w)[:1]
            for v in decls:
                k = decl_key(v)
                ty = canonical(v.type)
                if k in gen.struct_vars:
                    size = CT.size_of(ty)
                    slot = gen.byte_alloca(size, ty.get_align())
                    out.append((gen.struct_vars[k], slot, lambda dst, src, n=size: gen.copy_bytes(dst, src, n)))
                elif k in gen.mem and gen.mem[k].global_name is None and \
                        ir.MemRefType(gen.mem[k].memref.type).has_static_shape:
                    m = gen.mem[k].memref
                    slot = gen.alloca_entry(ir.MemRefType(m.type))
                    out.append((m, slot, lambda dst, src: memref.CopyOp(src, dst)))
                else:
                    raise O.unsupported("copyprivate", w, f"'{t}' is not a private variable assigned in the "
                                                          "single construct")
                _state(gen).setdefault("shared_slots", []).append(slot.owner)
    return out


def _critical_symbol(gen, name: str) -> str:
    """The module symbol of critical section `name` (declared once per module; prefixed so that it cannot
    collide with a C function of the same name)."""
    sym = f"__omp_critical_{name}"
    mg = gen.mg
    declared = mg.__dict__.setdefault("_omp_critical_names", set())
    if sym not in declared:
        declared.add(sym)
        with ir.InsertionPoint.at_block_begin(mg.module.body), ir.Location.unknown():
            omp.CriticalDeclareOp(sym)
    return sym


def _sections(gen, stmt, d, rest) -> None:
    if rest or stmt.kind != K.COMPOUND_STMT:
        raise O.unsupported("sections", d.where, "the construct must be a block of '#pragma omp section' "
                                                 "statements")
    groups = []
    for s in children(stmt):
        if s.kind == K.NULL_STMT:
            continue
        ds = gen.omp.get(s.hash, [])
        if ds and ds[0].name == "section":
            if ds[0].clauses:
                raise O.unsupported(ds[0].clauses[0].name, ds[0].clauses[0].where, "on 'section'")
            groups.append([(s, ds[1:])])
        elif not groups:
            groups.append([(s, ds)])
        else:
            groups[-1].append((s, ds))
    for g in groups:
        sec = omp.SectionOp()
        saved_env = dict(gen.env)
        with ir.InsertionPoint(sec.regions[0].blocks.append()):
            for s, ds in g:
                if ds:
                    gen.emit_directives(s, ds)
                else:
                    visit_plain(gen, s)
            omp.TerminatorOp()
        gen.env = saved_env
