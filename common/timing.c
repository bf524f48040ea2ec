/* Timing with CUDA events: see gk/timing.h. */
#include "gk/timing.h"

#include <stdlib.h>

#include "gk/cuda_check.h"

gk_status gk_l2_flusher_create(gk_l2_flusher *f, const gk_device_info *dev)
{
    if (f == NULL || dev == NULL) return GK_FAIL(GK_ERROR_NULL_POINTER, "flusher or device is NULL");
    f->buf = NULL;
    f->bytes = 2 * (size_t)dev->l2_bytes;
    if (f->bytes < ((size_t)8 << 20)) f->bytes = (size_t)8 << 20;
    GK_CUDA_TRY(cudaMalloc(&f->buf, f->bytes));
    return gk_success();
}

void gk_l2_flusher_destroy(gk_l2_flusher *f)
{
    if (f != NULL && f->buf != NULL) cudaFree(f->buf);
    if (f != NULL) f->buf = NULL;
}

gk_status gk_l2_flush(const gk_l2_flusher *f, cudaStream_t stream)
{
    /* Writing every line of a buffer twice the L2's size evicts whatever the
     * previous sample left there (the input, the output, the workspace). */
    static const int pattern = 0x5a;
    GK_CUDA_TRY(cudaMemsetAsync(f->buf, pattern, f->bytes, stream));
    return gk_success();
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double gk_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

gk_status gk_time_gpu(gk_timed_fn fn, void *ctx, cudaStream_t stream, const gk_timing_opts *opts,
                      const gk_l2_flusher *flusher, gk_timing *out)
{
    if (fn == NULL || opts == NULL || out == NULL)
        return GK_FAIL(GK_ERROR_NULL_POINTER, "fn, opts or out is NULL");
    if (opts->min_iters < 1 || opts->max_iters < opts->min_iters ||
        opts->max_iters > GK_TIMING_MAX_ITERS || opts->warmup < 0)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "need 0 <= warmup, 1 <= min_iters <= max_iters <= 1000");

    for (int i = 0; i < opts->warmup; ++i) GK_TRY(fn(ctx, stream));
    GK_CUDA_TRY(cudaStreamSynchronize(stream));

    double *ms = (double *)malloc(sizeof(double) * (size_t)opts->max_iters);
    if (ms == NULL) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory for samples");
    cudaEvent_t start = NULL, stop = NULL;
    gk_status st = GK_CUDA_STATUS(cudaEventCreate(&start));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaEventCreate(&stop));

    int n = 0;
    double total_s = 0.0;
    while (gk_ok(st) && n < opts->max_iters &&
           (n < opts->min_iters || total_s < opts->target_seconds)) {
        if (flusher != NULL) st = gk_l2_flush(flusher, stream);
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaEventRecord(start, stream));
        if (gk_ok(st)) st = fn(ctx, stream);
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaEventRecord(stop, stream));
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaEventSynchronize(stop));
        float t = 0.0f;
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaEventElapsedTime(&t, start, stop));
        if (gk_ok(st)) {
            ms[n++] = (double)t;
            total_s += t * 1e-3;
        }
    }
    if (gk_ok(st)) {
        double lo = ms[0], hi = ms[0];
        for (int i = 1; i < n; ++i) {
            if (ms[i] < lo) lo = ms[i];
            if (ms[i] > hi) hi = ms[i];
        }
        out->min_ms = lo;
        out->max_ms = hi;
        out->median_ms = gk_median(ms, n);
        out->iters = n;
    }
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    free(ms);
    return st;
}
