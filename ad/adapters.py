"""PyTorch and JAX adapters for a compiled C/CUDA function and its Enzyme gradient.

``polygeist_py.compile(src, gradients=["f"])`` gives ``prog.f`` (the primal) and ``prog.f_gradient`` (reverse
mode, see polygeist_py.ad.python_api). This module wraps the pair as a framework function whose backward pass
is ``f_gradient``:

* :func:`torch_function` -> a callable built on ``torch.autograd.Function`` (tensors in, tensors out);
* :func:`jax_function`   -> a ``jax.custom_vjp`` function whose primal and gradient run through
  ``jax.pure_callback``, so it also works under ``jax.jit`` (and ``jax.vmap``, one call per batch element).

torch and jax are optional (``pip install polygeist-py[torch]`` / ``[jax]``); each is imported when its adapter is
created, and a missing one is an ImportError that says how to install it.

Which C parameters are what (the one convention both adapters share)
---------------------------------------------------------------------
* **Outputs.** By default the function's floating-point return value is the only output: ``double f(...)`` is
  a scalar (e.g. a loss) of its array and floating scalar inputs. A ``void`` function names the arrays it
  writes with ``outputs=["out", ...]``; each is allocated zero-filled (C element type, shape from the C
  declaration, e.g. ``double out[n]``, or given as ``outputs={"out": (n,)}``) for every call and returned, in
  the order named. (A function that returns a float *and* writes outputs is refused: Enzyme seeds its return
  value with 1, so wrap it in a ``void`` C function that stores the value in an output array.)
* **Inputs.** Every other array or ``float``/``double`` parameter is an input: a positional argument of the
  adapter, in C order (or in the order of ``inputs=[...]``), and differentiable (integer arrays are passed
  but get no gradient). ``constants={"x": data}`` fixes a parameter instead (not an argument, no gradient).
* **Integer parameters** (sizes, step counts) are not differentiable. A size that a VLA declaration names
  (``int n, const double w[n]``) is read from the shape of the array argument; the others come from
  ``constants={...}`` or are passed by keyword at each call (``f(w, x, steps=3)``).

Inputs are copied to C-contiguous arrays of the C element type before the call (so the C code may overwrite
them); outputs have the C element type (``double`` -> float64, ``float`` -> float32); gradients have the dtype
of the corresponding input.

Backward: for a cotangent ``ct`` of the outputs, ``f_gradient`` is called with zeroed input shadows and output
shadows seeded with ``ct`` (a scalar return: with Enzyme's seed 1, the shadows then scaled by ``ct``); the input
shadows, and the returned gradient of the floating scalar input, are the vector-Jacobian product.

JAX: a ``double`` function needs 64-bit floats, ``jax.config.update("jax_enable_x64", True)`` before the arrays
are created (otherwise the call raises a RuntimeError saying so). Only reverse mode is defined
(``jax.grad``/``jax.vjp``, not ``jax.jvp``: a custom_vjp function).
"""

from __future__ import annotations

import numpy as np

from polygeist_py.api import Program, _eval_dim

from .python_api import SUFFIX

__all__ = ["torch_function", "jax_function"]


def _require(module: str):
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(f"polygeist_py.ad.adapters.{module}_function needs {module}, which is not installed: "
                          f"pip install 'polygeist-py[{module}]' (or pip install {module})") from e


