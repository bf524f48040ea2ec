/* histogram_ref.h: the CPU reference and the input generators of the
 * histogram module (tests and bench only), and CUB's DeviceHistogram behind a
 * C call.
 *
 * The reference is the sequential histogram: one pass, one increment per
 * sample in range, exact 64-bit counts.
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

/* Compare got with expected (bins counts); prints the first mismatches with
 * their bin to `log`; returns how many differ. */
size_t gk_hist_check(const uint64_t *got, const uint64_t *expected, size_t bins, const char *label, FILE *log);

/* cub::DeviceHistogram::HistogramEven with 32-bit counters and levels
 * 0, 1, ..., bins (so sample v lands in bin v, values >= bins are dropped).
 * dtype: 2 = u8, 3 = u32. With temp == NULL stores the temporary bytes it
 * needs in *temp_bytes (CUB's query). */
cudaError_t gk_cub_histogram(const void *in, size_t n, int dtype, size_t bins, unsigned *counts, void *temp,
                             size_t *temp_bytes, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* GK_HISTOGRAM_REF_H */
