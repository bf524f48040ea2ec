/* References for the gemm module: see gemm_ref.h. */
#include "gemm_ref.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gk/verify.h"

/* The product as stored, without an epilogue: gk_gemm_ref_ex's first case
 * (the same sums in the same order). */
void gk_gemm_ref(size_t m, size_t n, size_t k, double alpha, const float *a, size_t lda, const float *b,
                 size_t ldb, double beta, const float *c, size_t ldc, double *ref, double *mag, double *rms)
{
    gk_gemm_ref_ex(0, 0, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, GK_GEMM_EPILOGUE_NONE, NULL, ref, mag, rms);
}

void gk_gemm_ref_ex(int op_a, int op_b, size_t m, size_t n, size_t k, double alpha, const float *a, size_t lda,
                    const float *b, size_t ldb, double beta, const float *c, size_t ldc, int epilogue,
                    const float *bias, double *ref, double *mag, double *rms)
{
    /* op(A)_ip: one load per (i, p) whatever the layout. */
#define GK_OPA(i, p) (double)(op_a ? a[(p) * lda + (i)] : a[(i) * lda + (p)])
    for (size_t i = 0; i < m; ++i) {
        double *r = ref + i * n, *g = mag + i * n, *q = rms + i * n;
        for (size_t j = 0; j < n; ++j) r[j] = g[j] = q[j] = 0.0;
        if (!op_b) {
            /* i-p-j order: the inner loop runs along rows of B, contiguous. */
            for (size_t p = 0; p < k; ++p) {
                double aip = GK_OPA(i, p);
                const float *brow = b + p * ldb;
                for (size_t j = 0; j < n; ++j) {
                    double t = aip * (double)brow[j];
                    r[j] += t;
                    g[j] += fabs(t);
                    q[j] += t * t;
                }
            }
        } else {
            /* B stored n x k: column j of op(B) is row j of B, contiguous;
             * i-j-p order, the three sums in registers. */
            for (size_t j = 0; j < n; ++j) {
                const float *bcol = b + j * ldb;
                double sr = 0.0, sg = 0.0, sq = 0.0;
                for (size_t p = 0; p < k; ++p) {
                    double t = GK_OPA(i, p) * (double)bcol[p];
                    sr += t;
                    sg += fabs(t);
                    sq += t * t;
                }
                r[j] = sr, g[j] = sg, q[j] = sq;
            }
        }
        for (size_t j = 0; j < n; ++j) {
            r[j] *= alpha;
            g[j] *= fabs(alpha);
            q[j] = fabs(alpha) * sqrt(q[j]);
            if (beta != 0.0) {
                double cb = beta * (double)c[i * ldc + j];
                r[j] += cb;
                g[j] += fabs(cb);
            }
            if (epilogue != GK_GEMM_EPILOGUE_NONE) {
                r[j] += (double)bias[j];
                g[j] += fabs((double)bias[j]);
            }
            r[j] = gk_gemm_epilogue_ref(epilogue, r[j]);
        }
    }
#undef GK_OPA
}

double gk_gemm_epilogue_ref(int epilogue, double x)
{
    switch (epilogue) {
    case GK_GEMM_EPILOGUE_BIAS_RELU: return x > 0.0 ? x : 0.0;
    case GK_GEMM_EPILOGUE_BIAS_GELU: {
        const double s = 0.7978845608028654; /* sqrt(2 / pi) */
        return 0.5 * x * (1.0 + tanh(s * (x + 0.044715 * x * x * x)));
    }
    default: return x;
    }
}

