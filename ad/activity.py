"""Activity analysis: which values of a function carry derivatives (Enzyme, Moses & Churavy NeurIPS'20, sec. 3).

A value is *varied* when it depends on an active input: a floating-point value computed from varied floats or
loaded from varied memory, or a pointer/memref (and the integer forms of pointers) derived from a duplicated
argument or from a local allocation that holds varied values. Varied floats get tangents (forward mode) or
adjoints (reverse mode); varied pointers get shadows. Integers computed from floats (fptosi, cmpf) are never
varied. The analysis is a fixed point over the function, loop-carried values included.

Memory: a varied value (float, pointer, or bytes of shadowed memory moved through an integer) stored into or
copied into a local allocation (memref or llvm.alloca) gives that allocation a shadow, and so does passing it to a
call that stays a call (recursion, custom rules: the callee may write varied values through it); a float or
pointer read from shadowed memory is varied.
"""

from __future__ import annotations

from mlir import ir

from polygeist_py.errors import error_at_op

from .allocators import MALLOCS, is_free
from .libm import NAMES as LIBM_NAMES

# Ops that only re-describe a pointer (no arithmetic on data): the shadow of their result is the same op applied
# to the shadows of their operands.
PLUMBING = {
    "llvm.insertvalue", "llvm.extractvalue", "builtin.unrealized_conversion_cast", "memref.cast",
    "memref.reinterpret_cast", "memref.subview", "memref.view", "memref.extract_aligned_pointer_as_index",
    "llvm.inttoptr", "llvm.ptrtoint", "llvm.getelementptr", "memref.extract_strided_metadata",
    "memref.expand_shape", "memref.collapse_shape", "memref.transpose", "arith.index_cast",
    "arith.index_castui", "arith.addi", "arith.muli", "arith.subi",
}
ALLOCS = {"memref.alloca", "memref.alloc"}
RAW_ALLOCS = {"llvm.alloca"}  # struct/union locals, arrays of pointers: raw bytes (docs/memory_model.md)
COPIES = {"llvm.intr.memcpy", "llvm.intr.memmove"}
VALUE_OP_PREFIXES = ("arith.", "math.", "llvm.intr.copysign")  # (copysign: math-to-libm rejects math.copysign)
POINTER_COMPARISONS = {"llvm.icmp"}  # `p != end`: an i1 from two addresses


def inactive_result(act, op) -> bool:
    """An arith/math op or pointer comparison whose results carry no derivative (cmpf, fptosi, icmp...): it
    is only cloned in forward mode and has no adjoint in reverse mode."""
    name = op.operation.name  # (OpView.name of memref.get_global is its symbol)
    return ((name.startswith(VALUE_OP_PREFIXES) or name in POINTER_COMPARISONS) and not len(op.regions)
            and not any(act.is_varied(r) for r in op.results))
LOADS = {"affine.load", "memref.load"}
STORES = {"affine.store", "memref.store"}
LOOPS = {"scf.for", "affine.for"}
DYNAMIC_SHARED = "__pgcc_dynamic_shared_"  # (gpu_to_cpu.launch_to_loops: an extern __shared__ array, allocated)


def is_float(t) -> bool:
    return isinstance(t, (ir.F32Type, ir.F64Type, ir.F16Type, ir.BF16Type))


def is_pointer_like(t) -> bool:
    return isinstance(t, ir.MemRefType) or str(t).startswith("!llvm.")


def carries(t) -> bool:
    """Types whose values carry derivatives through loops and branches: floats (tangents/adjoints) and pointers
    (shadows)."""
    return is_float(t) or is_pointer_like(t)


def all_ops(op):
    """Every op nested in `op` (pre-order), not `op` itself."""
    out = []

    def rec(o):
        for region in o.regions:
            for block in region.blocks:
                for inner in block.operations:
                    out.append(inner)
                    rec(inner)
    rec(op)
    return out


def is_sum_reduction(reduce_op, j: int) -> bool:
    """Whether reduction `j` of an scf.reduce combines its two values with one arith.addf (a `+` reduction, whose
    derivative is the sum of the derivatives)."""
    block = reduce_op.regions[j].blocks[0]
    ops = list(block.operations)
    return len(ops) == 2 and ops[0].name == "arith.addf" and \
        {ops[0].operands[0], ops[0].operands[1]} == set(block.arguments) and ops[1].operands[0] == ops[0].results[0]


