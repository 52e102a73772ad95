//===- InputGen.cpp - seeded random and adversarial inputs ----------------===//
//
// Part of the norm-mlir project.
//
// All randomness comes from std::mt19937_64 (whose output sequence the C++
// standard fixes) through our own uniform and Box-Muller transforms, so a
// seed gives the same inputs on every platform. Each case draws from its own
// stream (seed mixed with the case name), so adding a case does not change
// the others.
//
//===----------------------------------------------------------------------===//

#include "norm/Harness/InputGen.h"

#include <cmath>
#include <limits>
#include <random>

using namespace mlir;
using namespace mlir::norm;

namespace {
class Rng {
public:
  explicit Rng(uint64_t seed) : engine(seed) {}

  /// Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(engine() >> 11) * 0x1p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }
  /// Standard normal (Box-Muller, both values used).
  double normal() {
    if (hasSpare) {
      hasSpare = false;
      return spare;
    }
    double u1 = 1.0 - uniform(); // (0, 1]: log is finite
    double u2 = uniform();
    double r = std::sqrt(-2.0 * std::log(u1));
    double theta = 2.0 * 3.14159265358979323846 * u2;
    spare = r * std::sin(theta);
    hasSpare = true;
    return r * std::cos(theta);
  }
  double sign() { return (engine() & 1) ? 1.0 : -1.0; }
  int64_t index(int64_t n) {
    return n > 0 ? static_cast<int64_t>(uniform() * double(n)) : 0;
  }

private:
  std::mt19937_64 engine;
  bool hasSpare = false;
  double spare = 0;
};

/// SplitMix64 finalizer: decorrelates seeds that differ in a few bits.
uint64_t mix(uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t caseSeed(uint64_t seed, const std::string &name) {
  uint64_t h = 0xcbf29ce484222325ULL; // FNV-1a
  for (char c : name)
    h = (h ^ static_cast<uint8_t>(c)) * 0x100000001b3ULL;
  return mix(seed ^ mix(h));
}

/// Where the elements of each statistics slice are (row-major order).
struct Slices {
  std::vector<int64_t> statIdx; ///< slice of each element
  std::vector<int64_t> pos;     ///< position of each element in its slice
  std::vector<int64_t> count;   ///< elements per slice
  std::vector<std::vector<int64_t>> members;
  int64_t numSlices = 0;
};

Slices computeSlices(const NormSpec &spec, const std::vector<int64_t> &shape) {
  Slices s;
  s.numSlices = 1;
  for (int64_t d : statisticsShape(spec, shape))
    s.numSlices *= d;
  s.statIdx = statisticsIndex(spec, shape);
  s.count.assign(s.numSlices, 0);
  s.members.resize(s.numSlices);
  s.pos.resize(s.statIdx.size());
  for (size_t i = 0; i < s.statIdx.size(); ++i) {
    int64_t k = s.statIdx[i];
    s.pos[i] = s.count[k]++;
    s.members[k].push_back(static_cast<int64_t>(i));
  }
  return s;
}

std::vector<int64_t> affineShape(const NormSpec &spec,
                                 const std::vector<int64_t> &xShape) {
  std::vector<int64_t> shape;
  for (int64_t d : spec.affineDims)
    shape.push_back(xShape[d]);
  return shape;
}

template <typename Fn>
HostArray makeArray(DType dtype, std::vector<int64_t> shape, Fn fn) {
  HostArray a(dtype, std::move(shape));
  for (int64_t i = 0, e = a.numElements(); i < e; ++i)
    a.set(i, fn(i));
  return a;
}

template <typename Fn>
void fillArray(HostArray &a, Fn fn) {
  for (int64_t i = 0, e = a.numElements(); i < e; ++i)
    a.set(i, fn(i));
}

/// The spacing of `dtype` values around `v`.
double ulpAt(DType dtype, double v) {
  int e;
  std::frexp(std::fabs(v), &e);
  return std::ldexp(dtypeEpsilon(dtype), e - 1);
}

double smallestNormal(DType dtype) {
  switch (dtype) {
  case DType::F16:
    return 0x1p-14;
  case DType::BF16:
  case DType::F32:
    return 0x1p-126;
  case DType::F64:
    return std::numeric_limits<double>::min();
  }
  return 0;
}

bool isNarrow(DType dtype) {
  return dtype == DType::F16 || dtype == DType::BF16;
}

/// A "huge" magnitude whose square still fits f32 statistics, for operands
/// whose narrowest dtype is `dtype` (f16 tops out at 65504).
double hugeScale(DType narrowest) {
  return narrowest == DType::F16 ? 100.0 : 1e15;
}
} // namespace

TestCase mlir::norm::makeRandomCase(const NormSpec &spec,
                                    const std::vector<int64_t> &xShape,
                                    const OperandDTypes &dtypes,
                                    uint64_t seed) {
  Rng rng(seed);
  TestCase tc;
  tc.name = "random";
  NormInputs &in = tc.inputs;
  in.x = makeArray(spec.inType, xShape, [&](int64_t) { return rng.normal(); });
  std::vector<int64_t> affShape = affineShape(spec, xShape);
  if (spec.hasScale)
    in.scale = makeArray(dtypes.scale, affShape,
                         [&](int64_t) { return rng.normal(); });
  if (spec.hasBias)
    in.bias =
        makeArray(dtypes.bias, affShape, [&](int64_t) { return rng.normal(); });
  std::vector<int64_t> statShape = statisticsShape(spec, xShape);
  if (spec.givenStats) {
    in.mean = makeArray(dtypes.mean, statShape,
                        [&](int64_t) { return rng.normal(); });
    in.variance = makeArray(dtypes.variance, statShape,
                            [&](int64_t) { return rng.uniform(0.5, 2.0); });
  }
  if (spec.training) {
    in.runningMean = makeArray(dtypes.runningMean, statShape,
                               [&](int64_t) { return rng.normal(); });
    in.runningVar = makeArray(dtypes.runningVar, statShape,
                              [&](int64_t) { return rng.uniform(0.5, 2.0); });
  }
  return tc;
}

std::vector<TestCase>
mlir::norm::makeAdversarialCases(const NormSpec &spec,
                                 const std::vector<int64_t> &xShape,
                                 const OperandDTypes &dtypes, uint64_t seed) {
  std::vector<TestCase> cases;
  int64_t numElements = 1;
  for (int64_t d : xShape)
    numElements *= d;
  if (numElements == 0)
    return cases; // nothing to perturb; the random case covers empty shapes

  Slices sl = computeSlices(spec, xShape);
  int64_t n = sl.numSlices ? numElements / sl.numSlices : 0;
  DType T = spec.inType;
  bool computed = !spec.givenStats;
  bool standard = spec.mode == StatMode::Standard;
  // The slice that receives NaN/Inf: slice 1 when there are two or more, so
  // that slice 0 (which harnesses tend to print) stays clean.
  int64_t poisoned = sl.numSlices >= 2 ? 1 : 0;
  int64_t poisonedElement = sl.members[poisoned][sl.count[poisoned] / 2];

  // Each case starts from the seeded random inputs of its own stream and
  // perturbs them with `rng`, also of that stream.
  Rng rng(0);
  auto start = [&](const std::string &name) {
    uint64_t s = caseSeed(seed, name);
    TestCase tc = makeRandomCase(spec, xShape, dtypes, s);
    tc.name = name;
    rng = Rng(mix(s));
    return tc;
  };
  DType narrowestGiven = T;
  if (spec.givenStats &&
      (dtypes.mean == DType::F16 || dtypes.variance == DType::F16))
    narrowestGiven = DType::F16;

  // Offset data: mean >> std makes one-pass variance cancel. With given
  // statistics the mean moves with the data, as for BatchNorm inference.
  for (double offset : {100.0, 1e4}) {
    std::string name = offset == 100.0 ? "offset_100" : "offset_1e4";
    TestCase tc = start(name);
    fillArray(tc.inputs.x, [&](int64_t) { return offset + rng.normal(); });
    if (spec.givenStats)
      fillArray(*tc.inputs.mean,
                [&](int64_t) { return offset + 0.1 * rng.normal(); });
    // std 1 below the spacing of T at the offset: rows are quantized to a
    // few values, so the case proves little about accuracy.
    tc.degenerate = ulpAt(T, offset) > 1.0;
    cases.push_back(std::move(tc));
  }

  if (computed && standard && !isNarrow(T)) {
    TestCase tc = start("offset_ramp_1e4");
    fillArray(tc.inputs.x,
              [&](int64_t i) { return 1e4 + double(sl.pos[i]) * 1e-3; });
    cases.push_back(std::move(tc));
  }

  if (computed && standard && spec.epsilon > 0) {
    TestCase tc = start("const_row");
    const double values[] = {1234.0, 0.0, 1e-3, -7.5};
    fillArray(tc.inputs.x,
              [&](int64_t i) { return values[sl.statIdx[i] % 4]; });
    // y = beta exactly: all zeros without a bias.
    tc.zerosExpected = !spec.hasBias;
    cases.push_back(std::move(tc));
  }

  // Huge values: x^2 overflows f32 (for f16, the square-overflow cases
  // below play this part).
  if (T != DType::F16 || spec.givenStats) {
    TestCase tc = start("huge");
    double s = spec.givenStats ? hugeScale(narrowestGiven) : 1e25;
    fillArray(tc.inputs.x, [&](int64_t) { return s * rng.normal(); });
    if (spec.givenStats) {
      fillArray(*tc.inputs.mean, [&](int64_t) { return s * rng.normal(); });
      fillArray(*tc.inputs.variance,
                [&](int64_t) { return s * s * rng.uniform(0.5, 2.0); });
    }
    cases.push_back(std::move(tc));
  }

  // Tiny values: x^2 underflows in T (f16) or in f32.
  {
    TestCase tc = start("tiny");
    double s = T == DType::F16 ? 1e-4 : T == DType::F64 ? 1e-200 : 1e-20;
    // An f16 output (or f16 statistics) could not represent x/sqrt(eps) of
    // 1e-20 data: the reference would be all zeros.
    if (spec.outType == DType::F16 ||
        (spec.givenStats && narrowestGiven == DType::F16))
      s = 1e-4;
    fillArray(tc.inputs.x, [&](int64_t) { return s * rng.normal(); });
    if (spec.givenStats) {
      fillArray(*tc.inputs.mean, [&](int64_t) { return s * rng.normal(); });
      // Keep the variance representable in its dtype (f32 squares of 1e-20
      // are subnormal).
      fillArray(*tc.inputs.variance,
                [&](int64_t) { return s * rng.uniform(0.5, 2.0); });
    }
    cases.push_back(std::move(tc));
  }

  if (computed && isNarrow(T)) {
    // |x| in [300, 1000]: x^2 > 65504 overflows f16 squares.
    TestCase tc = start("square_overflow");
    fillArray(tc.inputs.x,
              [&](int64_t) { return rng.sign() * rng.uniform(300, 1000); });
    cases.push_back(std::move(tc));
    if (n >= 4096) {
      // |x| = 4: sum of squares reaches 65536 = f16 overflow at N = 4096.
      TestCase tc4 = start("square_overflow_abs4");
      fillArray(tc4.inputs.x, [&](int64_t) { return 4.0 * rng.sign(); });
      cases.push_back(std::move(tc4));
    }
  }

  {
    // Alternating normal and subnormal values plus one large value.
    TestCase tc = start("subnormal_mix");
    double sub = smallestNormal(T) * 0.25;
    fillArray(tc.inputs.x, [&](int64_t i) {
      return (sl.pos[i] % 2) ? sub * rng.normal() : rng.normal();
    });
    tc.inputs.x.set(poisonedElement, T == DType::F16 ? 1e3 : 1e4);
    cases.push_back(std::move(tc));
  }

  if (computed && n >= 2) {
    // One large value per slice dominates the variance.
    TestCase tc = start("one_huge");
    double big = T == DType::F16 ? 6e4 : 1e4;
    for (int64_t k = 0; k < sl.numSlices; ++k)
      tc.inputs.x.set(sl.members[k][rng.index(sl.count[k])], big);
    cases.push_back(std::move(tc));
  }

  if (computed && n >= 4) {
    // Every `period`-th element of a slice x40 (outlier channels).
    TestCase tc = start("outliers_x40");
    int64_t period = std::min<int64_t>(512, std::max<int64_t>(2, n / 8));
    fillArray(tc.inputs.x, [&](int64_t i) {
      double v = rng.normal();
      return sl.pos[i] % period == 0 ? 40.0 * v : v;
    });
    cases.push_back(std::move(tc));
  }

  // Isolation: one NaN (one +Inf) in one slice poisons that slice only.
  {
    TestCase tc = start("nan_slice");
    tc.inputs.x.set(poisonedElement, std::numeric_limits<double>::quiet_NaN());
    cases.push_back(std::move(tc));
    TestCase tci = start("inf_slice");
    tci.inputs.x.set(poisonedElement, std::numeric_limits<double>::infinity());
    cases.push_back(std::move(tci));
  }

  if (spec.givenStats) {
    TestCase nm = start("nan_mean");
    nm.inputs.mean->set(poisoned, std::numeric_limits<double>::quiet_NaN());
    cases.push_back(std::move(nm));
    TestCase nv = start("nan_var");
    nv.inputs.variance->set(poisoned, std::numeric_limits<double>::quiet_NaN());
    cases.push_back(std::move(nv));
    TestCase iv = start("inf_var");
    iv.inputs.variance->set(poisoned, std::numeric_limits<double>::infinity());
    cases.push_back(std::move(iv));
    if (spec.epsilon > 0) {
      TestCase zv = start("zero_var");
      fillArray(*zv.inputs.variance, [](int64_t) { return 0.0; });
      cases.push_back(std::move(zv));
    }
  }

  // Zero slices: l2 defines them as 0 (even with eps = 0); rms gives
  // 0/sqrt(eps) = 0 for eps > 0.
  if (computed && (spec.mode == StatMode::L2 ||
                   (spec.mode == StatMode::RMS && spec.epsilon > 0))) {
    TestCase tc = start("zero_rows");
    fillArray(tc.inputs.x, [&](int64_t i) {
      return sl.statIdx[i] % 2 == 0 ? 0.0 : rng.normal();
    });
    tc.zerosExpected = true;
    cases.push_back(std::move(tc));
  }

  if (computed && standard && T == DType::BF16) {
    // std 0.1 < ulp(bf16)@100 = 0.5: rows round to (almost) constants.
    TestCase tc = start("bf16_ulp_gt_std");
    fillArray(tc.inputs.x, [&](int64_t) { return 100.3 + 0.1 * rng.normal(); });
    tc.degenerate = true;
    cases.push_back(std::move(tc));
  }

  if (spec.hasScale && spec.hasBias) {
    // beta = -gamma * xhat for the first element of each affine index, so
    // that y cancels to (about) 0 there: passes only through the M_i term.
    TestCase tc = start("cancel_affine");
    NormSpec plain = spec;
    plain.hasScale = plain.hasBias = false;
    plain.savedStats = plain.training = false;
    plain.outType = DType::F64;
    NormInputs in = tc.inputs;
    in.scale.reset();
    in.bias.reset();
    std::vector<RefOutput> ref = computeReference(plain, in, {DType::F64});
    const std::vector<double> &xhat = ref.front().exact;
    // The affine index of each element, via the strides of scale's shape.
    std::vector<int64_t> affShape = affineShape(spec, xShape);
    std::vector<bool> done(tc.inputs.bias->numElements(), false);
    std::vector<int64_t> xStrides = in.x.strides();
    for (int64_t i = 0; i < numElements; ++i) {
      int64_t a = 0;
      for (size_t k = 0; k < spec.affineDims.size(); ++k) {
        int64_t d = spec.affineDims[k];
        a = a * affShape[k] + (i / xStrides[d]) % xShape[d];
      }
      if (done[a] || !std::isfinite(xhat[i]))
        continue;
      done[a] = true;
      tc.inputs.bias->set(a, -tc.inputs.scale->get(a) * xhat[i]);
    }
    cases.push_back(std::move(tc));
  }

  // Degenerate also when rounding to T left every slice constant (except
  // for the cases that are constant on purpose).
  for (TestCase &tc : cases) {
    if (tc.degenerate || tc.name == "const_row" || !computed)
      continue;
    bool allConstant = true;
    for (int64_t k = 0; k < sl.numSlices && allConstant; ++k) {
      const std::vector<int64_t> &m = sl.members[k];
      double first = tc.inputs.x.get(m.front());
      for (int64_t i : m)
        if (tc.inputs.x.get(i) != first) {
          allConstant = false;
          break;
        }
    }
    tc.degenerate = allConstant && n > 1;
  }
  return cases;
}
