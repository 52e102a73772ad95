#!/usr/bin/env python3
"""Robustness ("fuzz") test for `norm.normalize`.

Generates random `norm.normalize` specs -- valid ones and ones that break
exactly one verifier rule -- from a fixed seed, runs `norm-opt` on each and
fails when

  * a run ends by a signal, an abnormal exit code, a timeout or an LLVM crash
    report ("PLEASE submit a bug report", "Stack dump") -- a *crash*;
  * a spec the generator built to be valid is rejected, or does not survive
    `-canonicalize`, the generic-form round trip or re-parsing of the printed
    custom form -- a *mismatch*;
  * a spec the generator built to be invalid (it records the rule it broke)
    is accepted, or is rejected without an "error:" diagnostic -- a
    *mismatch*;
  * a pass misbehaves on a valid spec (MLIR policy: a pass transforms
    verifier-valid IR or emits a diagnostic, it never crashes) -- a *crash*
    or a *mismatch*:
      - `-convert-norm-to-linalg` must lower every tensor-form spec (exit 0,
        no norm.normalize left) and reject every memref-form spec with
        "cannot be decomposed in the memref form";
      - `-norm-lower-to-cpu-pipeline` must lower every 4th tensor-form spec
        (at least 60) to LLVM: exit 0, an llvm.func per spec and only LLVM
        dialect ops (so no norm.normalize, linalg. or tensor. op) left.

The generator carries its own model of the verifier rules (`violations`):
every valid spec is checked to break no rule and every invalid spec to break
exactly the one rule it records, so a rejection really means the verifier
enforces that rule.

Valid specs are checked in batches with `--split-input-file` (one
`norm-opt` start costs ~70 ms, and six runs per spec would not fit the time
budget otherwise), tensor-form and memref-form specs in separate batches
(one memref-form spec makes `-convert-norm-to-linalg` exit 1 on the whole
batch); a batch that fails in any way is re-checked spec by spec to name the
offender. `--batch 1` checks every valid spec in its own files, `--lower-batch
1` every pipeline spec, `--lower-stride 1` runs the pipeline on all of them.
Invalid specs are always run one per file.

Static extents: every operand indexed by an input dim (output, scale, bias,
statistics) must agree with the others on its static extent, also where the
input's own extent is dynamic, and `groups` must divide the group dim's
extent wherever an operand makes it static. The verifier (and `violations`)
keeps a known extent per input dim, filled in operand order, so each
conflict is reported on the later operand. Valid specs draw one hidden
extent per dynamic input dim (`Spec.hidden`) that every operand making the
dim static uses; the "*_conflict" mutations break exactly that.

Stdlib only. Usage:
  random-specs.py --norm-opt PATH [--count N] [--seed S] [--jobs J]
                  [--lower-stride N]
"""

import argparse
import concurrent.futures
import math
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import List, Optional, Tuple

FLOATS = ("f16", "bf16", "f32", "f64")
WIDTH = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
BAD_ELEMS = ("i32", "i8", "i1", "index", "f8E4M3FN", "f8E5M2", "tf32", "f80",
             "complex<f32>")
MODES = ("standard", "rms", "l2")
MODE_VALUE = {"standard": 0, "rms": 1, "l2": 2}

CRASH_MARKERS = ("PLEASE submit a bug report", "Stack dump")
SPLIT = "\n// -----\n"
TIMEOUT_S = 60
MIN_LOWERED = 60         # valid tensor-form specs run through the pipeline


def hexf(bits: str) -> Tuple[str, float]:
    """A hex float literal and its value."""
    return bits, struct.unpack(">d", bytes.fromhex(bits[2:]))[0]


# Float literals (text, value). Every one is accepted by the MLIR parser.
EPS_VALID = [("1.000000e-05", 1e-05), ("1.0e-05", 1e-05), ("1.0e-5", 1e-05),
             ("1.0e-06", 1e-06), ("1.0e-12", 1e-12), ("0.0", 0.0),
             ("-0.0", -0.0), ("0.1", 0.1), ("1.0", 1.0), ("2.5e+02", 250.0),
             ("1.0e+300", 1e300), ("4.9406564584124654e-324", 5e-324),
             hexf("0x0000000000000001"), hexf("0x8000000000000000"),
             hexf("0x3EE4F8B588E368F1"), ("9.9999999999999995e-08", 1e-07)]
EPS_NEGATIVE = [("-1.0", -1.0), ("-1.0e-05", -1e-05), ("-0.5", -0.5),
                ("-4.9406564584124654e-324", -5e-324),
                hexf("0x8000000000000001"), ("-1.0e+300", -1e300)]
NONFINITE = [hexf("0x7FF8000000000000"), hexf("0xFFF8000000000000"),
             hexf("0x7FF0000000000000"), hexf("0xFFF0000000000000"),
             ("1.0e+400", math.inf), ("-1.0e+400", -math.inf)]
MOMENTUM_VALID = [("1.000000e-01", 0.1), ("0.1", 0.1), ("0.01", 0.01),
                  ("0.0", 0.0), ("1.0", 1.0), ("9.9e-01", 0.99),
                  hexf("0x8000000000000000")]
# Finite momenta outside [0, 1], rejected.
MOMENTUM_RANGE = [("-5.000000e-01", -0.5), ("2.5", 2.5), ("1.0e+30", 1e30),
                  ("-1.0e+300", -1e300), ("1.0000001", 1.0000001)]
FLT_MIN, FLT_MAX = 1.1754943508222875e-38, 3.4028234663852886e+38
# Epsilons an f32 accumulation cannot hold: non-zero, below the smallest
# normal f32 or above the largest (all finite and >= 0).
EPS_F32_RANGE = [("1.0e-50", 1e-50), ("1.0e-39", 1e-39),
                 ("1.0e+39", 1e39), ("1.0e+300", 1e300),
                 ("4.9406564584124654e-324", 5e-324)]


def eps_fits_f32(eps: float) -> bool:
    return eps == 0 or FLT_MIN <= eps <= FLT_MAX


# ===----------------------------------------------------------------------=== #
# Types and specs
# ===----------------------------------------------------------------------=== #

@dataclass(frozen=True)
class T:
    """A shaped type: kind in tensor, memref, utensor, umemref, vector."""
    kind: str
    shape: Tuple[Optional[int], ...]
    elem: str

    def render(self) -> str:
        if self.kind in ("utensor", "umemref"):
            base = "tensor" if self.kind == "utensor" else "memref"
            return f"{base}<*x{self.elem}>"
        dims = "".join(("?" if d is None else str(d)) + "x"
                       for d in self.shape)
        return f"{self.kind}<{dims}{self.elem}>"

    @property
    def ranked(self) -> bool:
        return self.kind in ("tensor", "memref")


@dataclass
class Spec:
    variant: str
    kind: str = "tensor"                 # tensor or memref
    mode: str = "standard"
    in_shape: Tuple[Optional[int], ...] = ()
    in_elem: str = "f32"
    out_elem: str = "f32"
    axes: List[int] = field(default_factory=list)
    eps: Tuple[str, float] = ("1.000000e-05", 1e-05)
    groups: Optional[Tuple[int, int]] = None          # (G, D)
    momentum: Optional[Tuple[str, float]] = None
    unbiased: bool = False
    saved_variance: bool = False
    acc: Optional[str] = None
    affine_dims: Optional[List[int]] = None
    has_scale: bool = False
    has_bias: bool = False
    has_stats: bool = False
    n_saved: int = 0
    has_running: bool = False
    const_affine: bool = False           # scale/bias from arith.constant
    attr_extra: str = ""                 # extra attr-dict entries
    param_elems: Optional[Tuple[str, ...]] = None   # allowed param elem types
    # Concrete operand types (filled by `materialize`).
    x: Optional[T] = None
    out: Optional[T] = None
    scale: Optional[T] = None
    bias: Optional[T] = None
    mean: Optional[T] = None
    var: Optional[T] = None
    saved: List[T] = field(default_factory=list)
    rmean: Optional[T] = None
    rvar: Optional[T] = None
    results: Optional[List[T]] = None    # None: derived from the inits
    memref_results: bool = False         # memref form with tensor results
    omit_affine_dims: bool = False       # render without affine_dims
    form: str = "custom"                 # custom or generic
    hack: Optional[str] = None           # generic-form-only breakage
    rule: Optional[str] = None           # the rule an invalid spec breaks
    mutation: Optional[str] = None       # how it was broken (if not `rule`)
    # One extent per input dim (filled by `materialize`): the input's static
    # extent, or the one every operand that makes a dynamic input dim static
    # uses (None: all keep it dynamic).
    hidden: Optional[List[Optional[int]]] = None
    raw: Optional[str] = None            # malformed text, used verbatim

    @property
    def valid(self) -> bool:
        return self.rule is None

    @property
    def rank(self) -> int:
        return len(self.in_shape)

    def inits(self) -> List[T]:
        inits = [self.out] + list(self.saved)
        if self.rmean is not None:
            inits.append(self.rmean)
        if self.rvar is not None:
            inits.append(self.rvar)
        return inits

    def result_types(self) -> List[T]:
        if self.results is not None:
            return self.results
        return self.inits() if self.kind == "tensor" else []


def acc_type(sp: Spec) -> str:
    """The accumulation type: acc if given, f64 for f64 input, else f32."""
    if sp.acc is not None:
        return sp.acc
    return "f64" if sp.in_elem == "f64" else "f32"


def stats_shape(sp: Spec) -> List[Optional[int]]:
    g = sp.groups
    shape = []
    for d in range(sp.rank):
        if g is not None and d == g[1]:
            shape.append(g[0])
        elif d not in sp.axes:
            shape.append(sp.in_shape[d])
    return shape


