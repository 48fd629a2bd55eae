"""The primal copy that AD differentiates: the function cloned, its non-recursive callees inlined, re-optimized.

Inlining first lets the cleanup passes (canonicalize, CSE, loop-invariant code motion) see through calls, which
is Enzyme's "optimize before differentiating" (Moses & Churavy, NeurIPS'20, sec. 5), and gives every memory
effect of a callee a place in the caller's forward and reverse sweeps. Recursive calls stay calls; the modes
give them derivative functions of their own.
"""

from __future__ import annotations

from mlir import ir
from mlir.passmanager import PassManager

from polygeist_py.errors import error_at_op

from .activity import all_ops
from .counted_loops import count_constant_while_loops
from .pointer_dispatch import dispatch_indirect_calls
from .while_to_for import uplift_while_loops

OPTIMIZE = "func.func(canonicalize,cse,loop-invariant-code-motion,affine-scalrep,canonicalize,cse)"
LOWER_AFFINE = "func.func(lower-affine,canonicalize,cse)"
MAX_INLINE_ROUNDS = 16


def functions(module) -> dict:
    return {f.attributes["sym_name"].value: f for f in module.body.operations if f.operation.name == "func.func"}


def is_defined(f) -> bool:
    return len(f.regions[0].blocks) > 0


def call_graph(module) -> dict:
    """name -> set of callee names (defined functions only)."""
    funcs = functions(module)
    return {n: {c.attributes["callee"].value for c in all_ops(f) if c.name == "func.call"}
            for n, f in funcs.items() if is_defined(f)}


def recursive_names(module) -> set:
    """Functions that can reach themselves through calls."""
    graph = call_graph(module)
    rec = set()
    for start in graph:
        seen, work = set(), list(graph[start])
        while work:
            n = work.pop()
            if n == start:
                rec.add(start)
                break
            if n in seen or n not in graph:
                continue
            seen.add(n)
            work += graph[n]
    return rec


def hoist_constant_allocas(f) -> None:
    """Move the llvm.alloca ops of constant size inside loops and branches of func `f` (block-scoped records,
    the temporaries of structs passed by value to an inlined function) to the start of its body, as C compilers
    give block-scoped variables one stack slot: the derivative then has one shadow object per variable (reverse
    mode caches what later iterations overwrite, as for any memory). Allocas of run-time size, and those inside
    a parallel loop (private to its iterations), stay."""
    entry = f.regions[0].blocks[0]
    first = list(entry.operations)[0]
    for o in all_ops(f):
        if o.operation.name != "llvm.alloca" or o.operation.block == entry:
            continue
        count = o.operands[0].owner
        if isinstance(count, ir.Block) or count.operation.name not in ("llvm.mlir.constant", "arith.constant"):
            continue
        p = o.operation.parent
        while p is not None and p.name != "func.func" and not p.name.startswith(("scf.parallel", "omp.", "gpu.")):
            p = p.parent
        if p is None or p.name != "func.func":  # (private to an iteration of a parallel loop: stays there)
            continue
        c = count.operation.clone(ip=ir.InsertionPoint(first))
        o.operation.move_before(first)
        o.operation.operands[0] = c.results[0]


