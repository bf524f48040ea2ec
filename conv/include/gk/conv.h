/* gk/conv.h: 1D convolution of a float array with a mask on the GPU.
 *
 *     out[i] = sum_{j=0}^{width-1} in[i - r + j] * mask[j],   r = width / 2,
 *
 * for i in [0, n), with in[k] = 0 for k < 0 and k >= n ("ghost" cells). This
 * is the cross-correlation form (the mask is not flipped), as in chapter 7 of
 * "Programming Massively Parallel Processors": mask[r] multiplies in[i], and
 * r is the integer half (width 7: r = 3, three taps on each side; width 8:
 * r = 4, four taps before in[i] and three after it).
 *
 * The module is a ladder of variants, numbered in teaching order, from one
 * thread per output reading the mask from global memory (1), through the mask
 * in constant memory (2), tiling with halo cells (3, 4) and register tiling
 * (5), to two kernels built for the two ends of the roofline: streaming for
 * small masks, which are memory bound (6), and register blocking for large
 * ones, which are arithmetic bound (7). Every variant is one file in
 * conv/kernels/ and one row of the module's table (conv/variants.c), whose
 * read-only description gk_conv_variant_at() shows; the API, the tests, the
 * bench and the docs all read it. conv/README.md walks up the ladder.
 *
 * Calling convention (the same for every variant):
 *   - in, mask and out are DEVICE pointers to float; out has n elements, mask
 *     width. Each must be 4-byte aligned (a float's alignment); none needs
 *     16-byte alignment (in + 1 is fine). They may be NULL only when n = 0.
 *   - n is any size_t from 0 to GK_CONV_MAX_N (2^60), also smaller than the
 *     mask. n = 0 does nothing (after the argument checks) and succeeds.
 *   - width is any size_t from 1 to GK_CONV_MAX_N, odd or even, up to the
 *     variant's max_width: variants 2-5 take width <= GK_CONV_PARAM_MASK_MAX
 *     (4096) and return GK_ERROR_UNSUPPORTED, with a message, above it;
 *     variants 1, 6 and 7 take any width (max_width 0).
 *   - out must not overlap in or mask (checked on the byte ranges
 *     [in, in + n), [mask, mask + width) and [out, out + n)); in and mask
 *     may overlap each other (both are only read).
 *   - Accumulation in fp32. Each out[i] is within the rounding bound of a
 *     width-term dot product of the exact result (Higham: gamma_width times
 *     sum_j |in[i - r + j] mask[j]|); the order of the additions differs
 *     between variants, so their results may differ in the last bits.
 *   - Scratch memory by two-phase query, as in CUB: with workspace == NULL the
 *     call stores the bytes it needs in *workspace_bytes (never 0, a whole
 *     number of 256-byte granules, depending only on the variant, n and width,
 *     never on the GPU) and does nothing else; the query looks at nothing but
 *     the variant, n and width. Then call again with a 16-byte-aligned
 *     workspace of at least that size (cudaMalloc's are) and *workspace_bytes
 *     saying how large it is. It needs no initialisation. Nothing is
 *     allocated inside a call.
 *   - Work is queued on `stream` (the last argument). Variants 1, 6 and 7 do
 *     not wait for it. Variants 2-5 do (see "constant memory" below).
 *   - Any call may be made from several host threads at once, on different
 *     streams or devices, with nothing shared between them: the library
 *     keeps no global state of its own, and the only per-kernel settings
 *     it makes (variants 6 and 7: the limit of dynamic shared memory above
 *     48 KB and the shared-memory carveout) are set to values that do not
 *     depend on the call (the device's maximum, a constant). Concurrent
 *     calls must not share a workspace, and none may write an output that
 *     another reads or writes.
 *   - Bad arguments (an unknown variant, NULL workspace_bytes, width 0, n or
 *     width above GK_CONV_MAX_N, a width above the variant's max_width, NULL
 *     or misaligned pointers, out overlapping in or mask, a workspace too
 *     small or misaligned) give a status with a message; nothing is launched
 *     and nothing is written, not even *workspace_bytes.
 *
 * Constant memory without hidden global state (variants 2-5). The mask is
 * handed to the kernel BY VALUE, as a kernel parameter (a struct holding up
 * to GK_CONV_PARAM_MASK_MAX floats: 16 KiB of the 32764 bytes of parameters
 * CUDA 12.1 and later allow on sm_70 and newer). The driver places a launch's
 * parameters in the constant bank of that launch, so each call has its own
 * copy: two calls on two streams with two masks cannot disturb each other,
 * and the library keeps no __constant__ symbol that every call in the
 * process would share. The price: the mask arrives as a device pointer, so
 * the call first copies it to the host (cudaMemcpyAsync on `stream`, so it
 * sees the caller's latest mask) and waits for `stream`
 * (cudaStreamSynchronize) before launching. That is a device-to-host copy of
 * 4 * width bytes and a wait on the stream per call, and such a call cannot
 * be captured into a CUDA graph (capture fails with a CUDA error).
 * variant->host_wait says which variants do this. Variants 6 and 7 have
 * each block load the mask (or a chunk of it) from global memory into
 * shared memory instead: no wait, and any width.
 */
