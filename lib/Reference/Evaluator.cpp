//===- Evaluator.cpp - the double-precision reference ---------------------===//
//
// Deliberately naive: every op is written as the loops of its formula.
//
//===----------------------------------------------------------------------===//

#include "attn/Reference/Evaluator.h"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace attn::reference {

using namespace attn::kernel;

namespace {

const double kNegInf = -std::numeric_limits<double>::infinity();

struct Fail : std::runtime_error {
  using std::runtime_error::runtime_error;
};

int64_t product(const std::vector<int64_t> &s, size_t from = 0, size_t to = SIZE_MAX) {
  int64_t n = 1;
  for (size_t i = from; i < s.size() && i < to; ++i)
    n *= s[i];
  return n;
}

/// Row-major offset of a multi-index.
int64_t offset(const std::vector<int64_t> &shape, const std::vector<int64_t> &idx) {
  int64_t o = 0;
  for (size_t d = 0; d < shape.size(); ++d)
    o = o * shape[d] + idx[d];
  return o;
}

/// The multi-index of a row-major offset.
std::vector<int64_t> unravel(const std::vector<int64_t> &shape, int64_t o) {
  std::vector<int64_t> idx(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    idx[d] = o % shape[d];
    o /= shape[d];
  }
  return idx;
}

Array make(std::vector<int64_t> shape) {
  Array a;
  a.shape = std::move(shape);
  a.data.assign(product(a.shape), 0.0);
  return a;
}

double &at(Array &a, const std::vector<int64_t> &idx) { return a.data[offset(a.shape, idx)]; }
double at(const Array &a, const std::vector<int64_t> &idx) { return a.data[offset(a.shape, idx)]; }

std::vector<int64_t> batchOf(const Array &a) { return {a.shape.begin(), a.shape.end() - 2}; }
int64_t rows(const Array &a) { return a.shape[a.shape.size() - 2]; }
int64_t cols(const Array &a) { return a.shape.back(); }

std::vector<int64_t> with(std::vector<int64_t> prefix, std::initializer_list<int64_t> tail) {
  prefix.insert(prefix.end(), tail);
  return prefix;
}

void require(bool cond, const std::string &msg) {
  if (!cond)
    throw Fail(msg);
}

/// The kv batch index a query batch index reads: equal, except the last batch dim (heads) which may
/// be grouped (query head h reads kv head h / (Hq / Hkv)).
std::vector<int64_t> kvBatchIndex(const std::vector<int64_t> &qBatch,
                                  const std::vector<int64_t> &qShape,
                                  const std::vector<int64_t> &kShape) {
  std::vector<int64_t> b = qBatch;
  if (!b.empty()) {
    size_t h = b.size() - 1;
    int64_t group = qShape[h] / kShape[h];
    b[h] = b[h] / group;
  }
  return b;
}

// s[b, i, j] = score(q[b, i, :], k[b', j, :]); b' = kvBatchIndex(b).
Array score(ScoreKind kind, std::optional<float> scale, const Array &q, const Array &k,
            const Array *w, const Array *va) {
  std::vector<int64_t> batch = batchOf(q);
  Array s = make(with(batch, {rows(q), rows(k)}));
  int64_t nb = product(batch), dq = cols(q), dk = cols(k);
  require(kind == ScoreKind::Bilinear || kind == ScoreKind::Additive || dq == dk,
          "Dq and Dk differ for kind " + std::string(scoreKindName(kind)));
  double factor = 1.0;
  if (kind == ScoreKind::ScaledDot)
    factor = scale ? static_cast<double>(*scale) : 1.0 / std::sqrt(static_cast<double>(dk));
  for (int64_t bi = 0; bi < nb; ++bi) {
    std::vector<int64_t> b = batch.empty() ? std::vector<int64_t>{} : unravel(batch, bi);
    std::vector<int64_t> kb = kvBatchIndex(b, q.shape, k.shape);
    for (int64_t i = 0; i < rows(q); ++i)
      for (int64_t j = 0; j < rows(k); ++j) {
        double v = 0;
        switch (kind) {
        case ScoreKind::Dot:
        case ScoreKind::ScaledDot:
          for (int64_t d = 0; d < dq; ++d)
            v += at(q, with(b, {i, d})) * at(k, with(kb, {j, d}));
          v *= factor;
          break;
        case ScoreKind::Bilinear: // q_i^T W k_j
          for (int64_t d = 0; d < dq; ++d)
            for (int64_t e = 0; e < dk; ++e)
              v += at(q, with(b, {i, d})) * at(*w, {d, e}) * at(k, with(kb, {j, e}));
          break;
        case ScoreKind::Additive: { // v_a^T tanh(W_a [q_i ; k_j])
          std::vector<double> qk;
          for (int64_t d = 0; d < dq; ++d)
            qk.push_back(at(q, with(b, {i, d})));
          for (int64_t d = 0; d < dk; ++d)
            qk.push_back(at(k, with(kb, {j, d})));
          for (int64_t a = 0; a < w->shape[0]; ++a) {
            double h = 0;
            for (size_t c = 0; c < qk.size(); ++c)
              h += at(*w, {a, static_cast<int64_t>(c)}) * qk[c];
            v += at(*va, {a}) * std::tanh(h);
          }
          break;
        }
        }
        at(s, with(b, {i, j})) = v;
      }
  }
  return s;
}

/// Masked entries become -inf; a float mask operand is added to the score.
Array maskScores(const MaskSpec &m, const Array &s, const Array *lengths, const Array *maskOperand,
                 bool maskIsBool) {
  Array out = s;
  int64_t tq = rows(s), tk = cols(s);
  for (int64_t o = 0; o < static_cast<int64_t>(s.data.size()); ++o) {
    std::vector<int64_t> idx = unravel(s.shape, o);
    int64_t i = idx[idx.size() - 2], j = idx.back();
    int64_t diag = m.align == Align::BottomRight ? i + tk - tq : i; // query i's diagonal key
    bool keep = true;
    if (m.causal && j > diag)
      keep = false;
    if (m.window) { // as offsets from the diagonal: diag - w would overflow for w near INT64_MAX
      int64_t w = *m.window, offset = j - diag;
      if (offset <= -w || (!m.causal && offset >= w))
        keep = false;
    }
    if (lengths) { // over a prefix of the batch dims
      std::vector<int64_t> li(idx.begin(), idx.begin() + lengths->shape.size());
      if (static_cast<double>(j) >= at(*lengths, li))
        keep = false;
    }
    double value = s.data[o];
    if (maskOperand) { // numpy broadcasting: align the last dims, size-1 dims repeat
      const Array &mk = *maskOperand;
      size_t off = idx.size() - mk.shape.size();
      std::vector<int64_t> mi;
      for (size_t d = 0; d < mk.shape.size(); ++d) {
        require(mk.shape[d] == 1 || mk.shape[d] == s.shape[off + d], "the mask does not broadcast");
        mi.push_back(mk.shape[d] == 1 ? 0 : idx[off + d]);
      }
      if (maskIsBool)
        keep = keep && at(mk, mi) != 0;
      else
        value += at(mk, mi);
    }
    out.data[o] = keep ? value : kNegInf;
  }
  return out;
}

/// exp(x - max) / sum along `axis`; an all -inf slice gives zeros; a slice with a NaN is all NaN
/// (exp(NaN - max) is NaN, and so is the sum), as is one with +inf (inf - inf).
Array softmax(const Array &x, int64_t axis) {
  Array out = make(x.shape);
  std::vector<int64_t> sliceShape = x.shape;
  int64_t n = x.shape[axis];
  sliceShape[axis] = 1;
  for (int64_t so = 0; so < product(sliceShape); ++so) {
    std::vector<int64_t> idx = unravel(sliceShape, so);
    auto element = [&](int64_t r) -> std::vector<int64_t> {
      std::vector<int64_t> e = idx;
      e[axis] = r;
      return e;
    };
    double mx = kNegInf;
    bool nan = false;
    for (int64_t r = 0; r < n; ++r) {
      mx = std::max(mx, at(x, element(r)));
      nan = nan || std::isnan(at(x, element(r)));
    }
    if (mx == kNegInf && !nan) // fully masked: zeros (already)
      continue;
    double sum = 0;
    for (int64_t r = 0; r < n; ++r)
      sum += std::exp(at(x, element(r)) - mx);
    for (int64_t r = 0; r < n; ++r)
      at(out, element(r)) = std::exp(at(x, element(r)) - mx) / sum;
  }
  return out;
}

/// c[b, i, e] = sum_j p[b, i, j] v[b', j, e]; b' = kvBatchIndex(b).
Array weightedSum(const Array &p, const Array &v) {
  std::vector<int64_t> batch = batchOf(p);
  require(rows(v) == cols(p), "the values' Tk differs from the weights'");
  Array c = make(with(batch, {rows(p), cols(v)}));
  for (int64_t bi = 0; bi < product(batch); ++bi) {
    std::vector<int64_t> b = batch.empty() ? std::vector<int64_t>{} : unravel(batch, bi);
    std::vector<int64_t> vb = kvBatchIndex(b, p.shape, v.shape);
    for (int64_t i = 0; i < rows(p); ++i)
      for (int64_t e = 0; e < cols(v); ++e) {
        double acc = 0;
        for (int64_t j = 0; j < cols(p); ++j)
          acc += at(p, with(b, {i, j})) * at(v, with(vb, {j, e}));
        at(c, with(b, {i, e})) = acc;
      }
  }
  return c;
}

Array attention(const OpSpec &op, const Array &q, const Array &k, const Array &v, const Array *w,
                const Array *va, const Array *lengths, const Array *maskOperand, bool maskIsBool) {
  Array s = score(op.score, op.scale, q, k, w, va);
  if (op.mask.any())
    s = maskScores(op.mask, s, lengths, maskOperand, maskIsBool);
  Array p = softmax(s, static_cast<int64_t>(s.shape.size()) - 1);
  return weightedSum(p, v);
}

/// x [..., E] . W [E, N] + b [N] for any leading dims.
Array linear(const Array &x, const Array &w, const Array *bias) {
  int64_t e = x.shape.back(), n = w.shape[1];
  require(w.shape[0] == e, "a linear op's weight rows differ from its input's width");
  std::vector<int64_t> shape(x.shape.begin(), x.shape.end() - 1);
  shape.push_back(n);
  Array y = make(shape);
  int64_t rowsOf = product(x.shape) / e;
  for (int64_t r = 0; r < rowsOf; ++r)
    for (int64_t c = 0; c < n; ++c) {
      double acc = bias ? at(*bias, {c}) : 0.0;
      for (int64_t k = 0; k < e; ++k)
        acc += x.data[r * e + k] * at(w, {k, c});
      y.data[r * n + c] = acc;
    }
  return y;
}

/// [..., T, H*d] -> [..., H, T, d] for any leading dims.
Array splitHeads(const Array &x, int64_t heads) {
  std::vector<int64_t> batch = batchOf(x);
  int64_t t = rows(x), d = cols(x) / heads;
  Array y = make(with(batch, {heads, t, d}));
  for (int64_t o = 0; o < static_cast<int64_t>(y.data.size()); ++o) {
    std::vector<int64_t> idx = unravel(y.shape, o);
    size_t n = idx.size();
    std::vector<int64_t> src(idx.begin(), idx.end() - 3);
    src.push_back(idx[n - 2]);
    src.push_back(idx[n - 3] * d + idx[n - 1]);
    y.data[o] = at(x, src);
  }
  return y;
}

/// [..., H, T, d] -> [..., T, H*d]
Array mergeHeads(const Array &x) {
  size_t n = x.shape.size();
  int64_t heads = x.shape[n - 3], t = x.shape[n - 2], d = x.shape[n - 1];
  std::vector<int64_t> shape(x.shape.begin(), x.shape.end() - 3);
  shape.push_back(t);
  shape.push_back(heads * d);
  Array y = make(shape);
  for (int64_t o = 0; o < static_cast<int64_t>(y.data.size()); ++o) {
    std::vector<int64_t> idx = unravel(y.shape, o);
    size_t m = idx.size();
    std::vector<int64_t> src(idx.begin(), idx.end() - 2);
    src.push_back(idx[m - 1] / d);
    src.push_back(idx[m - 2]);
    src.push_back(idx[m - 1] % d);
    y.data[o] = at(x, src);
  }
  return y;
}

Array multiHead(const OpSpec &op, const std::vector<Array> &values, const Array *lengths,
                const Array *maskOperand, bool maskIsBool) {
  auto opt = [&](int id) { return id >= 0 ? &values[id] : nullptr; };
  const Array &xq = values[op.xq], &xkv = values[op.xkv];
  require(values[op.wq].shape[1] % op.heads == 0, "w_q's width is not a multiple of num_heads");
  require(values[op.wv].shape[1] % op.kvHeads == 0,
          "w_v's width is not a multiple of num_kv_heads");
  Array q = splitHeads(linear(xq, values[op.wq], opt(op.bq)), op.heads);
  Array k = splitHeads(linear(xkv, values[op.wk], opt(op.bk)), op.kvHeads);
  Array v = splitHeads(linear(xkv, values[op.wv], opt(op.bv)), op.kvHeads);
  require(cols(q) == cols(k), "dk differs between w_q and w_k");
  Array o = attention(op, q, k, v, nullptr, nullptr, lengths, maskOperand, maskIsBool);
  Array cat = mergeHeads(o); // cat[b, t, h * dv + e] = o[b, h, t, e]
  return linear(cat, values[op.wo], opt(op.bo));
}

Array fromHost(const HostTensor &t) {
  Array a = make(t.shape);
  for (int64_t i = 0; i < t.numElements(); ++i)
    a.data[i] = t.get(i);
  return a;
}

} // namespace