def primal_copy(module, name: str, copy_name: str, lower_affine: bool = False, keep=frozenset()):
    """Clone function `name` as private `copy_name`, inline its calls to non-recursive defined functions and
    optimize it. Returns the new func op.

    Raises:
        CompileError: the function is only declared, or its body has several blocks (unstructured control flow).
    """
    funcs = functions(module)
    f = funcs.get(name)
    if f is None or not is_defined(f):
        raise error_at_op(f.operation if f is not None else module.operation,
                          f"cannot differentiate '{name}': its definition is not in this file")
    if len(f.regions[0].blocks) != 1:
        raise error_at_op(f.operation, f"unsupported construct: differentiating '{name}' with unstructured "
                                       "control flow")
    copy = f.operation.clone(ip=ir.InsertionPoint(module.body))
    copy.attributes["sym_name"] = ir.StringAttr.get(copy_name)
    copy.attributes["sym_visibility"] = ir.StringAttr.get("private")
    rec = recursive_names(module) | set(keep)  # (functions with custom rules are never inlined)
    hoist_readonly_calls(copy, funcs, rec)
    for _ in range(MAX_INLINE_ROUNDS):
        direct_calls(copy, module)  # (a function pointer inlining made constant: `twice(sin, x)`)
        dispatch_indirect_calls(copy, module)  # (one chosen at run time: `flag ? sq : cube`)
        calls = [c for c in all_ops(copy) if c.name == "func.call"
                 and c.attributes["callee"].value in funcs and c.attributes["callee"].value not in rec
                 and is_defined(funcs[c.attributes["callee"].value])
                 and len(funcs[c.attributes["callee"].value].regions[0].blocks) == 1]
        if not calls:
            break
        for c in calls:
            inline_call(c, funcs[c.attributes["callee"].value])
    from polygeist_py.frontend.enzyme import bump_iteration_counts
    bump_iteration_counts(copy)  # (__enzyme_iter: one more order of differentiation)
    if any(o.operation.name == "omp.parallel" for o in all_ops(copy)):  # (a team of one: openmp_serial.py)
        from .openmp_teams import run_as_the_team  # (firstprivate copies: the team's own sharing of the loop)
        run_as_the_team(copy, module)
        from .openmp_serial import serialize_parallel_regions
        serialize_parallel_regions(copy)
    from .index_switch import index_switches_as_ifs  # (a switch: a chain of scf.if, which AD differentiates)
    index_switches_as_ifs(copy)
    hoist_constant_allocas(copy)
    PassManager.parse(OPTIMIZE).run(copy)
    for op in all_ops(copy):  # (activity knows f16..f64 only: a long double would be silently inactive)
        if any(str(v.type) == "f80" for v in [*op.results, *op.operands]):
            raise error_at_op(op, f"unsupported construct: long double arithmetic in '{name}', which is "
                                  "differentiated (derivatives are computed for float and double)")
    direct_allocator_calls(copy, module)
    posix_memalign_as_aligned_alloc(copy, module)
    sincos_as_stores(copy, module)
    counted = count_constant_while_loops(copy)  # (tree loops of CUDA reductions: reversed without a taped count)
    if uplift_while_loops(copy, module) + counted:  # (grid-stride loops: counted, with a run-time overflow check)
        PassManager.parse(OPTIMIZE).run(copy)
    if lower_affine:
        PassManager.parse(LOWER_AFFINE).run(copy)
    return copy.opview if hasattr(copy, "opview") else copy


def direct_allocator_calls(f, module) -> None:
    """Calls of malloc/calloc/aligned_alloc/free through a function pointer that can only hold that function (a
    local initialized with it, or a global initialized with it that this file never writes) become direct calls,
    so that AD gives their memory a shadow (Enzyme sees them after LLVM's constant propagation)."""
    from .allocators import MALLOCS
    direct_calls(f, module, MALLOCS | {"free"})


def direct_calls(f, module, only=None) -> None:
    """Calls through a function pointer that can only hold one function (`_function_pointer_target`: a function
    passed by name to a callee inlined here, a local or a never-written global initialized with it) become direct
    calls of it (of the functions in `only` when given), with the same argument and result types, so that AD
    differentiates the function (or applies its rule) as Enzyme does after LLVM's constant propagation."""
    calls = [c for c in all_ops(f) if c.name == "llvm.call" and "callee" not in c.attributes]
    if not calls:
        return
    funcs = functions(module)
    from polygeist_py.frontend.builtins import math_name
    for c in calls:
        name = _function_pointer_target(c.operands[0], module)
        if name not in funcs or (only is not None and name not in only):
            continue
        ftype = ir.FunctionType(ir.TypeAttr(funcs[name].attributes["function_type"]).value)
        args = list(c.operands)[1:]
        if [a.type for a in args] != list(ftype.inputs) or [r.type for r in c.results] != list(ftype.results):
            continue
        from mlir.dialects import func
        math = math_name(name) if not is_defined(funcs[name]) else None
        with ir.InsertionPoint(c), c.location:
            if math is not None and len(args) == math[1] and len(c.results) == 1 and \
                    all(a.type == c.results[0].type for a in args):  # (as the frontend emits a direct call)
                new = ir.Operation.create(math[0], results=[c.results[0].type], operands=args)
            else:
                new = func.CallOp(list(ftype.results), ir.FlatSymbolRefAttr.get(name), args)
        for r, n in zip(c.results, new.results):
            r.replace_all_uses_with(n)
        c.erase()


