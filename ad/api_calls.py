"""The AD stage: every ``__enzyme_autodiff`` / ``__enzyme_fwddiff`` call (a ``func.call @__pgcc_enzyme_<k>`` from
frontend/enzyme.py) becomes a call of a synthesized derivative function; the placeholders disappear.

Derivative functions are memoized per (function, mode, activity), so two calls with the same activity share one,
and recursive functions call their own derivative.
"""

from __future__ import annotations

from mlir import ir

from polygeist_py.errors import error_at_op
from polygeist_py.frontend.enzyme import ACT_ATTR, FN_ATTR, MARKERS, MODE_ATTR, RULES_ATTR, SITE_ATTR, WIDTH_ATTR

from .activity import all_ops
from .allocators import set_custom_allocators
from .prepare import functions, primal_copy


class Session:
    """Derivative synthesis state for one module.

    Attributes:
        module: the ir.Module being rewritten.
        funcs: name -> func.func of the module (derivative functions added as they are made).
    """

    def __init__(self, module):
        self.module = module
        self.funcs = functions(module)
        self.memo = {}
        self.primals = {}
        self.count = 0
        # custom rules (frontend/enzyme.py register): calls of these functions are not inlined
        self.inactive, self.gradient_rules, self.derivative_rules = set(), {}, {}
        from .libm import INTEGER_RESULTS  # (libm functions whose results are integers: constant, as Enzyme's)
        self.inactive |= {n for n in INTEGER_RESULTS if n in self.funcs and not len(self.funcs[n].regions[0].blocks)}
        self.function_like = {}        # function -> math op whose derivative rule its calls use
        self.inactive_globals = set()  # globals marked __attribute__((enzyme_inactive))
        self.user_shadows = {}  # global -> the global the program names as its shadow (enzyme_shadow)
        self.allocators = {}  # __enzyme_allocation_like: allocator -> (size index, deallocator, its arguments)
        self.device = False  # differentiating CUDA device code (one thread's code; ad/gpu_block.py)
        attrs = module.operation.attributes
        if RULES_ATTR in attrs:
            rules = ir.DictAttr(attrs[RULES_ATTR])
            for i in range(len(rules)):
                entry = ir.ArrayAttr(rules[i].attr)
                kind = ir.StringAttr(entry[0]).value
                if kind == "inactive_global":
                    self.inactive_globals.add(ir.StringAttr(entry[1]).value)
                    continue
                if kind == "shadow_global":
                    self.user_shadows[ir.StringAttr(entry[1]).value] = ir.StringAttr(entry[2]).value
                    continue
                if kind == "function_like":
                    self.function_like[ir.FlatSymbolRefAttr(entry[1]).value] = ir.StringAttr(entry[2]).value
                    continue
                if kind == "allocation_like":
                    frees = [int(i) for i in ir.StringAttr(entry[4]).value.split(",") if i]
                    self.allocators[ir.FlatSymbolRefAttr(entry[1]).value] = (
                        int(ir.StringAttr(entry[3]).value), ir.FlatSymbolRefAttr(entry[2]).value, frees)
                    continue
                names = [ir.FlatSymbolRefAttr(a).value for a in list(entry)[1:]]
                if kind == "inactive":
                    self.inactive.add(names[0])
                elif kind == "gradient":
                    self.gradient_rules[names[0]] = names[1:]
                else:
                    self.derivative_rules[names[0]] = names[1:]
            del attrs[RULES_ATTR]
        set_custom_allocators(self.allocators)  # (also clearing a previous module's)

    def custom(self) -> set:
        """Functions whose calls keep their identity (custom rules, inactive functions)."""
        return self.inactive | set(self.gradient_rules) | set(self.derivative_rules) | set(self.function_like) \
            | set(self.allocators) | {free for _, free, _ in self.allocators.values()}

    def in_inactive_global(self, mem) -> bool:
        """Whether memref/pointer `mem` is (a view of) a global marked __attribute__((enzyme_inactive))."""
        from .prepare import memory_root
        roots = memory_root(mem)
        if not roots:
            return False
        for r in roots:
            o = r.owner
            if isinstance(o, ir.Block):
                continue
            kind = o.operation.name  # (OpView.name is the get_global op's symbol)
            name = o.attributes["name"] if kind == "memref.get_global" else \
                o.attributes["global_name"] if kind == "llvm.mlir.addressof" else None
            if name is None or ir.FlatSymbolRefAttr(name).value not in self.inactive_globals:
                return False
        return bool(self.inactive_globals)

    def register(self, f) -> None:
        """Record a new function of the module (a derivative) by name."""
        self.funcs[f.attributes["sym_name"].value] = f

    def primal(self, name: str, mode: str):
        """The prepared (inlined, optimized) copy of function `name`; for reverse mode with affine lowered to
        scf/memref (the reverse sweep indexes with values that are not affine symbols)."""
        key = (name, mode)
        if key not in self.primals:
            self.primals[key] = primal_copy(self.module, name, f"{name}.ad_primal_{mode}",
                                            lower_affine=(mode == "reverse"), keep=self.custom())
            if self.device:  # (__shared__ memory is one per block wherever it is declared: ad/gpu_block.py)
                from .gpu_block import hoist_shared_allocations
                hoist_shared_allocations(self.primals[key])
        return self.primals[key]

    def fresh(self, base: str) -> str:
        self.count += 1
        return f"{base}.{self.count}"

    def derivative(self, name, mode, active, *, return_primal=False, at=None, ftype=None, extra=None):
        """The name of the derivative function of `name` for `mode` ('forward' / 'reverse') and per-parameter
        activity `active` (tuple); built on first request.

        Raises:
            CompileError: constructs the mode cannot differentiate, at their source position.
        """
        key = (name, mode, active, return_primal, extra)
        if key in self.memo:
            return self.memo[key]
        dname = self.fresh(f"{name}.{'fwddiff' if mode == 'forward' else 'autodiff'}")
        self.memo[key] = dname
        primal = self.primal(name, mode)
        if mode == "forward" and extra is not None and extra[0] == "width":  # (enzyme_width: vector mode)
            from .vector_forward import VectorForward
            VectorForward(self, primal, active, extra[1], at).build(dname, ftype)
        elif mode == "forward":
            from .forward import Forward
            Forward(self, primal, active, return_primal).build(dname, ftype)
        else:
            from .reverse import Reverse
            Reverse(self, primal, active, extra).build(dname, ftype)
        return dname

    def split_derivative(self, name, active, at=None, taped=False):
        """The names (augmented forward, reverse) of Enzyme's split-mode functions for `name` with per-parameter
        activity `active` (ad/split_mode.py); built on first request. With `taped` (a recursive call that writes
        memory it does not allocate, rules_reverse.taped_recursive), the tape holds every value the reverse reads
        from memory outside the function (the caller may write that memory before the reverse runs). The names
        are known before the functions are built: a recursive function's derivative calls itself.

        Raises:
            CompileError: constructs reverse mode cannot differentiate; split mode in device code."""
        key = (name, "split", active, taped)
        if key in self.memo:
            return self.memo[key]
        if self.device:
            what = f"reverse mode through the recursive function '{name}', which writes memory it does not " \
                "allocate, in CUDA device code" if taped else \
                "Enzyme's split mode (__enzyme_augmentfwd, __enzyme_reverse) in CUDA device code"
            raise error_at_op(at, f"unsupported construct: {what}")
        from .reverse import Reverse
        from .split_mode import split
        rev = Reverse(self, self.primal(name, "reverse"), active, ("split",))
        rev.taped = taped
        combined = self.fresh(f"{name}.split")
        names = (self.fresh(f"{name}.augment"), self.fresh(f"{name}.reverse"))
        self.memo[key] = names
        f = rev.build(combined)
        split(rev, f, *names, want_primal=True)
        del self.funcs[combined]
        return names

    def finish(self) -> None:
        """Erase the primal copies."""
        for p in self.primals.values():
            p.operation.erase()