bool evaluate(const FunctionSpec &fn, const std::vector<const HostTensor *> &args,
              std::vector<Array> &results, std::string &error) {
  try {
    require(static_cast<int>(args.size()) == fn.numArgs, "wrong number of arguments");
    std::vector<Array> values(fn.values.size());
    for (int i = 0; i < fn.numArgs; ++i)
      values[i] = fromHost(*args[i]);
    for (const OpSpec &op : fn.ops) {
      auto opt = [&](int id) { return id >= 0 ? &values[id] : nullptr; };
      bool maskIsBool = op.mask.mask >= 0 && fn.values[op.mask.mask].elem == ElemType::Bool;
      Array r;
      switch (op.kind) {
      case OpKind::Score:
        r = score(op.score, op.scale, values[op.query], values[op.key], opt(op.weight),
                  opt(op.vec));
        break;
      case OpKind::Mask:
        r = maskScores(op.mask, values[op.input], opt(op.mask.keyLengths), opt(op.mask.mask),
                       maskIsBool);
        break;
      case OpKind::Softmax: r = softmax(values[op.input], op.axis); break;
      case OpKind::WeightedSum: r = weightedSum(values[op.input], values[op.other]); break;
      case OpKind::Attention:
        r = attention(op, values[op.query], values[op.key], values[op.value], opt(op.weight),
                      opt(op.vec), opt(op.mask.keyLengths), opt(op.mask.mask), maskIsBool);
        break;
      case OpKind::MultiHead:
        r = multiHead(op, values, opt(op.mask.keyLengths), opt(op.mask.mask), maskIsBool);
        break;
      case OpKind::Linear: r = linear(values[op.input], values[op.weight], opt(op.bias)); break;
      case OpKind::SplitHeads:
        require(cols(values[op.input]) % op.heads == 0,
                "split_heads: width not a multiple of heads");
        r = splitHeads(values[op.input], op.heads);
        break;
      case OpKind::MergeHeads: r = mergeHeads(values[op.input]); break;
      case OpKind::Add:
      case OpKind::Sub:
      case OpKind::Mul: {
        const Array &a = values[op.input], &b = values[op.other];
        require(a.shape == b.shape, "elementwise operands differ in shape");
        r = make(a.shape);
        for (size_t i = 0; i < a.data.size(); ++i)
          r.data[i] = op.kind == OpKind::Add   ? a.data[i] + b.data[i]
                      : op.kind == OpKind::Sub ? a.data[i] - b.data[i]
                                               : a.data[i] * b.data[i];
        break;
      }
      case OpKind::Cast: r = values[op.input]; break;
      }
      values[op.result] = std::move(r);
    }
    results.clear();
    for (int id : fn.results)
      results.push_back(values[id]);
    return true;
  } catch (const Fail &f) {
    error = std::string("reference: ") + f.what();
    return false;
  }
}

