//===- NpyFuzzer.cpp - libFuzzer target: the .npy reader ------------------===//
//
// Part of the norm-mlir project.
//
// Parses the input as a .npy file (with and without bf16 as uint16). A
// malformed file must be an error; an accepted one must hold exactly the
// bytes its header declares.
//
//===----------------------------------------------------------------------===//

#include "norm/Harness/HostArray.h"

#include <cstdlib>

using namespace mlir::norm;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef file(reinterpret_cast<const char *>(data), size);
  for (bool bf16FromU2 : {false, true}) {
    llvm::Expected<HostArray> array = parseNpy(file, "fuzz.npy", bf16FromU2);
    if (!array) {
      llvm::consumeError(array.takeError());
      continue;
    }
    if (array->bytes.size() != static_cast<size_t>(array->numElements()) *
                                   dtypeSize(array->dtype) ||
        array->bytes.size() > size)
      std::abort();
    // Every element reads back.
    double sum = 0;
    for (int64_t i = 0, n = array->numElements(); i < n; ++i)
      sum += array->get(i);
    (void)sum;
  }
  return 0;
}