def differentiate(module, device_code_only: bool = False) -> bool:
    """Replace every Enzyme call of `module` (in place). Returns whether there was any.

    Args:
        device_code_only: only the calls inside CUDA device code (functions that launches call, and what they
            call): run before --cpuify, so that a differentiated `__device__` function that reads `threadIdx`
            is inlined into the thread loops with its derivative (Enzyme's GPU form, SC'21). The calls in host
            code are differentiated after --cpuify, where the launches they make are parallel loops.
    Raises:
        CompileError: unsupported constructs in a differentiated function.
    """
    calls = [op for op in all_ops(module.operation) if op.name == "func.call" and FN_ATTR in op.attributes]
    if device_code_only:
        device = device_functions(module)
        calls = [c for c in calls if _enclosing_function(c) in device]
    if not calls:
        return False
    session = Session(module)
    session.device = device_code_only
    if session.user_shadows:  # (enzyme_shadow: ad/shadow_globals.py)
        from .shadow_globals import check_user_shadows
        check_user_shadows(session)
    from collections import Counter  # (Enzyme calls per (function, differentiated function): gpu_block.py)
    sites = Counter((_enclosing_function(c), c.attributes[FN_ATTR].value) for c in calls)
    placeholders = set()
    entry_calls = []  # (the calls the program makes, replaced in place)
    for call in _innermost_first(session, calls):
        fn = call.attributes[FN_ATTR].value
        mode = ir.StringAttr(call.attributes[MODE_ATTR]).value
        acts = tuple(ir.StringAttr(a).value for a in ir.ArrayAttr(call.attributes[ACT_ATTR]))
        placeholder = call.attributes["callee"].value
        target = session.funcs.get(fn)
        if target is None or not len(target.regions[0].blocks):
            raise error_at_op(call, f"cannot differentiate '{fn}': its body is not in this file")
        ftype = ir.FunctionType(ir.TypeAttr(session.funcs[placeholder].attributes["function_type"]).value)
        if mode in ("augment", "split_reverse"):
            aug, rev = session.split_derivative(fn, tuple(a != "const" for a in acts), at=call)
            name = rev if mode == "split_reverse" else aug
            if mode == "augment":  # (the augmented forward returns the tape and f's results: keep those used)
                _call_augmented(session, call, aug)
                placeholders.add(placeholder)
                entry_calls.append(None)  # (erased: replaced by the call of the augmented forward)
                continue
        elif mode == "forward":
            active = tuple(a != "const" for a in acts)
            width = None
            if WIDTH_ATTR in call.attributes:  # (Enzyme's vector mode: ad/vector_forward.py)
                width = ("width", ir.IntegerAttr(call.attributes[WIDTH_ATTR]).value)
                _check_no_shadowed_globals(session, fn, call)
            name = session.derivative(fn, mode, active, at=call, ftype=ftype, extra=width)
        else:
            extra = ("entry", acts)
            if device_code_only:  # (parameters whose memory may be private to a thread: ad/gpu_block.py)
                from .gpu_block import reached_by_the_whole_block, uniform_parameters
                whole = reached_by_the_whole_block(module, call)
                extra += (uniform_parameters(module, call, acts), whole,
                          whole and sites[(_enclosing_function(call), fn)] == 1, _site_names(call))
            name = session.derivative(fn, mode, tuple(a != "const" for a in acts), at=call, ftype=ftype,
                                      extra=extra)
        call.attributes["callee"] = ir.FlatSymbolRefAttr.get(name)
        entry_calls.append(call)
        for a in (FN_ATTR, MODE_ATTR, ACT_ATTR, SITE_ATTR, WIDTH_ATTR):
            if a in call.attributes:
                del call.attributes[a]
        placeholders.add(placeholder)
    if getattr(session, "follow_stores", None):  # (pointers stored into globals with queried shadows)
        from .shadow_globals import follow_pointer_stores
        follow_pointer_stores(session, [c for c in entry_calls if c is not None])
    for placeholder in placeholders:  # after every call: cpuify may have copied one call (a stub's branches)
        session.funcs[placeholder].operation.erase()
        del session.funcs[placeholder]
    session.finish()
    _erase_unused_markers(module)
    if device_code_only:
        _erase_inlined_device_functions(module)
    return True


