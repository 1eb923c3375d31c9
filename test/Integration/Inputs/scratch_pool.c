/* Calls an AOT kernel repeatedly and counts the fresh blocks attn_runtime.a's scratch pool takes
 * from the system (posix_memalign, wrapped at link time: -Wl,--wrap=posix_memalign); first prints
 * the CUDA register cap the pool's object sets when the program starts. Plain C: the pool links
 * into a C program. With -DOWN_ALLOCATOR the program defines halide_malloc and halide_free itself,
 * which must take precedence over the archive's. */
#include "out/HalideRuntime.h"
#include "out/attn_runtime.h"
#include "out/pooled.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { B = 1, H = 2, S = 1024, D = 64, N = B * H * S * D };

static int fresh; /* posix_memalign calls */
int __real_posix_memalign(void **p, size_t align, size_t bytes);
int __wrap_posix_memalign(void **p, size_t align, size_t bytes) {
  ++fresh;
  return __real_posix_memalign(p, align, bytes);
}

static int userCalls; /* calls of the program's own allocator */
#ifdef OWN_ALLOCATOR
void *halide_malloc(void *uc, size_t bytes) {
  (void)uc;
  ++userCalls;
  void *p;
  return __real_posix_memalign(&p, 128, bytes) ? NULL : p;
}
void halide_free(void *uc, void *p) {
  (void)uc;
  free(p);
}
#else
static void *countingMalloc(void *uc, size_t bytes) {
  (void)uc;
  ++userCalls;
  void *p;
  return __real_posix_memalign(&p, 128, bytes) ? NULL : p;
}
static void countingFree(void *uc, void *p) {
  (void)uc;
  free(p);
}
#endif

#ifndef OWN_ALLOCATOR
/* Which kept block a thread gets back (pool_blocks.h): the main thread and a second one each take a
 * block of one size, main gives its block back first, then the other thread gives back its own and
 * asks again. Both fit; the pool must hand it its own, not the older one main gave back. */
enum { kBlock = 3 << 20 };
static pthread_mutex_t turnLock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t turnChanged = PTHREAD_COND_INITIALIZER;
static int turn; /* 0: the other thread takes its block; 1: main gives its block back; 2: the other
                    thread's rest */
static void waitTurn(int t) {
  pthread_mutex_lock(&turnLock);
  while (turn != t)
    pthread_cond_wait(&turnChanged, &turnLock);
  pthread_mutex_unlock(&turnLock);
}
static void passTurn(int t) {
  pthread_mutex_lock(&turnLock);
  turn = t;
  pthread_cond_broadcast(&turnChanged);
  pthread_mutex_unlock(&turnLock);
}
static void *otherThread(void *result) {
  void *mine = halide_malloc(NULL, kBlock);
  passTurn(1);
  waitTurn(2);
  halide_free(NULL, mine);
  void *again = halide_malloc(NULL, kBlock);
  *(int *)result = mine != NULL && again == mine;
  halide_free(NULL, again);
  return NULL;
}
static const char *ownBlockFirst(void) {
  attn_release_scratch();
  int own = 0;
  void *mainBlock = halide_malloc(NULL, kBlock);
  pthread_t other;
  if (!mainBlock || pthread_create(&other, NULL, otherThread, &own) != 0)
    return "not run";
  waitTurn(1);
  halide_free(NULL, mainBlock);
  passTurn(2);
  pthread_join(other, NULL);
  attn_release_scratch();
  return own ? "its own" : "another thread's";
}
#endif

/* A dense [B, H, S, D] buffer (Halide's dims innermost first). */
static void makeBuffer(halide_buffer_t *b, halide_dimension_t *dims, float *data) {
  int extents[4] = {D, S, H, B}, stride = 1;
  for (int i = 0; i < 4; ++i) {
    dims[i].min = 0, dims[i].extent = extents[i], dims[i].stride = stride, dims[i].flags = 0;
    stride *= extents[i];
  }
  memset(b, 0, sizeof *b);
  b->host = (uint8_t *)data;
  b->type.code = halide_type_float, b->type.bits = 32, b->type.lanes = 1;
  b->dimensions = 4;
  b->dim = dims;
}

int main(void) {
  static float q[N], k[N], v[N], o[N], first[N];
  /* The pool's object also lifts Halide's CUDA register cap when the program starts. */
  const char *regs = getenv("HL_CUDA_JIT_MAX_REGISTERS");
  printf("HL_CUDA_JIT_MAX_REGISTERS: %s\n", regs ? regs : "unset");
  for (int i = 0; i < N; ++i)
    q[i] = (float)((i * 7919) % 2003) / 2003.0f - 0.5f,
    k[i] = (float)((i * 104729) % 1999) / 1999.0f - 0.5f,
    v[i] = (float)((i * 15485863) % 2011) / 2011.0f - 0.5f;
  halide_dimension_t dq[4], dk[4], dv[4], dout[4];
  halide_buffer_t bq, bk, bv, bo;
  makeBuffer(&bq, dq, q), makeBuffer(&bk, dk, k), makeBuffer(&bv, dv, v), makeBuffer(&bo, dout, o);

  if (pooled(&bq, &bk, &bv, &bo) != 0)
    return 1;
  memcpy(first, o, sizeof o);
  int afterFirst = fresh, same = 1;
  for (int r = 0; r < 4; ++r) {
    memset(o, 0, sizeof o);
    if (pooled(&bq, &bk, &bv, &bo) != 0)
      return 1;
    same = same && memcmp(o, first, sizeof o) == 0;
  }
#ifdef OWN_ALLOCATOR
  printf("own allocator: %s, pool blocks %d, results identical: %s\n",
         userCalls > 0 ? "used" : "unused", fresh, same ? "yes" : "no");
  return 0;
#else
  printf("first call: %s fresh blocks; next 4 calls: %d fresh blocks; results identical: %s\n",
         afterFirst > 0 ? "some" : "no", fresh - afterFirst, same ? "yes" : "no");

  /* An allocator installed with halide_set_custom_malloc/free is used instead of the pool. */
  halide_set_custom_malloc(countingMalloc);
  halide_set_custom_free(countingFree);
  int before = fresh;
  memset(o, 0, sizeof o);
  int rc = pooled(&bq, &bk, &bv, &bo);
  printf("custom allocator: %s, pool blocks %d, result identical: %s\n",
         userCalls > 0 ? "used" : "unused", fresh - before,
         rc == 0 && memcmp(o, first, sizeof o) == 0 ? "yes" : "no");

  /* Back to the pool (NULL), which still holds its blocks; then they are given back. */
  halide_set_custom_malloc(NULL);
  halide_set_custom_free(NULL);
  before = fresh;
  rc = pooled(&bq, &bk, &bv, &bo);
  printf("pool again: %d fresh blocks\n", fresh - before);
  attn_release_scratch();
  before = fresh;
  rc = rc || pooled(&bq, &bk, &bv, &bo);
  printf("after attn_release_scratch: %s fresh blocks, rc %d\n", fresh - before > 0 ? "some" : "no",
         rc);
  printf("a thread asking again gets: %s block\n", ownBlockFirst());
  return rc;
#endif
}
