//===- HostTensor.h - a dense tensor in host memory -------------*- C++ -*-===//
//
// Row-major (C order) data of one element type. The tools read and write these as .npy files and
// hand them to kernels as halide_buffer_t (dimension 0 = the innermost, see Backend/BufferView.h).
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_RUNTIME_HOSTTENSOR_H
#define ATTN_RUNTIME_HOSTTENSOR_H

#include "attn/Kernel/KernelSpec.h"
#include "attn/Runtime/AlignedVector.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn {

struct HostTensor {
  kernel::ElemType elem = kernel::ElemType::F32;
  std::vector<int64_t> shape;
  AlignedVector<uint8_t> data;

  HostTensor() = default;
  HostTensor(kernel::ElemType elem, std::vector<int64_t> shape);

  int64_t numElements() const;
  /// The element at a row-major flat index, widened to double (f16/bf16 decoded exactly).
  double get(int64_t flat) const;
  /// Stores a value, rounded to nearest-even into the element type (bool: non-zero is true).
  void set(int64_t flat, double value);
  std::string shapeStr() const; // (3, 8)
};

/// The tensors' addresses, in order: the form JitKernel::run takes its inputs in.
inline std::vector<const HostTensor *> pointersTo(const std::vector<HostTensor> &tensors) {
  std::vector<const HostTensor *> p;
  for (const HostTensor &t : tensors)
    p.push_back(&t);
  return p;
}

/// Half-precision conversions (IEEE binary16 and bfloat16), round to nearest even.
float halfToFloat(uint16_t h);
uint16_t floatToHalf(float f);
float bf16ToFloat(uint16_t b);
uint16_t floatToBf16(float f);

} // namespace attn

#endif // ATTN_RUNTIME_HOSTTENSOR_H
