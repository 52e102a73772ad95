//===- AheadOfTime.cpp - norm specs to objects, headers, libraries --------===//
//
// Part of the norm-mlir project.
//
// For every public function of a spec:
//   OUT.o          x86-64 code (PIC): for cpu the kernels for this host's
//                  vector width (serial, or OpenMP); for cuda host code with
//                  the GPU kernels embedded (PTX by default, or cubin/fatbin);
//                  and the C-interface entry points
//   OUT.h          a C header: one launcher per function, documented with
//                  its shapes, dtypes and the op it computes
//   OUT_launch.c   the launchers, in plain C (pointers, the dynamic dims, a
//                  thread count for cpu or a stream for cuda)
//   OUT.json       what each function computes, for harnesses without MLIR
//   libOUT.a/.so   the object and the compiled launchers (optional)
// Callers need no MLIR header or library: cuda code links norm_cuda_runtime
// (no CUDA at link time), cpu code libomp with OpenMP, else nothing.
//
//===----------------------------------------------------------------------===//

#include "norm/Compiler/AheadOfTime.h"
#include "norm/Analysis/CallContractAnalysis.h"
#include "norm/Analysis/EntryAnalysis.h"
#include "norm/Harness/KernelDescription.h"
#include "norm/IR/NormOps.h"
#include "norm/Pipelines/Pipelines.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Object/ArchiveWriter.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <cctype>
#include <set>

using namespace mlir;
using namespace mlir::norm;

namespace {
/// An x86-64 microarchitecture level the CPU dispatcher compiles for.
struct CPULevel {
  const char *cpu;    ///< LLVM's CPU name
  const char *suffix; ///< of the entry points compiled for it
  int64_t vectorBits; ///< the vector kernels' width
  /// What __builtin_cpu_supports must find: feature names older C
  /// compilers know too (clang 14 has no level names and no "f16c", which
  /// every AVX2 CPU has).
  const char *features;
};
} // namespace

/// Baseline (SSE2), AVX2 + FMA, AVX-512 (F, BW, CD, DQ, VL), lowest first.
static const CPULevel kCPULevels[] = {
    {"x86-64", "x86_64", 128, ""},
    {"x86-64-v3", "x86_64_v3", 256, "avx,avx2,bmi,bmi2,fma"},
    {"x86-64-v4", "x86_64_v4", 512,
     "avx,avx2,bmi,bmi2,fma,avx512f,avx512bw,avx512cd,avx512dq,"
     "avx512vl"}};

namespace {
/// One memref argument of a lowered entry point (inputs, then results as
/// out-parameters).
struct LauncherArg {
  std::string name;
  ShapedType type;
  bool isResult = false;
};

struct Entry {
  std::string name;
  /// The harness's view of the function, or why there is none.
  std::optional<norm::KernelDescription> description;
  std::string undescribed;
  std::string summary; ///< the norm ops of the function, printed
  SmallVector<LauncherArg> args;
  /// What the launcher checks before it runs anything.
  norm::CallContract contract;
};
} // namespace

static std::string elementName(Type t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << t;
  return s;
}

static std::string shapeText(ShapedType type) {
  std::string s = "[";
  for (auto [i, d] : llvm::enumerate(type.getShape())) {
    if (i)
      s += ", ";
    s += ShapedType::isDynamic(d) ? "?" : std::to_string(d);
  }
  return s + "]";
}

