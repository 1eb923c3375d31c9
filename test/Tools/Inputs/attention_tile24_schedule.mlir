// A hand-written tile of 24 rows, which a CPU kernel with 16 lanes rounds up to 32 (cpuTileRows;
// --attn-select-schedule rewrites it so): the tuner must tune every axis from there, not only tile_q.
func.func @att(%q: tensor<1x4x256x64xf32>, %k: tensor<1x4x256x64xf32>, %v: tensor<1x4x256x64xf32>) -> tensor<1x4x256x64xf32> {
  %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 24, block_k = 16, vector = 16, reg_q = 1, reg_k = 1, reg_v = 1, chunk_k = 16, parallel = "heads", scheduler = "hand", source = "manual">} : tensor<1x4x256x64xf32>, tensor<1x4x256x64xf32>, tensor<1x4x256x64xf32> -> tensor<1x4x256x64xf32>
  return %o : tensor<1x4x256x64xf32>
}
