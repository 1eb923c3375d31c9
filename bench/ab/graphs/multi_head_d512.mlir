// A multi-head layer (d_model 512, 8 heads of 64, 512 tokens) with the heuristic schedules, for bench/ab/run.sh: docs/benchmarks-history.md, 2026-11-30 16:54.
func.func @mh(%x: tensor<1x512x512xf32>, %wq: tensor<512x512xf32>, %wk: tensor<512x512xf32>,
              %wv: tensor<512x512xf32>, %wo: tensor<512x512xf32>) -> tensor<1x512x512xf32> {
  %a = attn.multi_head scaled_dot %x, %x heads(8)
         proj(%wq, %wk, %wv, %wo : tensor<512x512xf32>, tensor<512x512xf32>, tensor<512x512xf32>, tensor<512x512xf32>)
         : tensor<1x512x512xf32>, tensor<1x512x512xf32> -> tensor<1x512x512xf32>
  return %a : tensor<1x512x512xf32>
}