double gk_gemm_tolerance_ex(gk_gemm_precision precision, int epilogue, size_t k, double mag, double rms, double ref,
                            int both)
{
    const double u32 = GK_F32_UNIT_ROUNDOFF;
    /* The products: TF32 rounds both operands; fp32 may round the product
     * (kept as a margin for the exact 16-bit products, see gemm_ref.h). */
    double up = precision == GK_GEMM_TF32 ? 2.0 * GK_TF32_UNIT_ROUNDOFF : u32;
    double u_out = precision == GK_GEMM_BF16 ? GK_BF16_UNIT_ROUNDOFF
                   : precision == GK_GEMM_FP16 ? GK_FP16_UNIT_ROUNDOFF
                                               : u32;
    double kk = (double)k + 2.0;
    /* t: the fp32 value before the bias, from the products, the sums and the
     * reference's own rounding. */
    double t = GK_SUM_LAMBDA * (up * rms + u32 * sqrt(kk) * mag) + kk * GK_F64_UNIT_ROUNDOFF * mag;
    double te = t;
    if (epilogue != GK_GEMM_EPILOGUE_NONE) {
        double tx = t + u32 * (mag + t); /* the bias add: one more fp32 rounding */
        te = tx;                         /* BIAS; BIAS_RELU (1-Lipschitz) */
        if (epilogue == GK_GEMM_EPILOGUE_BIAS_GELU) {
            double lt = GK_GELU_LIPSCHITZ * tx;
            te = lt + GK_GELU_REL_ERROR * (fabs(ref) + lt) + 0x1p-100;
        }
    }
    double tol = te + u_out * (fabs(ref) + te);
    if (precision == GK_GEMM_FP16) tol += 0x1p-25; /* half the spacing of half's subnormals */
    return both ? 2.0 * tol : tol;
}

double gk_gemm_tolerance(gk_gemm_precision precision, size_t k, double mag, double rms, double ref, int both)
{
    return gk_gemm_tolerance_ex(precision, GK_GEMM_EPILOGUE_NONE, k, mag, rms, ref, both);
}

/* What a got[] element is. */
enum { GOT_F32, GOT_BF16, GOT_FP16 };

static size_t check_any(const void *got, int kind, size_t ldg, const double *ref, const double *mag,
                        const double *rms, size_t m, size_t n, size_t k, gk_gemm_precision precision, int epilogue,
                        int both, const char *label, FILE *log)
{
    size_t bad = 0;
    for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j) {
            double g = kind == GOT_BF16   ? (double)gk_bf16_value(((const unsigned short *)got)[i * ldg + j])
                       : kind == GOT_FP16 ? (double)gk_fp16_value(((const unsigned short *)got)[i * ldg + j])
                                          : (double)((const float *)got)[i * ldg + j];
            double e = ref[i * n + j];
            double tol = gk_gemm_tolerance_ex(precision, epilogue, k, mag[i * n + j], rms[i * n + j], e, both);
            /* isfinite first: NaN compares false with everything. */
            if (isfinite(g) && fabs(g - e) <= tol) continue;
            if (log != NULL && bad < GK_VERIFY_SHOW)
                fprintf(log, "  %s mismatch at (%zu, %zu): got %.9g expected %.9g (|diff| %.3g > tol %.3g)\n",
                        label ? label : "", i, j, g, e, fabs(g - e), tol);
            ++bad;
        }
    if (bad > GK_VERIFY_SHOW && log != NULL)
        fprintf(log, "  %s: %zu of %zu elements mismatch\n", label ? label : "", bad, m * n);
    return bad;
}

size_t gk_gemm_check(const float *got, size_t ldg, const double *ref, const double *mag, const double *rms,
                     size_t m, size_t n, size_t k, gk_gemm_precision precision, int both, const char *label,
                     FILE *log)
{
    return check_any(got, GOT_F32, ldg, ref, mag, rms, m, n, k, precision, GK_GEMM_EPILOGUE_NONE, both, label, log);
}

size_t gk_gemm_check_ex(const float *got, size_t ldg, const double *ref, const double *mag, const double *rms,
                        size_t m, size_t n, size_t k, gk_gemm_precision precision, int epilogue, int both,
                        const char *label, FILE *log)
{
    return check_any(got, GOT_F32, ldg, ref, mag, rms, m, n, k, precision, epilogue, both, label, log);
}

