/* The reduce module's entry in gk_bench (bench/bench.h): its cases are the
 * rows of the variant table plus cub::DeviceReduce; the work of one call is
 * n elements read and one written, n - 1 operations. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cub_reference.h"
#include "gk/cuda_check.h"
#include "gk/random.h"
#include "gk/reduce.h"
#include "reduce_ref.h"

static const size_t default_sizes[] = {(size_t)1 << 20, (size_t)1 << 24, (size_t)1 << 28};

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

static size_t num_cases(void) { return gk_reduce_variant_count() + 1; }

static gk_bench_case case_at(size_t i)
{
    gk_bench_case c = {0, "cub::DeviceReduce", "CUB's device-wide reduction (the reference)", 1};
    const gk_reduce_variant *v = gk_reduce_variant_at(i);
    if (v != NULL) {
        c.id = v->id;
        c.name = v->name;
        c.idea = v->idea;
        c.is_reference = 0;
    }
    return c;
}

static void teardown(void *p)
{
    state *s = (state *)p;
    if (s == NULL) return;
    cudaFree(s->d_in);
    cudaFree(s->d_out);
    cudaFree(s->d_ws);
    free(s);
}

static gk_status setup(void **out_state, size_t n, const gk_bench_params *params)
{
    state *s = (state *)calloc(1, sizeof *s);
    if (s == NULL) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
    *out_state = s;
    s->n = n;
    const char *dt = params->dtype ? params->dtype : "f32", *op = params->op ? params->op : "sum";
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
    if (c->is_reference) {
        GK_CUDA_TRY(gk_cub_reduce(s->d_in, s->n, (int)s->dtype, (int)s->op, s->d_out, NULL, &need, 0));
    } else {
        const gk_reduce_variant *v = gk_reduce_find_variant(c->id);
        if (v == NULL) return GK_FAIL(GK_ERROR_UNKNOWN_VARIANT, "no such reduce variant");
        if (!(v->ops & GK_REDUCE_OP_BIT(s->op))) return GK_FAIL(GK_ERROR_UNSUPPORTED, "sum only");
        GK_TRY(gk_reduce(c->id, s->dtype, s->op, s->d_in, s->n, s->d_out, NULL, &need, 0));
    }
    if (need > s->ws_bytes) {
        cudaFree(s->d_ws);
        s->d_ws = NULL;
        s->ws_bytes = 0;
        GK_CUDA_TRY(cudaMalloc(&s->d_ws, need));
        s->ws_bytes = need;
    }
    s->ws_use = need;
    /* Poison the output and the workspace: the result must be written by the
     * call, and the workspace must need no initialisation. */
    GK_CUDA_TRY(cudaMemset(s->d_out, 0xff, 4));
    if (s->d_ws) GK_CUDA_TRY(cudaMemset(s->d_ws, 0xa5, s->ws_bytes));
    /* The runner's stream does not wait for the default stream: finish the
     * poisoning before the case runs. */
    GK_CUDA_TRY(cudaDeviceSynchronize());
    return gk_success();
}

static gk_status run(void *p, cudaStream_t stream)
{
    state *s = (state *)p;
    if (s->c.is_reference) {
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
    "reduce", "n (elements)", default_sizes, sizeof default_sizes / sizeof default_sizes[0], "memory",
    num_cases, case_at, setup, prepare, run, verify, work, describe, teardown,
};
