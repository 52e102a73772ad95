//===- TestPasses.cpp - registration of norm-mlir's test passes -----------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

namespace mlir::norm::test {
void registerTestReshapeNormalizePass();
void registerTestPlantBugPass();

void registerTestPasses() {
  registerTestReshapeNormalizePass();
  registerTestPlantBugPass();
}
} // namespace mlir::norm::test
