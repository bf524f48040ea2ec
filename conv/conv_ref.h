/* conv_ref.h: the CPU reference, the tolerances and the input generators of
 * the conv module (tests and bench only). cuFFT's convolution, the other
 * reference, is in cufft_conv.h.
 *
 * The reference is the definition in gk/conv.h evaluated in double:
 * ref[i] = sum_j in[i - r + j] * mask[j] over the taps that land in [0, n),
 * with mag[i] = sum_j |in[i - r + j] * mask[j]| beside it, from which the
 * tolerance is derived.
 *
 * The tolerance of a variant (elementwise). A variant computes out[i] as a
 * dot product of `width` fp32 terms (the taps that fall on ghost cells are
 * zeros, exactly), with or without fused multiply-adds, in an order of its
 * own (a chain, or partial sums per chunk of taps added at the end). For
 * any such order Higham's bound (Accuracy and Stability of Numerical
 * Algorithms, 2nd ed., section 3.1, eq. (3.5) and Lemma 3.1) gives
 *     |out[i] - exact[i]| <= gamma_width * mag[i],  gamma_k = k u / (1 - k u),
 * u = u32 = 2^-24: each product is rounded at most once and each term takes
 * part in at most width - 1 additions. The inputs are fp32 numbers, so the
 * double reference sees them exactly; its own error is at most
 * gamma_width(u64) * mag[i], below u32 * mag[i] for any width under 2^28.
 * So the test is
 *     |out[i] - ref[i]| <= tol = gamma_(width + 2) * mag[i]
 * (the 2 extra units cover the reference's error and the subtraction in
 * double). It is a worst-case bound, so it grows like width; for width 1023
 * it is 6.1e-5 * mag[i], and a dropped tap of typical size (mag[i] / width)
 * still fails it up to width ~ 4000. Beyond that, and for an exact check at
 * every width, the tests also run the INTEGER data below. NaN and Inf fail
 * whatever the tolerance.
 *
 * Exact data. GK_CONV_DATA_INTEGER draws nonzero integers in [-8, 8] for
 * both the input and the mask: every product is an integer of magnitude
 * <= 64, and every partial sum, in any order, an integer of magnitude <=
 * 64 * width, which fp32 holds exactly while it stays <= 2^24, i.e. for
 * width <= GK_CONV_EXACT_MAX_WIDTH = 2^18. There every variant must give
 * the reference bit for bit: any dropped, repeated or misplaced tap shows.
 *
 * The tolerance of the cuFFT reference (normwise): see
 * gk_conv_fft_tolerance below.
 */
#ifndef GK_CONV_REF_H
#define GK_CONV_REF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gk/conv.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gk_conv_data {
    GK_CONV_DATA_REAL = 0, /* uniform in [-1, 1), zeros redrawn (gk_fill_f32) */
    GK_CONV_DATA_INTEGER   /* nonzero integers in [-8, 8]: exact in fp32 (above) */
} gk_conv_data;

#define GK_CONV_EXACT_MAX_WIDTH ((size_t)1 << 18) /* 64 * 2^18 = 2^24 */

/* n values of `kind` from `seed`. */
void gk_conv_fill(float *x, size_t n, gk_conv_data kind, uint64_t seed);

/* The reference of one output, and its magnitude sum_j |products| in *mag
 * (mag may be NULL). */
double gk_conv_ref_at(const float *in, size_t n, const float *mask, size_t width, size_t i, double *mag);

/* ref[0..n) and mag[0..n) (mag may be NULL). */
void gk_conv_ref(const float *in, size_t n, const float *mask, size_t width, double *ref, double *mag);

/* gamma_(width + 2) * mag: see above. */
double gk_conv_tolerance(size_t width, double mag);

/* Compare got[0..n) with ref: within gk_conv_tolerance(width, mag[i]), or
 * exactly when mag is NULL (INTEGER data). NaN and Inf always fail. Prints
 * the first mismatches with their index to `log`; returns how many. */
size_t gk_conv_check(const float *got, const double *ref, const double *mag, size_t n, size_t width,
                     const char *label, FILE *log);

/* For the bench, where the full reference of n = 2^28 outputs at width 1023
 * would take the CPU minutes: every element of got must be finite; the
 * outputs within width + 32 of either end (where the ghost cells are) and
 * `samples` others drawn from `seed` are compared with the reference within
 * gk_conv_tolerance. Returns the number of failures. */
size_t gk_conv_check_sampled(const float *got, const float *in, size_t n, const float *mask, size_t width,
                             size_t samples, uint64_t seed, const char *label, FILE *log);

