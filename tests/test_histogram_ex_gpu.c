/* GPU tests of gk_histogram_ex (the variants that take it: 8 and up).
 *
 * For each such variant, each sample type (f32, f16, u8, u16, i32, u32),
 * both forms (even bins over [lower, upper), levels), bins in {1, 7, 256,
 * 4099} and region shapes {one row of n, n in 0, 1, 4097, 2^20 + 3; 3 rows
 * of 1 pixel; 5 rows of 0 pixels; 37 rows of 333 pixels with an odd
 * stride; 3 rows of 7001 pixels (several 16 KiB pieces per row for
 * variant 10) with an odd stride}, bins 30011 and 65537 on the 4097 and
 * 37 x 333 shapes (where the keys, then the counters, leave shared
 * memory), and 1 to 4 channels with channel 1 left out when there are 3 or
 * more (as CUB's MultiHistogram<4, 3>); then u8 and u16 samples over their
 * whole type (256 and 65536 bins), 1 to 4 channels, every one counted, on
 * the same shapes (u16: the 4097 and 37 x 333 ones); then one channel
 * of every type, both forms, bins in {7, 256, 4099}, in one run of
 * samples (1 row of 3, 4097, 2^20 + 5; 3 rows of 7001 and 64 of 333 with
 * no padding) starting 0 to 15 bytes past a 16-byte boundary (variant
 * 11's item 9); then u8 over its
 * whole type in one run of bytes (1 row of 1, 31, 4097, 2^20 + 5 pixels;
 * 3 rows of 7001 and 64 of 333 with no padding) starting 0 to 15 bytes
 * past a 16-byte boundary, 1 to 4 channels, all counted and, with 3 or 4,
 * channel 1 left out (variant 11's item 8): samples drawn fresh (a new seed
 * every run, printed for --seed), a third of them placed exactly on a bin
 * boundary or one ulp (one unit for integers) either side, plus, for
 * floats, NaN, +-inf, +-0 and denormals; the padding between rows holds
 * values in range (it must never be counted); counts and the guard words
 * after them poisoned; every count compared exactly with gk_hist_ref_ex.
 *
 *   test_histogram_ex_gpu [--variant ID] [--small] [--large] [--seed S]
 *
 * --small: rows up to 7001 pixels and bins up to 256 (for
 * scripts/sanitize.sh). --large: instead, more than 2^32 samples in a
 * pitched region (test_large below) and more than 2^31 in one run
 * (test_large_runs), every variant that takes rows. Exit 77
 * (a CTest skip) when no GPU is visible.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gk/histogram.h"
#include "gk/random.h"
#include "gpu_test.h"
#include "histogram_ref.h"
#include "test_util.h"

enum { GUARD = 8 };
static const uint64_t POISON = 0xa5a5a5a5a5a5a5a5ULL;
static const gk_dtype types[] = {GK_F32, GK_F16, GK_U8, GK_U16, GK_I32, GK_U32};

/* Store value v (a double the type holds, else rounded or clamped) as
 * element i of type dt. */
static void put(gk_dtype dt, void *p, size_t i, double v)
{
    switch (dt) {
    case GK_F32: ((float *)p)[i] = (float)v; break;
    case GK_F16: ((uint16_t *)p)[i] = gk_hist_half_bits((float)v); break;
    case GK_U8: ((uint8_t *)p)[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); break;
    case GK_U16: ((uint16_t *)p)[i] = (uint16_t)(v < 0 ? 0 : v > 65535 ? 65535 : v); break;
    case GK_I32: ((int32_t *)p)[i] = (int32_t)(v < -2147483648.0 ? -2147483648.0 : v > 2147483647.0 ? 2147483647.0 : v); break;
    default: ((uint32_t *)p)[i] = (uint32_t)(v < 0 ? 0 : v > 4294967295.0 ? 4294967295.0 : v); break;
    }
}

/* Bounds per type: [lo, hi) for even bins (floats: any; integers: inside
 * the type) chosen from the seed. */