def static_reduction_size(sp: Spec) -> Optional[int]:
    """Product of the reduced extents (group dim / G), None if dynamic."""
    size = 1
    for a in sp.axes:
        e = sp.in_shape[a]
        if e is None:
            return None
        if sp.groups is not None and sp.groups[1] == a:
            e //= sp.groups[0]
        size *= e
    return size


def compatible(a, b) -> bool:
    return len(a) == len(b) and all(
        x is None or y is None or x == y for x, y in zip(a, b))


def stat_dims(sp: Spec) -> List[Optional[int]]:
    """The input dim behind each statistics dim (None for the groups dim)."""
    g = sp.groups
    return [None if g is not None and d == g[1] else d
            for d in range(sp.rank)
            if (g is not None and d == g[1]) or d not in sp.axes]


def stat_slots(sp: Spec) -> list:
    """The statistics operands in operand (= verifier) order."""
    slots = ["mean", "var"] if sp.mean is not None and sp.var is not None \
        else []
    slots += [("saved", i) for i in range(len(sp.saved))]
    if sp.rmean is not None and sp.rvar is not None:
        slots += ["rmean", "rvar"]
    return slots


def get_slot(sp: Spec, slot) -> Optional[T]:
    return getattr(sp, slot) if isinstance(slot, str) else sp.saved[slot[1]]


def set_slot(sp: Spec, slot, t: T):
    if isinstance(slot, str):
        setattr(sp, slot, t)
    else:
        sp.saved[slot[1]] = t


def slot_dims(sp: Spec, slot) -> List[Optional[int]]:
    """The input dim behind each dim of operand `slot` (None: none)."""
    if slot == "out":
        return list(range(sp.rank))
    if slot in ("scale", "bias"):
        return [d if 0 <= d < sp.rank else None for d in sp.affine_dims]
    return stat_dims(sp)


def known_extents(sp: Spec):
    """The verifier's known extent of each input dim, filled in operand
    order: the input's shape, then the output's static sizes, then those of
    scale and bias (through affine_dims), then those of the statistics
    operands (mean, variance, saved..., running_mean, running_var; not the
    groups dim). Returns (want, known): the extents each of scale, bias and
    the statistics operands is checked against (the known extents just
    before it; per dim, None: unchecked or dynamic) and the final known
    extents (for the group divisibility rule). An operand with the wrong
    rank tells nothing (the verifier stops at it anyway)."""
    known = list(sp.x.shape)
    if len(sp.out.shape) == sp.rank:
        for d, e in enumerate(sp.out.shape):
            if known[d] is None:
                known[d] = e
    want = {}

    def learn(t: T, dims):
        if len(t.shape) == len(dims):
            for d, e in zip(dims, t.shape):
                if d is not None and known[d] is None:
                    known[d] = e

    affine = sp.affine_dims if not sp.omit_affine_dims else None
    if affine is not None:
        dims = slot_dims(sp, "scale")
        for slot in ("scale", "bias"):
            t = getattr(sp, slot)
            if t is None:
                continue
            # Per dim: checked against, then learnt from (in this order).
            w = []
            for i, d in enumerate(dims):
                w.append(None if d is None else known[d])
                if d is not None and len(t.shape) == len(dims) and \
                        known[d] is None:
                    known[d] = t.shape[i]
            want[slot] = w
    g = sp.groups
    sdims = stat_dims(sp)
    for slot in stat_slots(sp):
        want[slot] = [g[0] if d is None else known[d] for d in sdims]
        learn(get_slot(sp, slot), sdims)
    return want, known


def extent_conflict(sp: Spec) -> Optional[str]:
    """Why the static extents of `sp` disagree, or None: an order-free
    cross-check of `known_extents` (a valid spec must have none). Two
    operands name different static extents for one input dim, or `groups`
    does not divide a static extent of the group dim."""
    seen = {d: {} for d in range(sp.rank)}      # dim -> extent -> operand
    slots = ["out"]
    if sp.affine_dims is not None and not sp.omit_affine_dims:
        slots += [s for s in ("scale", "bias") if getattr(sp, s) is not None]
    slots += stat_slots(sp)
    for d, e in enumerate(sp.x.shape):
        if e is not None:
            seen[d].setdefault(e, "input")
    for slot in slots:
        t, dims = get_slot(sp, slot), slot_dims(sp, slot)
        if len(t.shape) != len(dims):
            continue
        for d, e in zip(dims, t.shape):
            if d is not None and e is not None:
                seen[d].setdefault(e, slot if isinstance(slot, str)
                                   else f"saved #{slot[1]}")
    g = sp.groups
    for d in range(sp.rank):
        if len(seen[d]) > 1:
            return "dim %d: %s" % (d, ", ".join(
                f"{n} {e}" for e, n in sorted(seen[d].items())))
        if g is not None and d == g[1] and g[0] > 0:
            for e, n in seen[d].items():
                if e % g[0]:
                    return f"group dim {d}: {n} {e} not divisible by {g[0]}"
    return None


# ===----------------------------------------------------------------------=== #
# The rules (independent model of the verifier, from the op's spec)
# ===----------------------------------------------------------------------=== #

def violations(sp: Spec) -> List[str]:
    """Every rule `sp` breaks (an empty list: valid)."""
    if sp.raw is not None:
        return [sp.rule]
    if sp.hack is not None:
        return [sp.hack]
    v = []
    named = [sp.x, sp.scale, sp.bias, sp.mean, sp.var, sp.out] + \
        list(sp.saved) + [sp.rmean, sp.rvar]
    operands = [t for t in named if t is not None]
    if any(not t.ranked for t in operands) or \
            len({t.kind for t in operands}) != 1:
        return ["operand_kind"]
    rank = sp.rank
    if sp.x.elem not in FLOATS:
        v.append("input_elem")
    if sp.out.elem not in FLOATS:
        v.append("output_elem")
    if sp.acc is not None:
        if sp.acc not in ("f32", "f64"):
            v.append("acc_type")
        elif sp.x.elem in FLOATS and WIDTH[sp.acc] < WIDTH[sp.x.elem]:
            v.append("acc_narrow")
    param_ok = {sp.x.elem, acc_type(sp)}

    axes_ok = True
    if not sp.axes:
        v.append("axes_empty")
        axes_ok = False
    if any(a < 0 or a >= rank for a in sp.axes):
        v.append("axes_range")
        axes_ok = False
    if len(set(sp.axes)) != len(sp.axes):
        v.append("axes_dup")
        axes_ok = False

    if not math.isfinite(sp.eps[1]):
        v.append("eps_nonfinite")
    elif sp.eps[1] < 0:
        v.append("eps_negative")
    elif acc_type(sp) == "f32" and not eps_fits_f32(sp.eps[1]):
        v.append("eps_f32_range")
    if sp.out.elem in FLOATS and acc_type(sp) in WIDTH and \
            WIDTH[sp.out.elem] > WIDTH[acc_type(sp)]:
        v.append("output_wider")

    if not compatible(sp.out.shape, sp.x.shape):
        v.append("output_shape")
    # The extents the operands below are checked against (the verifier
    # stops at the first broken rule; past one, these only need to be
    # defined).
    want, known = known_extents(sp)

    groups_ok = True
    if sp.groups is not None:
        g, d = sp.groups
        if g <= 0:
            v.append("groups_nonpositive")
            groups_ok = False
        if d < 0 or d >= rank:
            v.append("group_dim_range")
            groups_ok = False
        else:
            if d not in sp.axes:
                v.append("group_dim_not_axis")
                groups_ok = False

    affine = sp.affine_dims if not sp.omit_affine_dims else None
    if sp.scale is None and sp.bias is None:
        if affine is not None:
            v.append("affine_without_params")
    elif affine is None:
        v.append("affine_missing")
    else:
        if any(d < 0 or d >= rank for d in affine):
            v.append("affine_range")
        if len(set(affine)) != len(affine):
            v.append("affine_dup")
        for name in ("scale", "bias"):
            p = getattr(sp, name)
            if p is None:
                continue
            if len(p.shape) != len(affine):
                v.append("affine_rank")
            elif not compatible(p.shape, want[name]):
                v.append("affine_extent")
            if p.elem not in param_ok:
                v.append("affine_elem")

    def stat_operand(slot, rule: str):
        t = get_slot(sp, slot)
        if not compatible(t.shape, want[slot]):
            v.append(rule + "_shape")
        if t.elem not in param_ok:
            v.append(rule + "_elem")

    running = sp.rmean is not None
    if sp.mean is not None:
        if sp.mode != "standard":
            v.append("stats_mode")
        if running:
            v.append("stats_running")
        if sp.saved:
            v.append("stats_saved")
        stat_operand("mean", "stats")
        stat_operand("var", "stats")

    if sp.saved_variance and (sp.mode != "standard" or not sp.saved):
        v.append("saved_variance")
    if sp.saved:
        if len(sp.saved) != (2 if sp.mode == "standard" else 1):
            v.append("saved_count")
        for i in range(len(sp.saved)):
            stat_operand(("saved", i), "saved")

    if running:
        if sp.mode != "standard":
            v.append("running_mode")
        if sp.momentum is None:
            v.append("momentum_missing")
        elif not math.isfinite(sp.momentum[1]):
            v.append("momentum_nonfinite")
        elif not 0 <= sp.momentum[1] <= 1:
            v.append("momentum_range")
        if sp.unbiased and axes_ok and groups_ok and \
                static_reduction_size(sp) == 1:
            v.append("unbiased_size1")
        stat_operand("rmean", "running")
        stat_operand("rvar", "running")
    else:
        if sp.momentum is not None:
            v.append("momentum_without_running")
        if sp.unbiased:
            v.append("unbiased_without_running")

    # After all operands: the group dim's known extent holds whole groups.
    if sp.groups is not None:
        g, d = sp.groups
        if g > 0 and 0 <= d < rank and known[d] is not None and known[d] % g:
            v.append("groups_not_divide")

    results = sp.result_types()
    if sp.kind == "tensor":
        inits = sp.inits()
        if len(results) != len(inits):
            v.append("results_count")
        elif results != inits:
            v.append("results_type")
    elif results:
        v.append("results_memref")
    # A rule may be counted twice (scale and bias, mean and variance).
    return sorted(set(v))