static FailureOr<Entry> describeEntry(func::FuncOp func) {
  Entry entry;
  entry.name = func.getSymName().str();
  auto add = [&](Type type, std::string name, bool isResult) {
    // Tensors, or memrefs of identity layout (arguments written in place).
    auto shaped = dyn_cast<ShapedType>(type);
    auto memref = dyn_cast<MemRefType>(type);
    if (!shaped || !shaped.hasRank() ||
        (memref && !memref.getLayout().isIdentity()))
      return false;
    entry.args.push_back({std::move(name), shaped, isResult});
    return true;
  };
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes()))
    if (!add(type, "arg" + std::to_string(i), false))
      return func.emitError("norm-compile: argument ")
             << i << " is neither a ranked tensor nor an identity memref";
  for (auto [i, type] : llvm::enumerate(func.getResultTypes()))
    if (!add(type, "result" + std::to_string(i), true))
      return func.emitError("norm-compile: result ")
             << i << " is not a ranked tensor";
  llvm::Expected<norm::CallContract> contract = norm::deriveCallContract(func);
  if (!contract)
    return func.emitError("norm-compile: ")
           << llvm::toString(contract.takeError());
  entry.contract = std::move(*contract);
  if (llvm::Expected<norm::EntryAnalysis> analysis = norm::analyzeEntry(func)) {
    norm::KernelDescription description;
    description.name = entry.name;
    description.analysis = std::move(*analysis);
    description.contract = entry.contract;
    for (const LauncherArg &arg : entry.args) {
      llvm::Expected<norm::TensorSignature> sig =
          norm::getTensorSignature(arg.type);
      if (!sig) {
        entry.undescribed = llvm::toString(sig.takeError());
        break;
      }
      (arg.isResult ? description.results : description.arguments)
          .push_back(std::move(*sig));
    }
    if (entry.undescribed.empty())
      entry.description = std::move(description);
  } else {
    entry.undescribed = llvm::toString(analysis.takeError());
  }
  llvm::raw_string_ostream os(entry.summary);
  func.walk([&](norm::NormalizeOp op) {
    OpPrintingFlags flags;
    flags.printGenericOpForm(false);
    op->print(os, flags);
    os << "\n";
  });
  return entry;
}

static void writeHeader(llvm::raw_ostream &os, ArrayRef<Entry> entries,
                        StringRef guard, StringRef levelFunction,
                        StringRef errorFunction,
                        const AheadOfTimeOptions &options) {
  bool forCuda = options.target == "cuda", openmp = options.openmp;
  if (forCuda)
    os << "/* Generated by norm-compile --target=cuda. Launchers of the GPU\n"
          "   kernels in the matching object; link it with norm_cuda_runtime."
          "\n\n"
          "   Every launcher takes the device pointers of its arguments and\n"
          "   results in order (row-major, contiguous; 16-byte alignment "
          "lets\n"
          "   the kernels use vector accesses), the dynamic dims in order of\n"
          "   appearance, and a CUstream (NULL: each launch synchronizes on "
          "a\n"
          "   stream of its own). It returns 0 when the launches were "
          "enqueued;\n"
          "   1 when the pointers or dims break the function's shapes "
          "(nothing\n"
          "   is launched; "
       << errorFunction
       << "() says why); 2 when the\n"
          "   runtime holds an error (normCudaGetError(); errors are sticky\n"
          "   until normCudaClearError()). */\n";
  else
    os << "/* Generated by norm-compile --target=cpu"
       << (openmp ? " --openmp" : "")
       << ". Entry points of the kernels\n"
          "   in the matching object"
       << (openmp ? "; link it with libomp" : ", which needs no library")
       << ".\n\n"
          "   Every function takes the pointers of its arguments and results "
          "in\n"
          "   order (row-major, contiguous), the dynamic dims in order of\n"
          "   appearance, and a thread count ("
       << (openmp ? "0: OpenMP's default" : "ignored: serial code")
       << "). It returns 0\n"
          "   once the results are written, and 1 when the pointers or dims\n"
          "   break the function's shapes (a NULL pointer, a negative extent,\n"
          "   extents that disagree, sizes that overflow): then nothing is\n"
          "   written and "
       << errorFunction << "() says why. Arguments are read only. */\n";
  os << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <stdint.h>\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n";
  for (const Entry &entry : entries) {
    os << "/* " << entry.name << ":\n";
    for (StringRef line : llvm::split(StringRef(entry.summary).rtrim(), '\n'))
      os << "     " << line << "\n";
    int dynamic = 0;
    for (auto [i, arg] : llvm::enumerate(entry.args)) {
      os << "   args[" << i << "] " << (arg.isResult ? "(written) " : "")
         << arg.name << ": " << elementName(arg.type.getElementType()) << " "
         << shapeText(arg.type);
      for (auto [d, size] : llvm::enumerate(arg.type.getShape()))
        if (ShapedType::isDynamic(size))
          os << "; dims[" << dynamic++ << "] = dim " << d;
      os << "\n";
    }
    os << "   bf16 and f16 travel as their 16-bit patterns. */\n";
    os << "int norm_" << entry.name
       << "(void *const *args, const int64_t *dims, "
       << (forCuda ? "void *stream" : "int threads") << ");\n\n";
  }
  os << "/* Why the last call on this thread that returned 1 failed (\"\" "
        "before any). */\n"
     << "const char *" << errorFunction << "(void);\n\n";
  if (options.cpuDispatch)
    os << "/* The CPU level the functions run at: the highest the CPU "
          "supports among\n   "
       << llvm::join(llvm::map_range(kCPULevels,
                                     [](const CPULevel &l) { return l.cpu; }),
                     ", ")
       << ", chosen when the library is loaded\n"
          "   (NORM_CPU_LEVEL in the environment may name a lower one). */\n"
       << "const char *" << levelFunction << "(void);\n\n";
  os << "#ifdef __cplusplus\n}\n#endif\n\n#endif /* " << guard << " */\n";
}

