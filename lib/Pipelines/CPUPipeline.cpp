//===- CPUPipeline.cpp - norm-lower-to-cpu-pipeline -----------------------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#include "norm/Pipelines/Pipelines.h"

#include "norm/Conversion/Passes.h"
#include "norm/Transforms/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void mlir::norm::buildLowerToCPUPipeline(OpPassManager &pm,
                                         const CPUPipelineOptions &options) {
  // norm → linalg on tensors, except the ops that have a vector kernel:
  // they bufferize as they are and get it below.
  bool vectorKernels = options.vectorKernels;
  int64_t vectorBits =
      options.vectorBits > 0 ? options.vectorBits : getHostVectorBits();
  // The ops whose innermost dim is not reduced: tiled over threads and
  // vectorized. Those that compute statistics only with OpenMP (their
  // reductions split over the threads); without, they take the serial
  // loops below, which compile in about 100 ms against the split's 270-290,
  // though the split is faster on one thread too (5.40 vs 4.2 GB/s, [N, C]
  // 65536x1024).
  if (options.tiledLinalg) {
    NormTileAndVectorizePassOptions tiling;
    tiling.vectorBits = vectorBits;
    tiling.computedStatistics = options.openmp;
    // Without the vector kernels, slices along trailing dims take the
    // tiled linalg form too.
    tiling.rowStatistics = !vectorKernels;
    pm.addPass(createNormTileAndVectorizePass(tiling));
  }
  ConvertNormToLinalgPassOptions toLinalg;
  toLinalg.keepVectorKernels = vectorKernels;
  pm.addPass(createConvertNormToLinalgPass(toLinalg));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // The loops below accumulate serially: compensate the sums so that their
  // error does not grow with the row length.
  pm.addPass(createNormCompensateSumsPass());
  // The normalize step (and the small statistics maps) in masked vectors.
  pm.addPass(createNormVectorizeElementwisePass());
  // vector.mask regions become masked transfers now: later folds would
  // materialize constants inside the single-op regions.
  pm.addNestedPass<func::FuncOp>(vector::createLowerVectorMaskPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // A tile's saved statistics are written where the result lives, not
  // into a buffer copied there.
  pm.addPass(bufferization::createEmptyTensorEliminationPass());
  buildBufferizeToOutParamsPipeline(pm);
  // Outputs larger than the caches are written without reading them first.
  pm.addNestedPass<func::FuncOp>(createNormStreamStoresPass());
  // A slice's later passes run from cache: the next slice's reads overlap
  // them.
  pm.addNestedPass<func::FuncOp>(createNormPrefetchNextSlicePass());

  if (vectorKernels) {
    ConvertNormToVectorPassOptions toVector;
    toVector.vectorBits = vectorBits;
    pm.addPass(createConvertNormToVectorPass(toVector));
    pm.addPass(createCanonicalizerPass());
  }

  // The tiles' scf.forall and linalg → loops: scf.parallel over the
  // parallel dims.
  pm.addPass(createForallToParallelLoopPass());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  pm.addPass(createCanonicalizerPass());
  if (options.openmp)
    pm.addPass(createConvertSCFToOpenMPPass());
  else
    pm.addPass(createParallelForToNestedForsPass());

  // Transfers of rank > 1 become loops of 1-D transfers.
  pm.addPass(createConvertVectorToSCFPass());

  // → LLVM. memref lowering must precede scf-to-cf: the OpenMP body holds a
  // memref.alloca_scope with one block only.
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createSCFToControlFlowPass());
  // One bf16 rounding for every target (NaNs keep their sign); f32 vectors
  // narrow by one 16-bit shuffle at 512 bits.
  NormExpandBF16TruncationPassOptions bf16;
  bf16.vectorBits = vectorBits;
  pm.addPass(createNormExpandBF16TruncationPass(bf16));
  arith::ArithExpandOpsPassOptions expand;
  expand.includeBf16 = true;
  pm.addPass(arith::createArithExpandOpsPass(expand));
  if (options.cInterface)
    pm.addNestedPass<func::FuncOp>(LLVM::createLLVMRequestCWrappersPass());
  ConvertVectorToLLVMPassOptions toLLVM;
  toLLVM.reassociateFPReductions = true;
  pm.addPass(createConvertVectorToLLVMPass(toLLVM));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  if (options.openmp)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  // No libcall for 16-bit floats: masked moves of their bits as integers.
  pm.addPass(createNormMaskedHalfAsIntegerPass());
  pm.addPass(createCanonicalizerPass());
}

void mlir::norm::buildBufferizeToOutParamsPipeline(OpPassManager &pm) {
  // Tensor arguments are values: never write the caller's buffers. Each
  // result gets its own value, hence its own out-parameter.
  pm.addPass(createNormReadOnlyArgumentsPass());
  pm.addPass(createNormDistinctResultsPass());
  // Bufferize with identity layouts at function boundaries (unit strides
  // stay known), then turn tensor results into out-parameters written in
  // place: the memref-in / memref-out ABI.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(createCanonicalizerPass());
  // A result computed in a collapsed shape is returned as its alloc.
  pm.addPass(createNormExpandReshapedAllocsPass());
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.hoistDynamicAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(createCanonicalizerPass());
  bufferization::buildBufferDeallocationPipeline(pm);
}
