/* The histogram module's entry in gk_bench (bench/bench.h).
 *
 * Sizes: "n:bins" ("2^28:4096"), each part any count gk_parse_size reads.
 * Parameters: dtype (u32, u8) and dist (the distributions of histogram_ref.h),
 * each a list to sweep. Cases: the rows of the variant table,
 * cub::DeviceHistogram::HistogramEven (the reference every variant is
 * compared with: same samples, levels 0..bins, 32-bit counters), and a
 * read-only stream over the same samples (the ceiling: a histogram cannot
 * read its input faster than a kernel that only reads it).
 *
 * One call must read n samples and write bins 64-bit counts (CUB writes
 * 32-bit ones; it is credited with the same bytes, which favours it by a
 * hair); "flops" counts one increment per sample. The % of peak is of DRAM
 * bandwidth. Every case is checked exactly against the CPU's histogram.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "ceilings.h"
#include "cli.h"
#include "gk/cuda_check.h"
#include "gk/histogram.h"
#include "histogram_ref.h"

static const char *const default_sizes[] = {"2^28:256", "2^28:4096", "2^28:65536"};

static const gk_bench_param_decl params_decl[] = {
    {"dtype", "u32,u8", "u32,u8", "sample type (u8 takes bins <= 256)"},
    {"dist", "uniform,skewed,onebin,sorted,outofrange", "uniform,skewed,onebin", "distribution of the samples"},
};

static int parse_size(const char *s, gk_bench_shape *shape, char *err, size_t err_size)
{
    char buf[GK_CLI_ITEM];
    snprintf(buf, sizeof buf, "%s", s);
    char *colon = strchr(buf, ':');
    if (colon == NULL) {
        snprintf(err, err_size, "write n:bins, e.g. 2^28:4096");
        return 1;
    }
    *colon = '\0';
    size_t n, bins;
    if (gk_parse_size(buf, &n) != 0) {
        snprintf(err, err_size, "'%s' is not a count of samples", buf);
        return 1;
    }
    if (gk_parse_size(colon + 1, &bins) != 0 || bins == 0 || bins > GK_HISTOGRAM_MAX_BINS) {
        snprintf(err, err_size, "'%s' is not a number of bins from 1 to 2^24", colon + 1);
        return 1;
    }
    shape->v[0] = n;
    shape->v[1] = bins;
    shape->count = 2;
    return 0;
}

static void format_size(const gk_bench_shape *shape, char *buf, size_t size)
{
    char n[32], b[32];
    gk_format_size(shape->v[0], n, sizeof n);
    gk_format_size(shape->v[1], b, sizeof b);
    snprintf(buf, size, "%s:%s", n, b);
}

static size_t num_cases(void) { return gk_histogram_variant_count() + 2; }

static gk_bench_case case_at(size_t i)
{
    const gk_histogram_variant *v = gk_histogram_variant_at(i);
    if (v != NULL) {
        gk_bench_case c = {v->id, NULL, v->name, v->idea, GK_ROLE_VARIANT, "exact", GK_PEAK_DRAM, "cub"};
        return c;
    }
    if (i == gk_histogram_variant_count()) {
        gk_bench_case c = {0, "cub", "cub::DeviceHistogram", "HistogramEven, levels 0..bins, 32-bit counters",
                           GK_ROLE_REFERENCE, "exact", GK_PEAK_DRAM, NULL};
        return c;
    }
    gk_bench_case c = {0, "read_stream", "read-only stream", "reads the same samples once, 16-byte loads",
                       GK_ROLE_CEILING, "-", GK_PEAK_DRAM, NULL};
    return c;
}

typedef struct state {
    gk_dtype dtype;
    gk_hist_dist dist;
    size_t n, bins, elem;
    void *d_in, *d_counts, *d_ws;
    size_t ws_bytes, ws_use;
    uint64_t *ref, *got;
    unsigned *got32;
    gk_bench_case c;
    char describe[48];
} state;

static void teardown(void *p)
{
    state *s = (state *)p;
    cudaFree(s->d_in);
    cudaFree(s->d_counts);
    cudaFree(s->d_ws);
    free(s->ref);
    free(s->got);
    free(s->got32);
}

static gk_status setup(void *p, const gk_bench_shape *shape, const gk_bench_params *params)
{
    state *s = (state *)p;
    s->n = shape->v[0];
    s->bins = shape->v[1];
    s->dtype = strcmp(params->value[0], "u8") == 0 ? GK_U8 : GK_U32;
    if (gk_hist_dist_parse(params->value[1], &s->dist) != 0)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "histogram: unknown --param dist");
    snprintf(s->describe, sizeof s->describe, "%s %s", params->value[0], params->value[1]);
    if (s->dtype == GK_U8 && s->bins > 256) return GK_FAIL(GK_ERROR_UNSUPPORTED, "u8 samples take at most 256 bins");
    s->elem = gk_dtype_size(s->dtype);
    size_t bytes = (s->n ? s->n : 1) * s->elem;
    void *h = malloc(bytes);
    s->ref = (uint64_t *)malloc(s->bins * sizeof(uint64_t));
    s->got = (uint64_t *)malloc(s->bins * sizeof(uint64_t));
    s->got32 = (unsigned *)malloc(s->bins * sizeof(unsigned));
    if (!h || !s->ref || !s->got || !s->got32) {
        free(h);
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
    }
    gk_hist_fill(s->dtype, h, s->n, s->bins, s->dist, params->seed);
    gk_hist_ref(s->dtype, h, s->n, s->bins, s->ref);
    gk_status st = GK_CUDA_STATUS(cudaMalloc(&s->d_in, bytes));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(s->d_in, h, s->n * s->elem, cudaMemcpyHostToDevice));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMalloc(&s->d_counts, s->bins * sizeof(uint64_t)));
    free(h);
    return st;
}

static const char *describe(void *p) { return ((state *)p)->describe; }

static gk_status prepare(void *p, const gk_bench_case *c)
{
    state *s = (state *)p;
    s->c = *c;
    size_t need = 0;
    if (c->role == GK_ROLE_REFERENCE) {
        GK_CUDA_TRY(gk_cub_histogram(s->d_in, s->n, (int)s->dtype, s->bins, (unsigned *)s->d_counts, NULL, &need, 0));
    } else if (c->role == GK_ROLE_VARIANT) {
        GK_TRY(gk_histogram(c->id, s->dtype, s->d_in, s->n, s->bins, (uint64_t *)s->d_counts, NULL, &need, 0));
    }
    s->ws_use = need;
    /* Poison the counts and the workspace: every count must be written, and
     * the workspace must need no initialisation. */
    GK_TRY(gk_bench_poisoned_workspace(&s->d_ws, &s->ws_bytes, need, 0x5a));
    GK_CUDA_TRY(cudaMemset(s->d_counts, 0xa5, s->bins * sizeof(uint64_t)));
    GK_CUDA_TRY(cudaDeviceSynchronize());
    return gk_success();
}