/// The dispatcher's choice, made once when the library is loaded: the
/// highest level the CPU supports, or a lower one named by NORM_CPU_LEVEL.
static void writeLevelSelection(llvm::raw_ostream &os,
                                StringRef levelFunction) {
  os << "static int norm_selected_level;\n"
     << "static const char *const norm_level_names[] = {";
  for (auto [i, level] : llvm::enumerate(kCPULevels))
    os << (i ? ", " : "") << "\"" << level.cpu << "\"";
  os << "};\n\n"
     << "__attribute__((constructor)) static void norm_select_level(void) {\n"
     << "  __builtin_cpu_init();\n  int level = 0;\n";
  for (size_t i = 1; i < std::size(kCPULevels); ++i) {
    os << "  if (";
    SmallVector<StringRef> features;
    StringRef(kCPULevels[i].features).split(features, ',');
    for (auto [j, feature] : llvm::enumerate(features))
      os << (j ? " &&\n      " : "") << "__builtin_cpu_supports(\"" << feature
         << "\")";
    os << ")\n    level = " << i << ";\n";
  }
  os << "  const char *wanted = getenv(\"NORM_CPU_LEVEL\");\n"
     << "  for (int i = 0; wanted && i < level; ++i)\n"
     << "    if (!strcmp(wanted, norm_level_names[i]))\n      level = i;\n"
     << "  norm_selected_level = level;\n}\n\n"
     << "const char *" << levelFunction << "(void) {\n"
     << "  return norm_level_names[norm_selected_level];\n}\n\n";
}

/// CallCheck.h, the check every launcher runs first.
static const char kCallCheckSource[] =
#include "CallCheckSource.inc"
    ;

