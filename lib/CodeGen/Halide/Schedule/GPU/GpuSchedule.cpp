//===- GpuSchedule.cpp - the GPU schedules of the per-op stages -----------===//
//
// One schedule for Halide's GPU API, used by the CUDA and the OpenCL targets alike. Every op result
// is computed at root as its own kernel (the fused kernels come from the fused attention op):
//   - contractions: 2-D thread blocks over (contiguous dim, rows); each thread owns reg_q rows of
//     one column and keeps their accumulators in registers while the reduction runs;
//   - pointwise stages: 2-D thread blocks over their two innermost dims;
//   - softmax: the row max and row sum are kernels of one thread per row, the normalization a 2-D
//     kernel (each thread recomputes its exp).
// Batch dims are fused into one block dim. Tails are guarded (GuardWithIf): reads past the edges
// are clamped by the algorithm, but stores must not run past a buffer.
//
//===----------------------------------------------------------------------===//

#include "attn/CodeGen/Halide/Schedule.h"

#include <sstream>

using namespace Halide;
using namespace attn::lowering;

namespace attn::schedule {

namespace {

std::string opName(const OpStages &st) { return st.op ? st.op->describe() : std::string("result"); }

/// Maps a stage's pure Vars (innermost first) onto the GPU: threads over a tx x ty tile of the two
/// innermost, blocks over the tiles and over the remaining Vars fused into one. A Func without Vars
/// runs on one GPU thread.
void gpuTiles(Stage s, const std::vector<Var> &vars, int tx, int ty, const std::string &prefix) {
  if (vars.empty()) {
    s.gpu_single_thread();
    return;
  }
  Var xo(prefix + "_gxo"), xi(prefix + "_gxi");
  if (vars.size() == 1) {
    s.gpu_tile(vars[0], xo, xi, tx * ty, TailStrategy::GuardWithIf);
    return;
  }
  Var yo(prefix + "_gyo"), yi(prefix + "_gyi");
  s.gpu_tile(vars[0], vars[1], xo, yo, xi, yi, tx, ty, TailStrategy::GuardWithIf);
  if (vars.size() > 2) {
    Var outer = vars[2];
    for (size_t i = 3; i < vars.size(); ++i) {
      Var fused(prefix + "_gb" + std::to_string(i));
      s.fuse(outer, vars[i], fused);
      outer = fused;
    }
    s.gpu_blocks(outer);
  }
}

/// compute_root + gpuTiles on the pure definition and on every update (same Vars).
void gpuRoot(Func f, const std::vector<Var> &vars, int tx, int ty) {
  f.compute_root();
  gpuTiles(f, vars, tx, ty, f.name());
  for (int u = 0; u < f.num_update_definitions(); ++u)
    gpuTiles(f.update(u), vars, tx, ty, f.name() + "_u" + std::to_string(u));
}

void scheduleContraction(Contraction c, const OpStages &st, const GpuParams &p, ScheduleLog &log) {
  Func out = c.out, acc = c.acc;
  out.compute_root();
  // Threads over (x, rows of reg_q): the register block is reg_q rows of one column.
  Var yo(out.name() + "_gyo"), yr(out.name() + "_gyr");
  out.split(c.y, yo, yr, p.regRows, TailStrategy::GuardWithIf);
  std::vector<Var> vars = {c.x, yo};
  vars.insert(vars.end(), c.outer.begin(), c.outer.end());
  gpuTiles(out, vars, p.threadsX, p.threadsY, out.name());
  out.unroll(yr);
  Var threadX(out.name() + "_gxi");
  acc.compute_at(out, threadX).bound_extent(c.y, p.regRows).unroll(c.y);
  acc.update().reorder(c.y, c.x, c.r.x).unroll(c.y);
  std::ostringstream msg;
  msg << out.name() << " [" << opName(st) << ", " << c.label << "]: GPU kernel; thread blocks of "
      << p.threadsX << " x " << p.threadsY << ", each thread " << p.regRows
      << " rows of one column in registers, reduction serial";
  log.add(msg.str());
}

void schedulePointwise(const Pointwise &pw, const std::string &owner, const GpuParams &p,
                       ScheduleLog &log) {
  gpuRoot(pw.f, pw.vars, p.threadsX, p.threadsY);
  log.add(pw.f.name() + " [" + owner + ", " + pw.label + "]: GPU kernel; thread blocks of " +
          std::to_string(p.threadsX) + " x " + std::to_string(p.threadsY));
}

void scheduleSoftmax(SoftmaxStage s, const OpStages &st, const GpuParams &p, ScheduleLog &log) {
  // The max and the sum: one thread per row (their Vars are the row's), reduction serial.
  int rowThreads = p.threadsX * p.threadsY;
  for (Func f : {s.mx, s.sum})
    gpuRoot(f, f.args(), rowThreads, 1);
  gpuRoot(s.out, s.vars, p.threadsX, p.threadsY);
  log.add(s.out.name() + " [" + opName(st) +
          ", softmax]: GPU kernels; row max and row sum one thread per row, the normalization in "
          "thread blocks of " +
          std::to_string(p.threadsX) + " x " + std::to_string(p.threadsY));
}

} // namespace

GpuParams defaultGpuParams(const Target &) { return GpuParams(); }

void scheduleGpu(LoweredFunction &lf, const GpuParams &defaults, ScheduleLog &log) {
  for (const OpStages &st : lf.ops) {
    for (const Contraction &c : st.contractions)
      scheduleContraction(c, st, defaults, log);
    for (const Pointwise &pw : st.pointwise)
      schedulePointwise(pw, opName(st), defaults, log);
    for (const SoftmaxStage &s : st.softmaxes)
      scheduleSoftmax(s, st, defaults, log);
    for (const FusedAttentionStage &f : st.fused)
      scheduleFusedAttentionGpu(f, f.schedule, defaults, opName(st), log);
  }
  for (const Pointwise &pw : lf.resultStages)
    schedulePointwise(pw, "output", defaults, log);
}

} // namespace attn::schedule