# What the verifier says for each rule (only checked with
# --check-diagnostics: a development aid, as messages may change).
DIAGNOSTICS = {
    "operand_kind": r"must be a ranked tensor or a memref|all tensors or all "
                    r"memrefs|expected that operand|number of tensor results"
                    r"|ranked tensor|use of value",
    "input_elem": r"'input' element type",
    "output_elem": r"'output' element type",
    "acc_type": r"'acc' type must be",
    "acc_narrow": r"narrower than the input",
    "axes_empty": r"'axes' must not be empty",
    "axes_range": r"'axes' entry -?\d+ is out of range",
    "axes_dup": r"'axes' contains",
    "eps_nonfinite": r"'epsilon' must be finite",
    "eps_negative": r"'epsilon' must be non-negative",
    "output_shape": r"'output' shape",
    "groups_nonpositive": r"'groups' must be positive",
    "group_dim_range": r"'group_dim' -?\d+ is out of range",
    "group_dim_not_axis": r"must be one of the reduction 'axes'",
    "groups_not_divide": r"must divide the extent",
    "affine_missing": r"'affine_dims' is required",
    "affine_without_params": r"'affine_dims' given without",
    "affine_range": r"'affine_dims' entry",
    "affine_dup": r"'affine_dims' contains",
    "affine_rank": r"must have rank",
    "affine_extent": r"dim \d+ has extent",
    "affine_elem": r"'(scale|bias)' element type",
    "stats_mode": r"given statistics require 'standard' mode",
    "stats_running": r"cannot be combined with 'running'",
    "stats_saved": r"cannot be combined with 'saved'",
    "stats_shape": r"'(mean|variance)' must have the statistics shape",
    "stats_elem": r"'(mean|variance)' element type",
    "saved_count": r"'saved' expects",
    "saved_shape": r"'saved' must have the statistics shape",
    "saved_elem": r"'saved' element type",
    "saved_variance": r"'saved_variance' requires",
    "running_mode": r"'running' statistics require 'standard'",
    "momentum_missing": r"'momentum' is required",
    "momentum_without_running": r"'momentum' given without",
    "momentum_nonfinite": r"'momentum' must be in \[0, 1\]",
    "momentum_range": r"'momentum' must be in \[0, 1\]",
    "eps_f32_range": r"'epsilon' .* is outside what the f32 accumulation "
                     r"represents",
    "output_wider": r"'output' element type .* is wider than the "
                    r"accumulation type",
    "unbiased_without_running": r"'unbiased' given without",
    "unbiased_size1": r"reduction size is 1",
    "running_shape": r"'running_(mean|var)' must have the statistics shape",
    "running_elem": r"'running_(mean|var)' element type",
    "results_count": r"one result per init|number of tensor results",
    "results_type": r"must match its init type|expected type of operand",
    "results_memref": r"no results with memref|number of tensor results",
    "generic_mean_only": r"'mean' and 'variance' must be given together",
    "generic_running_mean_only":
        r"'running_mean' and 'running_var' must be given together",
    "generic_groups_only": r"'groups' and 'group_dim' must be given together",
    "generic_group_dim_only":
        r"'groups' and 'group_dim' must be given together",
    "generic_mode_value": r"'mode' failed to satisfy constraint|"
                          r"attribute `mode`",
    "generic_segments": r"operandSegmentSizes|operand segment|number of "
                        r"operands",
    "generic_axes_type": r"'axes' failed to satisfy constraint|axes",
    "generic_epsilon_type": r"'epsilon' failed to satisfy constraint|epsilon",
}


# ===----------------------------------------------------------------------=== #
# Generation
# ===----------------------------------------------------------------------=== #

def rand_dim(rng: random.Random, dyn_p=0.25) -> Optional[int]:
    r = rng.random()
    if r < dyn_p:
        return None
    if r < dyn_p + 0.02:
        return 0
    return rng.randint(1, 8)


def rand_shape(rng, rank, dyn_p=0.25):
    return tuple(rand_dim(rng, dyn_p) for _ in range(rank))


def pick_acc(rng, in_elem):
    if rng.random() < 0.6:
        return None
    return "f64" if in_elem == "f64" else rng.choice(("f32", "f64"))


def set_affine(rng, sp: Spec, dims, p_scale=0.85, p_bias=0.7):
    sp.has_scale = rng.random() < p_scale
    sp.has_bias = rng.random() < p_bias
    sp.affine_dims = list(dims) if (sp.has_scale or sp.has_bias) else None


def plan_layernorm(rng):
    rank = rng.randint(1, 4)
    k = rng.randint(1, rank)
    sp = Spec("layernorm", in_shape=rand_shape(rng, rank),
              axes=list(range(rank - k, rank)))
    set_affine(rng, sp, sp.axes)
    if rng.random() < 0.3:
        sp.n_saved = 2
        sp.saved_variance = rng.random() < 0.4
    return sp


def plan_rmsnorm(rng):
    rank = rng.randint(1, 4)
    k = rng.randint(1, min(2, rank))
    sp = Spec("rmsnorm", mode="rms", in_shape=rand_shape(rng, rank),
              axes=list(range(rank - k, rank)))
    set_affine(rng, sp, sp.axes, p_scale=0.8, p_bias=0.15)
    sp.n_saved = 1 if rng.random() < 0.3 else 0
    return sp


def channel_layout(rng, min_rank=2, max_rank=5):
    rank = rng.randint(min_rank, max_rank)
    c = 1 if rng.random() < 0.6 else rank - 1
    return rank, c


def plan_bn_infer(rng):
    rank, c = channel_layout(rng)
    sp = Spec("batchnorm-inference", in_shape=rand_shape(rng, rank),
              axes=[d for d in range(rank) if d != c], has_stats=True)
    set_affine(rng, sp, [c])
    return sp


def plan_bn_train(rng):
    rank, c = channel_layout(rng)
    sp = Spec("batchnorm-training", in_shape=rand_shape(rng, rank),
              axes=[d for d in range(rank) if d != c], has_running=True,
              momentum=rng.choice(MOMENTUM_VALID),
              unbiased=rng.random() < 0.5)
    set_affine(rng, sp, [c])
    if rng.random() < 0.5:
        sp.n_saved = 2
        sp.saved_variance = rng.random() < 0.5
    return sp


def plan_instancenorm(rng):
    rank = rng.randint(3, 5)
    sp = Spec("instancenorm", in_shape=rand_shape(rng, rank),
              axes=list(range(2, rank)))
    set_affine(rng, sp, [1])
    r = rng.random()
    if r < 0.25:
        sp.n_saved = 2
    elif r < 0.4:
        sp.has_stats = True
    return sp


def plan_groupnorm(rng):
    rank = rng.randint(2, 5)
    last = rank > 2 and rng.random() < 0.4
    c = rank - 1 if last else 1
    shape = list(rand_shape(rng, rank))
    g = rng.randint(1, 4)
    if rng.random() < 0.25:
        shape[c] = None
        if rng.random() < 0.1:
            g = 2 ** 63 - 1            # any G goes with a dynamic extent
    else:
        shape[c] = g * rng.randint(1, 4)
    sp = Spec("groupnorm-nhwc" if last else "groupnorm-nchw",
              in_shape=tuple(shape), axes=list(range(1, rank)),
              groups=(g, c))
    set_affine(rng, sp, [c])
    if rng.random() < 0.3:
        sp.n_saved = 2
    return sp


def plan_l2(rng):
    rank = rng.randint(1, 4)
    axes = rng.sample(range(rank), rng.randint(1, rank))
    sp = Spec("l2", mode="l2", in_shape=rand_shape(rng, rank), axes=axes)
    if rng.random() < 0.3:
        dims = rng.sample(range(rank), rng.randint(0, rank))
        set_affine(rng, sp, dims, p_scale=0.9, p_bias=0.3)
    sp.n_saved = 1 if rng.random() < 0.3 else 0
    return sp


def plan_weightnorm(rng):
    rank = rng.randint(2, 4)
    sp = Spec("weightnorm", mode="l2", in_shape=rand_shape(rng, rank),
              axes=list(range(1, rank)), has_scale=True, affine_dims=[0])
    sp.n_saved = 1 if rng.random() < 0.3 else 0
    return sp


def plan_random(rng):
    rank = rng.randint(1, 5)
    sp = Spec("random", mode=rng.choice(MODES),
              in_shape=rand_shape(rng, rank),
              axes=rng.sample(range(rank), rng.randint(1, rank)))
    if rng.random() < 0.25:
        d = rng.choice(sp.axes)
        g = rng.randint(1, 4)
        shape = list(sp.in_shape)
        if shape[d] is not None:
            shape[d] = g * rng.randint(0 if rng.random() < 0.1 else 1, 3)
        sp.in_shape = tuple(shape)
        sp.groups = (g, d)
    if rng.random() < 0.5:
        dims = rng.sample(range(rank), rng.randint(0, rank))
        set_affine(rng, sp, dims)
    if sp.mode == "standard":
        r = rng.random()
        if r < 0.2:
            sp.has_stats = True
        elif r < 0.5:
            sp.has_running = True
            sp.momentum = rng.choice(MOMENTUM_VALID)
            sp.unbiased = rng.random() < 0.5
        if not sp.has_stats and rng.random() < 0.4:
            sp.n_saved = 2
            sp.saved_variance = rng.random() < 0.4
    elif rng.random() < 0.4:
        sp.n_saved = 1
    return sp


