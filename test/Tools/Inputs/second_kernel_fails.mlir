// Two kernels: the first compiles, the second does not (Li2018 writes a schedule Halide 14 cannot
// compile: atomic predicated stores). attn-compile-errors.test: nothing is left in a new output dir.
func.func @first(%q: tensor<4x8xf32>, %k: tensor<6x8xf32>, %v: tensor<6x8xf32>) -> tensor<4x8xf32> {
  %o = attn.attention scaled_dot %q, %k, %v : tensor<4x8xf32>, tensor<6x8xf32>, tensor<6x8xf32> -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
func.func @second(%q: tensor<2x2x2x24xf16>, %k: tensor<2x1x53x24xf16>, %v: tensor<2x1x53x4xf16>, %len: tensor<2xi32>, %m: tensor<2x53xi1>) -> tensor<2x2x2x4xf16> {
  %o = attn.attention scaled_dot %q, %k, %v scale(0.5) key_lengths(%len : tensor<2xi32>) mask(%m : tensor<2x53xi1>) {schedule = #attn.schedule<scheduler = "li2018">} : tensor<2x2x2x24xf16>, tensor<2x1x53x24xf16>, tensor<2x1x53x4xf16> -> tensor<2x2x2x4xf16>
  return %o : tensor<2x2x2x4xf16>
}