static void bounds(gk_dtype dt, gk_rng *r, double *lo, double *hi)
{
    switch (dt) {
    case GK_F32: *lo = -1.5 + (double)(gk_rng_next(r) % 3); *hi = *lo + (float)(0.1 + (gk_rng_next(r) % 1000) / 7.0); break;
    case GK_F16: *lo = -1.0, *hi = 3.0; break;
    case GK_U8: *lo = (double)(gk_rng_next(r) % 2), *hi = 256 - (double)(gk_rng_next(r) % 2) * 50; break;
    case GK_U16: *lo = 0, *hi = 65536; break;
    case GK_I32: *lo = -2147483648.0, *hi = 2147483648.0 - (double)(gk_rng_next(r) % 1000); break;
    default: *lo = 0, *hi = 4294967296.0; break;
    }
    if ((dt == GK_F32) && (double)(float)*hi != *hi) *hi = (double)(float)*hi;
}

/* A sample near value v: v itself, or one step either side. */
static double near(gk_dtype dt, double v, int side)
{
    if (dt == GK_F32 || dt == GK_F16) {
        float f = (float)v;
        if (dt == GK_F16) f = (float)gk_hist_half_value(gk_hist_half_bits(f));
        if (side == 0) return f;
        if (dt == GK_F32) return nextafterf(f, side > 0 ? INFINITY : -INFINITY);
        uint16_t h = gk_hist_half_bits(f); /* one f16 ulp either side */
        if (isinf(f) || isnan(f)) return f;
        int up = (side > 0) == !(h & 0x8000);
        h = (uint16_t)(up ? h + 1 : (h & 0x7fff) ? h - 1 : 0x8001);
        return gk_hist_half_value(h);
    }
    return floor(v) + (double)side;
}

/* The bins: even (EVEN, no levels) or between levels: quadratic from lo
 * to hi with one repeat when bins >= 3 (QUAD), quadratic, all distinct
 * (QUAD_STRICT); 2 to 40 ulps apart from a value in [1, 2) or [-3, -2)
 * (ULPS); from a negative one, then the inner ones in [1, 2), to 1e30
 * (OUTER); quadratic from 0 to 2 (ZERO_LO), from -2 to -0 (ZERO_HI), and
 * from -1, then 0, then up to 2 (ZERO_IN); 34 ulps apart from a value in
 * [1, 2) (ULPS34: variant 11's flat cells of 2^5 keys, 34/32 a bin, which
 * at 30011 and 60001 bins leave the cells or the counters too in global
 * memory). Floats only for all but the first two. */
enum { QUAD = 0, EVEN = 1, QUAD_STRICT = 2, ULPS = 3, OUTER = 4, ZERO_LO = 5, ZERO_HI = 6, ZERO_IN = 7, ULPS34 = 8 };
static const char *const form_names[] = {"levels", "even", "levels strict", "levels ulps", "levels outer",
                                         "levels from 0", "levels to -0", "levels through 0", "levels 34 ulps"};

/* whole: the samples' whole type in 2^bits bins (u8, u16: bins = 256,
 * 65536 over [0, 2^bits)), every channel counted (1) or channel 1 left out
 * when there are 3 or more (2). off: the region starts off elements past
 * a 256-byte boundary. */
