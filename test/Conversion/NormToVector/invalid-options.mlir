// RUN: not norm-opt %s --convert-norm-to-vector="vector-bits=100" 2>&1 | FileCheck %s
// CHECK: vector-bits must be a positive multiple of 64 and accumulators positive, got 100 and 4
func.func @f() {
  return
}
