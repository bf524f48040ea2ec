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
 * gk_gemm_tolerance: how far an fp32, TF32, BF16 or FP16 result may be from
 * the exact one (see the derivation there); gk_gemm_tolerance_ex the same
 * with an epilogue (bias, ReLU, GELU) applied before the final rounding.
 *
 * gk_gemm_ref_ex: the reference of one product of gk_gemm_ex (transposed
 * operands, the epilogue), with gk_gemm_epilogue_ref the epilogue in float64.
 *
 * BF16 (gk_gemm_bf16): the tests and the bench hold bf16 data as floats that
 * are exactly bf16 numbers (gk_round_to_bf16), so gk_gemm_ref is the BF16
 * CPU reference as it stands (its float64 sums of exact products), and
 * convert to and from the 16-bit patterns the GPU reads with gk_bf16_bits /
 * gk_bf16_value. gk_cublas_gemm_bf16 is cuBLAS in the same precision (bf16
 * in and out, fp32 compute); gk_gemm_check_bf16 checks a bf16 C.
 *
 * FP16 (gk_gemm_ex with GK_GEMM_TYPE_F16) likewise: data held as floats
 * that are exactly IEEE half numbers (gk_round_to_fp16), converted with
 * gk_fp16_bits / gk_fp16_value (plain C, no CUDA header), and a 16-bit C of
 * either type checked with gk_gemm_check16.
 *
 * FP8 (gk_gemm_ex with e4m3 and e5m2 inputs, variant 18): the tests hold
 * the operands as the bytes the GPU reads, made from random floats with
 * gk_fp8_bits (round to nearest even, saturating, as the GPU's
 * __nv_cvt_float_to_fp8 with __NV_SATFINITE) and read with gk_fp8_value
 * (exact); gk_gemm_fp8_ref is the float64 reference of a whole call (every
 * product of the batch, the scales, beta C, the epilogue), and
 * gk_gemm_fp8_tolerance the bound derived for it (see there).
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

/* The reference of one product of gk_gemm_ex (gk/gemm.h), in float64:
 *
 *   ref[i*n + j] = epi(alpha * sum_p op(A)_ip op(B)_pj + beta * c_ij + bias_j)
 *
 * with the operands as gk_gemm_ex stores them (row-major): op_a = 0 (N): A is
 * m x k, op(A)_ip = a[i*lda + p]; op_a = 1 (T): A is k x m, op(A)_ip =
 * a[p*lda + i]; op_b = 0 (N): B is k x n, op(B)_pj = b[p*ldb + j]; op_b = 1
 * (T): B is n x k, op(B)_pj = b[j*ldb + p]. c is read only when beta != 0;
 * bias (n values) only when epilogue != GK_GEMM_EPILOGUE_NONE. epi is
 * gk_gemm_epilogue_ref, applied to the float64 value. mag and rms are the
 * measures of the value before the epilogue, as gk_gemm_ref gives them, with
 * the bias counted in mag: mag = |alpha| sum_p |op(A)_ip op(B)_pj| + |beta
 * c_ij| + |bias_j|, rms = |alpha| sqrt(sum_p (op(A)_ip op(B)_pj)^2); the
 * tolerance (gk_gemm_tolerance_ex) takes the epilogue into account. Dense
 * outputs (leading dimension n). */
void gk_gemm_ref_ex(int op_a, int op_b, size_t m, size_t n, size_t k, double alpha, const float *a, size_t lda,
                    const float *b, size_t ldb, double beta, const float *c, size_t ldc, int epilogue,
                    const float *bias, double *ref, double *mag, double *rms);

/* The epilogue of gk_gemm_ex on an exact value x (the bias already added):
 * NONE and BIAS: x; BIAS_RELU: max(x, 0); BIAS_GELU: the tanh form
 * 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))), in float64. */
double gk_gemm_epilogue_ref(int epilogue, double x);

/* Unit roundoff of TF32 with round to nearest: 10 explicit mantissa bits. */
#define GK_TF32_UNIT_ROUNDOFF 4.8828125e-04 /* 2^-11 */
/* Unit roundoff of bfloat16 with round to nearest: 7 explicit mantissa bits. */
#define GK_BF16_UNIT_ROUNDOFF 3.90625e-03 /* 2^-8 */
/* Unit roundoff of IEEE half with round to nearest: 10 explicit mantissa bits
 * (for normal numbers; see gk_gemm_tolerance for the subnormal ones). */
