/* gk/reduce.h: reduction on the GPU: of an array to one value (sum, max,
 * min), to the value and index of its extremum (arg-max, arg-min), and of
 * many rows or segments at once, one value each.
 *
 * The module is a ladder of variants, numbered in teaching order, from a
 * global atomicAdd per element (1) to a single-pass, 16-byte-load kernel
 * (11), then four rungs for what callers need beyond an f32 sum: a
 * deterministic tail (12), every element type with 16-byte loads (13),
 * (value, index) pairs for arg-max and arg-min (14), and rows and segments
 * in one launch (15). Every variant is one file in reduce/kernels/ and one
 * row in the module's table (reduce/variants.c); the API, the tests, the
 * bench and the docs all read it, and gk_reduce_variant_at() below shows
 * each row's description. reduce/README.md walks up the ladder with
 * measured numbers.
 *
 * Forms (variant->forms says which a variant does):
 *   GK_REDUCE_FORM_ARRAY     gk_reduce, gk_reduce_partials: in[0..n) to one value.
 *   GK_REDUCE_FORM_ARG       gk_reduce_arg: the extremum and its first index.
 *   GK_REDUCE_FORM_ROWS      gk_reduce_rows: rows x cols with a row stride.
 *   GK_REDUCE_FORM_SEGMENTS  gk_reduce_segments: CUB's begin/end offsets.
 * gk_reduce_best_variant_for(form) is the last rung of the ladder that does
 * that form; those rungs (14 for arrays and arg, 15 for rows and segments)
 * take every type and every operation.
 *
 * Types (variant->dtypes; variants 1-12 take f32 and i32 only) and what a
 * result is, per type. The result type is gk_reduce_result_dtype(dtype):
 *   GK_F32   f32 result. Sums rounded (each add rounds to f32), within
 *            gk_sum_tolerance of the exact sum (gk/verify.h). max/min exact.
 *   GK_F16, GK_BF16  inputs converted to f32 (exactly: every f16 and bf16
 *            value is an f32) and reduced as f32: an f32 result, rounded as
 *            an f32 sum, never overflowing at f16's 65504. max/min exact (the
 *            same value, as an f32).
 *   GK_F64   f64 result, sums rounded in f64. max/min exact.
 *   GK_I32, GK_U32  sums wrap modulo 2^32 (two's complement for i32), exact
 *            in any order. max/min exact.
 *   GK_I64   sums wrap modulo 2^64, exact. max/min exact.
 * Floating max/min follow fmax/fmin: a NaN loses to a number and to the
 * identity (an input of NaNs only gives -inf for max, +inf for min).
 * Arg-max/arg-min have their own NaN rule, below.
 *
 * Calling convention (the same for every variant and form):
 *   - n is a size_t, any value from 0 to GK_REDUCE_MAX_N; n = 0 gives the
 *     identity (0 for a sum; for max -inf, or the type's lowest integer; for
 *     min +inf, or the highest). `in` may start at any element boundary;
 *     nothing needs 16-byte alignment. `in` may be NULL only when it holds
 *     no element. Outputs are aligned to their own type.
 *   - Scratch memory by two-phase query, as in CUB: with workspace == NULL the
 *     call stores the bytes it needs in *workspace_bytes and does nothing else.
 *     That size depends only on the variant, the form, n and the type (never
 *     on the GPU) and is never 0. Then call again with a workspace of at
 *     least that many bytes, 16-byte aligned (cudaMalloc's are), and
 *     *workspace_bytes saying how large it is. Nothing is allocated inside a
 *     call.
 *   - Work is queued on `stream` (the last argument); the call does not wait
 *     for it. Results land in device memory.
 *   - Threads: any call may be made from several host threads at once, on
 *     different streams or devices, with nothing shared between them: no
 *     call keeps state between calls or sets a launch attribute (variants
 *     11-14 only read the device's SM count and their kernel's occupancy).
 *     Calls that may run at the same time must not share a workspace (nor
 *     an output): give each its own.
 *   - Bad arguments (NULL pointers, an unknown variant, a form, type or
 *     operation the variant does not do, a workspace too small, a misaligned
 *     pointer) give a status with a message; nothing is launched and nothing
 *     is written, not even *workspace_bytes.
 *
 * Determinism, run to run, for the same input, n and GPU model (the same SM
 * count), whatever the stream and whatever runs beside it: every integer
 * result, every max/min and every arg result is exact and so always the
 * same. Floating sums of variants 2-9 and 12-15 add in an order fixed by
 * the code (a fixed tree over a fixed partition; 12-14 end with a fixed-
 * order tree over per-block results, no atomics on the data) and are
 * bitwise reproducible. Variants 1, 10 and 11 combine f32 values with
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

/* The forms of a reduction (variant->forms): bits. */
#define GK_REDUCE_FORM_ARRAY 1u    /* gk_reduce (and gk_reduce_partials where partition != NONE) */
#define GK_REDUCE_FORM_ARG 2u      /* gk_reduce_arg */
#define GK_REDUCE_FORM_ROWS 4u     /* gk_reduce_rows */
#define GK_REDUCE_FORM_SEGMENTS 8u /* gk_reduce_segments */

/* variant->dtypes: GK_REDUCE_DTYPE_BIT(dtype) for each type it takes. */
#define GK_REDUCE_DTYPE_BIT(dt) (1u << (unsigned)(dt))

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
 * table. The kernels themselves are reached only through gk_reduce() and
 * the other entry points below, which check every argument first. */
