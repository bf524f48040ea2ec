/* gk_histogram, gk_histogram_ex and its two short forms: argument checking
 * and dispatch through the table. Every check happens before anything is
 * launched or written. */
#include <math.h>
#include <stdint.h>

#include "gk/cuda_check.h"
#include "gk/histogram.h"
#include "../common/module.h"
#include "variants.h"

gk_status gk_histogram(int variant, gk_dtype dtype, const void *in, size_t n, size_t bins, uint64_t *counts,
                       void *workspace, size_t *workspace_bytes, cudaStream_t stream)
{
    const gk_histogram_row *v = gk_histogram_row_find(variant);
    if (v == NULL) return GK_FAIL(GK_ERROR_UNKNOWN_VARIANT, "no histogram variant has this id");
    if (dtype != GK_U8 && dtype != GK_U32)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "dtype is neither GK_U8 nor GK_U32");
    if (bins == 0) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "bins is 0");
    if (bins > GK_HISTOGRAM_MAX_BINS)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "bins is above GK_HISTOGRAM_MAX_BINS (2^24)");
    if (dtype == GK_U8 && bins > 256)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "bins is above 256 for GK_U8 samples (a byte has 256 values)");
    if (workspace_bytes == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "workspace_bytes is NULL");

    /* Variants 8 and up: even bins over [0, bins), which count value v in
     * bin v (the header's form, exactly). */
    const double *no_levels[1] = {NULL};
    size_t need = gk_workspace_round(v->run ? v->workspace(n, bins, (int)dtype)
                                            : v->workspace_ex((int)dtype, 1, &bins, no_levels));
    GK_WORKSPACE_QUERY(need, workspace, workspace_bytes);
    GK_WORKSPACE_CHECK(need, workspace, workspace_bytes);
    if (counts == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "counts is NULL");
    if (in == NULL && n > 0) return GK_FAIL(GK_ERROR_NULL_POINTER, "in is NULL and n > 0");
    if (gk_misaligned(counts, sizeof(uint64_t)))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "counts is not 8-byte aligned");
    if (gk_misaligned(in, gk_dtype_size(dtype)))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "in is not aligned to its element size");
    if (v->run)
        return GK_CUDA_STATUS(v->run(in, n, (int)dtype, bins, (unsigned long long *)counts, workspace, stream));
    const double lower = 0.0, upper = (double)bins;
    unsigned long long *c = (unsigned long long *)counts;
    return GK_CUDA_STATUS(v->run_ex((int)dtype, in, 1, 1, n, n * gk_dtype_size(dtype), &bins, &lower, &upper,
                                    no_levels, &c, workspace, stream));
}

/* The range [min, max + 1) of an integer sample type, as doubles. */
static int int_range(gk_dtype dtype, double *lo, double *end)
{
    switch (dtype) {
    case GK_U8: *lo = 0.0, *end = 256.0; return 1;
    case GK_U16: *lo = 0.0, *end = 65536.0; return 1;
    case GK_I32: *lo = -2147483648.0, *end = 2147483648.0; return 1;
    case GK_U32: *lo = 0.0, *end = 4294967296.0; return 1;
    default: return 0;
    }
}

/* A status for even bins over [lower, upper) that dtype cannot take; success
 * when it can (see gk/histogram.h). */
static gk_status check_even(gk_dtype dtype, double lower, double upper)
{
    double lo, end;
    if (!(lower < upper)) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "even bins: lower is not below upper (or NaN)");
    if (int_range(dtype, &lo, &end)) {
        if (lower != floor(lower) || upper != floor(upper))
            return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "even bins of integer samples: lower and upper must be integers");
        if (lower < lo || upper > end)
            return GK_FAIL(GK_ERROR_INVALID_ARGUMENT,
                           "even bins of integer samples: lower below the type's minimum or upper above its maximum + 1");
        return gk_success();
    }
    if (!isfinite(lower) || !isfinite(upper) || (double)(float)lower != lower || (double)(float)upper != upper)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "even bins of float samples: lower and upper must be finite floats");
    return gk_success();
}

