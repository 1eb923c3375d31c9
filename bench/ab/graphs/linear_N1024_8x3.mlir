// x.W with a hand-written per-op schedule (reg_q x reg_v register blocks), for bench/ab/run.sh: docs/benchmarks-history.md, 2026-11-30 16:54.
func.func @lin(%x: tensor<1x512x1024xf32>, %w: tensor<1024x1024xf32>) -> tensor<1x512x1024xf32> {
  %0 = attn.linear %x, %w {schedule = #attn.schedule<tile_q = 64, vector = 16, reg_q = 8, reg_v = 3, parallel = "tiles", source = "manual">} : tensor<1x512x1024xf32>, tensor<1024x1024xf32> -> tensor<1x512x1024xf32>
  return %0 : tensor<1x512x1024xf32>
}
