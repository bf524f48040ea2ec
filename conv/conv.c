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

/* The span of a strided matrix: rows_count rows of `cols` elements, `stride`
 * apart, in elements; 0 when empty. The callers checked that it is at most
 * GK_CONV_MAX_N. */
static size_t span_elems(size_t rows_count, size_t cols, size_t stride)
{
    return rows_count == 0 || cols == 0 ? 0 : (rows_count - 1) * stride + cols;
}

/* a * b <= limit, without overflow. */
static int product_within(size_t a, size_t b, size_t limit) { return a == 0 || b <= limit / a; }

gk_status gk_conv2d(int variant, const float *in, size_t rows, size_t cols, size_t in_stride, const float *mask,
                    size_t mask_rows, size_t mask_cols, float *out, size_t out_stride, void *workspace,
                    size_t *workspace_bytes, cudaStream_t stream)
{
    const gk_conv2d_row *v = gk_conv2d_row_find(variant);
    if (v == NULL) return GK_FAIL(GK_ERROR_UNKNOWN_VARIANT, "no conv2d variant has this id (gk_conv2d takes 8-13)");
    if (workspace_bytes == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "workspace_bytes is NULL");
    if (mask_rows == 0 || mask_cols == 0)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "mask_rows or mask_cols is 0 (a mask has at least one tap)");
    if (v->info.max_width != 0 && (mask_rows > v->info.max_width || mask_cols > v->info.max_width))
        return GK_FAIL(GK_ERROR_UNSUPPORTED,
                       "a mask side is above this variant's max_width (9-11: GK_CONV2D_PARAM_SIDE_MAX = 64, the mask "
                       "travels as a kernel parameter; 12: 9; 8 and 13 take any mask)");
    if (rows > GK_CONV_MAX_N || cols > GK_CONV_MAX_N || in_stride > GK_CONV_MAX_N || out_stride > GK_CONV_MAX_N)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "rows, cols or a stride is above GK_CONV_MAX_N (2^60)");
    if (!product_within(mask_rows, mask_cols, GK_CONV_MAX_N))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "mask_rows x mask_cols is above GK_CONV_MAX_N (2^60)");
    if (in_stride < cols || out_stride < cols)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "a row stride is below cols (rows would overlap)");
    if (!product_within(rows, in_stride, GK_CONV_MAX_N) || !product_within(rows, out_stride, GK_CONV_MAX_N))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "rows x stride is above GK_CONV_MAX_N (2^60)");

    size_t need = gk_workspace_round(v->workspace(rows, cols, mask_rows, mask_cols));
    GK_WORKSPACE_QUERY(need, workspace, workspace_bytes);

    const size_t taps = mask_rows * mask_cols;
    const size_t in_span = span_elems(rows, cols, in_stride), out_span = span_elems(rows, cols, out_stride);
    if (out_span > 0) {
        if (in == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "in is NULL and the image is not empty");
        if (mask == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "mask is NULL and the image is not empty");
        if (out == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "out is NULL and the image is not empty");
    }
    if (gk_misaligned(in, sizeof(float))) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "in is not 4-byte aligned");
    if (gk_misaligned(mask, sizeof(float))) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "mask is not 4-byte aligned");
    if (gk_misaligned(out, sizeof(float))) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out is not 4-byte aligned");
    if (overlap(in, in_span * sizeof(float), out, out_span * sizeof(float)))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "the spans of in and out overlap (not done in place)");
    if (overlap(mask, out_span > 0 ? taps * sizeof(float) : 0, out, out_span * sizeof(float)))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "mask and out's span overlap");
    GK_WORKSPACE_CHECK(need, workspace, workspace_bytes);

    if (out_span == 0) return gk_success(); /* an empty image: nothing launched */
    return GK_CUDA_STATUS(v->run(in, rows, cols, in_stride, mask, mask_rows, mask_cols, out, out_stride, workspace,
                                 stream));
}

