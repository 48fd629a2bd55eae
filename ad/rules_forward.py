"""Forward-mode rules: one per op name in FORWARD_RULES (scalar arith/math ops go through partials.PARTIALS).

A rule is called by ad.forward.Forward.emit_ops with the Forward instance `fw` and the primal op; it emits the
primal op's copy (fw.clone) and, for varied values, their tangents or shadows into fw.tmap (JAX's jvp rules).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, func, scf

from polygeist_py.errors import error_at_op

from . import libm
from . import partials as P
from .libm import is_libm_call
from .activity import ALLOCS, LOADS, LOOPS, MALLOCS, STORES, is_float
from .activity import int_move_source
from .allocators import CUSTOM_ALLOCATORS, DEALLOCATORS, LIBC_MALLOCS, alloc_bytes, is_free, shadow_release
from .raw_memory import fwd_alloca_rule, fwd_copy_rule, fwd_store_rule
from .gpu_block import dynamic_shared_shadow, is_dynamic_shared
from .emit import body_ops, clone_mapped, create_like, loop_parts, loop_segments, shadow_alloc, terminator


def scalar_rule(fw, op):
    """Scalar arith/math op: tangent = sum over operands of partial * operand tangent (partials.PARTIALS)."""
    new = fw.clone(op)
    r = new.results[0]
    if not fw.act.is_varied(op.results[0]):
        return
    if op.name == "arith.divf" and fw.t(op.operands[1]) is not None:
        fw.tmap[op.results[0]] = quotient_tangent(fw.t(op.operands[0]), r, fw.t(op.operands[1]), fw.p(op.operands[1]))
        return
    rule = P.PARTIALS[op.name]
    acc = None
    for k, v in enumerate(op.operands):
        t = fw.t(v)
        if t is None:
            continue
        part = rule(k, lambda i: fw.p(op.operands[i]), lambda: r, r.type)
        if part is None:
            continue
        term = P.convert(t, r.type) if part == P.CONVERT else P.apply(part, t)
        acc = term if acc is None else P.accumulate(acc, term)
    if acc is not None:
        fw.tmap[op.results[0]] = acc


def quotient_tangent(ta, r, tb, b):
    """The tangent of r = a / b as (ta - r * tb) * (1/b) (Enzyme's rule, (ta - r tb) / b, with the reciprocal
    that a loop with an invariant divisor computes once; ta None: a has no tangent). Not the sum of the partials
    ta / b - (a / b^2) tb: a / b^2 leaves the double range for |b| < 1e-154 (or > 1e154 when the product is
    regrouped as a * (1/b)^2), giving inf * 0 = NaN or 0 where the tangent is representable."""
    rtb = arith.mulf(r, tb)
    num = arith.negf(rtb) if ta is None else arith.subf(ta, rtb)
    return arith.mulf(num, P.recip(b.type, b))


def plumbing_rule(fw, op):
    """Pointer plumbing (casts, views, descriptors): the same op on the shadows gives the shadow."""
    fw.clone(op)
    if any(fw.act.is_varied(r) for r in op.results):
        new = fw.shadow_clone(op)
        for r, s in zip(op.results, new.results):
            if fw.act.is_varied(r):
                fw.tmap[r] = s


def select_rule(fw, op):
    """arith.select: the tangent of the selected operand (for pointers: the selected shadow)."""
    if not is_float(op.results[0].type):
        if fw.act.is_varied(op.results[0]) and not all(fw.t(v) is not None for v in list(op.operands)[1:]):
            raise error_at_op(op, "unsupported construct: choosing between a differentiated pointer and one "
                                  "without a shadow")
        plumbing_rule(fw, op)
        return
    fw.clone(op)
    if fw.act.is_varied(op.results[0]):
        c, a, b = op.operands
        fw.tmap[op.results[0]] = arith.select(fw.p(c), fw.tangent_or_zero(a), fw.tangent_or_zero(b))


def load_rule(fw, op):
    """affine/memref.load: the tangent is the same load from the shadow."""
    fw.clone(op)
    if fw.act.is_varied(op.results[0]):
        fw.tmap[op.results[0]] = fw.shadow_clone(op).results[0]


def store_rule(fw, op):
    """affine/memref.store: the tangent (zero for an inactive value) is stored into the shadow."""
    fw.clone(op)
    val, mem = op.operands[0], op.operands[1]
    if fw.t(mem) is not None:
        tv = fw.tangent_or_zero(val) if is_float(val.type) else None
        src = int_move_source(op)
        if tv is None and src is not None and fw.t(src.operands[0]) is not None:
            tv = fw.shadow_clone(src).results[0]  # (a float's bits moved through an integer: the tangent's too)
        if tv is not None:
            fw.shadow_clone(op, {0: tv})
    elif fw.act.is_varied(val) and not fw.session.in_inactive_global(mem):
        raise error_at_op(op, "storing an active value into memory that has no shadow (an enzyme_const argument "
                              "or a global)")


def alloc_rule(fw, op):
    """memref.alloca/alloc holding varied values: a zero-filled shadow allocation of the same shape. The tangent
    memory of __shared__ memory is shared too and not zeroed (zeroing by every thread would race with the
    tangents other threads store; tangents are stored wherever the primal stores, as the primal memory is not
    zeroed either)."""
    fw.clone(op)
    if fw.act.is_varied(op.results[0]):
        if "pgcc.shared" in op.attributes and fw.session.device:
            fw.tmap[op.results[0]] = clone_mapped(op, {}).results[0]
            return
        fw.tmap[op.results[0]] = shadow_alloc(op, fw.vmap)


def get_global_rule(fw, op):
    """memref.get_global of a mutable global holding varied values: its shadow global (ad/shadow_globals.py)."""
    fw.clone(op)
    if fw.act.is_varied(op.results[0]):
        from .shadow_globals import shadow_of_get_global
        fw.tmap[op.results[0]] = shadow_of_get_global(op, fw.session.user_shadows)


def addressof_rule(fw, op):
    """llvm.mlir.addressof of a global in raw memory with a shadow (Enzyme's queried shadows of globals,
    ad/shadow_globals.py): the address of its shadow global."""
    fw.clone(op)
    if fw.act.is_varied(op.results[0]):
        from .shadow_globals import shadow_of_addressof
        fw.tmap[op.results[0]] = shadow_of_addressof(op, fw.session.user_shadows)


def dealloc_rule(fw, op):
    """memref.dealloc: the shadow is freed too."""
    fw.clone(op)
    s = fw.t(op.operands[0])
    if s is not None:
        fw.shadow_clone(op)


def loop_rule(fw, op):
    """scf.for/affine.for: the tangents of varied loop-carried values become extra iter_args."""
    ctrl, inits, body = loop_parts(op)
    n = len(inits)
    act = [j for j in range(n) if fw.act.is_varied(op.results[j])]
    new_inits = [fw.p(v) for v in inits] + [fw.tangent_or_zero(inits[j]) for j in act]
    types = [r.type for r in op.results] + [op.results[j].type for j in act]
    new = create_like(op, [fw.p(v) for v in ctrl] + new_inits, types, segments=loop_segments(op, len(new_inits)))
    block = new.regions[0].blocks.append(*[a.type for a in body.arguments], *[op.results[j].type for j in act])
    for old, nv in zip(body.arguments, block.arguments):
        fw.vmap[old] = nv
    for k, j in enumerate(act):
        fw.tmap[body.arguments[1 + j]] = block.arguments[len(body.arguments) + k]
    with ir.InsertionPoint(block):
        _emit_body_with_tangents(fw, body, act)
    _map_results(fw, op, new, act)


def _emit_body_with_tangents(fw, body, act):
    """Emit the primal and tangent code of region block `body` at the current insertion point, ending in its
    terminator with the tangents of the yielded values at positions `act` appended."""
    fw.emit_ops(body_ops(body))
    y = terminator(body)
    with y.location:
        create_like(y, [fw.p(v) for v in y.operands] + [fw.tangent_or_zero(y.operands[j]) for j in act], [])


def _map_results(fw, op, new, act):
    """Map the results of `op` to the first results of its replacement `new`, and the tangents of the results
    at positions `act` to the extra results that follow."""
    n = len(op.results)
    for j, r in enumerate(op.results):
        fw.vmap[r] = new.results[j]
    for k, j in enumerate(act):
        fw.tmap[op.results[j]] = new.results[n + k]


def if_rule(fw, op):
    """scf.if/affine.if: the tangents of varied results become extra results of both branches."""
    n = len(op.results)
    act = [j for j in range(n) if fw.act.is_varied(op.results[j])]
    types = [r.type for r in op.results] + [op.results[j].type for j in act]
    new = create_like(op, [fw.p(v) for v in op.operands], types)  # (scf.if: the condition; affine.if: its operands)
    for region, nregion in zip(op.regions, new.regions):
        if not len(region.blocks):
            continue
        body = region.blocks[0]
        block = nregion.blocks.append()
        with ir.InsertionPoint(block):
            _emit_body_with_tangents(fw, body, act)
    _map_results(fw, op, new, act)


def while_rule(fw, op):
    """scf.while: tangents of varied carried values travel with them through both regions."""
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    cond = terminator(before)
    b_act = [j for j, a in enumerate(before.arguments) if fw.act.is_varied(a)]
    a_act = [j for j, a in enumerate(after.arguments) if fw.act.is_varied(a)]
    inits = [fw.p(v) for v in op.operands] + [fw.tangent_or_zero(op.operands[j]) for j in b_act]
    rtypes = [r.type for r in op.results] + [op.results[j].type for j in a_act]
    new = create_like(op, inits, rtypes)
    nb = new.regions[0].blocks.append(*[a.type for a in before.arguments], *[before.arguments[j].type for j in b_act])
    na = new.regions[1].blocks.append(*rtypes)
    for old, nv in zip(before.arguments, nb.arguments):
        fw.vmap[old] = nv
    for k, j in enumerate(b_act):
        fw.tmap[before.arguments[j]] = nb.arguments[len(before.arguments) + k]
    with ir.InsertionPoint(nb):
        fw.emit_ops(body_ops(before))
        with cond.location:
            cargs = list(cond.operands)[1:]
            create_like(cond, [fw.p(cond.operands[0])] + [fw.p(v) for v in cargs]
                        + [fw.tangent_or_zero(cargs[j]) for j in a_act], [])
    for old, nv in zip(after.arguments, na.arguments):
        fw.vmap[old] = nv
    for k, j in enumerate(a_act):
        fw.tmap[after.arguments[j]] = na.arguments[len(after.arguments) + k]
    with ir.InsertionPoint(na):
        _emit_body_with_tangents(fw, after, b_act)
    _map_results(fw, op, new, a_act)


def parallel_rule(fw, op):
    """scf.parallel: iterations are independent, so the tangent code runs in the same parallel iteration as the
    primal code. The tangent of a varied sum reduction is one more sum reduction (of the iterations' tangents,
    starting from the tangent of the initial value)."""
    n = len(op.results)
    act = [j for j in range(n) if fw.act.is_varied(op.results[j])]
    ops = list(op.operands)
    inits = ops[len(ops) - n:]
    nb = len(op.regions[0].blocks[0].arguments)
    new = create_like(op, [fw.p(v) for v in ops] + [fw.tangent_or_zero(inits[j]) for j in act],
                      [r.type for r in op.results] + [op.results[j].type for j in act],
                      segments=[nb, nb, nb, n + len(act)])
    body = op.regions[0].blocks[0]
    block = new.regions[0].blocks.append(*[a.type for a in body.arguments])
    for old, nv in zip(body.arguments, block.arguments):
        fw.vmap[old] = nv
    with ir.InsertionPoint(block):
        fw.emit_ops(body_ops(body))
        red = terminator(body)
        if not n:
            fw.clone(red)
        else:
            with red.location:
                _reduce_with_tangents(fw, red, act)
    _map_results(fw, op, new, act)


def _reduce_with_tangents(fw, red, act):
    """The scf.reduce of `red`'s values (its combiners copied) followed by sums of the tangents at `act`."""
    vals = [fw.p(v) for v in red.operands] + [fw.tangent_or_zero(red.operands[j]) for j in act]
    new = ir.Operation.create("scf.reduce", operands=vals, regions=len(vals))
    for k, v in enumerate(vals):
        block = new.regions[k].blocks.append(v.type, v.type)
        with ir.InsertionPoint(block):
            if k < len(red.operands):
                old = red.regions[k].blocks[0]
                local = dict(zip(old.arguments, block.arguments))
                for inner in old.operations:
                    clone_mapped(inner, local)
            else:
                scf.ReduceReturnOp(arith.addf(block.arguments[0], block.arguments[1]))


