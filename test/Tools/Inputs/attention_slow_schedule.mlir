// A hand-written schedule of one-vector tiles and 1 x 1 register blocks, which the tuner starts
// from (it starts from the schedule an op carries); attn-tune-decisions.test gives its candidates
// fixed times, so what the tuner keeps does not depend on this machine's speed.
func.func @att(%q: tensor<1x4x256x64xf32>, %k: tensor<1x4x256x64xf32>, %v: tensor<1x4x256x64xf32>) -> tensor<1x4x256x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 16, block_k = 16, vector = 16, reg_q = 1, reg_k = 1, reg_v = 1, chunk_k = 16, parallel = "heads", scheduler = "hand", source = "manual">} : tensor<1x4x256x64xf32>, tensor<1x4x256x64xf32>, tensor<1x4x256x64xf32> -> tensor<1x4x256x64xf32>
  return %o : tensor<1x4x256x64xf32>
}
