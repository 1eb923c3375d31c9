// A multi-head layer (d_model 1024, 16 heads of 64, 1024 tokens) with the heuristic schedules, for bench/ab/run.sh: docs/benchmarks-history.md, 2026-11-30 16:54.
func.func @mh(%x: tensor<1x1024x1024xf32>, %wq: tensor<1024x1024xf32>, %wk: tensor<1024x1024xf32>,
              %wv: tensor<1024x1024xf32>, %wo: tensor<1024x1024xf32>) -> tensor<1x1024x1024xf32> {
  %a = attn.multi_head scaled_dot %x, %x heads(16)
         proj(%wq, %wk, %wv, %wo : tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>, tensor<1024x1024xf32>)
         : tensor<1x1024x1024xf32>, tensor<1x1024x1024xf32> -> tensor<1x1024x1024xf32>
  return %a : tensor<1x1024x1024xf32>
}