def call_rule(fw, op):
    """A call that was not inlined (recursion): the callee's own forward derivative, returning primal and tangent
    results."""
    callee = op.attributes["callee"].value
    active = tuple(fw.act.is_varied(v) for v in op.operands)
    if fw.session.device and is_dynamic_shared(op):  # extern __shared__: tangent memory shared by the block
        new = fw.clone(op)
        if fw.act.is_varied(op.results[0]):  # (at the top level: gpu_block.hoist_shared_allocations)
            fw.tmap[op.results[0]] = dynamic_shared_shadow(fw, new.results[0], op.location, fw.block_finals)
        return
    if (not any(active) and callee not in MALLOCS) or callee in fw.session.inactive:
        fw.clone(op)
        return
    if callee in fw.session.derivative_rules:
        custom_derivative(fw, op, fw.session.derivative_rules[callee][0])
        return
    if callee in fw.session.function_like or is_libm_call(fw.session, op):
        new = fw.clone(op)
        acc = None
        for k, part, t in call_partials(fw.session, op, fw.p, lambda: new.results[0]):
            tk = fw.t(op.operands[k])
            if tk is None:
                continue
            term = P.apply(part, tk)
            acc = term if acc is None else P.accumulate(acc, term)
        if acc is not None:
            fw.tmap[op.results[0]] = acc
        return
    if callee in MALLOCS:  # the shadow: an allocation of the same size, zeroed
        new = fw.clone(op)
        if fw.act.is_varied(op.results[0]):
            from mlir.dialects import llvm
            args = [fw.p(v) for v in op.operands]
            sh = func.CallOp([op.results[0].type], ir.FlatSymbolRefAttr.get(callee), args).results[0]
            nbytes = usable_bytes(fw, sh) if reallocates(fw) and callee in LIBC_MALLOCS else alloc_bytes(callee, args)
            llvm.MemsetOp(sh, arith.constant(ir.IntegerType.get_signless(8), 0), nbytes, ir.BoolAttr.get(False))
            fw.tmap[op.results[0]] = sh
        return
    if callee == "realloc":
        realloc_rule(fw, op)
        return
    if is_free(callee):  # free / a custom deallocator: the shadow released alike
        fw.clone(op)
        at = 0 if callee == "free" else CUSTOM_ALLOCATORS[DEALLOCATORS[callee]][2].index(-1)
        if fw.t(op.operands[at]) is not None:
            shadow_release(callee, [fw.p(v) for v in op.operands], fw.t(op.operands[at]))
        return
    f = fw.session.funcs.get(callee)
    if f is None or not len(f.regions[0].blocks):
        raise error_at_op(op, f"unsupported construct: differentiating a call of '{callee}', whose body is not in "
                              "this file (register a derivative with __enzyme_register_derivative_" + callee
                              + " or mark it __enzyme_inactivefn)")
    name = fw.session.derivative(callee, "forward", active, return_primal=True, at=op)
    args = []
    for v, a in zip(op.operands, active):
        args.append(fw.p(v))
        if a:
            args.append(fw.tangent_or_zero(v) if is_float(v.type) else fw.t(v))
    ftype = ir.FunctionType(ir.TypeAttr(fw.session.funcs[name].attributes["function_type"]).value)
    new = func.CallOp(list(ftype.results), ir.FlatSymbolRefAttr.get(name), args)
    n = len(op.results)
    for j, r in enumerate(op.results):
        fw.vmap[r] = new.results[j]
    k = n
    for r in op.results:
        if is_float(r.type):
            fw.tmap[r] = new.results[k]
            k += 1