#ifndef GK_CONV_H
#define GK_CONV_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "gk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The largest n and width any variant accepts: 2^60, so that n + width and
 * the byte counts 4 * n fit in a size_t with room. */
#define GK_CONV_MAX_N ((size_t)1 << 60)

/* The largest mask the constant-memory variants (2-5) take: 4096 floats, the
 * 16 KiB kernel parameter they copy it into. */
#define GK_CONV_PARAM_MASK_MAX 4096

/* Up to this width gk_conv_best_variant() picks the memory-bound kernel (6),
 * above it the arithmetic-bound one (7). The roofline alone would put the
 * split at its knee, fp32 peak over DRAM bandwidth: width / 4 FLOP per byte
 * against about 67 TFLOP/s / 4.8 TB/s = 14 FLOP/B on an H200, width 56.
 * Variant 6 leaves the DRAM roof earlier: its inner loop issues 16 FFMAs in
 * 28 to 35 instructions (conv/kernels/06_streaming.cu), which caps it near
 * half the fp32 peak, a rate the DRAM roof reaches at widths 25 to 31. The
 * split is measured (conv/README.md: variants 6 and 7 at every width from 8
 * to 31, n = 2^24 and 2^28, H100, CUDA 13.0, 2026-11-25): variant 6 is the
 * faster at every one of them (0.840 against 0.917 ms at width 31, 2^28),
 * variant 7 at width 127; widths 32 to 126 are not measured. On the H200 of
 * the module's table, whose DRAM is faster, variant 7 already wins at width
 * 31 (0.784 against 0.840 ms), so there the split lies lower. */
#define GK_CONV_BEST_SPLIT_WIDTH 31

/* Where a variant's kernel reads the mask from. */
typedef enum gk_conv_mask_in {
    GK_CONV_MASK_GLOBAL = 0, /* global memory, through the caches          */
    GK_CONV_MASK_CONSTANT,   /* the constant bank (a by-value parameter)   */
    GK_CONV_MASK_SHARED      /* shared memory, loaded by each block        */
} gk_conv_mask_in;

/* A read-only description of one variant (one row of the table). */
typedef struct gk_conv_variant {
    int id;                  /* 1, 2, ... in teaching order; also the bench's id        */
    const char *name;        /* the kernel file's name without its number               */
    const char *idea;        /* one line: what this step changes                        */
    gk_conv_mask_in mask_in; /* where the kernel reads the mask                         */
    size_t max_width;        /* the widest mask it takes; 0 = any width                 */
    size_t tile;             /* outputs per tile (a block's unit of work); 0 = untiled  */
    int host_wait;           /* 1: the call copies the mask to the host and waits for
                                the stream (the constant-memory variants, above)       */
} gk_conv_variant;

size_t gk_conv_variant_count(void);
const gk_conv_variant *gk_conv_variant_at(size_t index); /* NULL when out of range */
const gk_conv_variant *gk_conv_find_variant(int id);     /* NULL when unknown      */
/* The faster of the two rungs built for the two ends at this width, as
 * measured on an H200: the streaming kernel (6) up to
 * GK_CONV_BEST_SPLIT_WIDTH, the register-blocked one (7) above. */
int gk_conv_best_variant(size_t width);
const char *gk_conv_mask_in_name(gk_conv_mask_in m); /* "global", "constant", "shared" */

/* out[0..n) = in (*) mask, the cross-correlation above. See the calling
 * convention. */
gk_status gk_conv1d(int variant, const float *in, size_t n, const float *mask, size_t width, float *out,
                    void *workspace, size_t *workspace_bytes, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* GK_CONV_H */