gk_status gk_conv1d_depthwise(int variant, const float *in, size_t batch, size_t channels, size_t length,
                              size_t in_stride, const float *mask, size_t width, const float *bias,
                              gk_conv_padding padding, gk_conv_activation act, float *out, size_t out_stride,
                              void *workspace, size_t *workspace_bytes, cudaStream_t stream)
{
    const gk_conv_dw_row *v = gk_conv_depthwise_row_find(variant);
    if (v == NULL)
        return GK_FAIL(GK_ERROR_UNKNOWN_VARIANT, "no depthwise variant has this id (gk_conv1d_depthwise takes 14-16)");
    if (workspace_bytes == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "workspace_bytes is NULL");
    if (width == 0) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "width is 0 (a mask has at least one tap)");
    if (v->info.max_width != 0 && width > v->info.max_width)
        return GK_FAIL(GK_ERROR_UNSUPPORTED, "width is above this variant's max_width (15: 4096, the mask and halo in "
                                             "shared memory; 16: 32, the mask in registers; 14 takes any width)");
    if (padding != GK_CONV_PAD_SAME && padding != GK_CONV_PAD_CAUSAL)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "padding is neither GK_CONV_PAD_SAME nor GK_CONV_PAD_CAUSAL");
    if (act != GK_CONV_ACT_NONE && act != GK_CONV_ACT_RELU && act != GK_CONV_ACT_SILU)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "act is not a gk_conv_activation");
    if (batch > GK_CONV_MAX_N || channels > GK_CONV_MAX_N || length > GK_CONV_MAX_N || width > GK_CONV_MAX_N ||
        in_stride > GK_CONV_MAX_N || out_stride > GK_CONV_MAX_N)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "a size, stride or the width is above GK_CONV_MAX_N (2^60)");
    if (!product_within(channels, width, GK_CONV_MAX_N))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "channels x width is above GK_CONV_MAX_N (2^60)");
    if (in_stride < length || out_stride < length)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "a channel stride is below length (rows would overlap)");
    if (!product_within(batch, channels, GK_CONV_MAX_N))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "batch x channels is above GK_CONV_MAX_N (2^60)");
    const size_t rows = batch * channels;
    if (!product_within(rows, in_stride, GK_CONV_MAX_N) || !product_within(rows, out_stride, GK_CONV_MAX_N))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "batch x channels x stride is above GK_CONV_MAX_N (2^60)");

    size_t need = gk_workspace_round(v->workspace(rows, length, width));
    GK_WORKSPACE_QUERY(need, workspace, workspace_bytes);

    const size_t in_span = span_elems(rows, length, in_stride), out_span = span_elems(rows, length, out_stride);
    if (out_span > 0) {
        if (in == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "in is NULL and the tensor is not empty");
        if (mask == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "mask is NULL and the tensor is not empty");
        if (out == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "out is NULL and the tensor is not empty");
    }
    if (gk_misaligned(in, sizeof(float))) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "in is not 4-byte aligned");
    if (gk_misaligned(mask, sizeof(float))) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "mask is not 4-byte aligned");
    if (gk_misaligned(bias, sizeof(float))) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "bias is not 4-byte aligned");
    if (gk_misaligned(out, sizeof(float))) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out is not 4-byte aligned");
    const size_t ob = out_span * sizeof(float);
    if (overlap(in, in_span * sizeof(float), out, ob))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "the spans of in and out overlap (not done in place)");
    if (overlap(mask, out_span > 0 ? channels * width * sizeof(float) : 0, out, ob))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "mask and out's span overlap");
    if (overlap(bias, out_span > 0 && bias != NULL ? channels * sizeof(float) : 0, out, ob))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "bias and out's span overlap");
    GK_WORKSPACE_CHECK(need, workspace, workspace_bytes);

    if (out_span == 0) return gk_success(); /* nothing to compute, nothing launched */
    return GK_CUDA_STATUS(v->run(in, rows, channels, length, in_stride, mask, width, bias,
                                 padding == GK_CONV_PAD_CAUSAL, (int)act, out, out_stride, workspace, stream));
}
