/* cufft_conv.h: convolution through cuFFT, the reference the conv ladders
 * are compared with in the tests and the bench (never used by the library):
 * gk_cufft_conv for the 1D ladder (gk_conv1d), gk_cufft_conv2d for the 2D
 * one (gk_conv2d), below.
 *
 * The same out[i] = sum_j in[i - r + j] mask[j] (gk/conv.h) computed as a
 * product of spectra: with L = gk_conv_fft_length(n, width) >= n + width - 1
 * (so the circular convolution of the zero-padded arrays is the linear
 * one), y = IDFT(DFT(in padded to L) .* DFT(mask reversed, padded to L)) / L
 * is the full linear convolution of in with the reversed mask, and
 * out[i] = y[i + width - 1 - r]. Per call: in is copied into a buffer of L
 * floats and the rest zeroed, the reversed mask written into another with
 * zeros after it, both transformed (cufftExecR2C, in place), the L/2 + 1
 * complex products scaled by 1/L, transformed back (cufftExecC2R, in
 * place), and out gathered from y. O(L log L) work for any width, against
 * the direct kernels' O(n width). The plans and the two buffers of
 * L + 2 floats are made once, by gk_cufft_conv_create, outside any timed
 * call. Its error bound is gk_conv_fft_tolerance (conv_ref.h).
 */
#ifndef GK_CUFFT_CONV_H
#define GK_CUFFT_CONV_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "gk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gk_cufft_conv gk_cufft_conv;

/* Plans (cufftMakePlanMany64, R2C and C2R of length L) and allocates the
 * buffers for n >= 1 outputs and a mask of `width` taps. *plan is NULL on
 * failure. */
gk_status gk_cufft_conv_create(gk_cufft_conv **plan, size_t n, size_t width);

/* out[0..n) = in (*) mask on `stream`, for the n and width of the plan; in,
 * mask and out are device pointers, 4-byte aligned. */
gk_status gk_cufft_conv_run(gk_cufft_conv *plan, const float *in, const float *mask, float *out, cudaStream_t stream);

/* The transform length L of the plan. */
size_t gk_cufft_conv_length(const gk_cufft_conv *plan);

void gk_cufft_conv_destroy(gk_cufft_conv *plan); /* NULL is fine */

/* ---- 2D: the reference of gk_conv2d ----------------------------------------
 *
 * out[y][x] = sum_{a,b} mask[a][b] in[y - ry + a][x - rx + b], ry =
 * mask_rows / 2, rx = mask_cols / 2, zero ghost cells (gk/conv.h), computed
 * as a product of 2D spectra. The transform is Ny x Nx with
 * Ny = gk_conv_fft_length(rows, mask_rows) >= rows + mask_rows - 1 and
 * Nx = gk_conv_fft_length(cols, mask_cols) >= cols + mask_cols - 1 (even
 * 2^a 3^b 5^c 7^d, conv_ref.h), so that the circular convolution on the
 * Ny x Nx torus of the zero-padded arrays is the linear one. With the mask
 * reversed in both axes, h[p][q] = mask[mask_rows - 1 - p][mask_cols - 1 - q],
 * Y = IDFT(DFT(x) .* DFT(h)) / (Ny Nx) is the full linear convolution of the
 * image with the reversed mask, which is the cross-correlation with the mask
 * shifted by (mask_rows - 1, mask_cols - 1):
 * out[y][x] = Y[y + mask_rows - 1 - ry][x + mask_cols - 1 - rx].
 *
 * What one call (gk_cufft_conv2d_run) queues on its stream, all of it timed
 * by the bench (case cufft2d):
 *   1. one kernel writes both padded real arrays, x (the image, read with
 *      its row stride, zeros around it) and h (the reversed mask, zeros
 *      around it), each Ny rows of P = 2 (Nx / 2 + 1) floats, the layout of
 *      an in-place R2C transform;
 *   2. cufftExecR2C of x and of h, in place;
 *   3. the Ny (Nx / 2 + 1) complex products, scaled by 1 / (Ny Nx);
 *   4. cufftExecC2R, in place;
 *   5. one kernel copies the rows x cols window of Y into out with its row
 *      stride (the elements between cols and the stride are not written).
 * The mask's spectrum is computed in every call, not kept from one call to
 * the next: the call takes the same inputs as gk_conv2d, and its time is
 * that of a convolution with a mask it has not seen. A caller whose mask
 * never changes could keep DFT(h) and save one of the three transforms and
 * half of step 1's writes. Made once, outside any timed call, by
 * gk_cufft_conv2d_create: the two plans (cufftMakePlanMany64, rank 2, R2C
 * and C2R in fp32, the padded layout given explicitly) and the two buffers
 * of Ny P floats. O(Ny Nx log(Ny Nx)) work whatever the mask, against the
 * direct kernels' O(rows cols k). Its error bound is
 * gk_conv_fft_tolerance(Ny Nx, ||in||_2, ||mask||_1) (conv_ref.h, where the
 * derivation is carried over to 2D). A plan is for one call at a time. */

typedef struct gk_cufft_conv2d gk_cufft_conv2d;

/* Plans and allocates for rows x cols images (rows, cols >= 1) and a
 * mask_rows x mask_cols mask (>= 1 each). GK_ERROR_UNSUPPORTED when the
 * padded buffers or cuFFT's work areas do not fit in device memory (nothing
 * is left allocated, and no CUDA error is left pending). *plan is NULL on
 * failure. */
gk_status gk_cufft_conv2d_create(gk_cufft_conv2d **plan, size_t rows, size_t cols, size_t mask_rows,
                                 size_t mask_cols);

/* out = in (*) mask on `stream`, as gk_conv2d computes it, for the sizes of
 * the plan: in[p][q] = in[p * in_stride + q], out[y][x] = out[y *
 * out_stride + x], strides >= cols; the mask dense, mask_rows x mask_cols,
 * row-major. Device pointers, 4-byte aligned; out must not overlap in or
 * mask. Only queues work (no host wait). */
gk_status gk_cufft_conv2d_run(gk_cufft_conv2d *plan, const float *in, size_t in_stride, const float *mask, float *out,
                              size_t out_stride, cudaStream_t stream);

/* The transform's size Ny x Nx (either pointer may be NULL). */
void gk_cufft_conv2d_size(const gk_cufft_conv2d *plan, size_t *fft_rows, size_t *fft_cols);

void gk_cufft_conv2d_destroy(gk_cufft_conv2d *plan); /* NULL is fine */

#ifdef __cplusplus
}
#endif

#endif /* GK_CUFFT_CONV_H */