/* The transform length of the cuFFT reference: the smallest even number of
 * the form 2^a 3^b 5^c 7^d that is >= n + width - 1 (so that the circular
 * convolution of the zero-padded arrays is the linear one) and >= 2. */
size_t gk_conv_fft_length(size_t n, size_t width);

/* The cuFFT reference's tolerance, on the 2-norm of the whole error vector
 * ||fft_out - exact||_2, for a transform of length L, from ||in||_2 and
 * ||mask||_1:
 *
 *     tol = (3 e_L + 5 u) ||in||_2 ||mask||_1,   e_L = c log2(L) u / (1 - c log2(L) u),  c = 16
 *
 * Derivation, with a = F in and b = F mask (unnormalised DFTs of the padded
 * arrays; ||F x||_2 = sqrt(L) ||x||_2) and y = F^-1 (a .* b) / L:
 * - A radix-2 FFT computed in floating point satisfies
 *   ||computed - exact||_2 <= log2(L) eta ||exact||_2 with
 *   eta = mu + gamma_4 (sqrt(2) + mu) ~ 6.7 u for twiddles accurate to
 *   mu ~ u (Higham, Theorem 24.2). cuFFT mixes radices 2, 3, 5 and 7; a
 *   radix-p stage does the work of log2(p) radix-2 stages with a somewhat
 *   larger error per stage, and c = 16 per log2(L) covers both. So
 *   ||da||_2 <= e_L sqrt(L) ||in||_2, and, since every intermediate of the
 *   mask's transform is a sum of +-twiddle * mask[j] bounded by ||mask||_1,
 *   |db_k| <= e_L ||mask||_1 for every k.
 * - Young's inequality, ||in (*) mask||_2 <= ||in||_2 ||mask||_1, and
 *   |b_k| <= ||mask||_1 carry each error through the product and the
 *   inverse (which multiplies 2-norms by sqrt(L) / L): the forward
 *   transform of in contributes e_L ||in||_2 ||mask||_1, that of the mask
 *   the same, the inverse transform the same again (3 e_L); the complex
 *   products sqrt(2) gamma_2 <= 2.83 u, the scaling by 1/L (rounded, then
 *   multiplied) 2 u, and the float64 reference and second-order terms fit
 *   in the remaining 0.17 u: 5 u in all.
 * Each element's error is at most the 2-norm, so this also bounds every
 * element; the test checks the norm itself, which is what the bound is for.
 * At n = 2^20 and width 4099 tol is about 3e-3 of ||exact||_2, so a result
 * shifted by one place, or a block of outputs lost, fails it. */
double gk_conv_fft_tolerance(size_t L, double in_norm2, double mask_norm1);

/* ||v||_2 and ||v||_1 of float data, in double. */
double gk_conv_norm2(const float *x, size_t n);
double gk_conv_norm1(const float *x, size_t n);

/* The cuFFT reference against the full double reference: every element
 * finite, and ||got - ref||_2 <= tol. Prints the norm, the tolerance and the
 * largest errors with their index to `log` on failure; returns the number of
 * non-finite elements, plus 1 when the norm is above tol. */
size_t gk_conv_check_fft(const float *got, const double *ref, size_t n, double tol, const char *label, FILE *log);

/* The bench's version: every element finite; the outputs near both ends and
 * `samples` others (as gk_conv_check_sampled draws them) each within tol,
 * and the 2-norm of the error estimated from the sampled interior ones,
 * sqrt(n * mean(e_i^2)), within tol. Returns the number of failures. */
size_t gk_conv_check_fft_sampled(const float *got, const float *in, size_t n, const float *mask, size_t width,
                                 double tol, size_t samples, uint64_t seed, const char *label, FILE *log);


/* ---- 2D (gk_conv2d) ---------------------------------------------------------
 *
 * The reference is the definition of gk/conv.h in double over the taps that
 * land inside the image, with mag = sum |products| beside it. A variant
 * computes out[y][x] as a dot product of k = mask_rows x mask_cols fp32
 * terms (the ghost taps are exact zeros) in an order of its own, so the 1D
 * derivation above holds with width = k: |out - ref| <= gamma_(k + 2) mag,
 * gk_conv_tolerance(k, mag). INTEGER data is exact while 64 k <= 2^24. */

/* out[y][x]'s reference; *mag (may be NULL) its magnitude. */
double gk_conv2d_ref_at(const float *in, size_t rows, size_t cols, size_t in_stride, const float *mask,
                        size_t mask_rows, size_t mask_cols, size_t y, size_t x, double *mag);