def reallocates(fw) -> bool:
    """Whether the function differentiated calls realloc on differentiated memory."""
    return any(o.name == "func.call" and o.attributes["callee"].value == "realloc" and fw.act.is_varied(o.results[0])
               for o in fw.act.ops)


def usable_bytes(fw, p):
    """malloc_usable_size(p) as an i64 (glibc: the bytes of the block, which the program may use)."""
    i64 = ir.IntegerType.get_signless(64)
    return fw.libc("malloc_usable_size", [p], i64)


def realloc_rule(fw, op):
    """q = realloc(p, n) of differentiated memory (forward mode): the tangent memory moves alike. The old
    shadow's size is not known, but every shadow of a function that reallocates is zeroed over its whole
    usable block (malloc_usable_size), so copying min(n, usable size of the old shadow) bytes into a new zeroed
    block carries exactly the old tangents and zeros after them; the old shadow is freed, as realloc frees p.

    Raises:
        CompileError: p may come from memory this function did not allocate (a caller's shadow has no known
            block), or from a realloc outside forward mode."""
    from mlir.dialects import llvm
    from .activity import allocations_of
    new = fw.clone(op)
    if not fw.act.is_varied(op.results[0]):
        return
    unknown = []
    sources = allocations_of(op.operands[0], unknown)
    if unknown or any(a.attributes["callee"].value not in LIBC_MALLOCS | {"realloc"} for a in sources):
        raise error_at_op(op, "unsupported construct: realloc of differentiated memory that this function did not "
                              "allocate with malloc, calloc or aligned_alloc (its shadow's size is unknown)")
    ptr = op.results[0].type
    n = fw.p(op.operands[1])
    old = fw.t(op.operands[0])
    sh = fw.libc("malloc", [n], ptr)
    llvm.MemsetOp(sh, arith.constant(ir.IntegerType.get_signless(8), 0), usable_bytes(fw, sh), ir.BoolAttr.get(False))
    if old is not None:
        keep = arith.minui(n, usable_bytes(fw, old))
        llvm.MemcpyOp(sh, old, keep, ir.BoolAttr.get(False))
        fw.libc("free", [old], None)
    fw.tmap[op.results[0]] = sh


