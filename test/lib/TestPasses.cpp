//===- TestPasses.cpp - registration of norm-mlir's test passes -----------===//
//
// Part of the norm-mlir project.
//
//===----------------------------------------------------------------------===//

namespace mlir::norm::test {
void registerTestCollapseReducedDimsPass();
void registerTestPlantBugPass();

void registerTestPasses() {
  registerTestCollapseReducedDimsPass();
  registerTestPlantBugPass();
}
} // namespace mlir::norm::test
