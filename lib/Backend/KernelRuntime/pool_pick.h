/* pool_pick.h - which kept block a scratch pool hands out: the one rule both of attn's pools follow
 * (the AOT kernels' scratch_pool.c, written into attn_runtime.a, and the JIT's BufferPool in
 * Jit.cpp). Plain C, header only: scratch_pool.c is compiled on its own with fixed flags.
 *
 * A kept block serves a request of its size up to 1/8 + 4 KiB smaller (a kernel asks for the same
 * sizes call after call; a much larger block would keep memory from the requests it fits better).
 * Among the blocks that fit, one that the asking thread gave back comes first, then the smallest.
 * Why the thread: a kernel's task writes its scratch (staged K and V, the tile's scores) as soon as it
 * gets it, and a block last written on the other core has its lines in that core's cache, so each
 * write first fetches its line across. Handed out regardless of the thread (the smallest fit, the
 * oldest of equal ones), the blocks of 8 parallel heads went from core to core call after call.
 * Side by side in one program (bench/ab/run.sh --link=bench/ab/two_pools.c, 2 threads, Zen 5,
 * B = 1 H = 8 D = 64, three runs each), this rule against the one before read 0.95-0.97 at S = 512,
 * 0.95-0.99 at 2048 and 0.95-0.97 at 4096, where two pools of the old rule (the control) read
 * 0.98-1.01 (at 1024 both read 0.97-0.99); on one thread 1.003 and 1.006 (BENCHMARKS.md, 2026-12-06). */
#ifndef ATTN_POOL_PICK_H
#define ATTN_POOL_PICK_H

#include <stddef.h>

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

#endif /* ATTN_POOL_PICK_H */