static int run_case(int vid, gk_dtype dt, int even, size_t bins, int channels, size_t rows, size_t pixels,
                    size_t stride_extra, uint64_t seed, int whole, size_t off)
{
    char label[200];
    snprintf(label, sizeof label, "v%d %s %s%s bins=%zu ch=%d rows=%zu pixels=%zu stride+%zu off=%zu", vid,
             gk_dtype_name(dt), form_names[even], whole == 2 ? " whole type, ch 1 out" : whole ? " whole type" : "",
             bins, channels, rows, pixels, stride_extra, off);
    gk_rng r;
    gk_rng_seed(&r, seed);
    const size_t es = gk_dtype_size(dt);
    const size_t row_bytes = pixels * (size_t)channels * es, stride = row_bytes + stride_extra * es;
    const size_t total = rows * stride + 16;
    unsigned char *h = (unsigned char *)gk_test_xmalloc(total);
    double lo, hi;
    bounds(dt, &r, &lo, &hi);
    if (whole) lo = 0, hi = (double)bins;
    double *levels = (double *)gk_test_xmalloc((bins + 1) * sizeof(double));
    for (size_t i = 0; i <= bins; ++i) levels[i] = lo + (hi - lo) * (double)i / (double)bins;
    if (even == QUAD || even == QUAD_STRICT) { /* quadratic levels, snapped to the type's values */
        for (size_t i = 0; i <= bins; ++i) levels[i] = near(dt, lo + (hi - lo) * ((double)i / bins) * ((double)i / bins), 0);
        if (even == QUAD && bins >= 3) levels[2] = levels[1];
        for (size_t i = 1; i <= bins; ++i) if (levels[i] < levels[i - 1]) levels[i] = levels[i - 1];
    } else if (even == ULPS || even == ULPS34) {
        int step = 2 + (int)(gk_rng_next(&r) % (dt == GK_F16 ? 9 : 39)); /* f16: 10 ulps x 1000 bins stay finite */
        levels[0] = near(dt, gk_rng_next(&r) % 2 ? 1.0 + (double)(gk_rng_next(&r) % 1000) / 1000 : -3.0, 0);
        if (even == ULPS34) step = 34, levels[0] = near(dt, 1.0 + (double)(gk_rng_next(&r) % 1000) / 1000, 0);
        for (size_t i = 1; i <= bins; ++i) {
            levels[i] = levels[i - 1];
            for (int u = 0; u < step; ++u) levels[i] = near(dt, levels[i], 1);
        }
        lo = levels[0], hi = levels[bins];
    } else if (even == OUTER) {
        levels[0] = -5.0;
        for (size_t i = 1; i < bins; ++i) levels[i] = near(dt, 1.0 + (double)i / bins, 0);
        levels[bins] = dt == GK_F16 ? 65504.0 : 1e30;
        lo = -6.0, hi = 3.0; /* the samples: past both ends, and mostly between the inner levels */
    } else if (even >= ZERO_LO) {
        for (size_t i = 0; i <= bins; ++i) {
            const double q = (double)i / bins, q1 = bins > 1 ? (double)(i - 1) / (bins - 1) : 1.0;
            levels[i] = even == ZERO_LO ? near(dt, 2.0 * q * q, 0)
                        : even == ZERO_HI ? -2.0 * (1 - q) * (1 - q) /* levels[bins] = -0.0 */
                        : i == 0 ? -1.0 : near(dt, 2.0 * q1 * q1, 0);
        }
        lo = levels[0], hi = levels[bins] == 0 ? 0.25 : levels[bins];
    }
    /* Fill every element, padding included. */
    for (size_t i = 0; i < total / es; ++i) {
        uint64_t z = gk_rng_next(&r);
        double v;
        if (z % 3 == 0) v = near(dt, levels[(z >> 8) % (bins + 1)], (int)((z >> 40) % 3) - 1);
        else v = lo + (hi - lo) * ((double)(z >> 11) / 9007199254740992.0) * 1.2 - (hi - lo) * 0.1;
        if ((dt == GK_F32 || dt == GK_F16) && z % 17 == 1) {
            const double special[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e-45, -1e-45, 6e-8, -6e-8};
            v = special[(z >> 20) % 9];
        }
        put(dt, h, i, v);
    }
    unsigned char *d_in = NULL;
    uint64_t *d_counts[4] = {NULL}, *got = (uint64_t *)gk_test_xmalloc((bins + GUARD) * 8), *want[4];
    TRY_CUDA(cudaMalloc((void **)&d_in, total + off * es));
    TRY_CUDA(cudaMemcpy(d_in + off * es, h, total, cudaMemcpyHostToDevice));
    gk_histogram_desc d = gk_histogram_desc_1d(dt, d_in + off * es, pixels);
    d.channels = channels;
    d.num_rows = rows;
    d.row_pixels = pixels;
    d.row_stride_bytes = stride;
    for (int c = 0; c < channels; ++c) {
        want[c] = (uint64_t *)gk_test_xmalloc(bins * 8);
        if (channels >= 3 && c == 1 && whole != 1) continue; /* one channel left out */
        TRY_CUDA(cudaMalloc((void **)&d_counts[c], (bins + GUARD) * 8));
        TRY_CUDA(cudaMemset(d_counts[c], 0xa5, (bins + GUARD) * 8));
        d.ch[c].bins = bins;
        d.ch[c].lower = lo;
        d.ch[c].upper = hi;
        d.ch[c].levels = even == EVEN ? NULL : levels;
        d.ch[c].counts = d_counts[c];
    }
    size_t need = 0;
    int ok = gk_test_ok(gk_histogram_ex(vid, &d, NULL, &need, 0), label, "query");
    void *ws = NULL;
    TRY_CUDA(cudaMalloc(&ws, need));
    TRY_CUDA(cudaMemset(ws, 0x5a, need));
    size_t bytes = need;
    gk_status s = gk_histogram_ex(vid, &d, ws, &bytes, 0);
    if (gk_ok(s)) s = GK_CUDA_STATUS(cudaDeviceSynchronize());
    gk_test_require(s, label);
    gk_histogram_desc dh = d;
    dh.in = h;
    if (gk_hist_ref_ex(&dh, want) != 0) {
        printf("  %s: the host lacks memory for the reference\n", label);
        ok = 0;
    }
    for (int c = 0; c < channels; ++c) {
        if (d_counts[c] == NULL) continue;
        TRY_CUDA(cudaMemcpy(got, d_counts[c], (bins + GUARD) * 8, cudaMemcpyDeviceToHost));
        ok &= gk_hist_check(got, want[c], bins, label, stdout) == 0;
        for (size_t g = 0; g < GUARD; ++g)
            if (got[bins + g] != POISON) {
                printf("  %s: channel %d wrote past its counts\n", label, c);
                ok = 0;
                break;
            }
        cudaFree(d_counts[c]);
    }
    for (int c = 0; c < channels; ++c) free(want[c]);
    cudaFree(ws);
    cudaFree(d_in);
    free(got);
    free(levels);
    free(h);
    CHECK(ok, "%s", label);
    return ok;
}

