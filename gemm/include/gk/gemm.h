/* gk/gemm.h: matrix multiplication on the GPU,
 *
 *     C = alpha * A * B + beta * C
 *
 * in single precision (gk_gemm: from the naive kernel, variant 1, to a tuned
 * fp32 kernel, 10, and two TF32 tensor-core kernels: 11 with
 * Ampere's mma.sync, 12 with Hopper's wgmma fed by the TMA) and in
 * bfloat16 on the tensor cores (gk_gemm_bf16, its own table of variants:
 * see "BF16" below). Every variant is one file in
 * gemm/kernels/ and one row of the module's table (gemm/variants.c), whose
 * read-only description gk_gemm_variant_at() shows; the API, the tests, the
 * bench and the docs all read it. gemm/README.md walks up the ladder with
 * measured numbers.
 *
 * Calling convention (the same for every variant):
 *   - Row-major storage. A is m x k, B is k x n, C is m x n; element (i, j)
 *     of A is a[i * lda + j], and so on. Leading dimensions are counted in
 *     elements: lda >= k, ldb >= n, ldc >= n (a row may be longer than the
 *     matrix, as in a sub-matrix of a larger one).
 *   - Column-major callers (the cuBLAS and Fortran convention) use the same
 *     call with the operands swapped: a column-major m x n matrix is the
 *     row-major n x m matrix of its transpose, and C^T = B^T A^T, so
 *         column-major C = alpha*A*B + beta*C  (A m x k, B k x n, lda, ldb, ldc)
 *     is
 *         gk_gemm(v, n, m, k, alpha, B, ldb, A, lda, beta, C, ldc, stream);
 *   - Any m, n, k >= 0 up to GK_GEMM_MAX_DIM, any shape (1, 7, 4097, m != n
 *     != k). m = 0 or n = 0: nothing to do, nothing launched. k = 0: C is
 *     scaled by beta (A and B are not read and may be NULL). A variant whose
 *     fast path needs tile multiples or 16-byte-aligned rows handles every
 *     other shape and alignment itself, without reading or writing out of
 *     bounds; its kernel file says how.
 *   - beta = 0 means C is not read: whatever C holds (NaN included) does not
 *     reach the result.
 *   - Pointers are device pointers aligned to their element (4 bytes);
 *     nothing needs 16-byte alignment. A and B must not overlap C.
 *   - Precision: variants 1-10 multiply and add in fp32 (FFMA). Variants 11
 *     and 12 round A and B to TF32 (10 explicit mantissa bits, round to
 *     nearest) and multiply on the tensor cores, accumulating in fp32:
 *     faster, and less precise (each operand rounded by up to 2^-11 of its
 *     value, so a product by up to about 2 * 2^-11, where fp32's is 2^-24).
 *     variant->precision says which.
 *   - Work is queued on `stream` (the last argument); the call does not
 *     wait. Nothing is allocated; there is no workspace.
 *   - Bad arguments (an unknown variant, NULL pointers when C is not empty, a
 *     leading dimension too small, a dimension above GK_GEMM_MAX_DIM, a
 *     matrix whose extent overflows the address arithmetic, a misaligned
 *     pointer) give a status with a message; nothing is launched and nothing
 *     is written. A variant that needs a newer GPU (variants 9-11 use
 *     cp.async or mma.sync: compute capability 8.0) returns
 *     GK_ERROR_UNSUPPORTED there; variant 12 (wgmma, the TMA) needs exactly
 *     a 9.0 GPU (H100, H200) and a library built for sm_90a (the build adds
 *     it when its architectures include 90), and returns
 *     GK_ERROR_UNSUPPORTED elsewhere. Its TMA path needs A and B to start on
 *     16-byte boundaries with row strides (4 lda, 4 ldb bytes) multiples of
 *     16; other rows, and k = 0, take a slower path of the same kernel file
 *     (12_tf32_wgmma.cu says which). Variant 11 loads through the TMA too
 *     on a 9.0 GPU when the rows allow it, and through cp.async otherwise
 *     (and on 8.x GPUs); the TMA rounds ties to even, cvt.rna away from
 *     zero, so the two paths' results can differ in the last bits.
 *   - Deterministic: every variant adds in a fixed order, so the same inputs
 *     give the same bits run to run on the same GPU.
 *   - Any call (gk_gemm, gk_gemm_bf16, and the table queries below) may be
 *     made from several host threads at once, on different streams or
 *     devices, with nothing shared between them: a launcher's settings (the
 *     shared-memory opt-in of variants 10-12 and BF16 1-5, variant 10's
 *     carveout) are constants of its kernel, not of the call, tensor maps
 *     are made per call on the host stack, and nothing is cached. There is no workspace; what
 *     concurrent calls must not share is an output: two calls at once must
 *     not write the same C, nor one write a C that another reads as A or B.
 */