def posix_memalign_as_aligned_alloc(f, module) -> None:
    """`r = posix_memalign(&p, al, n)` (the frontend's call writing a fresh slot, then a load of the slot) becomes
    `p = aligned_alloc(al, n)` with posix_memalign's result: EINVAL (22) for an alignment that is not a power of
    two multiple of sizeof(void *) (0 bytes allocated then), ENOMEM (12) when the allocation failed, else 0.
    The pointer is then an allocator's result, which AD gives a shadow allocated the same way."""
    from mlir.dialects import arith, func, llvm
    calls = [c for c in all_ops(f) if c.name == "func.call" and c.attributes["callee"].value == "posix_memalign"]
    for c in calls:
        slot = c.operands[0]
        if isinstance(slot.owner, ir.Block) or slot.owner.name != "llvm.alloca":
            continue
        users = [u.owner for u in slot.uses if u.owner != c.operation]
        # (the frontend first stores the variable's pointer into the slot, so that a failed call leaves it as it
        # was; the derivative copy drops that store: its pointer is aligned_alloc's result, NULL on failure)
        inits = [o for o in users if o.name == "llvm.store" and o.operands[1] == slot
                 and o.operation.block == c.operation.block and o.operation.is_before_in_block(c.operation)]
        loads = [o for o in users if o not in inits]
        if not all(o.name == "llvm.load" and o.operation.block == c.operation.block
                   and c.operation.is_before_in_block(o.operation) for o in loads):
            continue
        for o in inits:
            o.erase()
        i64, ptr = ir.IntegerType.get_signless(64), ir.Type.parse("!llvm.ptr")
        _declare(module, "aligned_alloc", [i64, i64], [ptr])
        with ir.InsertionPoint(c), c.location:
            al, n = c.operands[1], c.operands[2]
            zero, one, word = (arith.constant(i64, k) for k in (0, 1, 8))
            pow2 = arith.cmpi(arith.CmpIPredicate.eq, arith.andi(al, arith.subi(al, one)), zero)
            words = arith.cmpi(arith.CmpIPredicate.eq, arith.remui(al, word), zero)
            valid = arith.andi(arith.andi(pow2, words), arith.cmpi(arith.CmpIPredicate.ne, al, zero))
            # (an invalid alignment allocates nothing usable: 0 bytes, never read, as posix_memalign leaves p)
            q = func.CallOp([ptr], ir.FlatSymbolRefAttr.get("aligned_alloc"),
                            [arith.select(valid, al, word), arith.select(valid, n, zero)]).results[0]
            null = llvm.ZeroOp(ptr).result
            i32 = c.results[0].type
            failed = arith.andi(llvm.ICmpOp(llvm.ICmpPredicate.eq, q, null).result,
                                arith.cmpi(arith.CmpIPredicate.ne, n, zero))
            code = arith.select(valid, arith.select(failed, arith.constant(i32, 12), arith.constant(i32, 0)),
                                arith.constant(i32, 22))
        c.results[0].replace_all_uses_with(code)
        for o in loads:
            o.results[0].replace_all_uses_with(q)
            o.erase()
        c.erase()


def sincos_as_stores(f, module) -> None:
    """GNU's ``sincos(x, &s, &c)`` (and sincosf) without a body in this file becomes ``s = sin(x); c = cos(x)``
    (math ops and stores through the two pointers), which AD differentiates as any stores of values."""
    from mlir.dialects import llvm
    funcs = functions(module)
    for c in [c for c in all_ops(f) if c.name == "func.call"
              and c.attributes["callee"].value in ("sincos", "sincosf")]:
        name = c.attributes["callee"].value
        if is_defined(funcs[name]) if name in funcs else False:
            continue
        x, ps, pc = c.operands
        if len(c.results) or not str(ps.type).startswith("!llvm.ptr") or not str(pc.type).startswith("!llvm.ptr"):
            continue
        with ir.InsertionPoint(c), c.location:
            llvm.StoreOp(ir.Operation.create("math.sin", results=[x.type], operands=[x]).result, ps)
            llvm.StoreOp(ir.Operation.create("math.cos", results=[x.type], operands=[x]).result, pc)
        c.erase()


def _declare(module, name, inputs, results) -> None:
    """Declare private function `name` in `module` unless it is declared."""
    from mlir.dialects import func
    if name in functions(module):
        return
    with ir.InsertionPoint.at_block_begin(module.body), ir.Location.unknown():
        func.FuncOp(name, ir.FunctionType.get(inputs, results), visibility="private")


