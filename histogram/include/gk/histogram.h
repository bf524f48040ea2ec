/* gk/histogram.h: histograms on the GPU.
 *
 * Two ways in, one ladder of variants behind both:
 *
 *   gk_histogram      integer samples into bins 0..bins-1:
 *                       counts[v] = #{ i in [0, n) : in[i] == v },  v in [0, bins)
 *   gk_histogram_ex   what callers bin in practice (CUB's DeviceHistogram
 *                     HistogramEven, HistogramRange, MultiHistogramEven,
 *                     MultiHistogramRange and their 2D row-strided forms, in
 *                     one descriptor): samples of f32, f16, u8, u16, i32 or
 *                     u32; per channel either even bins over [lower, upper)
 *                     or bins between sorted boundaries (levels); 1 to 4
 *                     interleaved channels, any subset of them counted; a
 *                     region of num_rows rows with a row stride in bytes.
 *   gk_histogram_even, gk_histogram_range: gk_histogram_ex for one channel
 *                     and one row of n samples.
 *
 * The module is a ladder of variants, numbered in teaching order, from one
 * global atomic per sample (1) through privatized, coarsened, aggregated and
 * replicated sub-histograms (2-6) to a tuned rung for integer samples (7:
 * 16-byte loads and a strategy chosen by the number of bins); then the steps
 * that real samples need: a bin from a float without a division per sample,
 * made exact at the edges (8), the bin boundaries staged in shared memory
 * and searched without branches (9), 16-byte loads split into the channels
 * they hold with the region walked row by row, and 8-bit samples binned by
 * a table (10). Variants 1-7 take gk_histogram's form only; variants from 8
 * take every form (gk_histogram's is even bins with lower 0 and upper
 * bins; variant 10 runs it with variant 7's tuned kernels). Which forms a variant takes is in its row
 * (gk_histogram_variant.forms). Every variant is one file in
 * histogram/kernels/ and one row of the module's table
 * (histogram/variants.c), whose read-only description
 * gk_histogram_variant_at() shows; the API, the tests, the bench and the
 * docs all read it. histogram/README.md walks up the ladder with measured
 * numbers. gk_histogram_best_variant() is the last rung.
 *
 * gk_histogram (integer samples):
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
 *
 * gk_histogram_ex (gk_histogram_desc below):
 *   - Samples: GK_F32, GK_F16 (IEEE binary16 stored as 2 bytes), GK_U8,
 *     GK_U16, GK_I32, GK_U32. Channel c of pixel p of row r is the sample at
 *     byte (char *)in + r * row_stride_bytes + (p * channels + c) * size.
 *     Bytes between the end of a row's pixels and the next row are never
 *     read (the padding of a pitched image).
 *   - Each counted channel (bins > 0) has its own bins (1 to 2^24), its own
 *     counts (device, 8-byte aligned, bins 64-bit counts, overwritten) and
 *     either even bins or levels:
 *     Even bins (levels == NULL): sample x with lower <= x < upper is
 *       counted in bin floor((x - lower) * bins / (upper - lower)), that
 *       formula evaluated exactly, as a real number, for every sample, on
 *       every edge. (A float product can be off by one next to an edge; the
 *       kernels correct it: histogram/kernels/levels.cuh proves how.)
 *       lower < upper; for f32 and f16 samples both are finite values of
 *       f32 (float); for integer samples both are integers with
 *       type minimum <= lower < upper <= type maximum + 1 (u8: upper 256
 *       counts 255; u32: upper 2^32 counts 4294967295).
 *     Levels (levels != NULL; lower and upper are ignored): bins + 1
 *       boundaries, as doubles in host memory (every value of every sample
 *       type is a double exactly, so each comparison is exact); sample x is
 *       counted in bin i when levels[i] <= x < levels[i + 1]. The levels must
 *       not decrease and must not be NaN (else GK_ERROR_INVALID_ARGUMENT);
 *       -inf and +inf are allowed. A repeated level makes an empty bin:
 *       levels[i] == levels[i + 1] holds no x. The call copies the levels
 *       into the workspace with cudaMemcpyAsync on `stream`: keep them
 *       unchanged until the stream has passed the call (from pageable
 *       memory the call waits for the copy itself; from pinned memory it
 *       does not).
 *     Not counted, in either form: samples outside [lower, upper) or
 *     [levels[0], levels[bins]), and NaN (which is in no interval).
 *     -0.0 and +0.0 are the same value, as every comparison says.
 *     Denormal samples are binned by their value (nothing is flushed).
 *   - `in` aligned to its element size (NULL only when the region is empty);
 *     row_stride_bytes a multiple of the element size and at least
 *     row_pixels * channels * size when num_rows > 1 (ignored for one row).
 *     num_rows or row_pixels may be 0: an empty region, all counts 0.
 *
 * For both:
 *   - Scratch memory by two-phase query, as in CUB: with workspace == NULL
 *     the call stores the bytes it needs in *workspace_bytes (never 0, a
 *     whole number of 256-byte granules, depending only on the variant and
 *     the arguments' sizes and types, never on the GPU or the data) and does
 *     nothing else: no pointer but workspace_bytes is read (levels
 *     included) and nothing is checked that the sizes do not need. Then
 *     call again with a 16-byte-aligned workspace of at least that size
 *     (cudaMalloc's are) and *workspace_bytes saying how large it is. It
 *     needs no initialisation. Nothing is allocated inside a call.
 *   - Work is queued on `stream` (the last argument); the call does not wait
 *     (except for pageable levels, above).
 *   - Threads: any call may be made from several host threads at once, on
 *     different streams or devices, with nothing shared between them: no
 *     call keeps state, and the one launch setting a call makes (a kernel's
 *     shared-memory opt-in, cudaFuncAttributeMaxDynamicSharedMemorySize) is
 *     always set to the device's maximum, never to a value that depends on
 *     the call. Calls running at the same time must not share their counts
 *     or their workspace: each needs its own.
 *   - Bad arguments (NULL pointers, bins = 0 or above the maximum, bins > 256
 *     for gk_histogram's GK_U8, a dtype the form does not take, bad lower,
 *     upper or levels, a bad channel count or stride, a workspace too small
 *     or misaligned, a misaligned pointer, an unknown variant) give a status
 *     with a message; a variant that does not take the form asked for gives
 *     GK_ERROR_UNSUPPORTED. Either way nothing is launched and nothing is
 *     written, not even *workspace_bytes.
 *   - Exact and deterministic: the counts are integers, so every variant gives
 *     the same counts as the CPU reference, bit for bit, on every run.
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

/* The most channels of gk_histogram_ex. */
#define GK_HISTOGRAM_MAX_CHANNELS 4

