/* The histogram module's entry in gk_bench (bench/bench.h).
 *
 * Sizes: "n:bins" ("2^28:4096"), each part any count gk_parse_size reads;
 * n counts samples, or pixels in the channels form.
 * Parameters, each a list to sweep:
 *   form      int: gk_histogram (u8 and u32 samples, value v in bin v),
 *               compared with CUB's HistogramEven over levels 0..bins;
 *             even: gk_histogram_even over the type's interval below,
 *               compared with HistogramEven;
 *             range: gk_histogram_range with quadratic levels
 *               lower + (upper - lower) (i / bins)^2 (each rounded to the
 *               sample type, repeats allowed), compared with HistogramRange;
 *             channels: gk_histogram_ex over interleaved pixels of
 *               `channels` samples, each counted channel even bins over
 *               the type's interval, compared with MultiHistogramEven.
 *   dtype     the sample type: f32, f16, u8, u16, i32, u32 (form int takes
 *             u8 and u32; u8 takes bins <= 256 there).
 *   dist      how the samples spread over the bins (histogram_ref.h); in
 *             the forms other than int a bin is drawn, then a value
 *             uniform inside it (so uniform over the bins, not the values,
 *             for quadratic levels).
 *   channels  C:A, for form channels: C interleaved samples per pixel, the
 *             first A counted (CUB's MultiHistogramEven<C, A>): 2:2, 3:3,
 *             4:3 (RGBA with alpha left out), 4:4.
 * The type's interval [lower, upper): f32 and f16 [0, 1); u8 [0, 256);
 * u16 [0, 65536); i32 [-2^31, 2^31); u32 [0, 2^32). Over [0, 1) with bins
 * a power of two CUB's float arithmetic ((x - lower) * bins / (upper -
 * lower), in the sample's type) is exact, so CUB is checked exactly like
 * the variants; with other bins it can put samples next to an edge in
 * another bin than the exact rule (histogram/README.md, "Even bins at the
 * edges", and tests/test_histogram_cub_gpu.c), and its check then fails
 * and says where.
 * In the range form the variants are given the levels in pinned host
 * memory, and each call copies them (asynchronously) as gk/histogram.h
 * says; CUB takes device levels, uploaded once before timing.
 * Cases: the rows of the variant table that take the form, CUB's matching
 * call (same samples, 32-bit counters), and a read-only stream over the
 * same bytes (the ceiling: a histogram cannot read its input faster than a
 * kernel that only reads it).
 *
 * One call must read every sample of the region (the channels not counted
 * too: they lie between the counted ones) and write bins 64-bit counts per
 * counted channel (CUB writes 32-bit ones; it is credited with the same
 * bytes, which favours it by a hair); "flops" counts one increment per
 * counted sample. The % of peak is of DRAM bandwidth. Every case is checked
 * exactly against the CPU's histogram (gk_hist_ref, gk_hist_ref_ex).
 */
#include <math.h>
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

enum { P_FORM, P_DTYPE, P_DIST, P_CHANNELS };
static const gk_bench_param_decl params_decl[] = {
    {"form", "int,even,range,channels", "int", "int (gk_histogram), even, range (levels) or channels (gk_histogram_ex)", NULL},
    {"dtype", "f32,f16,u8,u16,i32,u32", "u32,u8", "sample type (form int: u8 with bins <= 256, u32)", NULL},
    {"dist", "uniform,skewed,onebin,sorted,outofrange", "uniform,skewed,onebin", "distribution of the samples", NULL},
    {"channels", "2:2,3:3,4:3,4:4", "4:3", "form channels: C:A, C samples per pixel, the first A counted", NULL},
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
        gk_bench_case c = {0, "cub", "cub::DeviceHistogram",
                           "the form's call: HistogramEven, HistogramRange or MultiHistogramEven, 32-bit counters",
                           GK_ROLE_REFERENCE, "exact", GK_PEAK_DRAM, NULL};
        return c;
    }
    gk_bench_case c = {0, "read_stream", "read-only stream", "reads the same samples once, 16-byte loads",
                       GK_ROLE_CEILING, "-", GK_PEAK_DRAM, NULL};
    return c;
}

typedef enum form { FORM_INT, FORM_EVEN, FORM_RANGE, FORM_CHANNELS } form;
static const char *const form_names[] = {"int", "even", "range", "channels"};

