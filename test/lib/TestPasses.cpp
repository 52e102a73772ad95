//===- TestPasses.cpp - registration of norm-mlir's test passes -----------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

namespace mlir::norm::test {
void registerTestReshapeNormalizePass();
void registerTestPlantBugPass();
void registerTestWidenBF16PairsInSumsPass();

void registerTestPasses() {
  registerTestReshapeNormalizePass();
  registerTestPlantBugPass();
  registerTestWidenBF16PairsInSumsPass();
}
} // namespace mlir::norm::test