# libm names -> the math op whose derivative rule (partials.PARTIALS) a function declared like them uses
LIBM_OPS = {"fabs": "math.absf", "pow": "math.powf", "fmod": "arith.remf", "atan2": "math.atan2",
            "copysign": "math.copysign", "fma": "math.fma", "fmax": "arith.maximumf", "fmin": "arith.minimumf"}


def call_partials(session, op, primal, result):
    """[(operand index, partial, type)] of a call of a function declared like a libm function or of a libm
    function that stays a call (libm.LIBM_PARTIALS), at the primal values `primal(v)`, its result `result()`."""
    if op.attributes["callee"].value in session.function_like:
        return function_like_partials(session, op, primal, result)
    return libm.call_partials(op, primal, result)


def function_like_partials(session, op, primal, result):
    """[(operand index, partial, type)] of a call of a function declared like a libm function
    (``enzyme_function_like("log1p")``): the math function's derivative at the call's arguments, its result
    taken as the call's result.

    Raises:
        CompileError: a math function pgcc has no derivative rule for, or a call that does not fit it."""
    callee = op.attributes["callee"].value
    like = session.function_like[callee]
    def op_of(n):
        got = LIBM_OPS.get(n, f"math.{n}")
        return got if got in P.PARTIALS else None
    name = op_of(like) or (op_of(like[:-1]) if like.endswith("f") else None)  # (log1pf: float variants)
    rule = P.PARTIALS.get(name) if name else None
    if rule is None and libm.base_name(like) is not None:  # (hypot, erfc, lgamma, tgamma, remainder...)
        rule = libm.LIBM_PARTIALS[libm.base_name(like)]
    floats = [k for k, v in enumerate(op.operands) if is_float(v.type)]
    if rule is None or len(op.results) != 1 or not is_float(op.results[0].type) or len(floats) != len(op.operands):
        raise error_at_op(op, f"unsupported construct: '{callee}' is declared like '{like}', which pgcc has no "
                              "derivative rule for (or whose arguments and result do not fit it)")
    t = op.results[0].type
    out = []
    for k in floats:
        part = rule(k, lambda i: primal(op.operands[i]), result, t)
        if part is None:
            continue
        if part == P.CONVERT:
            part = P.ONE
        out.append((k, part, t))
    return out


