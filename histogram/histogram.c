/* gk_histogram: argument checking and dispatch through the table. Every
 * check happens before anything is launched or written. */
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

    size_t need = gk_workspace_round(v->workspace(n, bins, (int)dtype));
    GK_WORKSPACE_QUERY(need, workspace, workspace_bytes);
    GK_WORKSPACE_CHECK(need, workspace, workspace_bytes);
    if (counts == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "counts is NULL");
    if (in == NULL && n > 0) return GK_FAIL(GK_ERROR_NULL_POINTER, "in is NULL and n > 0");
    if (gk_misaligned(counts, sizeof(uint64_t)))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "counts is not 8-byte aligned");
    if (gk_misaligned(in, gk_dtype_size(dtype)))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "in is not aligned to its element size");
    return GK_CUDA_STATUS(
        v->run(in, n, (int)dtype, bins, (unsigned long long *)counts, workspace, stream));
}
