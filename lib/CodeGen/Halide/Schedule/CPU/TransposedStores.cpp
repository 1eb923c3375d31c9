//===- TransposedStores.cpp - a block transpose in registers ---------------===//
//
// A schedule that vectorizes two dims of a Func whose storage order is the other way round (the
// fused kernel's query tile: read along the feature dim, stored with its rows innermost) makes
// Halide 14 write one vector of M x M lanes with a scatter: the index is M ramps of one stride S,
// the k-th starting k elements after the first. LLVM writes a scatter lane by lane (M*M extracts
// and scalar stores; the same vectorized the other way is M*M scalar loads and inserts). This pass,
// run by Halide at the end of lowering, writes such a store as a transpose in registers instead:
// log2(M) stages of two-vector shuffles (M/2 pairs each, one instruction per result vector on
// AVX-512), then M dense stores of M lanes. It changes no value and no address written.
//
//===----------------------------------------------------------------------===//

#include "attn/CodeGen/Halide/Schedule.h"

using namespace Halide;
using namespace Halide::Internal;

namespace attn::schedule {

namespace {

class TransposedStores : public IRMutator {
  using IRMutator::visit;

  /// The first of the M ramps when `index` is the pattern above (M a power of two, each ramp of M
  /// lanes, one stride S), else nullptr. The rewrite writes the lanes in another order, which is
  /// the same store when no two lanes write one address: so for a stride known at compile time, S
  /// >= M; a run-time stride is the row pitch of a buffer whose rows hold M or more elements
  /// (Halide's storage gives distinct coordinates distinct addresses, and the lanes of a vectorized
  /// store are distinct coordinates: the fused kernel's query tile stored per task has such a
  /// pitch).
  static const Ramp *transposedBlock(const Expr &index) {
    const Shuffle *concat = index.as<Shuffle>();
    if (!concat || !concat->is_concat())
      return nullptr;
    const int m = static_cast<int>(concat->vectors.size());
    const Ramp *first = concat->vectors[0].as<Ramp>();
    if (m < 2 || (m & (m - 1)) != 0 || !first || first->lanes != m)
      return nullptr;
    const int64_t *stride = as_const_int(first->stride);
    if (stride && *stride < m)
      return nullptr;
    for (int k = 1; k < m; ++k) {
      const Ramp *r = concat->vectors[k].as<Ramp>();
      if (!r || r->lanes != m || !equal(r->stride, first->stride))
        return nullptr;
      // (The difference is kept in a variable: as_const_int points into its node, which a
      // temporary would free before the comparison read it. ASan: heap-use-after-free.)
      const Expr difference = simplify(r->base - first->base);
      const int64_t *offset = as_const_int(difference);
      if (!offset || *offset != k)
        return nullptr;
    }
    return first;
  }

  Stmt visit(const Store *op) override {
    const Ramp *first = transposedBlock(op->index);
    if (!first || !is_const_one(op->predicate))
      return IRMutator::visit(op);
    const int m = first->lanes;
    // Lane k * m + j of the value goes to base + k + S * j: row j of the value seen as an m x m
    // matrix (rows of m lanes) is column j of the block written.
    std::vector<std::pair<std::string, Expr>> lets;
    auto bind = [&](Expr e) {
      std::string name = unique_name('t');
      lets.emplace_back(name, e);
      return Variable::make(e.type(), name);
    };
    Expr value = bind(mutate(op->value));
    std::vector<Expr> rows;
    for (int k = 0; k < m; ++k)
      rows.push_back(Shuffle::make_slice(value, k * m, 1, m));
    // Stage h swaps the off-diagonal h x h blocks of every 2h x 2h block: rows k and k + h (k's bit
    // h clear) exchange lanes j + h of row k and j of row k + h, for the j with bit h clear. After
    // every bit, lane j of row k holds what lane k of row j held.
    for (int h = 1; h < m; h *= 2) {
      std::vector<int> lower, upper; // lanes of the pair (row k: 0..m-1, row k + h: m..2m-1)
      for (int j = 0; j < m; ++j) {
        lower.push_back((j & h) ? m + j - h : j);
        upper.push_back((j & h) ? m + j : j + h);
      }
      for (int k = 0; k < m; ++k) {
        if (k & h)
          continue;
        std::vector<Expr> pair = {rows[k], rows[k + h]};
        rows[k] = bind(Shuffle::make(pair, lower));
        rows[k + h] = bind(Shuffle::make(pair, upper));
      }
    }
    std::vector<Stmt> stores;
    for (int j = 0; j < m; ++j) {
      Expr base = simplify(first->base + first->stride * j);
      stores.push_back(Store::make(op->name, rows[j], Ramp::make(base, 1, m), op->param,
                                   const_true(m), ModulusRemainder()));
    }
    Stmt s = Block::make(stores);
    for (auto it = lets.rbegin(); it != lets.rend(); ++it)
      s = LetStmt::make(it->first, it->second, s);
    return s;
  }
};

} // namespace

void addTransposedStoresPass(Pipeline &pipeline) {
  pipeline.add_custom_lowering_pass(new TransposedStores);
}

} // namespace attn::schedule
