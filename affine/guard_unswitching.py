"""Guards that do not change inside an innermost loop leave it: dead ones are dropped, one live one is unswitched.

isl fuses a statement into another statement's loops under a guard: gemm's ``C[i][j] *= beta`` runs inside the
k loop as ``if (k == 0)``, in the innermost j loop. Unroll-and-jam copies the guard for k + 1, k + 2, k + 3
(where it can never hold). A store under a condition keeps LLVM from vectorizing the j loop (scalar code, 1.4x
gcc's time for gemm on one AVX-512 core). For every innermost affine.for of the generated nest, each affine.if
in its body whose operands do not change in the loop is

* dropped (its else block, if any, takes its place) when its condition cannot hold under the bounds of the
  loops around it (loop_context.py asks isl);
* otherwise, for the first such guard, the loop is versioned: ``if (cond) { loop with the then block }
  else { loop with the else block }``, i.e. loop unswitching (as LLVM's SimpleLoopUnswitch does, which gave up
  on the four guards of the jammed gemm loop). Only one guard per loop is unswitched, to bound code growth.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import affine, arith

from polygeist_py.gpu_to_cpu.ir_nav import defined_inside, inline_then

from .isl_model import integer_set_map
from .loop_context import ValueNames, integer_set, unread_positions
from .unroll_jam import innermost_loops


def unswitch_invariant_guards(ops) -> int:
    """Apply the module docstring's rewrites to the innermost affine.for loops nested in `ops` (in place);
    returns the number of guards dropped or unswitched. Raises nothing."""
    done = 0
    for loop in innermost_loops(ops):
        guards = [op for op in loop.regions[0].blocks[0].operations
                  if op.name == "affine.if" and not op.results and
                  all(_invariant(v, loop) for v in _used_operands(op))]
        live = []
        for guard in guards:
            names = ValueNames()
            if names.infeasible(names.condition(guard) + names.loop_bounds(loop)):
                _replace_by_else(guard)
                done += 1
            elif not any(defined_inside(v, loop) for v in _used_operands(guard)):
                live.append(guard)  # (a jammed copy's shifted index is computed in the loop: not unswitched)
        if live:
            _unswitch(loop, live[0])
            done += 1
    return done


def _used_operands(op) -> list:
    """The operands of affine.if or affine.apply `op` that its condition or map reads."""
    amap = ir.AffineMapAttr(op.attributes["map"]).value if op.name == "affine.apply" else \
        integer_set_map(op.attributes["condition"])[0]
    unread = unread_positions(amap)
    return [v for i, v in enumerate(op.operands) if i not in unread]


def _invariant(v, loop) -> bool:
    """Whether index value `v` is the same in every iteration of `loop` (through affine.apply ops in it)."""
    if not defined_inside(v, loop):
        return True
    owner = v.owner
    if isinstance(owner, ir.Block) or owner.name != "affine.apply":
        return False
    return all(_invariant(o, loop) for o in _used_operands(owner))


def _replace_by_else(guard) -> None:
    if len(guard.regions[1].blocks):
        else_block = guard.regions[1].blocks[0]
        for op in list(else_block.operations)[:-1]:
            op.move_before(guard)
    guard.erase()


def _unswitch(loop, guard) -> None:
    """`loop` becomes ``affine.if (guard's condition) { loop, guard -> its then block } else { loop, guard -> its
    else block }``."""
    position = list(loop.regions[0].blocks[0].operations).index(guard)
    with ir.InsertionPoint(loop), loop.location:
        zero = arith.constant(ir.IndexType.get(), 0)  # for the indices the condition does not read
        operands = [zero if defined_inside(v, loop) else v for v in guard.operands]
        version = affine.AffineIfOp(integer_set(guard.attributes["condition"]), cond_operands=operands,
                                    has_else=True)
        with ir.InsertionPoint(version.then_block):
            then_end = affine.AffineYieldOp([])
        with ir.InsertionPoint(version.else_block):
            else_end = affine.AffineYieldOp([])
    taken = loop.clone(ir.InsertionPoint(then_end))
    inline_then(list(taken.regions[0].blocks[0].operations)[position])
    loop.move_before(else_end)
    _replace_by_else(guard)