/* Every output of got (rows x cols, stride got_stride) against the
 * reference, within gk_conv_tolerance(k, mag), or exactly when `exact`
 * (INTEGER data). NaN and Inf fail. Prints the first mismatches with their
 * (row, column); returns how many. */
size_t gk_conv2d_check(const float *got, size_t got_stride, const float *in, size_t rows, size_t cols,
                       size_t in_stride, const float *mask, size_t mask_rows, size_t mask_cols, int exact,
                       const char *label, FILE *log);

/* For the bench: every output finite; the outputs of the first and last
 * row and column at up to `samples` / 4 places each, and `samples` others
 * drawn from `seed`, within the tolerance. Returns the failures. */
size_t gk_conv2d_check_sampled(const float *got, size_t got_stride, const float *in, size_t rows, size_t cols,
                               size_t in_stride, const float *mask, size_t mask_rows, size_t mask_cols,
                               size_t samples, uint64_t seed, const char *label, FILE *log);

/* The cuFFT 2D reference (cufft_conv.h: gk_cufft_conv2d) is checked like the
 * 1D one, normwise, with
 *
 *     tol = gk_conv_fft_tolerance(Ny Nx, ||in||_2, ||mask||_1)
 *         = (3 e_N + 5 u) ||in||_2 ||mask||_1,   e_N = c log2(Ny Nx) u / (1 - c log2(Ny Nx) u),  c = 16,
 *
 * on ||fft_out - exact||_2 over the rows x cols outputs, ||in||_2 over the
 * image's rows x cols elements (gk_conv2d_norm2) and ||mask||_1 over its
 * k = mask_rows x mask_cols taps. The 1D derivation (gk_conv_fft_tolerance
 * above) carries over with L = N = Ny Nx, step by step:
 * - A 2D FFT of Ny x Nx is the length-Nx FFTs of every row, then the
 *   length-Ny FFTs of every column: log2(Nx) + log2(Ny) = log2(N) stages of
 *   butterflies over the whole array, each stage a Kronecker product of one
 *   axis's stage with the identity on the other axis, so a sparse factor of
 *   the kind Higham's Theorem 24.2 bounds (two nonzeros per row, 2-norm
 *   sqrt(2)). So ||computed - exact||_F <= log2(N) eta ||exact||_F, and
 *   with cuFFT's mixed radices the same c = 16 per log2(N) as in 1D.
 * - Parseval: ||F x||_2 = sqrt(N) ||x||_2 for the 2D DFT. Every entry of
 *   the mask's spectrum, and every intermediate of its transform, is a sum
 *   of +-twiddle * mask[a][b] over the taps, bounded by ||mask||_1, so
 *   |b_k| <= ||mask||_1 and |db_k| <= e_N ||mask||_1.
 * - Young's inequality holds for the circular convolution on the Ny x Nx
 *   torus as on the ring of L points (it holds on any finite abelian group):
 *   ||in (*) mask||_2 <= ||in||_2 ||mask||_1. The zero padding keeps it
 *   the linear convolution, and the outputs are a window of it, whose error
 *   norm is at most that of the whole array.
 * So the three transforms contribute 3 e_N and the product, the scaling and
 * the float64 reference 5 u, as in 1D. It is the sharper form of the
 * elementwise "u log2(N) sum|in| sum|mask|" bound (||in||_2 <= ||in||_1),
 * and, being on the norm, it catches a misplaced window: a result shifted
 * by one place has an error norm near sqrt(2) ||exact||_2, against a tol of
 * (3 e_N + 5 u) sqrt(3 k) / 2 of it for uniform data in [-1, 1): about 2e-4
 * for a 3 x 3 mask and 2e-3 for 31 x 31 on the bench's 8192 x 8192 image.
 * Each element's error is at most the norm, so tol bounds every element
 * too. */

/* ||in||_2 in double over a rows x cols image with row stride `stride`. */
double gk_conv2d_norm2(const float *in, size_t rows, size_t cols, size_t stride);

/* The cuFFT 2D reference against the full double reference: every output
 * finite and ||got - ref||_2 <= tol over the rows x cols outputs (got with
 * row stride got_stride). Prints the norm, the tolerance and the largest
 * error with its (row, column) on failure; returns the number of non-finite
 * outputs, plus 1 when the norm is above tol. */
size_t gk_conv2d_check_fft(const float *got, size_t got_stride, const float *in, size_t rows, size_t cols,
                           size_t in_stride, const float *mask, size_t mask_rows, size_t mask_cols, double tol,
                           const char *label, FILE *log);

