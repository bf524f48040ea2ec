/* gk_histogram: argument checking and dispatch through the table. Every
 * check happens before anything is launched or written. */
#include <stdint.h>

#include "gk/cuda_check.h"
#include "gk/histogram.h"
#include "variants.h"

static int misaligned(const void *p, size_t alignment) { return ((uintptr_t)p % alignment) != 0; }

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

    /* Rounded up to a whole 256-byte granule and never 0, so that allocating
     * exactly this size gives a non-NULL workspace. */
    size_t need = (v->workspace(n, bins, (int)dtype) + 255) / 256 * 256;
    if (need == 0) need = 256;
    if (workspace == NULL) { /* phase one: the size, and nothing else */
        *workspace_bytes = need;
        return gk_success();
    }
    if (*workspace_bytes < need)
        return GK_FAIL(GK_ERROR_WORKSPACE_TOO_SMALL, "*workspace_bytes is below the size the query returned");
    if (misaligned(workspace, 16)) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "workspace is not 16-byte aligned");
    if (counts == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "counts is NULL");
    if (in == NULL && n > 0) return GK_FAIL(GK_ERROR_NULL_POINTER, "in is NULL and n > 0");
    if (misaligned(counts, sizeof(uint64_t))) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "counts is not 8-byte aligned");
    if (misaligned(in, gk_dtype_size(dtype)))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "in is not aligned to its element size");
    return GK_CUDA_STATUS(
        v->run(in, n, (int)dtype, bins, (unsigned long long *)counts, workspace, stream));
}
