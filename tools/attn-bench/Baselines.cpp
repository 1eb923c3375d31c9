//===- Baselines.cpp - OpenBLAS and oneDNN attention ----------------------===//

#include "Baselines.h"

#include "attn/Runtime/AlignedVector.h"

#include <cblas.h>
#include <oneapi/dnnl/dnnl.hpp>

#include <immintrin.h>

#include <cmath>
#include <limits>
#include <thread>
#include <vector>

namespace attn::bench {

namespace {

//===--- A vectorized softmax (AVX-512, with a scalar tail), rows of the score matrix ---===//

/// exp(x) for x <= 0: the same polynomial the attn kernels use (2^f on [-0.5, 0.5], degree 5).
__attribute__((target("avx512f"))) __m512 exp512(__m512 x) {
  __m512 t = _mm512_mul_ps(_mm512_max_ps(x, _mm512_set1_ps(-87.0f)), _mm512_set1_ps(1.44269504f));
  __m512 n = _mm512_roundscale_ps(t, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 f = _mm512_sub_ps(t, n);
  __m512 p = _mm512_set1_ps(0.001326697994954884f);
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(0.009675469249486923f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(0.05550742521882057f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(0.24022121727466583f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(0.6931469440460205f));
  p = _mm512_fmadd_ps(p, f, _mm512_set1_ps(1.0000001192092896f));
  return _mm512_scalef_ps(p, n);
}

/// In-place softmax of a row of n scores, of which only the first `valid` count (causal masking).
__attribute__((target("avx512f"))) void softmaxRow512(float *row, int64_t n, int64_t valid) {
  const float negInf = -std::numeric_limits<float>::infinity();
  __m512 mv = _mm512_set1_ps(negInf);
  int64_t j = 0;
  for (; j + 16 <= valid; j += 16)
    mv = _mm512_max_ps(mv, _mm512_loadu_ps(row + j));
  float m = _mm512_reduce_max_ps(mv);
  for (; j < valid; ++j)
    m = std::max(m, row[j]);
  __m512 mb = _mm512_set1_ps(m), sv = _mm512_setzero_ps();
  for (j = 0; j + 16 <= valid; j += 16) {
    __m512 e = exp512(_mm512_sub_ps(_mm512_loadu_ps(row + j), mb));
    _mm512_storeu_ps(row + j, e);
    sv = _mm512_add_ps(sv, e);
  }
  float sum = _mm512_reduce_add_ps(sv);
  for (; j < valid; ++j) {
    row[j] = std::exp(row[j] - m);
    sum += row[j];
  }
  float inv = valid > 0 ? 1.0f / sum : 0.0f;
  __m512 ib = _mm512_set1_ps(inv);
  for (j = 0; j + 16 <= valid; j += 16)
    _mm512_storeu_ps(row + j, _mm512_mul_ps(_mm512_loadu_ps(row + j), ib));
  for (; j < valid; ++j)
    row[j] *= inv;
  for (j = std::max<int64_t>(valid, 0); j < n; ++j)
    row[j] = 0.0f;
}

void softmaxRowScalar(float *row, int64_t n, int64_t valid) {
  float m = -std::numeric_limits<float>::infinity(), sum = 0;
  for (int64_t j = 0; j < valid; ++j)
    m = std::max(m, row[j]);
  for (int64_t j = 0; j < valid; ++j)
    sum += (row[j] = std::exp(row[j] - m));
  for (int64_t j = 0; j < n; ++j)
    row[j] = j < valid ? row[j] / sum : 0.0f;
}

/// The keys a query row sees: all of them, or up to the bottom-right-aligned diagonal.
int64_t validKeys(const BenchShape &s, int64_t i) {
  return s.causal ? std::min<int64_t>(s.Tk, std::max<int64_t>(0, i + s.Tk - s.Tq + 1)) : s.Tk;
}

//===--- OpenBLAS ---===//

class OpenBlasAttention : public Baseline {
public:
  OpenBlasAttention(const BenchShape &s, int threads) : s(s), threads(threads) {
    avx512 = __builtin_cpu_supports("avx512f");
    scratch.resize(threads);
    for (auto &buf : scratch)
      buf.assign(static_cast<size_t>(s.Tq * s.Tk), 0.0f);
  }

  void run(const float *q, const float *k, const float *v, float *out) override {
    int64_t heads = s.B * s.H, group = s.H / s.Hkv;
    auto work = [&](int t) {
      float *sc = scratch[t].data();
      for (int64_t bh = t; bh < heads; bh += threads) {
        int64_t b = bh / s.H, h = bh % s.H, kvh = b * s.Hkv + h / group;
        const float *qh = q + bh * s.Tq * s.D, *kh = k + kvh * s.Tk * s.D,
                    *vh = v + kvh * s.Tk * s.D;
        float *oh = out + bh * s.Tq * s.D;
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, s.Tq, s.Tk, s.D,
                    1.0f / std::sqrt(float(s.D)), qh, s.D, kh, s.D, 0.0f, sc, s.Tk);
        for (int64_t i = 0; i < s.Tq; ++i) {
          if (avx512)
            softmaxRow512(sc + i * s.Tk, s.Tk, validKeys(s, i));
          else
            softmaxRowScalar(sc + i * s.Tk, s.Tk, validKeys(s, i));
        }
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s.Tq, s.D, s.Tk, 1.0f, sc, s.Tk, vh,
                    s.D, 0.0f, oh, s.D);
      }
    };
    if (threads == 1)
      return work(0);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back(work, t);
    for (std::thread &th : pool)
      th.join();
  }

private:
  BenchShape s;
  int threads;
  bool avx512;
  std::vector<AlignedVector<float>> scratch;
};

//===--- oneDNN ---===//

class OneDnnAttention : public Baseline {
public:
  explicit OneDnnAttention(const BenchShape &s)
      : s(s), engine(dnnl::engine::kind::cpu, 0), stream(engine) {
    using dt = dnnl::memory::data_type;
    using dims = dnnl::memory::dims;
    int64_t heads = s.B * s.H;
    // Batched over every (batch, head) while the scores fit in 2 GiB, else one head at a time;
    // grouped heads (GQA) one at a time too: a head's K and V are then its kv head's, which the
    // batched matmul's one batch stride cannot address. (The primitives are made for this batch:
    // when run() once set it to 1 after they were made for 8 heads, each call computed 8 heads
    // from every head's offset, past the ends of q and out; the run hung.)
    const bool grouped = s.H != s.Hkv;
    batch = !grouped && double(heads) * s.Tq * s.Tk * 4 <= 2.0 * (1u << 30) ? heads : 1;
    auto md = [](dims d, dims strides) { return dnnl::memory::desc(d, dt::f32, strides); };
    dnnl::memory::desc qmd = md({batch, s.Tq, s.D}, {s.Tq * s.D, s.D, 1});
    dnnl::memory::desc ktmd = md({batch, s.D, s.Tk}, {s.Tk * s.D, 1, s.D}); // K^T: K as stored
    dnnl::memory::desc smd = md({batch, s.Tq, s.Tk}, {s.Tq * s.Tk, s.Tk, 1});
    dnnl::memory::desc vmd = md({batch, s.Tk, s.D}, {s.Tk * s.D, s.D, 1});
    dnnl::memory::desc omd = md({batch, s.Tq, s.D}, {s.Tq * s.D, s.D, 1});

    dnnl::primitive_attr scoreAttr;
    scoreAttr.set_output_scales(0, {1.0f / std::sqrt(float(s.D))});
    scorePd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(qmd, ktmd, smd), scoreAttr, engine);
    score = dnnl::matmul(scorePd);
    if (s.causal) {
      // The mask as a separate (JIT-compiled, parallel) binary add: as a matmul post-op, oneDNN 2.6
      // falls back to its reference matmul (1000x slower, measured).
      maskMd = md({1, s.Tq, s.Tk}, {s.Tq * s.Tk, s.Tk, 1});
      maskData.resize(static_cast<size_t>(s.Tq * s.Tk));
      for (int64_t i = 0; i < s.Tq; ++i)
        for (int64_t j = 0; j < s.Tk; ++j)
          maskData[i * s.Tk + j] =
              j < validKeys(s, i) ? 0.0f : -std::numeric_limits<float>::infinity();
      maskPd = dnnl::binary::primitive_desc(
          dnnl::binary::desc(dnnl::algorithm::binary_add, smd, maskMd, smd), engine);
      maskAdd = dnnl::binary(maskPd);
    }
    softmaxPd = dnnl::softmax_v2_forward::primitive_desc(
        dnnl::softmax_v2_forward::desc(dnnl::prop_kind::forward_inference,
                                       dnnl::algorithm::softmax_accurate, smd, smd, 2),
        engine);
    softmax = dnnl::softmax_v2_forward(softmaxPd);
    pvPd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(smd, vmd, omd), engine);
    pv = dnnl::matmul(pvPd);
    scores = dnnl::memory(smd, engine);
    this->qmd = qmd, this->ktmd = ktmd, this->vmd = vmd, this->omd = omd;
  }