def _function_pointer_target(v, module):
    """The name of the one function pointer value `v` can be (func.constant, possibly cast, or loaded from a
    global, or a field of a global struct, initialized with one and written nowhere in `module`), or None."""
    owner = v.owner
    if isinstance(owner, ir.Block):
        return None
    if owner.name == "builtin.unrealized_conversion_cast" and len(owner.operands) == 1:
        return _function_pointer_target(owner.operands[0], module)
    if owner.name == "func.constant":
        return ir.FlatSymbolRefAttr(owner.attributes["value"]).value
    if owner.name != "llvm.load" or isinstance(owner.operands[0].owner, ir.Block):
        return None
    local = _local_function_pointer(owner, module)
    if local is not None:
        return local
    addr, offset = owner.operands[0].owner, 0
    if addr.name == "llvm.getelementptr":  # (a field of a global struct: `tup.allocfn(n)`)
        from .raw_memory import gep_offset
        offset = gep_offset(addr)
        if offset is None or isinstance(addr.operands[0].owner, ir.Block):
            return None
        addr = addr.operands[0].owner
    if addr.name != "llvm.mlir.addressof":
        return None
    g = ir.FlatSymbolRefAttr(addr.attributes["global_name"]).value
    glob = next((o for o in module.body.operations if o.operation.name == "llvm.mlir.global"
                 and ir.StringAttr(o.attributes["sym_name"]).value == g), None)
    if glob is None or not len(glob.regions[0].blocks) or _written(module, g):
        return None
    consts = [o for o in all_ops(glob) if o.name == "func.constant"]
    at = [c for c in consts if initializer_offset(c) == offset]  # (a table of functions: the entry read)
    if len(at) != 1:
        return None
    return ir.FlatSymbolRefAttr(at[0].attributes["value"]).value


def _local_function_pointer(load, module):
    """The one function a load of a function pointer from a local (llvm.alloca: a struct or array variable, at a
    constant offset) can read: every store into the local that overlaps the loaded bytes stores, at exactly that
    offset, that same known function, and the local's address goes nowhere but into loads, stores, memsets and
    constant getelementptrs (`rule r = {product, 0.5}; r.combine(a, b)`: LLVM's SROA and store-to-load
    forwarding make such a call direct before Enzyme sees it). None otherwise."""
    from .raw_memory import base_and_offset, gep_offset
    base, offset = base_and_offset(load.operands[0])
    if isinstance(base.owner, ir.Block) or base.owner.name != "llvm.alloca":
        return None
    names, work = set(), [(base, 0)]
    while work:
        v, off = work.pop()
        for u in v.uses:
            o = u.owner
            if o.name == "llvm.getelementptr" and u.operand_number == 0:
                g = gep_offset(o)
                if g is None:
                    return None
                work.append((o.results[0], off + g))
            elif o.name == "llvm.load" or (o.name == "llvm.intr.memset" and u.operand_number == 0):
                continue  # (a memset fills the bytes: calling what it leaves in a pointer is undefined behaviour)
            elif o.name == "llvm.store" and u.operand_number == 1:
                size = packed_bytes(str(o.operands[0].type).removeprefix("!llvm."))
                if size is None:
                    return None
                if off < offset + 8 and offset < off + size:  # (overlaps the loaded pointer)
                    if off != offset or str(o.operands[0].type) != "!llvm.ptr":
                        return None
                    name = _function_pointer_target(o.operands[0], module)
                    if name is None:
                        return None
                    names.add(name)
            else:
                return None  # (the address escapes: a call, a copy, stored as a value)
    return names.pop() if len(names) == 1 else None


def initializer_offset(const):
    """The byte offset at which constant op `const` (func.constant, llvm.mlir.constant) lands in its global's
    initializer: 0 for the value itself, a field's offset when it is inserted into a packed struct (the
    frontend's layout of a struct global); None otherwise."""
    v = const.results[0]
    while len(list(v.uses)) == 1 and \
            next(iter(v.uses)).owner.operation.name == "builtin.unrealized_conversion_cast":
        v = next(iter(v.uses)).owner.results[0]
    users = [u.owner.operation for u in v.uses]
    if any(u.name == "llvm.return" for u in users):
        return 0
    if len(users) != 1 or users[0].name != "llvm.insertvalue":
        return None
    ins = users[0]
    pos = list(ir.DenseI64ArrayAttr(ins.attributes["position"]))
    text = str(ins.results[0].type)
    if len(pos) != 1 or not text.startswith("!llvm.struct<packed ("):
        return None
    sizes = [packed_bytes(t) for t in struct_members(text[len("!llvm.struct<packed ("):-2])]
    if any(x is None for x in sizes[:pos[0]]):
        return None
    return sum(sizes[:pos[0]])


def struct_members(body):
    """The member types of a struct body `a, b, array<2 x i8>` (top-level commas only)."""
    parts, depth, cur = [], 0, ""
    for ch in body:
        if ch in "<(":
            depth += 1
        elif ch in ">)":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return parts + ([cur.strip()] if cur.strip() else [])


