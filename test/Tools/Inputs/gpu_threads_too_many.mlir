// A GPU schedule whose thread blocks would hold more threads than a block may have: a thread per
// register block of the tile's state, Dv / reg_v x tile_q / reg_q = 64 x 128.
func.func @big(%q: tensor<2x128x64xf32>, %k: tensor<2x128x64xf32>, %v: tensor<2x128x64xf32>) -> tensor<2x128x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 128, reg_q = 1, reg_v = 1>} : tensor<2x128x64xf32>, tensor<2x128x64xf32>, tensor<2x128x64xf32> -> tensor<2x128x64xf32>
  return %o : tensor<2x128x64xf32>
}
