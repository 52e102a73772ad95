// BatchNorm training (batch statistics, saved mean and variance, running
// update as PyTorch does) over a 2-D [N, C] tensor, any N x C.

func.func @batch_norm_nc_training_f32(%x: tensor<?x?xf32>, %g: tensor<?xf32>, %b: tensor<?xf32>, %rm: tensor<?xf32>, %rv: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %sm = tensor.empty(%d1) : tensor<?xf32>
  %sv = tensor.empty(%d1) : tensor<?xf32>
  %r:5 = norm.normalize standard axes = [0] epsilon = 1.0e-05 momentum = 0.1 unbiased saved_variance
      ins(%x : tensor<?x?xf32>) scale(%g : tensor<?xf32>) bias(%b : tensor<?xf32>) affine_dims = [1]
      outs(%init : tensor<?x?xf32>) saved(%sm, %sv : tensor<?xf32>, tensor<?xf32>) running(%rm, %rv : tensor<?xf32>, tensor<?xf32>)
      -> tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
  return %r#0, %r#1, %r#2, %r#3, %r#4 : tensor<?x?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
