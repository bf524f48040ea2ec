/* The reduce module's entry in gk_bench (bench/bench.h): its cases are the
 * rows of the variant table, cub::DeviceReduce (the reference every variant
 * is compared with) and a read-only stream over the same bytes (the ceiling:
 * a reduction cannot read its input faster than a kernel that only reads
 * it). The work of one call is n elements read and one written, n - 1
 * operations; the % of peak is of DRAM bandwidth. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ceilings.h"
#include "cli.h"
#include "cub_reference.h"
#include "gk/cuda_check.h"
#include "gk/random.h"
#include "gk/reduce.h"
#include "reduce_ref.h"

static const char *const default_sizes[] = {"2^20", "2^24", "2^28"};

static const gk_bench_param_decl params_decl[] = {
    {"dtype", "f32,i32", "f32", "element type"},
    {"op", "sum,max,min", "sum", "operation"},
};

static int parse_size(const char *s, gk_bench_shape *shape, char *err, size_t err_size)
{
    return gk_bench_parse_count(s, 0, GK_REDUCE_MAX_N, "not a count of elements (try 1000, 2^20, 2^20+13, 16Mi)",
                                "n is above GK_REDUCE_MAX_N (2^38)", shape, err, err_size);
}

typedef struct state {
    gk_dtype dtype;
    gk_reduce_op op;
    size_t n;
    void *d_in, *d_out, *d_ws;
    size_t ws_bytes;      /* allocated */
    size_t ws_use;        /* what the prepared case asked for */
    gk_bench_case c;
    gk_ref_f32 ref_f32;
    int32_t ref_i32;
    char describe[32];
} state;

/* The variants compute in the input's type (f32 or i32, --param dtype). */
static size_t num_cases(void) { return gk_reduce_variant_count() + 2; }

static gk_bench_case case_at(size_t i)
{
    const gk_reduce_variant *v = gk_reduce_variant_at(i);
    if (v != NULL) {
        gk_bench_case c = {v->id, NULL, v->name, v->idea, GK_ROLE_VARIANT, "input", GK_PEAK_DRAM, "cub"};
        return c;
    }
    if (i == gk_reduce_variant_count()) {
        gk_bench_case c = {0, "cub", "cub::DeviceReduce", "CUB's device-wide reduction", GK_ROLE_REFERENCE,
                           "input", GK_PEAK_DRAM, NULL};
        return c;
    }
    gk_bench_case c = {0, "read_stream", "read-only stream", "reads the same n x 4 bytes once, 16-byte loads",
                       GK_ROLE_CEILING, "-", GK_PEAK_DRAM, NULL};
    return c;
}

static void teardown(void *p)
{
    state *s = (state *)p;
    cudaFree(s->d_in);
    cudaFree(s->d_out);
    cudaFree(s->d_ws);
}

static gk_status setup(void *p, const gk_bench_shape *shape, const gk_bench_params *params)
{
    state *s = (state *)p;
    size_t n = shape->v[0];
    s->n = n;
    const char *dt = params->value[0], *op = params->value[1];
    if (strcmp(dt, "f32") == 0) s->dtype = GK_F32;
    else if (strcmp(dt, "i32") == 0) s->dtype = GK_I32;
    else return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "reduce: --dtype must be f32 or i32");
    if (strcmp(op, "sum") == 0) s->op = GK_REDUCE_SUM;
    else if (strcmp(op, "max") == 0) s->op = GK_REDUCE_MAX;
    else if (strcmp(op, "min") == 0) s->op = GK_REDUCE_MIN;
    else return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "reduce: --op must be sum, max or min");
    snprintf(s->describe, sizeof s->describe, "%s %s", dt, op);

    size_t bytes = (n ? n : 1) * 4;
    void *h = malloc(bytes);
    if (h == NULL) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory for the input");
    if (s->dtype == GK_F32) {
        gk_fill_f32((float *)h, n, params->seed, -1.0f, 1.0f);
        s->ref_f32 = gk_reduce_ref_f32((const float *)h, n, s->op);
    } else {
        gk_fill_i32((int32_t *)h, n, params->seed, -1000, 1000);
        s->ref_i32 = gk_reduce_ref_i32((const int32_t *)h, n, s->op);
    }
    gk_status st = GK_CUDA_STATUS(cudaMalloc(&s->d_in, bytes));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(s->d_in, h, n * 4, cudaMemcpyHostToDevice));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMalloc(&s->d_out, 4));
    free(h);
    return st;
}

