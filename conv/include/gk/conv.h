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


/* ======================================================================
 * Beyond one signal: 2D images (gk_conv2d) and batched depthwise 1D
 * convolution (gk_conv1d_depthwise).
 *
 * Numbering. The module numbers its kernels once, so that one id names one
 * kernel in the API, the bench and conv/README.md: the 1D ladder is 1-7
 * (conv/kernels/NN_name.cu), the 2D ladder 8-13 (conv/kernels/
 * conv2d_NN_name.cu, id 7 + NN), the depthwise ladder 14-16 (conv/kernels/
 * depthwise_NN_name.cu, id 13 + NN). Each ladder is its own table with its
 * own lookups, whose rows are gk_conv_variant (above): for the 2D table
 * max_width is the largest mask side (mask_rows and mask_cols each) a
 * variant takes and tile the outputs of one tile; for the depthwise table
 * max_width is the widest mask. gk_conv1d takes ids 1-7, gk_conv2d 8-13,
 * gk_conv1d_depthwise 14-16; any other id is GK_ERROR_UNKNOWN_VARIANT.
 *
 * Both follow gk_conv1d's calling convention (above): device pointers with
 * a float's 4-byte alignment and no more, the two-phase workspace (the query
 * looks at nothing but the variant and the sizes), work queued on `stream`,
 * no global state, thread safety, every check before anything is launched
 * or written, the output overlapping no input (checked on the byte spans
 * below) and the constant-bank variants (host_wait = 1) copying the mask to
 * the host and waiting for `stream`. Sizes and strides are size_t counts of
 * elements, each at most GK_CONV_MAX_N, and so are the spans they make.
 * Accumulation in fp32, in an order of the variant's own.
 * ====================================================================== */

/* ---- gk_conv2d -------------------------------------------------------------
 *
 *   out[y][x] = sum_{a=0}^{mask_rows-1} sum_{b=0}^{mask_cols-1}
 *                   in[y - ry + a][x - rx + b] * mask[a][b],
 *   ry = mask_rows / 2, rx = mask_cols / 2,
 *
 * for y in [0, rows), x in [0, cols), with in[p][q] = 0 outside the image
 * (ghost cells). Cross-correlation, the mask not flipped; mask[ry][rx]
 * multiplies in[y][x], and each side centres as gk_conv1d's width does
 * (mask 3 x 4: one row above and one below, two columns left and one right).
 *   - in[p][q] is in[p * in_stride + q], out[y][x] out[y * out_stride + x]:
 *     row strides in elements, each >= cols (the elements between cols and
 *     the stride are not read in `in` and never written in `out`). The mask
 *     is mask_rows x mask_cols floats, row-major, contiguous.
 *   - rows, cols: any size_t (rows * stride <= GK_CONV_MAX_N); 0 does
 *     nothing (after the checks) and succeeds. mask_rows, mask_cols >= 1,
 *     any size up to the variant's max_width per side (0: any), also larger
 *     than the image.
 *   - Overlap: out's span [out, out + (rows - 1) out_stride + cols) may not
 *     share a byte with in's span (the same with in_stride) nor with the
 *     mask (the spans, so an out interleaved with in's padding is refused
 *     too). in and mask may overlap.
 *   - Each out[y][x] is within gamma_(mask_rows mask_cols) sum |products| of
 *     the exact result (as gk_conv1d with width = mask_rows x mask_cols).
 */
size_t gk_conv2d_variant_count(void);
const gk_conv_variant *gk_conv2d_variant_at(size_t index); /* NULL when out of range */
const gk_conv_variant *gk_conv2d_find_variant(int id);     /* NULL when unknown (ids 8-13) */

/* The largest side of a mask that the constant-bank 2D variants (9-11) take:
 * 64 x 64 = 4096 floats, the 16 KiB kernel parameter of GK_CONV_PARAM_MASK_MAX,
 * and a halo tile of variant 10 that fits in 48 KB of shared memory. */