typedef struct gk_reduce_variant {
    int id;                 /* 1, 2, ... in teaching order; also the bench's id   */
    const char *name;       /* short name, the kernel file's name without number  */
    const char *idea;       /* one line: what this step changes                   */
    unsigned ops;           /* GK_REDUCE_OP_BIT(op) for each operation gk_reduce    */
                            /* does with it (0 without GK_REDUCE_FORM_ARRAY; ROWS,  */
                            /* SEGMENTS and ARG do every operation they accept)     */
    int f32_sum_deterministic; /* 1 when f32 sums are bitwise reproducible         */
    gk_partition partition; /* meaning of the per-block partials                  */
    size_t partition_tile;  /* the tile of that partition (0 for NONE)            */
    unsigned forms;         /* GK_REDUCE_FORM_* bits: the entry points it serves  */
    unsigned dtypes;        /* GK_REDUCE_DTYPE_BIT(dtype) for each type it takes  */
} gk_reduce_variant;

/* The table: variants in teaching order, ids 1..count. */
size_t gk_reduce_variant_count(void);
const gk_reduce_variant *gk_reduce_variant_at(size_t index); /* NULL when out of range */
const gk_reduce_variant *gk_reduce_find_variant(int id);     /* NULL when unknown      */
/* The id of the last rung that does `form` (one GK_REDUCE_FORM_* bit), 0
 * when none does: 14 for ARRAY and ARG, 15 for ROWS and SEGMENTS. */
int gk_reduce_best_variant_for(unsigned form);
/* gk_reduce_best_variant_for(GK_REDUCE_FORM_ARRAY): variant 14, which takes
 * every type and operation (reduce/README.md compares it with CUB). */
int gk_reduce_best_variant(void);

/* The type a result of `dtype` is returned in: GK_F32 for GK_F16 and
 * GK_BF16, `dtype` itself otherwise. */
gk_dtype gk_reduce_result_dtype(gk_dtype dtype);

/* Reduce in[0..n) with `op` into out[0] (of the result type). See the
 * calling convention above. Variants with GK_REDUCE_FORM_ARRAY. */
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

/* Arg-max (op = GK_REDUCE_MAX) or arg-min (GK_REDUCE_MIN) of in[0..n): the
 * extremum into out[0] (of the result type) and the index of its first
 * occurrence (the smallest index among equal extrema) into out_index[0],
 * both device memory. Indices are 64-bit: any n up to GK_REDUCE_MAX_N.
 * NaN rule (NumPy's, stated because CUB leaves it open): a NaN beats every
 * number for arg-max and arg-min alike, so an input with a NaN reports its
 * first NaN; NaNs tie with each other; +-inf are ordinary values; -0 and +0
 * are equal (the first wins). n = 0 gives the identity (-inf / the lowest
 * integer for arg-max, +inf / the highest for arg-min) and index
 * SIZE_MAX. Variants with GK_REDUCE_FORM_ARG. */
gk_status gk_reduce_arg(int variant, gk_dtype dtype, gk_reduce_op op, const void *in, size_t n, void *out,
                        size_t *out_index, void *workspace, size_t *workspace_bytes, cudaStream_t stream);

/* Rows: row r of `rows` is in[r*ld .. r*ld + cols) (ld >= cols, in elements:
 * the leading dimension); out[r] (result type) gets its reduction with `op`.
 * out_index: NULL for a plain reduction; for GK_REDUCE_MAX or GK_REDUCE_MIN a
 * non-NULL out_index asks for the arg form, and out_index[r] gets the column
 * of row r's first extremum (gk_reduce_arg's rules; SIZE_MAX for cols = 0).
 * cols = 0 gives the identity in every row. The elements read,
 * (rows - 1) * ld + cols, are at most GK_REDUCE_MAX_N. Every result is the
 * same on every run. Variants with GK_REDUCE_FORM_ROWS. */
gk_status gk_reduce_rows(int variant, gk_dtype dtype, gk_reduce_op op, const void *in, size_t rows, size_t cols,
                         size_t ld, void *out, size_t *out_index, void *workspace, size_t *workspace_bytes,
                         cudaStream_t stream);

/* Segments, CUB's form: segment s is in[begin[s] .. end[s]) of the array
 * in[0..n); out[s] gets its reduction (and out_index[s], as for rows, the
 * offset of its first extremum from begin[s]). begin, end, out, out_index
 * are device memory. An empty segment (begin[s] == end[s]) gives the
 * identity. Segments may come in any order and may overlap.
 * Invalid offsets: begin[s] > end[s] or end[s] > n. The offsets live on the
 * device, so the call cannot check them without waiting for the GPU; the
 * kernel checks each segment instead, reads nothing of an invalid one,
 * gives it the identity (index SIZE_MAX), and sets *invalid (a device int;
 * NULL to not ask) to 1 when any segment is invalid, 0 otherwise. Every
 * result is the same on every run. Variants with GK_REDUCE_FORM_SEGMENTS. */
gk_status gk_reduce_segments(int variant, gk_dtype dtype, gk_reduce_op op, const void *in, size_t n,
                             size_t num_segments, const size_t *begin, const size_t *end, void *out,
                             size_t *out_index, int *invalid, void *workspace, size_t *workspace_bytes,
                             cudaStream_t stream);

const char *gk_reduce_op_name(gk_reduce_op op); /* "sum", "max", "min" */

#ifdef __cplusplus
}
#endif

#endif /* GK_REDUCE_H */
