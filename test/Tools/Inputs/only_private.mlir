func.func private @helper(%x: tensor<4x8xf32>) -> tensor<4x8xf32>
