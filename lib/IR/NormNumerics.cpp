//===- NormNumerics.cpp - the op's per-slice scalar formulas --------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/IR/NormNumerics.h"
#include "norm/IR/NormOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/TypeUtilities.h"

#include <cmath>
#include <limits>

using namespace mlir;

static Value floatConstant(OpBuilder &b, Location loc, Type type,
                           double value) {
  return createScalarOrSplatConstant(
      b, loc, type,
      b.getFloatAttr(getElementTypeOrSelf(type), value).getValue());
}

/// The integer type (or vector of it) of the width of the float `type`.
static Type bitsTypeOf(OpBuilder &b, Type type) {
  Type bits =
      b.getIntegerType(getElementTypeOrSelf(type).getIntOrFloatBitWidth());
  if (auto vector = dyn_cast<VectorType>(type))
    return vector.clone(bits);
  return bits;
}

static Value zeroOf(OpBuilder &b, Location loc, Type type) {
  return arith::ConstantOp::create(b, loc, b.getZeroAttr(type));
}

Value mlir::norm::buildIsFinite(OpBuilder &b, Location loc, Value v) {
  return arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ,
                               arith::SubFOp::create(b, loc, v, v),
                               zeroOf(b, loc, v.getType()));
}

std::pair<Value, Value> mlir::norm::buildCompensatedAdd(OpBuilder &b,
                                                        Location loc, Value sum,
                                                        Value carry,
                                                        Value term) {
  Value y = arith::SubFOp::create(b, loc, term, carry);
  Value next = arith::AddFOp::create(b, loc, sum, y);
  Value lost = arith::SubFOp::create(
      b, loc, arith::SubFOp::create(b, loc, next, sum), y);
  Value newCarry = arith::SelectOp::create(b, loc, buildIsFinite(b, loc, next),
                                           lost, zeroOf(b, loc, sum.getType()));
  return {next, newCarry};
}

Value mlir::norm::buildMultiplyAdd(OpBuilder &b, Location loc, Value a, Value c,
                                   Value addend) {
  auto contract = arith::FastMathFlags::contract;
  Value product = arith::MulFOp::create(b, loc, a, c, contract);
  return arith::AddFOp::create(b, loc, product, addend, contract);
}

Value mlir::norm::buildNormalizedValue(OpBuilder &b, Location loc, Value t,
                                       Value mean, Value l2Scale, Value rstd,
                                       Value gamma, Value beta) {
  if (mean)
    t = arith::SubFOp::create(b, loc, t, mean);
  if (l2Scale)
    t = arith::MulFOp::create(b, loc, t, l2Scale);
  t = arith::MulFOp::create(b, loc, t, rstd);
  if (gamma && beta)
    return buildMultiplyAdd(b, loc, t, gamma, beta);
  if (gamma)
    return arith::MulFOp::create(b, loc, t, gamma);
  if (beta)
    return arith::AddFOp::create(b, loc, t, beta);
  return t;
}

Value mlir::norm::buildScaleFactor(OpBuilder &b, Location loc, Value maxAbs) {
  auto acc = cast<FloatType>(getElementTypeOrSelf(maxAbs.getType()));
  unsigned width = acc.getWidth();
  unsigned mantissa = acc.getFPMantissaWidth() - 1;
  unsigned exponentBits = width - 1 - mantissa;
  int64_t bias = (int64_t(1) << (exponentBits - 1)) - 1;
  Type intType = bitsTypeOf(b, maxAbs.getType());
  auto intConstant = [&](int64_t v) {
    return createScalarOrSplatConstant(b, loc, intType, v);
  };
  Value bits = arith::BitcastOp::create(b, loc, intType, maxAbs);
  Value exponent = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, intConstant(mantissa)),
      intConstant((int64_t(1) << exponentBits) - 1));
  exponent = arith::MinSIOp::create(
      b, loc, arith::MaxSIOp::create(b, loc, exponent, intConstant(1)),
      intConstant(2 * bias - 1));
  Value kExponent =
      arith::SubIOp::create(b, loc, intConstant(2 * bias), exponent);
  Value kBits = arith::ShLIOp::create(b, loc, kExponent, intConstant(mantissa));
  return arith::BitcastOp::create(b, loc, maxAbs.getType(), kBits);
}

