//===- Reference.cpp - fp64 reference and tolerance policy ----------------===//
//
// Part of the norm-mlir project.
//
// The reference evaluates the formulas of the op documentation in IEEE double
// arithmetic, slice by slice. Special values follow from that evaluation:
//  - NaN anywhere in a slice makes the whole slice NaN (every mode).
//  - standard: an infinity in a slice makes the whole slice NaN (x - inf).
//  - rms/l2: an infinity makes the norm infinite, so the finite elements of
//    the slice normalize to 0 (y = beta) and the infinite one to inf/inf = NaN.
//  - l2: a slice whose norm is exactly 0 normalizes to 0 (y = beta) even with
//    eps = 0; its saved inverse norm is 1 / max(0, eps), i.e. +inf for
//    eps = 0 and 1/eps otherwise.
//  - standard/rms with eps = 0 on a constant (zero) slice: 0/0 = NaN.
//
//===----------------------------------------------------------------------===//

#include "norm/Harness/Reference.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::norm;

//===----------------------------------------------------------------------===//
// Layout
//===----------------------------------------------------------------------===//

static bool isAxis(const NormSpec &spec, int64_t d) {
  return llvm::is_contained(spec.axes, d);
}

static bool isGroupDim(const NormSpec &spec, int64_t d) {
  return spec.groups > 0 && d == spec.groupDim;
}

std::vector<int64_t>
mlir::norm::statisticsShape(const NormSpec &spec,
                            const std::vector<int64_t> &xShape) {
  std::vector<int64_t> shape;
  for (int64_t d = 0, e = xShape.size(); d < e; ++d) {
    if (!isAxis(spec, d))
      shape.push_back(xShape[d]);
    else if (isGroupDim(spec, d))
      shape.push_back(spec.groups);
  }
  return shape;
}

int64_t mlir::norm::reductionSize(const NormSpec &spec,
                                  const std::vector<int64_t> &xShape) {
  if (spec.givenStats)
    return 1;
  int64_t n = 1;
  for (int64_t d = 0, e = xShape.size(); d < e; ++d)
    if (isAxis(spec, d))
      n *= isGroupDim(spec, d) ? xShape[d] / spec.groups : xShape[d];
  return n;
}

/// For every element, the sum over dims of `contribution[d][i_d]`, walking
/// the row-major multi-index like an odometer.
static std::vector<int64_t>
linearIndexMap(const std::vector<int64_t> &xShape,
               const std::vector<std::vector<int64_t>> &contribution) {
  int64_t numElements = 1;
  for (int64_t d : xShape)
    numElements *= d;
  std::vector<int64_t> result(numElements);
  if (numElements == 0)
    return result;
  size_t rank = xShape.size();
  std::vector<int64_t> idx(rank, 0);
  int64_t current = 0;
  for (size_t d = 0; d < rank; ++d)
    current += contribution[d][0];
  for (int64_t i = 0; i < numElements; ++i) {
    result[i] = current;
    for (size_t d = rank; d-- > 0;) {
      current -= contribution[d][idx[d]];
      if (++idx[d] < xShape[d]) {
        current += contribution[d][idx[d]];
        break;
      }
      idx[d] = 0;
      current += contribution[d][0];
    }
  }
  return result;
}

std::vector<int64_t>
mlir::norm::statisticsIndex(const NormSpec &spec,
                            const std::vector<int64_t> &xShape) {
  std::vector<int64_t> statShape = statisticsShape(spec, xShape);
  std::vector<int64_t> statStrides(statShape.size(), 1);
  for (int64_t k = static_cast<int64_t>(statShape.size()) - 2; k >= 0; --k)
    statStrides[k] = statStrides[k + 1] * statShape[k + 1];
  std::vector<std::vector<int64_t>> contribution(xShape.size());
  size_t k = 0;
  for (int64_t d = 0, e = xShape.size(); d < e; ++d) {
    contribution[d].assign(std::max<int64_t>(xShape[d], 1), 0);
    if (!isAxis(spec, d)) {
      for (int64_t i = 0; i < xShape[d]; ++i)
        contribution[d][i] = i * statStrides[k];
      ++k;
    } else if (isGroupDim(spec, d)) {
      // Consecutive blocks of D/G channels form one group.
      int64_t perGroup = std::max<int64_t>(xShape[d] / spec.groups, 1);
      for (int64_t i = 0; i < xShape[d]; ++i)
        contribution[d][i] =
            std::min(i / perGroup, spec.groups - 1) * statStrides[k];
      ++k;
    }
  }
  return linearIndexMap(xShape, contribution);
}

