"""isl AST -> affine MLIR: the scheduled loop nest replaces the SCoP's ops in place.

    for      -> affine.for with max lower / min upper bound maps (affine.parallel under a "parallel" mark; a
                "private A3 .." mark under it gives each iteration its own rank-0 memref.alloca for those arrays;
                rank-0 arrays the parallel loop reads and never writes are read once before it)
    if       -> affine.if on an integer set (a conjunction; isl is told not to generate disjunctions)
    block    -> its children in order
    user     -> the statement's slice and store cloned, the original iterators replaced by affine.apply of the
                new loop iterators and the parameters

Expressions isl prints as min/max are accepted at the top of loop bounds (where affine maps express them);
anywhere else code generation fails with CodegenError and the caller keeps the original loop nest.
"""

from __future__ import annotations

import re

import islpy as isl
from mlir import ir
from mlir.dialects import affine, arith, memref

from polygeist_py.gpu_to_cpu.ir_nav import two_way_if

from .isl_model import IslScop
from .guard_unswitching import unswitch_invariant_guards
from .scalar_promotion import promote_in
from .scheduler import LARGE_PARALLEL_MARK, LARGE_TRIP, PARALLEL_MARK, PRIVATE_MARK, UNROLL_JAM_MARK
from .unroll_jam import UNROLL_JAM, forward_stores_in, unroll_and_jam

OP = isl.ast_expr_op_type
LOOP_MARKS = (PARALLEL_MARK, LARGE_PARALLEL_MARK, UNROLL_JAM_MARK)  # marks that say how to emit one loop
VERSIONS = "pgcc.parallel_versions"  # an scf.if holding a parallel loop (then) and its sequential twin (else)


class CodegenError(Exception):
    """The AST has a form this generator does not express in affine MLIR (the message says which)."""


def build_ast(model: IslScop, schedule: isl.Schedule) -> isl.AstNode:
    """The isl AST of `schedule` (no disjunctions, min/max detection on)."""
    ctx = model.ctx
    ctx.set_ast_build_allow_or(0)
    ctx.set_ast_build_detect_min_max(1)
    ctx.set_ast_build_atomic_upper_bound(1)
    context = isl.Set.read_from_str(ctx, model.param_header + " -> { : }")
    return isl.AstBuild.from_context(context).node_from_schedule(_name_marked_loops(schedule))


def _name_marked_loops(schedule: isl.Schedule) -> isl.Schedule:
    """Every parallel or unroll-jam mark gets the AST iterator name of the band member it marks as a second word
    ("parallel c1": isl names the loop of schedule dimension d "c<d>"). isl may split a band's domain into pieces,
    each with its own loops under the mark, and in a piece where the marked member takes one value the first loop
    under the mark is a deeper one, which is not parallel."""
    def name(node):
        if node.get_type() != isl.schedule_node_type.mark:
            return node
        words = node.mark_get_id().get_name().split()
        if words[0] not in LOOP_MARKS:
            return node
        named = f"{words[0]} c{node.get_schedule_depth()}"
        return node.delete().insert_mark(isl.Id(named, context=node.get_ctx()))

    return schedule.get_root().map_descendant_bottom_up(name).get_schedule()


