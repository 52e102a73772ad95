//===- TestPasses.cpp - registration of norm-mlir's test passes -----------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

namespace mlir::norm::test {
void registerTestPlantBugPass();

void registerTestPasses() { registerTestPlantBugPass(); }
} // namespace mlir::norm::test
