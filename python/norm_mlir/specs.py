"""Builders of norm specs: one function on tensors, in norm-dialect text.

Every builder returns a `Spec`: the MLIR text (`str(spec)`), the entry
function's name, and its operands with symbolic shapes, so a compiled kernel
can check its arguments (dims that must agree carry the same symbol) and
allocate its results. A `None` extent in a shape is a dynamic dim.
"""

import numbers

DTYPES = ("f16", "bf16", "f32", "f64")

_DTYPE_ALIASES = {
    "float16": "f16",
    "half": "f16",
    "bfloat16": "bf16",
    "float32": "f32",
    "float": "f32",
    "float64": "f64",
    "double": "f64",
}


def canonical_dtype(dtype):
    """'f32', 'float32', numpy.float32, numpy.dtype('float32') -> 'f32'."""
    name = getattr(dtype, "name", None) or getattr(dtype, "__name__", None)
    name = str(name if name is not None else dtype)
    name = _DTYPE_ALIASES.get(name, name)
    if name not in DTYPES:
        raise ValueError(
            "unsupported dtype %r (supported: %s)" % (dtype, ", ".join(DTYPES))
        )
    return name


class Operand:
    """An argument or result: name, dtype and shape (ints, or symbol names
    for dynamic dims; operands sharing a symbol must agree on it)."""

    def __init__(self, name, dtype, shape):
        self.name = name
        self.dtype = dtype
        self.shape = tuple(shape)

    def type_text(self):
        dims = "".join(
            ("?" if isinstance(d, str) else str(d)) + "x" for d in self.shape
        )
        return "tensor<%s%s>" % (dims, self.dtype)

    def __repr__(self):
        shape = ", ".join(d if isinstance(d, str) else str(d) for d in self.shape)
        return "%s: %s[%s]" % (self.name, self.dtype, shape)


class Spec:
    """A norm spec with one public function."""

    def __init__(self, text, name, arguments, results):
        self.text = text
        self.name = name
        self.arguments = list(arguments)
        self.results = list(results)

    def __str__(self):
        return self.text

    def __repr__(self):
        return "Spec(@%s(%s) -> (%s))" % (
            self.name,
            ", ".join(map(repr, self.arguments)),
            ", ".join(map(repr, self.results)),
        )


def _shape(shape, what="shape"):
    """Validates a user shape; returns it with dynamic dims as symbols."""
    if isinstance(shape, numbers.Integral) or shape is None:
        shape = (shape,)
    out = []
    for i, d in enumerate(shape):
        if d is None:
            out.append("%s%d" % (what, i))
        elif isinstance(d, numbers.Integral) and not isinstance(d, bool) and d >= 0:
            out.append(int(d))
        else:
            raise ValueError("%s: extent %r of dim %d is not None or an int >= 0"
                             % (what, d, i))
    if not out:
        raise ValueError("%s: a rank-0 tensor has nothing to normalize" % what)
    return tuple(out)


def _axes(axes, rank, what="axes"):
    if isinstance(axes, numbers.Integral):
        axes = (axes,)
    out = []
    for a in axes:
        if not isinstance(a, numbers.Integral) or not -rank <= a < rank:
            raise ValueError("%s: %r is out of range for rank %d" % (what, a, rank))
        out.append(int(a) % rank)
    if not out or len(set(out)) != len(out):
        raise ValueError("%s must be non-empty and without repeats, got %r"
                         % (what, tuple(axes)))
    return sorted(out)


def _float(value, what):
    if not isinstance(value, numbers.Real) or value != value or value < 0:
        raise ValueError("%s must be a finite number >= 0, got %r" % (what, value))
    text = repr(float(value))  # shortest round trip
    if "inf" in text or "nan" in text:
        raise ValueError("%s must be finite, got %r" % (what, value))
    mantissa, _, exponent = text.partition("e")
    if "." not in mantissa:
        mantissa += ".0"  # MLIR float literals need the point
    return mantissa + ("e" + exponent if exponent else "")