#ifndef GK_GEMM_H
#define GK_GEMM_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "gk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a variant multiplies in. */
typedef enum gk_gemm_precision {
    GK_GEMM_FP32 = 0, /* fp32 products and sums (FFMA) */
    GK_GEMM_TF32 = 1, /* TF32 products on the tensor cores, fp32 sums */
    GK_GEMM_BF16 = 2  /* bf16 in and out (gk_gemm_bf16): exact products, fp32 sums */
} gk_gemm_precision;

/* Largest m, n or k: 2^31 - 1, so that a row or column index fits in an int. */
#define GK_GEMM_MAX_DIM ((size_t)2147483647)

/* A read-only description of one variant (one row of the table). */
typedef struct gk_gemm_variant {
    int id;                      /* 1, 2, ... in teaching order; also the bench's id */
    const char *name;            /* the kernel file's name without its number        */
    const char *idea;            /* one line: what this step changes                 */
    gk_gemm_precision precision;
    int min_cc;                  /* oldest compute capability it runs on, e.g. 80    */
} gk_gemm_variant;

size_t gk_gemm_variant_count(void);
const gk_gemm_variant *gk_gemm_variant_at(size_t index); /* NULL when out of range */
const gk_gemm_variant *gk_gemm_find_variant(int id);     /* NULL when unknown      */
/* The variants to pick, as measured on an H200 (gemm/bench-h200.json, CUDA
 * 13.0, 2026-11-23 19:42 UTC; square sizes 1024 to 8192 and
 * 4097 x 3001 x 2049, alpha = 1, beta = 0, dense leading dimensions):
 *   gk_gemm_best_fp32_variant() is 10, the fastest fp32 variant at 2048^3,
 *     4096^3, 8192^3 and 4097 x 3001 x 2049. At 1024^3 its 128 x 256 tiles
 *     give 32 blocks for 132 SMs, and variant 9 (0.126 ms against 0.186)
 *     is the fastest there; 4, 6, 7 and 8 also beat 10 at that size.
 *   gk_gemm_best_variant() is 12 (TF32, wgmma), the fastest variant at every
 *     square size measured. At 4097 x 3001 x 2049, whose rows (lda = 2049,
 *     ldb = 3001) the TMA cannot load, variant 11 (TF32, mma.sync) is faster
 *     (0.465 ms against 0.487).
 * Other shapes, alignments and GPUs were not measured. */
int gk_gemm_best_fp32_variant(void);
int gk_gemm_best_variant(void);
const char *gk_gemm_precision_name(gk_gemm_precision p); /* "fp32", "tf32", "bf16" */

/* C = alpha * A * B + beta * C with variant `variant`. See above. */
gk_status gk_gemm(int variant, size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                  const float *b, size_t ldb, float beta, float *c, size_t ldc, cudaStream_t stream);

