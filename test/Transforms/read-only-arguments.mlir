// RUN: norm-opt %s -norm-read-only-arguments | FileCheck %s

// CHECK-LABEL: func.func @public_fn
// CHECK-SAME: (%{{.+}}: tensor<4xf32> {bufferization.writable = false}, %{{.+}}: index, %{{.+}}: tensor<?x4xbf16> {bufferization.writable = false})
func.func @public_fn(%a: tensor<4xf32>, %i: index, %b: tensor<?x4xbf16>) {
  return
}

// Private functions are internal: their callers' buffers are the caller's
// business.
// CHECK-LABEL: func.func private @negative_private_fn
// CHECK-NOT: writable
func.func private @negative_private_fn(%a: tensor<4xf32>) {
  return
}
