/* gk_gemm: argument checking and dispatch through the table. Every check
 * happens before anything is launched or written. */
#include "gk/cuda_check.h"
#include "gk/gemm.h"
#include "../common/module.h"
#include "variants.h"

/* A matrix of `rows` x `cols` with leading dimension ld spans
 * (rows - 1) * ld + cols elements. Its byte extent must stay below 2^62, so
 * that no offset computed from it (in size_t, in the kernels too) can wrap. */
static int extent_overflows(size_t rows, size_t cols, size_t ld, size_t elem)
{
    const size_t limit = ((size_t)1 << 62) / elem;
    if (rows == 0 || cols == 0) return 0;
    if (ld != 0 && rows - 1 > (limit - cols) / ld) return 1;
    return (rows - 1) * ld + cols > limit;
}

/* The operand checks gk_gemm (fp32, elem = 4) and gk_gemm_bf16 (elem = 2)
 * share, in this order. *empty is set when C is empty: nothing to compute. */
static gk_status check_operands(size_t m, size_t n, size_t k, const void *a, size_t lda, const void *b, size_t ldb,
                                const void *c, size_t ldc, size_t elem, int *empty)
{
    *empty = 0;
    if (m > GK_GEMM_MAX_DIM || n > GK_GEMM_MAX_DIM || k > GK_GEMM_MAX_DIM)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "m, n or k is above GK_GEMM_MAX_DIM (2^31 - 1)");
    if (lda < k) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "lda is smaller than k (A is row-major m x k)");
    if (ldb < n) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "ldb is smaller than n (B is row-major k x n)");
    if (ldc < n) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "ldc is smaller than n (C is row-major m x n)");
    if (m == 0 || n == 0) {
        *empty = 1;
        return gk_success();
    }
    if (extent_overflows(m, k, lda, elem) || extent_overflows(k, n, ldb, elem) || extent_overflows(m, n, ldc, elem))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "a matrix spans 2^62 bytes or more: its offsets would overflow");
    if (c == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "c is NULL and C is not empty");
    if (k > 0 && (a == NULL || b == NULL)) return GK_FAIL(GK_ERROR_NULL_POINTER, "a or b is NULL and k > 0");
    if (gk_misaligned(c, elem) || (k > 0 && (gk_misaligned(a, elem) || gk_misaligned(b, elem))))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, elem == sizeof(float)
                                                      ? "a, b or c is not aligned to 4 bytes (a float)"
                                                      : "a, b or c is not aligned to 2 bytes (a bf16)");
    return gk_success();
}

gk_status gk_gemm(int variant, size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                  const float *b, size_t ldb, float beta, float *c, size_t ldc, cudaStream_t stream)
{
    const gk_gemm_row *v = gk_gemm_row_find(variant);
    if (v == NULL) return GK_FAIL(GK_ERROR_UNKNOWN_VARIANT, "no gemm variant has this id");
    int empty;
    gk_status st = check_operands(m, n, k, a, lda, b, ldb, c, ldc, sizeof(float), &empty);
    if (!gk_ok(st) || empty) return st;
    cudaError_t err = v->run(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, stream);
    if (err == cudaErrorNotSupported)
        return GK_FAIL(GK_ERROR_UNSUPPORTED, "this variant needs a newer GPU (see variant->min_cc)");
    if (err == cudaErrorInvalidConfiguration)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "m x n needs more thread blocks than one launch can have");
    return GK_CUDA_STATUS(err);
}

gk_status gk_gemm_bf16(int variant, size_t m, size_t n, size_t k, float alpha, const void *a, size_t lda,
                       const void *b, size_t ldb, float beta, void *c, size_t ldc, cudaStream_t stream)
{
    const gk_gemm_bf16_row *v = gk_gemm_bf16_row_find(variant);
    if (v == NULL) return GK_FAIL(GK_ERROR_UNKNOWN_VARIANT, "no bf16 gemm variant has this id");
    int empty;
    gk_status st = check_operands(m, n, k, a, lda, b, ldb, c, ldc, 2 /* sizeof(__nv_bfloat16) */, &empty);
    if (!gk_ok(st) || empty) return st;
    cudaError_t err = v->run(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, stream);
    if (err == cudaErrorNotSupported)
        return GK_FAIL(GK_ERROR_UNSUPPORTED,
                       "this variant cannot run here: see variant->min_cc (the wgmma variants need a cc 9.0 GPU "
                       "and a build for sm_90a)");
    if (err == cudaErrorInvalidConfiguration)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "m x n needs more thread blocks than one launch can have");
    return GK_CUDA_STATUS(err);
}