/// The index into scale/bias of every element.
static std::vector<int64_t> affineIndex(const NormSpec &spec,
                                        const std::vector<int64_t> &xShape) {
  std::vector<std::vector<int64_t>> contribution(xShape.size());
  for (int64_t d = 0, e = xShape.size(); d < e; ++d)
    contribution[d].assign(std::max<int64_t>(xShape[d], 1), 0);
  int64_t stride = 1;
  for (size_t k = spec.affineDims.size(); k-- > 0;) {
    int64_t d = spec.affineDims[k];
    for (int64_t i = 0; i < xShape[d]; ++i)
      contribution[d][i] += i * stride;
    stride *= xShape[d];
  }
  return linearIndexMap(xShape, contribution);
}

//===----------------------------------------------------------------------===//
// Reference statistics
//===----------------------------------------------------------------------===//

namespace {
/// Neumaier-compensated sum: the reference should not add its own
/// summation error to what it judges.
struct CompensatedSum {
  double sum = 0, comp = 0;
  void add(double v) {
    double t = sum + v;
    // Past an infinity or NaN the compensation would only turn inf into
    // NaN (inf - inf); the plain IEEE sum is the answer.
    if (!std::isfinite(t)) {
      sum = t;
      return;
    }
    if (std::fabs(sum) >= std::fabs(v))
      comp += (sum - t) + v;
    else
      comp += (v - t) + sum;
    sum = t;
  }
  double value() const { return std::isfinite(sum) ? sum + comp : sum; }
};

/// What the reference knows about one statistics slice. Values with an `S`
/// suffix are in units of `x * scale`, `scale` being a power of two chosen so
/// that squares neither overflow nor underflow for f64 inputs.
struct Slice {
  double scale = 1;
  bool finite = true;
  double maxAbs = 0;
  double meanAbs = 0;  ///< mean(|x|), unscaled
  double meanS = 0;    ///< mean (standard, and training in any mode)
  double varS = 0;     ///< biased variance
  double sumSqS = 0;   ///< sum of squares (rms/l2)
  double centerS = 0;  ///< what is subtracted before dividing
  double divisorS = 1; ///< sqrt(var + eps), sqrt(ms + eps), max(norm, eps)
  bool zeroNorm = false;
  double kappa = 0;
};
} // namespace

/// Sets the divisor of a slice from its scaled statistics; if eps does not
/// fit the scaled domain (tiny data), falls back to unscaled arithmetic,
/// where eps dominates anyway.
static void setDivisor(Slice &s, StatMode mode, double eps, int64_t n) {
  auto compute = [&]() {
    double sc = s.scale;
    switch (mode) {
    case StatMode::Standard:
      s.centerS = s.meanS;
      s.divisorS = std::sqrt(s.varS + eps * sc * sc);
      break;
    case StatMode::RMS:
      s.centerS = 0;
      s.divisorS = std::sqrt(s.sumSqS / double(n) + eps * sc * sc);
      break;
    case StatMode::L2:
      s.centerS = 0;
      s.zeroNorm = s.sumSqS == 0;
      s.divisorS = std::max(std::sqrt(s.sumSqS), eps * sc);
      break;
    }
  };
  compute();
  if (s.finite && !std::isfinite(s.divisorS) && s.scale != 1) {
    double inv = 1 / s.scale;
    s.meanS *= inv;
    s.varS *= inv * inv;
    s.sumSqS *= inv * inv;
    s.scale = 1;
    compute();
  }
}