/* More than 2^32 samples, as a pitched region: 65536 rows of 65537 u8
 * pixels (one channel), rows 65552 bytes apart (15 bytes of padding, which
 * hold 200s and must not be counted), even bins over [0, 256) in 2: all
 * zeros (bin 0) but one sample every 2^17 to 2^18 - 1 set to 200 (bin 1).
 * So counts[0] = 2^32 + 2^16 less the 200s, above 2^32 whatever the seed
 * (at most (2^32 + 2^16) / 2^17 + 1 = 32769 samples are set), and
 * counts[1] = the 200s: the
 * 64-bit counts, the row walk past 2^32 bytes and the split into launches.
 * Skipped (exit 77) when the GPU lacks the bytes + 1 GiB free or the host
 * the bytes. */
static int test_large(const gk_histogram_variant *only, uint64_t seed)
{
    const size_t rows = 65536, pixels = 65537, stride = 65552, bytes = rows * stride;
    size_t free_b = 0, total_b = 0;
    TRY_CUDA(cudaMemGetInfo(&free_b, &total_b));
    unsigned char *h = (unsigned char *)malloc(bytes);
    if (free_b < bytes + ((size_t)1 << 30) || h == NULL) {
        free(h);
        printf("SKIPPED: 65536 x 65537 pixels (stride 65552) need %.1f GB free on the GPU (has %.1f) and as much host "
               "memory%s\n",
               (bytes + ((size_t)1 << 30)) / 1e9, free_b / 1e9, h ? "" : " (malloc failed)");
        return GK_TEST_SKIP;
    }
    memset(h, 0, bytes);
    for (size_t r = 0; r < rows; ++r) memset(h + r * stride + pixels, 200, stride - pixels);
    gk_rng g;
    gk_rng_seed(&g, seed);
    uint64_t set = 0;
    for (size_t i = gk_rng_next(&g) % 131072; i < rows * pixels; i += 131072 + gk_rng_next(&g) % 131072) {
        h[(i / pixels) * stride + i % pixels] = 200;
        ++set;
    }
    const uint64_t want0 = (uint64_t)rows * pixels - set, want1 = set;
    CHECK(want0 > ((uint64_t)1 << 32), "counts[0] = %llu passes 2^32", (unsigned long long)want0);
    printf("%zu x %zu u8 pixels, stride %zu: counts must be %llu and %llu\n", rows, pixels, stride,
           (unsigned long long)want0, (unsigned long long)want1);
    unsigned char *d_in = NULL;
    uint64_t *d_counts = NULL, got[2 + GUARD];
    TRY_CUDA(cudaMalloc((void **)&d_in, bytes));
    TRY_CUDA(cudaMemcpy(d_in, h, bytes, cudaMemcpyHostToDevice));
    free(h);
    TRY_CUDA(cudaMalloc((void **)&d_counts, (2 + GUARD) * 8));
    for (size_t vi = 0; vi < gk_histogram_variant_count(); ++vi) {
        const gk_histogram_variant *v = gk_histogram_variant_at(vi);
        if ((only && v != only) || !(v->forms & GK_HISTOGRAM_FORM_ROWS)) continue;
        char label[96];
        snprintf(label, sizeof label, "v%d %s: n > 2^32, pitched rows", v->id, v->name);
        gk_histogram_desc d = gk_histogram_desc_1d(GK_U8, d_in, pixels);
        d.num_rows = rows;
        d.row_stride_bytes = stride;
        d.ch[0].bins = 2;
        d.ch[0].lower = 0;
        d.ch[0].upper = 256;
        d.ch[0].counts = d_counts;
        size_t need = 0;
        gk_test_require(gk_histogram_ex(v->id, &d, NULL, &need, 0), label);
        void *ws = NULL;
        TRY_CUDA(cudaMalloc(&ws, need));
        TRY_CUDA(cudaMemset(ws, 0x5a, need));
        TRY_CUDA(cudaMemset(d_counts, 0xa5, (2 + GUARD) * 8));
        size_t wb = need;
        gk_status s = gk_histogram_ex(v->id, &d, ws, &wb, 0);
        if (gk_ok(s)) s = GK_CUDA_STATUS(cudaDeviceSynchronize());
        gk_test_require(s, label);
        TRY_CUDA(cudaMemcpy(got, d_counts, sizeof got, cudaMemcpyDeviceToHost));
        int ok = got[0] == want0 && got[1] == want1;
        for (size_t g2 = 0; g2 < GUARD; ++g2) ok &= got[2 + g2] == POISON;
        CHECK(ok, "%s: got %llu %llu", label, (unsigned long long)got[0], (unsigned long long)got[1]);
        printf("  v%d done\n", v->id);
        fflush(stdout);
        cudaFree(ws);
    }
    cudaFree(d_counts);
    cudaFree(d_in);
    return 0;
}

