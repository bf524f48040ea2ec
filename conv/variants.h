/* variants.h: the conv module's internals (not installed).
 *
 * The kernel files' entry points, written out (grep finds each one), and the
 * table that joins each public description (gk_conv_variant, gk/conv.h) to
 * its functions. Only conv.c calls them, after checking every argument.
 */
#ifndef GK_CONV_VARIANTS_H
#define GK_CONV_VARIANTS_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "gk/conv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What each kernel file exports (extern "C", conv/kernels/NN_name.cu):
 *   workspace(n, width)  bytes of scratch the call needs (may be 0)
 *   run(...)             out[0..n) = in (*) mask (gk/conv.h), queued on
 *                        `stream`.
 * Both assume gk_conv1d() checked the arguments: n >= 1 when run() is called
 * (n = 0 never reaches it), 1 <= width <= the row's max_width (when not 0),
 * n and width <= GK_CONV_MAX_N; in, mask and out non-NULL and 4-byte aligned
 * but not necessarily 16-byte aligned; out overlapping neither in nor mask;
 * a workspace of workspace() bytes, 16-byte aligned and not initialised.
 * The types are function types, so that each entry point below is declared
 * by its type and its full name. */
typedef size_t gk_conv_workspace_fn(size_t n, size_t width);
typedef cudaError_t gk_conv_run_fn(const float *in, size_t n, const float *mask, size_t width, float *out,
                                   void *workspace, cudaStream_t stream);

typedef struct gk_conv_row {
    gk_conv_variant info; /* what gk_conv_variant_at() shows */
    gk_conv_workspace_fn *workspace;
    gk_conv_run_fn *run;
} gk_conv_row;

/* The row of variant `id`, NULL when there is none. */
const gk_conv_row *gk_conv_row_find(int id);

/* The kernel files' entry points. */
gk_conv_workspace_fn gk_conv_01_basic_workspace;
gk_conv_run_fn gk_conv_01_basic_run;
gk_conv_workspace_fn gk_conv_02_constant_mask_workspace;
gk_conv_run_fn gk_conv_02_constant_mask_run;
gk_conv_workspace_fn gk_conv_03_tiled_halo_workspace;
gk_conv_run_fn gk_conv_03_tiled_halo_run;
gk_conv_workspace_fn gk_conv_04_tiled_cached_halo_workspace;
gk_conv_run_fn gk_conv_04_tiled_cached_halo_run;
gk_conv_workspace_fn gk_conv_05_register_tiled_workspace;
gk_conv_run_fn gk_conv_05_register_tiled_run;
gk_conv_workspace_fn gk_conv_06_streaming_workspace;
gk_conv_run_fn gk_conv_06_streaming_run;
gk_conv_workspace_fn gk_conv_07_register_blocked_workspace;
gk_conv_run_fn gk_conv_07_register_blocked_run;


/* ---- The 2D table (ids 8-13, kernels/conv2d_NN_name.cu) ----------------
 * workspace(rows, cols, mask_rows, mask_cols) and run(...): out = in (*)
 * mask (gk_conv2d), assuming gk_conv2d() checked everything: rows, cols >=
 * 1, strides >= cols, mask sides >= 1 and within max_width, pointers
 * non-NULL and 4-byte aligned, no overlap. */
typedef size_t gk_conv2d_workspace_fn(size_t rows, size_t cols, size_t mask_rows, size_t mask_cols);
typedef cudaError_t gk_conv2d_run_fn(const float *in, size_t rows, size_t cols, size_t in_stride, const float *mask,
                                     size_t mask_rows, size_t mask_cols, float *out, size_t out_stride,
                                     void *workspace, cudaStream_t stream);
typedef struct gk_conv2d_row {
    gk_conv_variant info;
    gk_conv2d_workspace_fn *workspace;
    gk_conv2d_run_fn *run;
} gk_conv2d_row;
const gk_conv2d_row *gk_conv2d_row_find(int id);

/* ---- The depthwise table (ids 14-16, kernels/depthwise_NN_name.cu) -----
 * rows = batch x channels; run() gets rows >= 1, length >= 1, strides >=
 * length, 1 <= width <= max_width, a known padding and activation, bias
 * NULL or valid, everything checked by gk_conv1d_depthwise(). */
typedef size_t gk_conv_dw_workspace_fn(size_t rows, size_t length, size_t width);
typedef cudaError_t gk_conv_dw_run_fn(const float *in, size_t rows, size_t channels, size_t length,
                                      size_t in_stride, const float *mask, size_t width, const float *bias,
                                      int causal, int act, float *out, size_t out_stride, void *workspace,
                                      cudaStream_t stream);
typedef struct gk_conv_dw_row {
    gk_conv_variant info;
    gk_conv_dw_workspace_fn *workspace;
    gk_conv_dw_run_fn *run;
} gk_conv_dw_row;
const gk_conv_dw_row *gk_conv_depthwise_row_find(int id);

gk_conv2d_workspace_fn gk_conv2d_01_basic_workspace;
gk_conv2d_run_fn gk_conv2d_01_basic_run;
gk_conv2d_workspace_fn gk_conv2d_02_constant_mask_workspace;
gk_conv2d_run_fn gk_conv2d_02_constant_mask_run;
gk_conv2d_workspace_fn gk_conv2d_03_tiled_halo_workspace;
gk_conv2d_run_fn gk_conv2d_03_tiled_halo_run;
gk_conv2d_workspace_fn gk_conv2d_04_tiled_cached_halo_workspace;
gk_conv2d_run_fn gk_conv2d_04_tiled_cached_halo_run;
gk_conv2d_workspace_fn gk_conv2d_05_streaming_workspace;
gk_conv2d_run_fn gk_conv2d_05_streaming_run;
gk_conv2d_workspace_fn gk_conv2d_06_register_blocked_workspace;
gk_conv2d_run_fn gk_conv2d_06_register_blocked_run;

gk_conv_dw_workspace_fn gk_conv_depthwise_01_basic_workspace;
gk_conv_dw_run_fn gk_conv_depthwise_01_basic_run;
gk_conv_dw_workspace_fn gk_conv_depthwise_02_row_shared_workspace;
gk_conv_dw_run_fn gk_conv_depthwise_02_row_shared_run;
gk_conv_dw_workspace_fn gk_conv_depthwise_03_tuned_workspace;
gk_conv_dw_run_fn gk_conv_depthwise_03_tuned_run;

#ifdef __cplusplus
}
#endif

#endif /* GK_CONV_VARIANTS_H */