/// Computes the statistics of every slice from the T-rounded inputs.
static std::vector<Slice> computeSlices(const NormSpec &spec,
                                        const NormInputs &in,
                                        const std::vector<int64_t> &statIdx,
                                        int64_t numSlices, int64_t n) {
  const HostArray &x = in.x;
  int64_t numElements = x.numElements();
  std::vector<Slice> slices(numSlices);

  // Pass 0: magnitudes, for the power-of-two scaling.
  for (int64_t i = 0; i < numElements; ++i) {
    Slice &s = slices[statIdx[i]];
    double v = x.get(i);
    if (!std::isfinite(v))
      s.finite = false;
    else
      s.maxAbs = std::max(s.maxAbs, std::fabs(v));
  }
  for (Slice &s : slices) {
    if (s.finite && s.maxAbs > 0 &&
        (s.maxAbs > 0x1p+400 || s.maxAbs < 0x1p-400)) {
      int e;
      std::frexp(s.maxAbs, &e);
      s.scale = std::ldexp(1.0, -e);
    }
  }
  // mean(|x|) over the finite elements of a slice (for given statistics,
  // the elements sharing one statistic): a NaN element must not poison the
  // tolerance of its finite neighbours when only it is NaN.
  std::vector<CompensatedSum> absSum(numSlices);
  std::vector<int64_t> finiteCount(numSlices, 0);
  for (int64_t i = 0; i < numElements; ++i) {
    double v = x.get(i);
    if (!std::isfinite(v))
      continue;
    absSum[statIdx[i]].add(std::fabs(v) * slices[statIdx[i]].scale);
    ++finiteCount[statIdx[i]];
  }
  for (int64_t k = 0; k < numSlices; ++k)
    slices[k].meanAbs =
        finiteCount[k]
            ? absSum[k].value() / double(finiteCount[k]) / slices[k].scale
            : 0.0;

  if (spec.givenStats) {
    for (int64_t k = 0; k < numSlices; ++k) {
      Slice &s = slices[k];
      s.scale = 1;
      s.meanS = in.mean->get(k);
      s.varS = in.variance->get(k);
      s.centerS = s.meanS;
      s.divisorS = std::sqrt(s.varS + spec.epsilon);
      s.kappa = s.meanAbs / s.divisorS;
    }
    return slices;
  }

  bool needMean = spec.mode == StatMode::Standard || spec.training;
  bool needSumSq = spec.mode != StatMode::Standard;
  double dn = static_cast<double>(n);
  if (needMean) {
    // Pass 1: a first mean.
    std::vector<CompensatedSum> sum(numSlices);
    for (int64_t i = 0; i < numElements; ++i)
      sum[statIdx[i]].add(x.get(i) * slices[statIdx[i]].scale);
    for (int64_t k = 0; k < numSlices; ++k)
      slices[k].meanS = sum[k].value() / dn;
    // Pass 2: refine the mean with the mean deviation, so that the mean of a
    // constant slice is exactly that constant (y = beta exactly). Not for
    // non-finite slices, where the plain mean (+-inf or NaN) is the answer.
    std::vector<CompensatedSum> dev(numSlices);
    for (int64_t i = 0; i < numElements; ++i) {
      const Slice &s = slices[statIdx[i]];
      dev[statIdx[i]].add(x.get(i) * s.scale - s.meanS);
    }
    for (int64_t k = 0; k < numSlices; ++k)
      if (slices[k].finite)
        slices[k].meanS += dev[k].value() / dn;
    // Pass 3: the mean of squared deviations.
    std::vector<CompensatedSum> sq(numSlices);
    for (int64_t i = 0; i < numElements; ++i) {
      const Slice &s = slices[statIdx[i]];
      double d = x.get(i) * s.scale - s.meanS;
      sq[statIdx[i]].add(d * d);
    }
    for (int64_t k = 0; k < numSlices; ++k)
      slices[k].varS = sq[k].value() / dn;
  }
  if (needSumSq) {
    std::vector<CompensatedSum> sq(numSlices);
    for (int64_t i = 0; i < numElements; ++i) {
      double v = x.get(i) * slices[statIdx[i]].scale;
      sq[statIdx[i]].add(v * v);
    }
    for (int64_t k = 0; k < numSlices; ++k)
      slices[k].sumSqS = sq[k].value();
  }
  for (int64_t k = 0; k < numSlices; ++k) {
    Slice &s = slices[k];
    setDivisor(s, spec.mode, spec.epsilon, n);
    // Conditioning: only the centred mode loses accuracy with the offset.
    s.kappa =
        spec.mode == StatMode::Standard ? s.meanAbs * s.scale / s.divisorS : 0;
  }
  return slices;
}

