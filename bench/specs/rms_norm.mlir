// RMSNorm over the last dim (PyTorch rms_norm with weight), any M x N.

func.func @rms_norm_f32(%x: tensor<?x?xf32>, %g: tensor<?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xf32>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xf32>
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<?x?xf32>) scale(%g : tensor<?xf32>) affine_dims = [1]
      outs(%init : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %y : tensor<?x?xf32>
}

func.func @rms_norm_bf16(%x: tensor<?x?xbf16>, %g: tensor<?xbf16>) -> tensor<?x?xbf16> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %d0 = tensor.dim %x, %c0 : tensor<?x?xbf16>
  %d1 = tensor.dim %x, %c1 : tensor<?x?xbf16>
  %init = tensor.empty(%d0, %d1) : tensor<?x?xbf16>
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<?x?xbf16>) scale(%g : tensor<?xbf16>) affine_dims = [1]
      outs(%init : tensor<?x?xbf16>) -> tensor<?x?xbf16>
  return %y : tensor<?x?xbf16>
}
