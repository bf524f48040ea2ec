/* The reduce module's table of variants: the one list that the API, the
 * tests, the bench and the docs read. Adding a variant is a kernel file in
 * kernels/, its entry points in variants.h, and a row here.
 *
 * Each row: the public description (id, name, idea, operations, f32-sum
 * determinism, partition and its tile), then the kernel file's functions,
 * written out so that `grep gk_reduce_04` finds the row. */
#include <stddef.h>

#include "../common/module.h"
#include "variants.h"

#define SUM_ONLY GK_REDUCE_OP_BIT(GK_REDUCE_SUM)
#define ALL GK_REDUCE_ALL_OPS

static const gk_reduce_row table[] = {
    {{1, "atomic", "one global atomicAdd per element", SUM_ONLY, 0, GK_PARTITION_NONE, 0},
     gk_reduce_01_atomic_workspace, NULL, gk_reduce_01_atomic_run},
    {{2, "interleaved_divergent", "shared-memory tree, t % (2s) == 0 picks the threads (divergent)", ALL, 1,
      GK_PARTITION_CHUNKED, 256},
     gk_reduce_02_interleaved_divergent_workspace, gk_reduce_02_interleaved_divergent_num_partials,
     gk_reduce_02_interleaved_divergent_run},
    {{3, "interleaved_strided", "strided index: active threads contiguous, no divergence (up to 8-way bank conflicts)", ALL, 1,
      GK_PARTITION_CHUNKED, 256},
     gk_reduce_03_interleaved_strided_workspace, gk_reduce_03_interleaved_strided_num_partials,
     gk_reduce_03_interleaved_strided_run},
    {{4, "sequential", "sequential addressing: no bank conflicts (half the threads idle)", ALL, 1,
      GK_PARTITION_CHUNKED, 256},
     gk_reduce_04_sequential_workspace, gk_reduce_04_sequential_num_partials, gk_reduce_04_sequential_run},
    {{5, "first_add_during_load", "each thread adds two elements while loading: two loads in flight, half the blocks", ALL, 1,
      GK_PARTITION_CHUNKED, 512},
     gk_reduce_05_first_add_during_load_workspace, gk_reduce_05_first_add_during_load_num_partials,
     gk_reduce_05_first_add_during_load_run},
    {{6, "unroll_last_warp", "last 6 steps by warp 0 with __syncwarp: 3 block barriers instead of 9", ALL, 1,
      GK_PARTITION_CHUNKED, 512},
     gk_reduce_06_unroll_last_warp_workspace, gk_reduce_06_unroll_last_warp_num_partials,
     gk_reduce_06_unroll_last_warp_run},
    {{7, "complete_unroll", "compile-time block size: the whole tree unrolled", ALL, 1, GK_PARTITION_CHUNKED, 512},
     gk_reduce_07_complete_unroll_workspace, gk_reduce_07_complete_unroll_num_partials,
     gk_reduce_07_complete_unroll_run},
    {{8, "warp_shuffle", "warp shuffles instead of the shared-memory tree", ALL, 1, GK_PARTITION_CHUNKED, 512},
     gk_reduce_08_warp_shuffle_workspace, gk_reduce_08_warp_shuffle_num_partials, gk_reduce_08_warp_shuffle_run},
    {{9, "grid_stride", "thread coarsening: 1024 blocks, grid-stride loop, two passes", ALL, 1, GK_PARTITION_TILED,
      256},
     gk_reduce_09_grid_stride_workspace, gk_reduce_09_grid_stride_num_partials, gk_reduce_09_grid_stride_run},
    {{10, "block_atomic", "grid-stride blocks, one atomicAdd per block: one kernel plus a 4-byte memset", SUM_ONLY, 0,
      GK_PARTITION_NONE, 0},
     gk_reduce_10_block_atomic_workspace, NULL, gk_reduce_10_block_atomic_run},
    {{11, "vectorized_single_pass", "16-byte loads, 4 in flight per thread, resident grid, one kernel; atomic tail for sums, ticket for max/min", ALL, 0,
      GK_PARTITION_NONE, 0},
     gk_reduce_11_vectorized_single_pass_workspace, NULL, gk_reduce_11_vectorized_single_pass_run},
};

/* GK_TABLE_LOOKUPS (common/module.h) defines gk_reduce_variant_count,
 * gk_reduce_variant_at, gk_reduce_row_find and gk_reduce_find_variant. */
GK_TABLE_LOOKUPS(gk_reduce, gk_reduce_row, gk_reduce_variant, table)

int gk_reduce_best_variant(void) { return table[gk_reduce_variant_count() - 1].info.id; }