#define GK_FP16_UNIT_ROUNDOFF 4.8828125e-04 /* 2^-11 */
/* Largest |gelu_tanh'(x)| (see gk_gemm_tolerance_ex), rounded up. */
#define GK_GELU_LIPSCHITZ 1.13
/* Relative error of the kernels' GELU value before the final rounding
 * (x / (1 + 2^p) on the SFU's ex2.approx and rcp.approx), as gk/gemm.h
 * states it and gemm/kernels/common.cuh derives it. */
#define GK_GELU_REL_ERROR 1.52587890625e-05 /* 2^-16 */

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
 * both = 1 doubles it, as above.
 *
 * FP16 (IEEE half in and out, gk_gemm_ex's GK_GEMM_TYPE_F16): as BF16 with
 * u_fp16 = 2^-11 for the final rounding. A product of two half numbers (11
 * significant bits each, exponents from 2^-24 to 2^15) has at most 22
 * significant bits and lies between 2^-48 and 2^32: exact in fp32. Half
 * has a narrow exponent range, so the final rounding is also off by up to
 * half the spacing of its subnormals (2^-24 below 2^-14) in absolute terms:
 *
 *   tol = t + u_fp16 * (|ref| + t) + 2^-25
 *
 * (for fp32 and bf16 outputs, whose subnormals reach 2^-149 and 2^-133,
 * that term is negligible beside t whenever mag > 0, and is left out; with
 * mag = 0 the exact value is 0 and is computed exactly).
 *
 * All of the above is gk_gemm_tolerance_ex with GK_GEMM_EPILOGUE_NONE, and
 * the fp32 and TF32 formula is read there as t_32 + u32 * (|ref| + t_32),
 * t_32 = lambda * (u_p * rms + u32 * sqrt(k + 2) * mag) + (k + 2) * u64 * mag
 * (the u32 * t_32 it adds to the form above is a factor 1 + 2^-24). */
double gk_gemm_tolerance(gk_gemm_precision precision, size_t k, double mag, double rms, double ref, int both);

/* Tolerance of one element of gk_gemm_ex's C with an epilogue, against
 * ref = epi(x), x the exact value alpha op(A) op(B) + beta C + bias (mag and
 * rms as gk_gemm_ref_ex gives them: mag counts |bias|, so mag >= |x|).
 * Let t be the error of the fp32 value v = alpha * sum + beta * c before the
 * bias, as above (t_32 for fp32 and TF32, t for BF16 and FP16). Then:
 *
 * - BIAS: x~ = fl32(v + bias) is off by at most t + u32 |v + bias| <= t +
 *   u32 (|x| + t) <= t_x := t + u32 (mag + t) (one more fp32 rounding).
 * - BIAS_RELU: max(x~, 0). ReLU is 1-Lipschitz (and exact in fp32), so the
 *   error stays within t_x: t_e = t_x.
 * - BIAS_GELU: gelu(x~) differs from gelu(x) by at most L t_x, L = sup
 *   |gelu'| over the reals. gelu'(x) = 0.5 (1 + tanh(s)) + 0.5 x (1 -
 *   tanh^2(s)) sqrt(2 / pi) (1 + 3 * 0.044715 x^2), s = sqrt(2 / pi) (x +
 *   0.044715 x^3); since gelu(x) - gelu(-x) = x, gelu'(x) + gelu'(-x) = 1,
 *   so the largest |gelu'| is max gelu' = 1 - min gelu'. Evaluated in
 *   float64 on a grid of step 1e-5 over [-20, 20]: max 1.128993 at |x| =
 *   1.4185 (min -0.128993 at the same |x|; gelu'' is below 2 in magnitude,
 *   so the grid misses the true extremum by under 1e-10); beyond |x| = 20,
 *   tanh(s) is within 1e-300 of +-1 and gelu' within that of 0 or 1. L =
 *   GK_GELU_LIPSCHITZ = 1.13 bounds it. The kernel evaluates gelu(x~) with a
 *   relative error of at most GK_GELU_REL_ERROR = 2^-16 (gk/gemm.h), and
 *   |gelu(x~)| <= |gelu(x)| + L t_x = |ref| + L t_x, so
 *     t_e = L t_x + 2^-16 (|ref| + L t_x) + 2^-100,
 *   the last term for where fp32 underflows: when 1 + exp(...) passes
 *   2^126 the fast division returns 0 (a relative error of 1), and there
 *   |gelu(x~)| = |x~| / (1 + exp(...)) < 2^-100 for any |x~| < 2^26.
 * - NONE: t_e = t (no bias: x~ = v).
 * Then the one rounding to the output type, u_out = u32, u_bf16 or u_fp16:
 *
 *   tol = t_e + u_out * (|ref| + t_e)   (+ 2^-25 for FP16, as above)
 *
 * both = 1 doubles it, as above. */
double gk_gemm_tolerance_ex(gk_gemm_precision precision, int epilogue, size_t k, double mag, double rms, double ref,
                            int both);

/* Compare got[i*ldg + j] (m x n) with ref (dense m x n) at the tolerance of
 * `precision` from mag and rms (both: see above). NaN and Inf always fail.
 * Prints the first mismatches with their (row, column) to `log`; returns how
 * many. */
size_t gk_gemm_check(const float *got, size_t ldg, const double *ref, const double *mag, const double *rms,
                     size_t m, size_t n, size_t k, gk_gemm_precision precision, int both, const char *label,
                     FILE *log);

/* As gk_gemm_check, for a C that went through `epilogue` (ref, mag and rms
 * from gk_gemm_ref_ex; the tolerance of gk_gemm_tolerance_ex). */
size_t gk_gemm_check_ex(const float *got, size_t ldg, const double *ref, const double *mag, const double *rms,
                        size_t m, size_t n, size_t k, gk_gemm_precision precision, int epilogue, int both,
                        const char *label, FILE *log);

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

/* ---- FP16 ----------------------------------------------------------------- */
/* The IEEE binary16 bit pattern nearest to x (round to nearest even,
 * subnormal halves included; a finite x at or past 65520 rounds to +-Inf;
 * NaN stays a (quiet) NaN, +-Inf stays +-Inf), and the float a pattern
 * stands for (exact). */
unsigned short gk_fp16_bits(float x);
float gk_fp16_value(unsigned short bits);
/* x[i] = the half number nearest x[i], kept as a float (exact). */
void gk_round_to_fp16(float *x, size_t n);

/* As gk_gemm_check_ex, with got[i*ldg + j] the bit patterns of a 16-bit C:
 * bf16 for precision GK_GEMM_BF16, IEEE half for GK_GEMM_FP16 (any other
 * precision: every element counts as a mismatch). */
size_t gk_gemm_check16(const unsigned short *got, size_t ldg, const double *ref, const double *mag,
                       const double *rms, size_t m, size_t n, size_t k, gk_gemm_precision precision, int epilogue,
                       int both, const char *label, FILE *log);

/* Row-major C = alpha*A*B + beta*C through cublasGemmEx with A, B and C in
 * bf16 (CUDA_R_16BF) and compute type CUBLAS_COMPUTE_32F (fp32 sums). */
cublasStatus_t gk_cublas_gemm_bf16(cublasHandle_t h, size_t m, size_t n, size_t k, float alpha, const void *a,
                                   size_t lda, const void *b, size_t ldb, float beta, void *c, size_t ldc);

/* ---- FP8 ------------------------------------------------------------------ */
/* Largest finite values: e4m3 (1 sign, 4 exponent bits with bias 7, 3
 * mantissa bits; no infinity, 0x7f and 0xff are NaN) and e5m2 (5 exponent
 * bits with bias 15, 2 mantissa bits; IEEE-like: exponent 31 is infinity
 * with mantissa 0, NaN otherwise). */
#define GK_E4M3_MAX 448.0
#define GK_E5M2_MAX 57344.0

/* The value of an FP8 byte of `type` (GK_GEMM_TYPE_E4M3 or E5M2; any other
 * type gives NaN), exact: e4m3 (-1)^s 2^(e-7) (1 + m/8) for e = 1..15
 * (except e = 15, m = 7: NaN), (-1)^s m 2^-9 for e = 0; e5m2 (-1)^s
 * 2^(e-15) (1 + m/4) for e = 1..30, (-1)^s m 2^-16 for e = 0, +-infinity
 * for e = 31, m = 0, NaN for e = 31, m != 0. */
double gk_fp8_value(gk_gemm_type type, unsigned char bits);

/* The FP8 byte of `type` for x, as __nv_cvt_float_to_fp8(x, __NV_SATFINITE,
 * type) gives it (<cuda_fp8.h>; on the GPU the cvt.rn.satfinite
 * instruction): round to nearest, ties to the even mantissa (the sign kept,
 * so a negative value that rounds to zero is 0x80); a magnitude above the
 * largest finite (448, 57344), infinities included, becomes that largest
 * finite with its sign (0x7e / 0xfe for e4m3, 0x7b / 0xfb for e5m2); NaN
 * becomes 0x7f, a NaN of either type (the GPU may give another NaN: compare
 * NaN by value). Any other type gives 0. */
unsigned char gk_fp8_bits(gk_gemm_type type, float x);

/* The float64 reference of one FP8 call of gk_gemm_ex (gk/gemm.h, "FP8"):
 *
 *   ref = epi(alpha sa sb ra[i] cb[j] sum_p op(A_z)_ip op(B_z)_pj + beta C_z(i, j) + bias[j])
 *
 * for every product z < batch, stored dense: element (z, i, j) at
 * ref[(z m + i) n + j]. The description is read as gk_gemm_ex reads it:
 * type_a, type_b (E4M3 or E5M2), op_a, op_b, m, n, k, lda, ldb, ldc (0: the
 * dense one of the stored layout), alpha, beta, batch, stride_a, stride_b,
 * stride_c (read when batch > 1; 0 broadcasts A or B), epilogue; its
 * pointers (device addresses) are not read. The data are host copies laid
 * out as on the device: a and b the FP8 bytes (A_z at a + z stride_a,
 * element (r, s) of a stored matrix at r ld + s), c C's values as floats (C_z
 * at c + z stride_c; read only when beta != 0, so NaN there is harmless with
 * beta = 0), bias n floats (read only with an epilogue), scale_a and
 * scale_b the per-tensor scales (1 for none), scale_a_rows m floats and
 * scale_b_cols n floats (NULL: 1), shared by every product as the bias is.
 * Alongside, for the tolerance, per element:
 *   sab = |alpha sa sb ra[i] cb[j]| sum_p |op(A_z)_ip op(B_z)_pj|
 *   mag = sab + |beta C_z(i, j)| + |bias[j]|   (as gk_gemm_ref_ex's mag)
 * Each product of two FP8 numbers is exact in float64 and the sums are
 * float64 (their rounding is in the tolerance). An FP8 NaN (or an e5m2
 * infinity) in a used row or column propagates to ref, sab and mag as IEEE
 * arithmetic does. Returns 0, or -1 (nothing written) when the float64
 * copies of the operands (m k + n k doubles) cannot be allocated. */
int gk_gemm_fp8_ref(const gk_gemm_desc *d, const unsigned char *a, const unsigned char *b, const float *c,
                    const float *bias, double scale_a, double scale_b, const float *scale_a_rows,
                    const float *scale_b_cols, double *ref, double *sab, double *mag);

#define GK_FP8_ACCUM_UNIT 1.220703125e-04 /* 2^-13 */
#define GK_FP8_PROMOTE_K 128

/* How far the sum of k FP8 products may be from the exact one, in units of
 * S = sum_p |a_ip b_pj| (the sum of magnitudes): |error| <= bound * S.
 *
 * - Each product of two FP8 numbers (at most 4 + 4 significant bits,
 *   magnitudes between 2^-25 and 448 x 57344 < 2^25) is exact in fp32:
 *   the products add no error.
 * - The tensor cores add the products into their accumulator with a
 *   narrower adder than fp32's. Assumed here: each product is aligned to
 *   the accumulator's magnitude and keeps at least 13 fractional bits
 *   relative to the larger of the running sum and itself, so each product
 *   is off by at most u = 2^-13 times that larger magnitude. (The
 *   DeepSeek-V3 report, arXiv:2412.19437, section 3.3.2, finds about 14
 *   bits kept on H800; 2^-13 allows one bit less. A model that charged u
 *   once per k32 step instead of once per product is refuted on the H100:
 *   e4m3 inputs of one sign, k = 4096, fast_accum = 1 were off by 0.041 S,
 *   above its 0.016 S (gemm/tuning/fp8-h100/probes.txt). This is an
 *   assumption about the hardware, not a documented property: the GPU
 *   test's --accuracy run measures the error and prints its ratio to this
 *   bound.) Both magnitudes are at most S + E_{t-1} (E_{t-1} the error so
 *   far), so E_t <= E_{t-1} + u (S + E_{t-1}), which gives E_T <= ((1 +
 *   u)^T - 1) S after T products (about T u S while T u is small).
 * - fast_accum = 1: the whole sum stays in the accumulator, T = k.
 * - fast_accum = 0: the accumulator restarts from zero every 128 k (at most
 *   128 products: each chunk off by ((1 + u)^128 - 1) times its own
 *   magnitudes, together at most e_tc = ((1 + u)^min(k, 128) - 1) S), and
 *   the chunk sums are added in fp32: ceil(k / 128) additions, each off by
 *   at most u32 = 2^-24 of the running sum, which is at most S + e_tc:
 *   bound = e_tc + ((1 + u32)^ceil(k / 128) - 1) (1 + e_tc).
 * These are worst-case bounds, linear in k, not probabilistic ones as
 * gk_gemm_tolerance's: the reduced-precision adder may truncate (always
 * towards zero) rather than round, so its errors need not cancel. For
 * fast_accum = 0 the bound is about 0.016 S from k = 128 up; for
 * fast_accum = 1 it is k u: 0.5 S at k = 4096, so a wrong fast_accum = 1
 * result at large k is caught only when it is off by more than that (the
 * --accuracy run gives what the hardware does). k = 0: 0. */
double gk_gemm_fp8_accum_bound(int fast_accum, size_t k);

/* The tolerance of one element of an FP8 call against ref (sab and mag as
 * gk_gemm_fp8_ref gives them, k the depth of the sum), before the final
 * rounding to C's type: the error of the fp32 value D~ the kernel rounds
 * (and whose |D~| the amax takes), |D~ - ref| <= te:
 *
 *   t1 = gk_gemm_fp8_accum_bound(fast_accum, k) * sab
 *        the accumulator (the scales multiply its error too: sab is S
 *        times |alpha sa sb ra cb|)
 *   t2 = ((1 + u32)^5 - 1) (sab + t1)
 *        the scale in fp32: alpha sa sb, times ra[i], times cb[j], times
 *        the sum: at most 5 roundings of a product whatever their order,
 *        on a value within sab + t1 (also when the scales are applied to
 *        each 128-k chunk before it is added: the same roundings per
 *        chunk, on chunks whose magnitudes add up to sab + t1)
 *   t3 = u32 mag                    beta C rounded in fp32 (|beta C| <= mag)
 *   t  = t1 + t2 + t3 + u32 (mag + t1 + t2 + t3) + (k + 2) u64 mag
 *        the addition of beta C (one rounding of a value within mag + t1
 *        + t2 + t3), and the float64 reference's own rounding (as
 *        gk_gemm_tolerance's)
 * then the epilogue as gk_gemm_tolerance_ex takes it (see there): with a
 * bias, t_x = t + u32 (mag + t) (the bias added in fp32); BIAS and
 * BIAS_RELU: te = t_x (ReLU is 1-Lipschitz); BIAS_GELU: te = L t_x + 2^-16
 * (|ref| + L t_x) + 2^-100 (L = GK_GELU_LIPSCHITZ, the kernel's GELU within
 * GK_GELU_REL_ERROR); NONE: te = t. FMA in place of a multiply and an add
 * only removes roundings. */
double gk_gemm_fp8_tolerance_pre(int epilogue, int fast_accum, size_t k, double sab, double mag, double ref);

/* The tolerance of one element of an FP8 call's C of type c_type (F32,
 * BF16 or F16): te (above) and the one rounding of D~ to C's type, off by
 * at most u_out |D~| <= u_out (|ref| + te), u_out = 2^-24 (f32), 2^-8
 * (bf16: 8 significant bits) or 2^-11 (f16: 11), plus 2^-25 for f16 (half
 * the spacing of its subnormals, below 2^-14):
 *
 *   tol = te + u_out (|ref| + te)   (+ 2^-25 for F16)
 *
 * An F16 value whose magnitude rounds to 65520 or more is stored as
 * +-infinity (round to nearest even, as __float2half_rn): the check must
 * expect infinity where |ref| - te >= 65520, and may see either where the
 * interval [|ref| - te, |ref| + te] straddles it. */
double gk_gemm_fp8_tolerance(gk_gemm_type c_type, int epilogue, int fast_accum, size_t k, double sab, double mag,
                             double ref);

#ifdef __cplusplus
}
#endif

#endif /* GK_GEMM_REF_H */
