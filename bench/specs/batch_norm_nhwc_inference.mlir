// BatchNorm inference (running statistics given), NHWC (channels last), any
// N x H x W x C.

func.func @batch_norm_nhwc_inference_f32(%x: tensor<?x?x?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>, %m: tensor<?xf32>, %v: tensor<?xf32>) -> tensor<?x?x?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?x?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?x?x?xf32>
  %d2 = tensor.dim %x, %c2 : tensor<?x?x?x?xf32>
  %d3 = tensor.dim %x, %c3 : tensor<?x?x?x?xf32>
  %init = tensor.empty(%d0, %d1, %d2, %d3) : tensor<?x?x?x?xf32>
  %y = norm.normalize standard axes = [0, 1, 2] epsilon = 1.0e-05
      ins(%x : tensor<?x?x?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [3]
      stats(%m, %v : tensor<?xf32>, tensor<?xf32>)
      outs(%init : tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %y : tensor<?x?x?x?xf32>
}
