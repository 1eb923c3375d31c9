//===- ScheduleLimits.cpp - a given #attn.schedule as the target runs it --===//
//
// A schedule an op carries already (written by hand, or by the tuner) is checked against what the
// target has, and rewritten to what its kernel does where the kernel's shape rules change it
// (kernel/KernelSpec.h), with a remark for each change: the IR that --attn-select-schedule prints
// is the kernel that runs.
//
//===----------------------------------------------------------------------===//

#include "attn/Dialect/Attn/IR/AttnShapes.h"
#include "attn/Dialect/Attn/Transforms/ScheduleHeuristics.h"
#include "attn/Kernel/KernelSpec.h"

using namespace mlir;

namespace attn {

namespace {

/// The accumulators a register block may hold on `t`: kernel::kMaxRegisterFiles register files.
int64_t maxAccumulators(const TargetTraits &t) { return kernel::kMaxRegisterFiles * t.registers(); }

/// An error for a CPU schedule beyond the target's registers and vectors, naming the parameter and
/// the values that work.
LogicalResult checkCpuLimits(Operation *op, ScheduleAttr s, const TargetTraits &t, int64_t lanes) {
  const int64_t maxVector = kernel::kMaxVectorRegisters * t.lanes;
  if (s.getVector() > maxVector)
    return op->emitError() << "schedule parameter 'vector' = " << s.getVector()
                           << " is beyond this target: its vector registers hold " << t.lanes
                           << " f32 lanes and a kernel's vector spans at most "
                           << kernel::kMaxVectorRegisters << " of them (vector <= " << maxVector
                           << ")";
  const int64_t regQ = s.getRegQ(), regV = s.getRegV();
  if (regQ * std::max<int64_t>(regV, 1) > maxAccumulators(t))
    return op->emitError() << "schedule parameters 'reg_q' = " << regQ << " x 'reg_v' = " << regV
                           << " make a register block of " << regQ * std::max<int64_t>(regV, 1)
                           << " accumulator vectors; this target has " << t.registers()
                           << " vector registers (reg_q x reg_v <= " << maxAccumulators(t) << ")";
  auto attention = dyn_cast<AttentionOp>(op);
  if (!attention || s.getTileQ() < lanes)
    return success();
  const int64_t rows = kernel::cpuTileRows(s.getTileQ(), lanes);
  if (rows > kernel::kMaxTileVectors * lanes)
    return op->emitError() << "schedule parameter 'tile_q' = " << s.getTileQ()
                           << " is beyond this target: a tile holds at most "
                           << kernel::kMaxTileVectors << " vectors of " << lanes
                           << " rows (tile_q <= " << kernel::kMaxTileVectors * lanes << ")";
  const int64_t blockVectors = kernel::cpuScoreBlockRows(rows, lanes) / lanes;
  if (blockVectors * s.getRegK() > maxAccumulators(t))
    return op->emitError() << "schedule parameter 'reg_k' = " << s.getRegK() << " with tiles of "
                           << rows << " rows makes a Q.K^T register block of "
                           << blockVectors * s.getRegK() << " accumulator vectors (" << blockVectors
                           << " vectors of rows x " << s.getRegK() << " keys); this target has "
                           << t.registers()
                           << " vector registers (reg_k <= " << maxAccumulators(t) / blockVectors
                           << " for these tiles)";
  return success();
}

/// The parameters the CPU fused kernel may take as other values.
struct Rewritable {
  int64_t tileQ, blockK, regQ;
};

/// A parameter the CPU fused kernel takes as another value, with why.
struct Rewrite {
  const char *name;
  int64_t Rewritable::*field;
  int64_t runs;
  std::string why;
};

/// What the CPU fused attention kernel makes of `s` (kernel/KernelSpec.h's rules).
SmallVector<Rewrite> cpuAttentionRewrites(AttentionOp op, ScheduleAttr s, int64_t lanes) {
  SmallVector<Rewrite> out;
  const int64_t tileQ = s.getTileQ(), rows = kernel::cpuTileRows(tileQ, lanes);
  if (tileQ > 0 && rows != tileQ)
    out.push_back({"tile_q", &Rewritable::tileQ, rows,
                   "a tile of more rows than a vector holds is whole vectors of " +
                       std::to_string(lanes) + " rows"});
  auto q = cast<RankedTensorType>(op.getQuery().getType());
  auto k = cast<RankedTensorType>(op.getKey().getType());
  const int64_t tk = getAttentionSizes(q, k).tk;
  const int64_t blockK = kernel::cpuBlockKeys(s.getBlockK(), ShapedType::isDynamic(tk) ? -1 : tk);
  if (s.getBlockK() > 0 && blockK != s.getBlockK())
    out.push_back({"block_k", &Rewritable::blockK, blockK,
                   "one block covers the " + std::to_string(tk) + " keys, rounded up to 16"});
  if (tileQ > 0 && s.getRegQ() > rows)
    out.push_back(
        {"reg_q", &Rewritable::regQ, rows, "a P.V register block has at most the tile's rows"});
  return out;
}

} // namespace

FailureOr<ScheduleAttr> honourSchedule(Operation *op, ScheduleAttr s, const TargetTraits &t) {
  if (s.getScheduler() != "" && s.getScheduler() != "hand")
    return s; // a Halide autoscheduler's: it schedules the whole pipeline itself
  if (t.gpu)
    return s; // the GPU schedules check their thread blocks when they compile
  const int64_t lanes = s.getVector() > 0 ? s.getVector() : t.lanes;
  if (failed(checkCpuLimits(op, s, t, lanes)))
    return failure();
  auto attention = dyn_cast<AttentionOp>(op);
  if (!attention)
    return s;
  SmallVector<Rewrite> rewrites = cpuAttentionRewrites(attention, s, lanes);
  if (rewrites.empty())
    return s;
  Rewritable runs{s.getTileQ(), s.getBlockK(), s.getRegQ()};
  for (const Rewrite &r : rewrites) {
    op->emitRemark() << "schedule parameter '" << r.name << "' = " << runs.*r.field << " runs as "
                     << r.runs << " (" << r.why << ")";
    runs.*r.field = r.runs;
  }
  return ScheduleAttr::get(op->getContext(), runs.tileQ, runs.blockK, s.getVector(), runs.regQ,
                           s.getRegK(), s.getRegV(), s.getChunkK(), s.getSplitK(), s.getGroupQ(),
                           s.getParallel(), s.getScheduler(), s.getSource());
}

} // namespace attn
