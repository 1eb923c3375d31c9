/* pool_blocks.h - the blocks of attn's scratch pools: how a block handed to Halide is laid out
 * (scratch_pool.c, written into attn_runtime.a, and bench/ab/two_pools.c, which measures it), and
 * which kept block a pool hands out, the one rule both of attn's pools follow (scratch_pool.c and
 * the JIT's BufferPool in Jit.cpp). Plain C, header only: scratch_pool.c is compiled on its own
 * with fixed flags. Define _POSIX_C_SOURCE 200112L before including it (posix_memalign under
 * -std=c11).
 *
 * A kept block serves a request of its size up to 1/8 + 4 KiB smaller (a kernel asks for the same
 * sizes call after call; a much larger block would keep memory from the requests it fits better).
 * Among the blocks that fit, one that the asking thread gave back comes first, then the smallest.
 * Why the thread: a kernel's task writes its scratch (staged K and V, the tile's scores) as soon as
 * it gets it, and a block last written on the other core has its lines in that core's cache, so
 * each write first fetches its line across. Handed out regardless of the thread (the smallest fit,
 * the oldest of equal ones), the blocks of 8 parallel heads went from core to core call after call.
 * Side by side in one program (bench/ab/run.sh --link=bench/ab/two_pools.c, 2 threads, Zen 5,
 * B = 1 H = 8 D = 64, three runs each), this rule against the one before read 0.95-0.97 at S = 512,
 * 0.95-0.99 at 2048 and 0.95-0.97 at 4096, where two pools of the old rule (the control) read
 * 0.98-1.01 (at 1024 both read 0.97-0.99); on one thread 1.003 and 1.006
 * (docs/benchmarks-history.md, 2026-12-06). */
#ifndef ATTN_POOL_BLOCKS_H
#define ATTN_POOL_BLOCKS_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* Halide's vector loads want a block aligned to the widest vector (64 bytes on AVX-512), and may
 * read a little before its start and past its end: 128 bytes of slack on each side, the block's
 * header in the slack before. */
enum { attn_block_align = 128 };

struct attn_block_header {
  void *base; /* what posix_memalign returned: what free takes */
  size_t bytes;
};

static inline struct attn_block_header *attn_block_header_of(void *p) {
  return (struct attn_block_header *)p - 1;
}

/* A new block of `bytes` from the system, or NULL. */
static inline void *attn_fresh_block(size_t bytes) {
  void *base;
  if (bytes > SIZE_MAX - 2 * attn_block_align)
    return NULL;
  if (posix_memalign(&base, attn_block_align, bytes + 2 * attn_block_align) != 0)
    return NULL;
  char *p = (char *)base + attn_block_align;
  attn_block_header_of(p)->base = base;
  attn_block_header_of(p)->bytes = bytes;
  return p;
}

/* Gives a block back to the system. */
static inline void attn_free_block(void *p) { free(attn_block_header_of(p)->base); }

struct attn_kept_block {
  void *p;
  size_t bytes;
  const void *owner; /* the thread that gave it back (the address of a thread-local variable) */
};

/* Whether a kept block of `have` bytes may serve a request of `want`. */
static inline int attn_block_fits(size_t have, size_t want) {
  return have >= want && have - want <= want / 8 + 4096;
}

/* The index of the block to hand out for `want` bytes to the thread `owner`, or -1 if none fits. */
static inline int attn_pick_block(const struct attn_kept_block *blocks, int n, size_t want,
                                  const void *owner) {
  int best = -1;
  for (int i = 0; i < n; ++i) {
    if (!attn_block_fits(blocks[i].bytes, want))
      continue;
    if (best < 0) {
      best = i;
      continue;
    }
    int mine = blocks[i].owner == owner, bestMine = blocks[best].owner == owner;
    if (mine > bestMine || (mine == bestMine && blocks[i].bytes < blocks[best].bytes))
      best = i;
  }
  return best;
}

/* Removes kept block i from the n in `blocks` (the order of the others kept) and returns it. */
static inline void *attn_unkeep_block(struct attn_kept_block *blocks, int *n, int i) {
  void *p = blocks[i].p;
  for (int j = i + 1; j < *n; ++j)
    blocks[j - 1] = blocks[j];
  --*n;
  return p;
}

#endif /* ATTN_POOL_BLOCKS_H */