size_t gk_gemm_check_bf16(const unsigned short *got, size_t ldg, const double *ref, const double *mag,
                          const double *rms, size_t m, size_t n, size_t k, int both, const char *label, FILE *log)
{
    return check_any(got, GOT_BF16, ldg, ref, mag, rms, m, n, k, GK_GEMM_BF16, GK_GEMM_EPILOGUE_NONE, both, label,
                     log);
}

size_t gk_gemm_check16(const unsigned short *got, size_t ldg, const double *ref, const double *mag,
                       const double *rms, size_t m, size_t n, size_t k, gk_gemm_precision precision, int epilogue,
                       int both, const char *label, FILE *log)
{
    if (precision != GK_GEMM_BF16 && precision != GK_GEMM_FP16) {
        if (log != NULL)
            fprintf(log, "  %s: gk_gemm_check16 takes GK_GEMM_BF16 or GK_GEMM_FP16, not %d\n", label ? label : "",
                    (int)precision);
        return m * n;
    }
    return check_any(got, precision == GK_GEMM_BF16 ? GOT_BF16 : GOT_FP16, ldg, ref, mag, rms, m, n, k, precision,
                     epilogue, both, label, log);
}

unsigned short gk_bf16_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((u >> 16) | 0x0040u); /* NaN: keep it quiet */
    /* Round to nearest even on the 16 bits dropped: add 0x7fff plus the kept
     * part's lowest bit, then truncate (a carry into the exponent is right;
     * a finite value past the largest bf16 rounds to Inf, as it should). */
    u += 0x7fffu + ((u >> 16) & 1u);
    return (unsigned short)(u >> 16);
}

float gk_bf16_value(unsigned short bits)
{
    uint32_t u = (uint32_t)bits << 16;
    float x;
    memcpy(&x, &u, 4);
    return x;
}

void gk_round_to_bf16(float *x, size_t n)
{
    for (size_t i = 0; i < n; ++i) x[i] = gk_bf16_value(gk_bf16_bits(x[i]));
}

unsigned short gk_fp16_bits(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    uint32_t sign = (u >> 16) & 0x8000u, a = u & 0x7fffffffu;
    if (a > 0x7f800000u) return (unsigned short)(sign | 0x7e00u | ((a >> 13) & 0x01ffu)); /* NaN: quiet */
    if (a >= 0x38800000u) {
        /* |x| >= 2^-14, a normal half (or Inf): rebias the exponent from 127
         * to 15 (subtract 112 << 23), then round to nearest even on the 13
         * bits dropped as gk_bf16_bits does. A carry into the exponent is
         * right; anything at or past 0x7c00 (65520 and up, Inf) is Inf. */
        uint32_t r = a - 0x38000000u;
        r += 0x0fffu + ((r >> 13) & 1u);
        r >>= 13;
        return (unsigned short)(sign | (r >= 0x7c00u ? 0x7c00u : r));
    }
    /* |x| < 2^-14: a subnormal half, x / 2^-24 rounded to an integer (1024,
     * the smallest normal's pattern, is right too). x = mant * 2^(e - 150)
     * with the implicit bit, so x / 2^-24 = mant >> (126 - e). */
    uint32_t e = a >> 23, mant = (a & 0x7fffffu) | 0x800000u;
    uint32_t s = 126u - e; /* >= 14 here */
    if (s > 24u) return (unsigned short)sign; /* below 2^-25: to zero (2^-25 itself, a tie, is s = 24) */
    uint32_t h = mant >> s, rem = mant & ((1u << s) - 1u), half = 1u << (s - 1u);
    if (rem > half || (rem == half && (h & 1u))) ++h;
    return (unsigned short)(sign | h);
}

float gk_fp16_value(unsigned short bits)
{
    uint32_t sign = (uint32_t)(bits & 0x8000u) << 16, e = (bits >> 10) & 0x1fu, m = bits & 0x3ffu, u;
    if (e == 0) { /* zero or subnormal: m * 2^-24, exact in float */
        float x = (float)m * 5.9604644775390625e-08f;
        return sign ? -x : x;
    }
    if (e == 31) u = sign | 0x7f800000u | (m << 13); /* Inf, NaN */
    else u = sign | ((e + 112u) << 23) | (m << 13);
    float x;
    memcpy(&x, &u, 4);
    return x;
}

