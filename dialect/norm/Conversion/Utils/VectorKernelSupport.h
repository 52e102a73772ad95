//===- VectorKernelSupport.h - which ops have a CPU vector kernel -*- C++ -*-=//
//
// Part of the norm-mlir project.
//
// The predicate shared by the conversions that split the work between the
// CPU vector kernels and linalg: it lives here so that neither conversion
// depends on the other.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_CONVERSION_UTILS_VECTORKERNELSUPPORT_H
#define NORM_CONVERSION_UTILS_VECTORKERNELSUPPORT_H

namespace mlir {
namespace norm {
class NormalizeOp;

/// True when `op` (tensor or memref form) has a vector kernel: f32
/// accumulation, float element types, ascending affine dims, and the
/// innermost (group-expanded) dim reduced, so each statistics slice is a set
/// of contiguous runs. The other ops go through linalg.
bool hasVectorKernel(NormalizeOp op);

} // namespace norm
} // namespace mlir

#endif // NORM_CONVERSION_UTILS_VECTORKERNELSUPPORT_H