/// 1/k for a power of two k built by buildScaleFactor, from its exponent
/// bits: exact (k and 1/k are normal), so multiplying by it is dividing by k
/// at the latency of a multiplication.
static Value inverseScaleFactor(OpBuilder &b, Location loc, Value k) {
  auto acc = cast<FloatType>(getElementTypeOrSelf(k.getType()));
  unsigned width = acc.getWidth();
  unsigned mantissa = acc.getFPMantissaWidth() - 1;
  int64_t bias = (int64_t(1) << (width - 2 - mantissa)) - 1;
  Type intType = bitsTypeOf(b, k.getType());
  Value twiceBias =
      createScalarOrSplatConstant(b, loc, intType, (2 * bias) << mantissa);
  Value bits = arith::BitcastOp::create(b, loc, intType, k);
  return arith::BitcastOp::create(
      b, loc, k.getType(), arith::SubIOp::create(b, loc, twiceBias, bits));
}

Value mlir::norm::buildScaledRsqrt(OpBuilder &b, Location loc, Value momentK,
                                   Value k, double eps) {
  Type acc = momentK.getType();
  Value epsValue = floatConstant(b, loc, acc, eps);
  Value epsK = arith::MulFOp::create(
      b, loc, arith::MulFOp::create(b, loc, epsValue, k), k);
  Value rstd = arith::MulFOp::create(
      b, loc, k,
      math::RsqrtOp::create(b, loc,
                            arith::AddFOp::create(b, loc, momentK, epsK)));
  if (eps <= 0)
    return rstd;
  Value kInverse = inverseScaleFactor(b, loc, k);
  Value moment = arith::MulFOp::create(
      b, loc, arith::MulFOp::create(b, loc, momentK, kInverse), kInverse);
  Value unscaled = math::RsqrtOp::create(
      b, loc, arith::AddFOp::create(b, loc, moment, epsValue));
  rstd = arith::SelectOp::create(b, loc, buildIsFinite(b, loc, epsK), rstd,
                                 unscaled);
  Value bound = floatConstant(b, loc, acc, 1.0 / std::sqrt(eps));
  return arith::MinimumFOp::create(b, loc, rstd, bound);
}

norm::CenteredStatistics mlir::norm::buildCenteredStatistics(
    OpBuilder &b, Location loc, Value sumSquares, Value k, Value sumDeviations,
    Value mean, Value count, double eps) {
  Value zero = floatConstant(b, loc, sumSquares.getType(), 0.0);
  Value meanShift = arith::DivFOp::create(b, loc, sumDeviations, count);
  Value correction = arith::MulFOp::create(b, loc, sumDeviations, meanShift);
  Value centered = arith::SubFOp::create(b, loc, sumSquares, correction);
  Value varK = arith::MaximumFOp::create(
      b, loc, arith::DivFOp::create(b, loc, centered, count), zero);
  Value kInverse = inverseScaleFactor(b, loc, k);
  Value shift = arith::MulFOp::create(b, loc, meanShift, kInverse);
  Value correctedMean =
      arith::SelectOp::create(b, loc, buildIsFinite(b, loc, shift),
                              arith::AddFOp::create(b, loc, mean, shift), mean);
  Value variance = arith::MulFOp::create(
      b, loc, arith::MulFOp::create(b, loc, varK, kInverse), kInverse);
  return {variance, buildScaledRsqrt(b, loc, varK, k, eps), correctedMean};
}

std::pair<Value, Value> mlir::norm::buildL2Inverse(OpBuilder &b, Location loc,
                                                   Value sumSquares, Value k,
                                                   Value maxAbs, double eps) {
  Type acc = sumSquares.getType();
  Value zero = floatConstant(b, loc, acc, 0.0);
  Value one = floatConstant(b, loc, acc, 1.0);
  Value norm = math::SqrtOp::create(b, loc, sumSquares);
  Value epsK =
      arith::MulFOp::create(b, loc, floatConstant(b, loc, acc, eps), k);
  Value clamped = arith::MaximumFOp::create(b, loc, norm, epsK);
  Value inv = arith::DivFOp::create(b, loc, one, clamped);
  Value isZero =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OEQ, maxAbs, zero);
  Value scaledInv = arith::SelectOp::create(b, loc, isZero, zero, inv);
  // The saved inverse norm of a zero slice is still 1/max(0, ε): 1/ε, or
  // +Inf with ε = 0; only the normalized values are 0.
  Value savedZero = floatConstant(
      b, loc, acc,
      eps > 0 ? 1.0 / eps : std::numeric_limits<double>::infinity());
  Value saved = arith::SelectOp::create(b, loc, isZero, savedZero,
                                        arith::MulFOp::create(b, loc, inv, k));
  return {scaledInv, saved};
}

Value mlir::norm::buildGivenRstd(OpBuilder &b, Location loc, Value variance,
                                 double eps) {
  Value epsValue = floatConstant(b, loc, variance.getType(), eps);
  return math::RsqrtOp::create(
      b, loc, arith::AddFOp::create(b, loc, variance, epsValue));
}