def replace_scop(model: IslScop, ast: isl.AstNode, finish=None) -> None:
    """Emit `ast` right before the SCoP's first op and erase the SCoP's ops. `finish(nest)`, if given, may rewrite
    the new top-level ops before they replace the SCoP, or refuse them by returning False.

    Raises:
        CodegenError: an AST form that affine MLIR cannot express, or `finish` refused the code; the module is
            then left unchanged.
    """
    scop = model.scop
    first = scop.ops[0]
    with ir.InsertionPoint(first), first.location:
        marker = affine.AffineForOp(0, 1)  # a scratch loop holds the new nest until it is complete
        with ir.InsertionPoint(marker.body):
            affine.AffineYieldOp([])
    emitter = _Emitter(model)
    try:
        emitter.node(ast, ir.InsertionPoint(list(marker.body.operations)[-1]), [])
    except CodegenError:
        marker.operation.erase()
        raise
    nest = list(marker.body.operations)[:-1]
    if finish is not None and not finish(nest):
        marker.operation.erase()
        raise CodegenError("the private scalars of the schedule cannot be given their own copies")
    block = marker.operation.block
    start = _position(block, marker)
    for op in nest:
        op.move_before(marker)
    promote_in(nest)  # reduction elements of innermost loops in registers (scalar_promotion.py)
    # (promotion replaces each loop it promotes in, a top-level one too: the nest is re-read from the block)
    nest = list(block.operations)[start:_position(block, marker)]
    unroll_and_jam(nest)  # several of them at once when they are latency-bound chains (unroll_jam.py)
    # (unroll-and-jam may have replaced a top-level loop: the nest is what lies before the marker again)
    nest = list(block.operations)[start:_position(block, marker)]
    if unswitch_invariant_guards(nest):  # fused statements' guards out of innermost loops (guard_unswitching.py)
        forward_stores_in(nest)  # the jammed copies' stores and loads of one element, no longer apart
    marker.operation.erase()
    for op in reversed(scop.ops):
        op.erase()


def _position(block, op) -> int:
    return [o.operation for o in block.operations].index(op.operation)