/* One run of samples past 2^31 (variant 11's items 8 and 9 cut it into
 * launches of at most 2^31 samples): 2^32 + 2^16 + 5 u8 bytes, all 7,
 * starting 3 bytes past a 16-byte boundary, over the whole type (256
 * bins): counts[7] = n, the others 0; and 2^31 + 2^16 + 5 f32 samples,
 * all 0.0f (zero bytes), starting one float past the boundary, in 256
 * even bins over [0, 1) and between 256 quadratic levels from 0:
 * counts[0] = n, the others 0. Every variant that takes rows; skipped
 * when the GPU lacks the bytes + 1 GiB free. */
static int run_large(int vid, const char *name, gk_dtype dt, const void *in, size_t n, const double *levels,
                     uint64_t *d_counts, size_t bin)
{
    char label[128];
    snprintf(label, sizeof label, "v%d %s: one run of %zu %s samples%s", vid, name, n, gk_dtype_name(dt),
             levels ? ", levels" : "");
    gk_histogram_desc d = gk_histogram_desc_1d(dt, in, n);
    d.ch[0].bins = 256;
    d.ch[0].lower = 0;
    d.ch[0].upper = dt == GK_U8 ? 256 : 1;
    d.ch[0].levels = levels;
    d.ch[0].counts = d_counts;
    size_t need = 0;
    gk_test_require(gk_histogram_ex(vid, &d, NULL, &need, 0), label);
    void *ws = NULL;
    TRY_CUDA(cudaMalloc(&ws, need));
    TRY_CUDA(cudaMemset(ws, 0x5a, need));
    TRY_CUDA(cudaMemset(d_counts, 0xa5, (256 + GUARD) * 8));
    size_t wb = need;
    gk_status s = gk_histogram_ex(vid, &d, ws, &wb, 0);
    if (gk_ok(s)) s = GK_CUDA_STATUS(cudaDeviceSynchronize());
    gk_test_require(s, label);
    uint64_t got[256 + GUARD];
    TRY_CUDA(cudaMemcpy(got, d_counts, sizeof got, cudaMemcpyDeviceToHost));
    int ok = 1;
    for (size_t b = 0; b < 256; ++b) ok &= got[b] == (b == bin ? (uint64_t)n : 0);
    for (size_t g = 0; g < GUARD; ++g) ok &= got[256 + g] == POISON;
    CHECK(ok, "%s: counts[%zu] = %llu (want %zu)", label, bin, (unsigned long long)got[bin], n);
    cudaFree(ws);
    return ok;
}

