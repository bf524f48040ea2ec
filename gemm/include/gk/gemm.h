/* gk/gemm.h: matrix multiplication on the GPU,
 *
 *     C = alpha * A * B + beta * C
 *
 * in single precision (gk_gemm: from the naive kernel, variant 1, to a tuned
 * fp32 kernel, 10, and two TF32 tensor-core kernels: 11 with
 * Ampere's mma.sync, 12 with Hopper's wgmma fed by the TMA) and in
 * bfloat16 (gk_gemm_bf16, variants 13-17, 19-21 and 23: see "BF16"
 * below), and, through gk_gemm_ex (below), with transposed operands,
 * batches, FP16 and fused bias and activation, and FP8 inputs (variant 18,
 * "FP8" below), and skinny, tiny and mid-size 16-bit products (variants
 * 19-21 and 23: "Skinny products", "Tiny products", "Mid-size products" below). Every variant is one file in
 * gemm/kernels/ and one row of the module's one table (gemm/variants.c),
 * ids 1-23, whose read-only description gk_gemm_variant_at() shows; the
 * API, the tests, the bench and the docs all read it and use its ids.
 * gemm/README.md walks up the ladder with measured numbers.
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
 *   - Stream order: a call's launches run in its stream's order, after
 *     what the caller queued before. On a compute capability 9.0 GPU the
 *     padded copies of A and B, the products of variants 17, 18 and 23 and
 *     split-K's sum are programmatic dependent launches whose kernels begin
 *     by waiting for the grid before them on the stream to finish
 *     (griddepcontrol.wait): the same order, with each launch's latency
 *     overlapping the grid before it (gemm/README.md, "One call, several
 *     launches").
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
    GK_GEMM_BF16 = 2, /* 16-bit in and out (variants 13-17, 19-21, 23): exact products, fp32 sums, C in bf16 */
    GK_GEMM_FP16 = 3, /* the same kernels storing IEEE half (gk_gemm_ex, GK_GEMM_TYPE_F16): the
                         precision of a call, never of a table row */
    GK_GEMM_FP8 = 4   /* FP8 inputs (e4m3, e5m2: variant 18), exact products, fp32 sums */
} gk_gemm_precision;

/* Largest m, n or k: 2^31 - 1, so that a row or column index fits in an int. */
#define GK_GEMM_MAX_DIM ((size_t)2147483647)

