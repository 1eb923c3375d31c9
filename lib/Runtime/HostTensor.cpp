//===- HostTensor.cpp - a dense tensor in host memory ---------------------===//

#include "attn/Runtime/HostTensor.h"

#include <cmath>
#include <cstring>

namespace attn {

using kernel::ElemType;

HostTensor::HostTensor(ElemType elem, std::vector<int64_t> shape)
    : elem(elem), shape(std::move(shape)) {
  data.assign(static_cast<size_t>(numElements()) * kernel::elemTypeBytes(elem), 0);
}

int64_t HostTensor::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string HostTensor::shapeStr() const {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

float halfToFloat(uint16_t h) {
  uint32_t sign = (h >> 15) & 1u, exp = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  float v;
  if (exp == 0)
    v = std::ldexp(static_cast<float>(mant), -24); // zero and subnormals
  else if (exp == 31)
    v = mant ? NAN : INFINITY;
  else
    v = std::ldexp(static_cast<float>(mant | 0x400u), static_cast<int>(exp) - 25);
  return sign ? -v : v;
}

uint16_t floatToHalf(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  if (std::isnan(f))
    return sign | 0x7e00u;
  float a = std::fabs(f);
  if (a >= 65520.0f) // rounds to infinity
    return sign | 0x7c00u;
  if (a < std::ldexp(1.0f, -14)) { // subnormal half: a multiple of 2^-24, rounded to nearest even
    float q = std::nearbyint(std::ldexp(a, 24));
    return sign | static_cast<uint16_t>(q);
  }
  int e;
  float m = std::frexp(a, &e);                 // a = m * 2^e, m in [0.5, 1)
  float q = std::nearbyint(std::ldexp(m, 11)); // 11 significant bits, nearest even
  if (q == 2048.0f) {
    q = 1024.0f;
    ++e;
  }
  uint32_t exp = static_cast<uint32_t>(e - 1 + 15), mant = static_cast<uint32_t>(q) - 1024u;
  if (exp >= 31)
    return sign | 0x7c00u;
  return sign | static_cast<uint16_t>((exp << 10) | mant);
}

float bf16ToFloat(uint16_t b) {
  uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

uint16_t floatToBf16(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if (std::isnan(f))
    return static_cast<uint16_t>((bits >> 16) | 0x40u);
  bits += 0x7fffu + ((bits >> 16) & 1u); // round to nearest even
  return static_cast<uint16_t>(bits >> 16);
}

double HostTensor::get(int64_t i) const {
  const uint8_t *p = data.data() + i * kernel::elemTypeBytes(elem);
  switch (elem) {
  case ElemType::F32: {
    float v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case ElemType::I32: {
    int32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
  case ElemType::F16:
  case ElemType::BF16: {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return elem == ElemType::F16 ? halfToFloat(v) : bf16ToFloat(v);
  }
  case ElemType::Bool: return *p ? 1.0 : 0.0;
  }
  return 0;
}

void HostTensor::set(int64_t i, double value) {
  uint8_t *p = data.data() + i * kernel::elemTypeBytes(elem);
  switch (elem) {
  case ElemType::F32: {
    float v = static_cast<float>(value);
    std::memcpy(p, &v, 4);
    return;
  }
  case ElemType::I32: {
    int32_t v = static_cast<int32_t>(value);
    std::memcpy(p, &v, 4);
    return;
  }
  case ElemType::F16:
  case ElemType::BF16: {
    float f = static_cast<float>(value);
    uint16_t v = elem == ElemType::F16 ? floatToHalf(f) : floatToBf16(f);
    std::memcpy(p, &v, 2);
    return;
  }
  case ElemType::Bool: *p = value != 0; return;
  }
}

} // namespace attn
