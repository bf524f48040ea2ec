/* cufft_conv.h: 1D convolution through cuFFT, the reference the conv ladder
 * is compared with in the tests and the bench (never used by the library).
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

#ifdef __cplusplus
}
#endif

#endif /* GK_CUFFT_CONV_H */
