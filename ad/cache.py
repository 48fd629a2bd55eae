"""Caches of primal values for the reverse sweep (Enzyme, Moses & Churavy NeurIPS'20, sec. 4: "cache or
recompute").

A value defined inside loops that the reverse sweep needs and cannot recompute cheaply is stored by the forward
sweep in a memref with one dimension per enclosing loop, sized by the loops' trip counts (computed before the
outermost loop, so the allocation is hoisted out of the nest), indexed by the iteration numbers; the reverse
sweep loads it at the reversed iteration. A value inside an scf.if at function level gets a rank-0 slot. Every
cache is freed at the end of the derivative function.

Recompute instead of cache: pure ops without regions whose operands are themselves available, except
transcendental math (cheaper to load than to evaluate again).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, memref

from polygeist_py.errors import error_at_op
from polygeist_py.gpu_to_cpu.ir_nav import is_pure

EXPENSIVE = ("math.",)
INDEX = None


def index_type():
    return ir.IndexType.get()


def trip_count_of(lb, ub, step):
    """max(0, ceil((ub - lb) / step)) for index values (step > 0, as scf.for requires)."""
    idx = index_type()
    n = arith.ceildivsi(arith.subi(ub, lb), step)
    return arith.maxsi(n, arith.constant(idx, 0))


class Caches:
    """The caches of one reverse-mode derivative function.

    Args:
        rev: the ad.reverse.Reverse building the function.
        entry: the derivative function's entry block (rank-0 slots are allocated at its start).
    """

    def __init__(self, rev, entry):
        self.rev = rev
        self.entry = entry
        self.slots = {}       # primal value -> cache memref
        self.fwd_index = {}   # primal loop op -> forward iteration number
        self.anchors = {}     # primal loop op -> first op of its forward body (index ops go before it)
        self.allocated = []   # malloc'd pointers of the caches
        self.dims = {}        # primal value -> trip counts of its cache's dimensions

    def recompute(self, op) -> bool:
        """Whether the reverse sweep recomputes `op` rather than loading a cached result."""
        return is_pure(op) and not op.name.startswith(EXPENSIVE)

    def trip_count(self, loop, get):
        """Trip count of primal scf.for `loop`, its bounds read through `get` (a value mapper)."""
        ops = list(loop.operands)
        for v in ops[:3]:
            if v.type != index_type():
                raise error_at_op(loop, "unsupported construct: reverse mode through a loop with non-index bounds")
        return trip_count_of(get(ops[0]), get(ops[1]), get(ops[2]))

    def loops_of(self, v):
        """Enclosing primal loops of `v`'s definition, outermost first."""
        block = self.rev.def_block(v)
        out = []
        for p in self.rev.parent_ops(block):
            if p.name == "scf.for":
                out.append(p)
            elif p.name in ("scf.while", "scf.parallel"):
                raise error_at_op(p, f"unsupported construct: caching a value inside '{p.name}' for reverse mode")
        return list(reversed(out))

    def anchor(self, loop):
        a = self.anchors.get(loop)
        if a is None:
            fbody = self.rev.fops[loop.operation].regions[0].blocks[0]
            a = self.anchors[loop] = list(fbody.operations)[0]
        return a

    def forward_index(self, loop):
        got = self.fwd_index.get(loop)
        if got is not None:
            return got
        fl = self.rev.fops[loop.operation]
        fbody = fl.regions[0].blocks[0]
        ops = list(fl.operands)
        with ir.InsertionPoint(self.anchor(loop)), loop.location:
            got = arith.divui(arith.subi(fbody.arguments[0], ops[0]), ops[2])
        self.fwd_index[loop] = got
        return got

    def slot(self, v):
        got = self.slots.get(v)
        if got is not None:
            return got
        rev = self.rev
        loops = self.loops_of(v)
        where = v.owner.owner if isinstance(v.owner, ir.Block) else v.owner
        if not loops:
            with ir.InsertionPoint.at_block_begin(self.entry), where.location:
                got = memref.AllocaOp(ir.MemRefType.get([], v.type), [], []).result
        else:
            outer = loops[0]

            def top(x):
                if not rev.is_top(x):
                    raise error_at_op(where, "unsupported construct: reverse mode needs a value from a loop whose "
                                             "bounds change with an enclosing loop")
                return rev.vmap[x]
            with ir.InsertionPoint(rev.fops[outer.operation]), outer.location:
                sizes = [self.trip_count(lp, top) for lp in loops]
                got = self.heap_array(sizes, v.type)
        self.dims[v] = None if not loops else sizes
        # the forward sweep stores the value where it is defined
        fv = rev.vmap[v]
        if isinstance(v.owner, ir.Block):
            ip = ir.InsertionPoint(self.anchor(v.owner.owner))
        else:
            ip = ir.InsertionPoint.after(fv.owner)
        with ip, where.location:
            memref.StoreOp(fv, got, self.linear([self.forward_index(lp) for lp in loops], self.dims[v]))
        self.slots[v] = got
        return got

    def load(self, v, scope):
        """The cached value of `v`, loaded at the start of the reversed block `scope`."""
        slot = self.slot(v)
        loops = self.loops_of(v)
        idx = [self.rev.scope_of(lp.regions[0].blocks[0]).rev_index for lp in loops]
        where = v.owner.owner if isinstance(v.owner, ir.Block) else v.owner
        with ir.InsertionPoint(scope.sentinel), where.location:
            return memref.LoadOp(slot, self.linear(idx, self.dims[v])).result

    @staticmethod
    def linear(idx, sizes):
        """Row-major position of `idx` in an array of `sizes` (a cache is one-dimensional)."""
        if not idx:
            return []
        pos = idx[0]
        for i, n in zip(idx[1:], sizes[1:]):
            pos = arith.addi(arith.muli(pos, n), i)
        return [pos]

    def heap_array(self, sizes, elem):
        """A malloc'd one-dimensional memref of prod(sizes) elements of `elem`, freed by free_all (malloc/free
        calls rather than memref.alloc, whose lowering would clash with a program's own malloc/free)."""
        from mlir.dialects import llvm
        from polygeist_py.frontend.c_types import byte_width
        n = sizes[0]
        for m in sizes[1:]:
            n = arith.muli(n, m)
        i64 = ir.IntegerType.get_signless(64)
        width = 8 if isinstance(elem, ir.IndexType) else byte_width(elem)
        nbytes = arith.muli(arith.index_cast(i64, n), arith.constant(i64, max(width, 1)))
        ptr = self.rev.libc("malloc", [nbytes], ir.Type.parse("!llvm.ptr"))
        desc_t = ir.Type.parse("!llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>")
        d = llvm.UndefOp(desc_t).result
        d = llvm.InsertValueOp(d, ptr, ir.DenseI64ArrayAttr.get([0])).result
        d = llvm.InsertValueOp(d, ptr, ir.DenseI64ArrayAttr.get([1])).result
        d = llvm.InsertValueOp(d, arith.constant(i64, 0), ir.DenseI64ArrayAttr.get([2])).result
        d = llvm.InsertValueOp(d, arith.index_cast(i64, n), ir.DenseI64ArrayAttr.get([3, 0])).result
        d = llvm.InsertValueOp(d, arith.constant(i64, 1), ir.DenseI64ArrayAttr.get([4, 0])).result
        dyn = ir.ShapedType.get_dynamic_size()
        mem = ir.Operation.create("builtin.unrealized_conversion_cast",
                                  [ir.MemRefType.get([dyn], elem)], [d]).result
        self.allocated.append(ptr)
        return mem

    def free_all(self):
        for p in self.allocated:
            self.rev.libc("free", [p], None)


def while_rule(rev, op):
    raise error_at_op(op, "unsupported construct: reverse mode through a while loop")


def parallel_rule(rev, op):
    raise error_at_op(op, "unsupported construct: reverse mode through a parallel loop")