def _erase_inlined_device_functions(module) -> None:
    """Erase the private functions that read CUDA thread or block ids or wait at a barrier, themselves or
    through the functions they call, and that nothing references any more: the derivatives inlined their bodies
    (a `__device__` helper reading ``threadIdx`` that the differentiated function calls, reached only through
    the Enzyme call), so no launch reaches them and cpuify would leave their ids outside any launch."""
    funcs = {ir.StringAttr(f.attributes["sym_name"]).value: f for f in module.body.operations
             if f.operation.name == "func.func"}
    refs = {name: {ir.FlatSymbolRefAttr(o.attributes[k]).value for o in all_ops(f.operation)
                   for k in ("callee", "value", "global_name") if k in o.attributes
                   and isinstance(o.attributes[k], ir.FlatSymbolRefAttr)} for name, f in funcs.items()}
    outside = {ir.FlatSymbolRefAttr(o.attributes[k]).value for g in module.body.operations
               if g.operation.name != "func.func" for o in [g.operation] + all_ops(g.operation)
               for k in ("callee", "value", "global_name") if k in o.attributes
               and isinstance(o.attributes[k], ir.FlatSymbolRefAttr)}  # (tables of functions in globals)
    gpu = {n for n, f in funcs.items() if any(o.operation.name.startswith("gpu.") for o in all_ops(f.operation))}
    grew = True
    while grew:  # (through callees)
        more = {n for n in funcs if n not in gpu and refs[n] & gpu}
        gpu |= more
        grew = bool(more)
    while True:
        live = outside.union(*refs.values())
        dead = [n for n in gpu if n not in live and "sym_visibility" in funcs[n].attributes
                and ir.StringAttr(funcs[n].attributes["sym_visibility"]).value == "private"]
        if not dead:
            return
        for n in dead:
            funcs.pop(n).operation.erase()
            refs.pop(n)
            gpu.discard(n)


