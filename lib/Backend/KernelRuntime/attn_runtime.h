/* attn_runtime.h - what attn_runtime.a adds to the Halide runtime (written by attn-compile).
 *
 * The kernels allocate their scratch (staged K and V, per-task tiles) through halide_malloc on every
 * call. attn_runtime.a defines halide_malloc and halide_free as a pool that keeps freed blocks for
 * the next call, so a program that calls kernels repeatedly does not hand that memory back to the
 * system and fault it in again each time (glibc's malloc does, for blocks of 128 KiB and more: an
 * S = 512 kernel ran 3.3x slower in a loop for it). Blocks are reused for requests of their size up
 * to 1/8 + 4 KiB smaller; at most 64 blocks and 1 GiB are kept, the oldest given back first.
 *
 * To use your own allocator, define halide_malloc and halide_free in your program (an object file's
 * definitions take precedence over the archive's), or install it with halide_set_custom_malloc and
 * halide_set_custom_free, which this pool honours.
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
