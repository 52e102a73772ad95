//===- Pipelines.h - norm lowering pipelines --------------------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_PIPELINES_PIPELINES_H
#define NORM_PIPELINES_PIPELINES_H

#include "mlir/Pass/PassOptions.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/Support/Error.h"

#include <string>

namespace mlir {
class ModuleOp;
class OpPassManager;
class PassManager;
namespace norm {

/// Options of norm-lower-to-cpu-pipeline.
struct CPUPipelineOptions : public PassPipelineOptions<CPUPipelineOptions> {
  PassOptions::Option<bool> openmp{
      *this, "openmp",
      llvm::cl::desc("Run the parallel loops on OpenMP threads (the caller "
                     "links libomp); serial loops otherwise"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> cInterface{
      *this, "c-interface",
      llvm::cl::desc("Emit _mlir_ciface_ wrappers taking memref descriptors "
                     "for every function"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> vectorKernels{
      *this, "vector-kernels",
      llvm::cl::desc("Lower the ops that have one to CPU vector kernels "
                     "(convert-norm-to-vector); the others, and all with "
                     "false, go through linalg loops"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> tiledLinalg{
      *this, "tiled-linalg",
      llvm::cl::desc("Tile the ops whose innermost dim is not reduced over "
                     "threads and vectorize their linalg form "
                     "(norm-tile-and-vectorize): those with given "
                     "statistics always, those that compute them with "
                     "openmp; false lowers them through serial linalg "
                     "loops"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> vectorBits{
      *this, "vector-bits",
      llvm::cl::desc("Vector width of the kernels in bits; 0 detects the "
                     "host (512 with AVX-512F, else 256)"),
      llvm::cl::init(0)};
};

/// Lowers a module of functions on tensors that use norm ops to the LLVM
/// dialect: norm → (vector kernels after bufferization, or linalg on
/// tensors) → bufferized with the memref-in /
/// memref-out ABI (every tensor result becomes a trailing out-parameter
/// written in place) → loops → LLVM. 16-bit floats are widened with integer
/// arithmetic, so the code needs no libcall.
void buildLowerToCPUPipeline(OpPassManager &pm,
                             const CPUPipelineOptions &options);

/// Bufferizes functions on tensors with the memref-in / memref-out ABI:
/// tensor arguments are read-only, each result gets its own buffer, function
/// boundaries take identity layouts, and tensor results become trailing
/// out-parameters written in place. Shared by the CPU and GPU pipelines.
void buildBufferizeToOutParamsPipeline(OpPassManager &pm);

struct NVVMPipelineOptions : public PassPipelineOptions<NVVMPipelineOptions> {
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("The GPU architecture (sm_90: H100/H200)"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features (+ptx80: PTX 8.0, which sm_90 needs)"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What the host code embeds: isa (PTX, JIT-compiled by "
                     "the driver at load; needs no CUDA here), bin (cubin) "
                     "or fatbin (both need ptxas)"),
      llvm::cl::init("isa")};
  PassOptions::Option<int64_t> optLevel{
      *this, "opt-level", llvm::cl::desc("LLVM optimization level of kernels"),
      llvm::cl::init(3)};
  PassOptions::Option<std::string> cudaToolkit{
      *this, "cuda-toolkit",
      llvm::cl::desc("The CUDA toolkit (libdevice, ptxas); empty: "
                     "$CUDA_HOME, $CUDA_PATH or /usr/local/cuda"),
      llvm::cl::init("")};
  PassOptions::Option<int64_t> blockSize{
      *this, "block-size",
      llvm::cl::desc("convert-norm-to-gpu's threads per block"),
      llvm::cl::init(256)};
  PassOptions::Option<int64_t> vectorBytes{
      *this, "vector-bytes",
      llvm::cl::desc("convert-norm-to-gpu's bytes per vector access"),
      llvm::cl::init(16)};
  PassOptions::Option<bool> cInterface{
      *this, "c-interface",
      llvm::cl::desc("Emit _mlir_ciface_ wrappers taking memref descriptors "
                     "for every host function"),
      llvm::cl::init(true)};
};

/// Lowers a module of functions on tensors that use norm ops to host code
/// in the LLVM dialect that launches NVVM kernels: bufferized with the
/// memref-in / memref-out ABI (arguments are device pointers), each op
/// becomes one gpu.launch (convert-norm-to-gpu), the kernels are outlined,
/// lowered to NVVM with libdevice linked, and serialized into the module
/// (PTX by default). The host code calls the mgpu* runtime functions
/// (norm_cuda_runtime).
void buildLowerToNVVMPipeline(OpPassManager &pm,
                              const NVVMPipelineOptions &options);

/// What a target's pipeline is built with: the target, and the options of
/// its pipeline (those of the other target keep their defaults).
struct TargetPipelineOptions {
  /// cpu (norm-lower-to-cpu-pipeline) or cuda (norm-lower-to-nvvm-pipeline).
  std::string target = "cpu";
  /// cpu: see CPUPipelineOptions.
  bool openmp = false;
  bool vectorKernels = true;
  bool tiledLinalg = true;
  int64_t vectorBits = 0;
  /// cuda: see NVVMPipelineOptions (format, chip).
  std::string gpuFormat = "isa";
  std::string chip = "sm_90";
};

/// Whether `options` name a target and only options it takes.
llvm::Error verifyTargetPipelineOptions(const TargetPipelineOptions &options);

/// Appends the pipeline of `options.target` to `pm`: the one place where a
/// target is mapped to its pipeline (the JIT, norm-compile and the C API
/// build theirs here). Fails, adding nothing, where
/// verifyTargetPipelineOptions does.
llvm::Error buildLowerToTargetPipeline(OpPassManager &pm,
                                       const TargetPipelineOptions &options);

/// Runs `pm` (a target's pipeline) on `module` with the IR verified at both
/// ends instead of after every pass: the input (a caller's module, or what a
/// user's pre-pipeline left) before the first pass, the result after the
/// last. The pipelines' passes are tested with verification after each
/// (norm-opt and lit), and the per-pass verifier was about a tenth of a tiled
/// kernel's compile time. Fails where either does not verify or a pass fails.
LogicalResult runVerifiedAtEnds(PassManager &pm, ModuleOp module);

/// The LLVM optimization level of the code a pipeline's output becomes: the
/// JIT (what norm-runner checks and times) and norm-compile (what a program
/// links) use this one, so that the code measured is the code shipped. (At
/// 2, the JIT's serial [N, C] BatchNorm training, 16384x1024 f32, took 26.5
/// ms at best against 19.5 at 3.)
inline constexpr unsigned kLLVMOptLevel = 3;

/// Registers the pipelines with the pass registry (norm-opt).
void registerNormPipelines();

} // namespace norm
} // namespace mlir

#endif // NORM_PIPELINES_PIPELINES_H
