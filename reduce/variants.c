/* The reduce module's table of variants: the one list that the API, the
 * tests, the bench and the docs read. Adding a variant is a kernel file in
 * kernels/, its entry points in variants.h, and a row here.
 *
 * Each row: the public description (id, name, idea, operations, f32-sum
 * determinism, partition and its tile, forms, types), then the kernel
 * file's functions (workspace, num_partials, run, arg, rows, segments),
 * written out so that `grep gk_reduce_04` finds the row. */
#include <stddef.h>

#include "../common/module.h"
#include "variants.h"

#define SUM_ONLY GK_REDUCE_OP_BIT(GK_REDUCE_SUM)
#define ALL GK_REDUCE_ALL_OPS
#define ARRAY GK_REDUCE_FORM_ARRAY, F32_I32
#define F32_I32 (GK_REDUCE_DTYPE_BIT(GK_F32) | GK_REDUCE_DTYPE_BIT(GK_I32))
#define EVERY_TYPE                                                                                              \
    (F32_I32 | GK_REDUCE_DTYPE_BIT(GK_U32) | GK_REDUCE_DTYPE_BIT(GK_F64) | GK_REDUCE_DTYPE_BIT(GK_F16) |       \
     GK_REDUCE_DTYPE_BIT(GK_BF16) | GK_REDUCE_DTYPE_BIT(GK_I64))