PLANNERS = [(plan_layernorm, 3), (plan_rmsnorm, 2), (plan_bn_infer, 2),
            (plan_bn_train, 2), (plan_instancenorm, 1), (plan_groupnorm, 2),
            (plan_l2, 1), (plan_weightnorm, 1), (plan_random, 4)]


def make_plan(rng) -> Spec:
    planners, weights = zip(*PLANNERS)
    sp = rng.choices(planners, weights)[0](rng)
    if rng.random() < 0.2:
        sp.kind = "memref"
    sp.in_elem = rng.choice(FLOATS)
    sp.acc = pick_acc(rng, sp.in_elem)
    acc = acc_type(sp)
    sp.out_elem = sp.in_elem if rng.random() < 0.6 else rng.choice(
        [e for e in FLOATS if WIDTH[e] <= WIDTH[acc]])
    sp.eps = rng.choice([e for e in EPS_VALID
                         if acc == "f64" or eps_fits_f32(e[1])])
    if rng.random() < 0.3:
        rng.shuffle(sp.axes)      # canonicalization sorts them
    if sp.unbiased and static_reduction_size(sp) == 1:
        sp.unbiased = False
    if rng.random() < 0.05:
        sp.attr_extra = f"fuzz_tag = {rng.randint(0, 99)} : i64"
    if sp.kind == "tensor" and (sp.has_scale or sp.has_bias) and \
            rng.random() < 0.15:
        sp.const_affine = True
    return sp


def relax(rng, shape, p=0.2, fill=None):
    """A shape compatible with `shape`: some static dims made dynamic and
    some dynamic ones made static, dim i to fill[i] (a random extent without
    `fill`; kept dynamic where fill[i] is None)."""
    out = []
    for i, d in enumerate(shape):
        if rng.random() < p:
            if d is not None:
                d = None
            elif fill is None:
                d = rng.randint(1, 8)
            else:
                d = fill[i]
        out.append(d)
    return tuple(out)


def hidden_fill(sp: Spec, dims) -> List[Optional[int]]:
    """The hidden extents behind operand dims `dims` (input dims or None)."""
    return [None if d is None or not 0 <= d < sp.rank else sp.hidden[d]
            for d in dims]


