/* gemm_ref.h: references for the gemm module (tests and bench only).
 *
 * gk_gemm_ref: C = alpha*A*B + beta*C in float64 on the CPU, row-major, with
 * two measures of each element's size alongside, from which its tolerance is
 * derived: mag = |alpha| sum_p |a_ip b_pj| + |beta c_ij|, and
 * rms = |alpha| sqrt(sum_p (a_ip b_pj)^2).
 *
 * gk_cublas_gemm: the same product through cuBLAS (cublasGemmEx on row-major
 * data: C^T = B^T A^T in cuBLAS's column-major terms), with compute type
 * CUBLAS_COMPUTE_32F (pure fp32: never TF32, whatever the handle's math mode)
 * or CUBLAS_COMPUTE_32F_FAST_TF32. Used for the large shapes, where the CPU
 * reference would take minutes, and as the bench's reference.
 *
 * gk_gemm_tolerance: how far an fp32, TF32 or BF16 result may be from the
 * exact one (see the derivation there).
 *
 * BF16 (gk_gemm_bf16): the tests and the bench hold bf16 data as floats that
 * are exactly bf16 numbers (gk_round_to_bf16), so gk_gemm_ref is the BF16
 * CPU reference as it stands (its float64 sums of exact products), and
 * convert to and from the 16-bit patterns the GPU reads with gk_bf16_bits /
 * gk_bf16_value. gk_cublas_gemm_bf16 is cuBLAS in the same precision (bf16
 * in and out, fp32 compute); gk_gemm_check_bf16 checks a bf16 C.
 */
#ifndef GK_GEMM_REF_H
#define GK_GEMM_REF_H

#include <stddef.h>
#include <stdio.h>

#include <cublas_v2.h>

#include "gk/gemm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ref[i*n + j] = alpha * sum_p a_ip b_pj + beta * c_ij (c not read when
 * beta == 0), mag[i*n + j] = |alpha| sum_p |a_ip b_pj| + |beta c_ij|,
 * rms[i*n + j] = |alpha| sqrt(sum_p (a_ip b_pj)^2). Dense outputs (leading
 * dimension n); inputs with their own ld. */
void gk_gemm_ref(size_t m, size_t n, size_t k, double alpha, const float *a, size_t lda, const float *b,
                 size_t ldb, double beta, const float *c, size_t ldc, double *ref, double *mag, double *rms);

/* Unit roundoff of TF32 with round to nearest: 10 explicit mantissa bits. */
#define GK_TF32_UNIT_ROUNDOFF 4.8828125e-04 /* 2^-11 */
/* Unit roundoff of bfloat16 with round to nearest: 7 explicit mantissa bits. */
#define GK_BF16_UNIT_ROUNDOFF 3.90625e-03 /* 2^-8 */