def packed_bytes(t):
    """Exact size of LLVM type text `t` without padding (ints, floats, ptr, arrays, packed structs), else None."""
    import re
    if t == "ptr" or t == "f64":
        return 8
    if t == "f32":
        return 4
    m = re.fullmatch(r"i(\d+)", t)
    if m and int(m.group(1)) % 8 == 0:
        return int(m.group(1)) // 8
    if t.startswith("array<"):
        n, _, elem = t[len("array<"):-1].partition(" x ")
        e = packed_bytes(elem.strip())
        return None if e is None else int(n) * e
    if t.startswith("struct<packed ("):
        sizes = [packed_bytes(x) for x in struct_members(t[len("struct<packed ("):-2])]
        return None if any(x is None for x in sizes) else sum(sizes)
    return None


def _written(module, g) -> bool:
    """Whether global `g` may be written: its address is used other than by loads."""
    for o in all_ops(module.operation):
        if o.name == "llvm.mlir.addressof" and ir.FlatSymbolRefAttr(o.attributes["global_name"]).value == g:
            for u in o.results[0].uses:
                if u.owner.name == "llvm.getelementptr" and u.operand_number == 0 and \
                        all(w.owner.name == "llvm.load" for w in u.owner.results[0].uses):
                    continue  # (a field read)
                if u.owner.name != "llvm.load":
                    return True
    return False


def inline_call(call, callee) -> None:
    """Replace func.call `call` by a copy of single-block `callee`'s body."""
    body_copy = callee.operation.clone(ip=ir.InsertionPoint(callee.operation))
    if call.operation.parent.name != "func.func":
        # inside a loop the callee's values are no longer valid affine symbols: inline its scf form
        PassManager.parse("func.func(lower-affine)").run(body_copy)
    block = body_copy.regions[0].blocks[0]
    for arg, actual in zip(block.arguments, call.operands):
        arg.replace_all_uses_with(actual)
    ops = list(block.operations)
    ret = ops[-1]
    for op in ops[:-1]:
        op.move_before(call)
    for r, v in zip(call.results, ret.operands):
        r.replace_all_uses_with(v)
    call.erase()
    body_copy.erase()


# ---------------------------------------------------------------------- loop-invariant read-only calls
WRITES = ("affine.store", "memref.store", "llvm.store", "memref.atomic_rmw", "memref.generic_atomic_rmw",
          "llvm.call", "llvm.intr.memcpy", "llvm.intr.memmove", "llvm.intr.memset", "memref.copy")


def readonly_functions(funcs, rec) -> set:
    """Defined, non-recursive functions that write no memory and call only such functions (LLVM's `readonly`)."""
    ok = {}

    def check(name):
        if name in ok:
            return ok[name]
        ok[name] = False
        f = funcs.get(name)
        if f is None or not is_defined(f) or name in rec:
            return False
        for op in all_ops(f):
            if op.name in WRITES:
                return False
            if op.name == "func.call" and not check(op.attributes["callee"].value):
                return False
        ok[name] = True
        return True
    return {n for n in funcs if check(n)}


def memory_root(v):
    """The function argument or allocation a memref/pointer value is derived from (through casts and views)."""
    from .activity import PLUMBING
    seen = 0
    work = [v]
    roots = set()
    while work and seen < 256:
        seen += 1
        v = work.pop()
        owner = v.owner
        if isinstance(owner, ir.Block):
            roots.add(v)
            continue
        if owner.name in PLUMBING and owner.name != "llvm.insertvalue":
            work.extend(owner.operands)
        elif owner.name == "llvm.insertvalue":
            work.append(owner.operands[1])  # the pointer inserted (operand 0 is the descriptor being built)
            work.append(owner.operands[0])
        elif owner.name in ("llvm.mlir.undef", "llvm.mlir.constant", "arith.constant"):
            continue
        else:
            roots.add(v)
    return roots


def hoist_readonly_calls(f, funcs, rec) -> None:
    """Move calls of read-only functions with loop-invariant arguments out of the loops of `f` that write no
    memory the callee may read: the loop-invariant code motion LLVM performs on `readonly` calls (and what turns
    Enzyme's O(n^2) normalization example into an O(n) gradient). The pass is the cleanup pipeline's
    (polygeist_py/licm.py: effects through calls, `restrict` arguments and distinct allocations, a guard when the
    loop may not run); here it runs again on the primal copy, leaving the calls of functions in `rec` where they
    are (recursive ones and those with custom derivative rules: they keep a call of their own)."""
    from polygeist_py.licm import hoist_in_function
    hoist_in_function(f, keep=frozenset(rec))