def int_move_source(store):
    """The load (affine/memref.load) whose integer value store `store` (affine/memref.store) writes unchanged, when
    that integer is 32 or 64 bits wide (it may hold a float's bits), else None."""
    val = store.operands[0]
    owner = val.owner
    if isinstance(owner, ir.Block) or owner.name not in LOADS or not isinstance(val.type, ir.IntegerType) or \
            val.type.width not in (32, 64):
        return None
    return owner


def store_parts(op):
    """(value, memref) of an affine.store / memref.store."""
    return op.operands[0], op.operands[1]


def allocations_of(v, unknown=None, local=False):
    """The allocator calls (MALLOCS, realloc) pointer `v` may come from, through plumbing, loop-carried values
    (their initial and yielded values) and scf.if results; with `local`, local arrays (memref.alloca/alloc,
    llvm.alloca) too; the other sources (null constants aside) are left out, and appended to list `unknown`
    when given."""
    out, work, seen = [], [v], set()
    while work:
        v = work.pop()
        if v in seen:
            continue
        seen.add(v)
        owner = v.owner
        if isinstance(owner, ir.Block):
            loop = owner.owner
            idx = list(owner.arguments).index(v)
            if loop is not None and loop.name in ("scf.for", "affine.for") and idx > 0:
                n = len(loop.results)
                work.append(list(loop.operands)[len(loop.operands) - n + idx - 1])
                work.append(list(list(owner.operations)[-1].operands)[idx - 1])
            elif loop is not None and loop.name == "scf.while":
                before, after = loop.regions[0].blocks[0], loop.regions[1].blocks[0]
                if owner == before:  # (the initial value, the value the `do` region yields)
                    work += [list(loop.operands)[idx], list(list(after.operations)[-1].operands)[idx]]
                else:  # (the value scf.condition passes)
                    work.append(list(list(before.operations)[-1].operands)[1 + idx])
            elif unknown is not None and is_pointer_like(v.type):
                unknown.append(v)
            continue
        if local and owner.name in ALLOCS | RAW_ALLOCS:
            out.append(owner)
        elif owner.name == "func.call" and owner.attributes["callee"].value in MALLOCS | {"realloc"}:
            out.append(owner)
            if owner.attributes["callee"].value == "realloc":
                work.append(owner.operands[0])
        elif owner.name == "scf.if":
            k = list(owner.results).index(v)
            for region in owner.regions:
                if len(region.blocks):
                    work.append(list(list(region.blocks[0].operations)[-1].operands)[k])
        elif owner.name == "scf.while":
            k = list(owner.results).index(v)
            work.append(list(list(owner.regions[0].blocks[0].operations)[-1].operands)[1 + k])
        elif owner.name in ("scf.for", "affine.for"):
            k = list(owner.results).index(v)
            body = owner.regions[0].blocks[0]
            work.append(list(list(body.operations)[-1].operands)[k])
            work.append(list(owner.operands)[len(owner.operands) - len(owner.results) + k])
        elif owner.name in PLUMBING:
            work.extend(owner.operands)
        elif owner.name not in ("llvm.mlir.zero", "llvm.mlir.undef") and unknown is not None and \
                is_pointer_like(v.type):
            unknown.append(v)
    return out


def _check_known_memory(op, mem) -> None:
    """A varied value stored by `op` into memory a call returned (a function without a body that is not an
    allocator, a call through an unresolved function pointer): the error naming the call (the memory has no
    shadow: AD cannot tell what it allocates)."""
    work, seen = [mem], set()
    while work:
        v = work.pop()
        if v in seen or isinstance(v.owner, ir.Block):
            continue
        seen.add(v)
        owner = v.owner
        if owner.name == "func.call":
            callee = owner.attributes["callee"].value
            raise error_at_op(op, f"unsupported construct: storing an active value into memory returned by "
                                  f"'{callee}' (pgcc differentiates memory from malloc, calloc, aligned_alloc "
                                  "and posix_memalign, and allocators whose body is in this file)")
        if owner.name == "llvm.call":
            callee = owner.attributes["callee"] if "callee" in owner.attributes else None
            what = f"'{ir.FlatSymbolRefAttr(callee).value}'" if callee is not None else \
                "a call through a function pointer pgcc cannot resolve to malloc, calloc or aligned_alloc"
            raise error_at_op(op, f"unsupported construct: storing an active value into memory returned by {what}")
        if owner.name in PLUMBING:
            work.extend(owner.operands)