static int test_large_runs(const gk_histogram_variant *only)
{
    const size_t n8 = ((size_t)1 << 32) + 65536 + 5, n32 = ((size_t)1 << 31) + 65536 + 5;
    const size_t bytes = n32 * 4 + 16 > n8 + 16 ? n32 * 4 + 16 : n8 + 16;
    size_t free_b = 0, total_b = 0;
    TRY_CUDA(cudaMemGetInfo(&free_b, &total_b));
    if (free_b < bytes + ((size_t)1 << 30)) {
        printf("SKIPPED: one run of %zu bytes needs %.1f GB free on the GPU (has %.1f)\n", bytes,
               (bytes + ((size_t)1 << 30)) / 1e9, free_b / 1e9);
        return GK_TEST_SKIP;
    }
    unsigned char *d_in = NULL;
    uint64_t *d_counts = NULL;
    double levels[257];
    for (int i = 0; i <= 256; ++i) levels[i] = ((double)i / 256) * ((double)i / 256);
    TRY_CUDA(cudaMalloc((void **)&d_in, bytes));
    TRY_CUDA(cudaMalloc((void **)&d_counts, (256 + GUARD) * 8));
    for (size_t vi = 0; vi < gk_histogram_variant_count(); ++vi) {
        const gk_histogram_variant *v = gk_histogram_variant_at(vi);
        if ((only && v != only) || !(v->forms & GK_HISTOGRAM_FORM_ROWS)) continue;
        TRY_CUDA(cudaMemset(d_in, 7, n8 + 16));
        run_large(v->id, v->name, GK_U8, d_in + 3, n8, NULL, d_counts, 7);
        TRY_CUDA(cudaMemset(d_in, 0, n32 * 4 + 16));
        run_large(v->id, v->name, GK_F32, d_in + 4, n32, NULL, d_counts, 0);
        run_large(v->id, v->name, GK_F32, d_in + 4, n32, levels, d_counts, 0);
        printf("  v%d done (runs)\n", v->id);
        fflush(stdout);
    }
    cudaFree(d_counts);
    cudaFree(d_in);
    return 0;
}