def custom_derivative(fw, op, fwd):
    """A call of f with ``__enzyme_register_derivative_f = {f, fwd}``: the primal call, and the tangent returned by
    fwd(args), which takes each floating argument followed by its tangent and each pointer by its shadow."""
    fw.clone(op)
    args = []
    for v in op.operands:
        args.append(fw.p(v))
        if is_float(v.type):
            args.append(fw.tangent_or_zero(v))
        elif fw.t(v) is not None:
            args.append(fw.t(v))
    results = [r.type for r in op.results if is_float(r.type)]
    check_signature(fw.session, op, fwd, args, results)
    call = func.CallOp(results, ir.FlatSymbolRefAttr.get(fwd), args)
    k = 0
    for r in op.results:
        if is_float(r.type):
            fw.tmap[r] = call.results[k]
            k += 1


def check_signature(session, op, name, args, results):
    """Raise a clear error when custom rule `name` does not take `args` and return `results` (types)."""
    f = session.funcs.get(name)
    ftype = ir.FunctionType(ir.TypeAttr(f.attributes["function_type"]).value) if f is not None else None
    want = ir.FunctionType.get([a.type for a in args], results)
    if ftype is None or list(ftype.inputs) != list(want.inputs) or list(ftype.results) != list(want.results):
        raise error_at_op(op, f"custom derivative '{name}' of '{op.attributes['callee'].value}' has type "
                              f"{ftype}, expected {want}")


