/* variants.h: the gemm module's internals (not installed).
 *
 * The kernel files' entry points, written out (grep finds each one), and the
 * table that joins each public description (gk_gemm_variant, gk/gemm.h) to
 * its function. Only gemm.c calls these functions, after checking every
 * argument; a user of the library sees the descriptions alone.
 */
#ifndef GK_GEMM_VARIANTS_H
#define GK_GEMM_VARIANTS_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "gk/gemm.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What each kernel file exports (extern "C", gemm/kernels/NN_name.cu): queue
 * C = alpha*A*B + beta*C on `stream`. Assumes gk_gemm() checked the
 * arguments: 1 <= m, n and 0 <= k, all <= GK_GEMM_MAX_DIM; lda >= k, ldb >= n,
 * ldc >= n; c non-NULL, a and b non-NULL when k > 0; 4-byte-aligned pointers.
 * Returns cudaErrorNotSupported (launching nothing) on a GPU older than the
 * variant needs, and cudaErrorInvalidConfiguration (launching nothing) when
 * m x n needs more blocks than one launch can have. The types are function
 * types, so that each entry point below is declared by its type and its full
 * name. */
typedef cudaError_t gk_gemm_run_fn(size_t m, size_t n, size_t k, float alpha, const float *a, size_t lda,
                                   const float *b, size_t ldb, float beta, float *c, size_t ldc, cudaStream_t stream);

/* The kernel files' entry points. */
gk_gemm_run_fn gk_gemm_01_naive_run;
gk_gemm_run_fn gk_gemm_02_coalesced_run;
gk_gemm_run_fn gk_gemm_03_smem_tiled_run;
gk_gemm_run_fn gk_gemm_04_1d_blocktiling_run;
gk_gemm_run_fn gk_gemm_05_2d_blocktiling_run;
gk_gemm_run_fn gk_gemm_06_vectorized_run;
gk_gemm_run_fn gk_gemm_07_bank_conflict_free_run;
gk_gemm_run_fn gk_gemm_08_warp_tiling_run;
gk_gemm_run_fn gk_gemm_09_double_buffered_cp_async_run;
gk_gemm_run_fn gk_gemm_10_tuned_fp32_run;
gk_gemm_run_fn gk_gemm_11_tf32_mma_run;
gk_gemm_run_fn gk_gemm_12_tf32_wgmma_run;

/* The 16-bit rungs (ids 13-17, gemm/kernels/bf16_NN_name.cu, exported as
 * gk_gemm_bf16_NN_name_run): the same contract as gk_gemm_run_fn with
 * __nv_bfloat16 operands behind the void pointers, 2-byte-aligned. A variant
 * returns cudaErrorNotSupported (launching nothing) where it cannot run: a
 * GPU older than min_cc, and for the wgmma variants any GPU other than
 * compute capability 9.0 or a library not built for sm_90a. */
typedef cudaError_t gk_gemm_bf16_run_fn(size_t m, size_t n, size_t k, float alpha, const void *a, size_t lda,
                                        const void *b, size_t ldb, float beta, void *c, size_t ldc,
                                        cudaStream_t stream);

/* An extended variant's entry point (gk_gemm_ex): the whole description,
 * checked by gemm.c, as scalars, so that a kernel file needs no header of
 * the library. type: 0 f32, 1 bf16, 2 f16 (gk_gemm_type); op_a, op_b: 0
 * as stored, 1 transposed; lda, ldb, ldc resolved (never 0 for a read
 * matrix); strides in elements, read only when batch > 1; epilogue: 0 none,
 * 1 bias, 2 bias + ReLU, 3 bias + GELU (gk_gemm_epilogue), bias non-NULL
 * with an epilogue. 1 <= m, n; 0 <= k; batch >= 1; all within the checks of
 * gk_gemm_ex. The same return values as gk_gemm_bf16_run_fn. */
typedef cudaError_t gk_gemm_ex_run_fn(int type, int op_a, int op_b, size_t m, size_t n, size_t k, float alpha,
                                      const void *a, size_t lda, size_t stride_a, const void *b, size_t ldb,
                                      size_t stride_b, float beta, void *c, size_t ldc, size_t stride_c,
                                      size_t batch, int epilogue, const void *bias, void *workspace,
                                      cudaStream_t stream);

