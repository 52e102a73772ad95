// BatchNorm inference (running statistics given) over a 2-D [N, C] tensor
// (BatchNorm1d without a length dim), any N x C.

func.func @batch_norm_nc_inference_f32(%x: tensor<?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>, %m: tensor<?xf32>, %v: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %y = norm.normalize standard axes = [0] epsilon = 1.0e-05
      ins(%x : tensor<?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [1]
      stats(%m, %v : tensor<?xf32>, tensor<?xf32>)
      outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}
