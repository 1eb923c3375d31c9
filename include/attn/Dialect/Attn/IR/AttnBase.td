//===- AttnBase.td - the attn dialect and its enums ---------*- tablegen -*-===//
//
// The `attn` dialect: the textbook attention family as ops over ranked tensors.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_BASE_TD
#define ATTN_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/AttrTypeBase.td"

def Attn_Dialect : Dialect {
  let name = "attn";
  let cppNamespace = "::attn";
  let summary = "Attention operators: score, mask, softmax, weighted_sum, attention, multi_head";
  let description = [{
    Tensors are ranked, with static or dynamic (`?`) dimensions. Float operands are f32, f16 or bf16,
    one element type per op; kernels accumulate in f32. Layout: zero or more leading batch dimensions
    (batch, heads, ...), then the sequence dimension, then the feature dimension. With `q: [..., Tq, Dq]`,
    `k: [..., Tk, Dk]`, `v: [..., Tk, Dv]`, scores and weights are `[..., Tq, Tk]`.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasOperationAttrVerify = 1; // attn.target on a module
}

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

// J&M eq. 13.x: Jurafsky and Martin, Speech and Language Processing (3rd ed. draft), chapter 13.
def Attn_ScoreKind : I32EnumAttr<"ScoreKind", "how a query and a key are scored", [
    I32EnumAttrCase<"dot", 0>,         // q . k                          (J&M eq. 13.35)
    I32EnumAttrCase<"scaled_dot", 1>,  // scale * (q . k)
    I32EnumAttrCase<"bilinear", 2>,    // q^T W k                        (J&M eq. 13.38)
    I32EnumAttrCase<"additive", 3>     // v_a^T tanh(W_a [q ; k])        (Bahdanau)
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::attn";
}
// Printed bare (`attn.score dot ...`); an EnumAttr's default `<...>` form prints a double space.
def Attn_ScoreKindAttr : EnumAttr<Attn_Dialect, Attn_ScoreKind, "score_kind"> {
  let assemblyFormat = "$value";
}

def Attn_DiagonalAlign : I32EnumAttr<"DiagonalAlign",
    "the corner the mask diagonal starts from when Tq != Tk", [
    I32EnumAttrCase<"top_left", 0>,      // query i's diagonal key is i
    I32EnumAttrCase<"bottom_right", 1>   // query i's diagonal key is i + Tk - Tq
  ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::attn";
}
def Attn_DiagonalAlignAttr : EnumAttr<Attn_Dialect, Attn_DiagonalAlign, "align"> {
  let assemblyFormat = "$value";
}

//===----------------------------------------------------------------------===//
// #attn.schedule: how an op's kernel runs, as data
//===----------------------------------------------------------------------===//

def Attn_ScheduleAttr : AttrDef<Attn_Dialect, "Schedule"> {
  let mnemonic = "schedule";
  let summary = "the schedule of an op's kernel: tiles, register blocks, vector width, parallelism";
  let description = [{
    Every parameter is optional (0 or absent: the schedule's default for the target). Filled by
    `--attn-select-schedule` (heuristics), by the autotuner, or written by hand; the lowering reads it.

    The same parameters describe CPU and GPU schedules (GPU: for the fused kernel; the other ops'
    GPU kernels take their thread blocks from the schedule library).

    | parameter | meaning on a CPU | on a GPU (fused attention) |
    |---|---|---|
    | `tile_q` | query rows per tile (fused attention) or per parallel task (other ops) | query rows per thread block |
    | `block_k` | keys per block of the fused attention's online softmax (at most a static key count rounded up to 16: a larger block is one block of the keys) | keys per shared-memory K/V tile |
    | `vector` | f32 lanes per vector | - |
    | `reg_q` | rows of a register block (P.V in the fused kernel; every matmul-shaped stage otherwise) | rows of each thread's register blocks |
    | `reg_k` | keys (or columns) of a register block (Q.K^T in the fused kernel) | keys of each thread's Q.K^T block |
    | `reg_v` | vectors along the value dim of a P.V register block | value columns of each thread's P.V block |
    | `chunk_k` | keys per chunk of the P.V loop (keeps a V chunk in L1 across row blocks) | - |
    | `split_k` | 1: key blocks run in parallel and merge their softmax states (decode) | same: a thread block per key block |
    | `group_q` | query tiles that take each key block in turn (prefill; 1 or 0: one tile at a time), so that a block of K and V read from memory serves that many tiles from L2 | - |
    | `parallel` | `heads` (a task per (batch, kv head)) or `tiles` (a task per query tile) | - (thread blocks per tile and head) |
    | `scheduler` | `hand` (attn's schedules) or a Halide autoscheduler: `adams2019`, `mullapudi2016`, `li2018` |
    | `source` | who chose it: `heuristic`, `tuned`, `manual` (informational) |

    ```mlir
    %o = attn.attention scaled_dot %q, %k, %v {schedule = #attn.schedule<tile_q = 32, block_k = 1024,
           vector = 16, reg_q = 4, reg_k = 12, reg_v = 4, chunk_k = 128, parallel = "heads", source = "heuristic">} : ...
    ```
  }];
  let parameters = (ins
    DefaultValuedParameter<"int64_t", "0">:$tile_q,
    DefaultValuedParameter<"int64_t", "0">:$block_k,
    DefaultValuedParameter<"int64_t", "0">:$vector,
    DefaultValuedParameter<"int64_t", "0">:$reg_q,
    DefaultValuedParameter<"int64_t", "0">:$reg_k,
    DefaultValuedParameter<"int64_t", "0">:$reg_v,
    DefaultValuedParameter<"int64_t", "0">:$chunk_k,
    DefaultValuedParameter<"int64_t", "0">:$split_k,
    DefaultValuedParameter<"int64_t", "0">:$group_q,
    StringRefParameter<"parallel dims", "\"\"">:$parallel,
    StringRefParameter<"scheduler", "\"\"">:$scheduler,
    StringRefParameter<"origin", "\"\"">:$source
  );
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let builders = [AttrBuilder<(ins "const ::attn::kernel::ScheduleSpec &":$spec)>];
  let extraClassDeclaration = [{
    /// The schedule in the kernel description's terms (kernel/KernelSpec.h).
    ::attn::kernel::ScheduleSpec toSpec() const;
  }];
}

//===----------------------------------------------------------------------===//
// #attn.target: the machine a module's kernels are compiled for
//===----------------------------------------------------------------------===//

def Attn_TargetAttr : AttrDef<Attn_Dialect, "Target"> {
  let mnemonic = "target";
  let summary = "the target a module's kernels are compiled for, as the schedules see it";
  let description = [{
    A module carries its target as the attribute `attn.target`, the way MLIR modules carry a data
    layout: `--attn-select-schedule` reads it to choose each op's `#attn.schedule`, so that the IR
    says for which machine its schedules were chosen. `--attn-attach-target` (and every kernel
    tool, from its `--target`) sets it from a Halide target string; it may be written by hand.

    | parameter | meaning |
    |---|---|
    | (first) | the Halide target string the kernels are compiled for |
    | `kind` | `cpu` (default) or `gpu`: the kernels run on a GPU (CUDA, OpenCL) |
    | `lanes` | f32 lanes of the CPU part's vectors (16 on AVX-512, 8 on AVX2, 4 on SSE and NEON) |
    | `registers` | vector registers of the CPU part (32 on AVX-512, else 16) |
    | `l2_kib` | per-core L2 of the machine the kernels run on, in KiB (0, the default: not known) |

    ```mlir
    module attributes {attn.target = #attn.target<"x86-64-linux-avx-avx2-f16c-fma-sse41",
                                                  lanes = 8, registers = 16>} { ... }
    ```
  }];
  let parameters = (ins
    StringRefParameter<"Halide target string">:$name,
    StringRefParameter<"cpu or gpu", "\"cpu\"">:$kind,
    "int64_t":$lanes,
    "int64_t":$registers,
    DefaultValuedParameter<"int64_t", "0">:$l2_kib
  );
  let assemblyFormat = "`<` $name `,` struct($kind, $lanes, $registers, $l2_kib) `>`";
  let genVerifyDecl = 1;
  let builders = [AttrBuilder<(ins "const ::attn::kernel::TargetTraits &":$traits)>];
  let extraClassDeclaration = [{
    ::attn::kernel::TargetTraits traits() const;
    /// The module attribute that holds it.
    static constexpr ::llvm::StringLiteral kAttrName = "attn.target";
  }];
}

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

def Attn_FloatTensor : RankedTensorOf<[F32, F16, BF16]>;
def Attn_KeyLengthsTensor : RankedTensorOf<[I32]>;
// i1: true keeps the entry; float: added to the score (a bias such as ALiBi).
def Attn_MaskTensor : RankedTensorOf<[I1, F32, F16, BF16]>;
def Attn_PositiveI64 : ConfinedAttr<I64Attr, [IntMinValue<1>]>;

#endif // ATTN_BASE_TD