/* The scratch an extended variant needs for a description (bytes, before
 * gk_gemm_ex rounds it up and adds nothing else), (size_t)-1 when it would
 * reach 2^62 bytes: the TF32 rungs' transposed copies of an operand, and
 * the padded copies of rows that are not whole 16-byte units made by 12,
 * 17 and 23 (A and B, for their TMA) and 10 (B, for its 16-byte loads). A
 * row without one needs none. lda, ldb resolved as for gk_gemm_ex_run_fn.
 * The workspace passed to gk_gemm_ex_run_fn holds at least that many
 * bytes, 16-byte aligned, or is NULL (gk_gemm, gk_gemm_bf16: such rows
 * then take the variant's path for them without a copy). */
typedef size_t gk_gemm_scratch_fn(int op_a, int op_b, size_t m, size_t n, size_t k, size_t batch, size_t stride_a,
                                  size_t stride_b, size_t lda, size_t ldb);

/* An FP8 product (gk_gemm_ex with FP8 inputs, gk/gemm.h "FP8"), checked by
 * gemm.c: types as gk_gemm_type's values (type_a, type_b 3 e4m3 or 4 e5m2,
 * not both 4; type_c 0 f32, 1 bf16, 2 f16), the rest as gk_gemm_ex_run_fn's
 * (leading dimensions resolved, strides 0 when batch = 1), the scale and
 * amax pointers as the description's (NULL: none). 1 <= m, n; 0 <= k. */
typedef struct gk_gemm_fp8_problem {
    int type_a, type_b, type_c, op_a, op_b;
    size_t m, n, k, batch;
    const void *a, *b;
    size_t lda, ldb, stride_a, stride_b;
    void *c;
    size_t ldc, stride_c;
    float alpha, beta;
    int epilogue;
    const void *bias;
    const float *scale_a, *scale_b, *scale_a_rows, *scale_b_cols;
    float *amax;
    int fast_accum;
} gk_gemm_fp8_problem;
/* The FP8 rung's functions, on the problem's fields as scalars (so that its
 * kernel file needs no header of the library): the scratch it needs (bytes,
 * from the description and the alignment of a and b; (size_t)-1 at 2^62
 * bytes or more), and the launch, with a workspace of at least that many
 * bytes, 16-byte aligned. The same return values as gk_gemm_ex_run_fn.
 * gemm.c's fp8_run and fp8_scratch unpack a gk_gemm_fp8_problem into them. */
typedef size_t gk_gemm_fp8_scratch_fn(int op_a, int op_b, size_t m, size_t n, size_t k, size_t batch, const void *a,
                                      size_t lda, size_t stride_a, const void *b, size_t ldb, size_t stride_b);
typedef cudaError_t gk_gemm_fp8_run_fn(int type_a, int type_b, int type_c, int op_a, int op_b, size_t m, size_t n,
                                       size_t k, size_t batch, const void *a, size_t lda, size_t stride_a,
                                       const void *b, size_t ldb, size_t stride_b, void *c, size_t ldc,
                                       size_t stride_c, float alpha, float beta, int epilogue, const void *bias,
                                       const float *scale_a, const float *scale_b, const float *scale_a_rows,
                                       const float *scale_b_cols, float *amax, int fast_accum, void *workspace,
                                       cudaStream_t stream);

/* Split-K's first step in one launch (variants 17, 21, 22 and 23): the fp32
 * partials alpha = 1 of `splits` slices of k, slice z = k z kc .. (kc a
 * multiple of 64; the last slice shorter, never empty), into dense m x n
 * slabs at `partials`; type 1 bf16, 2 f16 (and 0 f32 for 21, on TF32;
 * 22: f32 only);
 * the rest as gk_gemm_ex_run_fn's.
 * cudaErrorNotSupported, nothing launched, where the variant cannot (17,
 * 23: rows of A or B their TMA cannot address): gk_gemm_ex then runs the product
 * unsplit. */
typedef cudaError_t gk_gemm_split_run_fn(int type, int op_a, int op_b, size_t m, size_t n, size_t k, size_t kc,
                                         size_t splits, const void *a, size_t lda, const void *b, size_t ldb,
                                         float *partials, cudaStream_t stream);

/* One row of the module's table: the public description, then the kernel
 * file's functions: `run` for the fp32 rungs (1-12), `run16` for the 16-bit
 * ones (13-17), and `run_ex` where the variant is extended (NULL
 * otherwise), and `scratch` where run_ex needs a workspace (NULL
 * otherwise); `run_fp8` and `scratch_fp8` for the FP8 rung (18); `split`
 * where GK_GEMM_AUTO's split-K runs the slices in one launch (17, 21-23);
 * `f32`: what the row computes fp32 storage in (1-12: their precision;
 * 20: FP32; 21: TF32; FP32 where the row stores no F32, unread there);
 * gk_gemm_variant_precision reads it for the 16-bit rows 20 and 21. */
