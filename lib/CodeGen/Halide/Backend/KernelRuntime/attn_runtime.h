/* attn_runtime.h - what attn_runtime.a adds to the Halide runtime (written by attn-compile).
 *
 * The kernels allocate their scratch (staged K and V, per-task tiles) through halide_malloc on
 * every call. attn_runtime.a defines halide_malloc and halide_free as a pool that keeps freed
 * blocks for the next call, so a program that calls kernels repeatedly does not hand that memory
 * back to the system and fault it in again each time (glibc's malloc does, for blocks of 128 KiB
 * and more: an S = 512 kernel ran 3.3x slower in a loop for it). Blocks are reused for requests of
 * their size up to 1/8 + 4 KiB smaller, a block the asking thread gave back before any other (its
 * lines are in that thread's core's cache, not the other's); at most 64 blocks and 1 GiB are kept,
 * the oldest given back first.
 *
 * To use your own allocator, define halide_malloc and halide_free in your program (an object file's
 * definitions take precedence over the archive's), or install it with halide_set_custom_malloc and
 * halide_set_custom_free, which this pool honours.
 *
 * CUDA kernels: Halide 14's CUDA runtime compiles a kernel's PTX with at most 64 registers per
 * thread unless the environment variable HL_CUDA_JIT_MAX_REGISTERS says otherwise. attn's fused GPU
 * kernels take 80-140 registers; at 64 they spill to local memory (1.06-1.3x slower on an H200).
 * The pool's object sets HL_CUDA_JIT_MAX_REGISTERS=255 when the program starts, unless the
 * environment already sets it. A program that defines its own halide_malloc and halide_free does
 * not link that object: set the variable yourself before the first kernel call.
 */
#ifndef ATTN_RUNTIME_H
#define ATTN_RUNTIME_H

#ifdef __cplusplus
extern "C" {
#endif

/* Gives every block the pool keeps back to the system (blocks in use by a running kernel are not
 * touched). Safe to call at any time, from any thread. */
void attn_release_scratch(void);

#ifdef __cplusplus
}
#endif

#endif /* ATTN_RUNTIME_H */