class _Emitter:
    def __init__(self, model: IslScop):
        self.model = model
        self.scop = model.scop
        self.params = list(self.scop.params)
        self.stmts = {s.name: s for s in self.scop.statements}
        self.private = {}  # array memref -> the copy of the current parallel iteration
        self.invariant = {}  # rank-0 array memref -> its value, read before the current parallel loop

    # ---- expressions: isl AST expr -> AffineExpr over (iterators as dims, parameters as symbols)
    def expr(self, e, env):
        t = e.get_type()
        if t == isl.ast_expr_type.int:
            return affine.AffineConstantExpr.get(e.get_val().to_python())
        if t == isl.ast_expr_type.id:
            name = e.get_id().get_name()
            if name in env["names"]:
                return affine.AffineDimExpr.get(env["names"].index(name))
            if name.startswith("p") and name[1:].isdigit():
                # Parameters are passed as dims: an outer scf.for induction variable is a valid affine dim but
                # not a valid symbol.
                return affine.AffineDimExpr.get(len(env["values"]) + int(name[1:]))
            raise CodegenError(f"unknown identifier {name}")
        op = e.get_op_type()
        args = [e.get_op_arg(i) for i in range(e.get_op_n_arg())]
        if op == OP.add:
            return self.expr(args[0], env) + self.expr(args[1], env)
        if op == OP.sub:
            return self.expr(args[0], env) - self.expr(args[1], env)
        if op == OP.minus:
            return self.expr(args[0], env) * -1
        if op == OP.mul:
            return self.expr(args[0], env) * self.expr(args[1], env)
        if op in (OP.fdiv_q, OP.pdiv_q, OP.div):
            return affine.AffineFloorDivExpr.get(self.expr(args[0], env), self.expr(args[1], env))
        if op in (OP.pdiv_r, OP.zdiv_r):
            return affine.AffineModExpr.get(self.expr(args[0], env), self.expr(args[1], env))
        raise CodegenError(f"isl expression {e.to_C_str()}")

    def flat(self, e, env, kind):
        """A top-level max (kind=OP.max) / min (OP.min) as a list of affine expressions."""
        if e.get_type() == isl.ast_expr_type.op and e.get_op_type() == kind:
            return [x for i in range(e.get_op_n_arg()) for x in self.flat(e.get_op_arg(i), env, kind)]
        return [self.expr(e, env)]

    def amap(self, exprs, env):
        return ir.AffineMap.get(len(env["values"]) + len(self.params), 0, exprs)

    def operands(self, env):
        return list(env["values"]) + self.params

    # ---- nodes
    def node(self, n, ip, names, values=None, parallel=False, private=()):
        env = {"names": names, "values": values or []}
        t = n.get_type()
        # A mark's loops may sit in blocks and ifs: isl separates a band's domain into pieces (bicg's wavefront:
        # the tiles that start a row and the others); each for-node generated for the marked member gets the mark.
        if t == isl.ast_node_type.block:
            for child in _list(n.block_get_children()):
                self.node(child, ip, names, env["values"], parallel, private)
        elif t == isl.ast_node_type.mark:
            # `parallel`: (mark, iterator name of the marked loops) from _name_marked_loops, or False
            mark = n.mark_get_id().get_name().split()
            if mark[0] == PRIVATE_MARK:
                self.node(n.mark_get_node(), ip, names, env["values"], parallel, mark[1:])
            elif mark[0] in LOOP_MARKS:
                self.node(n.mark_get_node(), ip, names, env["values"], (mark[0], mark[1]))
            else:
                self.node(n.mark_get_node(), ip, names, env["values"])
        elif t == isl.ast_node_type.for_:
            marked = parallel and parallel[1] == n.for_get_iterator().get_id().get_name()
            if marked and parallel[0] == LARGE_PARALLEL_MARK:
                self.versioned_loop(n, ip, env)
            elif marked and parallel[0] == UNROLL_JAM_MARK:
                self.loop(n, ip, env, False).attributes[UNROLL_JAM] = ir.UnitAttr.get()
            else:
                self.loop(n, ip, env, bool(marked), private if marked else ())
        elif t == isl.ast_node_type.if_:
            self.guard(n, ip, env, parallel, private)
        elif t == isl.ast_node_type.user:
            self.statement(n.user_get_expr(), ip, env)
        else:
            raise CodegenError(f"isl AST node of type {t}")

    def bounds(self, n, env):
        """(iterator name, lower bounds, exclusive upper bounds) of AST for-node `n` (max / min of affine
        expressions)."""
        name = n.for_get_iterator().get_id().get_name()
        lbs = self.flat(n.for_get_init(), env, OP.max)
        cond = n.for_get_cond()
        if cond.get_type() != isl.ast_expr_type.op or cond.get_op_type() not in (OP.le, OP.lt):
            raise CodegenError(f"loop condition {cond.to_C_str()}")
        if cond.get_op_arg(0).get_type() != isl.ast_expr_type.id or \
                cond.get_op_arg(0).get_id().get_name() != name:
            raise CodegenError(f"loop condition {cond.to_C_str()}")
        ubs = self.flat(cond.get_op_arg(1), env, OP.min)
        if cond.get_op_type() == OP.le:
            ubs = [u + 1 for u in ubs]
        return name, lbs, ubs

    def loop(self, n, ip, env, parallel, private=()):
        name, lbs, ubs = self.bounds(n, env)
        step = n.for_get_inc().get_val().to_python()
        ops = self.operands(env)
        loc = self.scop.location
        with ip, loc:
            if parallel:
                # In the outlined body of a parallel loop LLVM cannot tell a scalar from the arrays the loop writes:
                # it would reload it, and redo what it feeds, in every iteration (cholesky's sqrt of the pivot).
                outer = dict(self.private), dict(self.invariant)
                for mem, load in self.read_only_scalars(n.for_get_body()).items():
                    with load.location:
                        self.invariant[mem] = affine.AffineLoadOp(ir.MemRefType(mem.type).element_type, mem, [],
                                                                  map=ir.AffineMap.get(0, 0, [])).result
                loop = _parallel(self.amap(lbs, env), self.amap(ubs, env), ops, step)
                body, iv = loop.regions[0].blocks[0], loop.regions[0].blocks[0].arguments[0]
                with ir.InsertionPoint(body):
                    term = affine.AffineYieldOp([])
                for array in private:  # their values never leave an iteration (original_schedule.py)
                    mem = self.scop.arrays[array]
                    with ir.InsertionPoint(term):
                        self.private[mem] = memref.AllocaOp(mem.type, [], []).result
            else:
                (lb_map, lb_ops), (ub_map, ub_ops) = (_used_only(self.amap(lbs, env), ops, len(env["values"])),
                                                      _used_only(self.amap(ubs, env), ops, len(env["values"])))
                loop = affine.AffineForOp(lb_map, ub_map, step, lower_bound_operands=lb_ops,
                                          upper_bound_operands=ub_ops)
                body, iv = loop.body, loop.induction_variable
                with ir.InsertionPoint(body):
                    term = affine.AffineYieldOp([])
        self.node(n.for_get_body(), ir.InsertionPoint(term), env["names"] + [name], env["values"] + [iv])
        if parallel:
            self.private, self.invariant = outer
        return loop

    def versioned_loop(self, n, ip, env):
        """``if (trip count >= LARGE_TRIP) { parallel loop } else { sequential loop }`` for a "parallel-if-large"
        mark: the two versions of the loop are the same code but for affine.parallel / affine.for."""
        _, lbs, ubs = self.bounds(n, env)
        ops = self.operands(env)
        with ip, self.scop.location:
            lb = affine.AffineMaxOp(self.amap(lbs, env), ops).result
            ub = affine.AffineMinOp(self.amap(ubs, env), ops).result
            trip = arith.subi(ub, lb)
            large = arith.cmpi(arith.CmpIPredicate.sge, trip, arith.constant(ir.IndexType.get(), LARGE_TRIP))
            _, then_end, else_end = two_way_if(large, VERSIONS)
        self.loop(n, ir.InsertionPoint(then_end), env, True)
        self.loop(n, ir.InsertionPoint(else_end), env, False)

    def read_only_scalars(self, ast) -> dict:
        """{memref: its first load} of the rank-0 arrays that statements under AST node `ast` read and none of
        them writes."""
        stmts = [self.stmts[name] for name in _statement_names(ast)]
        written = {s.store.operands[1] for s in stmts}
        out = {}
        for load in (ld for s in stmts for ld in s.loads):
            mem = load.operands[0]
            if ir.MemRefType(mem.type).rank == 0 and mem not in written:
                out.setdefault(mem, load)
        return out

    def guard(self, n, ip, env, parallel=False, private=()):
        exprs, eqs = [], []
        self.conjunction(n.if_get_cond(), env, exprs, eqs)
        cond = ir.IntegerSet.get(len(env["values"]) + len(self.params), 0, exprs, eqs)
        has_else = n.if_has_else_node()
        with ip, self.scop.location:
            op = affine.AffineIfOp(cond, cond_operands=self.operands(env), has_else=has_else)
        for region, child in ((op.regions[0], n.if_get_then_node()),
                              (op.regions[1], n.if_get_else_node() if has_else else None)):
            if child is None:
                continue
            block = region.blocks[0]
            if not list(block.operations):
                with ir.InsertionPoint(block), self.scop.location:
                    affine.AffineYieldOp([])
            self.node(child, ir.InsertionPoint(list(block.operations)[-1]), env["names"], env["values"], parallel,
                      private)

    def conjunction(self, c, env, exprs, eqs):
        op = c.get_op_type()
        args = [c.get_op_arg(i) for i in range(c.get_op_n_arg())]
        if op in (OP.and_, OP.and_then):
            for a in args:
                self.conjunction(a, env, exprs, eqs)
            return
        if op not in (OP.eq, OP.ge, OP.gt, OP.le, OP.lt):
            raise CodegenError(f"condition {c.to_C_str()}")
        a, b = self.expr(args[0], env), self.expr(args[1], env)
        diff = {OP.eq: a - b, OP.ge: a - b, OP.gt: a - b - 1, OP.le: b - a, OP.lt: b - a - 1}[op]
        exprs.append(diff)
        eqs.append(op == OP.eq)

    def statement(self, call, ip, env):
        if call.get_op_type() != OP.call:
            raise CodegenError(f"statement {call.to_C_str()}")
        name = call.get_op_arg(0).get_id().get_name()
        s = self.stmts[name]
        args = [self.expr(call.get_op_arg(i + 1), env) for i in range(call.get_op_n_arg() - 1)]
        mapping = dict(self.private)
        with ip, s.store.location:
            for loop, e in zip(s.loops, args):
                v = affine.AffineApplyOp(*_used_only(self.amap([e], env), self.operands(env), len(env["values"]))).result
                mapping[loop.induction_variable] = v
        for op in [*s.slice, s.store]:
            if op.operation.name == "affine.load" and op.operands[0] in self.invariant:
                mapping[op.results[0]] = self.invariant[op.operands[0]]
                continue
            clone = op.clone(ip=ip)
            for i, o in enumerate(op.operands):
                new = mapping.get(o)
                if new is not None:
                    clone.operands[i] = new
            for r, c in zip(op.results, clone.results):
                mapping[r] = c