gk_status gk_histogram_ex(int variant, const gk_histogram_desc *d, void *workspace, size_t *workspace_bytes,
                          cudaStream_t stream)
{
    const gk_histogram_row *v = gk_histogram_row_find(variant);
    if (v == NULL) return GK_FAIL(GK_ERROR_UNKNOWN_VARIANT, "no histogram variant has this id");
    if (d == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "desc is NULL");
    if (workspace_bytes == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "workspace_bytes is NULL");
    const gk_dtype dt = d->dtype;
    if (dt != GK_F32 && dt != GK_F16 && dt != GK_U8 && dt != GK_U16 && dt != GK_I32 && dt != GK_U32)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "dtype is not one of GK_F32, GK_F16, GK_U8, GK_U16, GK_I32, GK_U32");
    if (d->channels < 1 || d->channels > GK_HISTOGRAM_MAX_CHANNELS)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "channels is not 1 to 4");
    unsigned forms = 0;
    int counted = 0;
    size_t bins[GK_HISTOGRAM_MAX_CHANNELS] = {0};
    const double *levels[GK_HISTOGRAM_MAX_CHANNELS] = {NULL};
    double lower[GK_HISTOGRAM_MAX_CHANNELS] = {0}, upper[GK_HISTOGRAM_MAX_CHANNELS] = {0};
    unsigned long long *counts[GK_HISTOGRAM_MAX_CHANNELS] = {NULL};
    for (int c = 0; c < d->channels; ++c) {
        const gk_histogram_channel *ch = &d->ch[c];
        if (ch->bins == 0) continue;
        if (ch->bins > GK_HISTOGRAM_MAX_BINS)
            return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "a channel's bins is above GK_HISTOGRAM_MAX_BINS (2^24)");
        ++counted;
        bins[c] = ch->bins;
        levels[c] = ch->levels;
        lower[c] = ch->lower;
        upper[c] = ch->upper;
        counts[c] = (unsigned long long *)ch->counts;
        forms |= ch->levels ? GK_HISTOGRAM_FORM_RANGE : GK_HISTOGRAM_FORM_EVEN;
    }
    if (counted == 0) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "no channel is counted (every bins is 0)");
    if (d->channels > 1) forms |= GK_HISTOGRAM_FORM_CHANNELS;
    if (d->num_rows > 1) forms |= GK_HISTOGRAM_FORM_ROWS;
    if ((forms & v->info.forms) != forms || v->run_ex == NULL)
        return GK_FAIL(GK_ERROR_UNSUPPORTED, "this variant does not take this form (gk_histogram_variant.forms)");
    const size_t es = gk_dtype_size(dt);
    if (d->row_pixels > SIZE_MAX / GK_HISTOGRAM_MAX_CHANNELS / es ||
        (d->num_rows > 0 && d->row_pixels * (size_t)d->channels > SIZE_MAX / es / d->num_rows))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "the region's size overflows size_t");

    size_t need = gk_workspace_round(v->workspace_ex((int)dt, d->channels, bins, levels));
    GK_WORKSPACE_QUERY(need, workspace, workspace_bytes);
    GK_WORKSPACE_CHECK(need, workspace, workspace_bytes);

    for (int c = 0; c < d->channels; ++c) {
        if (bins[c] == 0) continue;
        if (counts[c] == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "a counted channel's counts is NULL");
        if (gk_misaligned(counts[c], sizeof(uint64_t)))
            return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "a counted channel's counts is not 8-byte aligned");
        if (levels[c] == NULL) {
            gk_status s = check_even(dt, lower[c], upper[c]);
            if (!gk_ok(s)) return s;
            continue;
        }
        for (size_t i = 0; i <= bins[c]; ++i) {
            if (isnan(levels[c][i])) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "a level is NaN");
            if (i > 0 && levels[c][i] < levels[c][i - 1])
                return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "the levels decrease (they must be sorted)");
        }
    }
    const size_t row_bytes = d->row_pixels * (size_t)d->channels * es;
    if (d->num_rows > 1 && (d->row_stride_bytes % es != 0 || d->row_stride_bytes < row_bytes))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT,
                       "row_stride_bytes is not a multiple of the element size or is below a row's bytes");
    if (d->num_rows > 1 && d->row_stride_bytes > SIZE_MAX / d->num_rows)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "num_rows x row_stride_bytes overflows size_t");
    const int empty = d->num_rows == 0 || d->row_pixels == 0;
    if (d->in == NULL && !empty) return GK_FAIL(GK_ERROR_NULL_POINTER, "in is NULL and the region is not empty");
    if (gk_misaligned(d->in, es)) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "in is not aligned to its element size");
    return GK_CUDA_STATUS(v->run_ex((int)dt, d->in, d->channels, d->num_rows, d->row_pixels, d->row_stride_bytes,
                                    bins, lower, upper, levels, counts, workspace, stream));
}

gk_status gk_histogram_even(int variant, gk_dtype dtype, const void *in, size_t n, size_t bins, double lower,
                            double upper, uint64_t *counts, void *workspace, size_t *workspace_bytes,
                            cudaStream_t stream)
{
    gk_histogram_desc d = gk_histogram_desc_1d(dtype, in, n);
    if (bins == 0) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "bins is 0");
    d.ch[0].bins = bins;
    d.ch[0].lower = lower;
    d.ch[0].upper = upper;
    d.ch[0].counts = counts;
    return gk_histogram_ex(variant, &d, workspace, workspace_bytes, stream);
}

gk_status gk_histogram_range(int variant, gk_dtype dtype, const void *in, size_t n, size_t bins,
                             const double *levels, uint64_t *counts, void *workspace, size_t *workspace_bytes,
                             cudaStream_t stream)
{
    gk_histogram_desc d = gk_histogram_desc_1d(dtype, in, n);
    if (bins == 0) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "bins is 0");
    if (levels == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "levels is NULL");
    d.ch[0].bins = bins;
    d.ch[0].levels = levels;
    d.ch[0].counts = counts;
    return gk_histogram_ex(variant, &d, workspace, workspace_bytes, stream);
}
