"""Automatic differentiation on structured MLIR (issue: AD). Nothing here yet."""
