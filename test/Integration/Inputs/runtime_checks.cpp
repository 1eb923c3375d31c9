// Calls emitted kernels with buffers whose shapes disagree; each call must fail with Halide's error
// code and a message naming the problem, never read out of bounds.
#include "out/HalideBuffer.h"
#include "out/dyn_attention.h"
#include "out/static_decode.h"
#include "out/static_softmax.h"
#include <cstdio>
using Halide::Runtime::Buffer;
// Halide's default error handler prints the message and aborts; a program that wants the error code
// installs its own.
static void printError(void *, const char *msg) { std::fprintf(stderr, "kernel error: %s\n", msg); }
int main() {
  halide_set_error_handler(printError);
  // Dq = 8 but Dk = 6: a dot score needs Dq == Dk.
  Buffer<float> q(8, 5, 2), k(6, 7, 2), v(4, 7, 2), o(4, 5, 2);
  std::printf("Dq != Dk: %d\n", dyn_attention(q, k, v, o));
  // Tk of k (7) and v (9) disagree.
  Buffer<float> k2(8, 7, 2), v2(4, 9, 2);
  std::printf("Tk mismatch: %d\n", dyn_attention(q, k2, v2, o));
  // The result buffer has the wrong shape.
  Buffer<float> o2(4, 3, 2);
  std::printf("result shape: %d\n", dyn_attention(q, k2, v, o2));
  // A static dimension disagrees with the type.
  Buffer<float> s(7, 4), p(7, 4);
  std::printf("static dim: %d\n", static_softmax(s, p));
  // A decode kernel specialized on V's declared value dim (V read in place) still reports a
  // smaller V by its requirement, not by a bounds check or the specialization's failure.
  Buffer<float> dq(16, 1, 1), dk(16, 32, 1), dv(8, 32, 1), dout(16, 1, 1);
  std::printf("static decode Dv: %d\n", static_decode(dq, dk, dv, dout));
  // An empty tensor (Tk = 0) with a host pointer: kernels need non-empty tensors (Halide's bounds
  // check says so first: the kernel reads the first key).
  float slot[1];
  Buffer<float> k0(slot, 8, 0, 2), v0(slot, 4, 0, 2);
  std::printf("empty Tk: %d\n", dyn_attention(q, k0, v0, o));
  // A null host pointer is Halide's bounds query: the kernel computes nothing, writes the shapes it
  // needs into the null-host buffers' dims and returns 0 (README, "Calling an emitted kernel").
  Buffer<float> qn(nullptr, 8, 5, 2);
  o.fill(-1.0f);
  std::printf("null host (bounds query): %d, result untouched: %.1f\n", dyn_attention(qn, k2, v, o),
              o(0, 0, 0));
  // Halide's own checks of the buffers, with their codes (README, "Calling an emitted kernel").
  Buffer<int32_t> qi(8, 5, 2);
  std::printf("element type: %d\n", dyn_attention(qi, k2, v, o));
  Buffer<float> q2(8, 5);
  std::printf("rank: %d\n", dyn_attention(q2, k2, v, o));
  Buffer<float> qm(8, 5, 2);
  qm.set_min(1, 0, 0);
  std::printf("min not 0: %d\n", dyn_attention(qm, k2, v, o));
  std::printf("null buffer: %d\n", dyn_attention(nullptr, k2, v, o));
  // And a good call.
  Buffer<float> s8(8, 4), p8(8, 4);
  s8.fill(1.0f);
  int good = static_softmax(s8, p8);
  std::printf("good: %d %.3f\n", good, p8(0, 0));
}