double toleranceFor(ElemType t) {
  switch (t) {
  case ElemType::F16: return 2e-3;
  case ElemType::BF16: return 1e-2;
  default: return 1e-4;
  }
}

bool Comparison::pass() const {
  return shapeMatches && mismatchedSpecials == 0 && maxAbs <= tolerance * std::max(scale, 1e-30);
}

Comparison compare(const HostTensor &got, const Array &want) {
  Comparison c;
  c.tolerance = toleranceFor(got.elem);
  if (got.shape != want.shape) {
    c.shapeMatches = false;
    return c;
  }
  for (size_t i = 0; i < want.data.size(); ++i)
    if (std::isfinite(want.data[i]))
      c.scale = std::max(c.scale, std::fabs(want.data[i]));
  for (size_t i = 0; i < want.data.size(); ++i) {
    double w = want.data[i], g = got.get(static_cast<int64_t>(i));
    if (!std::isfinite(w) || !std::isfinite(g)) {
      bool same = (std::isnan(w) && std::isnan(g)) || w == g;
      if (!same)
        ++c.mismatchedSpecials;
      continue;
    }
    double e = std::fabs(g - w);
    c.maxAbs = std::max(c.maxAbs, e);
    if (w != 0)
      c.maxRel = std::max(c.maxRel, e / std::fabs(w));
  }
  return c;
}

} // namespace attn::reference