class _Function:
    """Writes one func.func: arguments, inits with their dynamic sizes."""

    def __init__(self, name, arguments):
        self.name = name
        self.arguments = arguments
        self.lines = []
        self.dims = {}  # symbol -> SSA value of its extent
        self.constants = {}
        self.counter = 0

    def _fresh(self, stem):
        self.counter += 1
        return "%%%s%d" % (stem, self.counter)

    def _dim(self, symbol):
        if symbol not in self.dims:
            for arg in self.arguments:
                if symbol in arg.shape:
                    index = arg.shape.index(symbol)
                    break
            else:
                raise AssertionError("dynamic dim %s of no argument" % symbol)
            if index not in self.constants:
                self.constants[index] = self._fresh("c")
                self.lines.append(
                    "  %s = arith.constant %d : index" % (self.constants[index], index)
                )
            value = self._fresh("d")
            self.lines.append(
                "  %s = tensor.dim %%%s, %s : %s"
                % (value, arg.name, self.constants[index], arg.type_text())
            )
            self.dims[symbol] = value
        return self.dims[symbol]

    def empty(self, operand):
        sizes = ", ".join(self._dim(d) for d in operand.shape if isinstance(d, str))
        value = self._fresh("init")
        self.lines.append(
            "  %s = tensor.empty(%s) : %s" % (value, sizes, operand.type_text())
        )
        return value

    def text(self, results, returned):
        signature = ", ".join(
            "%%%s: %s" % (a.name, a.type_text()) for a in self.arguments
        )
        result_types = ", ".join(r.type_text() for r in results)
        return (
            "func.func @%s(%s) -> (%s) {\n%s\n  return %s : %s\n}\n"
            % (
                self.name,
                signature,
                result_types,
                "\n".join(self.lines),
                ", ".join(returned),
                result_types,
            )
        )


def _operand_pair(keyword, pair):
    """`keyword(%a, %b : A, B)` on a line of its own."""
    return "\n      %s(%%%s, %%%s : %s, %s)" % (
        keyword, pair[0].name, pair[1].name, pair[0].type_text(),
        pair[1].type_text())


def _normalize(mode, x, axes, eps, out, scale=None, bias=None, affine_dims=None,
               stats=None, saved=(), running=None, extra="", name="y"):
    """Appends one norm.normalize to `out` (a _Function); returns its results."""
    f = out["function"]
    inits = [out["output"]] + list(saved)
    init_values = [f.empty(out["output"])] + [f.empty(s) for s in saved]
    text = "  %%%s = norm.normalize %s axes = [%s] epsilon = %s%s\n" % (
        name,
        mode,
        ", ".join(map(str, axes)),
        eps,
        extra,
    )
    text += "      ins(%%%s : %s)" % (x.name, x.type_text())
    if scale is not None:
        text += " scale(%%%s : %s)" % (scale.name, scale.type_text())
    if bias is not None:
        text += " bias(%%%s : %s)" % (bias.name, bias.type_text())
    if affine_dims is not None and (scale is not None or bias is not None):
        text += " affine_dims = [%s]" % ", ".join(map(str, affine_dims))
    if stats is not None:
        text += _operand_pair("stats", stats)
    text += "\n      outs(%s : %s)" % (init_values[0], inits[0].type_text())
    if saved:
        text += " saved(%s : %s)" % (
            ", ".join(init_values[1:]),
            ", ".join(s.type_text() for s in saved),
        )
    result_types = [o.type_text() for o in inits]
    if running is not None:
        text += _operand_pair("running", running)
        result_types += [running[0].type_text(), running[1].type_text()]
    if len(result_types) > 1:
        text = text.replace("  %%%s = " % name,
                            "  %%%s:%d = " % (name, len(result_types)), 1)
    text += "\n      -> %s" % ", ".join(result_types)
    f.lines.append(text)
    if len(result_types) == 1:
        return ["%" + name]
    return ["%%%s#%d" % (name, i) for i in range(len(result_types))]


def _single(name, mode, shape, dtype, axes, eps, scale_dims, has_scale,
            has_bias, out_dtype=None, param_dtype=None, extra=""):
    """A function computing one normalize with computed statistics."""
    dtype = canonical_dtype(dtype)
    out_dtype = canonical_dtype(out_dtype or dtype)
    param_dtype = canonical_dtype(param_dtype or dtype)
    shape = _shape(shape)
    x = Operand("x", dtype, shape)
    params = tuple(shape[d] for d in scale_dims)
    scale = Operand("scale", param_dtype, params) if has_scale else None
    bias = Operand("bias", param_dtype, params) if has_bias else None
    arguments = [a for a in (x, scale, bias) if a is not None]
    y = Operand("y", out_dtype, shape)
    f = _Function(name, arguments)
    returned = _normalize(mode, x, axes, eps, {"function": f, "output": y},
                          scale=scale, bias=bias, affine_dims=scale_dims,
                          extra=extra)
    return Spec(f.text([y], returned), name, arguments, [y])