static void writeLaunchers(llvm::raw_ostream &os, ArrayRef<Entry> entries,
                           StringRef header, StringRef levelFunction,
                           StringRef errorFunction,
                           const AheadOfTimeOptions &options) {
  bool forCuda = options.target == "cuda", openmp = options.openmp;
  os << "/* Generated by norm-compile --target=" << options.target
     << ": launchers over the\n"
        "   _mlir_ciface_ entry points of the object. Plain C. */\n"
     << "#include \"" << header << "\"\n\n"
     << "#include <stddef.h>\n#include <string.h>\n"
     << (options.cpuDispatch ? "#include <stdlib.h>\n" : "") << "\n";
  if (forCuda)
    os << "void normCudaSetStream(void *stream);\n"
       << "void *normCudaGetStream(void);\n"
       << "const char *normCudaGetError(void);\n\n";
  else if (openmp)
    os << "void omp_set_num_threads(int threads);\n\n";
  os << "/* The call check (norm/Harness/CallCheck.h), embedded so that the "
        "launchers\n   need no header of norm-mlir. */\n"
     << kCallCheckSource << "\n"
     << "static _Thread_local char norm_call_error[256];\n\n"
     << "const char *" << errorFunction << "(void) { return norm_call_error; }"
     << "\n\n";
  std::set<int64_t> ranks;
  for (const Entry &entry : entries)
    for (const LauncherArg &arg : entry.args)
      ranks.insert(arg.type.getRank());
  for (int64_t rank : ranks) {
    os << "typedef struct {\n  void *allocated, *aligned;\n  int64_t offset";
    if (rank > 0)
      os << ", sizes[" << rank << "], strides[" << rank << "]";
    os << ";\n} norm_memref_" << rank << ";\n\n";
  }
  bool dispatch = options.cpuDispatch;
  if (dispatch)
    writeLevelSelection(os, levelFunction);
  for (const Entry &entry : entries) {
    auto declare = [&](StringRef suffix) {
      os << "void _mlir_ciface_" << entry.name << suffix << "(";
      for (auto [i, arg] : llvm::enumerate(entry.args))
        os << (i ? ", " : "") << "norm_memref_" << arg.type.getRank() << " *";
      os << ");\n";
    };
    if (dispatch) {
      for (const CPULevel &level : kCPULevels)
        declare(("__" + StringRef(level.suffix)).str());
    } else {
      declare("");
    }
    // Every extent, static or from dims[], in flat order; checked before
    // anything runs.
    std::string contractName = "norm_contract_" + entry.name;
    norm::writeCallContractC(os, entry.contract, contractName);
    int dynamic = 0, flat = 0;
    std::string extents, pointers;
    for (auto [i, arg] : llvm::enumerate(entry.args)) {
      pointers += (i ? ", args[" : "args[") + std::to_string(i) + "]";
      for (int64_t size : arg.type.getShape())
        extents += std::string(flat++ ? ", " : "") +
                   (ShapedType::isDynamic(size)
                        ? "dims[" + std::to_string(dynamic++) + "]"
                        : std::to_string(size));
    }
    os << "\nint norm_" << entry.name
       << "(void *const *args, const int64_t *dims, "
       << (forCuda ? "void *stream" : "int threads") << ") {\n"
       << "  if (!args" << (dynamic ? " || !dims" : "") << ") {\n"
       << "    snprintf(norm_call_error, sizeof(norm_call_error), \"norm_"
       << entry.name << ": args" << (dynamic ? " or dims" : "")
       << " is NULL\");\n"
       << "    return NORM_CALL_INVALID;\n  }\n"
       << "  const int64_t extents[" << std::max(flat, 1) << "] = {"
       << (flat ? extents : "0") << "};\n"
       << "  void *const pointers[" << std::max<size_t>(entry.args.size(), 1)
       << "] = {" << (entry.args.empty() ? "0" : pointers) << "};\n"
       << "  char reason[224];\n"
       << "  if (norm_call_check(&" << contractName
       << ", extents, pointers, reason, sizeof(reason)) !=\n"
       << "      NORM_CALL_OK) {\n"
       << "    snprintf(norm_call_error, sizeof(norm_call_error), \"norm_"
       << entry.name << ": %s\", reason);\n"
       << "    return NORM_CALL_INVALID;\n  }\n";
    if (dynamic == 0)
      os << "  (void)dims;\n";
    flat = 0;
    for (auto [i, arg] : llvm::enumerate(entry.args)) {
      int64_t rank = arg.type.getRank();
      os << "  norm_memref_" << rank << " m" << i << " = {args[" << i
         << "], args[" << i << "], 0";
      if (rank > 0) {
        os << ", {";
        for (int64_t d = 0; d < rank; ++d)
          os << (d ? ", " : "") << "extents[" << flat++ << "]";
        os << "}, {0}";
      }
      os << "};\n";
      // Row-major strides from the sizes.
      for (int64_t d = rank - 1; d >= 0; --d) {
        os << "  m" << i << ".strides[" << d << "] = ";
        if (d == rank - 1)
          os << "1;\n";
        else
          os << "m" << i << ".strides[" << d + 1 << "] * m" << i << ".sizes["
             << d + 1 << "];\n";
      }
    }

    auto callOne = [&](StringRef indent, StringRef suffix) {
      os << indent << "_mlir_ciface_" << entry.name << suffix << "(";
      for (size_t i = 0; i < entry.args.size(); ++i)
        os << (i ? ", " : "") << "&m" << i;
      os << ");\n";
    };
    auto call = [&] {
      if (!dispatch)
        return callOne("  ", "");
      os << "  switch (norm_selected_level) {\n";
      for (int level = std::size(kCPULevels) - 1; level >= 0; --level) {
        os << (level ? "  case " + std::to_string(level) + ":\n"
                     : std::string("  default:\n"));
        callOne("    ", ("__" + StringRef(kCPULevels[level].suffix)).str());
        os << "    break;\n";
      }
      os << "  }\n";
    };
    if (forCuda) {
      os << "  void *previous = normCudaGetStream();\n"
         << "  normCudaSetStream(stream);\n";
      call();
      os << "  normCudaSetStream(previous);\n"
         << "  return normCudaGetError() != NULL ? 2 : 0;\n}\n\n";
    } else {
      if (openmp)
        os << "  if (threads > 0)\n    omp_set_num_threads(threads);\n";
      else
        os << "  (void)threads;\n";
      call();
      os << "  return 0;\n}\n\n";
    }
  }
}

