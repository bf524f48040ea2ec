/* References for the gemm module: see gemm_ref.h. */
#include "gemm_ref.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "gk/verify.h"

void gk_gemm_ref(size_t m, size_t n, size_t k, double alpha, const float *a, size_t lda, const float *b,
                 size_t ldb, double beta, const float *c, size_t ldc, double *ref, double *mag, double *rms)
{
    for (size_t i = 0; i < m; ++i) {
        double *r = ref + i * n, *g = mag + i * n, *q = rms + i * n;
        for (size_t j = 0; j < n; ++j) r[j] = g[j] = q[j] = 0.0;
        /* i-p-j order: the inner loop runs along rows of B, contiguous. */
        for (size_t p = 0; p < k; ++p) {
            double aip = (double)a[i * lda + p];
            const float *brow = b + p * ldb;
            for (size_t j = 0; j < n; ++j) {
                double t = aip * (double)brow[j];
                r[j] += t;
                g[j] += fabs(t);
                q[j] += t * t;
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
        }
    }
}

double gk_gemm_tolerance(gk_gemm_precision precision, size_t k, double mag, double rms, double ref, int both)
{
    const double u32 = GK_F32_UNIT_ROUNDOFF;
    double up = precision == GK_GEMM_TF32 ? 2.0 * GK_TF32_UNIT_ROUNDOFF : u32;
    double kk = (double)k + 2.0;
    double tol;
    if (precision == GK_GEMM_BF16) {
        double t = GK_SUM_LAMBDA * (u32 * rms + u32 * sqrt(kk) * mag) + kk * GK_F64_UNIT_ROUNDOFF * mag;
        tol = t + GK_BF16_UNIT_ROUNDOFF * (fabs(ref) + t);
    } else {
        tol = GK_SUM_LAMBDA * (up * rms + u32 * sqrt(kk) * mag) + u32 * fabs(ref) + kk * GK_F64_UNIT_ROUNDOFF * mag;
    }
    return both ? 2.0 * tol : tol;
}

/* got is float (bf16 == 0) or bf16 bit patterns (bf16 == 1). */
static size_t check_any(const void *got, int bf16, size_t ldg, const double *ref, const double *mag,
                        const double *rms, size_t m, size_t n, size_t k, gk_gemm_precision precision, int both,
                        const char *label, FILE *log)
{
    size_t bad = 0;
    for (size_t i = 0; i < m; ++i)
        for (size_t j = 0; j < n; ++j) {
            double g = bf16 ? (double)gk_bf16_value(((const unsigned short *)got)[i * ldg + j])
                            : (double)((const float *)got)[i * ldg + j];
            double e = ref[i * n + j];
            double tol = gk_gemm_tolerance(precision, k, mag[i * n + j], rms[i * n + j], e, both);
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
    return check_any(got, 0, ldg, ref, mag, rms, m, n, k, precision, both, label, log);
}

size_t gk_gemm_check_bf16(const unsigned short *got, size_t ldg, const double *ref, const double *mag,
                          const double *rms, size_t m, size_t n, size_t k, int both, const char *label, FILE *log)
{
    return check_any(got, 1, ldg, ref, mag, rms, m, n, k, GK_GEMM_BF16, both, label, log);
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
