//===- Limits.cpp - a given schedule as a CPU runs it ---------------------===//
//
// A schedule an op carries already (written by hand, or by the tuner) is checked against what the
// target has, and rewritten to what its kernel does where the kernel's shape rules (CPU.h) change
// it, so that the IR --attn-select-schedule prints is the kernel that runs.
//
//===----------------------------------------------------------------------===//

#include "attn/CodeGen/Halide/Schedule/CPU.h"

#include <algorithm>

namespace attn::schedule::cpu {

using kernel::ScheduleSpec;
using kernel::TargetTraits;

namespace {

std::string str(int64_t v) { return std::to_string(v); }

/// The accumulators a register block may hold: kMaxRegisterFiles register files.
int64_t maxAccumulators(const TargetTraits &t) { return kMaxRegisterFiles * t.registers; }

/// Why `s` is beyond the target's registers and vectors, naming the parameter and the values that
/// work; empty when it is not.
std::string limitsProblem(const ScheduleSpec &s, const OpShape &op, const TargetTraits &t,
                          int64_t lanes) {
  const int64_t maxVector = kMaxVectorRegisters * t.lanes;
  if (s.vector > maxVector)
    return "schedule parameter 'vector' = " + str(s.vector) +
           " is beyond this target: its vector registers hold " + str(t.lanes) +
           " f32 lanes and a kernel's vector spans at most " + str(kMaxVectorRegisters) +
           " of them (vector <= " + str(maxVector) + ")";
  const int64_t accumulators = s.regQ * std::max<int64_t>(s.regV, 1);
  if (accumulators > maxAccumulators(t))
    return "schedule parameters 'reg_q' = " + str(s.regQ) + " x 'reg_v' = " + str(s.regV) +
           " make a register block of " + str(accumulators) +
           " accumulator vectors; this target has " + str(t.registers) +
           " vector registers (reg_q x reg_v <= " + str(maxAccumulators(t)) + ")";
  if (!op.attention || s.tileQ < lanes)
    return "";
  const int64_t rows = tileRows(s.tileQ, lanes);
  if (rows > kMaxTileVectors * lanes)
    return "schedule parameter 'tile_q' = " + str(s.tileQ) +
           " is beyond this target: a tile holds at most " + str(kMaxTileVectors) + " vectors of " +
           str(lanes) + " rows (tile_q <= " + str(kMaxTileVectors * lanes) + ")";
  const int64_t blockVectors = scoreBlockRows(rows, lanes) / lanes;
  if (blockVectors * s.regK > maxAccumulators(t))
    return "schedule parameter 'reg_k' = " + str(s.regK) + " with tiles of " + str(rows) +
           " rows makes a Q.K^T register block of " + str(blockVectors * s.regK) +
           " accumulator vectors (" + str(blockVectors) + " vectors of rows x " + str(s.regK) +
           " keys); this target has " + str(t.registers) +
           " vector registers (reg_k <= " + str(maxAccumulators(t) / blockVectors) +
           " for these tiles)";
  return "";
}

/// What the fused kernel makes of `h.runs`: the tile in whole vectors of rows, a key block no
/// larger than the keys, a P.V block no taller than the tile; each change recorded with why.
void applyFusedRewrites(HonouredSchedule &h, const OpShape &op, int64_t lanes) {
  ScheduleSpec &s = h.runs;
  auto rewrite = [&](const char *name, int64_t ScheduleSpec::*field, int64_t to, std::string why) {
    h.rewrites.push_back({name, s.*field, to, std::move(why)});
    s.*field = to;
  };
  const int64_t rows = tileRows(s.tileQ, lanes);
  if (s.tileQ > 0 && rows != s.tileQ)
    rewrite("tile_q", &ScheduleSpec::tileQ, rows,
            "a tile of more rows than a vector holds is whole vectors of " + str(lanes) + " rows");
  const int64_t keys = blockKeys(s.blockK, op.tk);
  if (s.blockK > 0 && keys != s.blockK)
    rewrite("block_k", &ScheduleSpec::blockK, keys,
            "one block covers the " + str(op.tk) + " keys, rounded up to 16");
  if (s.tileQ > 0 && s.regQ > rows)
    rewrite("reg_q", &ScheduleSpec::regQ, rows, "a P.V register block has at most the tile's rows");
}

} // namespace

HonouredSchedule honour(const ScheduleSpec &given, const OpShape &op, const TargetTraits &t) {
  HonouredSchedule h;
  h.runs = given;
  const int64_t lanes = given.vector > 0 ? given.vector : t.lanes;
  h.error = limitsProblem(given, op, t, lanes);
  if (!h.error.empty() || !op.attention)
    return h;
  applyFusedRewrites(h, op, lanes);
  return h;
}

} // namespace attn::schedule::cpu
