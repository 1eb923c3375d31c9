/* two_pools.c - kernel A and kernel B each with a scratch pool of its own, for bench/ab/run.sh
 * --link: how much the rule of which kept block a thread gets back
 * (lib/CodeGen/Halide/Backend/KernelRuntime/pool_blocks.h) is worth, measured side by side in one
 * program.
 *
 *   bench/ab/run.sh --link=bench/ab/two_pools.c --threads=2 --cpus=0,1 G.mlir
 *
 * A's pool hands out the smallest kept block that fits, the oldest of equal ones, whichever thread
 * gave it back (attn's pools before 2026-12-06); B's follows pool_blocks.h (a block the asking
 * thread gave back first). With POOL_CONTROL=1 in the environment both follow A's rule: the
 * control, which shows what two pools of equal rules read (their blocks are different memory). Both
 * keep up to 64 blocks of scratch_pool.c's layout (pool_blocks.h) and give the system any block
 * beyond them. */
#define _POSIX_C_SOURCE 200112L /* posix_memalign under -std=c11 */

#include "HalideRuntime.h"
#include "pool_blocks.h"

#include <pthread.h>
#include <stdlib.h>

enum { kSlots = 64 };

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct attn_kept_block kept[2][kSlots]; /* per side, oldest first */
static int keptCount[2];
static int side;                      /* the kernel being called: 0 = A, 1 = B */
static _Thread_local char thisThread; /* its address names the thread */

void ab_before_call(char which) { side = which == 'B'; }

void *halide_malloc(void *user_context, size_t bytes) {
  (void)user_context;
  static int control = -1;
  if (control < 0)
    control = getenv("POOL_CONTROL") != NULL;
  void *p = NULL;
  pthread_mutex_lock(&lock);
  struct attn_kept_block *blocks = kept[side];
  /* A null owner matches no block: the smallest fit, the oldest of equal ones. */
  const void *owner = side == 1 && !control ? &thisThread : NULL;
  int i = attn_pick_block(blocks, keptCount[side], bytes, owner);
  if (i >= 0)
    p = attn_unkeep_block(blocks, &keptCount[side], i);
  pthread_mutex_unlock(&lock);
  return p ? p : attn_fresh_block(bytes);
}

void halide_free(void *user_context, void *p) {
  (void)user_context;
  if (!p)
    return;
  pthread_mutex_lock(&lock);
  if (keptCount[side] < kSlots) {
    struct attn_kept_block *b = &kept[side][keptCount[side]++];
    b->p = p;
    b->bytes = attn_block_header_of(p)->bytes;
    b->owner = &thisThread;
    p = NULL;
  }
  pthread_mutex_unlock(&lock);
  if (p)
    attn_free_block(p);
}
