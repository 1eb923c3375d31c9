//===- BenchShapes.cpp - the problems attn-bench measures -----------------===//

#include "BenchShapes.h"

#include <cctype>
#include <sstream>

namespace attn::bench {

double BenchShape::flops() const { return 4.0 * B * H * Tq * Tk * D; }

double BenchShape::bytes() const {
  if (kind == "additive")
    return 4.0 * B * (2 * Tq * D + 2 * Tk * D);
  return 4.0 * B * (2 * H * Tq * D + 2 * Hkv * Tk * D);
}

double BenchShape::tanhs() const { return kind == "additive" ? double(B) * Tq * Tk * Da : 0; }

std::vector<std::vector<int64_t>> BenchShape::argShapes() const {
  if (kind == "additive")
    return {{B, Tq, D}, {B, Tk, D}, {B, Tk, D}, {Da, 2 * D}, {Da}};
  std::vector<std::vector<int64_t>> s = {{B, H, Tq, D}, {B, Hkv, Tk, D}, {B, Hkv, Tk, D}};
  if (kind == "bilinear")
    s.push_back({D, D});
  return s;
}

namespace {
std::string tensor(const std::vector<int64_t> &shape) {
  std::string s = "tensor<";
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  return s + "f32>";
}
} // namespace

std::string BenchShape::mlir(bool fused, const std::string &schedule) const {
  std::vector<std::vector<int64_t>> args = argShapes();
  bool additive = kind == "additive", bilinear = kind == "bilinear";
  std::vector<int64_t> batch = additive ? std::vector<int64_t>{B} : std::vector<int64_t>{B, H};
  auto with = [&](std::vector<int64_t> tail) {
    std::vector<int64_t> s = batch;
    s.insert(s.end(), tail.begin(), tail.end());
    return tensor(s);
  };
  std::string q = tensor(args[0]), k = tensor(args[1]), v = tensor(args[2]);
  std::string out = with({Tq, D}), scores = with({Tq, Tk});
  std::string attr = schedule.empty() ? "" : " {schedule = " + schedule + "}";
  std::string extra, extraArgs;
  if (bilinear) {
    extraArgs = ", %w: " + tensor(args[3]);
    extra = " weight(%w : " + tensor(args[3]) + ")";
  } else if (additive) {
    extraArgs = ", %wa: " + tensor(args[3]) + ", %va: " + tensor(args[4]);
    extra = " weight(%wa : " + tensor(args[3]) + ") vec(%va : " + tensor(args[4]) + ")";
  }
  std::string mask = causal ? " causal align(bottom_right)" : "";
  std::ostringstream os;
  os << "func.func @bench(%q: " << q << ", %k: " << k << ", %v: " << v << extraArgs << ") -> "
     << out << " {\n";
  if (fused) {
    os << "  %o = attn.attention " << kind << " %q, %k, %v" << extra << mask << attr << " : " << q
       << ", " << k << ", " << v << " -> " << out << "\n";
  } else {
    os << "  %s = attn.score " << kind << " %q, %k" << extra << attr << " : " << q << ", " << k
       << " -> " << scores << "\n";
    std::string p = "%s";
    if (causal) {
      os << "  %m = attn.mask %s" << mask << attr << " : " << scores << "\n";
      p = "%m";
    }
    os << "  %p = attn.softmax " << p << attr << " : " << scores << "\n";
    os << "  %o = attn.weighted_sum %p, %v" << attr << " : " << scores << ", " << v << " -> " << out
       << "\n";
  }
  os << "  return %o : " << out << "\n}\n";
  return os.str();
}

std::string BenchShape::describe() const {
  std::ostringstream os;
  os << "B=" << B;
  if (kind != "additive")
    os << " H=" << H << (Hkv != H ? " Hkv=" + std::to_string(Hkv) : "");
  if (Tq == Tk)
    os << " S=" << Tq;
  else
    os << " Tq=" << Tq << " Tk=" << Tk;
  os << " D=" << D;
  if (Da)
    os << " d_a=" << Da;
  if (causal)
    os << " causal";
  return os.str();
}

std::string BenchShape::kernelName() const {
  std::string k = "attn_" + name;
  for (char &c : k)
    if (!std::isalnum(static_cast<unsigned char>(c)))
      c = '_';
  return k;
}

llvm::json::Object BenchShape::json() const {
  llvm::json::Array args;
  for (const std::vector<int64_t> &a : argShapes())
    args.push_back(llvm::json::Array(a));
  std::vector<int64_t> out =
      kind == "additive" ? std::vector<int64_t>{B, Tq, D} : std::vector<int64_t>{B, H, Tq, D};
  return llvm::json::Object{{"name", name},
                            {"kernel", kernelName()},
                            {"describe", describe()},
                            {"group", group},
                            {"kind", kind},
                            {"B", B},
                            {"H", H},
                            {"Hkv", Hkv},
                            {"Tq", Tq},
                            {"Tk", Tk},
                            {"D", D},
                            {"Da", Da},
                            {"causal", causal},
                            {"args", std::move(args)},
                            {"out", llvm::json::Array(out)},
                            {"flops", flops()},
                            {"bytes", bytes()},
                            {"tanhs", tanhs()}};
}

namespace {

/// A shape of `kind` scores in `group`, every size BenchShape's default until the caller sets it.
BenchShape shapeOf(std::string name, const char *group, const char *kind) {
  BenchShape b;
  b.name = std::move(name);
  b.group = group;
  b.kind = kind;
  return b;
}

/// Scaled-dot prefill, Tq = Tk = s (B = 1, H = 8, D = 64), with or without a causal mask.
BenchShape prefillShape(int64_t s, bool causal = false) {
  BenchShape b =
      shapeOf("S" + std::to_string(s) + (causal ? "-causal" : ""), "prefill", "scaled_dot");
  b.Tq = b.Tk = s;
  b.causal = causal;
  return b;
}

/// `b` over kvHeads kv heads: as many as its query heads is multi-head attention, fewer is GQA
/// (H / kvHeads query heads per kv head, which the fused kernel reads once for all of them),
/// named "-GQA<group>".
BenchShape withKvHeads(BenchShape b, int64_t kvHeads) {
  if (kvHeads != b.H)
    b.name += "-GQA" + std::to_string(b.H / kvHeads);
  b.Hkv = kvHeads;
  return b;
}

/// Scaled-dot prefill at head dim 128, Tq = Tk = s (B = 1, H = 8), over kvHeads kv heads.
BenchShape headDim128Shape(int64_t s, int64_t kvHeads) {
  BenchShape b = prefillShape(s);
  b.name += "-D128";
  b.D = 128;
  return withKvHeads(b, kvHeads);
}

/// Scaled-dot decode: one query row per head against tk keys, batch x heads of them.
BenchShape decodeShape(int64_t batch, int64_t heads, int64_t tk) {
  BenchShape d = shapeOf("decode-Tk" + std::to_string(tk), "decode", "scaled_dot");
  d.B = batch, d.H = d.Hkv = heads, d.Tq = 1, d.Tk = tk;
  return d;
}

/// Additive scores (one head, B = 1): Tq = Tk = s, D = d_a = d.
BenchShape additiveShape(int64_t s, int64_t d) {
  BenchShape a = shapeOf("additive-S" + std::to_string(s), "additive", "additive");
  a.Tq = a.Tk = s, a.D = a.Da = d;
  return a;
}

} // namespace

std::vector<BenchShape> gpuShapes(bool quick) {
  std::vector<BenchShape> shapes = benchShapes(quick);
  if (quick)
    return shapes;
  for (int64_t s : {1024, 4096})
    shapes.push_back(headDim128Shape(s, 8));
  return shapes;
}

std::vector<BenchShape> benchShapes(bool quick) {
  if (quick)
    return {prefillShape(64), prefillShape(64, true), withKvHeads(prefillShape(64), 2),
            decodeShape(2, 2, 128), additiveShape(32, 16)};
  std::vector<BenchShape> shapes;
  for (int64_t s : {512, 1024, 2048, 4096, 16384})
    shapes.push_back(prefillShape(s));
  shapes.push_back(prefillShape(2048, true));
  BenchShape b = shapeOf("B4H12-S256", "prefill", "scaled_dot");
  b.B = 4, b.H = b.Hkv = 12, b.Tq = b.Tk = 256;
  shapes.push_back(b);
  for (int64_t kvHeads : {8, 2})
    shapes.push_back(headDim128Shape(2048, kvHeads));
  shapes.push_back(decodeShape(8, 8, 2048));
  shapes.push_back(additiveShape(512, 64));
  for (const char *kind : {"dot", "bilinear"}) {
    BenchShape k = shapeOf(std::string(kind) + "-S1024", "kinds", kind);
    k.Tq = k.Tk = 1024;
    shapes.push_back(k);
  }
  return shapes;
}

} // namespace attn::bench