def pointer_load_rule(fw, op):
    """llvm.load from shadowed raw bytes: a pointer's shadow (Enzyme's convention for double**, struct fields) or
    a float's tangent sits at the same place in the shadow memory."""
    fw.clone(op)
    if fw.act.is_varied(op.results[0]):
        fw.tmap[op.results[0]] = fw.shadow_clone(op).results[0]
    elif fw.t(op.operands[0]) is not None:
        from .raw_memory import is_move_value
        if is_move_value(op.results[0]):  # an integer only moving bytes: the shadow's bytes move with it
            fw.tmap[op.results[0]] = fw.shadow_clone(op).results[0]


def memcpy_rule(fw, op):
    """llvm.intr.memcpy/memmove: the shadows are copied too (zeroed when the source has none)."""
    fwd_copy_rule(fw, op)


def memset_rule(fw, op):
    """llvm.intr.memset: a constant fill; the shadow becomes 0."""
    from mlir.dialects import llvm
    fw.clone(op)
    sd = fw.t(op.operands[0])
    if sd is not None:
        llvm.MemsetOp(sd, arith.constant(ir.IntegerType.get_signless(8), 0), fw.p(op.operands[2]),
                      ir.BoolAttr.get(False))


def atomic_kind(op) -> str:
    """The name of a memref.atomic_rmw's kind (its attribute holds arith.AtomicRMWKind as an integer)."""
    attr = op.attributes["kind"]
    try:
        return arith.AtomicRMWKind(ir.IntegerAttr(attr).value).name
    except Exception:
        return str(attr)


