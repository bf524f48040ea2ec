/* variants.h: the reduce module's internals (not installed).
 *
 * The kernel files' entry points, written out (grep finds each one), and the
 * table that joins each public description (gk_reduce_variant, gk/reduce.h)
 * to its functions. Only reduce.c calls these functions, after checking every
 * argument; a user of the library sees the descriptions alone.
 */
#ifndef GK_REDUCE_VARIANTS_H
#define GK_REDUCE_VARIANTS_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "gk/reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What each kernel file exports (extern "C", reduce/kernels/NN_name.cu):
 *   workspace(n, elem_size)  bytes of scratch the call needs (may be 0)
 *   num_partials(n)          M, the per-block partials of the first pass
 *                            (only variants with a partition)
 *   run(...)                 queue the work on `stream`; dtype is gk_dtype's
 *                            value; op 0 = sum, 1 = max, 2 = min; partials
 *                            NULL when not wanted. Assumes the arguments were
 *                            checked by gk_reduce().
 *   arg, rows, segments      the other forms (gk/reduce.h), where the
 *                            variant has them; op 3 = arg-max, 4 = arg-min
 *                            (out_index non-NULL), else as run.
 * The types are function types, so that each entry point below is declared
 * by its type and its full name. */
typedef size_t gk_reduce_workspace_fn(size_t n, size_t elem_size);
typedef size_t gk_reduce_num_partials_fn(size_t n);
typedef cudaError_t gk_reduce_run_fn(const void *in, size_t n, int dtype, int op, void *out, void *partials,
                                     void *workspace, cudaStream_t stream);

typedef cudaError_t gk_reduce_arg_fn(const void *in, size_t n, int dtype, int op, void *out,
                                     unsigned long long *out_index, void *workspace, cudaStream_t stream);
typedef cudaError_t gk_reduce_rows_fn(const void *in, size_t rows, size_t cols, size_t ld, int dtype, int op,
                                      void *out, unsigned long long *out_index, void *workspace,
                                      cudaStream_t stream);
typedef cudaError_t gk_reduce_segments_fn(const void *in, size_t n, size_t segments, const size_t *begin,
                                          const size_t *end, int dtype, int op, void *out,
                                          unsigned long long *out_index, int *invalid, void *workspace,
                                          cudaStream_t stream);

typedef struct gk_reduce_row {
    gk_reduce_variant info;                  /* what gk_reduce_variant_at() shows   */
    gk_reduce_workspace_fn *workspace;
    gk_reduce_num_partials_fn *num_partials; /* NULL for GK_PARTITION_NONE          */
    gk_reduce_run_fn *run;                   /* NULL without GK_REDUCE_FORM_ARRAY    */
    gk_reduce_arg_fn *arg;                   /* NULL without GK_REDUCE_FORM_ARG      */
    gk_reduce_rows_fn *rows;                 /* NULL without GK_REDUCE_FORM_ROWS     */
    gk_reduce_segments_fn *segments;         /* NULL without GK_REDUCE_FORM_SEGMENTS */
} gk_reduce_row;

/* The row of variant `id`, NULL when there is none. */
const gk_reduce_row *gk_reduce_row_find(int id);

/* The kernel files' entry points. */
gk_reduce_workspace_fn gk_reduce_01_atomic_workspace;
gk_reduce_run_fn gk_reduce_01_atomic_run;

gk_reduce_workspace_fn gk_reduce_02_interleaved_divergent_workspace;
gk_reduce_num_partials_fn gk_reduce_02_interleaved_divergent_num_partials;
gk_reduce_run_fn gk_reduce_02_interleaved_divergent_run;

gk_reduce_workspace_fn gk_reduce_03_interleaved_strided_workspace;
gk_reduce_num_partials_fn gk_reduce_03_interleaved_strided_num_partials;
gk_reduce_run_fn gk_reduce_03_interleaved_strided_run;

gk_reduce_workspace_fn gk_reduce_04_sequential_workspace;
gk_reduce_num_partials_fn gk_reduce_04_sequential_num_partials;
gk_reduce_run_fn gk_reduce_04_sequential_run;

gk_reduce_workspace_fn gk_reduce_05_first_add_during_load_workspace;
gk_reduce_num_partials_fn gk_reduce_05_first_add_during_load_num_partials;
gk_reduce_run_fn gk_reduce_05_first_add_during_load_run;

gk_reduce_workspace_fn gk_reduce_06_unroll_last_warp_workspace;
gk_reduce_num_partials_fn gk_reduce_06_unroll_last_warp_num_partials;
gk_reduce_run_fn gk_reduce_06_unroll_last_warp_run;

gk_reduce_workspace_fn gk_reduce_07_complete_unroll_workspace;
gk_reduce_num_partials_fn gk_reduce_07_complete_unroll_num_partials;
gk_reduce_run_fn gk_reduce_07_complete_unroll_run;

gk_reduce_workspace_fn gk_reduce_08_warp_shuffle_workspace;
gk_reduce_num_partials_fn gk_reduce_08_warp_shuffle_num_partials;
gk_reduce_run_fn gk_reduce_08_warp_shuffle_run;

gk_reduce_workspace_fn gk_reduce_09_grid_stride_workspace;
gk_reduce_num_partials_fn gk_reduce_09_grid_stride_num_partials;
gk_reduce_run_fn gk_reduce_09_grid_stride_run;

gk_reduce_workspace_fn gk_reduce_10_block_atomic_workspace;
gk_reduce_run_fn gk_reduce_10_block_atomic_run;

gk_reduce_workspace_fn gk_reduce_11_vectorized_single_pass_workspace;
gk_reduce_run_fn gk_reduce_11_vectorized_single_pass_run;

gk_reduce_workspace_fn gk_reduce_12_deterministic_sum_workspace;
gk_reduce_run_fn gk_reduce_12_deterministic_sum_run;

gk_reduce_workspace_fn gk_reduce_13_every_type_workspace;
gk_reduce_run_fn gk_reduce_13_every_type_run;

gk_reduce_workspace_fn gk_reduce_14_arg_pairs_workspace;
gk_reduce_run_fn gk_reduce_14_arg_pairs_run;
gk_reduce_arg_fn gk_reduce_14_arg_pairs_arg;

gk_reduce_workspace_fn gk_reduce_15_rows_segments_workspace;
gk_reduce_rows_fn gk_reduce_15_rows_segments_rows;
gk_reduce_segments_fn gk_reduce_15_rows_segments_segments;

#ifdef __cplusplus
}
#endif

#endif /* GK_REDUCE_VARIANTS_H */
