"""Enzyme's source API in C and CUDA: ``__enzyme_autodiff(fn, args...)``, ``__enzyme_fwddiff(fn, args...)`` and the
split mode's ``__enzyme_augmentfwd`` / ``__enzyme_reverse``.

Every function whose name begins with ``__enzyme_autodiff`` (reverse mode) or ``__enzyme_fwddiff`` (forward mode)
is such a call, whatever prototype the program declared for it. The markers ``enzyme_dup``, ``enzyme_dupnoneed``,
``enzyme_const`` and ``enzyme_out`` are ``extern int`` globals placed before an argument; they are consumed here
and never read. Without a marker a pointer is followed by its shadow, an integer is constant and a floating
scalar is active (forward mode: followed by its tangent).

The call becomes ``func.call @__pgcc_enzyme_<k>(operands)`` to a private declaration with the exact operand and
result types, carrying the attributes the AD stage (polygeist_py.ad.api_calls) reads:

    pgcc.enzyme_fn        @f                       the function to differentiate
    pgcc.enzyme_mode      "forward" | "reverse"
    pgcc.enzyme_activity  ["dup", "const", ...]    one entry per parameter of f

Operands per parameter: const -> primal; dup/dupnoneed -> primal, shadow; active -> primal (reverse mode) or
primal, tangent (forward mode). Result: forward mode the tangent of f's result; reverse mode the gradient of
the one active scalar (none: no result). Semantics follow Enzyme's documentation (Moses & Churavy, NeurIPS'20).

Split mode (``pgcc.enzyme_mode`` "augment" / "split_reverse", ad/split_mode.py): ``__enzyme_augmentfwd(fn,
args...)`` takes reverse mode's operands and returns the tape (a pointer; with a struct of a pointer and a float
as its result, also f's result); ``__enzyme_reverse(fn, args..., [adjoint of f's floating result], tape)`` takes
them followed by the seed and the tape and returns what ``__enzyme_autodiff`` returns.

Vector forward mode (``__enzyme_fwddiff(f, enzyme_width, W, ...)``, _emit_vector): one placeholder call with W
tangents or shadows after each active operand and ``pgcc.enzyme_width`` W (ad/vector_forward.py).

Shadows of globals (emit_shadow_query): ``__enzyme_context(1)``, ``__enzyme_shadow(ctx, &g, 0)`` /
``__enzyme_shadow(&g, 1, 0)`` and ``__enzyme_zero_shadows(ctx)`` give the program the shadow of a global, which
every derivative then uses for g (``pgcc.enzyme_rules`` "shadow_global", ad/shadow_globals.py); an
``enzyme_context, ctx`` pair in a derivative call is consumed.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, func

from ..clang_ast import K, T, canonical, children, strip_implicit, unary_op
from ..errors import error_at
from . import c_types as CT

PREFIXES = {"__enzyme_autodiff": "reverse", "__enzyme_fwddiff": "forward", "__enzyme_augmentfwd": "augment",
            "__enzyme_reverse": "split_reverse"}
MARKERS = {"enzyme_dup": "dup", "enzyme_dupnoneed": "dupnoneed", "enzyme_const": "const", "enzyme_out": "active"}
FN_ATTR, MODE_ATTR, ACT_ATTR = "pgcc.enzyme_fn", "pgcc.enzyme_mode", "pgcc.enzyme_activity"
SITE_ATTR = "pgcc.enzyme_site"  # (the caller's name, then the source text of each pointer operand)
WIDTH_ATTR = "pgcc.enzyme_width"  # (Enzyme's vector forward mode: the number of directions, ad/vector_forward.py)
RULES_ATTR = "pgcc.enzyme_rules"  # on the module: {f = ["gradient", @f, @aug, @rev] | ["derivative", @f, @fwd] | ...}
REGISTRATIONS = {"__enzyme_register_gradient": ("gradient", 3), "__enzyme_register_derivative": ("derivative", 2),
                 "__enzyme_inactivefn": ("inactive", 1), "__enzyme_inactivenoblockfn": ("inactive", 1),
                 "__enzyme_function_like": ("function_like", 2), "__enzyme_inactive_global": ("inactive_global", 1),
                 "__enzyme_allocation_like": ("allocation_like", 4)}
# registrations that change derivatives but are not implemented: an error instead of an ignored global
UNSUPPORTED_REGISTRATIONS = {}
# Enzyme's source attributes that pgcc implements (clang does not know them: it warns "unknown attribute" and
# drops them, so they are read off the declaration's tokens, see scan_attributes); any other enzyme_* attribute
# is an error rather than being ignored
ATTRIBUTES = {"enzyme_inactive", "enzyme_function_like", "enzyme_shadow"}
# (enzyme_inactive_noblock: inactive; "noblock" only lets Enzyme's optimizations move code across the call)
ATTRIBUTE_ALIASES = {"enzyme_inactive_noblock": "enzyme_inactive"}
PLACEHOLDER = "__pgcc_enzyme_"
# Enzyme API that pgcc does not implement: a clear error names it (instead of a wrong argument count or a link
# failure on an undefined __enzyme_* symbol)
UNSUPPORTED_MARKERS = {
    "enzyme_width": "Enzyme's vector mode (enzyme_width) other than right after the function in __enzyme_fwddiff",
    "enzyme_dupv": "enzyme_dupv outside Enzyme's vector forward mode (__enzyme_fwddiff(f, enzyme_width, W, ...))",
    "enzyme_dupnoneedv": "enzyme_dupnoneedv outside Enzyme's vector forward mode (__enzyme_fwddiff(f, "
                         "enzyme_width, W, ...))",
    "enzyme_allocated": "enzyme_allocated outside __enzyme_augmentfwd / __enzyme_reverse",
    "enzyme_tape": "enzyme_tape outside __enzyme_augmentfwd / __enzyme_reverse",
    "enzyme_nofree": "enzyme_nofree", "enzyme_primal_return": "enzyme_primal_return",
    "enzyme_noret": "enzyme_noret",
    "enzyme_context": "enzyme_context outside __enzyme_autodiff / __enzyme_fwddiff",
}
UNSUPPORTED_FUNCTIONS = {
    "__enzyme_augmentsize": "Enzyme's split mode with a caller-allocated tape (__enzyme_augmentsize)",
    "__enzyme_virtualreverse": "Enzyme's split mode (__enzyme_virtualreverse)",
    "__enzyme_batch": "Enzyme's batch mode (__enzyme_batch)",
    "__enzyme_todense": "__enzyme_todense", "__enzyme_truncate": "Enzyme's truncation (__enzyme_truncate)",
    "__enzyme_fixed_point": "Enzyme's fixed-point iteration (__enzyme_fixed_point)",
}
# Enzyme's queries of the shadows it gives globals (ad/shadow_globals.py: the module docstring's last part)
SHADOW_QUERIES = ("__enzyme_context", "__enzyme_shadow", "__enzyme_zero_shadows")


def shadow_query(name: str):
    """Which of SHADOW_QUERIES a function named `name` is (by prefix: C programs declare a second prototype under
    another name, as for __enzyme_fwddiff), or None."""
    if name.startswith("__enzyme_zero_shadows"):
        return "__enzyme_zero_shadows"
    return next((q for q in SHADOW_QUERIES[:2] if name.startswith(q)), None)
SHADOW_SUFFIX = ".enzyme_shadow"


# Enzyme's type hints on memory (`__enzyme_double(&x)`: x holds a double): pgcc's memory is typed by the
# program's own types, so a hint changes nothing; its arguments are evaluated for their effects only
TYPE_HINTS = {"__enzyme_double", "__enzyme_float", "__enzyme_integer", "__enzyme_pointer"}


def unsupported_function(name: str):
    """What an Enzyme API function pgcc does not implement is (for the error message), or None."""
    return next((what for prefix, what in UNSUPPORTED_FUNCTIONS.items() if name.startswith(prefix)), None)


def mode_of(name: str):
    """'forward' / 'reverse' / 'augment' / 'split_reverse' for a name beginning with __enzyme_fwddiff /
    __enzyme_autodiff / __enzyme_augmentfwd / __enzyme_reverse, else None."""
    for prefix, mode in PREFIXES.items():
        if name.startswith(prefix):
            return mode
    return None


def marker_of(arg):
    """The activity a marker argument (``enzyme_dup``...) stands for, or None for an ordinary argument; also
    for its address (``&enzyme_const``: C++ callers passing markers through a variadic template, as Enzyme
    accepts)."""
    a = strip_implicit(arg)
    if a.kind == K.UNARY_OPERATOR and unary_op(a) == "&" and a.get_children():
        inner = strip_implicit(next(iter(a.get_children())))
        if inner.kind == K.DECL_REF_EXPR and inner.referenced is not None and inner.referenced.spelling in MARKERS:
            a = inner
    if a.kind == K.DECL_REF_EXPR and a.referenced is not None and a.referenced.kind == K.VAR_DECL:
        if a.referenced.spelling in UNSUPPORTED_MARKERS:
            raise error_at(arg, f"unsupported construct: {UNSUPPORTED_MARKERS[a.referenced.spelling]}")
        return MARKERS.get(a.referenced.spelling)
    return None


def _named(cursor, target, through=None):
    """The first cursor of kind `target` reached from `cursor` by following last children (only through the
    kinds in `through`, when given: casts, parentheses, `&`), or None."""
    c = cursor
    while c is not None:
        if c.kind == target:
            return c
        if through is not None and c.kind not in through:
            return None
        ch = children(c)
        c = ch[-1] if ch else None
    return None


def _referenced(cursor, kind, through=None):
    """The declaration of kind `kind` that `cursor` names through wrappers (see _named), or None."""
    ref = _named(cursor, K.DECL_REF_EXPR, through)
    r = ref.referenced if ref is not None else None
    return r if r is not None and r.kind == kind else None


CASTS = (K.UNEXPOSED_EXPR, K.PAREN_EXPR, K.CSTYLE_CAST_EXPR, K.UNARY_OPERATOR, K.CXX_STATIC_CAST_EXPR,
         K.CXX_REINTERPRET_CAST_EXPR)


def function_of(arg):
    """The FUNCTION_DECL the first argument names (``f``, ``(void*)f``, ``&f``), or None."""
    return _referenced(arg, K.FUNCTION_DECL, CASTS)


def emit(fg, call, args, struct_ptr=None):
    """Lower one ``__enzyme_autodiff*`` / ``__enzyme_fwddiff*`` call (see the module docstring). With
    `struct_ptr` (the bytes of a local struct the call initializes) reverse mode may return several gradients:
    they are stored into the struct's fields in order.

    Raises:
        CompileError: no function named by the first argument, arguments that do not match its parameters,
            markers that make no sense for a parameter (``enzyme_out`` on a pointer, an active integer),
            several gradients returned as a struct.
    """
    mg = fg.mg
    scan_attributes(mg)
    name = call.referenced.spelling
    split = mode_of(name)  # ("augment" / "split_reverse": Enzyme's split mode, reverse mode's arguments)
    mode = "reverse" if split in ("augment", "split_reverse") else split
    if not args:
        raise error_at(call, f"{name} needs the function to differentiate as its first argument")
    fn = function_of(args[0])
    if fn is None:
        raise error_at(args[0], f"the first argument of {name} must name a function")
    fn = fn.get_definition() or fn
    args = _without_context(fg, args, name)
    if split == "forward" and len(args) > 2 and _spelling(args[1]) == "enzyme_width":
        return _emit_vector(fg, call, name, fn, args, struct_ptr)
    if len(args) > 1 and _spelling(args[1]) == "enzyme_width":  # (Enzyme's vector reverse mode)
        raise error_at(args[1], f"unsupported construct: Enzyme's vector reverse mode (enzyme_width in {name}): "
                                "pgcc's vector mode is forward mode (__enzyme_fwddiff); call the gradient once per "
                                "direction")
    args, tape_arg = _caller_tape(args, split, name) if split in ("augment", "split_reverse") else (args, None)
    params = [canonical(t) for t in fn.type.argument_types()] if fn.type.kind == T.FUNCTIONPROTO else []
    operands, acts, active_types = [], [], []
    texts = []  # (the source text of each pointer operand, "" for the others: run-time messages name them)
    i, p = 1, 0
    fret = canonical(fn.result_type)
    # __enzyme_reverse(f, args..., [adjoint of f's floating result], tape)
    tail = ((0 if tape_arg is not None else 1) + (1 if CT.is_float(fret) else 0)) if split == "split_reverse" else 0
    while i < len(args) - tail:
        kind = marker_of(args[i])
        if kind is not None:
            i += 1
            if i >= len(args):
                raise error_at(args[i - 1], f"activity marker at the end of the arguments of {name}")
        a = args[i]
        if p >= len(params):
            raise error_at(a, f"too many arguments to {name}: '{fn.spelling}' has {len(params)} parameters")
        pt = params[p]
        if pt.kind in (T.POINTER, T.LVALUEREFERENCE, T.RVALUEREFERENCE) or CT.is_array(pt):
            # (a C++ reference parameter is an address: the caller passes `&x`, and `&dx` after it, as for Enzyme)
            kind = kind or "dup"
            if kind == "active":
                raise error_at(a, f"enzyme_out on pointer parameter {p + 1} of '{fn.spelling}': "
                                  "use enzyme_dup (pointer and shadow) or enzyme_const")
            operands.append(fg.raw_pointer(a))
            texts.append(_source_text(a))
            if kind in ("dup", "dupnoneed"):
                i += 1
                if i >= len(args):
                    raise error_at(a, f"missing shadow after pointer argument {p + 1} of '{fn.spelling}'")
                operands.append(fg.raw_pointer(args[i]))
                texts.append(_source_text(args[i]))
        elif CT.is_int(pt):
            kind = kind or "const"
            if kind != "const":
                raise error_at(a, f"integer parameter {p + 1} of '{fn.spelling}' cannot be active "
                                  "(integers are constant)")
            operands.append(fg.convert(fg.rvalue(a), a.type, pt, a))
        elif CT.is_float(pt):
            kind = kind or "active"
            if kind == "dupnoneed":
                kind = "dup"
            if mode == "reverse" and kind == "dup":
                raise error_at(a, f"enzyme_dup on scalar parameter {p + 1} of '{fn.spelling}' in reverse mode: "
                                  "a scalar is active (enzyme_out) or constant (enzyme_const)")
            if mode == "forward" and kind in ("active", "dup"):
                kind = "dup"  # forward mode: the scalar is followed by its tangent
            operands.append(fg.convert(fg.rvalue(a), a.type, pt, a))
            if kind == "dup":
                i += 1
                if i >= len(args):
                    raise error_at(a, f"missing tangent after scalar argument {p + 1} of '{fn.spelling}'")
                operands.append(fg.convert(fg.rvalue(args[i]), args[i].type, pt, args[i]))
            elif kind == "active":
                active_types.append(pt)
        else:
            raise error_at(a, f"unsupported construct: differentiating '{fn.spelling}' with a parameter of type "
                              f"'{pt.spelling}'")
        acts.append(kind)
        i += 1
        p += 1
    if split == "split_reverse":
        if len(args) - i != tail or p != len(params):
            raise error_at(call, f"{name} takes the arguments of '{fn.spelling}', "
                                 f"{'the adjoint of its result, ' if CT.is_float(fret) else ''}then the tape")
        if CT.is_float(fret):
            operands.append(fg.convert(fg.rvalue(args[i]), args[i].type, fret, args[i]))
        if tape_arg is not None:  # (the tape pointer the augmented forward pass left in the caller's buffer)
            from mlir.dialects import llvm
            operands.append(llvm.LoadOp(ir.Type.parse("!llvm.ptr"), fg.raw_pointer(tape_arg)).result)
        else:
            operands.append(fg.raw_pointer(args[-1]))
    if p != len(params):
        raise error_at(call, f"too few arguments to {name}: '{fn.spelling}' has {len(params)} parameters")

    call_ty = canonical(call.type)
    if split == "augment":
        return _emit_augment(fg, call, name, fn, operands, acts, fret, call_ty, struct_ptr, tape_arg)
    if mode == "forward":
        res_c = None if fret.kind == T.VOID else fret
        if res_c is not None and not CT.is_float(res_c):
            res_c = None  # the tangent of an integer result is zero: nothing to return
    else:
        if len(active_types) > 1 and struct_ptr is None:
            raise error_at(call, f"unsupported construct: {name} returning the gradients of "
                                 f"{len(active_types)} active scalars other than into a struct variable "
                                 "(`struct grads g = __enzyme_autodiff(...)`)")
        res_c = active_types[0] if active_types else None
    target = mg.declare(fn)
    results = [] if res_c is None else [CT.scalar_type(res_c)]
    if struct_ptr is not None:
        slots = value_slots(call_ty)
        if mode != "reverse" or len(slots) != len(active_types) or not all(CT.is_float(t) for _, t in slots):
            raise error_at(call, f"{name} initializes a '{call.type.spelling}': expected a struct of "
                                 f"{len(active_types)} floating-point fields or array elements (one per active "
                                 "argument)")
        results = [CT.scalar_type(t) for t in active_types]
    op = _placeholder_call(mg, results, operands, target, split, acts)
    if mode == "reverse" and not split.startswith(("augment", "split")):
        op.attributes[SITE_ATTR] = ir.ArrayAttr.get(
            [ir.StringAttr.get(f"in '{fg.cursor.spelling}', {name} of '{fn.spelling}'")] +
            [ir.StringAttr.get(t) for t in _pointer_texts(operands, texts)])
    if struct_ptr is not None:
        i64 = ir.IntegerType.get_signless(64)
        from mlir.dialects import llvm
        for (offset, slot_type), r, t in zip(slots, op.results, active_types):
            at = fg.byte_offset(struct_ptr, arith.constant(i64, offset))
            llvm.StoreOp(fg.convert(r, t, slot_type, call), at)
        return None
    if call_ty.kind == T.VOID:
        return None
    if not results:
        if not CT.is_arith(call_ty):
            raise error_at(call, f"unsupported construct: {name} declared to return '{call.type.spelling}'")
        return fg.const_int(call_ty, 0) if CT.is_int(call_ty) else arith.constant(CT.scalar_type(call_ty), 0.0)
    if not CT.is_arith(call_ty):
        raise error_at(call, f"unsupported construct: {name} declared to return '{call.type.spelling}'")
    return fg.convert(op.results[0], res_c, call_ty, call)


def _source_text(arg) -> str:
    """The source text of call argument `arg` (its tokens), shortened for a run-time message."""
    text = "".join(t.spelling for t in arg.get_tokens())
    return text if len(text) <= 40 else text[:37] + "..."


def _pointer_texts(operands, texts) -> list:
    """Per operand of an Enzyme placeholder call, the source text of the pointer arguments (in order), "" for the
    other operands."""
    it = iter(texts)
    return [next(it, "?") if str(v.type).startswith("!llvm.ptr") else "" for v in operands]


def _spelling(arg):
    """The name of the variable argument `arg` is (an Enzyme marker such as ``enzyme_width``), or None."""
    a = strip_implicit(arg)
    return a.referenced.spelling if a.kind == K.DECL_REF_EXPR and a.referenced is not None else None


def value_slots(call_ty) -> list:
    """[(byte offset, C type)] of the values a struct of gradients or tangents `call_ty` holds, in order: its
    fields, an array of floating-point elements counting as one slot per element (``struct { double df[3]; }``)."""
    slots = []
    for f in (list(call_ty.get_fields()) if call_ty.kind == T.RECORD else []):
        ft, off = canonical(f.type), call_ty.get_offset(f.spelling) // 8
        if ft.kind == T.CONSTANTARRAY and CT.is_float(canonical(ft.element_type)):
            et = canonical(ft.element_type)
            slots += [(off + j * et.get_size(), et) for j in range(ft.element_count)]
        else:
            slots.append((off, ft))
    return slots


VECTOR_MARKERS = {"enzyme_const": "const", "enzyme_dup": "dup", "enzyme_dupnoneed": "dup", "enzyme_dupv": "dupv",
                  "enzyme_dupnoneedv": "dupv"}


def _emit_vector(fg, call, name, fn, args, struct_ptr):
    """Enzyme's vector forward mode, ``__enzyme_fwddiff(f, enzyme_width, W, args...)``: one derivative carrying W
    directions (ad/vector_forward.py). Per parameter of f, as Enzyme reads them:
    - a floating-point scalar: its value and W tangents (``enzyme_const``: the value alone);
    - a pointer: the primal and W shadows (``enzyme_dup`` / ``enzyme_dupnoneed`` or no marker), or
      ``enzyme_dupv, stride, ptr, dptrs`` (``enzyme_dupnoneedv``): the W shadows interleaved `stride` bytes apart
      from `dptrs`; ``enzyme_const``: the primal alone;
    - an integer: its value (constant).
    The W tangents of a floating-point result fill the W floating-point fields of the struct the call
    initializes (or the W elements of its one array field); a function without a floating-point result returns
    nothing.

    Raises:
        CompileError: W not a constant >= 1, missing tangents or shadows, a marker that makes no sense for a
            parameter, a result other than such a struct."""
    from .array_init import constant_value
    from mlir.dialects import llvm
    width = constant_value(args[2])
    if not isinstance(width, int) or width < 1:
        raise error_at(args[2], "enzyme_width takes the number of directions (a constant integer >= 1)")
    params = [canonical(t) for t in fn.type.argument_types()] if fn.type.kind == T.FUNCTIONPROTO else []
    fret = canonical(fn.result_type)
    call_ty = canonical(call.type)
    slots = value_slots(call_ty) if CT.is_float(fret) else []  # (byte offset, C type) of each direction's tangent
    if CT.is_float(fret) and (struct_ptr is None or len(slots) != width or not all(CT.is_float(t) for _, t in slots)):
        raise error_at(call, f"unsupported construct: {name} with enzyme_width {width} of a function of "
                             f"floating-point result other than into a struct of {width} floating-point values")
    i64 = ir.IntegerType.get_signless(64)
    i, operands, acts = 3, [], []

    def take(what):
        nonlocal i
        if i >= len(args):
            raise error_at(call, f"{name}: missing {what} of parameter {p + 1} of '{fn.spelling}' "
                                 f"(enzyme_width {width})")
        i += 1
        return args[i - 1]

    for p, pt in enumerate(params):
        marker = _spelling(args[i]) if i < len(args) else None
        kind = VECTOR_MARKERS.get(marker)
        if kind is None and marker is not None and marker.startswith("enzyme_") and marker in UNSUPPORTED_MARKERS:
            raise error_at(args[i], f"unsupported construct: {UNSUPPORTED_MARKERS[marker]}")
        if kind is not None:
            i += 1
        if pt.kind in (T.POINTER, T.LVALUEREFERENCE, T.RVALUEREFERENCE) or CT.is_array(pt):
            kind = kind or "dup"
            stride = None
            if kind == "dupv":
                a = take("the byte stride (enzyme_dupv)")
                stride = fg.rvalue(a)
                if not isinstance(stride.type, ir.IntegerType):
                    raise error_at(a, "enzyme_dupv takes the byte stride between the shadows (an integer)")
                if stride.type.width < 64:
                    stride = (arith.extui if CT.is_unsigned(canonical(a.type)) else arith.extsi)(i64, stride)
            operands.append(fg.raw_pointer(take("the pointer")))
            if kind == "const":
                acts.append("const")
                continue
            if kind == "dupv":
                base = fg.raw_pointer(take("the shadows (enzyme_dupv)"))
                operands += [base] + [fg.byte_offset(base, arith.muli(stride, arith.constant(i64, k)))
                                      for k in range(1, width)]
            else:
                operands += [fg.raw_pointer(take(f"shadow {k + 1} of {width}")) for k in range(width)]
            acts.append("dup")
        elif CT.is_int(pt):
            if kind not in (None, "const"):
                raise error_at(args[i - 1], f"integer parameter {p + 1} of '{fn.spelling}' cannot be active "
                                            "(integers are constant)")
            a = take("the value")
            operands.append(fg.convert(fg.rvalue(a), a.type, pt, a))
            acts.append("const")
        elif CT.is_float(pt):
            if kind == "dupv":
                raise error_at(args[i - 1], f"unsupported construct: enzyme_dupv on scalar parameter {p + 1} of "
                                            f"'{fn.spelling}' (pass its {width} tangents)")
            a = take("the value")
            operands.append(fg.convert(fg.rvalue(a), a.type, pt, a))
            if kind == "const":
                acts.append("const")
                continue
            for k in range(width):
                a = take(f"tangent {k + 1} of {width}")
                operands.append(fg.convert(fg.rvalue(a), a.type, pt, a))
            acts.append("dup")
        else:
            raise error_at(call, f"unsupported construct: differentiating '{fn.spelling}' with a parameter of type "
                                 f"'{pt.spelling}'")
    if i != len(args):
        raise error_at(args[i], f"too many arguments to {name}: '{fn.spelling}' has {len(params)} parameters "
                                f"(enzyme_width {width})")
    mg = fg.mg
    results = [CT.scalar_type(fret)] * width if CT.is_float(fret) else []
    op = _placeholder_call(mg, results, operands, mg.declare(fn), "forward", acts)
    op.attributes[WIDTH_ATTR] = ir.IntegerAttr.get(ir.IntegerType.get_signless(32), width)
    for (offset, slot_type), r in zip(slots, op.results):
        at = fg.byte_offset(struct_ptr, arith.constant(i64, offset))
        llvm.StoreOp(fg.convert(r, fret, slot_type, call), at)
    if not results and struct_ptr is not None:
        raise error_at(call, f"{name} with enzyme_width {width} of '{fn.spelling}', which has no floating-point "
                             f"result, initializes a '{call.type.spelling}' (the tangents are in the shadows)")
    if not results and call_ty.kind != T.VOID:
        if not CT.is_arith(call_ty):
            raise error_at(call, f"unsupported construct: {name} declared to return '{call.type.spelling}'")
        return fg.const_int(call_ty, 0) if CT.is_int(call_ty) else arith.constant(CT.scalar_type(call_ty), 0.0)
    return None


TAPE_BYTES = 8  # (pgcc's tape: a pointer to the heap block of the augmented forward pass, ad/split_mode.py)


def _caller_tape(args, split, name):
    """Enzyme's caller-allocated tape: ``enzyme_allocated, N`` (the bytes the caller provides) and ``enzyme_tape,
    p`` (where they are) among the arguments of a split-mode call. Returns (the other arguments, p or None).
    pgcc's tape is a pointer kept in the first TAPE_BYTES bytes of the caller's buffer.

    Raises:
        CompileError: N not a constant, N smaller than the tape, a marker without its value, enzyme_allocated
            without enzyme_tape."""
    from .array_init import constant_value
    rest, tape, size, i = [], None, None, 0
    while i < len(args):
        a = strip_implicit(args[i])
        spelling = a.referenced.spelling if a.kind == K.DECL_REF_EXPR and a.referenced is not None else None
        if spelling in ("enzyme_allocated", "enzyme_tape"):
            if i + 1 >= len(args):
                raise error_at(args[i], f"{spelling} at the end of the arguments of {name}")
            if spelling == "enzyme_tape":
                tape = args[i + 1]
            else:
                size = constant_value(args[i + 1])
                if not isinstance(size, int):
                    raise error_at(args[i + 1], "enzyme_allocated takes the tape's size in bytes (an integer)")
                if size < TAPE_BYTES:
                    raise error_at(args[i + 1], f"{name}: the tape needs {TAPE_BYTES} bytes, enzyme_allocated gives "
                                                f"{size}")
            i += 2
            continue
        rest.append(args[i])
        i += 1
    if size is not None and tape is None:
        raise error_at(args[0], f"{name}: enzyme_allocated without enzyme_tape (where the tape goes)")
    return rest, tape


def _emit_augment(fg, call, name, fn, operands, acts, fret, call_ty, struct_ptr, tape_arg=None):
    """The placeholder call of ``__enzyme_augmentfwd``: its results are the tape (a pointer) and, when the call
    initializes a struct of a pointer and a floating-point field (Enzyme's {tape, primal}), f's result.

    Raises:
        CompileError: another result type."""
    from mlir.dialects import llvm
    mg = fg.mg
    ptr = ir.Type.parse("!llvm.ptr")
    results, fields = [ptr], []
    if struct_ptr is not None:
        fields = list(call_ty.get_fields()) if call_ty.kind == T.RECORD else []
        kinds = sorted("p" if f.type.get_canonical().kind == T.POINTER else "f" if CT.is_float(f.type) else "?"
                       for f in fields)
        if kinds != ["f", "p"] or not CT.is_float(fret):
            raise error_at(call, f"{name} initializes a '{call.type.spelling}': expected a struct of the tape "
                                 "(a pointer) and the function's floating-point result")
        results.append(CT.scalar_type(fret))
    elif call_ty.kind not in (T.POINTER, T.VOID):
        raise error_at(call, f"unsupported construct: {name} declared to return '{call.type.spelling}' (the tape "
                             "is a pointer)")
    op = _placeholder_call(mg, results, operands, mg.declare(fn), "augment", acts)
    if struct_ptr is not None:
        i64 = ir.IntegerType.get_signless(64)
        for f in fields:
            at = fg.byte_offset(struct_ptr, arith.constant(i64, call_ty.get_offset(f.spelling) // 8))
            if f.type.get_canonical().kind == T.POINTER:
                llvm.StoreOp(op.results[0], at)
            else:
                llvm.StoreOp(fg.convert(op.results[1], fret, f.type, call), at)
        return None
    if tape_arg is not None:  # (a caller-allocated tape: the pointer goes into the caller's buffer)
        llvm.StoreOp(op.results[0], fg.raw_pointer(tape_arg))
    return None if call_ty.kind == T.VOID else op.results[0]


def registration_kind(name: str):
    """('gradient' | 'derivative' | 'inactive', number of functions) for a registration global's name."""
    for prefix, kind in REGISTRATIONS.items():
        if name.startswith(prefix):
            return kind
    return None


def register(mg, d):
    """Record a custom-rule global: ``void *__enzyme_register_gradient_f[3] = {f, f_aug, f_rev}``,
    ``void *__enzyme_register_derivative_f[2] = {f, f_fwd}``, ``void *__enzyme_inactivefn_g = g`` (also
    ``__enzyme_inactivenoblockfn``), ``void *__enzyme_function_like[2] = {f, "log1p"}`` or
    ``void *__enzyme_inactive_global_x = &x`` (one-element braces also accepted). The rule goes into the module
    attribute ``pgcc.enzyme_rules`` that the AD stage reads; the global itself is not emitted.

    Raises:
        CompileError: an initializer that does not name the expected functions (or global); a registration pgcc
            does not implement (__enzyme_allocation_like).
    """
    from ..clang_ast import var_decl_initializer
    scan_attributes(mg)
    kind, count = registration_kind(d.spelling)
    if kind in UNSUPPORTED_REGISTRATIONS:
        raise error_at(d, f"unsupported construct: {UNSUPPORTED_REGISTRATIONS[kind]}")
    d = d.get_definition() or d
    init = var_decl_initializer(d)
    if init is None:
        return  # an extern declaration: the definition registers
    items = children(init) if init.kind == K.INIT_LIST_EXPR else [init]
    if kind == "inactive_global":  # void *__enzyme_inactive_global_x = (void *)&x
        var = _variable_of(items[0]) if len(items) == 1 else None
        if var is None:
            raise error_at(d, f"{d.spelling} must be initialized with the address of a global variable")
        _add_rule(mg, "inactive_global", var.spelling)
        return
    if kind == "function_like":  # void *__enzyme_function_like[2] = {(void *)f, "log1p"}
        fn = function_of(items[0]) if len(items) == 2 else None
        like = _string_of(items[1]) if len(items) == 2 else None
        if fn is None or like is None:
            raise error_at(d, f"{d.spelling} must be initialized with a function and the name of a math function "
                              "(`{(void *)f, \"log1p\"}`)")
        _add_rule(mg, "function_like", mg.declare(fn.get_definition() or fn), like)
        return
    if kind == "allocation_like":
        _allocation_like(mg, d, items)
        return
    fns = [function_of(c) for c in items]
    if len(fns) != count or any(f is None for f in fns):
        raise error_at(d, f"{d.spelling} must be initialized with {count} function"
                          f"{'s' if count > 1 else ''} ({'f, augmented forward, reverse' if kind == 'gradient' else 'f, forward derivative' if kind == 'derivative' else 'f'})")
    names = [mg.declare(f.get_definition() or f) for f in fns]
    _add_rule(mg, kind, *names)


def _allocation_like(mg, d, items):
    """``void *__enzyme_allocation_like[4] = {(void *)my_alloc, (void *)k, (void *)"-1,...", (void *)my_free}``:
    my_alloc allocates argument k bytes and my_free releases them, called with the allocator's arguments at
    the listed indices (-1: the pointer), in that order (Enzyme's layout). Recorded in the module's rules: AD
    keeps their calls, allocates a shadow with my_alloc (zeroed over argument k bytes) and releases it with
    my_free.

    Raises:
        CompileError: an initializer of another form, an argument index outside the allocator's parameters."""
    from ..clang_ast import evaluate
    ok = len(items) == 4
    alloc = function_of(items[0]) if ok else None
    release = function_of(items[3]) if ok else None
    lit = _named(items[1], K.INTEGER_LITERAL, CASTS) if ok else None
    index = evaluate(lit) if lit is not None else None
    text = _string_of(items[2]) if ok else None
    if alloc is None or release is None or not isinstance(index, int) or text is None:
        raise error_at(d, "unsupported construct: custom allocators (__enzyme_allocation_like) must be initialized "
                          "with {(void *)allocator, (void *)size argument index, (void *)\"-1\" (deallocation "
                          "arguments), (void *)deallocator}")
    nparams = len(list(alloc.get_arguments()))
    try:
        frees = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        frees = None
    if not 0 <= index < nparams or frees is None or any(i != -1 and not 0 <= i < nparams for i in frees):
        raise error_at(d, f"unsupported construct: __enzyme_allocation_like names argument {index} (or "
                          f"\"{text}\") of '{alloc.spelling}', which has {nparams} parameters")
    names = [mg.declare(fn.get_definition() or fn) for fn in (alloc, release)]
    rules = getattr(mg, "enzyme_rules", {})
    rules[f"allocation_like:{names[0]}"] = ir.ArrayAttr.get([
        ir.StringAttr.get("allocation_like"), ir.FlatSymbolRefAttr.get(names[0]), ir.FlatSymbolRefAttr.get(names[1]),
        ir.StringAttr.get(str(index)), ir.StringAttr.get(",".join(str(i) for i in frees))])
    mg.enzyme_rules = rules
    mg.module.operation.attributes[RULES_ATTR] = ir.DictAttr.get(rules)


def _add_rule(mg, kind, name, *more):
    """Record rule `kind` for function (or global) `name` in the module attribute ``pgcc.enzyme_rules``: symbol
    references for `more` function names, a string for function_like's math function."""
    rules = getattr(mg, "enzyme_rules", {})
    if kind == "function_like":
        extra = [ir.StringAttr.get(m) for m in more]
    else:
        extra = [ir.FlatSymbolRefAttr.get(m) for m in more]
    if kind == "shadow_global":  # (global names: StringAttr, as inactive_global's)
        extra = [ir.StringAttr.get(m) for m in more]
    first = ir.StringAttr.get(name) if kind in ("inactive_global", "shadow_global") else ir.FlatSymbolRefAttr.get(name)
    rules[f"{kind}:{name}"] = ir.ArrayAttr.get([ir.StringAttr.get(kind), first] + extra)
    mg.enzyme_rules = rules
    mg.module.operation.attributes[RULES_ATTR] = ir.DictAttr.get(rules)


def _variable_of(cursor):
    """The global VAR_DECL an initializer names (``&x``, ``(void *)&x``, ``x`` for an array), or None."""
    return _referenced(cursor, K.VAR_DECL)


def _string_of(cursor):
    """The text of a string literal argument (through casts), or None."""
    lit = _named(cursor, K.STRING_LITERAL)
    text = lit.spelling if lit is not None else ""
    return text[1:-1] if text.startswith('"') and text.endswith('"') else None


def scan_attributes(mg):
    """Read Enzyme's attributes off the declarations of the translation unit (once per module):
    ``__attribute__((enzyme_inactive))`` on a function (its calls have no derivative) or a global variable (it has
    no shadow; active values stored into it are dropped), ``__attribute__((enzyme_function_like("log1p")))`` on a
    function (its calls are differentiated with the rule of that math function). clang drops attributes it does
    not know, so they are found in the tokens of each declaration up to its body or initializer (never in the
    lines the preprocessor skipped, which have no declaration); clang's "unknown attribute" warnings catch the
    ones a macro hides.

    Raises:
        CompileError: an enzyme_* attribute pgcc does not implement, one on a declaration it does not apply to,
            enzyme_function_like without a string argument, one written through a macro.
    """
    if getattr(mg, "enzyme_attributes_scanned", False):
        return
    mg.enzyme_attributes_scanned = True
    import re
    tu = mg.tu
    seen = set()
    decls = []
    work = list(tu.cursor.get_children())
    while work:
        d = work.pop()
        if d.location.file is None or d.location.is_in_system_header:
            continue
        if d.kind in (K.LINKAGE_SPEC, K.NAMESPACE, K.STRUCT_DECL, K.CLASS_DECL):  # (C++: static members too)
            work.extend(d.get_children())
            continue
        if d.kind == K.CLASS_TEMPLATE:  # its members' attributes reach each specialization's: template_rules
            for m in d.get_children():
                if m.kind in (K.CXX_METHOD, K.VAR_DECL, K.FUNCTION_TEMPLATE):
                    _template_member_rules(mg, m, seen)
            continue
        if d.kind in (K.CXX_METHOD, K.VAR_DECL, K.FUNCTION_TEMPLATE) and d.semantic_parent is not None and \
                d.semantic_parent.kind == K.CLASS_TEMPLATE:  # (a member defined outside its class template)
            _template_member_rules(mg, d, seen)
            continue
        if d.kind == K.FUNCTION_TEMPLATE and d.semantic_parent.kind not in (K.CLASS_TEMPLATE, K.STRUCT_DECL,
                                                                             K.CLASS_DECL):
            # (its specializations get the rules when they are declared: template_rules)
            for attr, arg, tok in _enzyme_attributes(d):
                seen.add((tok.location.line, tok.location.column))
                if attr not in ATTRIBUTES or attr == "enzyme_shadow" or (attr == "enzyme_function_like" and
                                                                          arg is None):
                    raise _error_at_location(tok.extent.start, f"unsupported construct: attribute '{attr}' on a "
                                                               "function template")
                mg.__dict__.setdefault("enzyme_template_rules", {}).setdefault(d.hash, []).append((attr, arg))
            continue
        if d.kind == K.UNEXPOSED_DECL and next(iter(d.get_tokens()), None) is not None and \
                next(iter(d.get_tokens())).spelling == "template":  # a variable template: variable_template_rules
            for attr, arg, tok in _enzyme_attributes(d):
                seen.add((tok.location.line, tok.location.column))
                if attr != "enzyme_inactive":
                    raise _error_at_location(tok.extent.start, f"unsupported construct: attribute '{attr}' on a "
                                                               "variable template")
                mg.__dict__.setdefault("enzyme_inactive_variable_templates", set()).add(_place(d))
            continue
        if d.kind not in (K.FUNCTION_DECL, K.VAR_DECL, K.CXX_METHOD):
            continue
        decls.append(d)
        for attr, arg, tok in _enzyme_attributes(d):
            seen.add((tok.location.line, tok.location.column))
            where = tok.extent.start
            if attr not in ATTRIBUTES:
                raise _error_at_location(where, f"unsupported construct: attribute '{attr}' (pgcc implements "
                                                "enzyme_inactive, enzyme_function_like and enzyme_shadow)")
            if attr == "enzyme_shadow":
                _shadow_rule(mg, d, arg, where)
            elif attr == "enzyme_inactive":
                if d.kind != K.VAR_DECL:
                    _add_rule(mg, "inactive", mg.declare(d.get_definition() or d))
                else:
                    _add_rule(mg, "inactive_global", _global_symbol(d))
            else:
                if d.kind == K.VAR_DECL or arg is None:
                    raise _error_at_location(where, "enzyme_function_like needs a function and the name of a math "
                                                    "function: __attribute__((enzyme_function_like(\"log1p\")))")
                _add_rule(mg, "function_like", mg.declare(d.get_definition() or d), arg)
    for diag in tu.diagnostics:
        m = re.match(r"unknown attribute '(enzyme_\w+)' ignored", diag.spelling)
        loc = diag.location
        if m and loc.file is not None and (loc.line, loc.column) not in seen:
            # a macro (`#define INACTIVE __attribute__((enzyme_inactive))`): clang reports where it is expanded
            d = next((d for d in decls if d.location.file is not None and d.location.file.name == loc.file.name
                      and (d.extent.start.line, d.extent.start.column) <= (loc.line, loc.column)
                      <= (d.extent.end.line, d.extent.end.column)), None)
            if ATTRIBUTE_ALIASES.get(m.group(1), m.group(1)) == "enzyme_inactive" and d is not None:
                if d.kind != K.VAR_DECL:
                    _add_rule(mg, "inactive", mg.declare(d.get_definition() or d))
                else:
                    _add_rule(mg, "inactive_global", _global_symbol(d))
                continue
            raise _error_at_location(loc, f"unsupported construct: attribute '{m.group(1)}' where pgcc cannot "
                                          "read it (through a macro, or on a declaration other than a function "
                                          "or a global variable); write it on the declaration itself")


def _shadow_rule(mg, d, arg, where) -> None:
    """``__attribute__((enzyme_shadow(s)))`` on global `d`: global `s` (declared before it, in the same scope or
    at file scope) is its shadow: reverse mode adds the adjoints of `d`'s values into `s`, forward mode reads and
    writes its tangents there, and neither zeroes it (Enzyme's shadow of a global; ad/shadow_globals.py).

    Raises:
        CompileError: not on a global variable, no argument, or no global of that name."""
    if d.kind != K.VAR_DECL or arg is None or d.semantic_parent is None or \
            d.semantic_parent.kind not in (K.TRANSLATION_UNIT, K.NAMESPACE, K.STRUCT_DECL, K.CLASS_DECL):
        raise _error_at_location(where, "enzyme_shadow needs a global variable and the name of its shadow global: "
                                        "__attribute__((enzyme_shadow(x_shadow))) double x;")
    shadow = None
    for scope in (d.semantic_parent, mg.tu.cursor):
        shadow = next((c for c in scope.get_children() if c.kind == K.VAR_DECL and c.spelling == arg), None)
        if shadow is not None:
            break
    if shadow is None:
        raise _error_at_location(where, f"enzyme_shadow({arg}): no global variable '{arg}' declared before it")
    mg.global_var(shadow)  # (the shadow exists even where the program does not use it)
    _add_rule(mg, "shadow_global", _global_symbol(d), _global_symbol(shadow))


def _global_symbol(d) -> str:
    """The symbol of global variable `d` (a C++ static data member: `Class::name`, as module.global_var)."""
    from . import cxx_classes
    if d.semantic_parent is not None and d.semantic_parent.kind in cxx_classes.RECORD_KINDS:
        return cxx_classes.member_symbol(d)
    return d.spelling


def _template_member_rules(mg, m, seen) -> None:
    """Record the Enzyme attributes on member `m` of a class template (its pattern) for template_rules."""
    for attr, arg, tok in _enzyme_attributes(m):
        seen.add((tok.location.line, tok.location.column))
        if attr not in ATTRIBUTES or attr == "enzyme_shadow" or (
                attr == "enzyme_function_like" and (arg is None or m.kind == K.VAR_DECL)):
            raise _error_at_location(tok.extent.start, f"unsupported construct: attribute '{attr}' on a member "
                                                       "of a class template")
        mg.__dict__.setdefault("enzyme_template_rules", {}).setdefault(m.hash, []).append((attr, arg))


def template_rules(mg, spec, name) -> None:
    """Enzyme attributes written on a free function template or on a member of a class template apply to its
    specialization `spec` (symbol `name`: a function, or with `spec` a variable, a static data member), declared
    now."""
    scan_attributes(mg)
    rules = getattr(mg, "enzyme_template_rules", {})
    t = spec.specialized_template
    if t is not None and t.hash not in rules and t.semantic_parent is not None and \
            t.semantic_parent.kind == K.CLASS_TEMPLATE:
        t = t.canonical  # (a member declared in the class and defined outside: the attributes are on the first)
    for attr, arg in rules.get(t.hash if t is not None else None, []):
        if spec.kind == K.VAR_DECL:
            _add_rule(mg, "inactive_global", name)
        elif attr == "enzyme_inactive":
            _add_rule(mg, "inactive", name)
        else:
            _add_rule(mg, "function_like", name, arg)


def _place(d):
    """(file, line, column, name) of a declaration: a variable template's specialization has its template's
    (libclang links neither to the other)."""
    loc = d.location
    return (loc.file.name if loc.file else None, loc.line, loc.column, d.spelling)


def variable_template_rules(mg, spec, name) -> None:
    """``__attribute__((enzyme_inactive))`` written on a variable template applies to its specialization `spec`
    (global `name`), emitted now."""
    scan_attributes(mg)
    if _place(spec) in getattr(mg, "enzyme_inactive_variable_templates", set()):
        _add_rule(mg, "inactive_global", name)


def _error_at_location(loc, message):
    from ..errors import CompileError
    return CompileError(message, loc.file.name if loc.file else None, loc.line, loc.column)


def _enzyme_attributes(d):
    """[(attribute name, string argument or None, name token)] of the enzyme_* GNU attributes in declaration
    `d`'s tokens before its body or initializer."""
    stop = None
    for c in d.get_children():
        if c.kind == K.COMPOUND_STMT:
            stop = c.extent.start.offset
    toks = []
    for t in d.get_tokens():
        if stop is not None and t.extent.start.offset >= stop:
            break
        if stop is None and d.kind == K.VAR_DECL and t.spelling == "=":
            break
        toks.append(t)
    out = []
    i = 0
    while i < len(toks):
        if toks[i].spelling not in ("__attribute__", "__attribute"):
            i += 1
            continue
        depth, j = 0, i + 1
        while j < len(toks):
            sp = toks[j].spelling
            if sp == "(":
                depth += 1
            elif sp == ")":
                depth -= 1
                if depth == 0:
                    break
            elif depth == 2 and sp.startswith("enzyme_"):
                arg = None
                if j + 3 < len(toks) and toks[j + 1].spelling == "(" and toks[j + 3].spelling == ")" \
                        and toks[j + 2].spelling.startswith('"'):
                    arg = toks[j + 2].spelling[1:-1]
                elif sp == "enzyme_shadow" and j + 3 < len(toks) and toks[j + 1].spelling == "(" and \
                        toks[j + 3].spelling == ")" and toks[j + 2].kind.name == "IDENTIFIER":
                    arg = toks[j + 2].spelling  # (the shadow global's name)
                out.append((ATTRIBUTE_ALIASES.get(sp, sp), arg, toks[j]))
            j += 1
        i = j + 1
    return out


ITER = "__enzyme_iter"


def calls_to(op, name: str) -> list:
    """The func.call ops of function `name` nested in `op`."""
    out = []

    def visit(o):
        if o.name == "func.call" and o.attributes["callee"].value == name:
            out.append(o)
        for region in o.regions:
            for block in region.blocks:
                for inner in block.operations:
                    visit(inner)
    visit(op)
    return out


def bump_iteration_counts(f) -> None:
    """In function copy `f` that AD differentiates: every `__enzyme_iter(n, k)` becomes `__enzyme_iter(n + k, k)`
    (Enzyme's iteration count grows by k with each order of differentiation: a truncated series differentiated
    twice keeps the primal's accuracy when it runs two more terms; mycos.c)."""
    for c in calls_to(f, ITER):
        if len(c.operands) == 2 and c.operands[0].type == c.operands[1].type:
            with ir.InsertionPoint(c), c.location:
                c.operands[0] = arith.addi(c.operands[0], c.operands[1])


def lower_iteration_counts(module) -> None:
    """`__enzyme_iter(n, k)` left after AD (the primal's, or every one when nothing is differentiated) is n.

    Raises:
        CompileError: a call with other than two integer arguments."""
    from ..errors import error_at_op
    if ITER not in ir.SymbolTable(module.operation):
        return  # (no walk of modules that never name it)
    for c in calls_to(module.operation, ITER):
        if len(c.operands) != 2 or not all(isinstance(o.type, ir.IntegerType) for o in c.operands) or \
                c.operands[0].type != c.operands[1].type or len(c.results) != 1 or \
                c.results[0].type != c.operands[0].type:
            raise error_at_op(c, "__enzyme_iter takes two integers (the count and its increase per order of "
                                 "differentiation) and returns the count's type")
        c.results[0].replace_all_uses_with(c.operands[0])
        c.operation.erase()
    sym = ir.SymbolTable(module.operation)
    if ITER in sym and not calls_to(module.operation, ITER):
        sym[ITER].operation.erase()


# ---------------------------------------------------------------------------------- shadows of globals (queries)
def _without_context(fg, args, name):
    """`args` without Enzyme's ``enzyme_context, ctx`` pair (ctx evaluated for its effects): pgcc has one
    context, of width 1 (emit_shadow_query), whose shadows every derivative uses.

    Raises:
        CompileError: enzyme_context at the end of the arguments."""
    out, i = [], 0
    while i < len(args):
        if i > 0 and _spelling(args[i]) == "enzyme_context":
            if i + 1 >= len(args):
                raise error_at(args[i], f"enzyme_context at the end of the arguments of {name}")
            fg.rvalue(args[i + 1], discard=True)
            i += 2
            continue
        out.append(args[i])
        i += 1
    return out


def _queried_global(arg):
    """The global VAR_DECL whose storage address expression `arg` points into (``&g``, ``&blk.b``, ``&a[2]``,
    ``a``, through casts), or None."""
    c = strip_implicit(arg)
    while True:
        if c.kind in (K.PAREN_EXPR, K.CSTYLE_CAST_EXPR, K.UNEXPOSED_EXPR, K.CXX_STATIC_CAST_EXPR,
                      K.CXX_REINTERPRET_CAST_EXPR) or c.kind == K.UNARY_OPERATOR and unary_op(c) == "&":
            ch = children(c)
            c = strip_implicit(ch[-1]) if ch else None
        elif c.kind == K.MEMBER_REF_EXPR:
            ch = children(c)
            if not ch or canonical(ch[0].type).kind == T.POINTER:  # (p->x: not the global's own storage)
                return None
            c = strip_implicit(ch[0])
        elif c.kind == K.ARRAY_SUBSCRIPT_EXPR:
            ch = children(c)
            if not ch or not CT.is_array(canonical(strip_implicit(ch[0]).type)):
                return None
            c = strip_implicit(ch[0])
        else:
            break
        if c is None:
            return None
    d = c.referenced if c.kind == K.DECL_REF_EXPR else None
    if d is None or d.kind != K.VAR_DECL or d.semantic_parent is None or \
            d.semantic_parent.kind not in (K.TRANSLATION_UNIT, K.NAMESPACE, K.LINKAGE_SPEC):
        return None
    return d


def _query_operands(call, args):
    """(the address argument, its width expression or None, the lane expression) of an __enzyme_shadow call in
    either of Enzyme's forms: ``(ctx, &g, lane)`` or ``(&g, width, lane)``.

    Raises:
        CompileError: not three arguments."""
    if len(args) != 3:
        raise error_at(call, "__enzyme_shadow takes three arguments: (context, &global, lane) or "
                             "(&global, width, lane)")
    if canonical(args[1].type).kind == T.POINTER or CT.is_array(canonical(args[1].type)):
        return args[1], None, args[2]
    return args[0], args[1], args[2]


def _shadow_of_global(mg, d, where):
    """The name of the memref.global that is global `d`'s shadow (created on first use, zero-initialized, and
    recorded as its shadow for the AD stage: the shadow_global rule, as enzyme_shadow records).

    Raises:
        CompileError: a global pgcc keeps in raw memory (a struct, a pointer, an object whose address an
            initializer takes), a constant global."""
    from mlir.dialects import memref
    mv = mg.global_var(d)
    if canonical(d.type).is_const_qualified():
        raise error_at(where, f"unsupported construct: __enzyme_shadow of constant global '{d.spelling}'")
    if mv.is_raw_global:
        return _shadow_of_raw_global(mg, mv.global_name, where), mv
    name = mv.global_name + SHADOW_SUFFIX
    done = getattr(mg, "enzyme_queried", None)
    if done is None:
        done = mg.enzyme_queried = {}
    if name not in done:
        t = ir.MemRefType(mv.mtype)
        elem = t.element_type
        zero = ir.IntegerAttr.get(elem, 0) if isinstance(elem, ir.IntegerType) else ir.FloatAttr.get(elem, 0.0)
        with ir.Location.unknown(), ir.InsertionPoint.at_block_begin(mg.module.body):
            memref.GlobalOp(name, ir.TypeAttr.get(t), sym_visibility="private",
                            initial_value=ir.DenseElementsAttr.get_splat(ir.RankedTensorType.get(list(t.shape),
                                                                                                  elem), zero))
        done[name] = mv
        _add_rule(mg, "shadow_global", mv.global_name, name)
    return name, mv


def float_ranges(ty, base=0):
    """The (byte offset, size) of every floating-point scalar in an object of C type `ty` (struct members,
    array elements, recursively), from `base`: the bytes a shadow holds derivatives in."""
    ty = canonical(ty)
    if CT.is_float(ty):
        return [(base, ty.get_size())]
    if ty.kind in (T.CONSTANTARRAY,):
        elem = canonical(ty.element_type)
        size = elem.get_size()
        inner = float_ranges(elem)
        return [(base + k * size + o, n) for k in range(ty.element_count) for o, n in inner]
    if ty.kind == T.RECORD:
        out = []
        for f in ty.get_fields():
            off = ty.get_offset(f.spelling) if f.spelling else -1
            if off is None or off < 0:
                continue
            out += float_ranges(f.type, base + off // 8)
        return out
    return []


def _raw_globals(mg):
    """{symbol: MemVar} of the file's globals in raw memory (llvm.mlir.global)."""
    return {mv.global_name: mv for mv in mg.globals.values() if mv.is_raw_global}


def _shadow_of_raw_global(mg, gname, where):
    """The name of the shadow of global `gname` kept in raw memory (an llvm.mlir.global): a private copy of its
    definition whose floating-point bytes are 0, whose integers are the primal's, and whose pointers to other
    globals point to their shadows (made the same way: Enzyme's shadow of a descriptor holding the address of
    an array holds the address of the array's shadow). Recorded as its shadow for the AD stage.

    Raises:
        CompileError: a global without a definition in this file, or whose initializer pgcc cannot map."""
    name = gname + SHADOW_SUFFIX
    done = getattr(mg, "enzyme_queried", None)
    if done is None:
        done = mg.enzyme_queried = {}
    if name in done:
        return name
    body = mg.module.body
    g = next((o for o in body.operations if o.operation.name == "llvm.mlir.global"
              and ir.StringAttr(o.attributes["sym_name"]).value == gname), None)
    mv = _raw_globals(mg).get(gname)
    if g is None or mv is None or ("value" not in g.attributes and not len(g.regions[0].blocks)):
        raise error_at(where, f"unsupported construct: __enzyme_shadow of '{gname}', a global not defined in "
                              "this file")
    done[name] = mv
    ranges = float_ranges(mv.ctype)
    sh = g.operation.clone(ip=ir.InsertionPoint(g.operation))
    sh.attributes["sym_name"] = ir.StringAttr.get(name)
    sh.attributes["linkage"] = ir.Attribute.parse("#llvm.linkage<internal>")
    if "constant" in sh.attributes:
        del sh.attributes["constant"]
    if "value" in sh.attributes:
        sh.attributes["value"] = _zero_ranges(sh.attributes["value"], 0, ranges, where, gname)
    else:
        _shadow_initializer(mg, sh, ranges, where, gname)
    _add_rule(mg, "shadow_global", gname, name)
    return name


def _zero_ranges(attr, at, ranges, where, gname):
    """Dense byte attribute `attr` (the bytes at offset `at` of a global) with the bytes of `ranges` zeroed."""
    text = str(attr.type)
    if not isinstance(attr, ir.DenseElementsAttr) or "xi8>" not in text:
        if ranges:
            raise error_at(where, f"unsupported construct: __enzyme_shadow of '{gname}': its initializer is not "
                                  "in bytes")
        return attr
    data = [int(x) for x in ir.DenseIntElementsAttr(attr)]
    for off, n in ranges:
        for k in range(max(off - at, 0), min(off - at + n, len(data))):
            data[k] = 0
    return ir.DenseElementsAttr.get(__import__("numpy").array(data, dtype="int8"), type=attr.type)


def _shadow_initializer(mg, sh, ranges, where, gname):
    """Rewrite the initializer region of shadow global `sh` (a clone of the primal's): addresses of globals
    become those of their shadows, byte chunks inserted into the packed struct lose their floating-point bytes,
    floating-point constants become 0.

    Raises:
        CompileError: initializer forms whose byte layout is not known here."""
    from polygeist_py.ad.prepare import initializer_offset  # (the packed layout of struct globals)
    for o in list(_walk(sh)):
        kind = o.operation.name
        if kind == "llvm.mlir.addressof":
            target = ir.FlatSymbolRefAttr(o.attributes["global_name"]).value
            if target in _raw_globals(mg):
                tg = next((x for x in mg.module.body.operations if x.operation.name == "llvm.mlir.global"
                           and ir.StringAttr(x.attributes["sym_name"]).value == target), None)
                if tg is not None and "constant" not in tg.attributes:
                    o.attributes["global_name"] = ir.FlatSymbolRefAttr.get(
                        _shadow_of_raw_global(mg, target, where))
        elif kind == "llvm.mlir.constant":
            v = o.attributes["value"]
            if isinstance(v, ir.FloatAttr):
                o.attributes["value"] = ir.FloatAttr.get(v.type, 0.0)
            elif isinstance(v, ir.DenseElementsAttr) and ranges:
                at = initializer_offset(o)
                if at is None:
                    raise error_at(where, f"unsupported construct: __enzyme_shadow of '{gname}': the layout of "
                                          "its initializer")
                o.attributes["value"] = _zero_ranges(v, at, ranges, where, gname)


def _walk(op):
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                yield inner
                yield from _walk(inner)


def _all_queried_globals(fg, where):
    """Give a shadow to every global an __enzyme_shadow call of the file names (once per file): the shadows
    exist before any derivative or __enzyme_zero_shadows runs, wherever the queries stand."""
    mg = fg.mg
    if getattr(mg, "enzyme_queries_scanned", False):
        return
    mg.enzyme_queries_scanned = True
    found = []

    def visit(c):
        if c.kind == K.CALL_EXPR and c.referenced is not None and \
                shadow_query(c.referenced.spelling) == "__enzyme_shadow":
            found.append(c)
        for ch in c.get_children():
            visit(ch)

    for top in mg.tu.cursor.get_children():
        if top.location.file is not None and not top.location.is_in_system_header and \
                top.kind in (K.FUNCTION_DECL, K.NAMESPACE, K.LINKAGE_SPEC, K.CXX_METHOD):
            visit(top)
    for c in found:
        args = list(c.get_arguments())
        if len(args) == 3:
            d = _queried_global(_query_operands(c, args)[0])
            if d is not None:
                _shadow_of_global(mg, d, c)


def _zero_queried_shadows(fg) -> None:
    """Zero the floating-point bytes of the shadow of every global the file queries (pointers and integers in
    shadows of raw-memory globals stay as made)."""
    from mlir.dialects import llvm, memref
    i8, i64 = ir.IntegerType.get_signless(8), ir.IntegerType.get_signless(64)
    for shadow, mv in getattr(fg.mg, "enzyme_queried", {}).items():
        if mv.is_raw_global:
            base = llvm.AddressOfOp(CT.llvm_ptr(), shadow).result
            for off, n in float_ranges(mv.ctype):
                llvm.MemsetOp(fg.byte_offset(base, arith.constant(i64, off)), arith.constant(i8, 0),
                              arith.constant(i64, n), ir.BoolAttr.get(False))
            continue
        t = ir.MemRefType(mv.mtype)
        m = memref.GetGlobalOp(t, shadow).result
        nbytes = CT.byte_width(t.element_type)
        for n in t.shape:
            nbytes *= n
        llvm.MemsetOp(fg.to_ptr(m), arith.constant(i8, 0), arith.constant(i64, nbytes), ir.BoolAttr.get(False))


CONTEXT_MADE = "__pgcc_enzyme_context_made"
CONTEXT_MESSAGE = "pgcc: __enzyme_context ran a second time: pgcc keeps one shadow per global (one context)\n"


def _once_at_run_time(mg, call) -> None:
    """At the insertion point: abort with a message on standard error when this runs a second time (a second
    context would share the first one's shadows: never a silent wrong derivative).

    Raises:
        CompileError: the file declares write or abort with another type."""
    from mlir.dialects import llvm, memref, scf
    i32, i64 = ir.IntegerType.get_signless(32), ir.IntegerType.get_signless(64)
    t = ir.MemRefType.get([], i32)
    body = mg.module.body
    names = {ir.StringAttr(o.attributes["sym_name"]).value: o for o in body.operations if "sym_name" in o.attributes}
    with ir.Location.unknown():
        if CONTEXT_MADE not in names:
            with ir.InsertionPoint.at_block_begin(body):
                memref.GlobalOp(CONTEXT_MADE, ir.TypeAttr.get(t), sym_visibility="private",
                                initial_value=ir.DenseElementsAttr.get_splat(ir.RankedTensorType.get([], i32),
                                                                             ir.IntegerAttr.get(i32, 0)))
        for fname, ftype in (("write", ir.FunctionType.get([i32, CT.llvm_ptr(), i64], [i64])),
                             ("abort", ir.FunctionType.get([], []))):
            have = mg.functions.get(fname) or names.get(fname)
            if have is None:  # (declared as the frontend declares it: a later use of the program's reuses it)
                with ir.InsertionPoint(body):
                    mg.functions[fname] = func.FuncOp(fname, ftype, visibility="private")
            elif ir.TypeAttr(have.attributes["function_type"]).value != ftype:
                raise error_at(call, f"unsupported construct: __enzyme_context in a file that declares '{fname}' "
                                     "with another type")
        flag = memref.GetGlobalOp(t, CONTEXT_MADE).result
        made = memref.LoadOp(flag, []).result
        memref.StoreOp(arith.constant(i32, 1), flag, [])
        again = scf.IfOp(arith.cmpi(arith.CmpIPredicate.ne, made, arith.constant(i32, 0)))
        with ir.InsertionPoint(again.then_block):
            text = mg.string_constant(CONTEXT_MESSAGE)
            func.CallOp([i64], ir.FlatSymbolRefAttr.get("write"),
                        [arith.constant(i32, 2), text, arith.constant(i64, len(CONTEXT_MESSAGE))])
            func.CallOp([], ir.FlatSymbolRefAttr.get("abort"), [])
            scf.YieldOp([])


def emit_shadow_query(fg, call, args):
    """Enzyme's queries of the shadows of globals, for a single context of width 1 (one shadow per global):

    - ``__enzyme_context(1)``: the context (a non-null token; the width must be the constant 1), whose shadows
      start at 0; a program that makes a second context aborts with a message (pgcc's shadows are one per
      global: two contexts would share them);
    - ``__enzyme_shadow(ctx, &g, 0)`` / ``__enzyme_shadow(&g, 1, 0)``: the address in g's shadow that
      corresponds to the address given (a member or element of g: the same offset), where reverse mode adds
      g's adjoints and forward mode reads its tangents (g's values are differentiated in every derivative);
    - ``__enzyme_zero_shadows(ctx)``: zeroes the shadow of every global the file queries.

    Returns the call's value (an !llvm.ptr), or None for __enzyme_zero_shadows.

    Raises:
        CompileError: a width or lane other than the constants 1 and 0, an address not into a global (or into
            one pgcc gives no shadow, _shadow_of_global)."""
    from mlir.dialects import llvm, memref
    from .array_init import constant_value
    name = shadow_query(call.referenced.spelling)
    mg = fg.mg
    _all_queried_globals(fg, call)
    i64 = ir.IntegerType.get_signless(64)
    if name == "__enzyme_context":
        width = constant_value(args[0]) if len(args) == 1 else None
        if width != 1:
            raise error_at(call, "unsupported construct: Enzyme's shadow contexts of a width other than the "
                                 "constant 1 (__enzyme_context: pgcc keeps one shadow per global)")
        _once_at_run_time(mg, call)
        _zero_queried_shadows(fg)  # (a new context's shadows start at 0)
        return llvm.IntToPtrOp(CT.llvm_ptr(), arith.constant(i64, 1)).result
    if name == "__enzyme_zero_shadows":
        for a in args:
            fg.rvalue(a, discard=True)
        _zero_queried_shadows(fg)
        return None
    addr, width, lane = _query_operands(call, args)
    if width is not None and constant_value(width) != 1:
        raise error_at(width, "unsupported construct: Enzyme's shadows of globals in vector mode (__enzyme_shadow "
                              "of a width other than 1)")
    if constant_value(lane) != 0:
        raise error_at(lane, "unsupported construct: a lane other than 0 in __enzyme_shadow (pgcc's shadows of "
                             "globals have width 1)")
    d = _queried_global(addr)
    if d is None:
        raise error_at(addr, "__enzyme_shadow needs the address of a global variable (or of a member or element "
                             "of one)")
    if width is None:
        fg.rvalue(args[0], discard=True)  # (the context)
    shadow, mv = _shadow_of_global(mg, d, addr)
    p = fg.raw_pointer(addr)
    if mv.is_raw_global:
        base = llvm.AddressOfOp(CT.llvm_ptr(), mv.global_name).result
        sbase = llvm.AddressOfOp(CT.llvm_ptr(), shadow).result
    else:
        t = ir.MemRefType(mv.mtype)
        base = fg.to_ptr(memref.GetGlobalOp(t, mv.global_name).result)
        sbase = fg.to_ptr(memref.GetGlobalOp(t, shadow).result)
    offset = arith.subi(llvm.PtrToIntOp(i64, p).result, llvm.PtrToIntOp(i64, base).result)
    return llvm.IntToPtrOp(CT.llvm_ptr(), arith.addi(llvm.PtrToIntOp(i64, sbase).result, offset)).result


def _placeholder_call(mg, results, operands, target, mode, acts):
    """A call of a fresh private placeholder function standing for an Enzyme call (api_calls.py replaces it by
    the derivative): differentiating function `target` (a symbol name) in `mode` with activities `acts`."""
    k = getattr(mg, "enzyme_calls", 0)
    mg.enzyme_calls = k + 1
    pname = f"{PLACEHOLDER}{k}"
    with ir.Location.unknown(), ir.InsertionPoint(mg.module.body):
        func.FuncOp(pname, ir.FunctionType.get([v.type for v in operands], results), visibility="private")
    op = func.CallOp(results, ir.FlatSymbolRefAttr.get(pname), operands)
    op.attributes[FN_ATTR] = ir.FlatSymbolRefAttr.get(target)
    op.attributes[MODE_ATTR] = ir.StringAttr.get(mode)
    op.attributes[ACT_ATTR] = ir.ArrayAttr.get([ir.StringAttr.get(a) for a in acts])
    return op