class _Spec:
    """The adapter's view of C function `name`: which parameters are inputs, outputs, constants and integers,
    and the numpy-level primal and vector-Jacobian product."""

    def __init__(self, compiled, name, inputs, outputs, constants):
        if not isinstance(compiled, Program):
            raise TypeError(f"expected the Program returned by polygeist_py.compile, got {type(compiled).__name__}")
        self.name = name
        self.f = compiled[name]  # KeyError naming the functions when absent
        gname = name + SUFFIX
        if gname not in compiled:
            raise ValueError(f"'{name}' has no gradient: compile with polygeist_py.compile(..., gradients=['{name}'])")
        self.g = compiled[gname]
        for fn in (self.f, self.g):
            if fn._sig.unsupported:
                raise TypeError(f"{fn.signature}: cannot be called from Python: {fn._sig.unsupported}")
        self.params = self.f.params
        index = {p.name: i for i, p in enumerate(self.params)}

        def find(n, what):
            if n not in index:
                raise ValueError(f"{what}: '{n}' is not a parameter of {self.f.signature}")
            return index[n]

        for i, p in enumerate(self.params):
            if p.kind == "array" and p.scalar is None:
                raise TypeError(f"{self.f.signature}: parameter '{p.decl}' (void *) has no element type to "
                                "differentiate")
        # outputs
        self.out_shape = {}
        if outputs is None:
            outputs = []
        elif isinstance(outputs, str):
            raise TypeError("outputs must be a list of parameter names (or a dict name -> shape), not a string")
        elif isinstance(outputs, dict):
            self.out_shape = {find(n, "outputs"): s for n, s in outputs.items()}
        self.outputs = [find(n, "outputs") for n in outputs]
        for i in self.outputs:
            p = self.params[i]
            if p.kind != "array" or p.scalar.kind != "float":
                raise ValueError(f"outputs: '{p.decl}' is not an array of float or double")
            if p.const:
                raise ValueError(f"outputs: '{p.decl}' is const: the function cannot write it")
        ret = self.f._sig.ret
        self.returns_value = not self.outputs
        if self.outputs and getattr(ret, "kind", None) == "float":
            raise ValueError(f"{self.f.signature}: returns a value and writes outputs; Enzyme seeds the return "
                             "value, so wrap it in a void C function that stores the value in an output array")
        if not self.outputs and getattr(ret, "kind", None) != "float":
            raise ValueError(f"{self.f.signature}: nothing to differentiate: it does not return a float or "
                             "double; name the arrays it writes with outputs=[...]")
        self.ret_dtype = ret.dtype if self.returns_value else None
        # constants
        self.constants = {find(n, "constants"): v for n, v in (constants or {}).items()}
        for i in self.constants:
            if i in self.outputs:
                raise ValueError(f"constants: '{self.params[i].name}' is also an output")
        # inputs
        candidates = [i for i, p in enumerate(self.params)
                      if not self._is_int(p) and i not in self.outputs and i not in self.constants]
        if inputs is None:
            self.inputs = candidates
        else:
            if isinstance(inputs, str):
                raise TypeError("inputs must be a list of parameter names, not a string")
            self.inputs = [find(n, "inputs") for n in inputs]
            for i in self.inputs:
                p = self.params[i]
                if self._is_int(p):
                    raise ValueError(f"inputs: '{p.decl}' is an integer, which is not differentiable; "
                                     "pass it in constants= or by keyword")
                if i in self.outputs or i in self.constants:
                    raise ValueError(f"inputs: '{p.name}' is also an output or a constant")
            if len(set(self.inputs)) != len(self.inputs):
                raise ValueError("inputs: a parameter is named twice")
            rest = [self.params[i].name for i in candidates if i not in self.inputs]
            if rest:
                raise ValueError(f"parameters {rest} are neither inputs, outputs nor constants")
        self.ints = [i for i, p in enumerate(self.params) if self._is_int(p)]

    @staticmethod
    def _is_int(p) -> bool:
        return p.kind == "scalar" and p.scalar.kind != "float"

    # --------------------------------------------------------------------------------------------- description
    def input_dtype(self, k) -> np.dtype:
        return self.params[self.inputs[k]].scalar.dtype

    def differentiable(self, k) -> bool:
        return self.params[self.inputs[k]].scalar.kind == "float"

    @property
    def dtypes(self) -> list:
        """Floating-point dtypes the C function computes in (inputs and outputs)."""
        ds = [self.input_dtype(k) for k in range(len(self.inputs)) if self.differentiable(k)]
        ds += [self.params[i].scalar.dtype for i in self.outputs]
        return ds + ([self.ret_dtype] if self.returns_value else [])

    def resolve(self, args, kwargs) -> tuple:
        """The integer parameters of a call: (index, value) pairs from constants, keywords and array shapes.
        `args` are the input arguments (anything with a .shape, or Python scalars)."""
        if len(args) != len(self.inputs):
            names = ", ".join(self.params[i].name for i in self.inputs)
            raise TypeError(f"{self.name}() adapter takes {len(self.inputs)} input arguments ({names}), "
                            f"got {len(args)}")
        values = {}
        for i in self.ints:
            if i in self.constants:
                values[i] = self.constants[i]
        for k, v in kwargs.items():
            i = next((j for j in self.ints if self.params[j].name == k), None)
            if i is None:
                raise TypeError(f"{self.name}() adapter: unexpected keyword '{k}' (keywords are the integer "
                                f"parameters: {[self.params[j].name for j in self.ints]})")
            if i in self.constants:
                raise TypeError(f"{self.name}() adapter: '{k}' is already given in constants=")
            values[i] = v
        for i, v in values.items():
            if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
                raise TypeError(f"{self.name}() adapter: integer parameter '{self.params[i].name}' must be a "
                                f"Python int (static under jax.jit), got {type(v).__name__}")
            values[i] = int(v)
        for k, a in enumerate(args):
            p = self.params[self.inputs[k]]
            shape = tuple(np.shape(a))
            if p.kind == "scalar":
                if shape != ():
                    raise ValueError(f"{self.name}() adapter: '{p.decl}' is a scalar, got shape {shape}")
                continue
            try:  # numpy and jax dtypes (torch tensors are checked when converted)
                dtype = np.dtype(getattr(a, "dtype", None) or np.asarray(a).dtype)
            except TypeError:
                dtype = None
            if dtype is not None and not np.can_cast(dtype, p.scalar.dtype, casting="same_kind"):
                raise TypeError(f"{self.name}() adapter: '{p.decl}' takes {p.scalar.dtype} values, got {dtype}")
            if p.dims is None:
                continue
            if len(shape) != len(p.dims):
                raise ValueError(f"{self.name}() adapter: '{p.decl}' needs {len(p.dims)} dimensions, got shape "
                                 f"{shape}")
            for axis, tree in enumerate(p.dims):
                if tree is not None and tree[0] == "param" and tree[1] in self.ints:
                    j = tree[1]
                    if values.setdefault(j, int(shape[axis])) != shape[axis]:
                        raise ValueError(f"{self.name}() adapter: '{p.decl}' has shape {shape} but "
                                         f"{self.params[j].name} = {values[j]}")
        missing = [self.params[i].name for i in self.ints if i not in values]
        if missing:
            raise TypeError(f"{self.name}() adapter: integer parameters {missing} are not sizes of the array "
                            f"arguments; pass them by keyword ({missing[0]}=...) or in constants=")
        return tuple(sorted(values.items()))

    def output_shapes(self, ints, args) -> list:
        """(shape, dtype) of every output for integer values `ints` and input arguments `args`."""
        if self.returns_value:
            return [((), self.ret_dtype)]
        values = [None] * len(self.params)
        for i, v in ints:
            values[i] = v
        out = []
        for i in self.outputs:
            p = self.params[i]
            if i in self.out_shape:
                s = self.out_shape[i]
                s = s(*args) if callable(s) else s
                try:
                    shape = tuple(int(d) for d in s)
                except TypeError:
                    raise TypeError(f"outputs: the shape of '{p.name}' must be a tuple of ints (or a callable of "
                                    f"the inputs returning one), got {s!r}") from None
            else:
                shape = None if p.dims is None else tuple(_eval_dim(d, values) for d in p.dims)
                if shape is None or None in shape:
                    raise ValueError(f"outputs: the shape of '{p.decl}' does not follow from its declaration; "
                                     f"give it as outputs={{'{p.name}': shape}}")
            out.append((shape, p.scalar.dtype))
        return out

    # --------------------------------------------------------------------------------------------- numpy calls
    def _input(self, k, x):
        """Input argument k as a fresh C-typed value (a contiguous array copy, or a float)."""
        p = self.params[self.inputs[k]]
        a = np.asarray(x)
        if p.kind == "scalar":
            return float(a)
        if not np.can_cast(a.dtype, p.scalar.dtype, casting="same_kind"):
            raise TypeError(f"{self.name}() adapter: '{p.decl}' takes {p.scalar.dtype} values, got {a.dtype}")
        return np.array(a, dtype=p.scalar.dtype, order="C", copy=True)

    def _constant(self, i):
        v = self.constants[i]
        p = self.params[i]
        if p.kind == "array" and v is not None:
            return np.array(v, dtype=p.scalar.dtype, order="C", copy=True)  # the C code may write into it
        return v

    def _values(self, ints, args, out_shapes):
        values = [None] * len(self.params)
        for i, v in ints:
            values[i] = v
        for i in self.constants:
            if i not in self.ints:
                values[i] = self._constant(i)
        for k, x in enumerate(args):
            values[self.inputs[k]] = self._input(k, x)
        if not self.returns_value:
            for i, (shape, dtype) in zip(self.outputs, out_shapes):
                values[i] = np.zeros(shape, dtype)
        return values

    def primal(self, ints, args, out_shapes) -> list:
        """Run f; its outputs as numpy arrays (the return value as a 0-d array)."""
        values = self._values(ints, args, out_shapes)
        r = self.f(*values)
        if self.returns_value:
            return [np.asarray(r, dtype=self.ret_dtype)]
        return [values[i] for i in self.outputs]

    def vjp(self, ints, args, cotangents, out_shapes) -> list:
        """Gradients of <cotangents, outputs> with respect to the inputs (None for integer inputs), each with
        the dtype of the input argument."""
        values = self._values(ints, args, out_shapes)
        shadows = {}
        for i, p in enumerate(self.params):
            if p.kind == "array" and values[i] is not None:
                shadows[i] = np.zeros_like(values[i])
        if not self.returns_value:
            for i, ct, (shape, dtype) in zip(self.outputs, cotangents, out_shapes):
                ct = np.asarray(ct)
                if ct.shape != shape:
                    raise ValueError(f"{self.name}() adapter: cotangent of '{self.params[i].name}' has shape "
                                     f"{ct.shape}, expected {shape}")
                shadows[i] = np.array(ct, dtype=dtype, order="C", copy=True)
        gargs = []
        for i, v in enumerate(values):
            gargs.append(v)
            if self.params[i].kind == "array":
                gargs.append(shadows.get(i))
        active = self.g(*gargs)  # the gradient of the floating scalar parameter, if f has one
        scale = float(np.asarray(cotangents[0])) if self.returns_value else 1.0
        grads = []
        for k, x in enumerate(args):
            i = self.inputs[k]
            if not self.differentiable(k):
                grads.append(None)
                continue
            grad = shadows[i] if self.params[i].kind == "array" else np.asarray(active)
            dtype = np.asarray(x).dtype if np.issubdtype(np.asarray(x).dtype, np.floating) else grad.dtype
            grads.append(np.asarray(grad * scale if scale != 1.0 else grad, dtype=dtype))
        return grads


