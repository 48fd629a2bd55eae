"""Polyhedral scheduling of affine SCoPs with isl (issue: polyhedral scheduling). Nothing here yet."""
