/* gk/reduce.h: reduction of an array to one value (sum, max, min) on the GPU.
 *
 * The module is a ladder of variants, numbered in teaching order, from a
 * global atomicAdd per element (1) to a single-pass, 16-byte-load kernel
 * (11) that is as fast as cub::DeviceReduce or faster in every case of the
 * module's measured table (reduce/README.md: f32 sums on an H200). Every
 * variant is one file in reduce/kernels/ and one row in the module's table
 * (reduce/variants.c); the API, the tests, the bench and the docs all read
 * it, and gk_reduce_variant_at() below shows each row's description.
 * reduce/README.md walks up the ladder with measured numbers.
 *
 * Calling convention (the same for every variant):
 *   - Types: GK_F32 (float) and GK_I32 (int32_t), from gk/dtype.h. Operations: every variant
 *     does GK_REDUCE_SUM; variant->ops says which else it does (all but the
 *     two atomic variants do max and min too).
 *   - n is a size_t, any value from 0 to GK_REDUCE_MAX_N; n = 0 gives the
 *     identity (0 for a sum, -inf / INT32_MIN for max, +inf / INT32_MAX for
 *     min). `in` may start at any element (4-byte) boundary; nothing needs
 *     16-byte alignment. `in` may be NULL only when n = 0.
 *   - i32 sums wrap modulo 2^32 (two's complement), exactly, in any order.
 *     f32 max/min follow fmaxf/fminf (a NaN loses to a number).
 *   - Scratch memory by two-phase query, as in CUB: with workspace == NULL the
 *     call stores the bytes it needs in *workspace_bytes and does nothing else.
 *     That size depends only on the variant, n and the type (never on the GPU)
 *     and is never 0. Then call again with a workspace of at least that many
 *     bytes, 16-byte aligned (cudaMalloc's are), and *workspace_bytes saying
 *     how large it is. Nothing is allocated inside a call.
 *   - Work is queued on `stream` (the last argument); the call does not wait
 *     for it. The result lands in device memory at `out`.
 *   - Threads: any call may be made from several host threads at once, on
 *     different streams or devices, with nothing shared between them: no
 *     call keeps state between calls or sets a launch attribute (variant 11
 *     only reads the device's SM count and its kernel's occupancy). Calls
 *     that may run at the same time must not share a workspace (nor an
 *     `out` or `partials`): give each its own.
 *   - Bad arguments (NULL pointers, an unknown variant, an unsupported type or
 *     operation, a workspace too small, a misaligned pointer) give a status
 *     with a message; nothing is launched and nothing is written, not even
 *     *workspace_bytes.
 *
 * Determinism, run to run, for the same input, n and GPU model: every i32
 * result and every max/min is exact and so always the same. f32 sums of
 * variants 2-9 add in a fixed order (a fixed tree over a fixed partition) and
 * are bitwise reproducible. Variants 1, 10 and 11 combine f32 values with
 * atomicAdd in the order the hardware serves them: their f32 sums may differ
 * in the last bits from run to run (always within the rounding bound).
 * variant->f32_sum_deterministic says which.
 */
#ifndef GK_REDUCE_H
#define GK_REDUCE_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "gk/dtype.h" /* gk_dtype, gk_dtype_size, gk_dtype_name */
#include "gk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gk_reduce_op { GK_REDUCE_SUM = 0, GK_REDUCE_MAX = 1, GK_REDUCE_MIN = 2 } gk_reduce_op;

#define GK_REDUCE_OP_BIT(op) (1u << (unsigned)(op))
#define GK_REDUCE_ALL_OPS \
    (GK_REDUCE_OP_BIT(GK_REDUCE_SUM) | GK_REDUCE_OP_BIT(GK_REDUCE_MAX) | GK_REDUCE_OP_BIT(GK_REDUCE_MIN))

/* Largest n any variant accepts: 2^38 elements (1 TiB of floats). */
#define GK_REDUCE_MAX_N ((size_t)1 << 38)

/* How a variant's first pass splits the input among its M blocks, which is
 * what its per-block partial sums mean:
 *   CHUNKED: block b reduces elements [b*tile, (b+1)*tile) (the last chunk
 *            may be short).
 *   TILED:   tiles of `tile` consecutive elements are dealt round-robin to the
 *            M blocks: element i belongs to block (i / tile) % M (a
 *            grid-stride loop).
 *   NONE:    the variant does not expose per-block partials. */
typedef enum gk_partition { GK_PARTITION_NONE = 0, GK_PARTITION_CHUNKED, GK_PARTITION_TILED } gk_partition;

/* What a variant is: a read-only description, one per row of the module's
 * table. The kernels themselves are reached only through gk_reduce(), which
 * checks every argument first. */
typedef struct gk_reduce_variant {
    int id;                 /* 1, 2, ... in teaching order; also the bench's id   */
    const char *name;       /* short name, the kernel file's name without number  */
    const char *idea;       /* one line: what this step changes                   */
    unsigned ops;           /* GK_REDUCE_OP_BIT(op) for each supported operation  */
    int f32_sum_deterministic; /* 1 when f32 sums are bitwise reproducible         */
    gk_partition partition; /* meaning of the per-block partials                  */
    size_t partition_tile;  /* the tile of that partition (0 for NONE)            */
} gk_reduce_variant;

/* The table: variants in teaching order, ids 1..count. */
size_t gk_reduce_variant_count(void);
const gk_reduce_variant *gk_reduce_variant_at(size_t index); /* NULL when out of range */
const gk_reduce_variant *gk_reduce_find_variant(int id);     /* NULL when unknown      */
/* The id of the last rung, variant 11: the fastest of the module in every
 * case of its measured table (f32 sums at n = 2^20, 2^24 and 2^28 on an
 * H200, reduce/README.md). */
int gk_reduce_best_variant(void);

/* Reduce in[0..n) with `op` into out[0]. See the calling convention above. */
gk_status gk_reduce(int variant, gk_dtype dtype, gk_reduce_op op, const void *in, size_t n,
                    void *out, void *workspace, size_t *workspace_bytes, cudaStream_t stream);

/* As gk_reduce, and also store the first pass's per-block results in
 * partials[0..M) (M from gk_reduce_num_partials; 0 when n = 0, and then
 * partials may be NULL). num_partials is the capacity of `partials`, in
 * elements. Only for variants whose partition is not GK_PARTITION_NONE. */
gk_status gk_reduce_partials(int variant, gk_dtype dtype, gk_reduce_op op, const void *in, size_t n,
                             void *out, void *partials, size_t num_partials, void *workspace,
                             size_t *workspace_bytes, cudaStream_t stream);

/* M, the number of per-block partials that variant produces for n elements. */
gk_status gk_reduce_num_partials(int variant, size_t n, size_t *count);

const char *gk_reduce_op_name(gk_reduce_op op); /* "sum", "max", "min" */

#ifdef __cplusplus
}
#endif

#endif /* GK_REDUCE_H */
