//===- Lowering.h - a kernel description to a Halide pipeline ---*- C++ -*-===//
//
// The Halide half of the lowering: builds the algorithm of one kernel (no schedule). Internal to
// the Halide-side libraries (it includes Halide.h); lib/CodeGen/Halide/Backend is its public face.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_LIB_CONVERSION_ATTNTOHALIDE_LOWERING_H
#define ATTN_LIB_CONVERSION_ATTNTOHALIDE_LOWERING_H

#include "attn/CodeGen/Halide/HalideTensor.h"
#include "attn/CodeGen/Halide/Stages.h"

#include "attn/Kernel/Segments.h"

#include <memory>

namespace attn::lowering {

/// What the lowering needs to know of the target. The algorithm is the same everywhere but for
/// three choices made here: the fused kernel's default blocking, whether its key-block loop skips
/// the blocks a mask leaves empty, and whether the sizes the types declare are constants to it. On
/// GPU targets neither: Halide 14 miscompiles the predicated key-block loop around the
/// shared-memory stages (wrong results on PoCL, measured), so GPU kernels visit every key block and
/// mask entry by entry; and with a constant key count that makes one key block, the loop over
/// blocks disappears and Halide puts a thread guard (threadIdx.x < Tk) around the stages that fill
/// the shared tiles together (wrong results on PoCL, Tk = 17).
struct LoweringOptions {
  bool gpu = false;
  int lanes = 16; // f32 lanes of the CPU target's vectors (its schedules' default vector width)
  /// The exps use AVX-512's vreduceps and vscalefps (TargetMath.h), where avx512::applies to the
  /// target. The module then needs TargetMath's bitcode (LoweredFunction::externalCode).
  bool avx512Math = false;
  /// Runs of the function's ops lowered as pipelines of their own (kernel/Segments.h), called here
  /// as extern stages: only the ops after the last are lowered into this pipeline.
  std::vector<kernel::Segment> segments;
  /// The argument that is the previous segment's value, in a segment's own pipeline: read clamped
  /// to the sizes its type declares (static), so that the extern stage's bounds query asks for the
  /// whole of it whatever query buffer it is handed. -1: none.
  int segmentInput = -1;
};

struct LoweredFunction {
  const kernel::FunctionSpec *spec = nullptr;
  std::vector<Halide::ImageParam> inputs; // one per argument, named arg0, arg1, ...
  std::vector<Halide::Func> outputs;   // one per result, named result0, ..., of the declared type
  std::vector<OpStages> ops;           // per op, in program order
  std::vector<Pointwise> resultStages; // the outputs' conversions to their declared types
  std::vector<HTensor> values;         // per value id
  Halide::Pipeline pipeline;
  /// Code every module compiled from `pipeline` must link (Module::append): TargetMath's bitcode.
  std::vector<Halide::ExternalCode> externalCode;
};

/// Builds the pipeline of `fn`: inputs, the algorithm of every op, outputs with bounds tied to the
/// inputs' extents, and run-time requirements for every shape rule (kernel/ShapeRules.h).
/// Throws Halide::CompileError (or Halide::Error) on failure.
std::unique_ptr<LoweredFunction> lowerFunction(const kernel::FunctionSpec &fn,
                                               const LoweringOptions &options = {});

/// The name of argument `i` / result `i` in the emitted kernel (and its C header).
std::string argumentName(int i);
std::string resultName(int i);

} // namespace attn::lowering

#endif // ATTN_LIB_CONVERSION_ATTNTOHALIDE_LOWERING_H
