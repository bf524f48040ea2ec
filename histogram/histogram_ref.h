/* histogram_ref.h: the CPU reference and the input generators of the
 * histogram module (tests and bench only), and CUB's DeviceHistogram behind a
 * C call.
 *
 * The reference is the sequential histogram: one pass, one increment per
 * sample in range, exact 64-bit counts; gk_hist_ref_ex does every form of
 * gk_histogram_ex.
 *
 * The distributions the tests and the bench draw from, each over [0, bins)
 * unless said:
 *   UNIFORM      every bin equally likely
 *   SKEWED       geometric: bin v with probability proportional to q^v,
 *                q = 1 - 1/16 (about half the samples in the first 11 bins)
 *   ONE_BIN      every sample the same value (bins / 2): maximum contention
 *   SORTED       long runs of one value (runs of 1 to 4096 samples, values
 *                rising): what sorted or image-like data looks like
 *   OUT_OF_RANGE uniform over [0, 2 bins) (capped at the type's range), so
 *                about half the samples are not counted
 */
#ifndef GK_HISTOGRAM_REF_H
#define GK_HISTOGRAM_REF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cuda_runtime_api.h>

#include "gk/histogram.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gk_hist_dist {
    GK_DIST_UNIFORM = 0,
    GK_DIST_SKEWED,
    GK_DIST_ONE_BIN,
    GK_DIST_SORTED,
    GK_DIST_OUT_OF_RANGE,
    GK_DIST_COUNT
} gk_hist_dist;

const char *gk_hist_dist_name(gk_hist_dist d); /* "uniform", "skewed", "onebin", "sorted", "outofrange" */
int gk_hist_dist_parse(const char *s, gk_hist_dist *d); /* 0 on success */

/* n samples of dtype (GK_U8 or GK_U32) drawn from `dist` over `bins`. */
void gk_hist_fill(gk_dtype dtype, void *x, size_t n, size_t bins, gk_hist_dist dist, uint64_t seed);

/* counts[0..bins) = the histogram of x[0..n), exactly. */
void gk_hist_ref(gk_dtype dtype, const void *x, size_t n, size_t bins, uint64_t *counts);

/* n samples of dtype for gk_histogram_ex's forms, sample i at element
 * i * stride of x (stride = channels for one channel of interleaved
 * pixels): a bin v drawn from `dist` over the bins between levels[0..bins]
 * (host doubles, non-decreasing; OUT_OF_RANGE: v over [0, 2 bins), the
 * bins above levels[bins] as wide as the mean bin), then a value uniform in
 * [levels[v], levels[v + 1]), rounded to the type (gk_hist_snap). */
void gk_hist_fill_levels(gk_dtype dtype, void *x, size_t n, size_t stride, const double *levels, size_t bins,
                         gk_hist_dist dist, uint64_t seed);

/* The value of dtype nearest v: f32 and f16 round to nearest even; integers
 * round down and clamp to the type's range. */
double gk_hist_snap(gk_dtype dtype, double v);

/* The reference of gk_histogram_ex: every counted channel of the region
 * described by d, whose `in` is a HOST pointer, into counts[c] (host, bins
 * each; d->ch[c].counts is not used). Exact for every sample type: each
 * sample is converted to a double (exact: every f32, f16, u8, u16, i32 and
 * u32 value is a double) and compared with the channel's edges: the
 * levels, or for even bins, edge i = the least sample value at or above
 * lower + i (upper - lower) / bins, found by testing
 * bins (x - lower) >= i (upper - lower) in 320-bit integers (each value
 * times 2^149 is an integer below 2^278, as for every f32 and every
 * integer sample). x is counted when edge 0 <= x < edge bins, in the
 * largest bin i with edge i <= x; NaN never. Returns 0, or 1 when the
 * host lacks memory for the edges (nothing counted). */
int gk_hist_ref_ex(const gk_histogram_desc *d, uint64_t *const *counts);

/* The bin of one sample x (a value of the channel's sample type) in
 * channel ch, -1 when it is not counted: the rule of gk/histogram.h
 * evaluated directly, for even bins floor((x - lower) bins / (upper -
 * lower)) with every candidate tested exactly in 320-bit integers (slow,
 * independent of gk_hist_ref_ex's edges; the tests compare the two). */
long long gk_hist_ref_bin(const gk_histogram_channel *ch, double x);

/* The value of an IEEE binary16 (f16) given by its bits, exactly; and the
 * bits of the f16 nearest an f32 (to nearest even, inf beyond 65504). */
double gk_hist_half_value(uint16_t bits);
uint16_t gk_hist_half_bits(float f);

/* Compare got with expected (bins counts); prints the first mismatches with
 * their bin to `log`; returns how many differ. */
size_t gk_hist_check(const uint64_t *got, const uint64_t *expected, size_t bins, const char *label, FILE *log);

/* cub::DeviceHistogram::HistogramEven with 32-bit counters and levels
 * 0, 1, ..., bins (so sample v lands in bin v, values >= bins are dropped).
 * dtype: 2 = u8, 3 = u32. With temp == NULL stores the temporary bytes it
 * needs in *temp_bytes (CUB's query). */
cudaError_t gk_cub_histogram(const void *in, size_t n, int dtype, size_t bins, unsigned *counts, void *temp,
                             size_t *temp_bytes, cudaStream_t stream);

/* cub::DeviceHistogram for gk_histogram_ex's forms, 32-bit counters:
 *   one channel (channels = active = 1): HistogramEven (levels NULL) or
 *     HistogramRange;
 *   channels = 2, 3 or 4 with active = channels, or RGBA with active = 3:
 *     MultiHistogramEven<channels, active> (even bins only; levels NULL),
 *     which counts channels 0..active-1 of interleaved pixels.
 * dtype: a gk_dtype value (f32, f16, u8, u16, i32, u32); pixels: pixels
 * (samples for one channel); bins[a], lower[a], upper[a] and counts[a]
 * (device) per active channel. CUB's level type: float for f32 samples,
 * __half for f16, long long for the integers (so that upper = 2^32 fits);
 * lower and upper are converted to it (exact for the bench's and the
 * tests' bounds). levels[a]: device levels of that type (gk_cub_levels).
 * With temp == NULL stores the temporary bytes in *temp_bytes (CUB's query).
 * cudaErrorInvalidValue for a combination not listed. */
cudaError_t gk_cub_histogram_ex(int dtype, const void *in, int channels, int active, size_t pixels,
                                const size_t *bins, const double *lower, const double *upper,
                                const void *const *levels, unsigned *const *counts, void *temp, size_t *temp_bytes,
                                cudaStream_t stream);

/* CUB's level type for dtype: its size in bytes (0 for a dtype not taken),
 * and count doubles converted to it into out (host). */
size_t gk_cub_level_bytes(int dtype);
void gk_cub_levels(int dtype, const double *levels, size_t count, void *out);

#ifdef __cplusplus
}
#endif

#endif /* GK_HISTOGRAM_REF_H */