def atomic_rule(fw, op):
    """memref.atomic_rmw (CUDA atomicAdd, `#pragma omp atomic` update/read/write/capture): addf adds the tangent
    atomically to the shadow, assign (atomic write) exchanges it in; the old value's tangent, when the program
    uses it (atomic read, capture), is the old shadow element the same atomic op on the shadow returns (Enzyme's
    rule for atomicrmw). Other kinds (mul, min, max) are errors.

    Raises:
        CompileError: another kind touching differentiated memory; an active value added into memory without a
            shadow."""
    kind = atomic_kind(op)
    val, mem = op.operands[0], op.operands[1]
    sm = fw.t(mem)
    if kind not in ("addf", "assign") and (fw.act.is_varied(val) or sm is not None):
        raise error_at_op(op, f"unsupported construct: differentiating atomic {kind}")
    fw.clone(op)
    if sm is not None:
        tv = fw.tangent_or_zero(val)
        new = fw.shadow_clone(op, {0: tv})
        if fw.act.is_varied(op.results[0]):
            fw.tmap[op.results[0]] = new.results[0]
    elif fw.act.is_varied(val) and not fw.session.in_inactive_global(mem):
        raise error_at_op(op, "an atomic add of an active value into memory that has no shadow")


PRINTING = ("printf", "fprintf", "puts", "fputs", "putchar")


def vararg_call_rule(fw, op):
    """llvm.call (the frontend's variadic C calls): printing has no derivative; anything else (scanf writes
    memory) is not differentiated."""
    callee = ir.FlatSymbolRefAttr(op.attributes["callee"]).value if "callee" in op.attributes else None
    if callee is None:
        raise error_at_op(op, "unsupported construct: differentiating a call through a function pointer that is "
                              "not one known function where it is differentiated (call the function by name)")
    if callee not in PRINTING:
        raise error_at_op(op, f"unsupported construct: differentiating a call of '{callee}'")
    fw.clone(op)


FORWARD_RULES = {
    "gpu.barrier": lambda fw, op: fw.clone(op),  # (__syncthreads: the tangents follow the primal's order)
    "llvm.call": vararg_call_rule,
    "arith.select": select_rule,
    "memref.atomic_rmw": atomic_rule,
    "llvm.intr.memcpy": memcpy_rule,
    "llvm.intr.memmove": fwd_copy_rule,
    "llvm.intr.memset": memset_rule,
    "llvm.load": pointer_load_rule,
    "llvm.store": fwd_store_rule,
    "llvm.alloca": fwd_alloca_rule,
    **{n: load_rule for n in LOADS},
    **{n: store_rule for n in STORES},
    **{n: alloc_rule for n in ALLOCS},
    "memref.dealloc": dealloc_rule,
    "memref.prefetch": lambda fw, op: fw.clone(op),  # (a hint on the primal's memory)
    "memref.get_global": get_global_rule,
    "llvm.mlir.addressof": addressof_rule,
    **{n: loop_rule for n in LOOPS},
    "scf.if": if_rule,
    "affine.if": if_rule,
    "scf.while": while_rule,
    "scf.parallel": parallel_rule,
    "func.call": call_rule,
}
