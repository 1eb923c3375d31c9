//===- Npy.cpp - NumPy .npy files -----------------------------------------===//

#include "attn/Runtime/Npy.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace attn {

using kernel::ElemType;

const char *npyDtypeName(ElemType t) {
  switch (t) {
  case ElemType::F32:
  case ElemType::BF16: return "float32";
  case ElemType::F16: return "float16";
  case ElemType::I32: return "int32";
  case ElemType::Bool: return "bool";
  }
  return "?";
}

namespace {

/// The dtype descr numpy writes for our element types (bf16 travels as float32).
const char *descrOf(ElemType t) {
  switch (t) {
  case ElemType::F32:
  case ElemType::BF16: return "<f4";
  case ElemType::F16: return "<f2";
  case ElemType::I32: return "<i4";
  case ElemType::Bool: return "|b1";
  }
  return "";
}

/// A readable name for a numpy descr we do not support.
std::string describeDescr(const std::string &d) {
  static const std::pair<const char *, const char *> names[] = {{"<f8", "float64"},
                                                                {"<i8", "int64"},
                                                                {"<i2", "int16"},
                                                                {"|i1", "int8"},
                                                                {"|u1", "uint8"},
                                                                {"<u4", "uint32"},
                                                                {"<u8", "uint64"},
                                                                {">f4", "big-endian float32"},
                                                                {">f8", "big-endian float64"}};
  for (auto &[descr, name] : names)
    if (d == descr)
      return name;
  return "dtype '" + d + "'";
}

/// Finds `'key':` in a header dict and returns the position just after the colon, or npos.
size_t findKey(const std::string &header, const std::string &key) {
  size_t p = header.find("'" + key + "'");
  if (p == std::string::npos)
    return p;
  p = header.find(':', p);
  return p == std::string::npos ? p : p + 1;
}

void skipSpace(const std::string &s, size_t &p) {
  while (p < s.size() && (s[p] == ' ' || s[p] == '\t'))
    ++p;
}

bool parseHeader(const std::string &header, std::string &descr, bool &fortran,
                 std::vector<int64_t> &shape, std::string &problem) {
  size_t p = findKey(header, "descr");
  if (p == std::string::npos) {
    problem = "its header has no 'descr'";
    return false;
  }
  skipSpace(header, p);
  if (p >= header.size() || (header[p] != '\'' && header[p] != '"')) {
    problem = "its 'descr' is not a simple dtype string (structured arrays are not supported)";
    return false;
  }
  char quote = header[p];
  size_t end = header.find(quote, p + 1);
  if (end == std::string::npos) {
    problem = "its header is malformed";
    return false;
  }
  descr = header.substr(p + 1, end - p - 1);

  p = findKey(header, "fortran_order");
  if (p == std::string::npos) {
    problem = "its header has no 'fortran_order'";
    return false;
  }
  skipSpace(header, p);
  if (header.compare(p, 4, "True") == 0)
    fortran = true;
  else if (header.compare(p, 5, "False") == 0)
    fortran = false;
  else {
    problem = "its 'fortran_order' is neither True nor False";
    return false;
  }

  p = findKey(header, "shape");
  if (p == std::string::npos) {
    problem = "its header has no 'shape'";
    return false;
  }
  skipSpace(header, p);
  if (p >= header.size() || header[p] != '(') {
    problem = "its 'shape' is not a tuple";
    return false;
  }
  ++p;
  shape.clear();
  while (true) {
    skipSpace(header, p);
    if (p < header.size() && header[p] == ')')
      break;
    if (p >= header.size() || !std::isdigit(static_cast<unsigned char>(header[p]))) {
      problem = "its 'shape' holds something other than non-negative integers";
      return false;
    }
    int64_t v = 0;
    while (p < header.size() && std::isdigit(static_cast<unsigned char>(header[p]))) {
      if (v > (INT64_C(1) << 40)) {
        problem = "its 'shape' holds a dimension too large to address";
        return false;
      }
      v = v * 10 + (header[p++] - '0');
    }
    shape.push_back(v);
    skipSpace(header, p);
    if (p < header.size() && header[p] == ',')
      ++p;
  }
  return true;
}

} // namespace

bool readNpy(const std::string &path, HostTensor &out, std::string &error, uint64_t maxBytes,
             bool *overBudget) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open '" + path + "': " + std::strerror(errno);
    return false;
  }
  return readNpy(in, path, out, error, maxBytes, overBudget);
}

