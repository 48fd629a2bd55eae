"""Unroll-and-jam of the loop around an innermost loop: independent reduction chains, and register reuse.

Two kinds of innermost loops gain from it:

* A reduction carried as an iter_arg after register promotion (scalar_promotion.py): bicg's ``q[i] += A[i][j] *
  p[j]``, gesummv's row sums. Each floating-point addition waits for the previous one, so the loop runs at the
  adder's latency, and LLVM cannot vectorize it without reassociating (results must stay bit-exact). Unrolling the
  loop around it by UNROLL_JAM_FACTOR and jamming the copies into it gives that many independent chains (rows
  i..i+3 summed side by side, each in its original order), and loads each shared operand (p[j]) once for all.
* An update of an element that does not depend on the unrolled loop: a matrix product's ``C[i][j] += A[i][k] *
  B[k][j]`` with j innermost and k unrolled. After jamming, the copies load and store C[i][j] one after the
  other; each load after a store of the same element takes the stored value (_forward_stores here, upstream
  affine-scalrep in the cleanup across the ifs of guarded statements), so C[i][j] is loaded once for four
  values of k.

This is Pluto's intra-tile register tiling (unroll-jam; Bondhugula et al., PLDI'08). jam_marks.py marks the
loops whose unroll-and-jam respects the dependences; code generation tags their affine.for with UNROLL_JAM; here a
tagged loop is transformed when the loops in its body are innermost, do not depend on it for their bounds, and one
of them at least carries iter_args or updates such an element. A private scalar expanded in the model is one
memory cell in the code (contraction, scalar_expansion.py), which the copies must not share: a rank-0 memref that
the loop stores to gets a fresh alloca in the loop body, which the copies then each have, provided every
iteration writes it before reading it and it is not used after the loop (syr2k's ``acc = 0`` before its k loop);
otherwise the loop is left as it is. The transformation itself is MLIR's `transform.loop.unroll_and_jam` (upstream loopUnrollJamByFactor,
which adds a cleanup loop for trip counts that are not a multiple of the factor; a tile's point loop with a
partial last tile is first versioned into a full-tile loop and the original).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import affine, memref

from polygeist_py.gpu_to_cpu.ir_nav import defined_inside, is_nested_in, is_pure

from .scop import accesses, memref_and_indices

UNROLL_JAM = "pgcc.unroll_jam"
UNROLL_JAM_FACTOR = 4
LOOPS = ("affine.for", "affine.parallel", "scf.for", "scf.parallel", "scf.while")

_SCRIPT = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loops = transform.structured.match ops{["affine.for"]} attributes {TAG} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.loop.unroll_and_jam %loops { factor = FACTOR } : !transform.any_op
    transform.yield
  }
}
"""


def unroll_and_jam(ops) -> int:
    """Unroll-and-jam the tagged affine.for loops nested in `ops` (a list of ops, in place) that qualify (see the
    module docstring); the tags are removed. Returns the number of loops transformed; raises nothing (a loop the
    transformation refuses is left as it was)."""
    tagged = []
    for op in ops:
        op.operation.walk(lambda o: (tagged.append(o) if UNROLL_JAM in o.attributes else None)
                          or ir.WalkResult.ADVANCE)
    chosen = [loop for loop in tagged if _qualifies(loop)]
    for loop in tagged:
        del loop.attributes[UNROLL_JAM]
    done = 0
    for loop in chosen:
        _privatize(loop, _private_scalars(loop))
        loop = _full_tile_version(loop)
        # a loop of exactly UNROLL_JAM_FACTOR iterations is gone afterwards (upstream promotes its one jammed
        # iteration into the parent): the jammed loops are found from the parent
        scope = loop.operation.parent
        if _apply(loop):
            done += 1
            forward_stores_in([scope])
    return done


def forward_stores_in(ops) -> None:
    """_forward_stores in the body of every innermost affine.for nested in `ops`."""
    for inner in innermost_loops(ops):
        _forward_stores(inner.regions[0].blocks[0])


def innermost_loops(ops) -> list:
    """The affine.for ops nested in `ops` (a list of ops) with no loop inside them."""
    found = []

    def visit(o):
        if o.name == "affine.for":
            nested = []
            for inner in o.regions[0].blocks[0].operations:
                inner.operation.walk(lambda x: (nested.append(x) if x.name in LOOPS else None) or ir.WalkResult.ADVANCE)
            if not nested:
                found.append(o)
        return ir.WalkResult.ADVANCE

    for op in ops:
        op.operation.walk(visit)
    return found