static void writeDescriptions(llvm::raw_ostream &os, ArrayRef<Entry> entries) {
  llvm::json::Array out;
  for (const Entry &entry : entries) {
    llvm::json::Object object{{"name", entry.name},
                              {"launcher", "norm_" + entry.name}};
    if (entry.description)
      object["description"] = norm::toJSON(*entry.description);
    else
      object["error"] = entry.undescribed;
    out.push_back(std::move(object));
  }
  os << llvm::formatv("{0:2}", llvm::json::Value(llvm::json::Object{
                                   {"entries", std::move(out)}}))
     << "\n";
}

/// A PIC target machine for this host's triple: its CPU (and features)
/// when `cpu` is empty, else that CPU's.
static FailureOr<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(Location loc, StringRef cpu) {
  auto builder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!builder)
    return emitError(loc, "norm-compile: ")
           << llvm::toString(builder.takeError());
  if (!cpu.empty()) {
    builder = llvm::orc::JITTargetMachineBuilder(builder->getTargetTriple());
    builder->setCPU(cpu.str());
  }
  builder->setRelocationModel(llvm::Reloc::PIC_);
  builder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto machine = builder->createTargetMachine();
  if (!machine)
    return emitError(loc, "norm-compile: ")
           << llvm::toString(machine.takeError());
  return std::move(*machine);
}

/// Translates a lowered module and optimizes it for `machine`; `prepare`
/// (if any) edits the LLVM module first (the optimizer's cost model reads
/// function attributes).
static FailureOr<std::unique_ptr<llvm::Module>>
translateAndOptimize(ModuleOp module, llvm::LLVMContext &llvmContext,
                     llvm::TargetMachine &machine,
                     function_ref<void(llvm::Module &)> prepare = nullptr) {
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return module.emitError("norm-compile: translation to LLVM IR failed");
  if (prepare)
    prepare(*llvmModule);
  llvmModule->setDataLayout(machine.createDataLayout());
  llvmModule->setTargetTriple(machine.getTargetTriple());
  if (llvm::Error error = makeOptimizingTransformer(kLLVMOptLevel, 0,
                                                    &machine)(llvmModule.get()))
    return module.emitError("norm-compile: ")
           << llvm::toString(std::move(error));
  return llvmModule;
}

static LogicalResult emitObject(llvm::Module &llvmModule,
                                llvm::TargetMachine &machine, StringRef path,
                                Location loc) {
  std::string errorMessage;
  auto file = openOutputFile(path, &errorMessage);
  if (!file)
    return emitError(loc, "norm-compile: ") << errorMessage;
  llvm::legacy::PassManager passes;
  if (machine.addPassesToEmitFile(passes, file->os(), nullptr,
                                  llvm::CodeGenFileType::ObjectFile))
    return emitError(loc, "norm-compile: the host target cannot emit "
                          "object files");
  passes.run(llvmModule);
  file->keep();
  return success();
}

/// Lowers `module` (in place) for this host and writes its object.
static LogicalResult writeObject(ModuleOp module, StringRef path) {
  FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(module.getLoc(), "");
  if (failed(machine))
    return failure();
  llvm::LLVMContext llvmContext;
  FailureOr<std::unique_ptr<llvm::Module>> llvmModule =
      translateAndOptimize(module, llvmContext, **machine);
  if (failed(llvmModule))
    return failure();
  return emitObject(**llvmModule, **machine, path, module.getLoc());
}