/* Tolerance of one element of C computed with k products in `precision`,
 * against the exact value `ref` (mag and rms as gk_gemm_ref gives them):
 *
 *   tol = lambda * (u_p * rms + u32 * sqrt(k + 2) * mag) + u32 * |ref| + (k + 2) * u64 * mag
 *
 * Two kinds of rounding error, each bounded with probability 1 - O(e^-50)
 * for lambda = GK_SUM_LAMBDA = 10:
 * - The products: term p is off by at most u_p |a_ip b_pj|, independently of
 *   the others and with mean zero (round to nearest). By Hoeffding's
 *   inequality their sum exceeds lambda * u_p * sqrt(sum_p (a_ip b_pj)^2)
 *   with probability below 2 exp(-lambda^2 / 2). u_p = 2 * 2^-11 for TF32
 *   (both operands rounded to TF32 first), u32 = 2^-24 for fp32 (the product
 *   rounded, where it is not fused into the add).
 * - The k additions in fp32 (and alpha's and beta's): the probabilistic bound
 *   of Higham and Mary (SIAM J. Sci. Comput. 41(5), 2019), lambda *
 *   sqrt(k + 2) * u32 * mag, whatever the order of the additions.
 * Then rounding the result to float (u32 |ref|) and the float64 reference's
 * own error. For random data sqrt(sum (ab)^2) is about sum |ab| / sqrt(k), so
 * TF32's tolerance grows like sqrt(k), as its real error does; a bound in
 * sum |ab| alone would grow like k and, past k of a few thousand, exceed |C|
 * itself (a zero result would pass). Compared with another GPU result
 * (cuBLAS) instead of the exact one, each side may be off by its own tol:
 * pass both = 1 to double it.
 *
 * BF16 (A, B and C exact bf16 numbers, C rounded to bf16 once at the end):
 *
 *   t = lambda * (u32 * rms + u32 * sqrt(k + 2) * mag) + (k + 2) * u64 * mag
 *   tol = t + u_bf16 * (|ref| + t)
 *
 * A product of two bf16 numbers (8 significant bits each) has at most 16
 * and is exact in fp32, so the products contribute nothing (the u32 * rms
 * term is kept only as a margin for a product rounded where it is not fused
 * into the add); the k fp32 additions and alpha's and beta's are Higham and
 * Mary's lambda * sqrt(k + 2) * u32 * mag as above. The fp32 value x so
 * formed, within t of ref, is rounded to bf16: off by at most u_bf16 * |x|
 * <= u_bf16 * (|ref| + t), u_bf16 = 2^-8. That last term dominates: for
 * k = 4096 and inputs uniform on [-1, 1] (|C| about rms about 21, mag about
 * 1024) it is 0.083 against t = 0.039, still 250 times smaller than |C|.
 * both = 1 doubles it, as above. */
double gk_gemm_tolerance(gk_gemm_precision precision, size_t k, double mag, double rms, double ref, int both);

/* Compare got[i*ldg + j] (m x n) with ref (dense m x n) at the tolerance of
 * `precision` from mag and rms (both: see above). NaN and Inf always fail.
 * Prints the first mismatches with their (row, column) to `log`; returns how
 * many. */
size_t gk_gemm_check(const float *got, size_t ldg, const double *ref, const double *mag, const double *rms,
                     size_t m, size_t n, size_t k, gk_gemm_precision precision, int both, const char *label,
                     FILE *log);

/* Row-major C = alpha*A*B + beta*C through cublasGemmEx (see above). */
cublasStatus_t gk_cublas_gemm(cublasHandle_t h, gk_gemm_precision precision, size_t m, size_t n, size_t k,
                              float alpha, const float *a, size_t lda, const float *b, size_t ldb, float beta,
                              float *c, size_t ldc);

/* ---- BF16 ----------------------------------------------------------------- */
/* The bf16 bit pattern nearest to x (round to nearest even; NaN stays a NaN,
 * +-Inf stays +-Inf), and the float a pattern stands for (exact). */
unsigned short gk_bf16_bits(float x);
float gk_bf16_value(unsigned short bits);
/* x[i] = the bf16 number nearest x[i], kept as a float (exact). */
void gk_round_to_bf16(float *x, size_t n);

/* As gk_gemm_check, with got[i*ldg + j] the bit patterns of a bf16 C and the
 * tolerance of GK_GEMM_BF16. */
size_t gk_gemm_check_bf16(const unsigned short *got, size_t ldg, const double *ref, const double *mag,
                          const double *rms, size_t m, size_t n, size_t k, int both, const char *label, FILE *log);

/* Row-major C = alpha*A*B + beta*C through cublasGemmEx with A, B and C in
 * bf16 (CUDA_R_16BF) and compute type CUBLAS_COMPUTE_32F (fp32 sums). */
cublasStatus_t gk_cublas_gemm_bf16(cublasHandle_t h, size_t m, size_t n, size_t k, float alpha, const void *a,
                                   size_t lda, const void *b, size_t ldb, float beta, void *c, size_t ldc);

#ifdef __cplusplus
}
#endif

#endif /* GK_GEMM_REF_H */
