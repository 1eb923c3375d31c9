func.func @dot(%q: tensor<?x?xf32>, %k: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %s = attn.score dot %q, %k : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?x?xf32>
  return %s : tensor<?x?xf32>
}