typedef struct gk_gemm_row {
    gk_gemm_variant info; /* what gk_gemm_variant_at() shows */
    gk_gemm_run_fn *run;
    gk_gemm_bf16_run_fn *run16;
    gk_gemm_ex_run_fn *run_ex;
    gk_gemm_scratch_fn *scratch;
    gk_gemm_fp8_run_fn *run_fp8;
    gk_gemm_fp8_scratch_fn *scratch_fp8;
    gk_gemm_split_run_fn *split;
    gk_gemm_precision f32;
} gk_gemm_row;

/* gemm/fp8_quantize.cu: gk_gemm_fp8_quantize's launch (arguments checked:
 * type 3 or 4, count >= 1, x and out non-NULL). */
cudaError_t gk_gemm_fp8_quantize_launch(int type, const float *x, size_t count, float scale, void *out,
                                        float *amax, cudaStream_t stream);

/* gemm/split_k.cu: C = epilogue(alpha (P_0 + ... + P_{splits-1}) + beta C +
 * bias) over `splits` dense m x n fp32 partials at `partials`, added in
 * that order (GK_GEMM_AUTO's split-K of variants 10, 12, 17 and 21; m, n >= 1;
 * type 0 f32, 1 bf16, 2 f16: C's and the bias's element; epilogue as
 * gk_gemm_ex_run_fn's). */
cudaError_t gk_gemm_split_k_sum(int type, const float *partials, size_t splits, size_t m, size_t n, float alpha,
                                float beta, void *c, size_t ldc, int epilogue, const void *bias, cudaStream_t stream);


/* The row of variant `id`, NULL when there is none. */
const gk_gemm_row *gk_gemm_row_find(int id);

gk_gemm_bf16_run_fn gk_gemm_bf16_01_mma_sync_run;
gk_gemm_bf16_run_fn gk_gemm_bf16_02_wgmma_run;
gk_gemm_bf16_run_fn gk_gemm_bf16_03_tma_run;
gk_gemm_bf16_run_fn gk_gemm_bf16_04_warp_specialized_run;
gk_gemm_bf16_run_fn gk_gemm_bf16_05_persistent_run;
gk_gemm_ex_run_fn gk_gemm_bf16_05_persistent_run_ex;
gk_gemm_split_run_fn gk_gemm_bf16_05_persistent_run_split;
gk_gemm_ex_run_fn gk_gemm_10_tuned_fp32_run_ex;
gk_gemm_ex_run_fn gk_gemm_11_tf32_mma_run_ex;
gk_gemm_scratch_fn gk_gemm_10_tuned_fp32_scratch;
gk_gemm_scratch_fn gk_gemm_11_tf32_mma_scratch;
gk_gemm_ex_run_fn gk_gemm_12_tf32_wgmma_run_ex;
gk_gemm_scratch_fn gk_gemm_12_tf32_wgmma_scratch;
gk_gemm_scratch_fn gk_gemm_bf16_05_persistent_scratch;
gk_gemm_scratch_fn gk_gemm_small_04_wgmma_tiles_scratch;
gk_gemm_fp8_run_fn gk_gemm_fp8_01_scaled_wgmma_run;
gk_gemm_fp8_scratch_fn gk_gemm_fp8_01_scaled_wgmma_scratch;
gk_gemm_ex_run_fn gk_gemm_skinny_01_weight_stream_run_ex;
gk_gemm_bf16_run_fn gk_gemm_small_01_dot_run;
gk_gemm_run_fn gk_gemm_small_01_dot_run_f32;
gk_gemm_ex_run_fn gk_gemm_small_01_dot_run_ex;
gk_gemm_bf16_run_fn gk_gemm_small_02_tiles_run;
gk_gemm_ex_run_fn gk_gemm_small_02_tiles_run_ex;
gk_gemm_split_run_fn gk_gemm_small_02_tiles_run_split;
gk_gemm_run_fn gk_gemm_small_02_tiles_run_tf32;
gk_gemm_run_fn gk_gemm_small_03_ffma_run;
gk_gemm_ex_run_fn gk_gemm_small_03_ffma_run_ex;
gk_gemm_split_run_fn gk_gemm_small_03_ffma_run_split;
gk_gemm_bf16_run_fn gk_gemm_small_04_wgmma_tiles_run;
gk_gemm_ex_run_fn gk_gemm_small_04_wgmma_tiles_run_ex;
gk_gemm_split_run_fn gk_gemm_small_04_wgmma_tiles_run_split;

#ifdef __cplusplus
}
#endif

#endif /* GK_GEMM_VARIANTS_H */
