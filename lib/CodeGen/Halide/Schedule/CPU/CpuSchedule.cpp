//===- CpuSchedule.cpp - the default CPU schedules ------------------------===//
//
// Every op result is computed at root (one kernel per op, as written; the fused kernels come from
// the fused attention op). Matmul-shaped stages get a register-blocked schedule: a block of
// blockRows x (blockVecs * lanes) accumulators lives in registers while the reduction runs; the
// operand read along the contiguous dim is staged transposed when it is not contiguous, and packed
// per column block when it is wide. Everything is parallel over tasks of taskRows rows fused with
// the batch dims. Tails: register-block splits round up (reads past a tensor's edge are clamped by
// the algorithm's input wrappers), task splits and outputs guard.
//
//===----------------------------------------------------------------------===//

#include "attn/CodeGen/Halide/Schedule.h"
#include "attn/CodeGen/Halide/Schedule/CPU.h"

#include <algorithm>
#include <sstream>

using namespace Halide;
using namespace attn::lowering;

namespace attn::schedule {

std::string ScheduleLog::text() const {
  std::string s;
  for (const std::string &l : lines)
    s += l + "\n";
  return s;
}

VarOrRVar fuseBatchDims(Stage s, const std::vector<Var> &bk, const std::string &prefix) {
  if (bk.empty())
    return Var();
  Var fused = bk[0];
  for (size_t i = 1; i < bk.size(); ++i) {
    Var next(prefix + "_hb" + std::to_string(i));
    s.fuse(fused, bk[i], next);
    fused = next;
  }
  return fused;
}

ResultTiles tileFusedResult(const FusedAttentionStage &f, const FusedRoot &root) {
  Func res = root.f;
  ResultTiles t{Var(res.name() + "_rt"), Var(res.name() + "_rr"), Var()};
  res.compute_root().split(root.r, t.rt, t.rr, f.tileRows, TailStrategy::GuardWithIf);
  t.hb = fuseBatchDims(res, root.bk, res.name());
  return t;
}

CpuParams defaultCpuParams(const Target &target) {
  CpuParams p;
  p.lanes = target.natural_vector_size<float>();
  bool avx512 = target.has_feature(Target::AVX512);
  // 32 vector registers on AVX-512: 8 x 3 = 24 accumulators; 16 on AVX2: 4 x 3 = 12.
  p.blockRows = avx512 ? 8 : 4;
  p.blockVecs = 3;
  p.taskRows = 64;
  return p;
}

namespace {

std::string opName(const OpStages &st) { return st.op ? st.op->describe() : std::string("result"); }

/// Splits `y` into tasks of `rows` rows, fuses the task index with the outer dims (batch, heads)
/// and parallelizes the fused loop. Returns the task loop Var and the rows-within-task Var.
std::pair<Var, Var> parallelTasks(Func f, Var y, const std::vector<Var> &outer, int rows) {
  Var yo(f.name() + "_yo"), yi(f.name() + "_yi");
  f.split(y, yo, yi, rows, TailStrategy::GuardWithIf);
  Var task = yo;
  for (size_t i = 0; i < outer.size(); ++i) {
    Var fused(f.name() + "_t" + std::to_string(i));
    f.fuse(task, outer[i], fused);
    task = fused;
  }
  f.parallel(task);
  return {task, yi};
}

void scheduleContraction(Contraction c, const OpStages &st, const CpuParams &p, ScheduleLog &log) {
  int vx = p.lanes * p.blockVecs;
  Func out = c.out, acc = c.acc;
  out.compute_root();
  auto [task, rows] = parallelTasks(out, c.y, c.outer, p.taskRows);
  Var xo(out.name() + "_xo"), xi(out.name() + "_xi"), ro(out.name() + "_ro"),
      ri(out.name() + "_ri");
  // A wide rhs read along x (x.W with N >= cpu::kPackedOperandWidth) is packed per column
  // block: the block's panel (K x vx floats, contiguous, in L2) then serves every row block of the
  // task, instead of each row block streaming the whole operand through rows 3-4 KB apart
  // (docs/SCHEDULES.md, "Measurements behind the code"). The column blocks then run outside the row
  // blocks, and a partial last block's clamped reads are the packing copy's, not the register
  // block's.
  const bool pack = c.rhs.defined() && c.rhsXDim == 0 && c.staticWidth != kernel::kDynamic &&
                    c.staticWidth >= cpu::kPackedOperandWidth;
  out.split(c.x, xo, xi, vx, TailStrategy::RoundUp)
      .split(rows, ro, ri, p.blockRows, TailStrategy::RoundUp)
      .reorder(xi, ri, pack ? ro : xo, pack ? xo : ro, task)
      .vectorize(xi, p.lanes)
      .unroll(ri);

  // The accumulator block lives in registers while the reduction runs.
  // Tail tasks guard their rows, which would leave the block's extent unknown: fix it, so the block
  // unrolls; rows past the edge are computed from clamped (or rounded-up) producers and dropped.
  acc.compute_at(out, pack ? ro : xo)
      .bound_extent(c.x, vx)
      .bound_extent(c.y, p.blockRows)
      .vectorize(c.x, p.lanes)
      .unroll(c.x)
      .unroll(c.y);
  acc.update().reorder(c.x, c.y, c.r.x).vectorize(c.x, p.lanes).unroll(c.x).unroll(c.y);

  std::ostringstream msg;
  msg << out.name() << " [" << opName(st) << ", " << c.label << "]: root; register block "
      << p.blockRows << " rows x " << vx << " (" << p.blockVecs << " x " << p.lanes
      << " lanes), reduction innermost; parallel tasks of " << p.taskRows << " rows";
  if (!c.outer.empty())
    msg << " fused with " << c.outer.size() << " batch dim(s)";

  if (pack) {
    Func panel = c.rhs.in(acc);
    panel.compute_at(out, xo).vectorize(panel.args()[0], p.lanes);
    msg << "; " << c.rhs.name() << " packed per column block (column blocks outermost in a task)";
  }
  if (c.rhs.defined() && c.rhsXDim != 0) {
    // Vector loads along x need the operand contiguous in x: stage a transposed copy, per task
    // when the operand has batch dims (each task reads its batch's), else once: every task reads
    // all of a matrix (the additive scores' W_a: copied per task of 16 rows, a gather per element,
    // the copies were 16% of the projections' time).
    Func staged = c.rhs.in(acc);
    std::vector<Var> args = staged.args();
    std::vector<VarOrRVar> storage;
    storage.push_back(args[c.rhsXDim]);
    for (size_t d = 0; d < args.size(); ++d)
      if (static_cast<int>(d) != c.rhsXDim)
        storage.push_back(args[d]);
    std::vector<Var> storageVars;
    for (auto &v : storage)
      storageVars.push_back(v.var);
    const bool once = args.size() <= 2;
    if (once)
      staged.compute_root();
    else
      staged.compute_at(out, task);
    staged.reorder_storage(storageVars).vectorize(args[c.rhsXDim], p.lanes);
    msg << "; " << c.rhs.name() << " staged transposed " << (once ? "once" : "per task");
  }
  log.add(msg.str());
}

void schedulePointwise(const Pointwise &pw, const std::string &owner, const CpuParams &p,
                       ScheduleLog &log, TailStrategy tail) {
  Func f = pw.f;
  f.compute_root();
  std::ostringstream msg;
  msg << f.name() << " [" << owner << ", " << pw.label << "]: root; vectorized " << p.lanes
      << " lanes";
  if (pw.vars.size() >= 2) {
    std::vector<Var> outer(pw.vars.begin() + 2, pw.vars.end());
    parallelTasks(f, pw.vars[1], outer, p.taskRows);
    msg << "; parallel tasks of " << p.taskRows << " rows";
  }
  if (!pw.vars.empty())
    f.vectorize(pw.vars[0], p.lanes, tail);
  log.add(msg.str());
}

void scheduleSoftmax(SoftmaxStage s, const OpStages &st, const CpuParams &p, ScheduleLog &log) {
  Func out = s.out;
  out.compute_root();
  std::ostringstream msg;
  msg << out.name() << " [" << opName(st) << ", softmax]: root; ";
  if (s.axis == 0) {
    // Along the contiguous dim: one row per iteration, parallel over rows; the max and the sum are
    // vectorized by rfactor (lanes partial results per row, then a horizontal reduction).
    Var row = s.vars.size() >= 2 ? s.vars[1] : Var();
    if (s.vars.size() >= 2) {
      std::vector<Var> outer(s.vars.begin() + 2, s.vars.end());
      auto [task, rows] = parallelTasks(out, row, outer, p.taskRows);
      row = rows;
    }
    out.vectorize(s.vars[0], p.lanes, TailStrategy::RoundUp);
    auto vectorReduce = [&](Func f, RDom r, const std::string &what) {
      RVar rvo(f.name() + "_ro"), rvi(f.name() + "_ri");
      Var u(f.name() + "_u");
      Func partial = f.update().split(r.x, rvo, rvi, p.lanes).rfactor(rvi, u);
      if (s.vars.size() >= 2) {
        f.compute_at(out, row);
        partial.compute_at(out, row);
      } else {
        f.compute_root();
        partial.compute_root();
      }
      partial.vectorize(u);
      partial.update().vectorize(u);
      msg << what << " by " << p.lanes << "-lane rfactor; ";
    };
    vectorReduce(s.mx, s.rMax, "max");
    vectorReduce(s.sum, s.rSum, "sum");
    if (s.vars.size() >= 2)
      s.e.compute_at(out, row);
    else
      s.e.compute_root();
    s.e.vectorize(s.vars[0], p.lanes, TailStrategy::RoundUp);
    msg << "exp per row, vectorized " << p.lanes << " lanes; parallel over rows";
  } else {
    // Along an outer dim: every stage vectorizes the contiguous dim directly.
    for (Func f : {s.mx, s.e, s.sum}) {
      f.compute_root().vectorize(f.args()[0], p.lanes, TailStrategy::RoundUp);
      if (f.args().size() >= 2)
        f.parallel(f.args().back());
    }
    s.mx.update().vectorize(s.mx.args()[0], p.lanes);
    s.sum.update().vectorize(s.sum.args()[0], p.lanes);
    out.vectorize(s.vars[0], p.lanes, TailStrategy::RoundUp);
    if (s.vars.size() >= 2)
      out.parallel(s.vars.back());
    msg << "reduction along Halide dim " << s.axis << ", every stage vectorized " << p.lanes
        << " lanes along the contiguous dim";
  }
  log.add(msg.str());
}

} // namespace

/// The target's defaults, overridden by what an op's #attn.schedule sets.
CpuParams paramsFor(const CpuParams &defaults, const kernel::ScheduleSpec &s) {
  CpuParams p = defaults;
  p.lanes = s.lanes(defaults.lanes);
  if (s.regQ > 0)
    p.blockRows = static_cast<int>(s.regQ);
  if (s.regV > 0)
    p.blockVecs = static_cast<int>(s.regV);
  if (s.tileQ > 0)
    p.taskRows = static_cast<int>(s.tileQ);
  return p;
}

namespace {

/// The result conversion that a fused kernel computes directly into (its buffer is the kernel's
/// output: no intermediate result and no copy), or null. Only when the kernel's rows are one
/// head's queries and it reads the kernel's output as the op's result, that result's one use
/// (another reader would recompute the kernel).
const Pointwise *fusedInto(const LoweredFunction &lf, const OpStages &st,
                           const FusedAttentionStage &f) {
  if (!f.rowsAreQueries || !st.op || lf.spec->uses(st.op->result) != 1)
    return nullptr;
  for (const Pointwise &pw : lf.resultStages)
    if (pw.from.defined() && pw.from.name() == f.out.name())
      return &pw;
  return nullptr;
}

} // namespace

void scheduleCpu(LoweredFunction &lf, const CpuParams &defaults, ScheduleLog &log) {
  std::vector<const Pointwise *> computedByKernels;
  for (const OpStages &st : lf.ops) {
    CpuParams p = st.op ? paramsFor(defaults, st.op->schedule) : defaults;
    for (const Contraction &c : st.contractions)
      scheduleContraction(c, st, p, log);
    for (const Pointwise &pw : st.pointwise)
      schedulePointwise(pw, opName(st), p, log, TailStrategy::RoundUp);
    for (const SoftmaxStage &s : st.softmaxes)
      scheduleSoftmax(s, st, p, log);
    for (const FusedAttentionStage &f : st.fused) {
      FusedRoot root = resRoot(f);
      if (const Pointwise *into = fusedInto(lf, st, f)) {
        root = {into->f, into->vars[0], into->vars[1], {into->vars.begin() + 2, into->vars.end()}};
        computedByKernels.push_back(into);
      }
      scheduleFusedAttentionCpu(f, root, f.schedule, defaults, opName(st), log);
    }
  }
  for (const Pointwise &pw : lf.resultStages)
    if (std::find(computedByKernels.begin(), computedByKernels.end(), &pw) ==
        computedByKernels.end())
      schedulePointwise(pw, "output", defaults, log, TailStrategy::GuardWithIf);
  addTransposedStoresPass(lf.pipeline);
}

} // namespace attn::schedule