void gk_round_to_fp16(float *x, size_t n)
{
    for (size_t i = 0; i < n; ++i) x[i] = gk_fp16_value(gk_fp16_bits(x[i]));
}

cublasStatus_t gk_cublas_gemm(cublasHandle_t h, gk_gemm_precision precision, size_t m, size_t n, size_t k,
                              float alpha, const float *a, size_t lda, const float *b, size_t ldb, float beta,
                              float *c, size_t ldc)
{
    /* Row-major C (m x n) is column-major C^T (n x m) = B^T (n x k) A^T (k x m):
     * cuBLAS sees B with leading dimension ldb as the left operand. */
    cublasComputeType_t ct = precision == GK_GEMM_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &alpha, b, CUDA_R_32F, (int)ldb, a,
                        CUDA_R_32F, (int)lda, &beta, c, CUDA_R_32F, (int)ldc, ct, CUBLAS_GEMM_DEFAULT);
}

cublasStatus_t gk_cublas_gemm_bf16(cublasHandle_t h, size_t m, size_t n, size_t k, float alpha, const void *a,
                                   size_t lda, const void *b, size_t ldb, float beta, void *c, size_t ldc)
{
    /* As gk_cublas_gemm: row-major C = column-major C^T = B^T A^T. */
    return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, (int)n, (int)m, (int)k, &alpha, b, CUDA_R_16BF, (int)ldb, a,
                        CUDA_R_16BF, (int)lda, &beta, c, CUDA_R_16BF, (int)ldc, CUBLAS_COMPUTE_32F,
                        CUBLAS_GEMM_DEFAULT);
}

/* ---- FP8 ------------------------------------------------------------------ */

/* The shape of an FP8 type: mantissa bits, exponent bias, largest finite
 * value and its byte. */
typedef struct fp8_format {
    int mbits, bias;
    double max;
    unsigned char max_bits;
} fp8_format;

static const fp8_format k_e4m3 = {3, 7, GK_E4M3_MAX, 0x7e};
static const fp8_format k_e5m2 = {2, 15, GK_E5M2_MAX, 0x7b};

double gk_fp8_value(gk_gemm_type type, unsigned char bits)
{
    if (type != GK_GEMM_TYPE_E4M3 && type != GK_GEMM_TYPE_E5M2) return NAN;
    const fp8_format *f = type == GK_GEMM_TYPE_E4M3 ? &k_e4m3 : &k_e5m2;
    const int emask = type == GK_GEMM_TYPE_E4M3 ? 15 : 31, mmask = (1 << f->mbits) - 1;
    const int e = (bits >> f->mbits) & emask, m = bits & mmask;
    const double sign = (bits & 0x80) ? -1.0 : 1.0;
    if (type == GK_GEMM_TYPE_E4M3 && e == 15 && m == 7) return NAN; /* e4m3: only S.1111.111 is special */
    if (type == GK_GEMM_TYPE_E5M2 && e == 31) return m == 0 ? sign * INFINITY : NAN;
    /* Subnormal: m 2^(1 - bias - mbits); normal: (2^mbits + m) 2^(e - bias - mbits). */
    if (e == 0) return sign * ldexp((double)m, 1 - f->bias - f->mbits);
    return sign * ldexp((double)((1 << f->mbits) + m), e - f->bias - f->mbits);
}

