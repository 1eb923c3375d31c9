//===- Npy.h - NumPy .npy files ---------------------------------*- C++ -*-===//
//
// The format numpy, PyTorch and JAX users already have (numpy.lib.format, versions 1.0-3.0).
// Supported dtypes: float32 ('<f4'), float16 ('<f2'), int32 ('<i4'), bool ('|b1'); C order only.
// Writing goes to a temporary file in the same directory, renamed into place once complete: a
// failed or interrupted run leaves either the old file or none, never a partial one.
//
//===----------------------------------------------------------------------===//

#ifndef ATTN_RUNTIME_NPY_H
#define ATTN_RUNTIME_NPY_H

#include "attn/Runtime/AtomicFile.h"
#include "attn/Runtime/HostTensor.h"

#include <istream>
#include <string>

namespace attn {

/// The numpy dtype name of an element type: float32, float16, int32, bool (bf16 is stored as
/// float32).
const char *npyDtypeName(kernel::ElemType t);

/// Reads a .npy file. On failure returns false with a message naming the file and the problem.
/// Files whose data is larger than `maxBytes` are refused before it is read (`overBudget` says so).
bool readNpy(const std::string &path, HostTensor &out, std::string &error,
             uint64_t maxBytes = UINT64_MAX, bool *overBudget = nullptr);

/// Reads a .npy file's bytes from a seekable stream; `name` labels the messages.
bool readNpy(std::istream &in, const std::string &name, HostTensor &out, std::string &error,
             uint64_t maxBytes = UINT64_MAX, bool *overBudget = nullptr);

/// Writes a .npy file atomically (temporary file + rename). bf16 tensors are written as float32.
bool writeNpy(const std::string &path, const HostTensor &t, std::string &error);

} // namespace attn

#endif // ATTN_RUNTIME_NPY_H
