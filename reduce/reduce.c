/* gk_reduce and friends: argument checking and dispatch through the table.
 * Every check happens before anything is launched or written. */
#include "gk/cuda_check.h"
#include "gk/reduce.h"
#include "../common/module.h"
#include "variants.h"

const char *gk_reduce_op_name(gk_reduce_op op)
{
    switch (op) {
    case GK_REDUCE_SUM: return "sum";
    case GK_REDUCE_MAX: return "max";
    case GK_REDUCE_MIN: return "min";
    default: return "?";
    }
}

static gk_status find(int id, const gk_reduce_row **v)
{
    *v = gk_reduce_row_find(id);
    if (*v == NULL) return GK_FAIL(GK_ERROR_UNKNOWN_VARIANT, "no reduce variant has this id");
    return gk_success();
}

gk_status gk_reduce_num_partials(int variant, size_t n, size_t *count)
{
    const gk_reduce_row *v;
    GK_TRY(find(variant, &v));
    if (count == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "count is NULL");
    if (v->info.partition == GK_PARTITION_NONE)
        return GK_FAIL(GK_ERROR_UNSUPPORTED, "this variant does not expose per-block partials");
    if (n > GK_REDUCE_MAX_N) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "n is larger than GK_REDUCE_MAX_N");
    *count = n == 0 ? 0 : v->num_partials(n);
    return gk_success();
}

static gk_status reduce_impl(int variant, gk_dtype dtype, gk_reduce_op op, const void *in, size_t n, void *out,
                             int want_partials, void *partials, size_t num_partials, void *workspace,
                             size_t *workspace_bytes, cudaStream_t stream)
{
    const gk_reduce_row *v;
    GK_TRY(find(variant, &v));
    if (dtype != GK_F32 && dtype != GK_I32)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "dtype is neither GK_F32 nor GK_I32");
    size_t elem = gk_dtype_size(dtype);
    if ((unsigned)op > (unsigned)GK_REDUCE_MIN)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "op is not GK_REDUCE_SUM, GK_REDUCE_MAX or GK_REDUCE_MIN");
    if (!(v->info.ops & GK_REDUCE_OP_BIT(op)))
        return GK_FAIL(GK_ERROR_UNSUPPORTED, "this variant does not do this operation (see variant->ops)");
    if (want_partials && v->info.partition == GK_PARTITION_NONE)
        return GK_FAIL(GK_ERROR_UNSUPPORTED, "this variant does not expose per-block partials");
    if (n > GK_REDUCE_MAX_N) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "n is larger than GK_REDUCE_MAX_N");
    if (workspace_bytes == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "workspace_bytes is NULL");

    size_t need = gk_workspace_round(v->workspace(n, elem));
    GK_WORKSPACE_QUERY(need, workspace, workspace_bytes);
    GK_WORKSPACE_CHECK(need, workspace, workspace_bytes);
    if (out == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "out is NULL");
    if (in == NULL && n > 0) return GK_FAIL(GK_ERROR_NULL_POINTER, "in is NULL and n > 0");
    if (gk_misaligned(out, elem) || gk_misaligned(in, elem))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "in or out is not aligned to its element size");
    if (want_partials && n > 0) {
        if (partials == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "partials is NULL and n > 0");
        if (num_partials < v->num_partials(n))
            return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "num_partials is below gk_reduce_num_partials()");
        if (gk_misaligned(partials, elem))
            return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "partials is not aligned to its element size");
    } else {
        partials = NULL;
    }
    return GK_CUDA_STATUS(v->run(in, n, (int)dtype, (int)op, out, partials, workspace, stream));
}

gk_status gk_reduce(int variant, gk_dtype dtype, gk_reduce_op op, const void *in, size_t n, void *out,
                    void *workspace, size_t *workspace_bytes, cudaStream_t stream)
{
    return reduce_impl(variant, dtype, op, in, n, out, 0, NULL, 0, workspace, workspace_bytes, stream);
}

gk_status gk_reduce_partials(int variant, gk_dtype dtype, gk_reduce_op op, const void *in, size_t n, void *out,
                             void *partials, size_t num_partials, void *workspace, size_t *workspace_bytes,
                             cudaStream_t stream)
{
    return reduce_impl(variant, dtype, op, in, n, out, 1, partials, num_partials, workspace, workspace_bytes,
                       stream);
}
