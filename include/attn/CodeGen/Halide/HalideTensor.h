//===- HalideTensor.h - tensors as Halide Funcs -----------------*- C++ -*-===//
//
// THE dimension-order rule, in one place: tensor dimension d of a rank-n row-major tensor
// (`tensor<B x T x D>`, outermost first, as MLIR and numpy write it) is Halide dimension n-1-d, so
// a halide_buffer_t's dimension 0 is the innermost, unit-stride D. Algorithm code indexes tensors
// in tensor order through HTensor::at(); nobody else reverses indices.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_LIB_CONVERSION_ATTNTOHALIDE_HALIDETENSOR_H
#define ATTN_LIB_CONVERSION_ATTNTOHALIDE_HALIDETENSOR_H

#include "attn/Kernel/KernelSpec.h"

#include "Halide.h"

#include <algorithm>
#include <string>
#include <vector>

namespace attn::lowering {

/// Halide dimension of tensor dimension `tensorDim` of a rank-`rank` tensor.
inline int halideDim(int rank, int tensorDim) { return rank - 1 - tensorDim; }

/// Reorders tensor-order (outermost first) arguments into Halide order (innermost first).
template <class T> std::vector<T> toHalideOrder(std::vector<T> tensorOrder) {
  std::reverse(tensorOrder.begin(), tensorOrder.end());
  return tensorOrder;
}

/// The Halide type that stores an element type in buffers.
Halide::Type halideType(kernel::ElemType t);

/// A tensor value inside a pipeline. Float tensors are computed in f32 whatever their declared type
/// (kernels accumulate in f32; only arguments and results have the declared element type).
struct HTensor {
  Halide::Func func;                 // Halide-order dimensions
  std::vector<Halide::Expr> extents; // tensor order
  kernel::ElemType elem = kernel::ElemType::F32;
  /// Sizes known at compile time (tensor order, kernel::kDynamic where not), from the MLIR types;
  /// empty when unknown. Schedules use them to pick register blocks that divide the sizes.
  std::vector<int64_t> staticShape;
  int64_t staticExtent(int d) const {
    if (staticShape.empty())
      return kernel::kDynamic;
    return staticShape[d < 0 ? d + static_cast<int>(staticShape.size()) : d];
  }

  int rank() const { return static_cast<int>(extents.size()); }
  /// Extent of tensor dim d; negative d counts from the end.
  Halide::Expr extent(int d) const { return extents[d < 0 ? d + rank() : d]; }
  /// The size the type declares as a constant, else extent(d). A kernel's requirements check the
  /// declared sizes before it runs, so index arithmetic may fold them in; clamps of reads against
  /// a buffer stay with its own extent (Halide can then prove a vector's reads need no clamp).
  Halide::Expr declaredExtent(int d) const {
    int64_t size = staticExtent(d);
    return size != kernel::kDynamic ? Halide::Expr(static_cast<int>(size)) : extent(d);
  }
  /// The element at tensor-order indices.
  Halide::Expr at(const std::vector<Halide::Expr> &idx) const { return func(toHalideOrder(idx)); }
};

/// `n` fresh Vars named prefix0.. in tensor order.
std::vector<Halide::Var> makeVars(int n, const std::string &prefix);
std::vector<Halide::Expr> asExprs(const std::vector<Halide::Var> &vars);
/// f at tensor-order Vars (for definitions: `def(f, vars) = ...`).
inline Halide::FuncRef def(Halide::Func &f, const std::vector<Halide::Var> &tensorVars) {
  return f(toHalideOrder(tensorVars));
}
/// Concatenation helper for index lists.
std::vector<Halide::Expr> concat(std::vector<Halide::Expr> a, const std::vector<Halide::Expr> &b);

} // namespace attn::lowering

#endif // ATTN_LIB_CONVERSION_ATTNTOHALIDE_HALIDETENSOR_H