/// Lowers a copy of `module` per CPU level with that level's vector width
/// and writes one object holding all of them: each level's functions carry
/// its target-cpu and their external names its suffix
/// (layer_norm__x86_64_v3, ...).
static LogicalResult writeDispatchedObject(ModuleOp module,
                                           const AheadOfTimeOptions &options,
                                           StringRef path) {
  Location loc = module.getLoc();
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> combined;
  for (const CPULevel &level : kCPULevels) {
    OwningOpRef<ModuleOp> lowered = module.clone();
    if (failed(lowerToLLVM(*lowered, options, level.vectorBits)))
      return failure();
    FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
        createTargetMachine(loc, level.cpu);
    if (failed(machine))
      return failure();
    FailureOr<std::unique_ptr<llvm::Module>> translated = translateAndOptimize(
        *lowered, llvmContext, **machine, [&](llvm::Module &llvmModule) {
          for (llvm::Function &function : llvmModule) {
            if (function.isDeclaration())
              continue;
            function.addFnAttr("target-cpu", level.cpu);
            function.removeFnAttr("target-features");
            if (!function.hasLocalLinkage())
              function.setName(function.getName() + "__" + level.suffix);
          }
          for (llvm::GlobalVariable &global : llvmModule.globals())
            if (!global.isDeclaration() && !global.hasLocalLinkage())
              global.setName(global.getName() + "__" + level.suffix);
        });
    if (failed(translated))
      return failure();
    if (!combined) {
      combined = std::move(*translated);
    } else if (llvm::Linker::linkModules(*combined, std::move(*translated))) {
      return module.emitError("norm-compile: linking the CPU levels failed");
    }
  }
  // The baseline machine: each function's target-cpu picks its code.
  FailureOr<std::unique_ptr<llvm::TargetMachine>> machine =
      createTargetMachine(loc, kCPULevels[0].cpu);
  if (failed(machine))
    return failure();
  return emitObject(*combined, **machine, path, loc);
}

/// Compiles the launchers with the C compiler and packs them with the kernel
/// object into libSTEM.a and libSTEM.so next to it.
static LogicalResult writeLibraries(StringRef base, Location loc) {
  llvm::ErrorOr<std::string> compiler = llvm::sys::findProgramByName("clang");
  if (!compiler)
    compiler = llvm::sys::findProgramByName("cc");
  if (!compiler)
    return emitError(loc, "norm-compile: no C compiler (clang or cc) on "
                          "PATH for the libraries; --libraries=0 writes "
                          "the object and the launchers only");
  std::string launchers = (base + "_launch.c").str();
  std::string launchObject = (base + "_launch.o").str();
  std::string kernels = (base + ".o").str();
  auto run = [&](ArrayRef<std::string> args) -> LogicalResult {
    SmallVector<StringRef> argv = {*compiler};
    for (const std::string &arg : args)
      argv.push_back(arg);
    std::string message;
    if (llvm::sys::ExecuteAndWait(*compiler, argv, std::nullopt, {}, 0, 0,
                                  &message) != 0) {
      std::string command = llvm::join(argv, " ");
      return emitError(loc, "norm-compile: `")
             << command << "` failed" << (message.empty() ? "" : ": ")
             << message;
    }
    return success();
  };
  if (failed(run(
          {"-std=c11", "-O2", "-fPIC", "-c", launchers, "-o", launchObject})))
    return failure();

  SmallString<128> directory(base);
  llvm::sys::path::remove_filename(directory);
  std::string stem = llvm::sys::path::filename(base).str();
  auto libraryPath = [&](StringRef extension) {
    SmallString<128> path(directory);
    llvm::sys::path::append(path, "lib" + stem + extension.str());
    return std::string(path);
  };
  std::vector<llvm::NewArchiveMember> members;
  for (const std::string &file : {kernels, launchObject}) {
    llvm::Expected<llvm::NewArchiveMember> member =
        llvm::NewArchiveMember::getFile(file, /*Deterministic=*/true);
    if (!member)
      return emitError(loc, "norm-compile: ")
             << llvm::toString(member.takeError());
    members.push_back(std::move(*member));
  }
  if (llvm::Error error = llvm::writeArchive(
          libraryPath(".a"), members, llvm::SymtabWritingMode::NormalSymtab,
          llvm::object::Archive::K_GNU, /*Deterministic=*/true,
          /*Thin=*/false))
    return emitError(loc, "norm-compile: ") << llvm::toString(std::move(error));
  // The shared library leaves the runtime (norm_cuda_runtime, libomp) to
  // the program that loads it.
  return run({"-shared", "-o", libraryPath(".so"), kernels, launchObject});
}