/* ---- BF16 ------------------------------------------------------------------
 * gk_gemm_bf16: C = alpha * A * B + beta * C with A, B and C in bfloat16
 * (__nv_bfloat16 from <cuda_bf16.h>: 1 sign, 8 exponent and 7 explicit
 * mantissa bits; passed as void pointers so that this header stays plain C)
 * on the tensor cores. Its variants form their own table, numbered 1, 2, ...
 * in teaching order (gk_gemm_bf16_variant_at; the kernel files are
 * gemm/kernels/bf16_NN_name.cu), separate from gk_gemm's: 1 mma.sync with
 * ldmatrix and cp.async (the Ampere way), 2 Hopper's wgmma reading both
 * tiles from shared memory, 3 the tensor memory accelerator (TMA) loading
 * them into an mbarrier pipeline, 4 warp specialization (a producer
 * warpgroup issues the TMA, two consumer warpgroups the wgmma), 5
 * persistent tiles (one CTA per SM walks the output tiles in a grouped
 * order for L2, its pipeline running on across tiles so that the next
 * tile loads while the current one is stored, with beta = 0 through
 * shared memory and TMA stores that overlap the next tile; CTAs in
 * clusters of 2 share B's tiles through TMA multicast): 5 rungs, and
 * gk_gemm_bf16_best_variant() gives 5, the fastest BF16 variant at every
 * size of gemm/bench-h200.json (H200, 2026-11-23 19:42 UTC: 1024^3 to
 * 8192^3 and 4097 x 3001 x 2049).
 *   - The conventions of gk_gemm: row-major, leading dimensions in elements
 *     (lda >= k, ldb >= n, ldc >= n), any m, n, k >= 0 up to GK_GEMM_MAX_DIM,
 *     m = 0 or n = 0 does nothing, k = 0 scales C by beta (A and B are not
 *     read and may be NULL), beta = 0 does not read C, A and B must not
 *     overlap C, work queued on `stream`, nothing allocated, the same bits
 *     run to run. Column-major callers swap the operands as for gk_gemm.
 *   - Pointers are device pointers aligned to their element (2 bytes);
 *     nothing needs 16-byte alignment, and a leading dimension whose byte
 *     stride is not a multiple of 16 (an odd lda) is correct too: such rows
 *     take a slower copy path (each kernel file says which). The TMA
 *     variants (3, 4, 5) load with the TMA only when A and B both start on
 *     a 16-byte boundary with row strides (2 lda, 2 ldb bytes) multiples of
 *     16; otherwise, and for k = 0, variants 3 and 4 run variant 2's
 *     kernel (16-byte cp.async for an operand whose rows all start on a
 *     16-byte boundary, an element-wise gather otherwise), and variant 5
 *     runs its persistent kernel in gather mode (its producer warpgroup
 *     copies A and B with 2- and 4-byte loads).
 *   - Precision: each product of two bf16 numbers is exact in fp32 (8 + 8
 *     significant bits), the sums are fp32 on the tensor cores, alpha and
 *     beta are applied in fp32, and the result is rounded once to bf16
 *     (round to nearest even): a relative error of up to 2^-8 on each
 *     element of C, on top of the fp32 sums' (gemm_ref.h derives the
 *     tolerance the tests use).
 *   - Bad arguments give the statuses gk_gemm gives (a pointer not aligned
 *     to 2 bytes is GK_ERROR_INVALID_ARGUMENT); nothing is launched and
 *     nothing is written. A variant needs compute capability
 *     variant->min_cc (8.0 for mma.sync); the wgmma variants need exactly a
 *     9.0 GPU (H100, H200) and a library built for sm_90a (the build adds it
 *     when its architectures include 90): elsewhere they return
 *     GK_ERROR_UNSUPPORTED. */
size_t gk_gemm_bf16_variant_count(void);
const gk_gemm_variant *gk_gemm_bf16_variant_at(size_t index); /* NULL when out of range */
const gk_gemm_variant *gk_gemm_bf16_find_variant(int id);     /* NULL when unknown      */
int gk_gemm_bf16_best_variant(void);                          /* 5: see above           */

gk_status gk_gemm_bf16(int variant, size_t m, size_t n, size_t k, float alpha, const void *a, size_t lda,
                       const void *b, size_t ldb, float beta, void *c, size_t ldc, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif /* GK_GEMM_H */
