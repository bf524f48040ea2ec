/* gk_conv1d: argument checking and dispatch through the table. Every check
 * happens before anything is launched or written. */
#include <stdint.h>

#include "gk/conv.h"
#include "gk/cuda_check.h"
#include "../common/module.h"
#include "variants.h"

/* Do the byte ranges [a, a + a_bytes) and [b, b + b_bytes) share a byte?
 * Sizes are at most 4 * 2^60 here, so the sums cannot wrap. */
static int overlap(const void *a, size_t a_bytes, const void *b, size_t b_bytes)
{
    uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
    return a_bytes > 0 && b_bytes > 0 && x < y + b_bytes && y < x + a_bytes;
}

gk_status gk_conv1d(int variant, const float *in, size_t n, const float *mask, size_t width, float *out,
                    void *workspace, size_t *workspace_bytes, cudaStream_t stream)
{
    const gk_conv_row *v = gk_conv_row_find(variant);
    if (v == NULL) return GK_FAIL(GK_ERROR_UNKNOWN_VARIANT, "no conv variant has this id");
    if (workspace_bytes == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "workspace_bytes is NULL");
    if (width == 0) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "width is 0 (a mask has at least one tap)");
    if (v->info.max_width != 0 && width > v->info.max_width)
        return GK_FAIL(GK_ERROR_UNSUPPORTED,
                       "width is above this variant's max_width (variants 2-5 take at most GK_CONV_PARAM_MASK_MAX = "
                       "4096 taps: the mask travels as a 16 KiB kernel parameter; variants 1, 6 and 7 take any width)");
    if (n > GK_CONV_MAX_N) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "n is above GK_CONV_MAX_N (2^60)");
    if (width > GK_CONV_MAX_N) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "width is above GK_CONV_MAX_N (2^60)");

    size_t need = gk_workspace_round(v->workspace(n, width));
    GK_WORKSPACE_QUERY(need, workspace, workspace_bytes);

    if (n > 0) {
        if (in == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "in is NULL and n > 0");
        if (mask == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "mask is NULL and n > 0");
        if (out == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "out is NULL and n > 0");
    }
    if (gk_misaligned(in, sizeof(float))) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "in is not 4-byte aligned");
    if (gk_misaligned(mask, sizeof(float))) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "mask is not 4-byte aligned");
    if (gk_misaligned(out, sizeof(float))) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out is not 4-byte aligned");
    if (overlap(in, n * sizeof(float), out, n * sizeof(float)))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "in and out overlap (the convolution is not done in place)");
    if (overlap(mask, n > 0 ? width * sizeof(float) : 0, out, n * sizeof(float)))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "mask and out overlap");
    GK_WORKSPACE_CHECK(need, workspace, workspace_bytes);

    if (n == 0) return gk_success(); /* nothing to compute, nothing launched */
    return GK_CUDA_STATUS(v->run(in, n, mask, width, out, workspace, stream));
}