//===----------------------------------------------------------------------===//
// Baseline (A2): plain two-pass, T storage, f32 (or f64) accumulation
//===----------------------------------------------------------------------===//

/// numpy's pairwise summation (blocks of 128 with 8 partial sums).
template <typename Acc>
static Acc pairwiseSum(const Acc *a, int64_t n) {
  if (n < 8) {
    Acc res = 0;
    for (int64_t i = 0; i < n; ++i)
      res += a[i];
    return res;
  }
  if (n <= 128) {
    Acc r[8];
    for (int j = 0; j < 8; ++j)
      r[j] = a[j];
    int64_t i = 8;
    for (; i < n - (n % 8); i += 8)
      for (int j = 0; j < 8; ++j)
        r[j] += a[i + j];
    Acc res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
    for (; i < n; ++i)
      res += a[i];
    return res;
  }
  int64_t n2 = n / 2;
  n2 -= n2 % 8;
  return pairwiseSum(a, n2) + pairwiseSum(a + n2, n - n2);
}

template <typename Acc>
static std::vector<double>
computeBaseline(const NormSpec &spec, const NormInputs &in,
                const std::vector<int64_t> &statIdx,
                const std::vector<int64_t> &affIdx, int64_t numSlices) {
  const HostArray &x = in.x;
  int64_t numElements = x.numElements();
  std::vector<double> y(numElements);
  // Group the elements by slice (counting sort) so that each slice is summed
  // from a contiguous buffer.
  std::vector<int64_t> start(numSlices + 1, 0);
  for (int64_t i = 0; i < numElements; ++i)
    ++start[statIdx[i] + 1];
  for (int64_t k = 0; k < numSlices; ++k)
    start[k + 1] += start[k];
  std::vector<int64_t> members(numElements);
  {
    std::vector<int64_t> fill(start.begin(), start.end() - 1);
    for (int64_t i = 0; i < numElements; ++i)
      members[fill[statIdx[i]]++] = i;
  }
  Acc eps = static_cast<Acc>(spec.epsilon);
  std::vector<Acc> buf, tmp;
  for (int64_t k = 0; k < numSlices; ++k) {
    int64_t cnt = start[k + 1] - start[k];
    buf.resize(cnt);
    tmp.resize(cnt);
    for (int64_t j = 0; j < cnt; ++j)
      buf[j] = static_cast<Acc>(x.get(members[start[k] + j]));
    Acc center = 0, divisor = 1;
    bool zeroNorm = false;
    if (spec.givenStats) {
      center = static_cast<Acc>(in.mean->get(k));
      divisor = std::sqrt(static_cast<Acc>(in.variance->get(k)) + eps);
    } else if (spec.mode == StatMode::Standard) {
      Acc n = static_cast<Acc>(cnt);
      center = pairwiseSum(buf.data(), cnt) / n;
      for (int64_t j = 0; j < cnt; ++j)
        tmp[j] = (buf[j] - center) * (buf[j] - center);
      divisor = std::sqrt(pairwiseSum(tmp.data(), cnt) / n + eps);
    } else {
      for (int64_t j = 0; j < cnt; ++j)
        tmp[j] = buf[j] * buf[j];
      Acc sumSq = pairwiseSum(tmp.data(), cnt);
      if (spec.mode == StatMode::RMS) {
        divisor = std::sqrt(sumSq / static_cast<Acc>(cnt) + eps);
      } else {
        zeroNorm = sumSq == 0;
        divisor = std::max(std::sqrt(sumSq), eps);
      }
    }
    // Multiply by the reciprocal, as PyTorch's and oneDNN's kernels do
    // (invstd), rather than divide per element.
    Acc inverse = Acc(1) / divisor;
    for (int64_t j = 0; j < cnt; ++j) {
      int64_t i = members[start[k] + j];
      Acc xhat = zeroNorm ? Acc(0) : (buf[j] - center) * inverse;
      Acc gamma =
          spec.hasScale ? static_cast<Acc>(in.scale->get(affIdx[i])) : Acc(1);
      Acc beta =
          spec.hasBias ? static_cast<Acc>(in.bias->get(affIdx[i])) : Acc(0);
      y[i] = roundTo(spec.outType, static_cast<double>(xhat * gamma + beta));
    }
  }
  return y;
}