bool readNpy(std::istream &in, const std::string &path, HostTensor &out, std::string &error,
             uint64_t maxBytes, bool *overBudget) {
  // The bytes the stream holds, so that a header that declares more data than there is is refused
  // before anything is allocated.
  in.seekg(0, std::ios::end);
  std::streamoff streamSize = in.tellg();
  in.seekg(0, std::ios::beg);
  if (streamSize < 0 || !in) {
    error = "cannot read '" + path + "': it is not a regular file";
    return false;
  }
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, "\x93NUMPY", 6) != 0) {
    error = "'" + path + "' is not a .npy file (no \\x93NUMPY magic)";
    return false;
  }
  int major = static_cast<unsigned char>(magic[6]);
  uint32_t headerLen = 0;
  if (major == 1) {
    unsigned char b[2];
    if (!in.read(reinterpret_cast<char *>(b), 2)) {
      error = "'" + path + "' is truncated in its header";
      return false;
    }
    headerLen = b[0] | (b[1] << 8);
  } else if (major == 2 || major == 3) {
    unsigned char b[4];
    if (!in.read(reinterpret_cast<char *>(b), 4)) {
      error = "'" + path + "' is truncated in its header";
      return false;
    }
    headerLen = b[0] | (b[1] << 8) | (b[2] << 16) | (static_cast<uint32_t>(b[3]) << 24);
  } else {
    error = "'" + path + "' has .npy format version " + std::to_string(major) +
            ", this reader knows 1 to 3";
    return false;
  }
  if (headerLen > (1u << 20)) {
    error = "'" + path + "' claims a " + std::to_string(headerLen) + "-byte header";
    return false;
  }
  std::string header(headerLen, '\0');
  if (!in.read(header.data(), headerLen)) {
    error = "'" + path + "' is truncated in its header";
    return false;
  }
  std::string descr, problem;
  bool fortran = false;
  std::vector<int64_t> shape;
  if (!parseHeader(header, descr, fortran, shape, problem)) {
    error = "'" + path + "' is not a valid .npy file: " + problem;
    return false;
  }
  ElemType elem;
  if (descr == "<f4")
    elem = ElemType::F32;
  else if (descr == "<f2")
    elem = ElemType::F16;
  else if (descr == "<i4")
    elem = ElemType::I32;
  else if (descr == "|b1")
    elem = ElemType::Bool;
  else {
    error = "'" + path + "' holds " + describeDescr(descr) +
            " data; supported: float32, float16, int32, bool";
    return false;
  }
  if (fortran) {
    error = "'" + path + "' is in Fortran order; save it in C order (numpy.ascontiguousarray)";
    return false;
  }
  // Size in bytes, refusing overflow and anything past the budget before allocating. The product
  // of the non-zero dims must fit in int64 (HostTensor::numElements multiplies in int64, in any
  // order), even when a zero dim makes the tensor empty.
  uint64_t nonZero = 1;
  bool empty = false;
  for (int64_t d : shape) {
    if (d == 0) {
      empty = true;
      continue;
    }
    if (nonZero > static_cast<uint64_t>(INT64_MAX) / static_cast<uint64_t>(d)) {
      error = "'" + path + "' declares more elements than can be addressed";
      return false;
    }
    nonZero *= static_cast<uint64_t>(d);
  }
  uint64_t count = empty ? 0 : nonZero;
  uint64_t elemBytes = kernel::elemTypeBytes(elem);
  if (count > UINT64_MAX / elemBytes) {
    error = "'" + path + "' declares more elements than can be addressed";
    return false;
  }
  uint64_t bytes = count * elemBytes;
  if (bytes > maxBytes) {
    error = "'" + path + "' holds " + std::to_string(bytes) + " bytes of data, more than the " +
            std::to_string(maxBytes) + " bytes allowed";
    if (overBudget)
      *overBudget = true;
    return false;
  }
  HostTensor t;
  t.elem = elem;
  t.shape = shape;
  uint64_t available = static_cast<uint64_t>(streamSize - in.tellg());
  if (bytes > available) {
    error = "'" + path + "' is truncated: shape " + t.shapeStr() + " of " + npyDtypeName(elem) +
            " needs " + std::to_string(bytes) + " bytes of data, the file has " +
            std::to_string(available);
    return false;
  }
  t.data.resize(bytes);
  if (bytes &&
      !in.read(reinterpret_cast<char *>(t.data.data()), static_cast<std::streamsize>(bytes))) {
    error = "'" + path + "' could not be read: " + std::strerror(errno);
    return false;
  }
  out = std::move(t);
  return true;
}

bool writeNpy(const std::string &path, const HostTensor &t, std::string &error) {
  HostTensor f32; // bf16 travels as float32
  const HostTensor *src = &t;
  if (t.elem == ElemType::BF16) {
    f32 = HostTensor(ElemType::F32, t.shape);
    for (int64_t i = 0; i < t.numElements(); ++i)
      f32.set(i, t.get(i));
    src = &f32;
  }
  std::ostringstream dict;
  dict << "{'descr': '" << descrOf(src->elem)
       << "', 'fortran_order': False, 'shape': " << src->shapeStr() << ", }";
  std::string header = dict.str();
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string bytes = "\x93NUMPY";
  bytes += '\x01';
  bytes += '\x00';
  bytes += static_cast<char>(header.size() & 0xff);
  bytes += static_cast<char>((header.size() >> 8) & 0xff);
  bytes += header;
  bytes.append(reinterpret_cast<const char *>(src->data.data()), src->data.size());
  return writeFileAtomically(path, bytes, error);
}

} // namespace attn