  void run(const float *q, const float *k, const float *v, float *out) override {
    int64_t heads = s.B * s.H, group = s.H / s.Hkv;
    for (int64_t h0 = 0; h0 < heads; h0 += batch) {
      int64_t kvh = (h0 / s.H) * s.Hkv + (h0 % s.H) / group;
      dnnl::memory qm(qmd, engine, const_cast<float *>(q + h0 * s.Tq * s.D));
      dnnl::memory km(ktmd, engine, const_cast<float *>(k + kvh * s.Tk * s.D));
      dnnl::memory vm(vmd, engine, const_cast<float *>(v + kvh * s.Tk * s.D));
      dnnl::memory om(omd, engine, out + h0 * s.Tq * s.D);
      score.execute(stream, {{DNNL_ARG_SRC, qm}, {DNNL_ARG_WEIGHTS, km}, {DNNL_ARG_DST, scores}});
      if (s.causal)
        maskAdd.execute(stream, {{DNNL_ARG_SRC_0, scores},
                                 {DNNL_ARG_SRC_1, dnnl::memory(maskMd, engine, maskData.data())},
                                 {DNNL_ARG_DST, scores}});
      softmax.execute(stream, {{DNNL_ARG_SRC, scores}, {DNNL_ARG_DST, scores}});
      pv.execute(stream, {{DNNL_ARG_SRC, scores}, {DNNL_ARG_WEIGHTS, vm}, {DNNL_ARG_DST, om}});
    }
    stream.wait();
  }

private:
  BenchShape s;
  int64_t batch = 1;
  dnnl::engine engine;
  dnnl::stream stream;
  dnnl::memory::desc qmd, ktmd, vmd, omd, maskMd;
  AlignedVector<float> maskData;
  dnnl::matmul::primitive_desc scorePd, pvPd;
  dnnl::binary::primitive_desc maskPd;
  dnnl::binary maskAdd;
  dnnl::softmax_v2_forward::primitive_desc softmaxPd;
  dnnl::matmul score, pv;
  dnnl::softmax_v2_forward softmax;
  dnnl::memory scores;
};

} // namespace

std::unique_ptr<Baseline> makeBaseline(const std::string &name, const BenchShape &shape,
                                       int threads, std::string &error) {
  if (shape.kind != "scaled_dot") {
    error = "the library baselines compute scaled-dot attention only";
    return nullptr;
  }
  if (name == "openblas")
    return std::make_unique<OpenBlasAttention>(shape, threads);
  if (name == "onednn") {
    try {
      return std::make_unique<OneDnnAttention>(shape);
    } catch (const dnnl::error &e) {
      error = std::string("oneDNN: ") + e.what();
      return nullptr;
    }
  }
  error = "unknown baseline '" + name + "'";
  return nullptr;
}

} // namespace attn::bench