def draw_hidden(rng, sp: Spec) -> List[Optional[int]]:
    """One extent per input dim that the operands may make static: the
    input's own, else a random one (a multiple of G for the group dim), or
    None (every operand keeps the dim dynamic)."""
    g = sp.groups
    hidden = []
    for d, e in enumerate(sp.in_shape):
        if e is None:
            if g is not None and d == g[1] and g[0] > 0:
                e = g[0] * rng.randint(1, 8 // g[0]) if g[0] <= 8 else None
            elif rng.random() < 0.85:
                e = rng.randint(1, 8)
        hidden.append(e)
    return hidden


def materialize(rng, sp: Spec):
    kind = sp.kind
    allowed = sp.param_elems or tuple(sorted({sp.in_elem, acc_type(sp)}))
    sp.hidden = draw_hidden(rng, sp)

    def param(shape, dims):
        return T(kind, relax(rng, shape, fill=hidden_fill(sp, dims)),
                 rng.choice(allowed))

    sp.x = T(kind, tuple(sp.in_shape), sp.in_elem)
    sp.out = T(kind, relax(rng, sp.in_shape,
                           fill=hidden_fill(sp, range(sp.rank))),
               sp.out_elem)
    in_shape = sp.in_shape

    def affine_shape():
        return [in_shape[d] if 0 <= d < sp.rank else rng.randint(1, 8)
                for d in sp.affine_dims]

    if sp.const_affine:
        # Constants need static shapes (the hidden extents); the value
        # decides whether the canonicalizer may drop the operand.
        shape = tuple(d if d is not None else h for d, h in
                      zip(affine_shape(), hidden_fill(sp, sp.affine_dims)))
        if None in shape:
            sp.const_affine = False       # no static extent fits
        else:
            elem = rng.choice(allowed)
            sp.scale = T(kind, shape, elem) if sp.has_scale else None
            sp.bias = T(kind, shape, elem) if sp.has_bias else None
    if not sp.const_affine:
        dims = [d if 0 <= d < sp.rank else None for d in sp.affine_dims] \
            if sp.affine_dims is not None else []
        sp.scale = param(affine_shape(), dims) if sp.has_scale else None
        sp.bias = param(affine_shape(), dims) if sp.has_bias else None
    S, dims = stats_shape(sp), stat_dims(sp)
    if sp.has_stats:
        sp.mean, sp.var = param(S, dims), param(S, dims)
    sp.saved = [param(S, dims) for _ in range(sp.n_saved)]
    if sp.has_running:
        sp.rmean, sp.rvar = param(S, dims), param(S, dims)


# --- Mutations: each breaks one rule; returns False when not applicable. ---

def stat_free(sp):
    """No operand has the statistics shape."""
    return not (sp.has_stats or sp.n_saved or sp.has_running)


def other_floats(*keep):
    return [e for e in FLOATS if e not in keep]


def m_input_elem(rng, sp):
    sp.acc = None
    sp.in_elem = rng.choice(BAD_ELEMS)
    sp.param_elems = ("f32",)
    return True


def m_output_elem(rng, sp):
    sp.out_elem = rng.choice(BAD_ELEMS)
    return True


def m_acc_type(rng, sp):
    sp.acc = rng.choice(("f16", "bf16", "tf32", "i32", "index", "i64",
                         "f8E4M3FN", "f80", "f128"))
    sp.param_elems = (sp.in_elem,)
    return True


def m_acc_narrow(rng, sp):
    sp.in_elem, sp.acc = "f64", "f32"
    sp.param_elems = ("f64",)
    return True


def m_axes_empty(rng, sp):
    if not stat_free(sp) or sp.groups:
        return False
    sp.axes = []
    return True


def m_axes_range(rng, sp):
    if sp.unbiased:
        return False
    bad = rng.choice([sp.rank, sp.rank + rng.randint(1, 5), -1,
                      -rng.randint(2, 9), 2 ** 62])
    sp.axes.insert(rng.randint(0, len(sp.axes)), bad)
    return True


def m_axes_dup(rng, sp):
    if sp.unbiased:
        return False
    sp.axes.insert(rng.randint(0, len(sp.axes)), rng.choice(sp.axes))
    return True


def m_eps_negative(rng, sp):
    sp.eps = rng.choice(EPS_NEGATIVE)
    return True


def m_eps_nonfinite(rng, sp):
    sp.eps = rng.choice(NONFINITE)
    return True


def add_groups(rng, sp, g=None, d=None):
    if sp.groups is None:
        d = rng.choice(sp.axes) if d is None else d
        g = 1 if g is None else g
        sp.groups = (g, d)


def m_groups_nonpositive(rng, sp):
    if sp.unbiased:
        return False
    g = 0 if not stat_free(sp) or rng.random() < 0.5 else -rng.randint(1, 4)
    if sp.groups is None:
        add_groups(rng, sp)
    sp.groups = (g, sp.groups[1])
    return True


def m_group_dim_range(rng, sp):
    if sp.unbiased:
        return False
    d = rng.choice([sp.rank, sp.rank + 3, -1, -4])
    g = sp.groups[0] if sp.groups else rng.randint(1, 4)
    sp.groups = (g, d)
    return True


def m_group_dim_not_axis(rng, sp):
    free = [d for d in range(sp.rank) if d not in sp.axes]
    if not free or sp.unbiased:
        return False
    d = rng.choice(free)
    e = sp.in_shape[d]
    if e is None:
        g = rng.randint(1, 5)
    else:
        g = rng.choice([x for x in range(1, 9) if e % x == 0])
    sp.groups = (g, d)
    return True


def m_groups_not_divide(rng, sp):
    if sp.unbiased:
        return False
    d = sp.groups[1] if sp.groups else rng.choice(sp.axes)
    shape = list(sp.in_shape)
    if shape[d] is None or shape[d] == 0:
        shape[d] = rng.randint(1, 8)
    e = shape[d]
    sp.in_shape = tuple(shape)
    sp.groups = (rng.choice([x for x in range(2, 10) if e % x]), d)
    return True


def m_affine_missing(rng, sp):
    if not (sp.has_scale or sp.has_bias):
        set_affine(rng, sp, rng.sample(range(sp.rank),
                                       rng.randint(1, sp.rank)), 1.0, 0.5)
    sp.omit_affine_dims = True
    return True


def m_affine_without_params(rng, sp):
    sp.has_scale = sp.has_bias = sp.const_affine = False
    sp.affine_dims = rng.sample(range(sp.rank), rng.randint(0, sp.rank))
    return True


def m_affine_range(rng, sp):
    if not (sp.has_scale or sp.has_bias):
        set_affine(rng, sp, [], 1.0, 0.5)
    bad = rng.choice([sp.rank, sp.rank + 2, -1, -3])
    sp.affine_dims.insert(rng.randint(0, len(sp.affine_dims)), bad)
    return True


def m_affine_dup(rng, sp):
    if not (sp.has_scale or sp.has_bias) or not sp.affine_dims:
        return False
    sp.affine_dims.insert(rng.randint(0, len(sp.affine_dims)),
                          rng.choice(sp.affine_dims))
    return True


def m_stats_mode(rng, sp):
    if sp.has_running:
        return False
    sp.mode = rng.choice(("rms", "l2"))
    sp.has_stats = True
    sp.n_saved = 0
    sp.saved_variance = False
    return True


def m_stats_running(rng, sp):
    if sp.mode != "standard":
        return False
    sp.has_stats = sp.has_running = True
    sp.n_saved, sp.saved_variance = 0, False
    sp.momentum = sp.momentum or rng.choice(MOMENTUM_VALID)
    sp.unbiased = False
    return True


def m_stats_saved(rng, sp):
    if sp.mode != "standard" or sp.has_running:
        return False
    sp.has_stats = True
    sp.n_saved = 2
    return True


def m_saved_count(rng, sp):
    if sp.has_stats:
        return False
    sp.n_saved = rng.choice((1, 3) if sp.mode == "standard" else (2, 3))
    return True


def m_saved_variance(rng, sp):
    if sp.mode == "standard":
        sp.n_saved = 0
    elif rng.random() < 0.5:
        sp.n_saved = 1
    sp.saved_variance = True
    return True


def m_running_mode(rng, sp):
    if sp.has_stats:
        return False
    sp.mode = rng.choice(("rms", "l2"))
    sp.n_saved = min(sp.n_saved, 1)
    sp.saved_variance = False
    sp.has_running = True
    sp.momentum = sp.momentum or rng.choice(MOMENTUM_VALID)
    return True


def m_momentum_missing(rng, sp):
    if not sp.has_running:
        return False
    sp.momentum = None
    return True


def m_momentum_without_running(rng, sp):
    if sp.has_running or sp.unbiased:
        return False
    sp.momentum = rng.choice(MOMENTUM_VALID + NONFINITE)
    return True


def m_momentum_nonfinite(rng, sp):
    if not sp.has_running:
        return False
    sp.momentum = rng.choice(NONFINITE)
    return True


def m_momentum_range(rng, sp):
    if not sp.has_running:
        return False
    sp.momentum = rng.choice(MOMENTUM_RANGE)
    return True


def m_eps_f32_range(rng, sp):
    if acc_type(sp) != "f32":
        return False
    sp.eps = rng.choice(EPS_F32_RANGE)
    return True


def m_output_wider(rng, sp):
    if acc_type(sp) != "f32":
        return False
    sp.out_elem = "f64"
    return True


def m_unbiased_without_running(rng, sp):
    if sp.has_running or sp.momentum:
        return False
    sp.unbiased = True
    return True


def m_unbiased_size1(rng, sp):
    if not sp.has_running or sp.mode != "standard":
        return False
    shape = list(sp.in_shape)
    for a in sp.axes:
        shape[a] = sp.groups[0] if sp.groups and sp.groups[1] == a else 1
    sp.in_shape = tuple(shape)
    sp.unbiased = True
    return True


def m_results_memref(rng, sp):
    if sp.kind != "memref":
        return False
    sp.memref_results = True             # resolved after materialization
    return True


PLAN_MUTATIONS = {
    "input_elem": m_input_elem, "output_elem": m_output_elem,
    "acc_type": m_acc_type, "acc_narrow": m_acc_narrow,
    "axes_empty": m_axes_empty, "axes_range": m_axes_range,
    "axes_dup": m_axes_dup, "eps_negative": m_eps_negative,
    "eps_nonfinite": m_eps_nonfinite,
    "groups_nonpositive": m_groups_nonpositive,
    "group_dim_range": m_group_dim_range,
    "group_dim_not_axis": m_group_dim_not_axis,
    "groups_not_divide": m_groups_not_divide,
    "affine_missing": m_affine_missing,
    "affine_without_params": m_affine_without_params,
    "affine_range": m_affine_range, "affine_dup": m_affine_dup,
    "stats_mode": m_stats_mode, "stats_running": m_stats_running,
    "stats_saved": m_stats_saved, "saved_count": m_saved_count,
    "saved_variance": m_saved_variance, "running_mode": m_running_mode,
    "momentum_missing": m_momentum_missing,
    "momentum_without_running": m_momentum_without_running,
    "momentum_nonfinite": m_momentum_nonfinite,
    "momentum_range": m_momentum_range,
    "eps_f32_range": m_eps_f32_range, "output_wider": m_output_wider,
    "unbiased_without_running": m_unbiased_without_running,
    "unbiased_size1": m_unbiased_size1,
    "results_memref": m_results_memref,
}


def break_shape(rng, t: T, ref, fill) -> Optional[T]:
    """A shape incompatible with `ref` (dynamic dims made static: to
    `fill`, see `relax`)."""
    choices = ["rank"]
    static = [i for i, d in enumerate(ref) if d is not None]
    if static:
        choices += ["extent", "extent"]
    how = rng.choice(choices)
    if how == "rank":
        shape = list(relax(rng, ref, fill=fill))
        if shape and rng.random() < 0.5:
            del shape[rng.randrange(len(shape))]
        else:
            shape.insert(rng.randint(0, len(shape)), rand_dim(rng))
    else:
        shape = list(relax(rng, ref, fill=fill))
        i = rng.choice(static)
        shape[i] = rng.choice([e for e in range(0, 10) if e != ref[i]])
    return replace(t, shape=tuple(shape))


def t_operand_kind(rng, sp):
    slots = ["x", "scale", "bias", "mean", "var", "out", "rmean", "rvar"]
    slots = [s for s in slots if getattr(sp, s) is not None]
    slots += [("saved", i) for i in range(len(sp.saved))]
    slot = rng.choice(slots)
    t = getattr(sp, slot) if isinstance(slot, str) else sp.saved[slot[1]]
    how = rng.choice(("mix", "mix", "unranked", "vector"))
    if how == "mix":
        nt = replace(t, kind="memref" if t.kind == "tensor" else "tensor")
    elif how == "unranked":
        nt = replace(t, kind="u" + t.kind)
    else:
        nt = T("vector", tuple(d if d else 2 for d in t.shape), t.elem)
    if isinstance(slot, str):
        setattr(sp, slot, nt)
    else:
        sp.saved[slot[1]] = nt
    return True


def t_output_shape(rng, sp):
    sp.out = break_shape(rng, sp.out, sp.in_shape,
                         hidden_fill(sp, range(sp.rank)))
    return True


def t_affine(kind):
    def mutate(rng, sp):
        names = [n for n in ("scale", "bias") if getattr(sp, n) is not None]
        if not names or sp.omit_affine_dims or sp.affine_dims is None:
            return False
        name = rng.choice(names)
        t = getattr(sp, name)
        if kind == "rank":
            shape = list(t.shape)
            if shape and rng.random() < 0.5:
                del shape[rng.randrange(len(shape))]
            else:
                shape.insert(rng.randint(0, len(shape)), rand_dim(rng))
            nt = replace(t, shape=tuple(shape))
        elif kind == "extent":
            pairs = [(i, d) for i, d in enumerate(sp.affine_dims)
                     if sp.in_shape[d] is not None]
            if not pairs:
                return False
            i, d = rng.choice(pairs)
            shape = list(t.shape)
            shape[i] = rng.choice([e for e in range(10)
                                   if e != sp.in_shape[d]])
            nt = replace(t, shape=tuple(shape))
        else:
            nt = replace(t, elem=rng.choice(
                other_floats(sp.in_elem, acc_type(sp)) + list(BAD_ELEMS)))
        if sp.const_affine and kind == "elem" and nt.elem not in FLOATS:
            return False         # dense<1.0> would not parse
        setattr(sp, name, nt)
        return True
    return mutate


def t_stat(group, kind):
    def mutate(rng, sp):
        if group == "stats":
            slots = ["mean", "var"] if sp.mean is not None else []
        elif group == "running":
            slots = ["rmean", "rvar"] if sp.rmean is not None else []
        else:
            slots = [("saved", i) for i in range(len(sp.saved))]
        if not slots:
            return False
        slot = rng.choice(slots)
        t = getattr(sp, slot) if isinstance(slot, str) \
            else sp.saved[slot[1]]
        if kind == "shape":
            # Against the statistics shape from the known extents.
            nt = break_shape(rng, t, known_extents(sp)[0][slot],
                             hidden_fill(sp, stat_dims(sp)))
        else:
            nt = replace(t, elem=rng.choice(
                other_floats(sp.in_elem, acc_type(sp)) + list(BAD_ELEMS)))
        if isinstance(slot, str):
            setattr(sp, slot, nt)
        else:
            sp.saved[slot[1]] = nt
        return True
    return mutate


def with_dim(t: T, i: int, e: Optional[int]) -> T:
    shape = list(t.shape)
    shape[i] = e
    return replace(t, shape=tuple(shape))


def carriers(sp: Spec) -> list:
    """The operands indexed by input dims, in verifier order."""
    slots = ["out"]
    if sp.affine_dims is not None and not sp.omit_affine_dims:
        slots += [n for n in ("scale", "bias") if getattr(sp, n) is not None]
    return slots + stat_slots(sp)


def slot_group(slot) -> str:
    if slot in ("scale", "bias"):
        return "affine"
    if slot in ("mean", "var"):
        return "stats"
    if slot in ("rmean", "rvar"):
        return "running"
    return "out" if slot == "out" else "saved"


def t_extent_conflict(group):
    """Two static extents for one dynamic input dim: an operand of `group`
    names another extent than an earlier operand (made static here if no
    earlier one is) for the same dim."""
    def mutate(rng, sp):
        order = carriers(sp)
        targets = [(k, slot, i, d) for k, slot in enumerate(order)
                   if slot_group(slot) == group
                   for i, d in enumerate(slot_dims(sp, slot))
                   if d is not None and sp.in_shape[d] is None]
        if not targets:
            return False
        k, slot, i, d = rng.choice(targets)
        e = known_extents(sp)[0][slot][i]
        if e is None:
            earlier = [(s, j) for s in order[:k]
                       for j, dd in enumerate(slot_dims(sp, s)) if dd == d]
            e = sp.hidden[d]
            if e is None:
                g = sp.groups
                if g is not None and d == g[1]:
                    return False      # no extent G divides in reach
                e = rng.randint(1, 8)
            s, j = rng.choice(earlier)
            set_slot(sp, s, with_dim(get_slot(sp, s), j, e))
        set_slot(sp, slot, with_dim(get_slot(sp, slot), i,
                                    rng.choice([x for x in range(10)
                                                if x != e])))
        return True
    return mutate


def t_groups_not_divide_conflict(rng, sp):
    """The group dim is dynamic in the input; output, scale or bias (some
    of them, the others dynamic) make it static with an extent `groups`
    does not divide."""
    if sp.groups is None:
        return False
    g, d = sp.groups
    if g <= 1 or not 0 <= d < sp.rank or sp.in_shape[d] is not None:
        return False
    dims = [(s, i) for s in carriers(sp)
            for i, dd in enumerate(slot_dims(sp, s)) if dd == d]
    e = rng.choice([x for x in range(1, 10) if x % g])
    chosen = {rng.choice(dims)}
    chosen |= {c for c in dims if rng.random() < 0.4}
    for s, i in dims:
        set_slot(sp, s, with_dim(get_slot(sp, s), i,
                                 e if (s, i) in chosen else None))
    return True


def t_results_count(rng, sp):
    if sp.kind != "tensor":
        return False
    res = list(sp.inits())
    r = rng.random()
    if r < 0.3:
        res = []
    elif r < 0.65:
        res.pop(rng.randrange(len(res)))
    else:
        res.insert(rng.randint(0, len(res)), rng.choice(sp.inits()))
    sp.results = res
    return True


def t_results_type(rng, sp):
    if sp.kind != "tensor":
        return False
    res = list(sp.inits())
    i = rng.randrange(len(res))
    t = res[i]
    how = rng.choice(("dim", "elem", "rank"))
    if how == "dim" and t.shape:
        j = rng.randrange(len(t.shape))
        shape = list(t.shape)
        shape[j] = None if shape[j] is not None else rng.randint(1, 8)
        res[i] = replace(t, shape=tuple(shape))
    elif how == "rank":
        res[i] = replace(t, shape=t.shape + (rng.randint(1, 8),))
    else:
        res[i] = replace(t, elem=rng.choice(other_floats(t.elem)))
    sp.results = res
    return True


TYPE_MUTATIONS = {
    "operand_kind": t_operand_kind, "output_shape": t_output_shape,
    "affine_rank": t_affine("rank"), "affine_extent": t_affine("extent"),
    "affine_elem": t_affine("elem"),
    "stats_shape": t_stat("stats", "shape"),
    "stats_elem": t_stat("stats", "elem"),
    "saved_shape": t_stat("saved", "shape"),
    "saved_elem": t_stat("saved", "elem"),
    "running_shape": t_stat("running", "shape"),
    "running_elem": t_stat("running", "elem"),
    "results_count": t_results_count, "results_type": t_results_type,
    # Conflicting static extents through a dynamic input dim.
    "affine_extent_conflict": t_extent_conflict("affine"),
    "stats_shape_conflict": t_extent_conflict("stats"),
    "saved_shape_conflict": t_extent_conflict("saved"),
    "running_shape_conflict": t_extent_conflict("running"),
    "groups_not_divide_conflict": t_groups_not_divide_conflict,
}

# The rule a mutation breaks, where its name is not the rule.
MUTATION_RULE = {
    "affine_extent_conflict": "affine_extent",
    "stats_shape_conflict": "stats_shape",
    "saved_shape_conflict": "saved_shape",
    "running_shape_conflict": "running_shape",
    "groups_not_divide_conflict": "groups_not_divide",
}

GENERIC_HACKS = ["generic_mean_only", "generic_running_mean_only",
                 "generic_groups_only", "generic_group_dim_only",
                 "generic_mode_value", "generic_segments",
                 "generic_axes_type", "generic_epsilon_type"]


# ===----------------------------------------------------------------------=== #
# Rendering
# ===----------------------------------------------------------------------=== #

def operand_list(sp: Spec):
    """(name, type) in operand order."""
    ops = [("x", sp.x)]
    for name in ("scale", "bias", "mean", "var"):
        t = getattr(sp, name)
        if t is not None:
            ops.append((name, t))
    ops.append(("o", sp.out))
    ops += [(f"s{i}", t) for i, t in enumerate(sp.saved)]
    if sp.rmean is not None:
        ops.append(("rm", sp.rmean))
    if sp.rvar is not None:
        ops.append(("rv", sp.rvar))
    return ops


def dense_value(t: T, splat: float) -> str:
    return f"arith.constant dense<{splat!r}> : {t.render()}"


def render(sp: Spec, rng: random.Random) -> str:
    ops = operand_list(sp)
    results = sp.result_types()
    consts = {}
    if sp.const_affine:
        # Ones and zeros are dropped by canonicalization, others kept.
        if sp.scale is not None:
            consts["scale"] = rng.choice((1.0, 1.0, 2.0))
        if sp.bias is not None:
            consts["bias"] = rng.choice((0.0, 0.0, 0.5))
    args = ", ".join(f"%{n}: {t.render()}" for n, t in ops if n not in consts)
    fret = ", ".join(t.render() for t in results)
    sig = f" -> ({fret})" if results else ""
    lines = [f"func.func @f({args}){sig} {{"]
    for n, v in consts.items():
        lines.append(f"  %{n} = {dense_value(getattr(sp, n), v)}")
    if results:
        lhs = "%r = " if len(results) == 1 else f"%r:{len(results)} = "
    else:
        lhs = ""
    if sp.form == "generic":
        lines.append("  " + lhs + render_generic_op(sp, ops, results))
    else:
        lines.append("  " + lhs + render_custom_op(sp, results))
    if len(results) == 1:
        lines.append(f"  return %r : {fret}")
    elif results:
        vals = ", ".join(f"%r#{i}" for i in range(len(results)))
        lines.append(f"  return {vals} : {fret}")
    else:
        lines.append("  return")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_custom_op(sp: Spec, results) -> str:
    axes = ", ".join(map(str, sp.axes))
    s = f"norm.normalize {sp.mode} axes = [{axes}] epsilon = {sp.eps[0]}"
    if sp.groups is not None:
        s += f" groups = {sp.groups[0]} on {sp.groups[1]}"
    if sp.momentum is not None:
        s += f" momentum = {sp.momentum[0]}"
    if sp.unbiased:
        s += " unbiased"
    if sp.saved_variance:
        s += " saved_variance"
    if sp.acc is not None:
        s += f" acc = {sp.acc}"
    if sp.attr_extra:
        s += f" {{{sp.attr_extra}}}"
    s += f"\n      ins(%x : {sp.x.render()})"
    if sp.scale is not None:
        s += f" scale(%scale : {sp.scale.render()})"
    if sp.bias is not None:
        s += f" bias(%bias : {sp.bias.render()})"
    if sp.affine_dims is not None and not sp.omit_affine_dims:
        s += " affine_dims = [" + ", ".join(map(str, sp.affine_dims)) + "]"
    if sp.mean is not None:
        s += (f"\n      stats(%mean, %var : {sp.mean.render()}, "
              f"{sp.var.render()})")
    s += f"\n      outs(%o : {sp.out.render()})"
    if sp.saved:
        names = ", ".join(f"%s{i}" for i in range(len(sp.saved)))
        types = ", ".join(t.render() for t in sp.saved)
        s += f" saved({names} : {types})"
    if sp.rmean is not None:
        s += (f"\n      running(%rm, %rv : {sp.rmean.render()}, "
              f"{sp.rvar.render()})")
    if results:
        s += "\n      -> " + ", ".join(t.render() for t in results)
    return s


def render_generic_op(sp: Spec, ops, results) -> str:
    hack = sp.hack
    props = []
    if sp.affine_dims is not None and not sp.omit_affine_dims:
        props.append("affine_dims = array<i64" + "".join(
            (": " if i == 0 else ", ") + str(d)
            for i, d in enumerate(sp.affine_dims)) + ">")
    if sp.acc is not None:
        props.append(f"acc_type = {sp.acc}")
    if hack == "generic_axes_type":
        props.append("axes = [" + ", ".join(map(str, sp.axes)) + "]")
    else:
        props.append("axes = array<i64" + "".join(
            (": " if i == 0 else ", ") + str(a)
            for i, a in enumerate(sp.axes)) + ">")
    eps_type = "f32" if hack == "generic_epsilon_type" else "f64"
    props.append(f"epsilon = {sp.eps[0]} : {eps_type}")
    if sp.groups is not None and hack != "generic_groups_only":
        props.append(f"group_dim = {sp.groups[1]} : i64")
    if sp.groups is not None and hack != "generic_group_dim_only":
        props.append(f"groups = {sp.groups[0]} : i64")
    mode = 3 if hack == "generic_mode_value" else MODE_VALUE[sp.mode]
    props.append(f"mode = {mode} : i32")
    if sp.momentum is not None:
        props.append(f"momentum = {sp.momentum[0]} : f64")
    present = {n for n, _ in ops}
    seg = [1, int("scale" in present), int("bias" in present),
           int("mean" in present), int("var" in present), 1, len(sp.saved),
           int("rm" in present), int("rv" in present)]
    names = [n for n, _ in ops]
    types = [t for _, t in ops]
    if hack == "generic_mean_only":
        i = names.index("var")
        del names[i], types[i]
        seg[4] = 0
    if hack == "generic_running_mean_only":
        i = names.index("rv")
        del names[i], types[i]
        seg[8] = 0
    if hack == "generic_segments":
        seg[0] = 2
    props.append("operandSegmentSizes = array<i32: " +
                 ", ".join(map(str, seg)) + ">")
    if sp.saved_variance:
        props.append("saved_variance")
    if sp.unbiased:
        props.append("unbiased")
    extra = f" {{{sp.attr_extra}}}" if sp.attr_extra else ""
    operands = ", ".join(f"%{n}" for n in names)
    otypes = ", ".join(t.render() for t in types)
    rtypes = ", ".join(t.render() for t in results)
    return (f'"norm.normalize"({operands}) <{{{", ".join(props)}}}>{extra}'
            f"\n      : ({otypes}) -> ({rtypes})")


# Structurally malformed text: (name, transformation of valid custom text).
MALFORMED = [
    ("no_outs", lambda s: re.sub(r"\n\s*outs\(%o : [^)]*\)", "", s)),
    ("no_ins", lambda s: re.sub(r"\n\s*ins\(%x : [^)]*\)", "", s)),
    ("bad_mode", lambda s: re.sub(r"normalize \w+", "normalize batch", s)),
    ("axis_keyword", lambda s: s.replace(" axes = ", " axis = ")),
    ("no_epsilon", lambda s: re.sub(r" epsilon = \S+", "", s)),
    ("int_epsilon", lambda s: re.sub(r"epsilon = \S+", "epsilon = 1", s)),
    ("exp_only_epsilon",
     lambda s: re.sub(r"epsilon = \S+", "epsilon = 1e-05", s)),
    ("bad_op_name", lambda s: s.replace("norm.normalize", "norm.normalise")),
    ("ins_keyword", lambda s: s.replace("ins(%x", "input(%x")),
    ("unbalanced", lambda s: s.replace("ins(%x :", "ins(%x :(", 1)),
    ("groups_no_on", lambda s: re.sub(r"(epsilon = \S+)", r"\1 groups = 2",
                                      s)),
    ("axes_not_list", lambda s: re.sub(r"axes = \[[^\]]*\]", "axes = 1", s)),
    ("axes_overflow", lambda s: re.sub(r"axes = \[", "axes = "
                                       "[99999999999999999999, ", s)),
    ("wrong_operand_type",
     lambda s: re.sub(r"ins\(%x : [^)]*\)", "ins(%x : tensor<3x5x7xi1>)", s)),
    ("undefined_value", lambda s: s.replace("ins(%x ", "ins(%nope ")),
    ("truncated", lambda s: s[: len(s) * 2 // 3]),
    ("keyword_order", lambda s: re.sub(r"(epsilon = \S+)",
                                       r"unbiased \1", s)),
    ("duplicate_unit", lambda s: re.sub(r"(epsilon = \S+)",
                                        r"\1 saved_variance saved_variance",
                                        s)),
    ("empty_saved", lambda s: re.sub(r"(outs\(%o : [^)]*\))", r"\1 saved()",
                                     s)),
    ("stats_one_value",
     lambda s: re.sub(r"(ins\(%x : ([^)]*)\))",
                      r"\1 stats(%x : \2)", s)),
    ("dangling_arrow", lambda s: re.sub(r"(outs\(%o : [^)]*\))",
                                        r"\1 ->", s)
     if "\n      -> " not in s else s.replace("\n      -> ", "\n      -> ,")),
    ("groups_overflow", lambda s: re.sub(
        r"(epsilon = \S+)", r"\1 groups = 99999999999999999999 on 1", s)),
    ("bias_before_scale", lambda s: re.sub(
        r"(scale\(%scale : [^)]*\)) (bias\(%bias : [^)]*\))", r"\2 \1", s)),
    ("two_inputs", lambda s: s.replace("ins(%x :", "ins(%x, %x :", 1)),
]


# ===----------------------------------------------------------------------=== #
# Spec generation driver
# ===----------------------------------------------------------------------=== #

@dataclass
class Case:
    index: int
    spec: Spec
    text: str

    @property
    def valid(self):
        return self.spec.valid

    def label(self) -> str:
        sp = self.spec
        what = "valid" if sp.valid else f"invalid, breaks '{sp.rule}'"
        if sp.mutation:
            what += f" ({sp.mutation})"
        return (f"spec #{self.index} ({sp.variant}, {sp.kind}, {sp.form} "
                f"form, {what})")


def generate(rng: random.Random, index: int) -> Case:
    r = rng.random()
    if r < 0.62:
        want = None
    elif r < 0.66:
        want = "malformed"
    elif r < 0.70:
        want = "generic"
    else:
        want = "rule"
    # Pick the rule (or breakage) first and retry plans until it applies,
    # so rules with narrow preconditions are drawn as often as the others.
    mutation = hack = malformed = None
    if want == "rule":
        mutation = rng.choice(list(PLAN_MUTATIONS) + list(TYPE_MUTATIONS))
    elif want == "generic":
        hack = rng.choice(GENERIC_HACKS)
    elif want == "malformed":
        malformed = rng.choice(MALFORMED)
    for attempt in range(1000):
        sp = make_plan(rng)
        sp.form = "generic" if rng.random() < 0.15 else "custom"
        if mutation in PLAN_MUTATIONS and \
                not PLAN_MUTATIONS[mutation](rng, sp):
            continue
        if want is not None:
            sp.const_affine = False
        materialize(rng, sp)
        if sp.memref_results:
            sp.results = [replace(t, kind="tensor") for t in sp.inits()]
        if mutation in TYPE_MUTATIONS and \
                not TYPE_MUTATIONS[mutation](rng, sp):
            continue
        if want is None:
            found = violations(sp)
            if found:
                raise AssertionError(f"generator bug: valid spec breaks "
                                     f"{found}: {sp}")
            why = extent_conflict(sp)
            if why:
                raise AssertionError(f"generator bug: valid spec has "
                                     f"conflicting extents ({why}): {sp}")
            return Case(index, sp, render(sp, rng))
        if want == "rule":
            rule = MUTATION_RULE.get(mutation, mutation)
            found = violations(sp)
            if found != [rule]:
                continue      # the mutation broke more (or less): retry
            if mutation in MUTATION_RULE and not extent_conflict(sp):
                raise AssertionError(f"generator bug: {mutation} left the "
                                     f"extents consistent: {sp}")
            sp.rule = rule
            if mutation != rule:
                sp.mutation = mutation
            return Case(index, sp, render(sp, rng))
        if want == "generic":
            if hack == "generic_mean_only" and sp.mean is None or \
                    hack == "generic_running_mean_only" and \
                    sp.rmean is None or \
                    hack in ("generic_groups_only",
                             "generic_group_dim_only") and sp.groups is None:
                continue
            if violations(sp):
                raise AssertionError(f"generator bug: {sp}")
            if hack == "generic_epsilon_type" and sp.eps[0].startswith("0x"):
                sp.eps = ("1.0e-05", 1e-05)   # a wide hex f32 won't parse
            sp.form, sp.hack, sp.rule = "generic", hack, hack
            return Case(index, sp, render(sp, rng))
        # Malformed text.
        sp.form = "custom"
        text = render(sp, rng)
        name, fn = malformed
        bad = fn(text)
        if bad == text:
            continue
        sp.rule = "malformed:" + name
        sp.raw = bad
        return Case(index, sp, bad)
    raise AssertionError(f"could not generate spec #{index}")


# ===----------------------------------------------------------------------=== #
# Running norm-opt
# ===----------------------------------------------------------------------=== #

@dataclass
class Run:
    cmd: str
    rc: Optional[int]         # None: timed out
    out: str
    err: str

    @property
    def crashed(self) -> bool:
        if self.rc is None or self.rc < 0 or self.rc > 1:
            return True
        return any(m in self.out or m in self.err for m in CRASH_MARKERS)


class ToolError(Exception):
    pass


def run(norm_opt, args, stdin=None) -> Run:
    cmd = [norm_opt] + args
    shown = " ".join(cmd) + (" < (previous output)" if stdin is not None
                             else "")
    try:
        p = subprocess.run(cmd, input=stdin, capture_output=True, text=True,
                           timeout=TIMEOUT_S)
    except OSError as e:          # not a crash of norm-opt: give up
        raise ToolError(f"cannot run {norm_opt}: {e}") from e
    except subprocess.TimeoutExpired as e:
        def text(b):
            return b.decode(errors="replace") if isinstance(b, bytes) \
                else (b or "")
        return Run(shown, None, text(e.stdout),
                   text(e.stderr) + f"\n(timed out after {TIMEOUT_S} s)")
    return Run(shown, p.returncode, p.stdout, p.stderr)


@dataclass
class Failure:
    case: Case
    crash: bool
    what: str
    run: Optional[Run] = None
    stage: str = ""           # valid, invalid or lower


MEMREF_DIAG = "cannot be decomposed in the memref form"
# After the CPU pipeline: an op name at the start of a statement.
OP_NAME = re.compile(r'^\s*(?:%[^=]*=\s*)?"?([A-Za-z_][\w$]*)\.[\w.$]+')
LEFTOVER = re.compile(r"norm\.normalize|linalg\.|tensor\.")


def check_convert(norm_opt, path, flags, n, mode):
    """-convert-norm-to-linalg on `n` specs of one `mode`: tensor (must
    lower, leaving no norm.normalize) or memref (must fail with the
    memref-form diagnostic, once per spec). None when it passes, else
    (crashed, what, run)."""
    conv = run(norm_opt, flags + ["-convert-norm-to-linalg", path])
    if conv.crashed:
        return True, "-convert-norm-to-linalg crashed", conv
    if mode == "memref":
        if conv.rc != 1:
            return False, ("-convert-norm-to-linalg did not reject a "
                           f"memref-form spec with '{MEMREF_DIAG}'"), conv
        errors = [ln for ln in conv.err.splitlines() if "error:" in ln]
        if len(errors) != n or not all(MEMREF_DIAG in ln for ln in errors):
            return False, ("-convert-norm-to-linalg: expected "
                           f"{n} '{MEMREF_DIAG}' error(s), got "
                           f"{len(errors)} error(s)"), conv
        return None
    if conv.rc != 0:
        return False, ("-convert-norm-to-linalg failed on a valid "
                       "tensor-form spec"), conv
    if "norm.normalize" in conv.out:
        return False, ("-convert-norm-to-linalg left a norm.normalize "
                       "behind"), conv
    return None


def check_valid_file(norm_opt, path, n, mode) -> \
        Optional[Tuple[bool, str, Run]]:
    """Runs the valid-spec checks on `path` (`n` specs, split when n > 1);
    None when all pass, else (crashed, what, run)."""
    flags = ["--split-input-file"] if n > 1 else []
    plain = run(norm_opt, flags + [path])
    steps = [("norm-opt", plain),
             ("norm-opt -canonicalize",
              run(norm_opt, flags + ["-canonicalize", path]))]
    generic = run(norm_opt, flags + ["--mlir-print-op-generic", path])
    steps.append(("norm-opt --mlir-print-op-generic", generic))
    for what, r in steps:
        if r.crashed:
            return True, f"{what} crashed", r
    for what, r in steps:
        if r.rc != 0:
            return False, f"{what} rejected a valid spec", r
    back = run(norm_opt, flags + ["-"], stdin=generic.out)
    again = run(norm_opt, flags + ["-"], stdin=plain.out)
    for what, r in (("re-parsing the generic form", back),
                    ("re-parsing the printed custom form", again)):
        if r.crashed:
            return True, f"{what} crashed", r
        if r.rc != 0:
            return False, f"{what} failed", r
    if back.out != plain.out:
        return False, ("the generic-form round trip changed the op:\n"
                       f"--- direct:\n{plain.out}--- via generic:\n"
                       f"{back.out}"), back
    if again.out != plain.out:
        return False, ("printing is not idempotent:\n--- first:\n"
                       f"{plain.out}--- second:\n{again.out}"), again
    return check_convert(norm_opt, path, flags, n, mode)


def check_lower_file(norm_opt, path, n) -> Optional[Tuple[bool, str, Run]]:
    """-norm-lower-to-cpu-pipeline on `n` tensor-form specs: must exit 0
    and leave, per spec, an llvm.func and nothing but LLVM dialect ops."""
    flags = ["--split-input-file"] if n > 1 else []
    r = run(norm_opt, flags + ["-norm-lower-to-cpu-pipeline", path])
    if r.crashed:
        return True, "-norm-lower-to-cpu-pipeline crashed", r
    if r.rc != 0:
        return False, ("-norm-lower-to-cpu-pipeline failed on a valid "
                       "tensor-form spec"), r
    chunks = r.out.split("// -----") if n > 1 else [r.out]
    if len(chunks) != n:
        return False, (f"-norm-lower-to-cpu-pipeline printed {len(chunks)} "
                       f"modules for {n} specs"), r
    for chunk in chunks:
        if "llvm.func" not in chunk:
            return False, ("-norm-lower-to-cpu-pipeline left no llvm.func:"
                           f"\n{chunk}"), r
        m = LEFTOVER.search(chunk)
        bad = [ln.strip() for ln in chunk.splitlines()
               if (lambda o: o and o.group(1) not in ("llvm", "builtin"))(
                   OP_NAME.match(ln))]
        if m or bad:
            what = m.group(0) if m else bad[0]
            return False, ("-norm-lower-to-cpu-pipeline left a non-LLVM op "
                           f"behind ({what}):\n{chunk}"), r
    return None


def check_batch(check, prefix, norm_opt, tmp, cases, batch_id, stage,
                *args) -> List[Failure]:
    """Runs `check` on the batch; when that fails, on each spec alone to
    name the offending spec(s)."""
    if len(cases) > 1:
        path = os.path.join(tmp, f"{prefix}-batch-{batch_id}.mlir")
        with open(path, "w") as f:
            f.write(SPLIT.join(c.text for c in cases))
        if check(norm_opt, path, len(cases), *args) is None:
            return []
    failures = []
    for c in cases:
        path = os.path.join(tmp, f"{prefix}-spec-{c.index}.mlir")
        with open(path, "w") as f:
            f.write(c.text)
        res = check(norm_opt, path, 1, *args)
        if res is not None:
            failures.append(Failure(c, res[0], res[1], res[2], stage))
    if len(cases) > 1 and not failures:
        failures.append(Failure(cases[0], False,
                                "batch failed but every spec passed alone",
                                None, stage))
    return failures


def check_invalid(norm_opt, tmp, case, check_diags) -> List[Failure]:
    path = os.path.join(tmp, f"spec-{case.index}.mlir")
    with open(path, "w") as f:
        f.write(case.text)
    r = run(norm_opt, [path])
    if r.crashed:
        return [Failure(case, True, "norm-opt crashed", r, "invalid")]
    if r.rc == 0:
        return [Failure(case, False, "an invalid spec was accepted", r,
                        "invalid")]
    if "error:" not in r.err:
        return [Failure(case, False, "rejected without an 'error:'", r,
                        "invalid")]
    rule = case.spec.rule
    if check_diags and rule in DIAGNOSTICS:
        first = next((ln for ln in r.err.splitlines() if "error:" in ln), "")
        if not re.search(DIAGNOSTICS[rule], first):
            return [Failure(case, False,
                            f"rejected, but not for '{rule}'", r,
                            "invalid")]
    return []


def report(f: Failure):
    tag = "CRASH" if f.crash else "MISMATCH"
    print(f"{tag}: {f.case.label()}: {f.what}")
    print("---- spec ----")
    print(f.case.text.rstrip())
    if f.run is not None:
        print(f"---- {f.run.cmd} (exit {f.run.rc}) ----")
        err = f.run.err.strip().splitlines()
        if len(err) > 80:
            err = err[:80] + [f"... ({len(err) - 80} more lines)"]
        print("\n".join(err))
    print("--------------")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--norm-opt", required=True)
    ap.add_argument("--count", type=int, default=600)
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--batch", type=int, default=25,
                    help="valid specs per --split-input-file run (1: none)")
    ap.add_argument("--lower-stride", type=int, default=0,
                    help="run the CPU pipeline on every Nth valid tensor-"
                         "form spec (0: 4, or less to reach %d specs)"
                         % MIN_LOWERED)
    ap.add_argument("--lower-batch", type=int, default=8,
                    help="specs per CPU-pipeline run (1: none)")
    ap.add_argument("--check-diagnostics", action="store_true",
                    help="also require the first error to name the broken "
                         "rule (a development aid)")
    ap.add_argument("--dump", metavar="DIR",
                    help="also write every spec to DIR")
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="print the rule histogram to stderr")
    args = ap.parse_args()

    start = time.time()
    rng = random.Random(args.seed)
    cases = [generate(rng, i) for i in range(args.count)]
    valid = [c for c in cases if c.valid]
    invalid = [c for c in cases if not c.valid]
    memref = [c for c in valid if c.spec.kind == "memref"]
    tensor = [c for c in valid if c.spec.kind == "tensor"]
    # The CPU-pipeline subset: every `stride`th tensor-form spec.
    stride = args.lower_stride or max(1, min(4, len(tensor) // MIN_LOWERED))
    lower = tensor[::stride]

    if args.dump:
        os.makedirs(args.dump, exist_ok=True)
        for c in cases:
            name = "valid" if c.valid else \
                (c.spec.mutation or c.spec.rule).replace(":", "-")
            with open(os.path.join(args.dump,
                                   f"{c.index:04d}-{name}.mlir"), "w") as f:
                f.write(f"// {c.label()}\n" + c.text)
    if args.verbose:
        hist = Counter(c.spec.mutation or c.spec.rule or
                       "valid:" + c.spec.variant for c in cases)
        for k, n in sorted(hist.items()):
            print(f"  {n:4d} {k}", file=sys.stderr)

    failures: List[Failure] = []
    with tempfile.TemporaryDirectory(prefix="random-specs-") as tmp, \
            concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        futures = []
        # The slow CPU-pipeline runs first, so the pool ends evenly.
        step = max(1, args.lower_batch)
        for b, i in enumerate(range(0, len(lower), step)):
            futures.append(pool.submit(
                check_batch, check_lower_file, "lower", args.norm_opt, tmp,
                lower[i:i + step], b, "lower"))
        # Valid specs of one form per batch: one memref-form spec makes
        # -convert-norm-to-linalg exit 1 on the whole batch.
        step = max(1, args.batch)
        for prefix, group, mode in (("tensor", tensor, "tensor"),
                                    ("memref", memref, "memref")):
            for b, i in enumerate(range(0, len(group), step)):
                futures.append(pool.submit(
                    check_batch, check_valid_file, prefix, args.norm_opt,
                    tmp, group[i:i + step], b, "valid", mode))
        for c in invalid:
            futures.append(pool.submit(check_invalid, args.norm_opt, tmp, c,
                                       args.check_diagnostics))
        try:
            for fut in futures:
                failures += fut.result()
        except ToolError as e:
            for fut in futures:
                fut.cancel()
            print(f"error: {e}")
            return 2

    failures.sort(key=lambda f: (f.case.index, f.stage))
    for f in failures:
        report(f)
    crashes = len({f.case.index for f in failures if f.crash})
    mismatches = len({f.case.index for f in failures if not f.crash})

    def passed(group, stage):
        bad = {f.case.index for f in failures if f.stage == stage}
        return sum(c.index not in bad for c in group)

    summary = (f"random-specs: {len(cases)} specs ({len(valid)} valid, "
               f"{len(invalid)} invalid), {crashes} crashes, "
               f"{mismatches} mismatches, {passed(tensor, 'valid')} "
               f"converted, {passed(memref, 'valid')} memref-rejected, "
               f"{passed(lower, 'lower')} lowered")
    print(summary)
    print(f"random-specs: {time.time() - start:.1f} s", file=sys.stderr)
    ok = not failures
    if len(valid) < 100 or len(invalid) < 100:
        print(f"error: too few valid ({len(valid)}) or invalid "
              f"({len(invalid)}) specs; need at least 100 of each")
        ok = False
    if len(lower) < MIN_LOWERED:
        print(f"error: too few specs ({len(lower)}) for the CPU pipeline; "
              f"need at least {MIN_LOWERED}")
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