unsigned char gk_fp8_bits(gk_gemm_type type, float x)
{
    if (type != GK_GEMM_TYPE_E4M3 && type != GK_GEMM_TYPE_E5M2) return 0;
    const fp8_format *f = type == GK_GEMM_TYPE_E4M3 ? &k_e4m3 : &k_e5m2;
    if (isnan(x)) return 0x7f; /* e4m3's NaN, and an e5m2 NaN (exponent 31, mantissa 3) */
    const unsigned char sign = signbit(x) ? 0x80 : 0x00;
    const double v = fabs((double)x);
    /* Beyond the largest finite (infinity included): saturate. Round to
     * nearest would give the largest finite or a value past it (e4m3 has
     * none, e5m2's is infinity); __NV_SATFINITE stores the largest finite
     * for both. */
    if (v > f->max) return (unsigned char)(sign | f->max_bits);
    /* The spacing of the FP8 numbers around v: 2^(E - mbits) for v in
     * [2^E, 2^(E+1)), E no smaller than the smallest normal exponent 1 -
     * bias (below it the subnormals share that spacing). v / q is exact
     * (a float over a power of two, far from the double range's ends), and
     * rint rounds it to the nearest integer, ties to even, in the default
     * rounding mode. */
    int e2 = 0;
    (void)frexp(v, &e2); /* v = f 2^e2, f in [0.5, 1): E = e2 - 1 (v = 0: e2 = 0) */
    int E = e2 - 1;
    if (E < 1 - f->bias) E = 1 - f->bias;
    const double q = ldexp(1.0, E - f->mbits);
    unsigned n = (unsigned)rint(v / q);
    const unsigned one = 1u << f->mbits; /* the implicit bit */
    if (n < one) return (unsigned char)(sign | n); /* a subnormal or zero (only when E = 1 - bias) */
    if (n == 2 * one) n = one, ++E;            /* rounded up to the next power of two */
    /* v <= max, so the rounded value is at most max: E + bias <= the largest exponent field. */
    return (unsigned char)(sign | (unsigned)(E + f->bias) << f->mbits | (n - one));
}

int gk_gemm_fp8_ref(const gk_gemm_desc *d, const unsigned char *a, const unsigned char *b, const float *c,
                    const float *bias, double scale_a, double scale_b, const float *scale_a_rows,
                    const float *scale_b_cols, double *ref, double *sab, double *mag)
{
    const size_t m = d->m, n = d->n, k = d->k, batch = d->batch;
    const int ta = d->op_a == GK_GEMM_OP_T, tb = d->op_b == GK_GEMM_OP_T;
    const size_t lda = d->lda ? d->lda : (ta ? m : k), ldb = d->ldb ? d->ldb : (tb ? k : n);
    const size_t ldc = d->ldc ? d->ldc : n;
    const size_t sa = batch > 1 ? d->stride_a : 0, sb = batch > 1 ? d->stride_b : 0;
    const size_t sc = batch > 1 ? d->stride_c : 0;
    /* op(A_z) as m rows of k doubles and op(B_z) as n rows of k (column j
     * of op(B) contiguous), so that every dot product below runs along
     * contiguous memory whatever the layout; decoded through a table. */
    double *ad = (double *)malloc((m * k + 1) * sizeof(double));
    double *bd = (double *)malloc((n * k + 1) * sizeof(double));
    if (ad == NULL || bd == NULL) {
        free(ad), free(bd);
        return -1;
    }
    double va[256], vb[256];
    for (int i = 0; i < 256; ++i) {
        va[i] = gk_fp8_value(d->type_a, (unsigned char)i);
        vb[i] = gk_fp8_value(d->type_b, (unsigned char)i);
    }
    const double s0 = (double)d->alpha * scale_a * scale_b;
    const int epi = (int)d->epilogue;
    for (size_t z = 0; z < batch; ++z) {
        /* A broadcast operand (stride 0) is decoded once. */
        if (z == 0 || sa != 0) {
            const unsigned char *az = a + z * sa;
            for (size_t i = 0; i < m; ++i)
                for (size_t p = 0; p < k; ++p) ad[i * k + p] = va[ta ? az[p * lda + i] : az[i * lda + p]];
        }
        if (z == 0 || sb != 0) {
            const unsigned char *bz = b + z * sb;
            for (size_t j = 0; j < n; ++j)
                for (size_t p = 0; p < k; ++p) bd[j * k + p] = vb[tb ? bz[j * ldb + p] : bz[p * ldb + j]];
        }
        for (size_t i = 0; i < m; ++i) {
            const double *ar = ad + i * k;
            const double si = s0 * (scale_a_rows ? (double)scale_a_rows[i] : 1.0);
            for (size_t j = 0; j < n; ++j) {
                const double *br = bd + j * k;
                double s = 0.0, g = 0.0;
                for (size_t p = 0; p < k; ++p) {
                    const double t = ar[p] * br[p]; /* exact */
                    s += t;
                    g += fabs(t);
                }
                const double sij = si * (scale_b_cols ? (double)scale_b_cols[j] : 1.0);
                double x = sij * s, gs = fabs(sij) * g, mg = gs;
                if (d->beta != 0.0f) {
                    const double cb = (double)d->beta * (double)c[z * sc + i * ldc + j];
                    x += cb;
                    mg += fabs(cb);
                }
                if (epi != GK_GEMM_EPILOGUE_NONE) {
                    x += (double)bias[j];
                    mg += fabs((double)bias[j]);
                }
                const size_t at = (z * m + i) * n + j;
                ref[at] = gk_gemm_epilogue_ref(epi, x);
                sab[at] = gs;
                mag[at] = mg;
            }
        }
    }
    free(ad), free(bd);
    return 0;
}

