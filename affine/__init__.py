"""Polyhedral scheduling of affine SCoPs with isl: the stage is transform.py (SCoPs from scop.py, the isl model
in isl_model.py, dependences.py, scheduler.py, legality.py, profitability.py, code generation in codegen.py with
register promotion of reduction elements in scalar_promotion.py), the experiments API in experiments.py."""
