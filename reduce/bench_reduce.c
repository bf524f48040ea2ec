/* The reduce module's entry in gk_bench (bench/bench.h): its cases are the
 * rows of the variant table, CUB (the reference every variant is compared
 * with) and a read-only stream over the same bytes (the ceiling: a reduction
 * cannot read its input faster than a kernel that only reads it).
 *
 * Parameters: dtype (f32, i32, u32, f64, f16, bf16, i64), op (sum, max, min,
 * argmax, argmin) and mode:
 *   array     gk_reduce / gk_reduce_arg over n elements; CUB's
 *             DeviceReduce::Sum, Max, Min, ArgMax, ArgMin (TransformReduce
 *             converting to f32 for f16 and bf16).
 *   rows      gk_reduce_rows over n / cols rows of `cols` (--param cols,
 *             row stride = cols); CUB's DeviceSegmentedReduce over the same
 *             rows as segments.
 *   segments  gk_reduce_segments over n / cols segments of `cols`, offsets
 *             in device memory; CUB's DeviceSegmentedReduce on the same
 *             offsets.
 * A case that does not do the mode, type or operation gets no row (CUB's
 * segmented arg forms are not wired: n/a). The work of one call: the
 * elements read (and the offsets, in segments mode), the results written
 * (with their 8-byte indices for arg), one operation per element; the % of
 * peak is of DRAM bandwidth. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ceilings.h"
#include "cli.h"
#include "cub_reference.h"
#include "gk/cuda_check.h"
#include "gk/reduce.h"
#include "reduce_ref.h"

static const char *const default_sizes[] = {"2^20", "2^24", "2^28"};

static const gk_bench_param_decl params_decl[] = {
    {"dtype", "f32,i32,u32,f64,f16,bf16,i64", "f32", "element type (f16, bf16 give f32 results)", NULL},
    {"op", "sum,max,min,argmax,argmin", "sum", "operation", NULL},
    {"mode", "array,rows,segments", "array", "one array, rows x cols, or segments of cols", NULL},
    {"cols", "any positive integer", "256", "rows and segments modes: elements per row (rows = n / cols)",
     gk_accepts_positive_count},
};

static int parse_size(const char *s, gk_bench_shape *shape, char *err, size_t err_size)
{
    return gk_bench_parse_count(s, 0, GK_REDUCE_MAX_N, "not a count of elements (try 1000, 2^20, 2^20+13, 16Mi)",
                                "n is above GK_REDUCE_MAX_N (2^38)", shape, err, err_size);
}

enum { MODE_ARRAY, MODE_ROWS, MODE_SEGMENTS };

typedef struct state {
    gk_dtype dtype;
    gk_reduce_op op; /* MAX / MIN for the arg ops too */
    int arg;         /* 1 for argmax / argmin */
    int code;        /* op, 3 argmax, 4 argmin (CUB's wrapper) */
    int mode;
    size_t n;       /* elements reduced */
    size_t outs;    /* results: 1, or rows / segments */
    size_t cols;
    void *d_in, *d_out, *d_ws;
    size_t *d_idx, *d_beg, *d_end;
    size_t ws_bytes; /* allocated */
    size_t ws_use;   /* what the prepared case asked for */
    gk_bench_case c;
    gk_ref_value *ref; /* one per result */
    char describe[64];
} state;

static size_t num_cases(void) { return gk_reduce_variant_count() + 2; }

static gk_bench_case case_at(size_t i)
{
    const gk_reduce_variant *v = gk_reduce_variant_at(i);
    if (v != NULL) {
        gk_bench_case c = {v->id, NULL, v->name, v->idea, GK_ROLE_VARIANT, "input", GK_PEAK_DRAM, "cub"};
        return c;
    }
    if (i == gk_reduce_variant_count()) {
        gk_bench_case c = {0, "cub", "cub::DeviceReduce", "CUB: DeviceReduce, or DeviceSegmentedReduce for rows and segments",
                           GK_ROLE_REFERENCE, "input", GK_PEAK_DRAM, NULL};
        return c;
    }
    gk_bench_case c = {0, "read_stream", "read-only stream", "reads the same bytes once, 16-byte loads",
                       GK_ROLE_CEILING, "-", GK_PEAK_DRAM, NULL};
    return c;
}