def _forward_stores(block) -> None:
    """In `block` (an innermost loop body): a load of the element a previous store of the same array stored
    (same memref and index expressions, nothing in between that may store to that array) takes the stored
    value, and a store that a later store to the same element overwrites with no read of the array in between
    is removed (the jammed copies of ``C[i][j] += ...`` store C[i][j] once, not four times: LLVM keeps the
    stores, not knowing that the other arrays do not alias C). Done here rather than left to affine-scalrep in
    the cleanup, which was seen to forward the value of the first copy's load instead of its store in a
    triangular nest (correlation; MLIR 22)."""
    known = {}  # (memref, map, indices) -> value last stored there
    pending = {}  # (memref, map, indices) -> the last store there, not read since
    for op in list(block.operations):
        if op.regions or op.name not in ("affine.load", "affine.store", "affine.apply", "affine.yield") and \
                not is_pure(op):  # an if: its stores end what is known of the arrays they write
            written = set()
            op.walk(lambda o: (written.add(_element(o)[0]) if o.name == "affine.store" else None)
                    or ir.WalkResult.ADVANCE)
            known = {k: v for k, v in known.items() if k[0] not in written}
            pending = {}
            continue
        if op.name not in ("affine.load", "affine.store"):
            continue
        key = _element(op)
        if op.name == "affine.load":
            if key in known:
                op.results[0].replace_all_uses_with(known[key])
                op.erase()
            else:
                pending = {k: v for k, v in pending.items() if k[0] != key[0]}
            continue
        if key in pending:
            pending.pop(key).erase()
        known = {k: v for k, v in known.items() if k[0] != key[0]}  # another element of it may be the same one
        known[key] = op.operands[0]
        pending[key] = op


def _element(access) -> tuple:
    """(memref, index expressions) of an affine.load / affine.store, the indices as nested (map, operands) tuples
    of the affine.apply ops computing them, so that the copies unroll-and-jam makes compare equal."""
    mem, indices = memref_and_indices(access)
    return mem, str(access.attributes["map"]), tuple(_expression(v) for v in indices)


def _expression(v):
    owner = v.owner
    if not isinstance(owner, ir.Block) and owner.name == "affine.apply":
        return str(owner.attributes["map"]), tuple(_expression(o) for o in owner.operands)
    return v


def _varies_with(v, loop) -> bool:
    """Whether index value `v` may change with `loop`'s iterations (through affine.apply ops)."""
    owner = v.owner
    if isinstance(owner, ir.Block):  # an iterator: the inner loops' are the same in every copy
        return v == loop.regions[0].blocks[0].arguments[0]
    if owner.name == "affine.apply":
        return any(_varies_with(o, loop) for o in owner.operands)
    return defined_inside(v, loop)


def _full_tile_version(loop):
    """For a loop ``L to min(L + T, E..)`` (a point loop of a tile of size T, the last tile partial; L constant,
    or the same affine expression of the same values in both bounds, as in a block of rows of
    triangular_jam.py), which upstream does not unroll-and-jam (its cleanup loop would need a min lower bound):
    ``if (E.. >= L + T) { loop L to L + T } else { the loop as it was }``. Returns the loop to transform: the
    full-tile one, or `loop` when it has another form."""
    lb, ub = (ir.AffineMapAttr(loop.attributes[k]).value for k in ("lowerBoundMap", "upperBoundMap"))
    operands = list(loop.operands)
    lb_operands, ub_operands = operands[:lb.n_inputs], operands[lb.n_inputs:lb.n_inputs + ub.n_inputs]
    if len(ub.results) < 2 or len(lb.results) != 1 or loop.results or lb.n_symbols or lb.n_dims > ub.n_dims or \
            any(a != b for a, b in zip(lb_operands, ub_operands[:lb.n_dims])):
        return loop
    start = lb.results[0]  # (its dims are the first dims of ub's)
    sizes = [_constant(r - start, ub) for r in ub.results]
    tiles = [k for k, size in enumerate(sizes) if size is not None]
    if len(tiles) != 1 or sizes[tiles[0]] % UNROLL_JAM_FACTOR:
        return loop
    tile = ub.results[tiles[0]]
    others = [r - tile for k, r in enumerate(ub.results) if k != tiles[0]]
    full = ir.IntegerSet.get(ub.n_dims, ub.n_symbols, others, [False] * len(others))
    with ir.InsertionPoint(loop), loop.location:
        version = affine.AffineIfOp(full, cond_operands=ub_operands, has_else=True)
        with ir.InsertionPoint(version.then_block):
            then_end = affine.AffineYieldOp([])
        with ir.InsertionPoint(version.else_block):
            else_end = affine.AffineYieldOp([])
    loop.move_before(else_end)
    full_tile = loop.clone(ir.InsertionPoint(then_end))
    full_tile.attributes["upperBoundMap"] = ir.AffineMapAttr.get(
        ir.AffineMap.get(ub.n_dims, ub.n_symbols, [tile]))
    return full_tile