//===----------------------------------------------------------------------===//
// computeReference
//===----------------------------------------------------------------------===//

/// K_N = 2 * ceil(log2 N) + 16.
static double budgetK(int64_t n) {
  int64_t log2 = 0;
  while ((int64_t(1) << log2) < n)
    ++log2;
  return 2.0 * double(log2) + 16.0;
}

/// The extra tolerance of a statistic stored narrower than it is computed:
/// one rounding to the storage type (numerics.md §2.3), plus the subnormal
/// floor of that type.
static double storageTol(DType dtype, double u, double r) {
  double extra = 2 * dtypeMinSubnormal(dtype);
  if (dtypeEpsilon(dtype) > 2 * u && std::isfinite(r))
    extra += dtypeEpsilon(dtype) * std::fabs(r);
  return extra;
}

static RefOutput makeStatOutput(std::string name, DType dtype,
                                const std::vector<int64_t> &shape,
                                int64_t numSlices) {
  RefOutput out;
  out.name = std::move(name);
  out.dtype = dtype;
  out.shape = shape;
  out.ref.resize(numSlices);
  out.tol.resize(numSlices);
  return out;
}

std::vector<RefOutput>
mlir::norm::computeReference(const NormSpec &spec, const NormInputs &inputs,
                             const std::vector<DType> &outDTypes) {
  const HostArray &x = inputs.x;
  std::vector<int64_t> statShape = statisticsShape(spec, x.shape);
  int64_t numSlices = 1;
  for (int64_t d : statShape)
    numSlices *= d;
  int64_t numElements = x.numElements();
  std::vector<int64_t> statIdx = statisticsIndex(spec, x.shape);
  std::vector<int64_t> affIdx = affineIndex(spec, x.shape);
  int64_t n = reductionSize(spec, x.shape);
  int64_t nReduced = spec.givenStats ? 1 : n;
  std::vector<Slice> slices =
      computeSlices(spec, inputs, statIdx, numSlices, nReduced);

  double K = budgetK(nReduced);
  double u = spec.accType == DType::F64 ? 0x1p-53 : 0x1p-24;
  auto dtypeOf = [&](size_t result) {
    if (result == 0)
      return spec.outType;
    return result < outDTypes.size() ? outDTypes[result] : spec.accType;
  };

  std::vector<RefOutput> outputs;

  // y.
  {
    RefOutput y;
    y.name = "y";
    y.dtype = spec.outType;
    y.shape = x.shape;
    y.ref.resize(numElements);
    y.tol.resize(numElements);
    y.exact.resize(numElements);
    double epsT = dtypeEpsilon(spec.outType);
    double tauT = 2 * dtypeMinSubnormal(spec.outType);
    bool centred = spec.mode == StatMode::Standard;
    for (int64_t i = 0; i < numElements; ++i) {
      const Slice &s = slices[statIdx[i]];
      double gamma = spec.hasScale ? inputs.scale->get(affIdx[i]) : 1.0;
      double beta = spec.hasBias ? inputs.bias->get(affIdx[i]) : 0.0;
      double xhat =
          s.zeroNorm ? 0.0 : (x.get(i) * s.scale - s.centerS) / s.divisorS;
      double gx = gamma * xhat;
      double exact = gx + beta;
      double r = roundTo(spec.outType, exact);
      double m = std::max(std::fabs(r), std::fabs(gx) + std::fabs(beta));
      double budget = centred
                          ? std::fabs(gamma) * (std::fabs(xhat) + 2 * s.kappa) +
                                std::fabs(beta)
                          : std::fabs(gx);
      y.exact[i] = exact;
      y.ref[i] = r;
      y.tol[i] = 2 * epsT * m + K * u * budget + tauT;
    }
    if (spec.accType == DType::F64)
      y.baseline =
          computeBaseline<double>(spec, inputs, statIdx, affIdx, numSlices);
    else
      y.baseline =
          computeBaseline<float>(spec, inputs, statIdx, affIdx, numSlices);
    outputs.push_back(std::move(y));
  }

  // Saved statistics.
  if (spec.savedStats) {
    auto push =
        [&](const char *name,
            llvm::function_ref<void(const Slice &, double &r, double &tol)>
                fill) {
          DType dtype = dtypeOf(outputs.size());
          RefOutput out = makeStatOutput(name, dtype, statShape, numSlices);
          for (int64_t k = 0; k < numSlices; ++k) {
            double r, tol;
            fill(slices[k], r, tol);
            r = roundTo(dtype, r);
            out.ref[k] = r;
            out.tol[k] = tol + storageTol(dtype, u, r);
          }
          outputs.push_back(std::move(out));
        };
    // rstd and the inverse norm: relative (K_N + 8) u.
    auto inverse = [&](const Slice &s, double &r, double &tol) {
      r = s.scale / s.divisorS;
      tol = (K + 8) * u * std::fabs(r);
    };
    switch (spec.mode) {
    case StatMode::Standard:
      push("saved_mean", [&](const Slice &s, double &r, double &tol) {
        r = s.meanS / s.scale;
        tol = K * u * s.meanAbs;
      });
      if (spec.savedVariance)
        push("saved_var", [&](const Slice &s, double &r, double &tol) {
          r = s.varS / (s.scale * s.scale);
          tol = 2 * K * u * r;
        });
      else
        push("saved_rstd", inverse);
      break;
    case StatMode::RMS:
      push("saved_rstd", inverse);
      break;
    case StatMode::L2:
      push("saved_inv_norm", inverse);
      break;
    }
  }

  // Running statistics: running <- (1 - m) running + m batch; a side of
  // weight exactly 0 is left out (momentum 0 keeps the running statistics
  // even for a batch holding NaN or Inf, momentum 1 replaces them).
  if (spec.training) {
    double mom = spec.momentum;
    double keep = 1 - mom;
    auto update = [&](double running, double batch) {
      if (mom == 0)
        return running;
      if (mom == 1)
        return batch;
      return keep * running + mom * batch;
    };
    {
      DType dtype = dtypeOf(outputs.size());
      RefOutput out =
          makeStatOutput("running_mean", dtype, statShape, numSlices);
      for (int64_t k = 0; k < numSlices; ++k) {
        const Slice &s = slices[k];
        double running = inputs.runningMean->get(k);
        double batch = s.meanS / s.scale;
        double r = roundTo(dtype, update(running, batch));
        out.ref[k] = r;
        out.tol[k] = K * u *
                         (std::fabs(keep * running) + std::fabs(mom * running) +
                          std::fabs(mom) * s.meanAbs) +
                     storageTol(dtype, u, r);
      }
      outputs.push_back(std::move(out));
    }
    {
      DType dtype = dtypeOf(outputs.size());
      RefOutput out =
          makeStatOutput("running_var", dtype, statShape, numSlices);
      for (int64_t k = 0; k < numSlices; ++k) {
        const Slice &s = slices[k];
        double running = inputs.runningVar->get(k);
        double var = s.varS / (s.scale * s.scale);
        // With n == 1 the unbiased factor is undefined: use a variance of 0
        // (the op docs), not NaN.
        double batch = var;
        if (spec.unbiased)
          batch = n > 1 ? var * double(n) / double(n - 1)
                        : (std::isnan(var) ? var : 0.0);
        double r = roundTo(dtype, update(running, batch));
        out.ref[k] = r;
        out.tol[k] = K * u *
                         (std::fabs(keep * running) + std::fabs(mom * running) +
                          2 * std::fabs(mom * batch)) +
                     storageTol(dtype, u, r);
      }
      outputs.push_back(std::move(out));
    }
  }
  return outputs;
}