static LogicalResult writeText(StringRef path,
                               function_ref<void(llvm::raw_ostream &)> write,
                               Location loc) {
  std::string errorMessage;
  auto file = openOutputFile(path, &errorMessage);
  if (!file)
    return emitError(loc, "norm-compile: ") << errorMessage;
  write(file->os());
  file->keep();
  return success();
}

/// The target pipeline `options` ask for.
static TargetPipelineOptions
getPipelineOptions(const AheadOfTimeOptions &options, int64_t vectorBits) {
  TargetPipelineOptions pipelineOptions;
  pipelineOptions.target = options.target;
  pipelineOptions.openmp = options.openmp;
  pipelineOptions.vectorBits = vectorBits;
  pipelineOptions.gpuFormat = options.gpuFormat;
  pipelineOptions.chip = options.chip;
  return pipelineOptions;
}

/// Whether `options` name a target and options that go together.
static LogicalResult verifyOptions(Location loc,
                                   const AheadOfTimeOptions &options) {
  if (llvm::Error error =
          verifyTargetPipelineOptions(getPipelineOptions(options, 0)))
    return emitError(loc) << llvm::toString(std::move(error));
  bool forCuda = options.target == "cuda";
  if (options.cpuDispatch && forCuda)
    return emitError(loc, "the CPU dispatcher is a cpu target option");
  if (options.cpuDispatch &&
      !llvm::Triple(llvm::sys::getProcessTriple()).isX86())
    return emitError(loc, "the CPU dispatcher knows x86-64 levels only");
  return success();
}

LogicalResult norm::lowerToLLVM(ModuleOp module,
                                const AheadOfTimeOptions &options,
                                int64_t vectorBits) {
  if (failed(verifyOptions(module.getLoc(), options)))
    return failure();
  PassManager pm(module.getContext());
  if (llvm::Error error = buildLowerToTargetPipeline(
          pm, getPipelineOptions(options, vectorBits)))
    return emitError(module.getLoc()) << llvm::toString(std::move(error));
  return runVerifiedAtEnds(pm, module);
}

LogicalResult norm::compileAheadOfTime(ModuleOp module, StringRef outputBase,
                                       const AheadOfTimeOptions &options) {
  Location loc = module.getLoc();
  if (failed(verifyOptions(loc, options)))
    return failure();

  std::vector<Entry> entries;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isPrivate() || func.isExternal())
      continue;
    FailureOr<Entry> entry = describeEntry(func);
    if (failed(entry))
      return failure();
    entries.push_back(std::move(*entry));
  }
  if (entries.empty())
    return module.emitError("norm-compile: the spec has no public function");

  static bool targetsInitialized = [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    return true;
  }();
  (void)targetsInitialized;

  // The dispatcher lowers a copy per CPU level.
  if (!options.cpuDispatch && failed(lowerToLLVM(module, options)))
    return failure();

  std::string base = outputBase.str();
  StringRef stem = llvm::sys::path::filename(base);
  // The stem as a C identifier, for the include guard and the level query.
  std::string identifier;
  for (char c : stem)
    identifier += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  std::string guard = "NORM_GENERATED_" + StringRef(identifier).upper() + "_H";
  std::string levelFunction = "norm_" + identifier + "_cpu_level";
  std::string errorFunction = "norm_" + identifier + "_last_error";
  // Like a compiler, write into a directory that does not exist yet.
  StringRef directory = llvm::sys::path::parent_path(base);
  if (!directory.empty())
    if (std::error_code ec = llvm::sys::fs::create_directories(directory))
      return emitError(loc, "norm-compile: cannot create the directory '")
             << directory << "': " << ec.message();
  if (failed(options.cpuDispatch
                 ? writeDispatchedObject(module, options, base + ".o")
                 : writeObject(module, base + ".o")) ||
      failed(writeText(
          base + ".h",
          [&](llvm::raw_ostream &os) {
            writeHeader(os, entries, guard, levelFunction, errorFunction,
                        options);
          },
          loc)) ||
      failed(writeText(
          base + "_launch.c",
          [&](llvm::raw_ostream &os) {
            writeLaunchers(os, entries, (stem + ".h").str(), levelFunction,
                           errorFunction, options);
          },
          loc)) ||
      failed(writeText(
          base + ".json",
          [&](llvm::raw_ostream &os) { writeDescriptions(os, entries); }, loc)))
    return failure();
  if (options.libraries)
    return writeLibraries(base, loc);
  return success();
}
