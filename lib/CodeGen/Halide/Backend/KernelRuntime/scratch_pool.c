/* scratch_pool.c - the allocator attn_runtime.a gives AOT kernels (attn_runtime.h says why).
 *
 * Compiled at attn's build time for the host (x86-64 Linux), with fixed flags (never a sanitizer's:
 * it is linked into users' programs), embedded in attn-compile and written into attn_runtime.a
 * ahead of Halide's runtime, so that the linker takes these strong definitions of halide_malloc and
 * halide_free, and Halide's weak ones give way. Plain C and libc only: a C program links it.
 */
#define _POSIX_C_SOURCE 200112L /* posix_memalign under -std=c11 */

#include "attn_runtime.h"
#include "pool_blocks.h"

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

typedef void *(*halide_malloc_t)(void *, size_t);
typedef void (*halide_free_t)(void *, void *);

/* The blocks' layout and which kept block is reused: pool_blocks.h. */
enum { kSlots = 64 };
#define kMaxCachedBytes ((size_t)1 << 30)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct attn_kept_block cache[kSlots]; /* oldest first */
static int cached;
static _Thread_local char thisThread; /* its address names the thread (attn_kept_block.owner) */
static size_t cachedBytes;
static halide_malloc_t customMalloc;
static halide_free_t customFree;

/* Removes cache entry i (the caller holds the lock). */
static void *takeSlot(int i) {
  cachedBytes -= cache[i].bytes;
  return attn_unkeep_block(cache, &cached, i);
}

void *halide_malloc(void *user_context, size_t bytes) {
  if (customMalloc)
    return customMalloc(user_context, bytes);
  void *p = NULL;
  pthread_mutex_lock(&lock);
  int best = attn_pick_block(cache, cached, bytes, &thisThread);
  if (best >= 0)
    p = takeSlot(best);
  pthread_mutex_unlock(&lock);
  return p ? p : attn_fresh_block(bytes);
}

void halide_free(void *user_context, void *p) {
  if (customFree) {
    customFree(user_context, p);
    return;
  }
  if (!p)
    return;
  size_t bytes = attn_block_header_of(p)->bytes;
  void *evicted[kSlots];
  int nEvicted = 0;
  pthread_mutex_lock(&lock);
  if (bytes <= kMaxCachedBytes) {
    while (cached > 0 && (cached == kSlots || cachedBytes + bytes > kMaxCachedBytes))
      evicted[nEvicted++] = takeSlot(0);
    cache[cached].p = p;
    cache[cached].bytes = bytes;
    cache[cached].owner = &thisThread;
    ++cached;
    cachedBytes += bytes;
    p = NULL;
  }
  pthread_mutex_unlock(&lock);
  for (int i = 0; i < nEvicted; ++i)
    attn_free_block(evicted[i]);
  if (p)
    attn_free_block(p);
}

void attn_release_scratch(void) {
  void *all[kSlots];
  int n = 0;
  pthread_mutex_lock(&lock);
  while (cached > 0)
    all[n++] = takeSlot(0);
  pthread_mutex_unlock(&lock);
  for (int i = 0; i < n; ++i)
    attn_free_block(all[i]);
}

/* Halide 14's CUDA runtime compiles a kernel's PTX with at most 64 registers per thread unless
 * HL_CUDA_JIT_MAX_REGISTERS says otherwise (its cuModuleLoadDataEx option); attn's fused GPU
 * kernels take 80-140 and spilled at 64 (attn_runtime.h). When the program starts, the cap is
 * lifted (255, the hardware's limit) unless the environment sets one. */
__attribute__((constructor)) static void uncapCudaRegisters(void) {
  setenv("HL_CUDA_JIT_MAX_REGISTERS", "255", /*overwrite=*/0);
}

/* At exit, so that leak checkers see every block given back. */
__attribute__((destructor)) static void releaseAtExit(void) { attn_release_scratch(); }

/* Halide's way to install another allocator, kept working: while one is installed, halide_malloc
 * and halide_free call it (NULL goes back to this pool). Each returns the allocator it replaces;
 * in place of this pool, which has no callable of that type, Halide's default (malloc and free), so
 * that a caller that chains to the previous allocator calls something valid. */
extern void *halide_default_malloc(void *user_context, size_t bytes);
extern void halide_default_free(void *user_context, void *p);

halide_malloc_t halide_set_custom_malloc(halide_malloc_t user_malloc) {
  halide_malloc_t previous = customMalloc;
  customMalloc = user_malloc;
  return previous ? previous : halide_default_malloc;
}

halide_free_t halide_set_custom_free(halide_free_t user_free) {
  halide_free_t previous = customFree;
  customFree = user_free;
  return previous ? previous : halide_default_free;
}
