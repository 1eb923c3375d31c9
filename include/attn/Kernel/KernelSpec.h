//===- KernelSpec.h - a plain description of a kernel -----------*- C++ -*-===//
//
// The seam between MLIR and Halide (docs/ARCHITECTURE.md): the MLIR side walks a func.func and
// fills a FunctionSpec; the Halide lowering, the reference evaluator and the tools consume only
// this. No MLIR, no Halide, no LLVM here.
//
// Shapes are in tensor order (outermost first, as MLIR writes them), kDynamic for `?`.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_KERNEL_KERNELSPEC_H
#define ATTN_KERNEL_KERNELSPEC_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attn::kernel {

constexpr int64_t kDynamic = -1;

enum class ElemType { F32, F16, BF16, I32, Bool };
const char *elemTypeName(ElemType t); // "f32", "f16", "bf16", "i32", "i1"
int elemTypeBytes(ElemType t);
inline bool isFloat(ElemType t) {
  return t == ElemType::F32 || t == ElemType::F16 || t == ElemType::BF16;
}

struct TensorType {
  ElemType elem = ElemType::F32;
  std::vector<int64_t> shape;
  int rank() const { return static_cast<int>(shape.size()); }
  std::string str() const; // tensor<2x?x8xf32>
};

enum class ScoreKind { Dot, ScaledDot, Bilinear, Additive };
const char *scoreKindName(ScoreKind k);
enum class Align { TopLeft, BottomRight };

/// The mask options (attn.mask, attn.attention, attn.multi_head). Value ids are -1 when absent.
struct MaskSpec {
  bool causal = false;
  std::optional<int64_t> window;
  Align align = Align::TopLeft;
  int keyLengths = -1; // i32 tensor over a prefix of the batch dims
  int mask = -1;       // i1 keep-mask or float bias, [..., Tq, Tk] with numpy broadcasting
  bool any() const { return causal || window || keyLengths >= 0 || mask >= 0; }
  /// True when the options only need Tq, Tk positions (causal/window), no operand.
  bool positional() const { return causal || window.has_value(); }
};

enum class OpKind {
  Score,
  Mask,
  Softmax,
  WeightedSum,
  Attention,
  MultiHead,
  Linear,
  SplitHeads,
  MergeHeads,
  Add,
  Sub,
  Mul,
  Cast
};
const char *opKindName(OpKind k); // the MLIR op name, "attn.score", "arith.addf", ...

/// The largest value of each #attn.schedule parameter on any target (the verifier's bounds; 0
/// always means the target's default). Each target bounds them further by what it has
/// (--attn-select-schedule; CPU.h's kMax* for a CPU). Beyond these, unrolled loops and per-task
/// buffers grow without use: vector = 1048576 crashed Halide's compiler, tile_q = 65536 overflowed
/// its stack, reg_k = 4096 compiled for minutes.
struct ScheduleBound {
  const char *name;
  int64_t max;
};
constexpr ScheduleBound kScheduleBounds[] = {
    {"tile_q", 4096}, {"block_k", 16384}, {"vector", 64},     {"reg_q", 64},
    {"reg_k", 64},    {"reg_v", 64},      {"chunk_k", 16384}, {"group_q", 64},
};

/// An op's #attn.schedule: how its kernel runs. 0 (or empty) means the schedule's default for the
/// target. See AttnBase.td for the meaning of each field.
struct ScheduleSpec {
  int64_t tileQ = 0, blockK = 0, vector = 0, regQ = 0, regK = 0, regV = 0, chunkK = 0, splitK = 0,
          groupQ = 0;
  std::string parallel;  // "heads" | "tiles" | ""
  std::string scheduler; // "hand" | "adams2019" | "mullapudi2016" | "li2018" | ""
  std::string source;    // "heuristic" | "tuned" | "manual" | ""
  /// The attribute's syntax, `#attn.schedule<tile_q = 32, ...>` (set fields only).
  std::string str() const;
  bool usesAutoscheduler() const { return !scheduler.empty() && scheduler != "hand"; }
  /// The vector width a CPU kernel is built with: `vector` when set, else the target's lanes. (The
  /// algorithm reads it too: whether a tile's rows fill a vector decides its max and sum groups.)
  int lanes(int targetLanes) const { return vector > 0 ? static_cast<int>(vector) : targetLanes; }
};

/// One op. Operands are value ids (see FunctionSpec::values); -1 when absent. Which fields an op
/// uses:
///   Score:       query, key, [weight], [vec], score, scale
///   Mask:        input (scores), mask
///   Softmax:     input, axis (non-negative)
///   WeightedSum: input (weights), other (values)
///   Attention:   query, key, value, [weight], [vec], score, scale, mask
///   MultiHead:   xq, xkv, wq, wk, wv, wo, [bq, bk, bv, bo], score, scale, heads, kvHeads, mask
///   Linear:      input, weight, [bias]
///   SplitHeads:  input, heads
///   MergeHeads:  input
///   Add/Sub/Mul: input, other (same shapes)
///   Cast:        input (tensor.cast: same data, the result type's static sizes are checked)
struct OpSpec {
  OpKind kind = OpKind::Score;
  std::string location; // "file:line:col", for messages
  int result = -1;
  int input = -1, other = -1;
  int query = -1, key = -1, value = -1, weight = -1, vec = -1;
  int xq = -1, xkv = -1, wq = -1, wk = -1, wv = -1, wo = -1, bq = -1, bk = -1, bv = -1, bo = -1;
  int bias = -1;
  ScoreKind score = ScoreKind::Dot;
  std::optional<float> scale; // scaled_dot only; absent means 1/sqrt(Dk)
  MaskSpec mask;
  int64_t axis = 0;
  int64_t heads = 1, kvHeads = 1;
  ScheduleSpec schedule;
  std::string describe() const;      // "attn.score (model.mlir:3:8)"
  std::vector<int> operands() const; // every value id it reads, masks' included
  std::vector<int *> operandSlots(); // the fields that hold them (-1 where absent)
};

/// One public function: one kernel. Values 0..numArgs-1 are the arguments, the rest op results.
struct FunctionSpec {
  std::string name;
  std::string location;
  std::vector<TensorType> values;
  int numArgs = 0;
  std::vector<OpSpec> ops;  // in program order
  std::vector<int> results; // value ids
  TensorType resultType(int i) const { return values[results[i]]; }
  /// How many times `value` is read: by ops, and by returning it.
  int uses(int value) const;
};

/// All kernels of a module.
struct ModuleSpec {
  std::vector<FunctionSpec> functions;
  const FunctionSpec *find(const std::string &name) const;
};

} // namespace attn::kernel

#endif // ATTN_KERNEL_KERNELSPEC_H
