//===- HelpOptions.h - what --help of the norm tools lists ------*- C++ -*-===//
//
// Part of the norm-mlir project.
//
// The tools link LLVM's and MLIR's libraries, which register hundreds of
// code generation and analysis options; --help lists the tool's own, and
// --help-hidden everything.
//
//===----------------------------------------------------------------------===//

#ifndef NORM_TOOLS_HELPOPTIONS_H
#define NORM_TOOLS_HELPOPTIONS_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CommandLine.h"

namespace norm_tools {

/// Marks hidden every visible option registered so far, except those of
/// `keep` (when given) and of the generic categories (--help, --version,
/// --color).
inline void hideLibraryOptions(const llvm::cl::OptionCategory *keep) {
  namespace cl = llvm::cl;
  for (auto &entry : cl::getRegisteredOptions()) {
    cl::Option *option = entry.second;
    bool kept = llvm::any_of(option->Categories, [&](cl::OptionCategory *c) {
      return c == keep || c->getName() == "Generic Options" ||
             c->getName() == "Color Options";
    });
    if (!kept && option->getOptionHiddenFlag() == cl::NotHidden)
      option->setHiddenFlag(cl::Hidden);
  }
}

} // namespace norm_tools

#endif // NORM_TOOLS_HELPOPTIONS_H