def _check_no_shadowed_globals(session, fn, call) -> None:
    """Vector forward mode on `fn` reading no global whose shadow the program owns (enzyme_shadow, or queried
    with __enzyme_shadow): Enzyme gives such a global one shadow per direction (its width-1 shadow is another),
    pgcc's one shadow would seed every direction.

    Raises:
        CompileError: naming the global."""
    if not session.user_shadows:
        return
    from .shadow_globals import ops_reached
    for o in ops_reached(session, fn):
        key = {"memref.get_global": "name", "llvm.mlir.addressof": "global_name"}.get(o.operation.name)
        if key is not None and ir.FlatSymbolRefAttr(o.attributes[key]).value in session.user_shadows:
            g = ir.FlatSymbolRefAttr(o.attributes[key]).value
            raise error_at_op(call, f"unsupported construct: Enzyme's vector forward mode (enzyme_width) on "
                                    f"'{fn}', which reads global '{g}' whose shadow the program sets (Enzyme "
                                    "keeps one shadow per direction; pgcc's shadows of globals have width 1)")


def _site_names(call) -> tuple:
    """(the caller and the Enzyme function, then the source text of each operand: "" for non-pointers) of
    placeholder `call`, for the run-time messages of its derivative (ad/gpu_block.py `disjoint_shadows`)."""
    if SITE_ATTR not in call.attributes:
        return ()
    return tuple(ir.StringAttr(a).value for a in ir.ArrayAttr(call.attributes[SITE_ATTR]))