static const char *describe(void *p) { return ((state *)p)->describe; }

static gk_status prepare(void *p, const gk_bench_case *c)
{
    state *s = (state *)p;
    s->c = *c;
    size_t need = 0;
    if (c->role == GK_ROLE_CEILING) {
        need = 0;
    } else if (c->role == GK_ROLE_REFERENCE) {
        GK_CUDA_TRY(gk_cub_reduce(s->d_in, s->n, (int)s->dtype, (int)s->op, s->d_out, NULL, &need, 0));
    } else {
        const gk_reduce_variant *v = gk_reduce_find_variant(c->id);
        if (v == NULL) return GK_FAIL(GK_ERROR_UNKNOWN_VARIANT, "no such reduce variant");
        if (!(v->ops & GK_REDUCE_OP_BIT(s->op))) return GK_FAIL(GK_ERROR_UNSUPPORTED, "sum only");
        GK_TRY(gk_reduce(c->id, s->dtype, s->op, s->d_in, s->n, s->d_out, NULL, &need, 0));
    }
    s->ws_use = need;
    /* Poison the output and the workspace: the result must be written by the
     * call, and the workspace must need no initialisation. */
    GK_TRY(gk_bench_poisoned_workspace(&s->d_ws, &s->ws_bytes, need, 0xa5));
    GK_CUDA_TRY(cudaMemset(s->d_out, 0xff, 4));
    /* The runner's stream does not wait for the default stream: finish the
     * poisoning before the case runs. */
    GK_CUDA_TRY(cudaDeviceSynchronize());
    return gk_success();
}

static gk_status run(void *p, cudaStream_t stream)
{
    state *s = (state *)p;
    if (s->c.role == GK_ROLE_CEILING) {
        GK_CUDA_TRY(gk_ceiling_read_stream(s->d_in, s->n * 4, (unsigned *)s->d_out, stream));
        return gk_success();
    }
    if (s->c.role == GK_ROLE_REFERENCE) {
        size_t bytes = s->ws_use;
        GK_CUDA_TRY(gk_cub_reduce(s->d_in, s->n, (int)s->dtype, (int)s->op, s->d_out, s->d_ws, &bytes, stream));
        return gk_success();
    }
    size_t bytes = s->ws_bytes;
    return gk_reduce(s->c.id, s->dtype, s->op, s->d_in, s->n, s->d_out, s->d_ws, &bytes, stream);
}

static gk_status verify(void *p, FILE *log)
{
    state *s = (state *)p;
    if (s->c.role == GK_ROLE_CEILING) return gk_success(); /* it computes nothing to check */
    uint32_t got;
    GK_CUDA_TRY(cudaMemcpy(&got, s->d_out, 4, cudaMemcpyDeviceToHost));
    if (!gk_reduce_check_result(s->dtype, s->op, s->n, &got, &s->ref_f32, s->ref_i32, s->c.name, log))
        return GK_FAIL(GK_ERROR_VERIFY_FAILED, "the result does not match the CPU reference");
    return gk_success();
}

static gk_bench_work work(void *p)
{
    state *s = (state *)p;
    gk_bench_work w = {(double)s->n * 4.0, 4.0, s->n ? (double)(s->n - 1) : 0.0};
    return w;
}

const gk_bench_module gk_reduce_bench_module = {
    "reduce", "n", "n, the number of elements: 1000, 2^20, 2^20+13, 16Mi",
    default_sizes, sizeof default_sizes / sizeof default_sizes[0], "gbps",
    params_decl, sizeof params_decl / sizeof params_decl[0],
    parse_size, gk_bench_format_count, num_cases, case_at, setup, NULL, prepare, run, verify, work, describe,
    teardown, .state_size = sizeof(state),
};
