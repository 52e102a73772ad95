//===- TestPasses.cpp - registration of norm-mlir's test passes -----------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

namespace mlir::norm::test {
void registerTestReshapeNormalizePass();
void registerTestPlantBugPass();
void registerTestSkipEmptyMaskedStepsPass();
void registerTestWidenBF16PairsInSumsPass();

void registerTestPasses() {
  registerTestReshapeNormalizePass();
  registerTestPlantBugPass();
  registerTestSkipEmptyMaskedStepsPass();
  registerTestWidenBF16PairsInSumsPass();
}
} // namespace mlir::norm::test
