/* gk/histogram.h: histograms of integer samples on the GPU.
 *
 *     counts[v] = the number of i in [0, n) with in[i] == v,  v in [0, bins)
 *
 * The module is a ladder of variants, numbered in teaching order, from one
 * global atomic per sample (1) through privatized, coarsened, aggregated and
 * replicated sub-histograms (2-6) to a tuned rung (7: 16-byte loads and a
 * strategy chosen by the number of bins), the fastest at every size the
 * module's bench measured and what gk_histogram_best_variant() returns.
 * Every variant is one file in histogram/kernels/ and one row of the
 * module's table (histogram/variants.c), whose read-only description
 * gk_histogram_variant_at() shows; the API, the tests, the bench and the
 * docs all read it. histogram/README.md walks up the ladder with measured
 * numbers.
 *
 * Calling convention (the same for every variant):
 *   - Samples: GK_U8 (uint8_t: bytes, images, text; bins <= 256) or GK_U32
 *     (uint32_t), from gk/dtype.h. Value v is counted in bin v; values >= bins
 *     are not counted.
 *   - bins from 1 to GK_HISTOGRAM_MAX_BINS (2^24). Every variant takes every
 *     bins: where a variant's sub-histograms no longer fit in shared memory
 *     it falls back to another strategy, which its kernel file names.
 *   - counts[0..bins) is overwritten, not accumulated into, with 64-bit
 *     counts that never wrap, whatever n. n is any size_t; n = 0 gives all
 *     zeros. `in` may start at any element boundary (any byte for GK_U8);
 *     `counts` must be 8-byte aligned. Both are device pointers.
 *   - Scratch memory by two-phase query, as in CUB: with workspace == NULL
 *     the call stores the bytes it needs in *workspace_bytes (never 0, a
 *     whole number of 256-byte granules, depending only on the variant, n,
 *     bins and dtype, never on the GPU) and does nothing else. Then call again
 *     with a 16-byte-aligned workspace of at least that size (cudaMalloc's
 *     are) and *workspace_bytes saying how large it is. It needs no
 *     initialisation. Nothing is allocated inside a call.
 *   - Work is queued on `stream` (the last argument); the call does not wait.
 *   - Threads: any call may be made from several host threads at once, on
 *     different streams or devices, with nothing shared between them: no
 *     call keeps state, and the one launch setting a call makes (a kernel's
 *     shared-memory opt-in, cudaFuncAttributeMaxDynamicSharedMemorySize) is
 *     always set to the device's maximum, never to a value that depends on
 *     the call. Calls running at the same time must not share their counts
 *     or their workspace: each needs its own.
 *   - Bad arguments (NULL pointers, bins = 0 or above the maximum, bins > 256
 *     for GK_U8, a dtype other than GK_U8 and GK_U32, a workspace too small
 *     or misaligned, a misaligned pointer, an unknown variant) give a status
 *     with a message; nothing is launched and nothing is written, not even
 *     *workspace_bytes.
 *   - Exact and deterministic: the counts are integers, so every variant gives
 *     the same counts as the CPU, bit for bit, on every run.
 */
#ifndef GK_HISTOGRAM_H
#define GK_HISTOGRAM_H

#include <stddef.h>
#include <stdint.h>

#include <cuda_runtime_api.h>

#include "gk/dtype.h"
#include "gk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The most bins any variant takes: 2^24 (128 MiB of 64-bit counts). */
#define GK_HISTOGRAM_MAX_BINS ((size_t)1 << 24)

/* A read-only description of one variant (one row of the table). */
typedef struct gk_histogram_variant {
    int id;           /* 1, 2, ... in teaching order; also the bench's id */
    const char *name; /* the kernel file's name without its number        */
    const char *idea; /* one line: what this step changes                 */
} gk_histogram_variant;

size_t gk_histogram_variant_count(void);
const gk_histogram_variant *gk_histogram_variant_at(size_t index); /* NULL when out of range */
const gk_histogram_variant *gk_histogram_find_variant(int id);     /* NULL when unknown      */
int gk_histogram_best_variant(void);                               /* the last rung          */

/* counts[0..bins) = the histogram of in[0..n). See above. */
gk_status gk_histogram(int variant, gk_dtype dtype, const void *in, size_t n, size_t bins, uint64_t *counts,
                       void *workspace, size_t *workspace_bytes, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* GK_HISTOGRAM_H */
