/* gk_reduce and friends: argument checking and dispatch through the table.
 * Every check happens before anything is launched or written. */
#include "gk/cuda_check.h"
#include "gk/reduce.h"
#include "../common/module.h"
#include "variants.h"

_Static_assert(sizeof(size_t) == sizeof(unsigned long long), "indices are passed to the kernels as 64-bit");

const char *gk_reduce_op_name(gk_reduce_op op)
{
    switch (op) {
    case GK_REDUCE_SUM: return "sum";
    case GK_REDUCE_MAX: return "max";
    case GK_REDUCE_MIN: return "min";
    default: return "?";
    }
}

gk_dtype gk_reduce_result_dtype(gk_dtype dtype)
{
    return dtype == GK_F16 || dtype == GK_BF16 ? GK_F32 : dtype;
}

static gk_status find(int id, const gk_reduce_row **v)
{
    *v = gk_reduce_row_find(id);
    if (*v == NULL) return GK_FAIL(GK_ERROR_UNKNOWN_VARIANT, "no reduce variant has this id");
    return gk_success();
}

/* The form, the type: does the variant take them? */
static gk_status check_form(const gk_reduce_row *v, unsigned form)
{
    if (!(v->info.forms & form))
        return GK_FAIL(GK_ERROR_UNSUPPORTED, "this variant does not do this form of reduction (see variant->forms)");
    return gk_success();
}

static gk_status check_dtype(const gk_reduce_row *v, gk_dtype dtype)
{
    if ((unsigned)dtype >= 32 || gk_dtype_size(dtype) == 0 || !(v->info.dtypes & GK_REDUCE_DTYPE_BIT(dtype)))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "this variant does not take this dtype (see variant->dtypes)");
    return gk_success();
}

/* op for the ARG, ROWS and SEGMENTS forms: the kernels' code, 0-2 for the
 * plain operations, 3 arg-max, 4 arg-min when an index is asked for. */
static gk_status check_op(gk_reduce_op op, int want_index, int *code)
{
    if ((unsigned)op > (unsigned)GK_REDUCE_MIN)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "op is not GK_REDUCE_SUM, GK_REDUCE_MAX or GK_REDUCE_MIN");
    if (want_index && op == GK_REDUCE_SUM)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "an index goes with GK_REDUCE_MAX or GK_REDUCE_MIN, not a sum");
    *code = want_index ? (op == GK_REDUCE_MAX ? 3 : 4) : (int)op;
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
    GK_TRY(check_form(v, GK_REDUCE_FORM_ARRAY));
    GK_TRY(check_dtype(v, dtype));
    size_t elem = gk_dtype_size(dtype), res = gk_dtype_size(gk_reduce_result_dtype(dtype));
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
    if (gk_misaligned(out, res) || gk_misaligned(in, elem))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "in or out is not aligned to its element size");
    if (want_partials && n > 0) {
        if (partials == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "partials is NULL and n > 0");
        if (num_partials < v->num_partials(n))
            return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "num_partials is below gk_reduce_num_partials()");
        if (gk_misaligned(partials, res))
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

gk_status gk_reduce_arg(int variant, gk_dtype dtype, gk_reduce_op op, const void *in, size_t n, void *out,
                        size_t *out_index, void *workspace, size_t *workspace_bytes, cudaStream_t stream)
{
    const gk_reduce_row *v;
    int code;
    GK_TRY(find(variant, &v));
    GK_TRY(check_form(v, GK_REDUCE_FORM_ARG));
    GK_TRY(check_dtype(v, dtype));
    if (op == GK_REDUCE_SUM) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "gk_reduce_arg takes GK_REDUCE_MAX or GK_REDUCE_MIN");
    GK_TRY(check_op(op, 1, &code));
    if (n > GK_REDUCE_MAX_N) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "n is larger than GK_REDUCE_MAX_N");
    if (workspace_bytes == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "workspace_bytes is NULL");
    size_t elem = gk_dtype_size(dtype), res = gk_dtype_size(gk_reduce_result_dtype(dtype));
    size_t need = gk_workspace_round(v->workspace(n, elem));
    GK_WORKSPACE_QUERY(need, workspace, workspace_bytes);
    GK_WORKSPACE_CHECK(need, workspace, workspace_bytes);
    if (out == NULL || out_index == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "out or out_index is NULL");
    if (in == NULL && n > 0) return GK_FAIL(GK_ERROR_NULL_POINTER, "in is NULL and n > 0");
    if (gk_misaligned(in, elem) || gk_misaligned(out, res) || gk_misaligned(out_index, sizeof(size_t)))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "in, out or out_index is not aligned to its element size");
    return GK_CUDA_STATUS(
        v->arg(in, n, (int)dtype, code, out, (unsigned long long *)out_index, workspace, stream));
}