typedef struct state {
    form form;
    gk_dtype dtype;
    gk_hist_dist dist;
    size_t n, bins, elem;      /* n: samples, or pixels in the channels form */
    int channels, active;      /* samples per pixel, counted channels (the first ones) */
    double lower, upper;       /* even bins (forms even and channels) */
    double *levels;            /* host, bins + 1 (form range; the even levels that draw the samples) */
    double *pinned_levels;     /* the same in pinned memory: what the variants get, so that their
                                  copy of the levels is asynchronous, as a caller's would be */
    void *d_levels;            /* CUB's copy, in its level type */
    void *d_in, *d_ws;
    uint64_t *d_counts[GK_HISTOGRAM_MAX_CHANNELS];
    size_t ws_bytes, ws_use;
    uint64_t *ref[GK_HISTOGRAM_MAX_CHANNELS], *got;
    unsigned *got32;
    gk_bench_case c;
    char describe[64];
} state;

static void teardown(void *p)
{
    state *s = (state *)p;
    cudaFree(s->d_in);
    cudaFree(s->d_ws);
    cudaFree(s->d_levels);
    for (int a = 0; a < GK_HISTOGRAM_MAX_CHANNELS; ++a) {
        cudaFree(s->d_counts[a]);
        free(s->ref[a]);
    }
    free(s->levels);
    cudaFreeHost(s->pinned_levels);
    free(s->got);
    free(s->got32);
}

/* The type's interval of the even and channels forms (see the top). */
static void interval(gk_dtype dt, double *lo, double *hi)
{
    switch (dt) {
    case GK_U8: *lo = 0, *hi = 256; break;
    case GK_U16: *lo = 0, *hi = 65536; break;
    case GK_I32: *lo = -2147483648.0, *hi = 2147483648.0; break;
    case GK_U32: *lo = 0, *hi = 4294967296.0; break;
    default: *lo = 0, *hi = 1; break; /* f32, f16 */
    }
}

/* The descriptor of the run's region for gk_histogram_ex (the variants) or,
 * with `in` a host pointer, for the reference. */
static gk_histogram_desc desc_of(const state *s, const void *in)
{
    gk_histogram_desc d = gk_histogram_desc_1d(s->dtype, in, s->n);
    d.channels = s->channels;
    d.row_stride_bytes = s->n * (size_t)s->channels * s->elem;
    for (int a = 0; a < s->active; ++a) {
        d.ch[a].bins = s->bins;
        d.ch[a].lower = s->lower;
        d.ch[a].upper = s->upper;
        d.ch[a].levels = s->form != FORM_RANGE ? NULL : s->pinned_levels ? s->pinned_levels : s->levels;
        d.ch[a].counts = s->d_counts[a];
    }
    return d;
}