Value mlir::norm::buildUnbiasFactor(OpBuilder &b, Location loc, Value count) {
  Type acc = count.getType();
  Value one = floatConstant(b, loc, acc, 1.0);
  Value zero = floatConstant(b, loc, acc, 0.0);
  Value nMinusOne = arith::SubFOp::create(b, loc, count, one);
  Value ratio = arith::DivFOp::create(b, loc, count, nMinusOne);
  Value many =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, count, one);
  return arith::SelectOp::create(b, loc, many, ratio, zero);
}

Value mlir::norm::buildRunningUpdate(OpBuilder &b, Location loc, Value running,
                                     Value batch, double momentum) {
  // The end points keep one side only, so that an infinite batch statistic
  // with momentum 0 (or running one with 1) does not turn 0·Inf into NaN.
  if (momentum == 0)
    return running;
  if (momentum == 1)
    return batch;
  Type acc = batch.getType();
  Value old = arith::MulFOp::create(
      b, loc, floatConstant(b, loc, acc, 1.0 - momentum), running);
  Value fresh = arith::MulFOp::create(
      b, loc, floatConstant(b, loc, acc, momentum), batch);
  return arith::AddFOp::create(b, loc, old, fresh);
}

/// The type of `v` (a scalar or a vector) with `element` as element type.
static Type withElementType(Value v, Type element) {
  if (auto vec = dyn_cast<VectorType>(v.getType()))
    return vec.clone(element);
  return element;
}

Value mlir::norm::convertFloat(OpBuilder &b, Location loc, Value v, Type type) {
  Type from = getElementTypeOrSelf(v.getType());
  if (from == type)
    return v;
  Type target = withElementType(v, type);
  if (from.getIntOrFloatBitWidth() < type.getIntOrFloatBitWidth())
    return arith::ExtFOp::create(b, loc, target, v);
  if (from.isF64() && type.getIntOrFloatBitWidth() == 16)
    return arith::TruncFOp::create(b, loc, target, roundToOddF32(b, loc, v));
  return arith::TruncFOp::create(b, loc, target, v);
}

Value mlir::norm::buildBF16RoundedBits(OpBuilder &b, Location loc, Value v) {
  Type i32 = withElementType(v, b.getI32Type());
  auto constant = [&](int64_t c) {
    return createScalarOrSplatConstant(b, loc, i32, c);
  };
  Value x = arith::BitcastOp::create(b, loc, i32, v);
  // x + 0x7fff + (bit 16 of x): ties go to the even neighbour.
  Value lsb = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, x, constant(16)), constant(1));
  Value rounded = arith::AddIOp::create(
      b, loc, x, arith::AddIOp::create(b, loc, lsb, constant(0x7fff)));
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, v, v);
  Value quiet = arith::OrIOp::create(b, loc, x, constant(0x400000));
  return arith::SelectOp::create(b, loc, isNaN, quiet, rounded);
}

Value mlir::norm::roundToOddF32(OpBuilder &b, Location loc, Value v) {
  Type f32 = withElementType(v, b.getF32Type());
  Type i32 = withElementType(v, b.getI32Type());
  Value nearest = arith::TruncFOp::create(b, loc, f32, v);
  Value back = arith::ExtFOp::create(b, loc, v.getType(), nearest);
  // Rounded away from zero: step the magnitude back (sign-magnitude bits).
  Value away = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT,
                                     math::AbsFOp::create(b, loc, back),
                                     math::AbsFOp::create(b, loc, v));
  Value bits = arith::BitcastOp::create(b, loc, i32, nearest);
  Value one = createScalarOrSplatConstant(b, loc, i32, int64_t(1));
  Value towardZero = arith::SelectOp::create(
      b, loc, away, arith::SubIOp::create(b, loc, bits, one), bits);
  // Inexact (NaN included): make the last bit sticky.
  Value inexact =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNE, back, v);
  Value odd = arith::SelectOp::create(
      b, loc, inexact, arith::OrIOp::create(b, loc, towardZero, one), bits);
  return arith::BitcastOp::create(b, loc, f32, odd);
}

SmallVector<Value> mlir::norm::getSavedValues(NormalizeOp op,
                                              const SliceStatistics &s) {
  if (op.getMode() == NormMode::standard)
    return {s.mean, op.getSavedVariance() ? s.variance : s.rstd};
  return {s.savedInverseNorm ? s.savedInverseNorm : s.rstd};
}

Value mlir::norm::buildRunningVarianceInput(OpBuilder &b, Location loc,
                                            NormalizeOp op, Value variance,
                                            Value count) {
  if (!op.getUnbiased())
    return variance;
  return arith::MulFOp::create(b, loc, variance,
                               buildUnbiasFactor(b, loc, count));
}