static void teardown(void *p)
{
    state *s = (state *)p;
    cudaFree(s->d_in);
    cudaFree(s->d_out);
    cudaFree(s->d_ws);
    cudaFree(s->d_idx);
    cudaFree(s->d_beg);
    cudaFree(s->d_end);
    free(s->ref);
}

static gk_status setup(void *p, const gk_bench_shape *shape, const gk_bench_params *params)
{
    state *s = (state *)p;
    const char *dt = params->value[0], *op = params->value[1], *mode = params->value[2];
    static const char *const types[] = {"f32", "i32", "u32", "f64", "f16", "bf16", "i64"};
    static const gk_dtype type_of[] = {GK_F32, GK_I32, GK_U32, GK_F64, GK_F16, GK_BF16, GK_I64};
    int found = 0;
    for (int i = 0; i < 7; ++i)
        if (strcmp(dt, types[i]) == 0) s->dtype = type_of[i], found = 1;
    if (!found) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "reduce: dtype must be f32, i32, u32, f64, f16, bf16 or i64");
    if (strcmp(op, "sum") == 0) s->op = GK_REDUCE_SUM;
    else if (strcmp(op, "max") == 0 || strcmp(op, "argmax") == 0) s->op = GK_REDUCE_MAX;
    else if (strcmp(op, "min") == 0 || strcmp(op, "argmin") == 0) s->op = GK_REDUCE_MIN;
    else return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "reduce: op must be sum, max, min, argmax or argmin");
    s->arg = strncmp(op, "arg", 3) == 0;
    s->code = s->arg ? (s->op == GK_REDUCE_MAX ? 3 : 4) : (int)s->op;
    s->mode = strcmp(mode, "rows") == 0 ? MODE_ROWS : strcmp(mode, "segments") == 0 ? MODE_SEGMENTS : MODE_ARRAY;
    if (gk_parse_size(params->value[3], &s->cols) != 0 || s->cols == 0)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "reduce: cols must be a positive count");

    size_t n = shape->v[0], e = gk_dtype_size(s->dtype);
    if (s->mode == MODE_ARRAY) {
        s->outs = 1;
    } else {
        s->outs = n / s->cols;
        if (s->outs == 0) return GK_FAIL(GK_ERROR_UNSUPPORTED, "reduce: n is below cols: no whole row");
        n = s->outs * s->cols;
    }
    s->n = n;
    if (s->mode == MODE_ARRAY)
        snprintf(s->describe, sizeof s->describe, "%s %s", dt, op);
    else
        snprintf(s->describe, sizeof s->describe, "%s %s %s %zux%zu", dt, op, mode, s->outs, s->cols);

    void *h = malloc((n ? n : 1) * e);
    s->ref = (gk_ref_value *)malloc(s->outs * sizeof *s->ref);
    if (h == NULL || s->ref == NULL) {
        free(h);
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory for the input");
    }
    gk_reduce_fill(s->dtype, h, n, params->seed);
    size_t len = s->mode == MODE_ARRAY ? n : s->cols;
    for (size_t r = 0; r < s->outs; ++r)
        s->ref[r] = gk_reduce_ref_typed(s->dtype, s->op, s->arg, (const char *)h + r * len * e, len);
    gk_status st = GK_CUDA_STATUS(cudaMalloc(&s->d_in, (n ? n : 1) * e));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(s->d_in, h, n * e, cudaMemcpyHostToDevice));
    free(h);
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMalloc(&s->d_out, s->outs * 8));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMalloc((void **)&s->d_idx, s->outs * sizeof(size_t)));
    if (gk_ok(st) && s->mode != MODE_ARRAY) {
        /* The rows as segments: [r*cols, (r+1)*cols), for our segments mode
         * and for CUB in both. */
        size_t *hb = (size_t *)malloc(s->outs * sizeof(size_t)), *he = (size_t *)malloc(s->outs * sizeof(size_t));
        if (hb == NULL || he == NULL) st = GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory for the offsets");
        for (size_t r = 0; gk_ok(st) && r < s->outs; ++r) hb[r] = r * s->cols, he[r] = (r + 1) * s->cols;
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMalloc((void **)&s->d_beg, s->outs * sizeof(size_t)));
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMalloc((void **)&s->d_end, s->outs * sizeof(size_t)));
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(s->d_beg, hb, s->outs * sizeof(size_t), cudaMemcpyHostToDevice));
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(s->d_end, he, s->outs * sizeof(size_t), cudaMemcpyHostToDevice));
        free(hb);
        free(he);
    }
    return st;
}

