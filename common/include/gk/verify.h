/* gk/verify.h: comparing GPU results with references, for tests and the bench.
 *
 * Floats pass when |got - expected| <= tol for each element, with tol derived
 * from the problem (gk_sum_tolerance for a sum); NaN and Inf in `got` always
 * fail, whatever the tolerance. Integers must match exactly. On failure the
 * first GK_VERIFY_SHOW mismatches are written to `log` (if not NULL) with
 * their index, the value got, the value expected and the tolerance. Each
 * function returns the number of mismatching elements (0 = pass).
 */
#ifndef GK_VERIFY_H
#define GK_VERIFY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GK_VERIFY_SHOW 8

/* Unit roundoff of float32 (2^-24) and float64 (2^-53). */
#define GK_F32_UNIT_ROUNDOFF 5.9604644775390625e-08
#define GK_F64_UNIT_ROUNDOFF 1.1102230246251565e-16

/* Tolerance on a float32 sum of n terms whose absolute values add up to
 * sum_abs, compared with a float64 reference `ref`:
 *
 *   tol = lambda * sqrt(n) * u32 * sum_abs      rounding inside the GPU's sum
 *       + u32 * |ref|                           rounding the result to float
 *       + n * u64 * sum_abs                     rounding inside the reference
 *
 * The first term is the probabilistic bound of Higham and Mary (SIAM J. Sci.
 * Comput. 41(5), 2019): whatever the order of the additions (a tree, a
 * grid-stride loop, atomics), the error exceeds lambda*sqrt(n)*u*sum|x| with
 * probability below 2n*exp(-lambda^2/2); lambda = GK_SUM_LAMBDA = 10 makes
 * that below 1e-12 for n up to 2^32. The worst-case bound (n-1)*u*sum|x|
 * exceeds sum|x| itself from n = 2^24 on, so it could not fail; this one can.
 */
#define GK_SUM_LAMBDA 10.0
double gk_sum_tolerance(size_t n, double sum_abs, double ref);

size_t gk_verify_f32(const float *got, const double *expected, const double *tol, size_t n,
                     const char *label, FILE *log);
size_t gk_verify_i32(const int32_t *got, const int32_t *expected, size_t n, const char *label,
                     FILE *log);

#ifdef __cplusplus
}
#endif

#endif /* GK_VERIFY_H */
