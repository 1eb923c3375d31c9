//===- Score.cpp - attn.score: dot, scaled_dot, additive ------------------===//

#include "attn/CodeGen/Halide/Ops.h"

using namespace Halide;
namespace k = attn::kernel;

namespace attn::lowering {

namespace {

/// Batch extents of a [..., T, D] tensor followed by `tail`.
std::vector<Expr> batchThen(const HTensor &t, std::vector<Expr> tail) {
  std::vector<Expr> e(t.extents.begin(), t.extents.end() - 2);
  return concat(e, tail);
}

/// s = scale * (q . k^T), q [..., Tq, D], k [..., Tk, D].
HTensor dotScores(const std::string &name, const HTensor &q, const HTensor &k,
                  std::optional<Expr> scale, OpStages &st) {
  ContractionSpec c;
  c.name = name;
  c.label = scale ? "scale * q.k^T" : "q.k^T";
  c.extents = batchThen(q, {q.extent(-2), k.extent(-2)});
  c.reduceExtent = k.extent(-1);
  c.term = [&q, &k](const std::vector<Expr> &b, Expr i, Expr j, Expr d) {
    return q.at(concat(b, {i, d})) * k.at(concat(b, {j, d}));
  };
  if (scale)
    c.epilogue = [s = *scale](Expr acc, const std::vector<Expr> &, Expr, Expr) { return acc * s; };
  c.rhs = k.func; // Halide dims (d, j, ...): j runs along x
  c.rhsXDim = 1;
  c.rhsRDim = 0;
  return contraction(c, st);
}

} // namespace

HTensor scoreOf(const std::string &name, k::ScoreKind kind, std::optional<float> scale,
                const HTensor &q, const HTensor &k, const HTensor *weight, const HTensor *vec,
                OpStages &st) {
  switch (kind) {
  case k::ScoreKind::Dot: return dotScores(name, q, k, std::nullopt, st);
  case k::ScoreKind::ScaledDot: {
    Expr s = scale ? Expr(*scale) : 1.0f / sqrt(cast<float>(k.extent(-1)));
    return dotScores(name, q, k, s, st);
  }
  case k::ScoreKind::Bilinear: // folded before lowering (--attn-fold-bilinear; ExtractKernel)
    throw CompileError("bilinear scores must be folded into q W and a dot score before lowering");
  case k::ScoreKind::Additive: {
    // v_a^T tanh(W_a [q_i ; k_j]) = v_a^T tanh(qp_i + kp_j) with qp = q W_a[:, :Dq]^T and
    // kp = k W_a[:, Dq:]^T projected once, never materializing the [Tq, Tk, d_a] tensor.
    const HTensor &wa = *weight, &va = *vec;
    Expr dq = q.extent(-1), da = wa.extent(0);
    auto project = [&](const HTensor &x, Expr colOffset, const std::string &suffix,
                       const std::string &label) {
      ContractionSpec c;
      c.name = name + suffix;
      c.label = label;
      c.extents = batchThen(x, {x.extent(-2), da});
      c.reduceExtent = x.extent(-1);
      c.term = [&x, &wa, colOffset](const std::vector<Expr> &b, Expr t, Expr a, Expr d) {
        return x.at(concat(b, {t, d})) * wa.at({a, colOffset + d});
      };
      c.rhs = wa.func; // Halide dims (col, a): x = a is not contiguous
      c.rhsXDim = 1;
      c.rhsRDim = 0;
      return contraction(c, st);
    };
    HTensor qp = project(q, 0, "_qp", "q.W_a[:, :Dq]^T");
    HTensor kp = project(k, dq, "_kp", "k.W_a[:, Dq:]^T");
    ContractionSpec c;
    c.name = name;
    c.label = "v_a.tanh(qp_i + kp_j)";
    c.extents = batchThen(q, {q.extent(-2), k.extent(-2)});
    c.reduceExtent = da;
    c.term = [qp, kp, &va](const std::vector<Expr> &b, Expr i, Expr j, Expr a) {
      return tanhApprox(qp.at(concat(b, {i, a})) + kp.at(concat(b, {j, a})), va.at({a}));
    };
    c.rhs = kp.func; // Halide dims (a, j, ...): j runs along x
    c.rhsXDim = 1;
    c.rhsRDim = 0;
    c.expensiveBody = true;
    return contraction(c, st);
  }
  }
  throw CompileError("unknown score kind");
}

HTensor lowerScore(const OpContext &ctx, OpStages &st) {
  const k::OpSpec &op = ctx.op;
  return scoreOf(ctx.name, op.score, op.scale, ctx.value(op.query), ctx.value(op.key),
                 ctx.optional(op.weight), ctx.optional(op.vec), st);
}

} // namespace attn::lowering