static const char *describe(void *p) { return ((state *)p)->describe; }

/* Does variant v do this run's mode, type and operation? */
static int variant_does(const state *s, const gk_reduce_variant *v)
{
    if (!(v->dtypes & GK_REDUCE_DTYPE_BIT(s->dtype))) return 0;
    if (s->mode == MODE_ROWS) return (v->forms & GK_REDUCE_FORM_ROWS) != 0;
    if (s->mode == MODE_SEGMENTS) return (v->forms & GK_REDUCE_FORM_SEGMENTS) != 0;
    if (s->arg) return (v->forms & GK_REDUCE_FORM_ARG) != 0;
    return (v->forms & GK_REDUCE_FORM_ARRAY) && (v->ops & GK_REDUCE_OP_BIT(s->op));
}

static int applies(void *p, const gk_bench_case *c)
{
    state *s = (state *)p;
    if (c->role != GK_ROLE_VARIANT) return 1;
    const gk_reduce_variant *v = gk_reduce_find_variant(c->id);
    return v != NULL && variant_does(s, v);
}

/* One call of the prepared case; workspace NULL asks for its size. */
static gk_status call(state *s, void *ws, size_t *bytes, cudaStream_t stream)
{
    size_t *idx = s->arg ? s->d_idx : NULL;
    if (s->c.role == GK_ROLE_REFERENCE) {
        if (s->mode == MODE_ARRAY)
            GK_CUDA_TRY(gk_cub_reduce_typed(s->d_in, s->n, (int)s->dtype, s->code, s->d_out, idx, ws, bytes, stream));
        else if (s->arg)
            return GK_FAIL(GK_ERROR_UNSUPPORTED, "CUB's segmented arg-max / arg-min are not wired here");
        else
            GK_CUDA_TRY(gk_cub_segmented(s->d_in, s->outs, s->d_beg, s->d_end, (int)s->dtype, s->code, s->d_out, ws,
                                         bytes, stream));
        return gk_success();
    }
    int id = s->c.id;
    if (s->mode == MODE_ROWS)
        return gk_reduce_rows(id, s->dtype, s->op, s->d_in, s->outs, s->cols, s->cols, s->d_out, idx, ws, bytes,
                              stream);
    if (s->mode == MODE_SEGMENTS)
        return gk_reduce_segments(id, s->dtype, s->op, s->d_in, s->n, s->outs, s->d_beg, s->d_end, s->d_out, idx,
                                  NULL, ws, bytes, stream);
    if (s->arg) return gk_reduce_arg(id, s->dtype, s->op, s->d_in, s->n, s->d_out, idx, ws, bytes, stream);
    return gk_reduce(id, s->dtype, s->op, s->d_in, s->n, s->d_out, ws, bytes, stream);
}