def _call_augmented(session, call, aug) -> None:
    """Replace placeholder `call` of __enzyme_augmentfwd (results: the tape, then f's result when the program
    keeps it) by a call of augmented forward `aug` (results: the tape, then all of f's results).

    Raises:
        CompileError: the call site asks for results that f does not have."""
    from mlir.dialects import func
    f = session.funcs[aug]
    results = list(ir.FunctionType(ir.TypeAttr(f.attributes["function_type"]).value).results)
    want = [r.type for r in call.results]
    if want != results[:len(want)]:
        raise error_at_op(call, "__enzyme_augmentfwd: the result the program expects does not fit the function "
                                "(a pointer for the tape, then the function's floating-point result)")
    with ir.InsertionPoint(call), call.location:
        new = func.CallOp(results, ir.FlatSymbolRefAttr.get(aug), list(call.operands))
    for old, r in zip(call.results, new.results):
        old.replace_all_uses_with(r)
    call.operation.erase()


def device_functions(module) -> set:
    """Names of the functions that run on the device: called inside a `gpu.launch`, or by such a function."""
    calls = {}
    launched = []
    for f in module.body.operations:
        if f.operation.name != "func.func":
            continue
        name = ir.StringAttr(f.attributes["sym_name"]).value
        calls[name] = []
        for op in all_ops(f.operation):
            if op.name == "func.call":
                callee = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
                calls[name].append(callee)
                if _inside_launch(op):
                    launched.append(callee)
    seen = set()
    while launched:
        n = launched.pop()
        if n not in seen:
            seen.add(n)
            launched += calls.get(n, [])
    return seen


def _inside_launch(op) -> bool:
    p = op.operation.parent
    while p is not None and p.name != "func.func":
        if p.name == "gpu.launch":
            return True
        p = p.parent
    return False


def _enclosing_function(op) -> str:
    p = op.operation.parent
    while p.name != "func.func":
        p = p.parent
    return ir.StringAttr(p.attributes["sym_name"]).value


def _innermost_first(session, calls):
    """Order Enzyme calls so that a function is differentiated only once the Enzyme calls inside it (and inside
    its callees) are rewritten: derivatives of derivatives (e.g. forward over reverse for Hessian-vector
    products) differentiate real code.

    Raises:
        CompileError: a function that differentiates itself (directly or through its callees).
    """
    def enclosing(call):
        op = call.operation.parent
        while op is not None and op.name != "func.func":
            op = op.parent
        return op.attributes["sym_name"].value if op is not None else None

    graph = {}
    for name, f in session.funcs.items():
        if len(f.regions[0].blocks):
            graph[name] = {c.attributes["callee"].value for c in all_ops(f) if c.name == "func.call"}

    def reach(name):
        seen, work = set(), [name]
        while work:
            n = work.pop()
            if n in seen:
                continue
            seen.add(n)
            work += graph.get(n, ())
        return seen

    pending = list(calls)
    order = []
    while pending:
        holders = {enclosing(c) for c in pending}
        ready = [c for c in pending if not (reach(c.attributes[FN_ATTR].value) & holders)]
        if not ready:
            raise error_at_op(pending[0], "unsupported construct: a function that differentiates itself")
        order += ready
        pending = [c for c in pending if c not in ready]
    return order


def _erase_unused_markers(module) -> None:
    """The ``extern int enzyme_dup;`` declarations: never read once the calls are rewritten."""
    used = set()
    for op in all_ops(module.operation):
        if op.name == "memref.get_global":
            used.add(op.attributes["name"].value)
    for op in list(module.body.operations):
        if op.operation.name == "memref.global" and op.attributes["sym_name"].value in MARKERS \
                and op.attributes["sym_name"].value not in used and "initial_value" not in op.attributes:
            op.operation.erase()


__all__ = ["differentiate", "Session"]
