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
 * gk_gemm_tolerance: how far an fp32 or TF32 result may be from the exact one
 * (see the derivation there).
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
 * pass both = 1 to double it. */
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

#ifdef __cplusplus
}
#endif

#endif /* GK_GEMM_REF_H */