def _integer_arithmetic_on_loaded(v, varied, depth=8) -> bool:
    """Whether integer `v` is computed by arith ops (not merely loaded) from an integer loaded from varied
    memory."""
    owner = v.owner
    if isinstance(owner, ir.Block) or not owner.name.startswith("arith.") or depth == 0:
        return False
    for o in owner.operands:
        src = o.owner
        if not isinstance(src, ir.Block) and src.name in LOADS and src.operands[0] in varied:
            return True
        if _integer_arithmetic_on_loaded(o, varied, depth - 1):
            return True
    return False


class Worklist:
    """A visit-once worklist (the traversal that value and op walks of the AD stage share): iterating yields each
    item pushed (the start items, then those given to `push`) once, last pushed first; items are hashable MLIR
    values or ops.

    Example: ``w = Worklist([v]); for x in w: w.push(x.owner.operands)``."""

    def __init__(self, start):
        self.work = list(start)
        self.seen = set()

    def __iter__(self):
        while self.work:
            x = self.work.pop()
            if x in self.seen:
                continue
            self.seen.add(x)
            yield x

    def push(self, items) -> None:
        self.work.extend(items)


def pointer_integer(v) -> bool:
    """Whether integer `v` is used as an address: it reaches an llvm.inttoptr through integer plumbing (`(double
    *)(h.addr + 8)`, Enzyme's pointers kept in integer fields or variables)."""
    if not isinstance(v.type, ir.IntegerType):
        return False
    work = Worklist([v])
    for x in work:
        for use in x.uses:
            user = use.owner
            if user.name == "llvm.inttoptr":
                return True
            if user.name in PLUMBING and user.name != "llvm.ptrtoint":
                work.push(r for r in user.results if isinstance(r.type, (ir.IntegerType, ir.IndexType)))
    return False


def element_type_of(ptr):
    """The element type of the memref a raw pointer (!llvm.ptr from a memref's aligned pointer) comes from, or
    None."""
    work = Worklist([ptr])
    for v in work:
        if isinstance(v.type, ir.MemRefType):
            return ir.MemRefType(v.type).element_type
        owner = v.owner
        if not isinstance(owner, ir.Block) and owner.name in PLUMBING:
            work.push(owner.operands)
    return None


def root_alloc(v):
    """The allocation (memref.alloca/alloc, llvm.alloca, or a call of malloc/calloc) a memref or pointer value is
    a view of, through plumbing ops, or None."""
    work = Worklist([v])
    for v in work:
        owner = v.owner
        if isinstance(owner, ir.Block):
            continue
        if owner.name in ALLOCS or owner.name in RAW_ALLOCS or \
                (owner.name == "func.call" and (owner.attributes["callee"].value in MALLOCS | {"realloc"} or
                                                owner.attributes["callee"].value.startswith(DYNAMIC_SHARED))):
            return owner
        if owner.name in PLUMBING:
            work.push(owner.operands)
    return None


def pointer_table(mem):
    """The allocation (root_alloc) of the memory that pointer `mem` was loaded from (`rows[i][j] = v` with `rows` a
    local or malloc'd array of pointers: the table), through plumbing; None otherwise. A varied value stored
    through such a pointer gives the table a shadow, so that the pointers read from it have theirs."""
    work = Worklist([mem])
    for v in work:
        owner = v.owner
        if isinstance(owner, ir.Block):
            continue
        if owner.name == "llvm.load":
            return root_alloc(owner.operands[0])
        if owner.name in PLUMBING:
            work.push(owner.operands)
    return None


