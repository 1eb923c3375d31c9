//===- AttnShapes.h - the shape rules of the attn ops -----------*- C++ -*-===//
//
// The one place where the attn shape rules live. Verifiers, passes and the lowering ask these
// helpers instead of re-deriving sizes from operand types. A size is an int64_t that may be
// mlir::ShapedType::kDynamic.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_DIALECT_ATTN_IR_ATTNSHAPES_H
#define ATTN_DIALECT_ATTN_IR_ATTNSHAPES_H

#include "attn/Kernel/KernelSpec.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include <string>

namespace attn {

class MultiHeadOp;

/// True when two sizes may be equal: both static and equal, or either dynamic.
bool sizesAgree(int64_t a, int64_t b);

/// A size in the kernel description's terms (kernel::kDynamic for MLIR's dynamic size).
inline int64_t kernelSize(int64_t size) {
  return mlir::ShapedType::isDynamic(size) ? kernel::kDynamic : size;
}

/// A size as text: the number, or `?` when dynamic.
std::string sizeStr(int64_t size);

/// A shape as text, `[2, ?, 64]`.
std::string shapeStr(llvm::ArrayRef<int64_t> shape);

/// The leading batch dimensions of a `[..., T, D]` tensor (everything but the last two).
llvm::ArrayRef<int64_t> batchDims(mlir::RankedTensorType type);

/// Sequence (second to last) and feature (last) sizes of a `[..., T, D]` tensor.
inline int64_t seqSize(mlir::RankedTensorType type) { return type.getDimSize(type.getRank() - 2); }
inline int64_t featureSize(mlir::RankedTensorType type) {
  return type.getDimSize(type.getRank() - 1);
}

/// The sizes an attention computation runs over, read from q `[..., Tq, Dq]`, k `[..., Tk, Dk]`
/// and, when present, v `[..., Tk, Dv]`.
struct AttentionSizes {
  llvm::SmallVector<int64_t> batch; // the query's batch dims
  int64_t tq, tk, dq, dk, dv;       // dv is kDynamic when there is no value tensor
};
AttentionSizes getAttentionSizes(mlir::RankedTensorType q, mlir::RankedTensorType k,
                                 mlir::RankedTensorType v = nullptr);

/// Result shapes, from operand shapes.
llvm::SmallVector<int64_t> scoreResultShape(const AttentionSizes &s);     // [..., Tq, Tk]
llvm::SmallVector<int64_t> attentionResultShape(const AttentionSizes &s); // [..., Tq, Dv]

/// Multi-head sizes, derived from the projection weights (kDynamic where unknown).
struct MultiHeadSizes {
  int64_t batch, tq, tk, e, ekv, eout;
  int64_t heads, kvHeads, dk, dv;
};
MultiHeadSizes getMultiHeadSizes(MultiHeadOp op);

} // namespace attn

#endif // ATTN_DIALECT_ATTN_IR_ATTNSHAPES_H