int main(int argc, char **argv)
{
    int variant = 0, small = 0, large = 0;
    uint64_t seed = gk_test_new_seed();
    const gk_test_option opts[] = {{"--small", &small, NULL}, {"--large", &large, NULL}};
    if (gk_test_args(argc, argv, opts, 2, "test_histogram_ex_gpu [--variant ID] [--small] [--large] [--seed S]",
                     &variant, &seed) != 0)
        return 2;
    gk_device_info dev;
    const gk_histogram_variant *only = variant ? gk_histogram_find_variant(variant) : NULL;
    int rc = gk_test_start(gk_test_open_gpu(&dev, seed), variant, only != NULL);
    if (rc != 0) return rc;
    if (large) {
        if (test_large(only, seed) == GK_TEST_SKIP) return GK_TEST_SKIP;
        if (test_large_runs(only) == GK_TEST_SKIP) return GK_TEST_SKIP;
        return check_summary("test_histogram_ex_gpu");
    }
    /* 30011 and 65537 bins: the fallbacks of variants 9 and 10 (keys, then
     * counters, no longer in shared memory), on two shapes only. */
    const size_t all_bins[] = {1, 7, 256, 4099, 30011, 65537};
    const size_t shapes[][3] = {{1, 0, 0},  {1, 1, 0},   {1, 4097, 0},   {1, (1u << 20) + 3, 0},
                                {3, 1, 1},  {5, 0, 3},   {37, 333, 5},   {3, 7001, 3}};
    uint64_t k = 0;
    for (size_t vi = 0; vi < gk_histogram_variant_count(); ++vi) {
        const gk_histogram_variant *v = gk_histogram_variant_at(vi);
        if ((only && v != only) || !(v->forms & GK_HISTOGRAM_FORM_EVEN)) continue;
        int before = check_failed;
        for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t)
            for (int even = 0; even < 2; ++even)
                for (size_t bi = 0; bi < sizeof all_bins / sizeof all_bins[0]; ++bi) {
                    if (small && all_bins[bi] > 256) continue;
                    for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; ++sh, ++k) {
                        if (small && shapes[sh][1] > 7001) continue;
                        if (all_bins[bi] > 4099 && sh != 2 && sh != 6) continue;
                        int channels = 1 + (int)(k % 4);
                        run_case(v->id, types[t], even, all_bins[bi], channels, shapes[sh][0], shapes[sh][1],
                                 shapes[sh][2], seed ^ (k * 0x9e3779b97f4a7c15ULL), 0, 0);
                    }
                }
        /* u8 and u16 over their whole type, 1 to 4 channels all counted
         * (RGB and RGBA images: variant 11's item 5), even bins. */
        const gk_dtype whole_types[] = {GK_U8, GK_U16};
        for (size_t t = 0; t < 2; ++t)
            for (int channels = 1; channels <= 4; ++channels)
                for (size_t sh = 0; sh < sizeof shapes / sizeof shapes[0]; ++sh, ++k) {
                    if (small && shapes[sh][1] > 7001) continue;
                    if (whole_types[t] == GK_U16 && sh != 2 && sh != 6) continue;
                    run_case(v->id, whole_types[t], 1, whole_types[t] == GK_U8 ? 256 : 65536, channels,
                             shapes[sh][0], shapes[sh][1], shapes[sh][2], seed ^ (k * 0x9e3779b97f4a7c15ULL), 1, 0);
                }
        /* One channel of every type in one run of samples (one row, or
         * rows with no padding), starting 0 to 15 bytes past a 16-byte
         * boundary: variant 11's item 9 with its head and its tail. */
        const size_t runs1[][2] = {{1, 3}, {1, 4097}, {1, (1u << 20) + 5}, {3, 7001}, {64, 333}};
        const size_t bins1[] = {7, 256, 4099};
        for (size_t t = 0; t < sizeof types / sizeof types[0]; ++t)
            for (int even = 0; even < 2; ++even)
                for (size_t bi = 0; bi < sizeof bins1 / sizeof bins1[0]; ++bi)
                    for (size_t sh = 0; sh < sizeof runs1 / sizeof runs1[0]; ++sh, ++k) {
                        if (small && (runs1[sh][1] > 7001 || bins1[bi] > 256)) continue;
                        const size_t off = (size_t)((seed ^ k) % (16 / gk_dtype_size(types[t])));
                        run_case(v->id, types[t], even, bins1[bi], 1, runs1[sh][0], runs1[sh][1], 0,
                                 seed ^ (k * 0x9e3779b97f4a7c15ULL), 0, off);
                    }
        /* u8 over its whole type in one run of bytes (one row, or rows
         * with no padding), starting 0 to 15 bytes past a 16-byte
         * boundary, every channel counted or channel 1 left out: variant
         * 11's item 8 with its head, its tail and its channel order. */
        const size_t runs[][2] = {{1, 1}, {1, 31}, {1, 4097}, {1, (1u << 20) + 5}, {3, 7001}, {64, 333}};
        for (int channels = 1; channels <= 4; ++channels)
            for (size_t sh = 0; sh < sizeof runs / sizeof runs[0]; ++sh, ++k) {
                if (small && runs[sh][1] > 7001) continue;
                const size_t off = (size_t)((seed ^ k) % 16);
                for (int whole = 1; whole <= (channels >= 3 ? 2 : 1); ++whole)
                    run_case(v->id, GK_U8, 1, 256, channels, runs[sh][0], runs[sh][1], 0,
                             seed ^ (k * 0x9e3779b97f4a7c15ULL), whole, off);
            }
        /* One channel of f32 or f16 samples between levels that variant 11
         * cuts into flat key cells (item 10) where they allow: every two
         * levels' keys far enough apart (quadratic ones, distinct; ulps
         * apart: cells of 1 to 32 keys; inner levels in [1, 2) with the
         * outer ones far off: samples past the cells on both sides; a
         * level at 0 or -0, first, last or inner, where -0 and +0 samples
         * must meet the same bin), in one run and in padded rows. */
        const size_t runs2[][3] = {{1, 4097, 0}, {1, (1u << 20) + 5, 0}, {3, 7001, 0}, {37, 333, 5}};
        const size_t bins2[] = {2, 7, 256, 1000};
        const gk_dtype ftypes[] = {GK_F32, GK_F16};
        for (size_t t = 0; t < 2; ++t)
            for (int form = QUAD_STRICT; form <= ZERO_IN; ++form)
                for (size_t bi = 0; bi < sizeof bins2 / sizeof bins2[0]; ++bi)
                    for (size_t sh = 0; sh < sizeof runs2 / sizeof runs2[0]; ++sh, ++k) {
                        if (small && runs2[sh][1] > 7001) continue;
                        const size_t off = (size_t)((seed ^ k) % (16 / gk_dtype_size(ftypes[t])));
                        run_case(v->id, ftypes[t], form, bins2[bi], 1, runs2[sh][0], runs2[sh][1], runs2[sh][2],
                                 seed ^ (k * 0x9e3779b97f4a7c15ULL), 0, off);
                    }
        const size_t bins3[] = {30011, 60001};
        for (size_t bi = 0; bi < 2 && !small; ++bi)
            for (size_t sh = 1; sh < sizeof runs2 / sizeof runs2[0]; sh += 2, ++k)
                run_case(v->id, GK_F32, ULPS34, bins3[bi], 1, runs2[sh][0], runs2[sh][1], runs2[sh][2],
                         seed ^ (k * 0x9e3779b97f4a7c15ULL), 0, (size_t)((seed ^ k) % 4));
        printf("variant %d %-22s %s\n", v->id, v->name, check_failed == before ? "ok" : "FAILED");
        fflush(stdout);
    }
    return check_summary("test_histogram_ex_gpu");
}
