// The kernels of large-sizes.test: dynamic shapes, so that one input of
// more than 2^31 elements reaches them from C.
func.func @layer_norm(%x: tensor<?x1024xf32>, %g: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<?x1024xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x1024xf32>
  %e = tensor.empty(%n) : tensor<?x1024xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x1024xf32>) scale(%g : tensor<1024xf32>) bias(%b : tensor<1024xf32>) affine_dims = [1]
      outs(%e : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  return %y : tensor<?x1024xf32>
}

func.func @batch_norm_training(%x: tensor<?x4x?xf32>, %g: tensor<4xf32>, %b: tensor<4xf32>, %rm: tensor<4xf32>, %rv: tensor<4xf32>)
    -> (tensor<?x4x?xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = tensor.dim %x, %c0 : tensor<?x4x?xf32>
  %hw = tensor.dim %x, %c2 : tensor<?x4x?xf32>
  %e = tensor.empty(%n, %hw) : tensor<?x4x?xf32>
  %m0 = tensor.empty() : tensor<4xf32>
  %v0 = tensor.empty() : tensor<4xf32>
  %r:5 = norm.normalize standard axes = [0, 2] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : tensor<?x4x?xf32>) scale(%g : tensor<4xf32>) bias(%b : tensor<4xf32>) affine_dims = [1]
      outs(%e : tensor<?x4x?xf32>) saved(%m0, %v0 : tensor<4xf32>, tensor<4xf32>) running(%rm, %rv : tensor<4xf32>, tensor<4xf32>)
      -> tensor<?x4x?xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<?x4x?xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