gk_status gk_reduce_rows(int variant, gk_dtype dtype, gk_reduce_op op, const void *in, size_t rows, size_t cols,
                         size_t ld, void *out, size_t *out_index, void *workspace, size_t *workspace_bytes,
                         cudaStream_t stream)
{
    const gk_reduce_row *v;
    int code;
    GK_TRY(find(variant, &v));
    GK_TRY(check_form(v, GK_REDUCE_FORM_ROWS));
    GK_TRY(check_dtype(v, dtype));
    GK_TRY(check_op(op, out_index != NULL, &code));
    if (ld < cols) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "ld is below cols");
    if (rows > GK_REDUCE_MAX_N) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "rows is larger than GK_REDUCE_MAX_N");
    /* The span read, (rows - 1) * ld + cols, without overflow. */
    if (rows > 1 && cols > 0 && (ld > GK_REDUCE_MAX_N || (rows - 1) * ld > GK_REDUCE_MAX_N - cols))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "(rows - 1) * ld + cols is larger than GK_REDUCE_MAX_N");
    if (cols > GK_REDUCE_MAX_N) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "cols is larger than GK_REDUCE_MAX_N");
    if (workspace_bytes == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "workspace_bytes is NULL");
    size_t elem = gk_dtype_size(dtype), res = gk_dtype_size(gk_reduce_result_dtype(dtype));
    size_t need = gk_workspace_round(v->workspace(rows * cols, elem));
    GK_WORKSPACE_QUERY(need, workspace, workspace_bytes);
    GK_WORKSPACE_CHECK(need, workspace, workspace_bytes);
    if (out == NULL && rows > 0) return GK_FAIL(GK_ERROR_NULL_POINTER, "out is NULL and rows > 0");
    if (in == NULL && rows > 0 && cols > 0) return GK_FAIL(GK_ERROR_NULL_POINTER, "in is NULL and there are elements");
    if (gk_misaligned(in, elem) || gk_misaligned(out, res) || gk_misaligned(out_index, sizeof(size_t)))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "in, out or out_index is not aligned to its element size");
    return GK_CUDA_STATUS(v->rows(in, rows, cols, ld, (int)dtype, code, out, (unsigned long long *)out_index,
                                  workspace, stream));
}

gk_status gk_reduce_segments(int variant, gk_dtype dtype, gk_reduce_op op, const void *in, size_t n,
                             size_t num_segments, const size_t *begin, const size_t *end, void *out,
                             size_t *out_index, int *invalid, void *workspace, size_t *workspace_bytes,
                             cudaStream_t stream)
{
    const gk_reduce_row *v;
    int code;
    GK_TRY(find(variant, &v));
    GK_TRY(check_form(v, GK_REDUCE_FORM_SEGMENTS));
    GK_TRY(check_dtype(v, dtype));
    GK_TRY(check_op(op, out_index != NULL, &code));
    if (n > GK_REDUCE_MAX_N) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "n is larger than GK_REDUCE_MAX_N");
    if (num_segments > GK_REDUCE_MAX_N)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "num_segments is larger than GK_REDUCE_MAX_N");
    if (workspace_bytes == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "workspace_bytes is NULL");
    size_t elem = gk_dtype_size(dtype), res = gk_dtype_size(gk_reduce_result_dtype(dtype));
    size_t need = gk_workspace_round(v->workspace(n, elem));
    GK_WORKSPACE_QUERY(need, workspace, workspace_bytes);
    GK_WORKSPACE_CHECK(need, workspace, workspace_bytes);
    if (num_segments > 0 && (out == NULL || begin == NULL || end == NULL))
        return GK_FAIL(GK_ERROR_NULL_POINTER, "out, begin or end is NULL and num_segments > 0");
    if (in == NULL && n > 0) return GK_FAIL(GK_ERROR_NULL_POINTER, "in is NULL and n > 0");
    if (gk_misaligned(in, elem) || gk_misaligned(out, res) || gk_misaligned(out_index, sizeof(size_t)) ||
        gk_misaligned(begin, sizeof(size_t)) || gk_misaligned(end, sizeof(size_t)) ||
        gk_misaligned(invalid, sizeof(int)))
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "a pointer is not aligned to its element size");
    return GK_CUDA_STATUS(v->segments(in, n, num_segments, begin, end, (int)dtype, code, out,
                                      (unsigned long long *)out_index, invalid, workspace, stream));
}