# ------------------------------------------------------------------------------------------------ PyTorch
def torch_function(compiled, name: str, *, inputs=None, outputs=None, constants=None):
    """C function `name` of `compiled` as a differentiable PyTorch function (``torch.autograd.Function``).

    Args:
        compiled: the :class:`polygeist_py.api.Program` from ``polygeist_py.compile(src, gradients=[name])``.
        name: the C function (defined in the source, listed in ``gradients``).
        inputs: names of the array and floating scalar parameters that are arguments, in the order of the
            returned callable's positional arguments. Default: every array and float/double parameter that is
            not an output or a constant, in C order.
        outputs: names of the array parameters the C function writes (a list, or a dict name -> shape tuple or
            callable of the input tensors returning a shape). Default: none; the function's float/double
            return value is the output.
        constants: fixed values of parameters that are not arguments: integers (sizes, counts) and arrays or
            floats that need no gradient (dict name -> value).

    Returns:
        ``fn(*tensors, **ints)``: the input tensors (any shape the C declaration allows; float/double parameters
        also take Python floats; integer parameters that are not VLA sizes of an input by keyword) -> one tensor
        (a 0-d tensor of the C return type, or the output array) or a tuple of tensors (several outputs), of the
        C element type, on the device of the first tensor input. Backward calls ``<name>_gradient``; gradients
        have the dtype of their input tensor; integer tensors and Python floats get none.
        ``fn.Function`` is the ``torch.autograd.Function`` subclass (``fn.Function.apply(ints, *tensors)``).

    Raises:
        ImportError: torch is not installed.
        KeyError: no function `name`; ValueError: no ``<name>_gradient`` (compile with ``gradients=[name]``), a
            parameter name that does not exist, an output that is not a non-const float/double array, a
            function that both returns a float and has outputs or does neither, parameters left unassigned.
        TypeError: `compiled` is not a Program; a signature the Python API cannot call (``void *``, several
            floating scalar parameters).
        At call time: TypeError for a wrong argument count, an integer parameter that cannot be determined, an
        integer array given float values; ValueError for a shape that does not match the C declaration (or the
        sizes read from another argument).
    """
    torch = _require("torch")
    spec = _Spec(compiled, name, inputs, outputs, constants)

    def to_numpy(x):
        return x.detach().cpu().numpy() if isinstance(x, torch.Tensor) else x

    def forward(ctx, ints, *xs):
        arrays = [to_numpy(x) for x in xs]
        shapes = spec.output_shapes(ints, xs)
        outs = spec.primal(ints, arrays, shapes)
        device = next((x.device for x in xs if isinstance(x, torch.Tensor)), torch.device("cpu"))
        ctx.ints, ctx.shapes = ints, shapes
        ctx.is_tensor = [isinstance(x, torch.Tensor) for x in xs]
        ctx.plain = [None if t else x for t, x in zip(ctx.is_tensor, xs)]
        ctx.save_for_backward(*[x for x in xs if isinstance(x, torch.Tensor)])
        results = tuple(torch.from_numpy(o).to(device) for o in outs)
        return results[0] if len(results) == 1 else results

    def backward(ctx, *cts):
        saved = iter(ctx.saved_tensors)
        xs = [next(saved) if t else p for t, p in zip(ctx.is_tensor, ctx.plain)]
        grads = spec.vjp(ctx.ints, [to_numpy(x) for x in xs], [to_numpy(c) for c in cts], ctx.shapes)
        out = [None]
        for k, (x, g) in enumerate(zip(xs, grads)):
            if g is None or not isinstance(x, torch.Tensor) or not ctx.needs_input_grad[k + 1]:
                out.append(None)
            else:
                out.append(torch.from_numpy(g).to(device=x.device, dtype=x.dtype))
        return tuple(out)

    # named after the C function, so that grad_fn prints as <name>Backward
    Function = type(name, (torch.autograd.Function,),
                    {"forward": staticmethod(forward), "backward": staticmethod(backward)})

    def fn(*xs, **ints):
        return Function.apply(spec.resolve(xs, ints), *xs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"{spec.f.signature} as a torch function of ({', '.join(spec.params[i].name for i in spec.inputs)})"
                  "; backward: " + spec.g.signature)
    fn.Function = Function
    return fn


