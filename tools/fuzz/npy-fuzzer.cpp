//===- npy-fuzzer.cpp - libFuzzer target: the .npy reader -----------------===//
//
// Arbitrary bytes as a .npy file: the reader must accept them or explain why not, never crash,
// read out of bounds or allocate more than the data it was given (the budget is 64 MiB here, and a
// header that declares more data than the file holds is refused before allocating).
//
//===----------------------------------------------------------------------===//

#include "attn/Runtime/Npy.h"

#include <cstdint>
#include <cstdlib>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::istringstream in(std::string(reinterpret_cast<const char *>(data), size));
  attn::HostTensor t;
  std::string error;
  if (!attn::readNpy(in, "fuzz.npy", t, error, 64u << 20)) {
    if (error.empty())
      std::abort(); // every refusal says why
    return 0;
  }
  // An accepted tensor's shape and data agree, and every element can be read.
  if (static_cast<uint64_t>(t.numElements()) * attn::kernel::elemTypeBytes(t.elem) != t.data.size())
    std::abort();
  double sum = 0;
  for (int64_t e = 0; e < t.numElements(); ++e)
    sum += t.get(e);
  (void)sum;
  return 0;
}