double gk_gemm_fp8_accum_bound(int fast_accum, size_t k)
{
    if (k == 0) return 0.0;
    const double u = GK_FP8_ACCUM_UNIT;
    if (fast_accum) return expm1((double)k * log1p(u)); /* (1 + u)^k - 1 */
    const double in_tc = (double)(k < GK_FP8_PROMOTE_K ? k : GK_FP8_PROMOTE_K); /* products per chunk */
    const double tc = expm1(in_tc * log1p(u));
    const double chunks = (double)((k + GK_FP8_PROMOTE_K - 1) / GK_FP8_PROMOTE_K);
    return tc + expm1(chunks * log1p(GK_F32_UNIT_ROUNDOFF)) * (1.0 + tc);
}

double gk_gemm_fp8_tolerance_pre(int epilogue, int fast_accum, size_t k, double sab, double mag, double ref)
{
    const double u32 = GK_F32_UNIT_ROUNDOFF;
    const double t1 = gk_gemm_fp8_accum_bound(fast_accum, k) * sab;
    const double t2 = expm1(5.0 * log1p(u32)) * (sab + t1); /* (1 + u32)^5 - 1: the scale chain */
    const double t3 = u32 * mag;                             /* beta C */
    const double t = t1 + t2 + t3 + u32 * (mag + t1 + t2 + t3) + ((double)k + 2.0) * GK_F64_UNIT_ROUNDOFF * mag;
    /* The epilogue, as gk_gemm_tolerance_ex takes it. */
    if (epilogue == GK_GEMM_EPILOGUE_NONE) return t;
    const double tx = t + u32 * (mag + t); /* the bias add; BIAS, and BIAS_RELU (1-Lipschitz) */
    if (epilogue != GK_GEMM_EPILOGUE_BIAS_GELU) return tx;
    const double lt = GK_GELU_LIPSCHITZ * tx;
    return lt + GK_GELU_REL_ERROR * (fabs(ref) + lt) + 0x1p-100;
}

double gk_gemm_fp8_tolerance(gk_gemm_type c_type, int epilogue, int fast_accum, size_t k, double sab, double mag,
                             double ref)
{
    const double te = gk_gemm_fp8_tolerance_pre(epilogue, fast_accum, k, sab, mag, ref);
    const double u_out = c_type == GK_GEMM_TYPE_BF16  ? GK_BF16_UNIT_ROUNDOFF
                         : c_type == GK_GEMM_TYPE_F16 ? GK_FP16_UNIT_ROUNDOFF
                                                      : GK_F32_UNIT_ROUNDOFF;
    double tol = te + u_out * (fabs(ref) + te);
    if (c_type == GK_GEMM_TYPE_F16) tol += 0x1p-25; /* half the spacing of half's subnormals */
    return tol;
}
