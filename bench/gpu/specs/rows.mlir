// LayerNorm and RMSNorm with the row length fixed at compile time, as an
// ahead-of-time user compiles them for a model's hidden size: static rows
// of up to 32768 elements stay in registers between the passes on the GPU.
// Rows (the leading dim) stay dynamic.

func.func @layer_norm_f32_1024(%x: tensor<?x1024xf32>, %g: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<?x1024xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x1024xf32>
  %init = tensor.empty(%m) : tensor<?x1024xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x1024xf32>) scale(%g : tensor<1024xf32>) bias(%b : tensor<1024xf32>) affine_dims = [1]
      outs(%init : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  return %y : tensor<?x1024xf32>
}

func.func @rms_norm_f32_1024(%x: tensor<?x1024xf32>, %w: tensor<1024xf32>) -> tensor<?x1024xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x1024xf32>
  %init = tensor.empty(%m) : tensor<?x1024xf32>
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<?x1024xf32>) scale(%w : tensor<1024xf32>) affine_dims = [1]
      outs(%init : tensor<?x1024xf32>) -> tensor<?x1024xf32>
  return %y : tensor<?x1024xf32>
}

func.func @layer_norm_bf16_1024(%x: tensor<?x1024xbf16>, %g: tensor<1024xbf16>, %b: tensor<1024xbf16>) -> tensor<?x1024xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x1024xbf16>
  %init = tensor.empty(%m) : tensor<?x1024xbf16>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x1024xbf16>) scale(%g : tensor<1024xbf16>) bias(%b : tensor<1024xbf16>) affine_dims = [1]
      outs(%init : tensor<?x1024xbf16>) -> tensor<?x1024xbf16>
  return %y : tensor<?x1024xbf16>
}

func.func @rms_norm_bf16_1024(%x: tensor<?x1024xbf16>, %w: tensor<1024xbf16>) -> tensor<?x1024xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x1024xbf16>
  %init = tensor.empty(%m) : tensor<?x1024xbf16>
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<?x1024xbf16>) scale(%w : tensor<1024xbf16>) affine_dims = [1]
      outs(%init : tensor<?x1024xbf16>) -> tensor<?x1024xbf16>
  return %y : tensor<?x1024xbf16>
}

func.func @layer_norm_f32_4096(%x: tensor<?x4096xf32>, %g: tensor<4096xf32>, %b: tensor<4096xf32>) -> tensor<?x4096xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x4096xf32>
  %init = tensor.empty(%m) : tensor<?x4096xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x4096xf32>) scale(%g : tensor<4096xf32>) bias(%b : tensor<4096xf32>) affine_dims = [1]
      outs(%init : tensor<?x4096xf32>) -> tensor<?x4096xf32>
  return %y : tensor<?x4096xf32>
}

func.func @rms_norm_f32_4096(%x: tensor<?x4096xf32>, %w: tensor<4096xf32>) -> tensor<?x4096xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x4096xf32>
  %init = tensor.empty(%m) : tensor<?x4096xf32>
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<?x4096xf32>) scale(%w : tensor<4096xf32>) affine_dims = [1]
      outs(%init : tensor<?x4096xf32>) -> tensor<?x4096xf32>
  return %y : tensor<?x4096xf32>
}

func.func @layer_norm_bf16_4096(%x: tensor<?x4096xbf16>, %g: tensor<4096xbf16>, %b: tensor<4096xbf16>) -> tensor<?x4096xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x4096xbf16>
  %init = tensor.empty(%m) : tensor<?x4096xbf16>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x4096xbf16>) scale(%g : tensor<4096xbf16>) bias(%b : tensor<4096xbf16>) affine_dims = [1]
      outs(%init : tensor<?x4096xbf16>) -> tensor<?x4096xbf16>
  return %y : tensor<?x4096xbf16>
}

func.func @rms_norm_bf16_4096(%x: tensor<?x4096xbf16>, %w: tensor<4096xbf16>) -> tensor<?x4096xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x4096xbf16>
  %init = tensor.empty(%m) : tensor<?x4096xbf16>
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<?x4096xbf16>) scale(%w : tensor<4096xbf16>) affine_dims = [1]
      outs(%init : tensor<?x4096xbf16>) -> tensor<?x4096xbf16>
  return %y : tensor<?x4096xbf16>
}

