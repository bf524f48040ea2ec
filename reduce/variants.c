/* The reduce module's table of variants: the one list that the API, the
 * tests, the bench and the docs read. Adding a variant is a kernel file in
 * kernels/ and a row here. */
#include <stddef.h>

#include "gk/reduce.h"

/* The functions each kernel file exports (see gk_reduce_run_fn). */
#define GK_REDUCE_KERNEL(stem)                                                                     \
    size_t gk_reduce_##stem##_workspace(size_t n, size_t elem_size);                               \
    size_t gk_reduce_##stem##_num_partials(size_t n);                                              \
    cudaError_t gk_reduce_##stem##_run(const void *in, size_t n, int dtype, int op, void *out,     \
                                       void *partials, void *workspace, cudaStream_t stream)
GK_REDUCE_KERNEL(01_atomic);
GK_REDUCE_KERNEL(02_interleaved_divergent);
GK_REDUCE_KERNEL(03_interleaved_strided);
GK_REDUCE_KERNEL(04_sequential);
GK_REDUCE_KERNEL(05_first_add_during_load);
GK_REDUCE_KERNEL(06_unroll_last_warp);
GK_REDUCE_KERNEL(07_complete_unroll);
GK_REDUCE_KERNEL(08_warp_shuffle);
GK_REDUCE_KERNEL(09_grid_stride);
GK_REDUCE_KERNEL(10_block_atomic);
GK_REDUCE_KERNEL(11_vectorized_single_pass);

#define SUM_ONLY GK_REDUCE_OP_BIT(GK_REDUCE_SUM)
#define ALL GK_REDUCE_ALL_OPS
#define FNS(stem) gk_reduce_##stem##_workspace, gk_reduce_##stem##_num_partials, gk_reduce_##stem##_run
#define FNS_NO_PARTIALS(stem) gk_reduce_##stem##_workspace, NULL, gk_reduce_##stem##_run

static const gk_reduce_variant table[] = {
    {1, "atomic", "one global atomicAdd per element", SUM_ONLY, 0, GK_PARTITION_NONE, 0,
     FNS_NO_PARTIALS(01_atomic)},
    {2, "interleaved_divergent", "shared-memory tree, t % (2s) == 0 picks the threads (divergent)", ALL, 1,
     GK_PARTITION_CHUNKED, 256, FNS(02_interleaved_divergent)},
    {3, "interleaved_strided", "strided index: active threads contiguous, no divergence (bank conflicts)", ALL,
     1, GK_PARTITION_CHUNKED, 256, FNS(03_interleaved_strided)},
    {4, "sequential", "sequential addressing: no bank conflicts (half the threads idle)", ALL, 1,
     GK_PARTITION_CHUNKED, 256, FNS(04_sequential)},
    {5, "first_add_during_load", "each thread adds two elements while loading: half the blocks", ALL, 1,
     GK_PARTITION_CHUNKED, 512, FNS(05_first_add_during_load)},
    {6, "unroll_last_warp", "last 6 steps by one warp with __syncwarp, no block barriers", ALL, 1,
     GK_PARTITION_CHUNKED, 512, FNS(06_unroll_last_warp)},
    {7, "complete_unroll", "compile-time block size: the whole tree unrolled", ALL, 1, GK_PARTITION_CHUNKED,
     512, FNS(07_complete_unroll)},
    {8, "warp_shuffle", "warp shuffles instead of the shared-memory tree", ALL, 1, GK_PARTITION_CHUNKED, 512,
     FNS(08_warp_shuffle)},
    {9, "grid_stride", "thread coarsening: 1024 blocks, grid-stride loop, two passes", ALL, 1,
     GK_PARTITION_TILED, 256, FNS(09_grid_stride)},
    {10, "block_atomic", "grid-stride blocks, one atomicAdd per block: a single kernel", SUM_ONLY, 0,
     GK_PARTITION_NONE, 0, FNS_NO_PARTIALS(10_block_atomic)},
    {11, "vectorized_single_pass", "16-byte loads, 4 in flight, resident grid, one kernel, atomic tail", ALL, 0,
     GK_PARTITION_NONE, 0, FNS_NO_PARTIALS(11_vectorized_single_pass)},
};

size_t gk_reduce_variant_count(void) { return sizeof table / sizeof table[0]; }

const gk_reduce_variant *gk_reduce_variant_at(size_t index)
{
    return index < gk_reduce_variant_count() ? &table[index] : NULL;
}

const gk_reduce_variant *gk_reduce_find_variant(int id)
{
    for (size_t i = 0; i < gk_reduce_variant_count(); ++i)
        if (table[i].id == id) return &table[i];
    return NULL;
}

int gk_reduce_best_variant(void) { return table[gk_reduce_variant_count() - 1].id; }