static gk_status prepare(void *p, const gk_bench_case *c)
{
    state *s = (state *)p;
    s->c = *c;
    size_t need = 0;
    if (c->role == GK_ROLE_VARIANT) {
        const gk_reduce_variant *v = gk_reduce_find_variant(c->id);
        if (v == NULL) return GK_FAIL(GK_ERROR_UNKNOWN_VARIANT, "no such reduce variant");
        if (!variant_does(s, v)) return GK_FAIL(GK_ERROR_UNSUPPORTED, "not this mode, type or operation");
    }
    if (c->role != GK_ROLE_CEILING) GK_TRY(call(s, NULL, &need, 0));
    s->ws_use = need;
    /* Poison the outputs and the workspace: the results must be written by
     * the call, and the workspace must need no initialisation. */
    GK_TRY(gk_bench_poisoned_workspace(&s->d_ws, &s->ws_bytes, need, 0xa5));
    GK_CUDA_TRY(cudaMemset(s->d_out, 0xff, s->outs * 8));
    GK_CUDA_TRY(cudaMemset(s->d_idx, 0xa5, s->outs * sizeof(size_t)));
    /* The runner's stream does not wait for the default stream: finish the
     * poisoning before the case runs. */
    GK_CUDA_TRY(cudaDeviceSynchronize());
    return gk_success();
}

static gk_status run(void *p, cudaStream_t stream)
{
    state *s = (state *)p;
    if (s->c.role == GK_ROLE_CEILING) {
        GK_CUDA_TRY(gk_ceiling_read_stream(s->d_in, s->n * gk_dtype_size(s->dtype), (unsigned *)s->d_out, stream));
        return gk_success();
    }
    size_t bytes = s->c.role == GK_ROLE_REFERENCE ? s->ws_use : s->ws_bytes;
    return call(s, s->d_ws, &bytes, stream);
}

static gk_status verify(void *p, FILE *log)
{
    state *s = (state *)p;
    if (s->c.role == GK_ROLE_CEILING) return gk_success(); /* it computes nothing to check */
    size_t r = gk_dtype_size(gk_reduce_result_dtype(s->dtype));
    unsigned char *vals = (unsigned char *)malloc(s->outs * r);
    size_t *idx = (size_t *)malloc(s->outs * sizeof(size_t));
    if (vals == NULL || idx == NULL) {
        free(vals);
        free(idx);
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory for the results");
    }
    gk_status st = GK_CUDA_STATUS(cudaMemcpy(vals, s->d_out, s->outs * r, cudaMemcpyDeviceToHost));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(idx, s->d_idx, s->outs * sizeof(size_t), cudaMemcpyDeviceToHost));
    size_t bad = 0;
    for (size_t i = 0; gk_ok(st) && i < s->outs; ++i)
        if (!gk_reduce_check_typed(s->dtype, s->op, s->arg, vals + i * r, idx[i], &s->ref[i], s->c.name,
                                   bad < 8 ? log : NULL))
            ++bad;
    free(vals);
    free(idx);
    if (gk_ok(st) && bad > 0)
        return GK_FAIL(GK_ERROR_VERIFY_FAILED, "results do not match the CPU reference");
    return st;
}

static gk_bench_work work(void *p)
{
    state *s = (state *)p;
    double e = (double)gk_dtype_size(s->dtype), r = (double)gk_dtype_size(gk_reduce_result_dtype(s->dtype));
    double read = (double)s->n * e + (s->mode == MODE_SEGMENTS ? (double)s->outs * 16.0 : 0.0);
    double written = (double)s->outs * (r + (s->arg ? 8.0 : 0.0));
    gk_bench_work w = {read, written, s->n > s->outs ? (double)(s->n - s->outs) : 0.0}; /* n - results combines */
    return w;
}

const gk_bench_module gk_reduce_bench_module = {
    "reduce", "n", "n, the number of elements (rows and segments modes: n / cols rows): 1000, 2^20, 2^20+13, 16Mi",
    default_sizes, sizeof default_sizes / sizeof default_sizes[0], "gbps",
    params_decl, sizeof params_decl / sizeof params_decl[0],
    parse_size, gk_bench_format_count, num_cases, case_at, setup, NULL, prepare, run, verify, work, describe,
    teardown, .applies = applies, .state_size = sizeof(state),
};