static gk_status setup(void *p, const gk_bench_shape *shape, const gk_bench_params *params)
{
    state *s = (state *)p;
    s->n = shape->v[0];
    s->bins = shape->v[1];
    for (int f = 0; f < 4; ++f)
        if (strcmp(params->value[P_FORM], form_names[f]) == 0) s->form = (form)f;
    const gk_dtype types[] = {GK_F32, GK_F16, GK_U8, GK_U16, GK_I32, GK_U32};
    for (int t = 0; t < 6; ++t)
        if (strcmp(params->value[P_DTYPE], gk_dtype_name(types[t])) == 0) s->dtype = types[t];
    if (gk_hist_dist_parse(params->value[P_DIST], &s->dist) != 0)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "histogram: unknown --param dist");
    s->channels = s->active = 1;
    if (s->form == FORM_CHANNELS) {
        s->channels = params->value[P_CHANNELS][0] - '0';
        s->active = params->value[P_CHANNELS][2] - '0';
        snprintf(s->describe, sizeof s->describe, "%s %s %s %s", params->value[P_DTYPE], params->value[P_DIST],
                 params->value[P_FORM], params->value[P_CHANNELS]);
    } else if (s->form != FORM_INT) {
        snprintf(s->describe, sizeof s->describe, "%s %s %s", params->value[P_DTYPE], params->value[P_DIST],
                 params->value[P_FORM]);
    } else { /* the integer form as it has always been named ("u32 uniform"): the page's charts keep their names */
        snprintf(s->describe, sizeof s->describe, "%s %s", params->value[P_DTYPE], params->value[P_DIST]);
    }
    if (s->form == FORM_INT && s->dtype != GK_U8 && s->dtype != GK_U32)
        return GK_FAIL(GK_ERROR_UNSUPPORTED, "form int takes u8 and u32 samples");
    if (s->form == FORM_INT && s->dtype == GK_U8 && s->bins > 256)
        return GK_FAIL(GK_ERROR_UNSUPPORTED, "u8 samples take at most 256 bins");
    s->elem = gk_dtype_size(s->dtype);
    const size_t samples = s->n * (size_t)s->channels, bytes = (samples ? samples : 1) * s->elem;
    void *h = malloc(bytes);
    s->got = (uint64_t *)malloc(s->bins * sizeof(uint64_t));
    s->got32 = (unsigned *)malloc(s->bins * sizeof(unsigned));
    s->levels = (double *)malloc((s->bins + 1) * sizeof(double));
    int ok = h && s->got && s->got32 && s->levels;
    for (int a = 0; a < s->active && ok; ++a) ok = (s->ref[a] = (uint64_t *)malloc(s->bins * sizeof(uint64_t))) != NULL;
    if (!ok) {
        free(h);
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
    }
    gk_status st = gk_success();
    if (s->form == FORM_INT) {
        gk_hist_fill(s->dtype, h, s->n, s->bins, s->dist, params->seed);
        gk_hist_ref(s->dtype, h, s->n, s->bins, s->ref[0]);
    } else {
        interval(s->dtype, &s->lower, &s->upper);
        /* Even levels for drawing the samples; quadratic ones for the range form. */
        const double w = s->upper - s->lower;
        for (size_t i = 0; i <= s->bins; ++i) {
            const double f = (double)i / (double)s->bins;
            s->levels[i] = s->form == FORM_RANGE ? gk_hist_snap(s->dtype, s->lower + w * f * f) : s->lower + w * f;
        }
        s->levels[s->bins] = s->upper; /* exactly, though u32's 2^32 is no u32 value */
        for (int c = 0; c < s->channels; ++c)
            gk_hist_fill_levels(s->dtype, (char *)h + (size_t)c * s->elem, s->n, (size_t)s->channels, s->levels,
                                s->bins, s->dist, params->seed + (uint64_t)c);
        gk_histogram_desc d = desc_of(s, h);
        if (gk_hist_ref_ex(&d, s->ref) != 0) st = GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
        if (gk_ok(st) && s->form == FORM_RANGE)
            st = GK_CUDA_STATUS(cudaMallocHost((void **)&s->pinned_levels, (s->bins + 1) * sizeof(double)));
        if (gk_ok(st) && s->form == FORM_RANGE) memcpy(s->pinned_levels, s->levels, (s->bins + 1) * sizeof(double));
        if (gk_ok(st) && s->form == FORM_RANGE) { /* CUB's copy of the levels, in its level type */
            const size_t lb = gk_cub_level_bytes((int)s->dtype);
            void *hl = malloc((s->bins + 1) * lb);
            if (hl == NULL) st = GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
            if (gk_ok(st)) {
                gk_cub_levels((int)s->dtype, s->levels, s->bins + 1, hl);
                st = GK_CUDA_STATUS(cudaMalloc(&s->d_levels, (s->bins + 1) * lb));
            }
            if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(s->d_levels, hl, (s->bins + 1) * lb, cudaMemcpyHostToDevice));
            free(hl);
        }
    }
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMalloc(&s->d_in, bytes));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMemcpy(s->d_in, h, samples * s->elem, cudaMemcpyHostToDevice));
    for (int a = 0; a < s->active && gk_ok(st); ++a)
        st = GK_CUDA_STATUS(cudaMalloc((void **)&s->d_counts[a], s->bins * sizeof(uint64_t)));
    free(h);
    return st;
}

static const char *describe(void *p) { return ((state *)p)->describe; }

/* The variants that take the run's form; CUB and the stream always. */
static int applies(void *p, const gk_bench_case *c)
{
    const state *s = (const state *)p;
    if (c->role != GK_ROLE_VARIANT) return 1;
    const unsigned want[] = {GK_HISTOGRAM_FORM_INT, GK_HISTOGRAM_FORM_EVEN, GK_HISTOGRAM_FORM_RANGE,
                             GK_HISTOGRAM_FORM_CHANNELS};
    const gk_histogram_variant *v = gk_histogram_find_variant(c->id);
    return v != NULL && (v->forms & want[s->form]) != 0;
}

/* One call of the prepared case: the variant (workspace NULL: the query),
 * or CUB. */