/* What a variant takes (gk_histogram_variant.forms, a bitwise OR). */
#define GK_HISTOGRAM_FORM_INT 1u      /* gk_histogram: u8 and u32 into bins 0..bins-1         */
#define GK_HISTOGRAM_FORM_EVEN 2u     /* gk_histogram_ex: even bins over [lower, upper)      */
#define GK_HISTOGRAM_FORM_RANGE 4u    /* gk_histogram_ex: levels                             */
#define GK_HISTOGRAM_FORM_CHANNELS 8u /* gk_histogram_ex: 2 to 4 channels                     */
#define GK_HISTOGRAM_FORM_ROWS 16u    /* gk_histogram_ex: more than one row                   */

/* A read-only description of one variant (one row of the table). */
typedef struct gk_histogram_variant {
    int id;           /* 1, 2, ... in teaching order; also the bench's id */
    const char *name; /* the kernel file's name without its number        */
    const char *idea; /* one line: what this step changes                 */
    unsigned forms;   /* the GK_HISTOGRAM_FORM_* it takes                 */
} gk_histogram_variant;

size_t gk_histogram_variant_count(void);
const gk_histogram_variant *gk_histogram_variant_at(size_t index); /* NULL when out of range */
const gk_histogram_variant *gk_histogram_find_variant(int id);     /* NULL when unknown      */
int gk_histogram_best_variant(void);                               /* the last rung          */

/* counts[0..bins) = the histogram of in[0..n). See above. */
gk_status gk_histogram(int variant, gk_dtype dtype, const void *in, size_t n, size_t bins, uint64_t *counts,
                       void *workspace, size_t *workspace_bytes, cudaStream_t stream);

/* One channel of gk_histogram_ex. bins == 0: the channel is not counted
 * (its other fields are not read). */
typedef struct gk_histogram_channel {
    size_t bins;          /* 1 to GK_HISTOGRAM_MAX_BINS; 0: not counted                       */
    double lower, upper;  /* even bins over [lower, upper) (when levels == NULL)              */
    const double *levels; /* host, bins + 1 non-decreasing boundaries; NULL: even bins        */
    uint64_t *counts;     /* device, bins 64-bit counts, overwritten                           */
} gk_histogram_channel;

/* A region of samples and what to count in it. Start from
 * gk_histogram_desc_1d() (one channel, one row of n samples, the channel
 * not yet counted: set ch[0]), then change what differs. */
typedef struct gk_histogram_desc {
    gk_dtype dtype;          /* GK_F32, GK_F16, GK_U8, GK_U16, GK_I32, GK_U32                      */
    const void *in;          /* device, aligned to the element size                               */
    int channels;            /* 1 to 4 interleaved samples per pixel                              */
    size_t num_rows;         /* rows of the region                                                */
    size_t row_pixels;       /* pixels per row (channels samples each)                            */
    size_t row_stride_bytes; /* from one row's first byte to the next's (read when num_rows > 1)  */
    gk_histogram_channel ch[GK_HISTOGRAM_MAX_CHANNELS]; /* ch[c] for channel c < channels        */
} gk_histogram_desc;

/* The default descriptor: dtype, in, one channel, one row of n samples
 * (row_stride_bytes = n * size), no channel counted yet. */
static inline gk_histogram_desc gk_histogram_desc_1d(gk_dtype dtype, const void *in, size_t n)
{
    gk_histogram_desc d = {dtype, in, 1, 1, n, n * gk_dtype_size(dtype), {{0, 0.0, 0.0, NULL, NULL}}};
    return d;
}

/* Every counted channel's histogram of the region. See above. */
gk_status gk_histogram_ex(int variant, const gk_histogram_desc *desc, void *workspace, size_t *workspace_bytes,
                          cudaStream_t stream);

/* counts[0..bins) = the even-bin histogram of in[0..n) over [lower, upper). */
gk_status gk_histogram_even(int variant, gk_dtype dtype, const void *in, size_t n, size_t bins, double lower,
                            double upper, uint64_t *counts, void *workspace, size_t *workspace_bytes,
                            cudaStream_t stream);

/* counts[0..bins) = the histogram of in[0..n) between levels[0..bins] (host). */
gk_status gk_histogram_range(int variant, gk_dtype dtype, const void *in, size_t n, size_t bins,
                             const double *levels, uint64_t *counts, void *workspace, size_t *workspace_bytes,
                             cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* GK_HISTOGRAM_H */