/* A read-only description of one variant (one row of the table). */
typedef struct gk_gemm_variant {
    int id;                      /* 1 .. 22 in teaching order: gk_gemm_ex's, gk_bench's
                                    and gemm/README.md's id                          */
    const char *name;            /* the kernel file's name without its number        */
    const char *idea;            /* one line: what this step changes                 */
    gk_gemm_precision precision; /* of its 16-bit or fp32 products: see
                                    gk_gemm_variant_precision for each type          */
    int min_cc;                  /* oldest compute capability it runs on, e.g. 80    */
    unsigned types;              /* GK_GEMM_TYPE_BIT of each type it stores          */
    int extended;                /* 1: takes every op, batch and epilogue of
                                    gk_gemm_ex; 0: the default description only      */
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
 * on the tensor cores. Its variants are the 16-bit rows of the module's
 * one table: the ladder, ids 13-17 in teaching order (the kernel files are
 * gemm/kernels/bf16_NN_name.cu, id 12 + NN), 19, the skinny products'
 * kernel ("Skinny products" below), 20, the tiny products' ("Tiny
 * products"), and 21 and 23, the mid-size products' ("Mid-size
 * products"); gk_gemm_bf16_variant_at(i) is the i-th of 13, 14, 15, 16,
 * 17, 19, 20, 21, 23, a view of the same table. 13 mma.sync with ldmatrix and
 * cp.async (the Ampere way), 14 Hopper's wgmma reading both tiles from
 * shared memory, 15 the tensor memory accelerator (TMA) loading them into
 * an mbarrier pipeline, 16 warp specialization (a producer warpgroup issues
 * the TMA, two consumer warpgroups the wgmma), 17 persistent tiles (one CTA
 * per SM walks the output tiles in a grouped order for L2, its pipeline
 * running on across tiles so that the next tile loads while the current
 * one is stored, with beta = 0 through shared memory and TMA stores that
 * overlap the next tile; CTAs in clusters of 2 share B's tiles through TMA
 * multicast). gk_gemm_bf16_best_variant() gives 17, the fastest of them at
 * every size of gemm/bench-h200.json (H200, 2026-11-23 19:42 UTC: 1024^3 to
 * 8192^3 and 4097 x 3001 x 2049), the top of the ladder (19-21 and 23 are
 * faster only in their regions). gk_gemm_bf16 takes ids 13-17, 19-21 and 23 (and
 * GK_GEMM_AUTO, below); gk_gemm returns GK_ERROR_UNSUPPORTED for them
 * except 20 and 21, which take fp32 too (and gk_gemm_bf16 for 1-12 and 22).
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
 *     variants (15, 16, 17) load with the TMA only when A and B both start
 *     on a 16-byte boundary with row strides (2 lda, 2 ldb bytes) multiples
 *     of 16; otherwise, and for k = 0, variants 15 and 16 run variant 14's
 *     kernel (16-byte cp.async for an operand whose rows all start on a
 *     16-byte boundary, an element-wise gather otherwise), and variant 17
 *     runs its persistent kernel in gather mode (its producer warpgroup
 *     copies A and B with 2- and 4-byte loads). Through gk_gemm_ex, which
 *     has a workspace, variants 17 and 23 first copy an operand whose row
 *     stride is not a multiple of 16 bytes into the workspace with padded
 *     rows and then read the copy with the TMA (see "Workspace" there).
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
int gk_gemm_bf16_best_variant(void);                          /* 17: see above          */

gk_status gk_gemm_bf16(int variant, size_t m, size_t n, size_t k, float alpha, const void *a, size_t lda,
                       const void *b, size_t ldb, float beta, void *c, size_t ldc, cudaStream_t stream);

/* ---- The extended entry point: gk_gemm_ex -----------------------------------
 *
 *     C_z = epilogue(alpha * op(A_z) * op(B_z) + beta * C_z + bias),  z = 0 .. batch - 1
 *
 * One call takes a description of the product (gk_gemm_desc, below) in the
 * manner of cublasLtMatmul and cublasGemmStridedBatchedEx, written as a plain
 * C struct: no handle, no hidden state, a documented default
 * (gk_gemm_desc_init). gk_gemm and gk_gemm_bf16 above are gk_gemm_ex with the
 * default description (fp32 or bf16, as stored, one product, no epilogue).
 *
 * One numbering: the id gk_gemm_ex takes is the id of the module's table
 * (gk_gemm_variant_at), the id gk_bench prints and gemm/README.md uses:
 *   1 .. 12   fp32 storage (GK_GEMM_TYPE_F32): 1-10 fp32 products, 11-12 TF32
 *             (and 20-22, below: gk_gemm takes them);
 *   13 .. 17  16-bit storage (GK_GEMM_TYPE_BF16 or GK_GEMM_TYPE_F16), the
 *             tensor-core rungs bf16_01 .. bf16_05 (gemm/kernels/bf16_NN_*.cu);
 *             gk_gemm_bf16 takes these ids too;
 *   18        FP8 inputs (type_a, type_b E4M3 or E5M2) stored to F32, BF16 or
 *             F16: gk/gemm.h "FP8", gemm/kernels/fp8_01_scaled_wgmma.cu;
 *   19        16-bit storage, a few rows of op(A) against a large op(B) (the
 *             weight): "Skinny products" below,
 *             gemm/kernels/skinny_01_weight_stream.cu; gk_gemm_bf16 takes it;
 *   20, 21    16-bit storage (and fp32: 20 in fp32, 21 on TF32), tiny and
 *             mid-size products: "Tiny products" and "Mid-size products"
 *             below, gemm/kernels/small_01_dot.cu and small_02_tiles.cu;
 *             gk_gemm_bf16 and gk_gemm take them;
 *   22        fp32 storage in fp32, mid-size products on variant 21's tiles
 *             with FFMA: gemm/kernels/small_03_ffma.cu;
 *   23        16-bit storage, mid-size products on wgmma tiles fed by the
 *             TMA: "Mid-size products" below, gemm/kernels/small_04_wgmma_tiles.cu;
 *             gk_gemm_bf16 takes it.
 * variant->types says which element types a variant stores, and
 * variant->extended whether it takes every option below (transposed
 * operands, batches, epilogues); the others take the default layout, one
 * product and no epilogue, and return GK_ERROR_UNSUPPORTED, with a message,
 * for anything else. Variants 10 and 22 (fp32), 11 and 12 (TF32), 17,
 * 19-21 and 23 (BF16 and FP16; 20 and 21 fp32 too) and 18 (FP8 inputs)
 * are extended.
 *
 * The options:
 *   - op_a, op_b: an operand as stored (GK_GEMM_OP_N) or transposed
 *     (GK_GEMM_OP_T). Storage stays row-major: op(A) is m x k; with op_a =
 *     N, A is stored m x k (lda >= k), with op_a = T it is stored k x m (lda
 *     >= m). op(B) is k x n; op_b = N stores B as k x n (ldb >= n), op_b = T
 *     as n x k (ldb >= k): the weight layout of a linear layer, y = x W^T
 *     with W stored out x in is op_b = T. C is m x n (ldc >= n).
 *   - type: the element type of A, B, C and the bias. GK_GEMM_TYPE_F32
 *     (float), GK_GEMM_TYPE_BF16 (__nv_bfloat16) or GK_GEMM_TYPE_F16 (IEEE
 *     half, __half). The products and sums are fp32 (TF32 products in
 *     variants 11-12; exact products of 16-bit inputs in 13-17 and 19), alpha and
 *     beta are fp32, and C is rounded once, after the epilogue.
 *   - batch >= 1 products in one launch, A_z = A + z * stride_a, B_z = B + z
 *     * stride_b, C_z = C + z * stride_c (strides in elements, as cuBLAS's
 *     strided batched calls). A stride of 0 for A or B broadcasts that
 *     operand to every product; stride_c must keep the products' outputs
 *     apart (no element of C written twice: checked). With batch = 1 the
 *     strides are not read.
 *   - epilogue, applied in fp32 to v = alpha * op(A) op(B) + beta * C before
 *     the one rounding of C:
 *       GK_GEMM_EPILOGUE_NONE       v
 *       GK_GEMM_EPILOGUE_BIAS       v + bias[j]            (bias: n elements
 *                                                            of `type`, the
 *                                                            same for every
 *                                                            row and product)
 *       GK_GEMM_EPILOGUE_BIAS_RELU  max(v + bias[j], 0)
 *       GK_GEMM_EPILOGUE_BIAS_GELU  gelu(v + bias[j]), GELU in its tanh form
 *         (Hendrycks and Gimpel, arXiv:1606.08415; cuBLASLt's GELU):
 *         gelu(x) = 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))),
 *         computed as x / (1 + exp(-2 sqrt(2 / pi) (x + 0.044715 x^3))),
 *         the same function, with the SFU's exp2 and reciprocal: a
 *         relative error below 2^-16 of the value before C's rounding
 *         (gemm/kernels/common.cuh derives it).
 *     The bias is a device pointer aligned to its element; NULL only with
 *     GK_GEMM_EPILOGUE_NONE.
 *   - Workspace by the module-wide two-phase query (as gk_reduce): with
 *     workspace == NULL the call stores the bytes it needs in
 *     *workspace_bytes and does nothing else; that size depends only on the
 *     variant and the description, and is never 0: one granule (256 bytes)
 *     for most, more where a variant copies an operand. Variants 17 and
 *     23 (BF16, F16) and 12 (F32) read A and B with the TMA, whose row
 *     stride must be a multiple of 16 bytes: an operand whose lda or ldb
 *     (or, in a batch, whose stride) is not (an odd lda of 16-bit
 *     elements, say) is first copied as stored, rows padded to a multiple
 *     of 16 bytes (8 16-bit elements, 4 floats), once per product that has
 *     its own (stride 0 or batch 1: once): rows x ceil(cols / 8) 8 x 2
 *     bytes (12: ceil(cols / 4) 4 x 4), each copy rounded up to whole
 *     granules, A's first; none when m, n or k is 0. Variant 10 (F32 on
 *     the CUDA cores) reads only B with 16-byte loads, so it copies B
 *     alone, and only as stored k x n (op_b = N), in the same way. This costs one read and one
 *     write of the operand (gemm/README.md measures it) and depends only
 *     on the description: a base pointer off 16 bytes with such strides is
 *     read as it is (17 and 23 gather it, 12 takes its cp.async path). The TF32 rungs'
 *     tensor cores read shared memory K-major only (TF32 has no transpose),
 *     so variant 12 first copies A transposed when op_a = T and op_b = N
 *     (with both transposed it swaps the operands' roles instead, and with
 *     op_b = T alone it reads B as stored), and variant 11 copies A when
 *     op_a = T and B when op_b = T: each copy is op(X) as a
 *     dense row-major matrix, rows padded to a multiple of 4 floats, one
 *     per product that has its own X (stride 0 or batch 1: one), A's copy
 *     first, B's from the next 256-byte boundary; the total rounded up to
 *     whole granules. A description whose copies would reach 2^62 bytes is
 *     GK_ERROR_INVALID_ARGUMENT. Then call again with a
 *     workspace of at least that size, 16-byte aligned, and
 *     *workspace_bytes saying how large it is.
 * Everything else is gk_gemm's convention: any m, n, k >= 0 up to
 * GK_GEMM_MAX_DIM, m = 0 or n = 0 does nothing (only the description is
 * checked), k = 0 gives epilogue(beta * C + bias), beta = 0 never reads C,
 * pointers aligned to their element, A and B must not overlap C, the same
 * bits run to run, safe from several host threads (calls at once must not
 * share a workspace or write the same C). Bad arguments (an unknown type,
 * op or epilogue, a NULL bias where one is needed, a leading dimension too
 * small for the stored layout, batch = 0, a stride_c that makes two
 * products' outputs overlap, a workspace too small) give a status with a
 * message; nothing is launched and nothing is written. */
typedef enum gk_gemm_op { GK_GEMM_OP_N = 0, GK_GEMM_OP_T = 1 } gk_gemm_op;

typedef enum gk_gemm_type {
    GK_GEMM_TYPE_F32 = 0,  /* float                         */
    GK_GEMM_TYPE_BF16 = 1, /* __nv_bfloat16 (<cuda_bf16.h>) */
    GK_GEMM_TYPE_F16 = 2,  /* __half (<cuda_fp16.h>)        */
    GK_GEMM_TYPE_E4M3 = 3, /* __nv_fp8_e4m3 (<cuda_fp8.h>): inputs only (type_a, type_b; see "FP8") */
    GK_GEMM_TYPE_E5M2 = 4  /* __nv_fp8_e5m2 (<cuda_fp8.h>): inputs only */
} gk_gemm_type;

/* What GK_GEMM_AUTO may compute fp32 storage in (cuBLAS's compute types):
 * DEFAULT is the type's own arithmetic (fp32 multiply-adds for F32; exact
 * products and fp32 sums for BF16 and F16); TF32 allows the TF32 tensor
 * cores for F32 (CUBLAS_COMPUTE_32F_FAST_TF32), F32 only. An explicit
 * variant id computes in its own precision (variant->precision) and reads
 * this field only to check it. */
typedef enum gk_gemm_compute { GK_GEMM_COMPUTE_DEFAULT = 0, GK_GEMM_COMPUTE_TF32 = 1 } gk_gemm_compute;

typedef enum gk_gemm_epilogue {
    GK_GEMM_EPILOGUE_NONE = 0,
    GK_GEMM_EPILOGUE_BIAS = 1,
    GK_GEMM_EPILOGUE_BIAS_RELU = 2,
    GK_GEMM_EPILOGUE_BIAS_GELU = 3
} gk_gemm_epilogue;

/* Bit of a type in gk_gemm_variant.types. */
#define GK_GEMM_TYPE_BIT(t) (1u << (unsigned)(t))

typedef struct gk_gemm_desc {
    gk_gemm_type type;          /* element type of A, B, C and bias      default F32 */
    gk_gemm_op op_a, op_b;      /* as stored or transposed                default N, N */
    size_t m, n, k;             /* op(A) is m x k, op(B) k x n, C m x n                 */
    size_t lda, ldb, ldc;       /* leading dimensions in elements; 0: the dense one
                                   of the stored layout (A: k for N, m for T; B: n for
                                   N, k for T; C: n)                    default 0, 0, 0 */
    float alpha, beta;          /*                                        default 1, 0 */
    size_t batch;               /* products in the call                    default 1 */
    size_t stride_a, stride_b, stride_c; /* elements between products (0: broadcast A
                                   or B); read only when batch > 1        default 0 */
    gk_gemm_epilogue epilogue;  /*                                     default NONE */
    const void *bias;           /* n elements of `type` (device)          default NULL */
    gk_gemm_compute compute;    /* what GK_GEMM_AUTO may use          default DEFAULT */
    /* FP8 (see "FP8" below); read only when type_a or type_b is E4M3 or E5M2. */
    gk_gemm_type type_a, type_b; /* A's and B's element types            default type */
    const float *scale_a, *scale_b; /* device, one float each: per-tensor
                                   scales; NULL means 1                   default NULL */
    const float *scale_a_rows;  /* device, m floats: a scale per row of
                                   op(A); NULL: none                      default NULL */
    const float *scale_b_cols;  /* device, n floats: a scale per column of
                                   op(B); NULL: none                      default NULL */
    float *amax;                /* device, one float: receives max |D|;
                                   NULL: not computed                     default NULL */
    int fast_accum;             /* 1: the tensor cores' own accumulator for
                                   the whole sum; 0: partial sums promoted
                                   to fp32 registers every 128 k          default 0 */
} gk_gemm_desc;

/* The default description of an m x n x k product of `type`: as stored,
 * dense leading dimensions, alpha = 1, beta = 0, one product, no epilogue.
 * Set the fields that differ, then call gk_gemm_ex. */
gk_gemm_desc gk_gemm_desc_init(gk_gemm_type type, size_t m, size_t n, size_t k);

/* C = epilogue(alpha op(A) op(B) + beta C + bias) for each product of the
 * batch, with variant `variant` (any id of the table). See above. */
gk_status gk_gemm_ex(int variant, const gk_gemm_desc *desc, const void *a, const void *b, void *c, void *workspace,
                     size_t *workspace_bytes, cudaStream_t stream);

/* ---- FP8: gk_gemm_ex with e4m3 and e5m2 inputs (variant 18) ------------------
 *
 *     D_z = epilogue(alpha * sa * sb * ra[i] * cb[j] * sum_k A_z(i, k) B_z(k, j)
 *                    + beta * C_z(i, j) + bias[j])
 *
 * Hopper's tensor cores multiply 8-bit floats at twice the BF16 rate
 * (wgmma ...k32.e4m3/e5m2, PTX ISA 8.0). Variant 18 (gemm/kernels/
 * fp8_01_scaled_wgmma.cu, the top of the tensor-core ladder) takes:
 *   - type_a, type_b: GK_GEMM_TYPE_E4M3 (1 sign, 4 exponent, 3 mantissa
 *     bits, largest finite 448, no infinity) or GK_GEMM_TYPE_E5M2 (5 and 2
 *     bits, largest finite 57344, with infinities): the pairs e4m3 x e4m3,
 *     e4m3 x e5m2 and e5m2 x e4m3 (not e5m2 x e5m2, as cuBLASLt). Both or
 *     neither are FP8: an FP8 operand beside a 16-bit one is
 *     GK_ERROR_UNSUPPORTED. The bytes are taken as stored: every byte is a
 *     value (e4m3's 0x7f and 0xff are NaN, and propagate), nothing is
 *     converted or saturated on the way in.
 *   - type: C's (and the bias's) type, GK_GEMM_TYPE_BF16, F16 or F32.
 *   - scales, all fp32 device pointers (as cuBLASLt's
 *     CUBLASLT_MATMUL_DESC_A_SCALE_POINTER: they usually come from the
 *     previous step's amax on the GPU): sa = *scale_a and sb = *scale_b per
 *     tensor (NULL: 1), ra = scale_a_rows[i] per row of op(A) (m floats)
 *     and cb = scale_b_cols[j] per column of op(B) (n floats), NULL: 1.
 *     The row and column scales are shared by every product of a batch,
 *     as the bias. alpha sa sb is one fp32 product per call, applied with
 *     ra[i] cb[j] to the fp32 sum before beta C and the bias.
 *   - amax: when not NULL, *amax receives the largest |D| of the call (every
 *     element of every product, after the epilogue, before D's rounding to
 *     its type; NaN if any element is NaN), for the next step's scale (as
 *     CUBLASLT_MATMUL_DESC_AMAX_D_POINTER). It is written by the call (set to
 *     0, then raised by atomic maxima: the result does not depend on their
 *     order). m = 0 or n = 0 launches nothing and leaves it alone.
 *   - Saturation: D is rounded to its type with round to nearest even, so
 *     a scaled value beyond F16's largest finite (65504) becomes +-inf, as
 *     __float2half_rn does; BF16 and F32 reach +-inf only beyond fp32's
 *     range. Values beyond e4m3's range arise only where a caller quantizes:
 *     gk_gemm_fp8_quantize (below) saturates them to +-448 (e5m2: 57344).
 *   - Layouts: the FP8 wgmma reads both operands K-major from shared memory
 *     only (no transpose bit for 8-bit types), which in row-major terms is
 *     op_a = N and op_b = T (y = x W^T, W stored out x in): that layout is
 *     read in place by the TMA. Any other layout, and rows the TMA cannot
 *     address (a, b not on 16-byte boundaries, lda, ldb or a batched
 *     operand's stride not multiples of 16 bytes), first copies the operand
 *     into the workspace as a dense K-major matrix, rows padded to 16
 *     bytes: one read and one write of that operand (m k or n k bytes per
 *     product that has its own), which the bench's layouts measure. For
 *     this variant the workspace size therefore also depends on where a
 *     and b start: query with the pointers of the call (NULL counts as
 *     aligned).
 *   - Accumulation: a product of two FP8 numbers (at most 4 x 4 significant
 *     bits) is exact in fp32. Hopper's FP8 wgmma adds the products of each
 *     k32 step into its accumulator with a narrower adder than fp32's (the
 *     DeepSeek-V3 report, arXiv:2412.19437, section 3.3.2, measures about
 *     14 bits kept), so long sums lose precision. With fast_accum = 0 (the
 *     default, as cuBLASLt's CUBLASLT_MATMUL_DESC_FAST_ACCUM = 0) the
 *     kernel restarts the tensor cores' sum every 128 k (4 wgmma k-steps)
 *     and adds it into fp32 registers (DeepGEMM's promotion); with
 *     fast_accum = 1 the whole sum stays in the tensor cores' accumulator:
 *     faster, less precise. gemm/README.md ("FP8") gives both errors,
 *     measured against a float64 reference at k = 4096 and 16384, and the
 *     cost of the promotion.
 *   - The rest is gk_gemm_ex's: batches and strides (in elements), alpha,
 *     beta (beta = 0 never reads C), the epilogues, any m, n, k (k = 0
 *     gives epilogue(beta C + bias)), a, b any device pointers (FP8
 *     elements are single bytes), c and bias aligned to C's type, the
 *     scale pointers and amax to 4 bytes, the same bits run to run (the
 *     amax included), safe from several host threads (calls at once must
 *     not share a workspace, C or amax).
 *   - Bad arguments: a scale or amax given without FP8 inputs, FP8 inputs
 *     to another variant, e5m2 x e5m2, an FP8 C, compute TF32 with FP8
 *     inputs: GK_ERROR_UNSUPPORTED (or GK_ERROR_INVALID_ARGUMENT for values
 *     that are not a gk_gemm_type or a fast_accum other than 0 and 1), with
 *     a message; nothing is launched and nothing is written.
 */

/* out[i] = saturate(scale * x[i]) rounded to `type` (GK_GEMM_TYPE_E4M3 or
 * E5M2), i < count: round to nearest even, values beyond the largest
 * finite (448 for e4m3, 57344 for e5m2) saturated to it with their sign
 * (__NV_SATFINITE), NaN kept NaN. When amax is not NULL, *amax receives
 * max |x[i]| (before the scale: the statistic a caller turns into the next
 * scale, 448 / amax for e4m3). x: device floats aligned to 4 bytes; out:
 * count bytes. count = 0 writes nothing (not even amax). Queued on stream. */
gk_status gk_gemm_fp8_quantize(gk_gemm_type type, const float *x, size_t count, float scale, void *out,
                               float *amax, cudaStream_t stream);

/* ---- Skinny products: variant 19 -------------------------------------------
 * A product with a few rows in op(A) (m up to a few dozen: the tokens of an
 * inference step, x in y = x W^T) and a large op(B) (the weight, n x k) is
 * bound by reading the weight once, not by the tensor cores: at m = 16 it
 * does 16 multiply-adds per 2-byte weight element. Variant 19 streams the
 * weight from global memory straight into registers with 16-byte loads
 * (no shared-memory stage), keeps the few rows of op(A) in shared memory,
 * and splits k over a cluster of CTAs whose partial sums meet in
 * distributed shared memory, added in a fixed order (the same bits on
 * every run). It takes everything gk_gemm_ex offers for BF16 and F16
 * (every op, batches, epilogues, any leading dimension and 2-byte
 * alignment; the 16-byte loads where the rows allow them, element loads
 * otherwise), needs no workspace (the query answers one granule, as for
 * every variant that copies nothing) and a compute capability 9.0 GPU (clusters); it is
 * correct for any m, but slow for large m: each group of 32 rows of op(A)
 * reads the whole weight again (from L2 when they run together).
 * GK_GEMM_AUTO picks it for BF16 and F16 when n k >= GK_GEMM_SKINNY_MIN_NK
 * (a weight of at least 2 MiB) and m <= GK_GEMM_SKINNY_MAX_M with the
 * weight stored n x k (op_b = T, y = x W^T), m <= GK_GEMM_SKINNY_MAX_M_KN
 * with it stored k x n (op_b = N), beyond which variant 17 split in two
 * along k is as fast or faster on the H100 -- in both layouts only where
 * the weight's rows are whole 16-byte units (ldb, and the batch stride,
 * multiples of 8): on other rows 19's element loads are slower than
 * variant 21 split along k (1 x 4167 x 2682 stored k x n took 82 us on 19
 * and 30 us on 21 in 7 slices on the H100, gemm/tuning/tiles-h100/
 * skinny_rows.txt); and for a small C with a long
 * k, m n <= GK_GEMM_LONGK_MAX_MN and k >= GK_GEMM_LONGK_MIN_K, where
 * variant 17 cannot split k (a batch, or rows its TMA cannot address).
 * The kernel file's header explains the design and gemm/README.md gives
 * its figures. */
/* ---- Tiny products: variant 20 ----------------------------------------------
 * A BF16 or F16 product with a short k and few outputs (k at most
 * GK_GEMM_TINY_SHORT_K, m n batch at most GK_GEMM_TINY_SHORT_K_MAX_MN)
 * costs a tensor-core rung more to start than to compute; so does one with
 * a k between those two regions' (above GK_GEMM_TINY_SHORT_K, below
 * GK_GEMM_TINY_LONGK_MIN_K), at most GK_GEMM_TINY_MIDK_MAX_MN outputs and
 * GK_GEMM_TINY_MIDK_MAX_MNK multiply-adds, where variants 21 and 22 wait
 * for each of their k-tiles in turn (on the H100, cold L2: 127 x 69 x 101
 * takes 7.0 us here in TF32, 10.0 on 21; 64 x 128 x 150 7.9 against 9.9;
 * gemm/tuning/tiles-h100/latency.txt); and so does one
 * of a few outputs (m n batch at most GK_GEMM_TINY_LONGK_MAX_MN) with a
 * long k (from GK_GEMM_TINY_LONGK_MIN_K to GK_GEMM_TINY_MAX_K, up to
 * GK_GEMM_TINY_LONGK_SPLIT_MAX_MNK multiply-adds where variant 21 can
 * split k, GK_GEMM_TINY_LONGK_MAX_MNK where it cannot), whose few tiles
 * would walk k one after another. Variant 20 gives each element of C to a
 * group of 1 to 256 threads (about k / 16) that add its k products on the
 * CUDA cores and then their partial sums in a fixed tree (the same bits on
 * every run); elements are loaded one by one, so it takes everything
 * gk_gemm_ex offers for BF16 and F16 at any leading dimension and 2-byte
 * alignment, with no workspace, on any GPU from compute capability 8.0,
 * and fp32 too (gk_gemm takes it).
 * GK_GEMM_AUTO picks it in those regions for BF16 and F16, outside the
 * skinny one, and for F32 (either compute: its fp32 products are more
 * accurate than TF32's; where the region's edge depends on a split, it is
 * variant 21's split for TF32 and variant 22's for fp32, the same rule);
 * it is correct for any size, and slow for large ones (two loads per
 * multiply-add: BF16 256^3 takes 42.8 us on the H100, against 7.0 us on
 * variant 21; gemm/tuning/tiles-h100/latency.txt). */
/* The short-k edge, measured on an H200 (gemm/tuning/auto-h200): at k = 1,
 * 820 x 105 outputs (2^16.4) took 6.1 us on 20 and 7.4 on 21; at k = 3,
 * 355 x 486 (2^17.4) 8.3 on 20 and 6.1 on 21. */
#define GK_GEMM_TINY_SHORT_K ((size_t)8)
#define GK_GEMM_TINY_SHORT_K_MAX_MN ((size_t)1 << 17)
#define GK_GEMM_TINY_LONGK_MIN_K ((size_t)192)
#define GK_GEMM_TINY_MIDK_MAX_MN ((size_t)1 << 15)
#define GK_GEMM_TINY_MIDK_MAX_MNK ((size_t)1 << 21)
#define GK_GEMM_TINY_MAX_K ((size_t)16384)
#define GK_GEMM_TINY_LONGK_MAX_MN ((size_t)1 << 13)
#define GK_GEMM_TINY_LONGK_SPLIT_MAX_MNK ((size_t)1 << 22)
#define GK_GEMM_TINY_LONGK_MAX_MNK ((size_t)1 << 27)

/* ---- Mid-size products: variants 21 and 23 ------------------------------------
 * Between the tiny region and the large products that fill the GPU with
 * variant 17's 128 x 256 tiles, a BF16 or F16 product has too few of
 * those tiles to occupy 132 SMs (1024 x 256 x 1024: 8) and, where its rows
 * are not whole 16-byte units, variant 17 copies them element by element
 * with its producer warpgroup (128 of its 384 threads). Variant 23 computes
 * 128 x 128 or 128 x 64 tiles (the narrower where the wider give fewer
 * than 128 CTAs) with wgmma, one per CTA, fed by the TMA, in either layout
 * of each operand; it needs a compute capability 9.0 GPU, copies rows the
 * TMA cannot address into the workspace (above: "Workspace"; without one,
 * through gk_gemm_bf16, it gathers them element by element, correct but
 * slow, as it does a base pointer off 16 bytes), and a workspace to split
 * k (below).
 * Variant 21 computes 64 x 64 tiles with mma.sync on 128-thread CTAs, up
 * to 4 per SM, through 3 stages of 16-byte cp.async where the rows allow it
 * and element loads through registers elsewhere (fast at any alignment);
 * it needs a compute capability 8.0 GPU. GK_GEMM_AUTO picks, for BF16 and
 * F16 outside the skinny, tiny and long-k regions, variant 23 where lda,
 * ldb (and the batch strides) are multiples of 8 elements, up to m n k
 * batch <= GK_GEMM_WGMMA_MAX_MNK multiply-adds (and beyond it where 23
 * splits k); with other rows up to GK_GEMM_MID_MAX_MNK_GATHER, variant
 * 21, except through gk_gemm_ex where 21 does not split k and the copies
 * pay: m n k batch >= GK_GEMM_PAD_MIN_MNK with k >= GK_GEMM_PAD_MIN_K, or
 * m n k batch >= GK_GEMM_PAD_SHORTK_MIN_MNK at any k (variant 23 on padded
 * copies, two launches more: below those, a short k or a small product
 * runs faster on 21 without them); beyond GK_GEMM_MID_MAX_MNK_GATHER
 * variant 17's wider tiles win. Past GK_GEMM_WGMMA_MAX_MNK, 23 also takes
 * one wave: at most GK_GEMM_WGMMA_WAVE_MAX_M rows whose 23 CTAs (128 x 128
 * tiles where those number 128 or more over the batch, else 128 x 64)
 * number GK_GEMM_WGMMA_WAVE_MIN_CTAS to GK_GEMM_WGMMA_WAVE_MAX_CTAS, an
 * H100's SMs once (128 x 8192 x 8192: 23 0.0590 ms, 17 split in 2
 * 0.0721; 256 x 4096 x 4096: 0.0283 against 0.0362; gemm/README.md). */
#define GK_GEMM_WGMMA_MAX_MNK ((size_t)1 << 30)
#define GK_GEMM_WGMMA_WAVE_MAX_M ((size_t)256)
#define GK_GEMM_WGMMA_WAVE_MIN_CTAS ((size_t)128)
#define GK_GEMM_WGMMA_WAVE_MAX_CTAS ((size_t)132)
#define GK_GEMM_MID_MAX_MNK_GATHER ((size_t)1 << 33)
/* The padded copies' edges, measured on an H200 (gemm/tuning/auto-h200,
 * BF16, odd rows, 23 on the copies against 21): 23 faster from k = 172
 * (427 x 95 x 172: 10.7 against 12.2 us; 18 x 1110 x 184, 2^21.8
 * multiply-adds: 8.1 against 10.9; 7586 x 2 x 1007: 27.2 against 38.2),
 * 21 faster at k = 99 and less (915 x 33 x 99: 9.6 against 10.9;
 * 5364 x 1407 x 20: 29.2 against 34.7). */
#define GK_GEMM_PAD_MIN_MNK ((size_t)1 << 21)
#define GK_GEMM_PAD_MIN_K ((size_t)160)
#define GK_GEMM_PAD_SHORTK_MIN_MNK ((size_t)1 << 29)
/* F32 with compute TF32 has the same region on variant 21's TF32 instance
 * (the same 64 x 64 tiles of C, k-tiles of 32 floats, each operand rounded
 * to TF32 after its shared-memory load, mma.sync m16n8k8), outside the
 * tiny rule and variant 12's narrow tiles (below), up to
 * GK_GEMM_MID_TF32_MAX_MNK multiply-adds where lda, ldb (and the batch
 * strides) are multiples of 4 floats and GK_GEMM_MID_TF32_MAX_MNK_GATHER
 * elsewhere; beyond that variants 12 and 11 (TF32 at half the BF16 rate,
 * so the edges are lower than BF16's: on 12's 256-row tiles, before its
 * narrow ones, 1024^3 was a tie with 21 on the H100). */
#define GK_GEMM_MID_TF32_MAX_MNK ((size_t)1 << 29)
#define GK_GEMM_MID_TF32_MAX_MNK_GATHER ((size_t)1 << 30)
/* Inside that region variant 12 takes over where its narrow tiles (64 or
 * 128 rows of C: its header, "Narrow tiles") beat 21: from
 * GK_GEMM_TF32_WGMMA_MIN_MNK multiply-adds with k >= GK_GEMM_TF32_WGMMA_MIN_K,
 * or from GK_GEMM_TF32_WGMMA_SHORTK_MIN_MNK at any k, for n >=
 * GK_GEMM_TF32_WGMMA_MIN_N (its tiles are 128 columns wide), where 21 would
 * not split k and 12 runs its TMA path (rows of 16 bytes, or padded copies
 * in gk_gemm_ex's workspace). */
#define GK_GEMM_TF32_WGMMA_MIN_MNK ((size_t)1 << 22)
#define GK_GEMM_TF32_WGMMA_MIN_K ((size_t)128)
#define GK_GEMM_TF32_WGMMA_SHORTK_MIN_MNK ((size_t)1 << 26)
#define GK_GEMM_TF32_WGMMA_MIN_N ((size_t)32)
/* TF32 products with k <= GK_GEMM_TF32_FFMA_MAX_K, at least
 * GK_GEMM_TF32_FFMA_MIN_MN outputs (m n batch) and C's rows not whole
 * 16-byte units (ldc, or for a batch stride_c, not a multiple of 4), past
 * the tiny rule, go to variant 22 in fp32: with so short a k the time is
 * C's stores, and where C's rows keep 12 and 21 from storing 16 bytes at
 * a time 22's stores are sooner (on 16-byte rows they are not: 4096 x 4096
 * x 4 takes 22 0.0471 ms, 12 0.0317; gemm/README.md, Variant 22, has the
 * measured table); its fp32 result is more precise than TF32's. */
#define GK_GEMM_TF32_FFMA_MAX_K ((size_t)20)
#define GK_GEMM_TF32_FFMA_MIN_MN ((size_t)1 << 18)
/* F32 in fp32 (compute DEFAULT): variant 22 computes the same 64 x 64
 * tiles with FFMA (8 x 4 outputs per thread), with variant 21's copies,
 * stages and split, outside the tiny rule up to GK_GEMM_MID_F32_MAX_MNK
 * multiply-adds at any rows; beyond that variants 9 and 10 (on the H100,
 * 22 takes 1536^3 in 0.234 ms against 10's 0.276, and 10 takes 2048^3 in
 * 0.366 against 0.478). */
#define GK_GEMM_MID_F32_MAX_MNK ((size_t)1 << 32)
/* One product (batch 1) with fewer than 64 of variant 10's 128 x 256 tiles
 * and k >= 2048 (where 10 would split k: the Split-K rule below) is 10's, split,
 * only through gk_gemm_ex (it has a workspace), with A and B as stored,
 * ldb a multiple of 4, its tiles times the slices at least
 * GK_GEMM_F32_SPLIT10_MIN_UNITS and C covering at least 4/5 of its tiles;
 * any other such product is 22's at any size, split by 22's rule (on the
 * H100: 600 x 700 x 4096 on 10 in 8 slices 0.1090 ms, 0.90x cuBLAS fp32,
 * where a harness has 22 in 4 at 127.4 us; 865 x 950 x 6788, ldb 950, on
 * 22 0.4561 ms, where the harness has 10 in 5 at 552.7 us; gemm/README.md,
 * Variant 22). */
#define GK_GEMM_F32_SPLIT10_MIN_UNITS ((size_t)100)

#define GK_GEMM_SKINNY_MAX_M ((size_t)32)
#define GK_GEMM_SKINNY_MAX_M_KN ((size_t)16)
#define GK_GEMM_SKINNY_MIN_NK ((size_t)1 << 20)
#define GK_GEMM_LONGK_MAX_MN ((size_t)1 << 18)
#define GK_GEMM_LONGK_MIN_K ((size_t)8192)

/* ---- GK_GEMM_AUTO: the variant for the description ---------------------------
 * Any entry point (gk_gemm, gk_gemm_bf16, gk_gemm_ex) takes GK_GEMM_AUTO for
 * its variant id: the call then runs the variant that the table below picks
 * for its description, from the type, compute, shape, layout and leading
 * dimensions alone (never the pointers or the GPU's state: the same
 * description always picks the same variant, and the workspace query
 * answers for it). No timing at call time, no state. The rules, from the
 * bench (gemm/bench-h200.json: H200, CUDA 13.0, cold L2, medians;
 * gemm/README.md, "GK_GEMM_AUTO", gives the figures):
 *   type        compute   description                                    variant
 *   F32         either    the BF16 and F16 tiny rule below (fp32 products,
 *                         "where 21 would split k" read with 21's split)         20
 *   F32         DEFAULT   one product, fewer than 64 of 10's tiles, k >= 2048
 *                         (10 would split k, below): through gk_gemm_ex, A and B as
 *                         stored, ldb a multiple of 4, at least
 *                         GK_GEMM_F32_SPLIT10_MIN_UNITS tiles x slices and C
 *                         covering 4/5 of its 128 x 256 tiles                   10
 *                         otherwise (any size)                                  22
 *   F32         DEFAULT   m n k batch <= GK_GEMM_MID_F32_MAX_MNK                 22
 *   F32         DEFAULT   an empty product as stored (nothing to compute)      9
 *   F32         DEFAULT   anything else                                         10
 *   F32         TF32      k <= GK_GEMM_TF32_FFMA_MAX_K, m n batch >=
 *                         GK_GEMM_TF32_FFMA_MIN_MN, ldc (or stride_c) not a
 *                         multiple of 4 (in fp32)                               22
 *   F32         TF32      n >= GK_GEMM_TF32_WGMMA_MIN_N, 21 would not split k
 *                         (below), m n k batch >= GK_GEMM_TF32_WGMMA_SHORTK_MIN_MNK
 *                         or >= GK_GEMM_TF32_WGMMA_MIN_MNK with k >=
 *                         GK_GEMM_TF32_WGMMA_MIN_K; lda, ldb and the batch
 *                         strides multiples of 4, or any rows through
 *                         gk_gemm_ex (padded copies)                            12
 *   F32         TF32      m n k batch <= GK_GEMM_MID_TF32_MAX_MNK (lda, ldb
 *                         and the batch strides multiples of 4) or
 *                         GK_GEMM_MID_TF32_MAX_MNK_GATHER (otherwise)           21
 *   F32         TF32      anything else: lda, ldb and the batch strides
 *                         multiples of 4 (rows of 16 bytes: its TMA path),
 *                         or any rows through gk_gemm_ex (padded copies)        12
 *                         else (gk_gemm)                                        11
 *   BF16, F16   DEFAULT   n k >= GK_GEMM_SKINNY_MIN_NK and m <= GK_GEMM_SKINNY_MAX_M
 *                         (op_b = T) or GK_GEMM_SKINNY_MAX_M_KN (op_b = N);
 *                         ldb and the batch stride multiples of 8                19
 *   BF16, F16   DEFAULT   an empty product (m, n, k or batch 0)                  20
 *   BF16, F16   DEFAULT   k <= GK_GEMM_TINY_SHORT_K and m n batch <=
 *                         GK_GEMM_TINY_SHORT_K_MAX_MN, or GK_GEMM_TINY_SHORT_K
 *                         < k < GK_GEMM_TINY_LONGK_MIN_K with m n batch <=
 *                         GK_GEMM_TINY_MIDK_MAX_MN and m n k batch <=
 *                         GK_GEMM_TINY_MIDK_MAX_MNK, or m n batch <=
 *                         GK_GEMM_TINY_LONGK_MAX_MN with GK_GEMM_TINY_LONGK_MIN_K
 *                         <= k <= GK_GEMM_TINY_MAX_K and m n k batch <=
 *                         GK_GEMM_TINY_LONGK_SPLIT_MAX_MNK where 21 would split k
 *                         (below), GK_GEMM_TINY_LONGK_MAX_MNK where not          20
 *   BF16, F16   DEFAULT   m n <= GK_GEMM_LONGK_MAX_MN and k >= GK_GEMM_LONGK_MIN_K,
 *                         where none of 17, 21 and 23 would split k (below)      19
 *   BF16, F16   DEFAULT   lda, ldb and the batch strides multiples of 8:
 *                         m n k batch <= GK_GEMM_WGMMA_MAX_MNK, or 23 would
 *                         split k (below), or fill the GPU once (one wave,
 *                         above: m <= GK_GEMM_WGMMA_WAVE_MAX_M)                  23
 *   BF16, F16   DEFAULT   other rows through gk_gemm_ex, unless 21 would split
 *                         k (below): m n k batch <= GK_GEMM_MID_MAX_MNK_GATHER
 *                         and >= GK_GEMM_PAD_MIN_MNK with k >= GK_GEMM_PAD_MIN_K,
 *                         or >= GK_GEMM_PAD_SHORTK_MIN_MNK; on padded copies in
 *                         the workspace                                          23
 *   BF16, F16   DEFAULT   other rows: m n k batch <= GK_GEMM_MID_MAX_MNK_GATHER  21
 *   BF16, F16   DEFAULT   anything else (through gk_gemm_ex, other rows on
 *                         padded copies; through gk_gemm_bf16, gathered)         17
 *                         (17, 21 and 23 split along k as below)
 *   FP8 inputs (type_a, type_b E4M3/E5M2), any C type                          18
 * Split-K (gk_gemm_ex only: it has a workspace): when the pick is 10 or 12
 * for one product with k >= 2048 and fewer than 64 output tiles (12's are
 * 256 x 128 of C, 10's 128 x 256), k is cut into S = min(ceil(128 /
 * tiles), floor(k / 512)) slices (when S >= 2) of kc = ceil(k / S) rounded
 * up to a multiple of 32 (then S = ceil(k / kc)): the slices run as one
 * strided batch of the variant into fp32 partials, which gemm/split_k.cu
 * adds in a fixed order (z = 0 first) before alpha, beta and the epilogue:
 * the same bits on every run. The workspace then holds S m n floats (in
 * whole granules) before the variant's own scratch. A small product with a
 * long k (256 x 256 x 65536: 2 tiles, 64 slices) fills the GPU that way.
 * When the pick is 17 (BF16, F16) for one product with k >=
 * GK_GEMM_SPLIT16_MIN_K, lda and ldb multiples of 8 elements (rows its TMA
 * can address), and at most GK_GEMM_SPLIT16_MAX_PAIRS of its units (pairs
 * of 128 x 256 tiles stacked along m: ceil(m / 256) ceil(n / 256)), k is
 * cut into S = min(floor(GK_GEMM_SPLIT16_CLUSTERS / pairs), floor(k /
 * GK_GEMM_SPLIT16_MIN_KC)) slices of kc = ceil(k / S) rounded up to a
 * multiple of 64 (then S = ceil(k / kc)): variant 17 computes every
 * slice's fp32 partials in one launch, the last slice possibly shorter,
 * and split_k.cu adds them as above, rounding C to its type once. Where a
 * or b turns out not 16-byte aligned at the call, the product runs unsplit
 * in the same workspace.
 * When the pick is 21 (BF16, F16, or F32 on TF32) for one
 * product with k >= GK_GEMM_SPLIT21_MIN_K and at most
 * GK_GEMM_SPLIT21_CTAS / 2 of its 64 x 64 tiles, k is cut into S =
 * min(floor(GK_GEMM_SPLIT21_CTAS / tiles), floor(k / kc_min)) slices
 * (when S >= 2), kc_min = GK_GEMM_SPLIT21_MIN_KC (GK_GEMM_SPLIT21_GATHER_MIN_KC
 * where lda or ldb is not a multiple of 16 bytes), or 4 GK_GEMM_SPLIT21_MIN_KC with
 * more than GK_GEMM_SPLIT21_CTAS / 4 tiles (one per SM: at 1024^3, 256
 * tiles, 2 slices of 512 were slower than none), of kc = ceil(k / S)
 * rounded up to a multiple of 64 (then S = ceil(k / kc)): the variant
 * computes every slice's fp32 partials in one launch, at any layout and
 * alignment, and split_k.cu adds them as above.
 * When the pick is 22 (F32 in fp32) the same, on 22's own edges: k >=
 * GK_GEMM_SPLIT22_MIN_K, at most GK_GEMM_SPLIT22_MAX_TILES tiles (1.5 per
 * SM: past it at least half the SMs hold 2 CTAs unsplit; on the H100 2
 * slices cost time at 1024^3, 256 tiles, and gained 3% and 7% at 210 and
 * 576 tiles, too little evidence for a rule), and kc_min =
 * GK_GEMM_SPLIT22_MIN_KC up to GK_GEMM_SPLIT21_CTAS / 4 tiles,
 * GK_GEMM_SPLIT22_WIDE_MIN_KC past that: slices far shorter than 21's,
 * which pay for their partials here (gemm/README.md, Variant 22, has the
 * measured figures).
 * When the pick is 23 (BF16, F16) for one product with k >=
 * GK_GEMM_SPLIT23_MIN_K, lda and ldb multiples of 8 elements, and at most
 * GK_GEMM_SPLIT23_CTAS / 2 of its 128 x 64 tiles, k is cut into S =
 * min(floor(GK_GEMM_SPLIT23_CTAS / tiles), floor(k / GK_GEMM_SPLIT23_MIN_KC))
 * slices (when S >= 2) of kc = ceil(k / S) rounded up to a multiple of 64
 * (then S = ceil(k / kc)), computed in one launch (unsplit where a or b
 * turns out not 16-byte aligned at the call) and added as above.
 * The rungs that exist set the limits: the shapes where none of them is
 * near cuBLAS (small, skinny and odd-row products) are listed on the page
 * with their measured ratios. */
#define GK_GEMM_AUTO 0
/* Variant 17's split-K (above): from the H100 measurements on gemm/README.md. */
#define GK_GEMM_SPLIT16_MIN_K ((size_t)2048)
#define GK_GEMM_SPLIT16_MAX_PAIRS ((size_t)32)
#define GK_GEMM_SPLIT16_CLUSTERS ((size_t)64)
#define GK_GEMM_SPLIT16_MIN_KC ((size_t)512)
/* Variant 21's split-K (above; 22 shares GK_GEMM_SPLIT21_CTAS): 4 CTAs on each of the H100's 132 SMs. */
#define GK_GEMM_SPLIT21_MIN_K ((size_t)1024)
#define GK_GEMM_SPLIT21_CTAS ((size_t)528)
#define GK_GEMM_SPLIT21_MIN_KC ((size_t)256)
/* kc_min where lda or ldb is not a multiple of 16 bytes (4 floats, 8
 * 16-bit elements): variant 21 then loads each k-tile through registers,
 * one k-tile ahead, and shorter slices in more CTAs ran faster (H200,
 * gemm/tuning/auto-h200/split21: 49 x 105 x 2599 BF16 in 21 slices instead of
 * 9, 569 x 20 x 5870 in 46 instead of 19). */
#define GK_GEMM_SPLIT21_GATHER_MIN_KC ((size_t)64)
/* Variant 22's split-K (above): from the H100 measurements on gemm/README.md. */
#define GK_GEMM_SPLIT22_MIN_K ((size_t)256)
#define GK_GEMM_SPLIT22_MIN_KC ((size_t)64)
#define GK_GEMM_SPLIT22_WIDE_MIN_KC ((size_t)256)
#define GK_GEMM_SPLIT22_MAX_TILES ((size_t)198)
/* Variant 23's split-K (above): one CTA on each of the H100's 132 SMs
 * (two per SM, 264, was slower at every shape tried on an H200:
 * gemm/tuning/split-h200). */
#define GK_GEMM_SPLIT23_MIN_K ((size_t)2048)
#define GK_GEMM_SPLIT23_CTAS ((size_t)132)
#define GK_GEMM_SPLIT23_MIN_KC ((size_t)512)

/* The variant GK_GEMM_AUTO runs for *desc (checked as gk_gemm_ex checks
 * it, then stored in *variant) and, when splits is not NULL, into how many
 * slices gk_gemm_ex cuts k (1: none); nothing is launched. */
gk_status gk_gemm_auto_variant(const gk_gemm_desc *desc, int *variant, size_t *splits);

const char *gk_gemm_type_name(gk_gemm_type t);         /* "f32", "bf16", "f16", "e4m3", "e5m2" */
/* What variant v (a row of the table above) computes in when it stores type t (the tolerance its
 * results are held to): GK_GEMM_FP16 for a 16-bit row (precision
 * GK_GEMM_BF16) storing F16; for a 16-bit row that also takes fp32,
 * GK_GEMM_FP32 (variant 20, whose fp32 products are fmaf's) or
 * GK_GEMM_TF32 (variant 21, on the tensor cores); else v->precision. */
gk_gemm_precision gk_gemm_variant_precision(const gk_gemm_variant *v, gk_gemm_type t);
const char *gk_gemm_epilogue_name(gk_gemm_epilogue e); /* "none", "bias", "bias_relu", "bias_gelu" */

#ifdef __cplusplus
}
#endif

#endif /* GK_GEMM_H */