class Activity:
    """Varied values of `func_op` given which entry arguments are active.

    Args:
        func_op: a func.func with one block.
        active_args: indices of entry-block arguments that are varied (duplicated pointers, active scalars).
    Attributes:
        varied: set of ir.Value.
        touched: set of ir.Operation that read or define a varied value (or contain such ops).
    """

    def __init__(self, func_op, active_args, inactive_fns=frozenset(), inactive_globals=frozenset(),
                 shadowed_globals=frozenset()):
        self.func = func_op
        self.inactive_fns = inactive_fns
        self.inactive_globals = inactive_globals
        entry = func_op.regions[0].blocks[0]
        self.varied = {entry.arguments[i] for i in active_args}
        self.ops = all_ops(func_op)
        # (a global with enzyme_shadow: its values are differentiated, the shadow is the program's own global)
        self.varied |= {o.results[0] for o in self.ops if o.operation.name == "memref.get_global"
                        and ir.FlatSymbolRefAttr(o.attributes["name"]).value in shadowed_globals}
        self.varied |= {o.results[0] for o in self.ops if o.operation.name == "llvm.mlir.addressof"
                        and ir.FlatSymbolRefAttr(o.attributes["global_name"]).value in shadowed_globals}
        changed = True
        while changed:
            changed = False
            for op in self.ops:
                if self._visit(op):
                    changed = True
        self.touched = set()
        for op in reversed(self.ops):  # post-order-ish: a parent is reached after its children in reverse
            if self._touches(op):
                self.touched.add(op)

    def is_varied(self, v) -> bool:
        return v in self.varied

    def _mark(self, values) -> bool:
        changed = False
        for v in values:
            if v not in self.varied:
                self.varied.add(v)
                changed = True
        return changed

    def _touches(self, op) -> bool:
        if op.name == "gpu.barrier":  # mirrored in the reverse sweep (ad/gpu_block.py)
            return True
        if any(v in self.varied for v in op.operands) or any(v in self.varied for v in op.results):
            return True
        for region in op.regions:
            for block in region.blocks:
                if any(a in self.varied for a in block.arguments):
                    return True
                if any(inner in self.touched for inner in block.operations):
                    return True
        return False

    def _visit(self, op) -> bool:
        name = op.name
        V = self.varied
        if name in LOADS:
            if op.operands[0] in V and is_float(op.results[0].type):
                return self._mark([op.results[0]])
            return False
        if name == "llvm.load":
            # raw bytes (struct fields, arrays of pointers): a float read from shadowed memory is varied, and a
            # pointer read from it has its shadow at the same place in the shadow memory (Enzyme's convention)
            # (an integer read back and cast to a pointer, `(double *)h.addr`, is a pointer kept as an integer:
            # its shadow is the integer at the same place in the shadow memory, as a pointer's is)
            r = op.results[0]
            if op.operands[0] in V and (is_pointer_like(r.type) or is_float(r.type) or pointer_integer(r)):
                return self._mark([r])
            return False
        if name == "llvm.store":  # a varied float or pointer stored into raw bytes: the memory gets a shadow
            val, mem = op.operands[0], op.operands[1]
            if isinstance(val.type, ir.IntegerType) and val.type.width in (32, 64) and \
                    self._punned_arithmetic(val, mem):
                raise error_at_op(op, "unsupported construct: integer arithmetic on the bits of a "
                                      "differentiated floating-point value (a union or a copy into an integer)")
            if val not in V and mem not in V and not isinstance(val.owner, ir.Block) \
                    and val.owner.operation.name == "llvm.load" and val.owner.operands[0] in V:
                from .raw_memory import move_source  # bytes of shadowed memory moved through an integer
                if move_source(op) is not None:
                    alloc = root_alloc(mem)
                    return self._mark([alloc.results[0]]) if alloc is not None else False
            if val in V and mem not in V:
                alloc = root_alloc(mem)
                if alloc is not None:
                    return self._mark([alloc.results[0]])
                allocs = allocations_of(mem, local=True)  # (memory carried by a loop: the allocations it may come from)
                if allocs:
                    return self._mark([a.results[0] for a in allocs])
                table = pointer_table(mem)
                if table is not None:
                    return self._mark([table.results[0]])
                _check_known_memory(op, mem)
            if mem in V and val not in V and is_pointer_like(val.type):
                # a pointer to memory of this function stored where differentiated pointers live (a lambda's
                # closure capturing a local by reference): that memory gets a shadow, whose pointer the shadow
                # memory holds
                alloc = root_alloc(val)
                if alloc is not None:
                    return self._mark([alloc.results[0]])
            return False
        if name == "memref.atomic_rmw":  # an atomic add of a varied value: the memory gets a shadow
            val, mem = op.operands[0], op.operands[1]
            if val in V and mem not in V:
                alloc = root_alloc(mem)
                if alloc is not None:
                    return self._mark([alloc.results[0]])
                if self._shadow_global(mem):
                    return True
            if mem in V and is_float(op.results[0].type):  # (`#pragma omp atomic read/capture`: the old value)
                return self._mark([op.results[0]])
            return False
        if name in COPIES:  # copying differentiated memory (struct copies too): the destination gets a shadow
            dst, src = op.operands[0], op.operands[1]
            if src in V and dst not in V:
                alloc = root_alloc(dst)
                if alloc is not None:
                    return self._mark([alloc.results[0]])
            return False
        if name in STORES:
            val, mem = store_parts(op)
            if val in V and mem not in V and self._shadow_global(mem):
                return True
            src = int_move_source(op)
            if src is not None and src.operands[0] in V and mem not in V:
                # the bits of a float moved through an integer (`memcpy(&u, &x, 8)`, then `u` stored elsewhere,
                # as an inlined call's parameter is): the destination gets a shadow, the shadow's bits move too
                alloc = root_alloc(mem)
                if alloc is None or name != "memref.store" or src.name != "memref.load":
                    raise error_at_op(op, "unsupported construct: the bits of a differentiated floating-point "
                                          "value moved through an integer into memory pgcc cannot give a shadow")
                return self._mark([alloc.results[0]])
            if mem in V and isinstance(val.type, ir.IntegerType) and _integer_arithmetic_on_loaded(val, V):
                # the bits of a differentiated double changed through an integer (`u ^= sign bit` after a
                # memcpy into an unsigned long long): no derivative rule follows them
                raise error_at_op(op, "unsupported construct: integer arithmetic on the bits of a "
                                      "differentiated floating-point value (copied into an integer)")
            if val in V and mem not in V:
                alloc = root_alloc(mem)
                if alloc is not None:
                    return self._mark([alloc.results[0]])
                allocs = allocations_of(mem, local=True)  # (memory carried by a loop: the allocations it may come from)
                if allocs:
                    return self._mark([a.results[0] for a in allocs])
                table = pointer_table(mem)
                if table is not None:
                    return self._mark([table.results[0]])
                _check_known_memory(op, mem)
            return False
        if name in LOOPS or name in ("scf.while", "scf.if", "scf.parallel", "scf.execute_region"):
            return self._visit_region_op(op)
        if name in ("scf.yield", "affine.yield", "scf.condition", "func.return", "scf.reduce",
                    "scf.reduce.return"):
            return False
        varied_in = [v for v in op.operands if v in V]
        if not varied_in:
            return False
        if name in PLUMBING or name == "arith.select":
            if name == "memref.extract_strided_metadata":
                return self._mark([op.results[0]])
            if name == "arith.select":
                return self._mark([r for r in op.results if is_float(r.type) or is_pointer_like(r.type)])
            if all(is_float(v.type) for v in varied_in):
                return False  # e.g. arith.index_cast is never applied to floats; keep pointer plumbing only
            return self._mark(list(op.results))
        if name == "func.call" and op.attributes["callee"].value in self.inactive_fns:
            return False  # __enzyme_inactivefn
        if name == "func.call" and op.attributes["callee"].value == "realloc":
            # the new memory holds the old one's values: both have shadows or neither (forward mode only:
            # rules_forward.realloc_rule; the reverse sweep rejects it)
            if op.results[0] in V or op.operands[0] in V:
                return self._mark([op.results[0], op.operands[0]] +
                                  [a.results[0] for a in allocations_of(op.operands[0])])
            return False
        if name == "func.call" and op.attributes["callee"].value in LIBM_NAMES:
            return self._mark([r for r in op.results if is_float(r.type)])  # (frexp writes only an int)
        if name == "func.call" and op.attributes["callee"].value not in MALLOCS and \
                not is_free(op.attributes["callee"].value):
            # a call that stays a call (recursion, custom rules): it may write varied values through any pointer
            # it is given, so local memory passed to it gets a shadow (Enzyme passes a shadow after every
            # duplicated pointer, outputs included)
            changed = self._mark([r for r in op.results if is_float(r.type)])
            for v in op.operands:
                if is_pointer_like(v.type) and v not in V:
                    alloc = root_alloc(v)
                    if alloc is not None:
                        changed |= self._mark([alloc.results[0]])
            return changed
        if name == "func.call" or name.startswith(VALUE_OP_PREFIXES):
            return self._mark([r for r in op.results if is_float(r.type)])
        return False

    def _shadow_global(self, mem) -> bool:
        """A varied value stored into a mutable global array `mem` (not enzyme_inactive): its get_global gets a
        shadow global (ad/shadow_globals.py). Returns whether something was marked."""
        from .shadow_globals import global_name, global_root
        g = global_root(mem)
        if g is None or global_name(g) in self.inactive_globals:
            return False
        return self._mark([g.results[0]])

    def _check_carried_addresses(self, op) -> None:
        """A varied integer (a pointer's address, `(uintptr_t)x`) carried by loop or branch `op`: no shadow follows
        an integer through a loop or branch, so the error naming it (never a silent zero derivative).

        Raises:
            CompileError: such an integer is yielded or passed in."""
        V = self.varied
        n = len(op.results)
        values = list(op.operands)[len(op.operands) - n:] if op.name in LOOPS else \
            list(op.operands) if op.name == "scf.while" else []
        slots = list(op.results)
        for region in op.regions:
            for block in region.blocks:
                slots += list(block.arguments)
                last = list(block.operations)[-1] if len(block.operations) else None
                if last is not None and last.name in ("scf.yield", "affine.yield", "scf.condition"):
                    values += list(last.operands)[1 if last.name == "scf.condition" else 0:]
        if not any(v in V and isinstance(v.type, (ir.IntegerType, ir.IndexType)) for v in values):
            return
        if any(pointer_integer(x) for x in slots):
            raise error_at_op(op, "unsupported construct: the address of differentiated memory kept as an "
                                      "integer ((uintptr_t)p) and carried through a loop or branch; keep it as a "
                                      "pointer")

    def _punned_arithmetic(self, val, mem) -> bool:
        """Whether integer `val`, stored at `mem`, is computed by integer arithmetic from an integer loaded from
        varied raw memory, at a place of that memory also read or written as a float of the same width (a
        union's double seen as an unsigned long long)."""
        from .raw_memory import base_and_offset
        owner = val.owner
        if isinstance(owner, ir.Block) or not owner.name.startswith("arith."):
            return False
        loads = [o.owner for o in owner.operands if not isinstance(o.owner, ir.Block)
                 and o.owner.name == "llvm.load" and o.owner.operands[0] in self.varied]
        if not loads:
            return False
        width = val.type.width
        places = {base_and_offset(mem)} | {base_and_offset(ld.operands[0]) for ld in loads}
        for o in self.ops:
            if o.name in ("llvm.load", "llvm.store"):
                t = o.results[0].type if o.name == "llvm.load" else o.operands[0].type
                p = o.operands[0] if o.name == "llvm.load" else o.operands[1]
                if is_float(t) and t.width == width and base_and_offset(p) in places:
                    return True
        return False

    def _visit_region_op(self, op) -> bool:
        V = self.varied
        name = op.name
        changed = False
        self._check_carried_addresses(op)
        if name in LOOPS:
            body = op.regions[0].blocks[0]
            n = len(op.results)
            inits = list(op.operands)[len(op.operands) - n:]
            yields = list(list(body.operations)[-1].operands)
            args = list(body.arguments)[1:]
            for j in range(n):
                if (inits[j] in V or yields[j] in V or args[j] in V) and carries(op.results[j].type):
                    changed |= self._mark([args[j], op.results[j]])
                    if is_pointer_like(inits[j].type) and inits[j] not in V:
                        # (buffers swapped by the loop: the initial one needs its shadow too)
                        changed |= self._mark([a.results[0] for a in allocations_of(inits[j], local=True)])
        elif name == "scf.if":
            for region in op.regions:
                if len(region.blocks):
                    ys = list(list(region.blocks[0].operations)[-1].operands)
                    for j, y in enumerate(ys):
                        if y in V and carries(op.results[j].type):
                            changed |= self._mark([op.results[j]])
        elif name == "scf.while":
            before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
            cond = list(before.operations)[-1]
            cargs = list(cond.operands)[1:]
            ayield = list(list(after.operations)[-1].operands)
            for j, init in enumerate(op.operands):
                if (init in V or ayield[j] in V or before.arguments[j] in V) and carries(init.type):
                    changed |= self._mark([before.arguments[j]])
            for j, c in enumerate(cargs):
                if (c in V or after.arguments[j] in V) and carries(c.type):
                    changed |= self._mark([after.arguments[j], op.results[j]])
        elif name == "scf.parallel":
            red = list(op.regions[0].blocks[0].operations)[-1]
            inits = list(op.operands)[len(op.operands) - len(op.results):]
            for j, r in enumerate(op.results):
                if (inits[j] in V or red.operands[j] in V) and is_float(r.type):
                    if not is_sum_reduction(red, j):
                        raise error_at_op(op, "unsupported construct: differentiating a parallel loop with a "
                                              "reduction other than a sum")
                    changed |= self._mark([r])
        return changed