def _used_only(amap, operands, n_dims):
    """(map, operands) without the dimensions and symbols `amap` does not use: a loop's bounds and a statement's
    indices then name only the loops they depend on (unroll_jam.py tells from them what depends on a loop)."""
    text = str(amap).split("->", 1)[1]
    used_dims = [k for k in range(amap.n_dims) if re.search(rf"\bd{k}\b", text)]
    used_syms = [k for k in range(amap.n_symbols) if re.search(rf"\bs{k}\b", text)]
    for new, old in enumerate(used_dims):  # increasing: a new name is never one still to be renamed
        amap = amap.replace(ir.AffineDimExpr.get(old), ir.AffineDimExpr.get(new), amap.n_dims, amap.n_symbols)
    for new, old in enumerate(used_syms):
        amap = amap.replace(ir.AffineSymbolExpr.get(old), ir.AffineSymbolExpr.get(new), amap.n_dims,
                            amap.n_symbols)
    amap = ir.AffineMap.get(len(used_dims), len(used_syms), list(amap.results))
    return amap, [operands[k] for k in used_dims] + [operands[n_dims + k] for k in used_syms]


def _list(nodes) -> list:
    return [nodes.get_at(i) for i in range(nodes.n_ast_node())]


def _statement_names(n) -> list:
    """Names of the statements called under isl AST node `n`."""
    t = n.get_type()
    if t == isl.ast_node_type.user:
        return [n.user_get_expr().get_op_arg(0).get_id().get_name()]
    if t == isl.ast_node_type.block:
        children = _list(n.block_get_children())
    elif t == isl.ast_node_type.mark:
        children = [n.mark_get_node()]
    elif t == isl.ast_node_type.for_:
        children = [n.for_get_body()]
    else:  # if
        children = [n.if_get_then_node()] + ([n.if_get_else_node()] if n.if_has_else_node() else [])
    return [name for c in children for name in _statement_names(c)]


def _parallel(lb_map, ub_map, operands, step):
    """An affine.parallel of one induction variable with max/min bound groups."""
    i32 = ir.IntegerType.get_signless(32)
    lb_groups = ir.DenseIntElementsAttr.get_splat(ir.VectorType.get([1], i32), ir.IntegerAttr.get(i32, len(lb_map.results)))
    ub_groups = ir.DenseIntElementsAttr.get_splat(ir.VectorType.get([1], i32), ir.IntegerAttr.get(i32, len(ub_map.results)))
    steps = ir.ArrayAttr.get([ir.IntegerAttr.get(ir.IntegerType.get_signless(64), step)])
    op = affine.AffineParallelOp([], ir.ArrayAttr.get([]), ir.AffineMapAttr.get(lb_map), lb_groups,
                                 ir.AffineMapAttr.get(ub_map), ub_groups, steps, operands + operands)
    op.regions[0].blocks.append(ir.IndexType.get())
    return op