def _constant(expr, amap) -> int | None:
    """The value of affine expression `expr` (over `amap`'s dims and symbols) when it is a constant."""
    simplified = ir.AffineMap.get(amap.n_dims, amap.n_symbols, [expr]).results[0]
    return simplified.value if isinstance(simplified, ir.AffineConstantExpr) else None


def _qualifies(loop) -> bool:
    """The loops nested in `loop` are affine.for ops in its body (not under an if), innermost, with bounds that
    do not depend on `loop`, and one of them at least carries iter_args."""
    body = loop.regions[0].blocks[0]
    loops = []
    for op in body.operations:
        op.operation.walk(lambda o: (loops.append(o) if o.name in LOOPS else None) or ir.WalkResult.ADVANCE)
    if not loops or not any(inner.results or _updates_invariant_element(inner, loop) for inner in loops):
        return False
    for inner in loops:
        if inner.name != "affine.for" or inner.parent != loop:
            return False
        n_bounds = len(inner.operands) - len(inner.results)
        if any(defined_inside(v, loop) for v in list(inner.operands)[:n_bounds]):
            return False
    return _private_scalars(loop) is not None


def _private_scalars(loop) -> list | None:
    """The rank-0 memrefs stored to in `loop`, which each iteration must get a copy of, or None when one of them
    cannot have one: each is used only inside `loop`, and the first access to it in the body (in program order,
    nested ops included) is an unconditional store of the body, so that no iteration reads a value from another."""
    body = loop.regions[0].blocks[0]
    first = {}  # memref -> its first access in the body
    for top in body.operations:
        for o in accesses(top):
            mem = memref_and_indices(o)[0]
            if ir.MemRefType(mem.type).rank == 0:
                first.setdefault(mem, (o, o == top))
    out = []
    for mem, (access, at_top) in first.items():
        stored = any(u.owner.name == "affine.store" and u.operand_number == 1 and is_nested_in(u.owner, loop)
                     for u in mem.uses)
        if not stored:
            continue  # read only (alpha, beta): every copy reads the same value
        if access.name != "affine.store" or not at_top or \
                not all(is_nested_in(u.owner, loop) for u in mem.uses):
            return None
        out.append(mem)
    return out


def _privatize(loop, scalars) -> None:
    """A fresh memref.alloca for each of `scalars` at the top of `loop`'s body, used instead of the old one
    inside `loop` (unroll-and-jam then gives every copy its own)."""
    body = loop.regions[0].blocks[0]
    for mem in scalars:
        with loop.location, ir.InsertionPoint.at_block_begin(body):
            private = memref.AllocaOp(mem.type, [], []).result
        for u in list(mem.uses):
            if is_nested_in(u.owner, loop):
                u.owner.operands[u.operand_number] = private


def _updates_invariant_element(inner, loop) -> bool:
    """Whether the body of `inner` loads and stores an element whose indices do not vary with `loop`."""
    ops = list(inner.regions[0].blocks[0].operations)
    loaded = {_element(op) for op in ops if op.name == "affine.load"}
    for op in ops:
        if op.name == "affine.store" and _element(op) in loaded:
            if not any(_varies_with(v, loop) for v in list(op.operands)[2:]):
                return True
    return False


def _apply(loop) -> int:
    """Run the transform on `loop` alone (tagged for the time of the call); 1 when it was transformed."""
    from mlir.dialects.transform import interpreter  # (here: 16 ms to import, and most SCoPs jam no loop)
    func = loop.parent
    while func.name != "func.func":
        func = func.parent
    script = ir.Module.parse(_SCRIPT.replace("TAG", UNROLL_JAM).replace("FACTOR", str(UNROLL_JAM_FACTOR)), loop.context)
    entry = next(op for op in script.body.operations if op.operation.name == "transform.named_sequence")
    loop.attributes[UNROLL_JAM] = ir.UnitAttr.get()
    try:
        interpreter.apply_named_sequence(func, entry, script)
        done = 1
    except Exception:  # upstream refused the loop before changing it
        done = 0
    func.operation.walk(lambda o: (o.attributes.__delitem__(UNROLL_JAM) if UNROLL_JAM in o.attributes else None)
                        or ir.WalkResult.ADVANCE)
    return done