def layer_norm(shape, dtype="f32", axes=None, eps=1e-5, scale=True, bias=True,
               out_dtype=None, name="layer_norm"):
    """LayerNorm over `axes` (default: the last dim):
    y = scale · (x − mean) / sqrt(var + eps) + bias, scale and bias shaped
    like the normalized dims. Arguments: x[, scale][, bias]."""
    rank = len(_shape(shape))
    axes = _axes([rank - 1] if axes is None else axes, rank)
    return _single(name, "standard", shape, dtype, axes, _float(eps, "eps"),
                   axes, scale, bias, out_dtype)


def rms_norm(shape, dtype="f32", axes=None, eps=1e-6, scale=True, bias=False,
             out_dtype=None, name="rms_norm"):
    """RMSNorm over `axes` (default: the last dim):
    y = scale · x / sqrt(mean(x²) + eps) [+ bias]. Arguments: x[, scale][, bias]."""
    rank = len(_shape(shape))
    axes = _axes([rank - 1] if axes is None else axes, rank)
    return _single(name, "rms", shape, dtype, axes, _float(eps, "eps"), axes,
                   scale, bias, out_dtype)


def instance_norm(shape, dtype="f32", eps=1e-5, scale=False, bias=False,
                  name="instance_norm"):
    """InstanceNorm of N, C, spatial...: statistics per (n, c) over the
    spatial dims; per-channel scale and bias. Arguments: x[, scale][, bias]."""
    rank = len(_shape(shape))
    if rank < 3:
        raise ValueError("instance_norm needs N, C and at least one spatial dim")
    return _single(name, "standard", shape, dtype, list(range(2, rank)),
                   _float(eps, "eps"), [1], scale, bias)


def group_norm(shape, dtype="f32", groups=32, eps=1e-5, scale=True, bias=True,
               channel_dim=1, name="group_norm"):
    """GroupNorm: the channels of `channel_dim` split into `groups` groups,
    statistics per (n, group) over the group's channels and every other dim
    but the batch (dim 0); per-channel scale and bias. Channels-last is
    `channel_dim=-1`. Arguments: x[, scale][, bias]."""
    dims = _shape(shape)
    rank = len(dims)
    if rank < 2:
        raise ValueError("group_norm needs a batch and a channel dim")
    (channel_dim,) = _axes(channel_dim, rank, "channel_dim")
    if channel_dim == 0:
        raise ValueError("group_norm: dim 0 is the batch, not the channels")
    if not isinstance(groups, numbers.Integral) or groups < 1:
        raise ValueError("groups must be an int >= 1, got %r" % (groups,))
    channels = dims[channel_dim]
    if isinstance(channels, int) and channels % groups:
        raise ValueError("group_norm: %d channels do not split into %d groups"
                         % (channels, groups))
    return _single(name, "standard", shape, dtype, list(range(1, rank)),
                   _float(eps, "eps"), [channel_dim], scale, bias,
                   extra=" groups = %d on %d" % (groups, channel_dim))


def l2_normalize(shape, dtype="f32", axis=1, eps=1e-12, name="l2_normalize"):
    """x / max(‖x‖₂, eps) over `axis` (PyTorch F.normalize). Arguments: x."""
    rank = len(_shape(shape))
    axes = _axes(axis, rank, "axis")
    return _single(name, "l2", shape, dtype, axes, _float(eps, "eps"), axes,
                   False, False)


def weight_norm(shape, dtype="f32", dim=0, name="weight_norm"):
    """Weight normalization g · v / ‖v‖₂, the norm over every dim but `dim`
    (PyTorch weight_norm). Arguments: v, g (shaped like dim `dim` of v)."""
    dims = _shape(shape)
    rank = len(dims)
    (dim,) = _axes(dim, rank, "dim")
    axes = [d for d in range(rank) if d != dim]
    if not axes:
        raise ValueError("weight_norm needs a dim to normalize besides `dim`")
    dtype = canonical_dtype(dtype)
    v = Operand("v", dtype, dims)
    g = Operand("g", dtype, (dims[dim],))
    y = Operand("w", dtype, dims)
    f = _Function(name, [v, g])
    returned = _normalize("l2", v, axes, _float(0.0, "eps"),
                          {"function": f, "output": y}, scale=g,
                          affine_dims=[dim])
    return Spec(f.text([y], returned), name, [v, g], [y])


