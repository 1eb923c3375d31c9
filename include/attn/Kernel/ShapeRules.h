//===- ShapeRules.h - run-time shape rules of the kernels -------*- C++ -*-===//
//
// The shape rules of every op, written once over an abstract size type `Dim`:
//   - `int64_t` on the host: attn-run and the reference evaluator infer result shapes from the
//   shapes
//     of the files they are given, and name any disagreement before running;
//   - `Halide::Expr` in the lowering: result extents follow from the input buffers' extents, and
//   every
//     check becomes a requirement the kernel tests at run time (Halide's error code and this
//     message).
// The static MLIR verifier (lib/Dialect/Attn/IR) checks the same rules on static sizes at compile
// time. `Dim` needs: copy, construction from int, +, *, /.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_KERNEL_SHAPERULES_H
#define ATTN_KERNEL_SHAPERULES_H

#include "attn/Kernel/KernelSpec.h"

#include <functional>
#include <string>
#include <vector>

namespace attn::kernel {

/// A run-time condition on two sizes.
template <class Dim> struct ShapeCheck {
  enum Kind {
    Equal,      // a == b
    Divides,    // a divides b (b % a == 0)
    Broadcasts, // a == 1 || a == b (numpy broadcasting of a onto b)
  } kind;
  Dim a, b;
  std::string aName, bName; // what a and b are, e.g. "Dq (dim 1 of 'query')"
  std::string context;      // the op, e.g. "attn.score (model.mlir:3:8)"
};

template <class Dim> using Shape = std::vector<Dim>;

/// Collects the shapes of all values of a function and the checks that make them consistent.
template <class Dim> class ShapeInference {
public:
  std::vector<Shape<Dim>> shapes; // per value id
  std::vector<ShapeCheck<Dim>> checks;

  /// Infers every op result's shape from the argument shapes.
  ShapeInference(const FunctionSpec &fn, std::vector<Shape<Dim>> argShapes) : fn(fn) {
    shapes = std::move(argShapes);
    shapes.resize(fn.values.size());
    for (const OpSpec &op : fn.ops) {
      shapes[op.result] = infer(op);
      // The declared result type's static sizes (tensor.cast relies on this).
      const TensorType &declared = fn.values[op.result];
      for (int d = 0; d < declared.rank(); ++d)
        if (declared.shape[d] != kDynamic)
          equal(shapes[op.result][d], dimOf(declared.shape[d]),
                "dimension " + std::to_string(d) + " of the result",
                "the size its type " + declared.str() + " declares", op);
    }
  }

private:
  const FunctionSpec &fn;

  static Dim dimOf(int64_t n) { return Dim(static_cast<int>(n)); }
  const Shape<Dim> &shape(int value) const { return shapes[value]; }
  static std::string dimName(const std::string &what, int d, const std::string &operand) {
    return what + " (dim " + std::to_string(d) + " of '" + operand + "')";
  }
  void add(typename ShapeCheck<Dim>::Kind kind, Dim a, Dim b, std::string aName, std::string bName,
           const OpSpec &op) {
    checks.push_back({kind, a, b, std::move(aName), std::move(bName), op.describe()});
  }
  void equal(Dim a, Dim b, std::string aName, std::string bName, const OpSpec &op) {
    add(ShapeCheck<Dim>::Equal, a, b, std::move(aName), std::move(bName), op);
  }

  /// The leading dims of `a` and `b` (all but the last two) agree; `skipLast` leaves the last batch
  /// dim out (GQA heads).
  void batchEqual(int a, const std::string &aName, int b, const std::string &bName,
                  const OpSpec &op, bool skipLast = false) {
    int n = static_cast<int>(shape(a).size()) - 2 - (skipLast ? 1 : 0);
    for (int d = 0; d < n; ++d)
      equal(shape(a)[d], shape(b)[d], dimName("batch size", d, aName),
            dimName("batch size", d, bName), op);
  }

  static Shape<Dim> batchOf(const Shape<Dim> &s) { return Shape<Dim>(s.begin(), s.end() - 2); }
  static Dim seq(const Shape<Dim> &s) { return s[s.size() - 2]; }
  static Dim feat(const Shape<Dim> &s) { return s[s.size() - 1]; }

  void scoreKindChecks(const OpSpec &op) {
    const Shape<Dim> &q = shape(op.query), &k = shape(op.key);
    int dq = static_cast<int>(q.size()) - 1, dk = static_cast<int>(k.size()) - 1;
    switch (op.score) {
    case ScoreKind::Dot:
    case ScoreKind::ScaledDot:
      equal(feat(q), feat(k), dimName("Dq", dq, "query"), dimName("Dk", dk, "key"), op);
      break;
    case ScoreKind::Bilinear:
      equal(shape(op.weight)[0], feat(q), dimName("rows", 0, "weight"), "Dq", op);
      equal(shape(op.weight)[1], feat(k), dimName("columns", 1, "weight"), "Dk", op);
      break;
    case ScoreKind::Additive:
      equal(shape(op.weight)[1], feat(q) + feat(k), dimName("columns", 1, "weight"), "Dq + Dk", op);
      equal(shape(op.vec)[0], shape(op.weight)[0], dimName("d_a", 0, "vec"),
            dimName("d_a", 0, "weight"), op);
      break;
    }
  }

  void maskChecks(const OpSpec &op, const Shape<Dim> &scores) {
    if (op.mask.keyLengths >= 0) {
      const Shape<Dim> &len = shape(op.mask.keyLengths);
      for (size_t d = 0; d < len.size(); ++d)
        equal(len[d], scores[d], dimName("size", d, "key_lengths"),
              "the scores' batch size " + std::to_string(d), op);
    }
    if (op.mask.mask >= 0) {
      const Shape<Dim> &m = shape(op.mask.mask);
      size_t off = scores.size() - m.size();
      for (size_t d = 0; d < m.size(); ++d)
        add(ShapeCheck<Dim>::Broadcasts, m[d], scores[off + d], dimName("size", d, "mask"),
            "the scores' size " + std::to_string(off + d), op);
    }
  }

  Shape<Dim> infer(const OpSpec &op) {
    switch (op.kind) {
    case OpKind::Score: {
      batchEqual(op.query, "query", op.key, "key", op);
      scoreKindChecks(op);
      Shape<Dim> r = batchOf(shape(op.query));
      r.push_back(seq(shape(op.query)));
      r.push_back(seq(shape(op.key)));
      return r;
    }
    case OpKind::Mask: maskChecks(op, shape(op.input)); return shape(op.input);
    case OpKind::Softmax: return shape(op.input);
    case OpKind::WeightedSum: {
      const Shape<Dim> &p = shape(op.input), &v = shape(op.other);
      batchEqual(op.input, "weights", op.other, "values", op);
      equal(seq(v), feat(p), dimName("Tk", v.size() - 2, "values"),
            dimName("Tk", p.size() - 1, "weights"), op);
      Shape<Dim> r = batchOf(p);
      r.push_back(seq(p));
      r.push_back(feat(v));
      return r;
    }
    case OpKind::Attention: {
      const Shape<Dim> &q = shape(op.query), &k = shape(op.key), &v = shape(op.value);
      batchEqual(op.query, "query", op.key, "key", op, /*skipLast=*/true);
      batchEqual(op.key, "key", op.value, "value", op);
      if (q.size() > 2)
        add(ShapeCheck<Dim>::Divides, k[k.size() - 3], q[q.size() - 3],
            dimName("kv heads", k.size() - 3, "key"), dimName("query heads", q.size() - 3, "query"),
            op);
      equal(seq(v), seq(k), dimName("Tk", v.size() - 2, "value"),
            dimName("Tk", k.size() - 2, "key"), op);
      scoreKindChecks(op);
      Shape<Dim> scores = batchOf(q);
      scores.push_back(seq(q));
      scores.push_back(seq(k));
      maskChecks(op, scores);
      Shape<Dim> r = batchOf(q);
      r.push_back(seq(q));
      r.push_back(feat(v));
      return r;
    }
    case OpKind::MultiHead: {
      const Shape<Dim> &xq = shape(op.xq), &xkv = shape(op.xkv);
      const Shape<Dim> &wq = shape(op.wq), &wk = shape(op.wk), &wv = shape(op.wv),
                       &wo = shape(op.wo);
      Dim heads = dimOf(op.heads), kvHeads = dimOf(op.kvHeads);
      equal(xkv[0], xq[0], dimName("batch size", 0, "x_kv"), dimName("batch size", 0, "x_q"), op);
      equal(wq[0], xq[2], dimName("rows", 0, "w_q"), "E (dim 2 of 'x_q')", op);
      equal(wk[0], xkv[2], dimName("rows", 0, "w_k"), "E_kv (dim 2 of 'x_kv')", op);
      equal(wv[0], xkv[2], dimName("rows", 0, "w_v"), "E_kv (dim 2 of 'x_kv')", op);
      add(ShapeCheck<Dim>::Divides, heads, wq[1], "num_heads", dimName("columns", 1, "w_q"), op);
      add(ShapeCheck<Dim>::Divides, kvHeads, wv[1], "num_kv_heads", dimName("columns", 1, "w_v"),
          op);
      Dim dk = wq[1] / heads, dv = wv[1] / kvHeads;
      equal(wk[1], kvHeads * dk, dimName("columns", 1, "w_k"), "num_kv_heads * dk", op);
      equal(wo[0], heads * dv, dimName("rows", 0, "w_o"), "num_heads * dv", op);
      const std::pair<int, int> biases[] = {{op.bq, op.wq}, {op.bk, op.wk}, {op.bv, op.wv}};
      const char *biasNames[] = {"b_q", "b_k", "b_v"};
      for (int i = 0; i < 3; ++i)
        if (biases[i].first >= 0)
          equal(shape(biases[i].first)[0], shape(biases[i].second)[1],
                dimName("size", 0, biasNames[i]), "the projection's width", op);
      if (op.bo >= 0)
        equal(shape(op.bo)[0], wo[1], dimName("size", 0, "b_o"), "E_out (dim 1 of 'w_o')", op);
      maskChecks(op, {xq[0], heads, xq[1], xkv[1]});
      return {xq[0], xq[1], wo[1]};
    }
    case OpKind::Linear: {
      const Shape<Dim> &x = shape(op.input), &w = shape(op.weight);
      int e = static_cast<int>(x.size()) - 1;
      equal(w[0], x[e], dimName("rows", 0, "weight"), dimName("E", e, "input"), op);
      if (op.bias >= 0)
        equal(shape(op.bias)[0], w[1], dimName("size", 0, "bias"), dimName("N", 1, "weight"), op);
      Shape<Dim> r(x.begin(), x.end() - 1);
      r.push_back(w[1]);
      return r;
    }
    case OpKind::SplitHeads: {
      const Shape<Dim> &x = shape(op.input);
      Dim heads = dimOf(op.heads);
      add(ShapeCheck<Dim>::Divides, heads, feat(x), "heads",
          dimName("width", x.size() - 1, "input"), op);
      Shape<Dim> r = batchOf(x);
      r.push_back(heads);
      r.push_back(seq(x));
      r.push_back(feat(x) / heads);
      return r;
    }
    case OpKind::MergeHeads: {
      const Shape<Dim> &x = shape(op.input);
      Shape<Dim> r(x.begin(), x.end() - 3);
      r.push_back(seq(x));
      r.push_back(x[x.size() - 3] * feat(x));
      return r;
    }
    case OpKind::Add:
    case OpKind::Sub:
    case OpKind::Mul: {
      const Shape<Dim> &a = shape(op.input), &b = shape(op.other);
      for (size_t d = 0; d < a.size(); ++d)
        equal(a[d], b[d], dimName("size", d, "lhs"), dimName("size", d, "rhs"), op);
      return a;
    }
    case OpKind::Cast: return shape(op.input);
    }
    return {};
  }
};

/// Evaluates host-side checks; returns the first violation as a message, or an empty string.
std::string firstViolation(const std::vector<ShapeCheck<int64_t>> &checks);

} // namespace attn::kernel

#endif // ATTN_KERNEL_SHAPERULES_H