//===----------------------------------------------------------------------===//
// compareOutput
//===----------------------------------------------------------------------===//

/// 0 finite, 1 NaN, 2 +inf, 3 -inf.
static int specialClass(double v) {
  if (std::isnan(v))
    return 1;
  if (std::isinf(v))
    return v > 0 ? 2 : 3;
  return 0;
}

Comparison mlir::norm::compareOutput(const RefOutput &ref,
                                     const HostArray &got) {
  Comparison c;
  c.name = ref.name;
  int64_t numElements = static_cast<int64_t>(ref.ref.size());
  c.numElements = numElements;
  if (got.numElements() != numElements) {
    c.maxRatio = std::numeric_limits<double>::infinity();
    c.nanInfMismatches = std::max<int64_t>(numElements, 1);
    c.pass = false;
    return c;
  }

  double worstBadness = -1;
  int64_t zeros = 0;
  for (int64_t i = 0; i < numElements; ++i) {
    double g = got.get(i), r = ref.ref[i];
    if (r == 0)
      ++zeros;
    double badness;
    if (specialClass(g) != specialClass(r)) {
      ++c.nanInfMismatches;
      badness = std::numeric_limits<double>::infinity();
      if (specialClass(r) == 0)
        c.maxRatio = badness; // finite ref, non-finite result
    } else if (specialClass(r) != 0) {
      badness = 0; // same special value
    } else {
      double err = std::fabs(g - r);
      double tol = ref.tol[i];
      badness = err == 0  ? 0.0
                : tol > 0 ? err / tol
                          : std::numeric_limits<double>::infinity();
      c.maxRatio = std::max(c.maxRatio, badness);
    }
    if (badness > worstBadness) {
      worstBadness = badness;
      c.worstIndex = i;
      c.worstGot = g;
      c.worstRef = r;
    }
  }
  c.zeroFraction = numElements ? double(zeros) / double(numElements) : 0;

  // A2: RMSE against the unrounded reference, over entries where all three
  // are finite (A1 already judges the others).
  if (!ref.baseline.empty() && !ref.exact.empty()) {
    double sumGot = 0, sumBase = 0;
    int64_t count = 0;
    for (int64_t i = 0; i < numElements; ++i) {
      double e = ref.exact[i], g = got.get(i), b = ref.baseline[i];
      if (!std::isfinite(e) || !std::isfinite(g) || !std::isfinite(b))
        continue;
      sumGot += (g - e) * (g - e);
      sumBase += (b - e) * (b - e);
      ++count;
    }
    if (count) {
      c.rmseGot = std::sqrt(sumGot / double(count));
      c.rmseBase = std::sqrt(sumBase / double(count));
    }
    bool narrow = ref.dtype == DType::F16 || ref.dtype == DType::BF16;
    double k = numElements < 1000 ? (narrow ? 5 : 3) : (narrow ? 3 : 2);
    c.rmsePass = c.rmseGot <= k * c.rmseBase + 1e-7;
  }
  c.pass = c.maxRatio <= 1 && c.nanInfMismatches == 0 && c.rmsePass;
  return c;
}