def batch_norm(shape, dtype="f32", training=False, eps=1e-5, momentum=0.1,
               scale=True, bias=True, unbiased=True, channel_dim=1,
               name="batch_norm"):
    """BatchNorm, statistics per channel over every other dim.

    Inference (training=False): arguments x[, scale][, bias], mean, var (the
    running statistics); result y.
    Training: arguments x[, scale][, bias], running_mean, running_var; results
    y, the batch mean, the biased batch variance, and the updated running
    mean and variance (running ← (1 − momentum) · running + momentum · batch,
    the variance unbiased by n / (n − 1) with `unbiased`, as PyTorch does)."""
    dtype = canonical_dtype(dtype)
    dims = _shape(shape)
    rank = len(dims)
    if rank < 2:
        raise ValueError("batch_norm needs a batch and a channel dim")
    (channel_dim,) = _axes(channel_dim, rank, "channel_dim")
    axes = [d for d in range(rank) if d != channel_dim]
    channels = (dims[channel_dim],)
    x = Operand("x", dtype, dims)
    scale = Operand("scale", dtype, channels) if scale else None
    bias = Operand("bias", dtype, channels) if bias else None
    y = Operand("y", dtype, dims)
    eps = _float(eps, "eps")
    if not training:
        mean = Operand("mean", dtype, channels)
        var = Operand("var", dtype, channels)
        arguments = [a for a in (x, scale, bias, mean, var) if a is not None]
        f = _Function(name, arguments)
        returned = _normalize("standard", x, axes, eps,
                              {"function": f, "output": y}, scale=scale,
                              bias=bias, affine_dims=[channel_dim],
                              stats=(mean, var))
        return Spec(f.text([y], returned), name, arguments, [y])
    if not isinstance(momentum, numbers.Real) or not 0 <= momentum <= 1:
        raise ValueError("momentum must be in [0, 1], got %r" % (momentum,))
    running = (Operand("running_mean", dtype, channels),
               Operand("running_var", dtype, channels))
    saved = (Operand("batch_mean", dtype, channels),
             Operand("batch_var", dtype, channels))
    arguments = [a for a in (x, scale, bias) + running if a is not None]
    results = [y, saved[0], saved[1],
               Operand("new_running_mean", dtype, channels),
               Operand("new_running_var", dtype, channels)]
    f = _Function(name, arguments)
    extra = " momentum = %s%s saved_variance" % (
        _float(momentum, "momentum"), " unbiased" if unbiased else "")
    returned = _normalize("standard", x, axes, eps,
                          {"function": f, "output": y}, scale=scale, bias=bias,
                          affine_dims=[channel_dim], saved=saved,
                          running=running, extra=extra)
    return Spec(f.text(results, returned), name, arguments, results)


def cosine_norm(x_shape, w_shape, dtype="f32", eps=1e-8, name="cosine_norm"):
    """Cosine normalization of x (M×K) against w (N×K): both rows normalized
    by their L2 norms (each clamped by eps), then x̂ · ŵᵀ (M×N). Computed and
    returned in f32 (f64 for f64 inputs). Arguments: x, w."""
    dtype = canonical_dtype(dtype)
    acc = "f64" if dtype == "f64" else "f32"
    xs, ws = _shape(x_shape, "x"), _shape(w_shape, "w")
    if len(xs) != 2 or len(ws) != 2:
        raise ValueError("cosine_norm takes x of M×K and w of N×K")
    k = xs[1]
    if isinstance(k, int) and isinstance(ws[1], int) and k != ws[1]:
        raise ValueError("cosine_norm: x has K = %d, w has K = %d" % (k, ws[1]))
    # Both K extents are the same symbol when either is dynamic, so the
    # kernel's argument check ties them.
    if isinstance(k, str) or isinstance(ws[1], str):
        k = "k"
        xs, ws = (xs[0], k), (ws[0], k)
    x = Operand("x", dtype, xs)
    w = Operand("w", dtype, ws)
    xn = Operand("xn", acc, xs)
    wn = Operand("wn", acc, ws)
    out = Operand("cos", acc, (xs[0], ws[0]))
    f = _Function(name, [x, w])
    eps = _float(eps, "eps")
    _normalize("l2", x, [1], eps, {"function": f, "output": xn}, name="xn")
    _normalize("l2", w, [1], eps, {"function": f, "output": wn}, name="wn")
    init = f.empty(out)
    f.lines.append("  %%zero = arith.constant 0.0 : %s" % acc)
    f.lines.append(
        "  %%acc = linalg.fill ins(%%zero : %s) outs(%s : %s) -> %s"
        % (acc, init, out.type_text(), out.type_text())
    )
    f.lines.append(
        "  %%cos = linalg.matmul indexing_maps = ["
        "affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, "
        "affine_map<(m, n, k) -> (m, n)>]\n"
        "      ins(%%xn, %%wn : %s, %s) outs(%%acc : %s) -> %s"
        % (xn.type_text(), wn.type_text(), out.type_text(), out.type_text())
    )
    return Spec(f.text([out], ["%cos"]), name, [x, w], [out])