static gk_status run(void *p, cudaStream_t stream)
{
    state *s = (state *)p;
    if (s->c.role == GK_ROLE_CEILING) {
        GK_CUDA_TRY(gk_ceiling_read_stream(s->d_in, s->n * s->elem, (unsigned *)s->d_counts, stream));
        return gk_success();
    }
    if (s->c.role == GK_ROLE_REFERENCE) {
        size_t bytes = s->ws_use;
        GK_CUDA_TRY(gk_cub_histogram(s->d_in, s->n, (int)s->dtype, s->bins, (unsigned *)s->d_counts, s->d_ws, &bytes,
                                     stream));
        return gk_success();
    }
    size_t bytes = s->ws_bytes;
    return gk_histogram(s->c.id, s->dtype, s->d_in, s->n, s->bins, (uint64_t *)s->d_counts, s->d_ws, &bytes, stream);
}

static gk_status verify(void *p, FILE *log)
{
    state *s = (state *)p;
    if (s->c.role == GK_ROLE_CEILING) return gk_success(); /* it computes nothing to check */
    if (s->c.role == GK_ROLE_REFERENCE) {
        GK_CUDA_TRY(cudaMemcpy(s->got32, s->d_counts, s->bins * sizeof(unsigned), cudaMemcpyDeviceToHost));
        for (size_t b = 0; b < s->bins; ++b) s->got[b] = s->got32[b];
    } else {
        GK_CUDA_TRY(cudaMemcpy(s->got, s->d_counts, s->bins * sizeof(uint64_t), cudaMemcpyDeviceToHost));
    }
    if (gk_hist_check(s->got, s->ref, s->bins, s->c.name, log) != 0)
        return GK_FAIL(GK_ERROR_VERIFY_FAILED, "the counts differ from the CPU's histogram");
    return gk_success();
}

static gk_bench_work work(void *p)
{
    state *s = (state *)p;
    gk_bench_work w = {(double)s->n * (double)s->elem, (double)s->bins * 8.0, (double)s->n};
    return w;
}

const gk_bench_module gk_histogram_bench_module = {
    "histogram", "n:bins", "n:bins, samples and bins: 2^28:256, 2^28:4096, 1000000:65536",
    default_sizes, sizeof default_sizes / sizeof default_sizes[0], "gbps",
    params_decl, sizeof params_decl / sizeof params_decl[0],
    parse_size, format_size, num_cases, case_at, setup, NULL, prepare, run, verify, work, describe, teardown,
    .state_size = sizeof(state),
};
