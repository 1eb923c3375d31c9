//===- AlignedVector.h - vectors on cache-line boundaries -------*- C++ -*-===//
//
// The data kernels read (attn-run's and attn-bench's tensors, the baselines' inputs and scratch).
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_RUNTIME_ALIGNEDVECTOR_H
#define ATTN_RUNTIME_ALIGNEDVECTOR_H

#include <cstddef>
#include <new>
#include <vector>

namespace attn {

/// Allocates on 64-byte (cache-line) boundaries. malloc's 16-byte alignment put a large tensor's
/// data 16 bytes into a page, so every 64-byte vector load of a row straddled two cache lines
/// (decode, which streams K and V, ran slower in attn-run than the same kernel reading a
/// Halide::Runtime::Buffer, which aligns to 128; docs/SCHEDULES.md, "Measurements behind the
/// code").
template <class T> struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::align_val_t kAlignment{64};
  CacheLineAllocator() = default;
  template <class U> CacheLineAllocator(const CacheLineAllocator<U> &) {}
  T *allocate(std::size_t n) { return static_cast<T *>(::operator new(n * sizeof(T), kAlignment)); }
  void deallocate(T *p, std::size_t) { ::operator delete(p, kAlignment); }
  template <class U> bool operator==(const CacheLineAllocator<U> &) const { return true; }
  template <class U> bool operator!=(const CacheLineAllocator<U> &) const { return false; }
};

template <class T> using AlignedVector = std::vector<T, CacheLineAllocator<T>>;

} // namespace attn

#endif // ATTN_RUNTIME_ALIGNEDVECTOR_H