# ------------------------------------------------------------------------------------------------ JAX
def jax_function(compiled, name: str, *, inputs=None, outputs=None, constants=None):
    """C function `name` of `compiled` as a differentiable JAX function (``jax.custom_vjp`` + ``jax.pure_callback``).

    Args: as :func:`torch_function` (``outputs`` shapes may be callables of the input arrays; under ``jax.jit``
    they receive tracers, whose ``.shape`` is known).

    Returns:
        ``fn(*arrays, **ints)``: the input arrays (jax or numpy arrays, Python floats for float/double
        parameters) -> one jax array (0-d for a return value) or a tuple of them, of the C element type. Works
        under ``jax.jit``, ``jax.grad``/``jax.vjp`` and ``jax.vmap`` (sequential calls); integer keyword
        parameters must be Python ints (close over them, or mark them static, under jit). Integer array inputs
        get ``float0`` cotangents. A C function computing in ``double`` needs
        ``jax.config.update("jax_enable_x64", True)``.

    Raises:
        ImportError: jax is not installed. RuntimeError (at call): float64 is needed and jax_enable_x64 is off.
        Otherwise as :func:`torch_function`.
    """
    jax = _require("jax")
    import jax.numpy as jnp

    spec = _Spec(compiled, name, inputs, outputs, constants)
    cache = {}

    def build(ints, shapes, in_types):
        single = len(shapes) == 1
        result_types = tuple(jax.ShapeDtypeStruct(s, d) for s, d in shapes)
        diff = [k for k in range(len(in_types)) if spec.differentiable(k)]

        def primal_cb(*xs):
            return tuple(spec.primal(ints, xs, shapes))

        def vjp_cb(*xs_and_cts):
            xs, cts = xs_and_cts[:len(in_types)], xs_and_cts[len(in_types):]
            grads = spec.vjp(ints, xs, cts, shapes)
            return tuple(np.asarray(grads[k], dtype=in_types[k][1]) for k in diff)

        @jax.custom_vjp
        def f(*xs):
            outs = jax.pure_callback(primal_cb, result_types, *xs, vmap_method="sequential")
            return outs[0] if single else tuple(outs)

        def f_fwd(*xs):
            return f(*xs), xs

        def f_bwd(xs, cts):
            cts = (cts,) if single else tuple(cts)
            grad_types = tuple(jax.ShapeDtypeStruct(*in_types[k]) for k in diff)
            got = iter(jax.pure_callback(vjp_cb, grad_types, *xs, *cts, vmap_method="sequential"))
            return tuple(next(got) if spec.differentiable(k) else np.zeros(in_types[k][0], jax.dtypes.float0)
                         for k in range(len(in_types)))

        f.defvjp(f_fwd, f_bwd)
        return f

    def fn(*xs, **kw):
        if not jax.config.read("jax_enable_x64") and any(d == np.float64 for d in spec.dtypes):
            raise RuntimeError(f"{spec.f.signature} computes in double: enable 64-bit floats in JAX with "
                               "jax.config.update('jax_enable_x64', True) before creating the arrays")
        xs = [jnp.asarray(x) for x in xs]
        ints = spec.resolve(xs, kw)
        shapes = tuple(spec.output_shapes(ints, xs))
        in_types = tuple((tuple(x.shape), np.dtype(x.dtype)) for x in xs)
        key = (ints, shapes, in_types)
        if key not in cache:
            cache[key] = build(ints, shapes, in_types)
        return cache[key](*xs)

    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = (f"{spec.f.signature} as a jax function of ({', '.join(spec.params[i].name for i in spec.inputs)})"
                  "; vjp: " + spec.g.signature)
    return fn