/* The bench's version: every output finite; the outputs that
 * gk_conv2d_check_sampled looks at (`samples` on the borders and `samples`
 * drawn from `seed`) each within tol, and the 2-norm of the error estimated
 * from the drawn ones, sqrt(rows cols mean(e^2)), within tol. Returns the
 * failures. */
size_t gk_conv2d_check_fft_sampled(const float *got, size_t got_stride, const float *in, size_t rows, size_t cols,
                                   size_t in_stride, const float *mask, size_t mask_rows, size_t mask_cols, double tol,
                                   size_t samples, uint64_t seed, const char *label, FILE *log);

/* ---- Depthwise (gk_conv1d_depthwise) -----------------------------------------
 *
 * The reference: z = bias + sum_j in[t - off + j] mask[j] over the taps
 * inside the row, in double, then act(z) in double (SiLU: z / (1 + exp(-z))),
 * with mag = sum_j |products| + |bias|.
 *
 * The tolerance (elementwise), derived:
 *   - The fp32 sum z^ of the GPU is a dot product of width terms plus the
 *     bias, one more term: width + 1 terms, so |z^ - z| <= gamma_(width+1)
 *     mag; with the double reference's own error (as in 1D) the bound used
 *     is tz = gamma_(width + 3) mag.
 *   - none: tz. ReLU is 1-Lipschitz and exact in fp32: tz.
 *   - SiLU: the GPU computes z^ / (1 + expf(-z^)) with CUDA's expf
 *     (documented maximum error 2 ulp, so a relative error of at most 4u,
 *     u = 2^-24), one rounded add and one IEEE division (u each). Writing
 *     e = exp(-z^)(1 + d1), |d1| <= 4u: 1 + e = (1 + exp(-z^))(1 + d1 e /
 *     (1 + e)) and e / (1 + e) < 1, so the computed value is silu(z^)(1 +
 *     theta) with |theta| <= (1 + 4u)(1 + u)^2 - 1 + O(u^2) < 7u. SiLU's
 *     derivative, sigma(z)(1 + z(1 - sigma(z))), lies in [-0.1, 1.1], so
 *     |silu(z^) - silu(z)| <= 1.1 tz. Together
 *       |y^ - silu(z)| <= 1.1 tz + 7u (|silu(z)| + 1.1 tz)
 *     and, with u more for the double reference's silu,
 *       tol = 1.1 (1 + 7u) tz + 8u |silu(z_ref)| + 2^-120.
 *     The last term covers z^ < -88.7, where expf(-z^) overflows to Inf and
 *     the GPU returns -0 for a true value of magnitude below 89 e^-88.7 <
 *     2^-121. It holds for any z; the tests' data keep |z| small anyway.
 * INTEGER data (and an integer bias) make none and ReLU exact while
 * 64 width + 8 <= 2^24; SiLU is never exact. */

/* The depthwise reference of out[t] of one row (in_row: the row's length
 * inputs; mask_row: its channel's width taps; bias: its channel's bias, 0
 * without one): the value, and in *tol (may be NULL) the tolerance above. */
double gk_conv_dw_ref_at(const float *in_row, size_t length, const float *mask_row, size_t width, int causal,
                         double bias, gk_conv_activation act, size_t t, double *tol);

/* The tolerance above from mag (sum |products| + |bias|) and the reference
 * z_ref (before act) and y_ref (after). */
double gk_conv_dw_tolerance(size_t width, gk_conv_activation act, double mag, double y_ref);

/* Every output of got ((batch x channels) rows of length, stride
 * out_stride) against the reference; `exact`: INTEGER data, none or ReLU.
 * Prints the first mismatches with (row, t); returns how many. */
size_t gk_conv_dw_check(const float *got, size_t out_stride, const float *in, size_t rows, size_t channels,
                        size_t length, size_t in_stride, const float *mask, size_t width, const float *bias,
                        int causal, gk_conv_activation act, int exact, const char *label, FILE *log);

/* For the bench: every output finite, the first and last width + 8 outputs
 * of `samples` / 64 rows and `samples` outputs drawn from `seed` within the
 * tolerance. Returns the failures. */
size_t gk_conv_dw_check_sampled(const float *got, size_t out_stride, const float *in, size_t rows, size_t channels,
                                size_t length, size_t in_stride, const float *mask, size_t width, const float *bias,
                                int causal, gk_conv_activation act, size_t samples, uint64_t seed,
                                const char *label, FILE *log);

#ifdef __cplusplus
}
#endif

#endif /* GK_CONV_REF_H */