func.func @layer_norm_f32_16384(%x: tensor<?x16384xf32>, %g: tensor<16384xf32>, %b: tensor<16384xf32>) -> tensor<?x16384xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x16384xf32>
  %init = tensor.empty(%m) : tensor<?x16384xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x16384xf32>) scale(%g : tensor<16384xf32>) bias(%b : tensor<16384xf32>) affine_dims = [1]
      outs(%init : tensor<?x16384xf32>) -> tensor<?x16384xf32>
  return %y : tensor<?x16384xf32>
}

func.func @rms_norm_f32_16384(%x: tensor<?x16384xf32>, %w: tensor<16384xf32>) -> tensor<?x16384xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x16384xf32>
  %init = tensor.empty(%m) : tensor<?x16384xf32>
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<?x16384xf32>) scale(%w : tensor<16384xf32>) affine_dims = [1]
      outs(%init : tensor<?x16384xf32>) -> tensor<?x16384xf32>
  return %y : tensor<?x16384xf32>
}

func.func @layer_norm_bf16_16384(%x: tensor<?x16384xbf16>, %g: tensor<16384xbf16>, %b: tensor<16384xbf16>) -> tensor<?x16384xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x16384xbf16>
  %init = tensor.empty(%m) : tensor<?x16384xbf16>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x16384xbf16>) scale(%g : tensor<16384xbf16>) bias(%b : tensor<16384xbf16>) affine_dims = [1]
      outs(%init : tensor<?x16384xbf16>) -> tensor<?x16384xbf16>
  return %y : tensor<?x16384xbf16>
}

func.func @rms_norm_bf16_16384(%x: tensor<?x16384xbf16>, %w: tensor<16384xbf16>) -> tensor<?x16384xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x16384xbf16>
  %init = tensor.empty(%m) : tensor<?x16384xbf16>
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<?x16384xbf16>) scale(%w : tensor<16384xbf16>) affine_dims = [1]
      outs(%init : tensor<?x16384xbf16>) -> tensor<?x16384xbf16>
  return %y : tensor<?x16384xbf16>
}

func.func @layer_norm_f32_65536(%x: tensor<?x65536xf32>, %g: tensor<65536xf32>, %b: tensor<65536xf32>) -> tensor<?x65536xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x65536xf32>
  %init = tensor.empty(%m) : tensor<?x65536xf32>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x65536xf32>) scale(%g : tensor<65536xf32>) bias(%b : tensor<65536xf32>) affine_dims = [1]
      outs(%init : tensor<?x65536xf32>) -> tensor<?x65536xf32>
  return %y : tensor<?x65536xf32>
}

func.func @rms_norm_f32_65536(%x: tensor<?x65536xf32>, %w: tensor<65536xf32>) -> tensor<?x65536xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x65536xf32>
  %init = tensor.empty(%m) : tensor<?x65536xf32>
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<?x65536xf32>) scale(%w : tensor<65536xf32>) affine_dims = [1]
      outs(%init : tensor<?x65536xf32>) -> tensor<?x65536xf32>
  return %y : tensor<?x65536xf32>
}

func.func @layer_norm_bf16_65536(%x: tensor<?x65536xbf16>, %g: tensor<65536xbf16>, %b: tensor<65536xbf16>) -> tensor<?x65536xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x65536xbf16>
  %init = tensor.empty(%m) : tensor<?x65536xbf16>
  %y = norm.normalize standard axes = [1] epsilon = 1.0e-05
      ins(%x : tensor<?x65536xbf16>) scale(%g : tensor<65536xbf16>) bias(%b : tensor<65536xbf16>) affine_dims = [1]
      outs(%init : tensor<?x65536xbf16>) -> tensor<?x65536xbf16>
  return %y : tensor<?x65536xbf16>
}

func.func @rms_norm_bf16_65536(%x: tensor<?x65536xbf16>, %w: tensor<65536xbf16>) -> tensor<?x65536xbf16> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %x, %c0 : tensor<?x65536xbf16>
  %init = tensor.empty(%m) : tensor<?x65536xbf16>
  %y = norm.normalize rms axes = [1] epsilon = 1.0e-06
      ins(%x : tensor<?x65536xbf16>) scale(%w : tensor<65536xbf16>) affine_dims = [1]
      outs(%init : tensor<?x65536xbf16>) -> tensor<?x65536xbf16>
  return %y : tensor<?x65536xbf16>
}
