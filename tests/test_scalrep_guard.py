"""scalrep_guard.py: the loads that made upstream's affine-scalrep abort are demoted, and only those."""

from mlir import ir
from mlir.passmanager import PassManager

from polygeist_py.scalrep_guard import guard_redundant_loads

# A, a write to another element, B, then C under an scf.if: A -> B and B -> C pass affine-scalrep's
# no-intervening-write test, A -> C does not, so B was replaced by A, C by B, and B erased with C's uses left.
NESTED = """
func.func @f(%c: i1, %m: memref<200xi32>) -> i32 {
  %a = affine.load %m[100] : memref<200xi32>
  affine.store %a, %m[0] : memref<200xi32>
  %b = affine.load %m[100] : memref<200xi32>
  scf.if %c {
    %x = affine.load %m[37] : memref<200xi32>
    %n = affine.load %m[100] : memref<200xi32>
    %d = arith.subi %x, %n : i32
    affine.store %d, %m[37] : memref<200xi32>
  }
  return %b : i32
}
"""


def _run(text):
    with ir.Context():
        module = ir.Module.parse(text)
        demoted = guard_redundant_loads(module)
        module.operation.verify()
        PassManager.parse("builtin.module(func.func(affine-scalrep),canonicalize)").run(module.operation)
        return demoted, str(module)


def test_nested_third_load_is_demoted_and_the_pass_runs():
    demoted, out = _run(NESTED)
    assert demoted == 1
    # the nested read of element 100 is a memref.load now; the outer two became one affine.load
    assert out.count("memref.load") == 1 and out.count("affine.load %arg1[100]") == 1


def test_loads_in_one_block_are_left_to_the_pass():
    same_block = NESTED.replace("scf.if %c {", "").replace("  }\n  return", "  return")
    demoted, out = _run(same_block)
    assert demoted == 0 and "memref.load" not in out
    assert out.count("affine.load %arg1[100]") == 1  # affine-scalrep merged the three reads