static const gk_reduce_row table[] = {
    {{1, "atomic", "one global atomicAdd per element", SUM_ONLY, 0, GK_PARTITION_NONE, 0, ARRAY},
     gk_reduce_01_atomic_workspace, NULL, gk_reduce_01_atomic_run, NULL, NULL, NULL},
    {{2, "interleaved_divergent", "shared-memory tree, t % (2s) == 0 picks the threads (divergent)", ALL, 1,
      GK_PARTITION_CHUNKED, 256, ARRAY},
     gk_reduce_02_interleaved_divergent_workspace, gk_reduce_02_interleaved_divergent_num_partials,
     gk_reduce_02_interleaved_divergent_run, NULL, NULL, NULL},
    {{3, "interleaved_strided", "strided index: active threads contiguous, no divergence (up to 8-way bank conflicts)", ALL, 1,
      GK_PARTITION_CHUNKED, 256, ARRAY},
     gk_reduce_03_interleaved_strided_workspace, gk_reduce_03_interleaved_strided_num_partials,
     gk_reduce_03_interleaved_strided_run, NULL, NULL, NULL},
    {{4, "sequential", "sequential addressing: no bank conflicts (half the threads idle)", ALL, 1,
      GK_PARTITION_CHUNKED, 256, ARRAY},
     gk_reduce_04_sequential_workspace, gk_reduce_04_sequential_num_partials, gk_reduce_04_sequential_run, NULL, NULL, NULL},
    {{5, "first_add_during_load", "each thread adds two elements while loading: two loads in flight, half the blocks", ALL, 1,
      GK_PARTITION_CHUNKED, 512, ARRAY},
     gk_reduce_05_first_add_during_load_workspace, gk_reduce_05_first_add_during_load_num_partials,
     gk_reduce_05_first_add_during_load_run, NULL, NULL, NULL},
    {{6, "unroll_last_warp", "last 6 steps by warp 0 with __syncwarp: 3 block barriers instead of 9", ALL, 1,
      GK_PARTITION_CHUNKED, 512, ARRAY},
     gk_reduce_06_unroll_last_warp_workspace, gk_reduce_06_unroll_last_warp_num_partials,
     gk_reduce_06_unroll_last_warp_run, NULL, NULL, NULL},
    {{7, "complete_unroll", "compile-time block size: the whole tree unrolled", ALL, 1, GK_PARTITION_CHUNKED, 512, ARRAY},
     gk_reduce_07_complete_unroll_workspace, gk_reduce_07_complete_unroll_num_partials,
     gk_reduce_07_complete_unroll_run, NULL, NULL, NULL},
    {{8, "warp_shuffle", "warp shuffles instead of the shared-memory tree", ALL, 1, GK_PARTITION_CHUNKED, 512, ARRAY},
     gk_reduce_08_warp_shuffle_workspace, gk_reduce_08_warp_shuffle_num_partials, gk_reduce_08_warp_shuffle_run, NULL, NULL, NULL},
    {{9, "grid_stride", "thread coarsening: 1024 blocks, grid-stride loop, two passes", ALL, 1, GK_PARTITION_TILED,
      256, ARRAY},
     gk_reduce_09_grid_stride_workspace, gk_reduce_09_grid_stride_num_partials, gk_reduce_09_grid_stride_run, NULL, NULL, NULL},
    {{10, "block_atomic", "grid-stride blocks, one atomicAdd per block: one kernel plus a 4-byte memset", SUM_ONLY, 0,
      GK_PARTITION_NONE, 0, ARRAY},
     gk_reduce_10_block_atomic_workspace, NULL, gk_reduce_10_block_atomic_run, NULL, NULL, NULL},
    {{11, "vectorized_single_pass", "16-byte loads, 4 in flight per thread, resident grid, one kernel; atomic tail for sums, ticket for max/min", ALL, 0,
      GK_PARTITION_NONE, 0, ARRAY},
     gk_reduce_11_vectorized_single_pass_workspace, NULL, gk_reduce_11_vectorized_single_pass_run, NULL, NULL, NULL},
    {{12, "deterministic_sum", "variant 11 with a fixed-order tree over per-block results in tagged slots instead of atomics: same bits every run, no memset", ALL, 1,
      GK_PARTITION_NONE, 0, ARRAY},
     gk_reduce_12_deterministic_sum_workspace, NULL, gk_reduce_12_deterministic_sum_run, NULL, NULL, NULL},
    {{13, "every_type", "every type through 16-byte loads (8 halves, 4 words, 2 doubles), accumulated in f32/f64/wrapping ints", ALL, 1,
      GK_PARTITION_NONE, 0, GK_REDUCE_FORM_ARRAY, EVERY_TYPE},
     gk_reduce_13_every_type_workspace, NULL, gk_reduce_13_every_type_run, NULL, NULL, NULL},
    {{14, "arg_pairs", "(value, index) pairs: arg-max and arg-min, first index on ties, NaN first; every type and op", ALL, 1,
      GK_PARTITION_NONE, 0, GK_REDUCE_FORM_ARRAY | GK_REDUCE_FORM_ARG, EVERY_TYPE},
     gk_reduce_14_arg_pairs_workspace, NULL, gk_reduce_14_arg_pairs_run, gk_reduce_14_arg_pairs_arg, NULL, NULL},
    {{15, "rows_segments", "rows and segments in one launch: a warp per short row, a block per long one", 0, 1,
      GK_PARTITION_NONE, 0, GK_REDUCE_FORM_ROWS | GK_REDUCE_FORM_SEGMENTS, EVERY_TYPE},
     gk_reduce_15_rows_segments_workspace, NULL, NULL, NULL, gk_reduce_15_rows_segments_rows,
     gk_reduce_15_rows_segments_segments},
};

/* GK_TABLE_LOOKUPS (common/module.h) defines gk_reduce_variant_count,
 * gk_reduce_variant_at, gk_reduce_row_find and gk_reduce_find_variant. */
GK_TABLE_LOOKUPS(gk_reduce, gk_reduce_row, gk_reduce_variant, table)

int gk_reduce_best_variant_for(unsigned form)
{
    for (size_t i = gk_reduce_variant_count(); i-- > 0;)
        if (form != 0 && (table[i].info.forms & form) == form) return table[i].info.id;
    return 0;
}

int gk_reduce_best_variant(void) { return gk_reduce_best_variant_for(GK_REDUCE_FORM_ARRAY); }