#define GK_CONV2D_PARAM_SIDE_MAX 64

gk_status gk_conv2d(int variant, const float *in, size_t rows, size_t cols, size_t in_stride, const float *mask,
                    size_t mask_rows, size_t mask_cols, float *out, size_t out_stride, void *workspace,
                    size_t *workspace_bytes, cudaStream_t stream);

/* ---- gk_conv1d_depthwise ---------------------------------------------------
 *
 * A (batch, channels, length) tensor, one mask of `width` taps per channel
 * (the same for every batch), each row convolved with its channel's mask:
 *
 *   z[b][c][t] = bias[c] + sum_{j=0}^{width-1} in[b][c][t - off + j] * mask[c][j]
 *   out[b][c][t] = act(z[b][c][t])
 *
 * for t in [0, length), ghost cells zero, with off = width / 2
 * (GK_CONV_PAD_SAME: gk_conv1d's centring) or off = width - 1
 * (GK_CONV_PAD_CAUSAL: out[t] sees in[t - width + 1 .. t], nothing later).
 * bias may be NULL (no bias). act: GK_CONV_ACT_NONE, GK_CONV_ACT_RELU
 * (z < 0 ? 0 : z; a NaN stays NaN) or GK_CONV_ACT_SILU (z / (1 + e^-z),
 * computed in fp32 as z / (1.0f + expf(-z)) with CUDA's expf, whose
 * documented error is 2 ulp; the whole bound is in conv/conv_ref.h), both
 * applied in fp32 to the fp32 sum before the one store.
 *   - Layout: row (b, c) is row b * channels + c of a matrix of batch x
 *     channels rows of `length` elements; in[b][c][t] is
 *     in[(b * channels + c) * in_stride + t], out the same with out_stride.
 *     in_stride = length is the contiguous (batch, channels, length) tensor;
 *     a larger stride (>= length) reads rows out of a wider one. mask is
 *     channels x width floats, contiguous; bias channels floats.
 *   - batch, channels, length: any size_t (batch * channels * stride <=
 *     GK_CONV_MAX_N), 0 does nothing and succeeds; width from 1 to the
 *     variant's max_width (0: any), also longer than the rows.
 *   - Overlap: out's span may share no byte with in's span, the mask or
 *     the bias.
 *   - Each out is within the bound of conv/conv_ref.h (gamma_(width + 1) of
 *     the products' and the bias's magnitudes, carried through act).
 */
typedef enum gk_conv_padding {
    GK_CONV_PAD_SAME = 0, /* off = width / 2: centred as gk_conv1d      */
    GK_CONV_PAD_CAUSAL    /* off = width - 1: out[t] uses in[..t] only */
} gk_conv_padding;

typedef enum gk_conv_activation {
    GK_CONV_ACT_NONE = 0,
    GK_CONV_ACT_RELU, /* z < 0 ? 0 : z           */
    GK_CONV_ACT_SILU  /* z / (1 + exp(-z)), fp32 */
} gk_conv_activation;

const char *gk_conv_padding_name(gk_conv_padding p);       /* "same", "causal", "?" */
const char *gk_conv_activation_name(gk_conv_activation a); /* "none", "relu", "silu", "?" */

size_t gk_conv_depthwise_variant_count(void);
const gk_conv_variant *gk_conv_depthwise_variant_at(size_t index); /* NULL when out of range */
const gk_conv_variant *gk_conv_depthwise_find_variant(int id);     /* NULL when unknown (ids 14-16) */

gk_status gk_conv1d_depthwise(int variant, const float *in, size_t batch, size_t channels, size_t length,
                              size_t in_stride, const float *mask, size_t width, const float *bias,
                              gk_conv_padding padding, gk_conv_activation act, float *out, size_t out_stride,
                              void *workspace, size_t *workspace_bytes, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* GK_CONV_H */