static gk_status call(state *s, void *ws, size_t *bytes, cudaStream_t stream)
{
    if (s->c.role == GK_ROLE_REFERENCE) {
        if (s->form == FORM_INT)
            GK_CUDA_TRY(gk_cub_histogram(s->d_in, s->n, (int)s->dtype, s->bins, (unsigned *)s->d_counts[0], ws, bytes,
                                         stream));
        else {
            size_t bins[GK_HISTOGRAM_MAX_CHANNELS];
            double lo[GK_HISTOGRAM_MAX_CHANNELS], hi[GK_HISTOGRAM_MAX_CHANNELS];
            unsigned *counts[GK_HISTOGRAM_MAX_CHANNELS];
            const void *lev[1] = {s->d_levels};
            for (int a = 0; a < s->active; ++a) {
                bins[a] = s->bins, lo[a] = s->lower, hi[a] = s->upper;
                counts[a] = (unsigned *)s->d_counts[a];
            }
            GK_CUDA_TRY(gk_cub_histogram_ex((int)s->dtype, s->d_in, s->channels, s->active, s->n, bins, lo, hi,
                                            s->form == FORM_RANGE ? lev : NULL, counts, ws, bytes, stream));
        }
        return gk_success();
    }
    if (s->form == FORM_INT)
        return gk_histogram(s->c.id, s->dtype, s->d_in, s->n, s->bins, s->d_counts[0], ws, bytes, stream);
    gk_histogram_desc d = desc_of(s, s->d_in);
    return gk_histogram_ex(s->c.id, &d, ws, bytes, stream);
}

static gk_status prepare(void *p, const gk_bench_case *c)
{
    state *s = (state *)p;
    s->c = *c;
    size_t need = 0;
    if (c->role != GK_ROLE_CEILING) GK_TRY(call(s, NULL, &need, 0));
    s->ws_use = need;
    /* Poison the counts and the workspace: every count must be written, and
     * the workspace must need no initialisation. */
    GK_TRY(gk_bench_poisoned_workspace(&s->d_ws, &s->ws_bytes, need, 0x5a));
    for (int a = 0; a < s->active; ++a) GK_CUDA_TRY(cudaMemset(s->d_counts[a], 0xa5, s->bins * sizeof(uint64_t)));
    GK_CUDA_TRY(cudaDeviceSynchronize());
    return gk_success();
}

static gk_status run(void *p, cudaStream_t stream)
{
    state *s = (state *)p;
    if (s->c.role == GK_ROLE_CEILING) {
        GK_CUDA_TRY(gk_ceiling_read_stream(s->d_in, s->n * (size_t)s->channels * s->elem, (unsigned *)s->d_counts[0],
                                           stream));
        return gk_success();
    }
    /* CUB is given exactly the bytes it asked for; a variant all there is. */
    size_t bytes = s->c.role == GK_ROLE_REFERENCE ? s->ws_use : s->ws_bytes;
    return call(s, s->d_ws, &bytes, stream);
}

static gk_status verify(void *p, FILE *log)
{
    state *s = (state *)p;
    if (s->c.role == GK_ROLE_CEILING) return gk_success(); /* it computes nothing to check */
    size_t bad = 0;
    for (int a = 0; a < s->active; ++a) {
        if (s->c.role == GK_ROLE_REFERENCE) {
            GK_CUDA_TRY(cudaMemcpy(s->got32, s->d_counts[a], s->bins * sizeof(unsigned), cudaMemcpyDeviceToHost));
            for (size_t b = 0; b < s->bins; ++b) s->got[b] = s->got32[b];
        } else {
            GK_CUDA_TRY(cudaMemcpy(s->got, s->d_counts[a], s->bins * sizeof(uint64_t), cudaMemcpyDeviceToHost));
        }
        char label[96];
        snprintf(label, sizeof label, "%s channel %d", s->c.name, a);
        bad += gk_hist_check(s->got, s->ref[a], s->bins, label, log);
    }
    if (bad != 0) return GK_FAIL(GK_ERROR_VERIFY_FAILED, "the counts differ from the CPU's histogram");
    return gk_success();
}

static gk_bench_work work(void *p)
{
    state *s = (state *)p;
    gk_bench_work w = {(double)s->n * (double)s->channels * (double)s->elem,
                       (double)s->bins * 8.0 * (double)s->active, (double)s->n * (double)s->active};
    return w;
}

const gk_bench_module gk_histogram_bench_module = {
    "histogram", "n:bins", "n:bins, samples (pixels for form=channels) and bins: 2^28:256, 2^28:4096, 1000000:65536",
    default_sizes, sizeof default_sizes / sizeof default_sizes[0], "gbps",
    params_decl, sizeof params_decl / sizeof params_decl[0],
    parse_size, format_size, num_cases, case_at, setup, NULL, prepare, run, verify, work, describe, teardown,
    .applies = applies,
    .state_size = sizeof(state),
};
