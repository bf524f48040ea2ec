/* CPU tests of the histogram module: the reference and the generators
 * against known answers, the variant table against itself and against
 * histogram/kernels/, and argument checking (every rejected call launches
 * nothing and writes nothing, so none of this needs a GPU). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gk/histogram.h"
#include "gk/random.h"
#include "histogram_ref.h"
#include "test_util.h"
#include "variants.h"

/* The name of variant `id`, NULL when there is none (gk_test_kernel_files). */
static const char *row_name(int id)
{
    const gk_histogram_variant *v = gk_histogram_find_variant(id);
    return v ? v->name : NULL;
}

static void test_reference(void)
{
    const uint32_t x[] = {0, 3, 3, 7, 2, 3, 9, 0};
    uint64_t c[8];
    gk_hist_ref(GK_U32, x, 8, 8, c);
    CHECK(c[0] == 2 && c[1] == 0 && c[2] == 1 && c[3] == 3 && c[7] == 1 && c[4] == 0, "u32 counts");
    gk_hist_ref(GK_U32, x, 8, 3, c); /* 3, 7, 9 and the 3s are out of range */
    CHECK(c[0] == 2 && c[1] == 0 && c[2] == 1, "values >= bins are not counted");
    const uint8_t b[] = {255, 255, 0, 17};
    uint64_t c8[256];
    gk_hist_ref(GK_U8, b, 4, 256, c8);
    CHECK(c8[255] == 2 && c8[0] == 1 && c8[17] == 1, "u8 counts");
    gk_hist_ref(GK_U8, b, 0, 256, c8);
    CHECK(c8[255] == 0 && c8[0] == 0, "n = 0: zeros");
    uint64_t want[3] = {1, 2, 3}, got[3] = {1, 2, 4};
    CHECK(gk_hist_check(want, want, 3, "same", NULL) == 0 && gk_hist_check(got, want, 3, "off", NULL) == 1,
          "the check");

    /* Generators: every distribution stays in its range and looks like
     * itself. */
    enum { N = 100000 };
    static uint32_t u[N];
    static uint64_t h[4096];
    for (int d = 0; d < GK_DIST_COUNT; ++d) {
        gk_hist_fill(GK_U32, u, N, 4096, (gk_hist_dist)d, 7);
        gk_hist_ref(GK_U32, u, N, 4096, h);
        uint64_t in_range = 0, max = 0, nonzero = 0;
        for (int i = 0; i < 4096; ++i) {
            in_range += h[i];
            if (h[i] > max) max = h[i];
            nonzero += h[i] != 0;
        }
        const char *name = gk_hist_dist_name((gk_hist_dist)d);
        gk_hist_dist back;
        CHECK(gk_hist_dist_parse(name, &back) == 0 && back == (gk_hist_dist)d, "%s parses back", name);
        switch (d) {
        case GK_DIST_UNIFORM: CHECK(in_range == N && nonzero > 4000 && max < 80, "uniform: %llu bins, max %llu",
                                    (unsigned long long)nonzero, (unsigned long long)max); break;
        case GK_DIST_SKEWED: CHECK(in_range == N && h[0] > N / 20 && h[0] > h[20] * 2, "skewed: h0 %llu h20 %llu",
                                   (unsigned long long)h[0], (unsigned long long)h[20]); break;
        case GK_DIST_ONE_BIN: CHECK(h[2048] == N && nonzero == 1, "one bin"); break;
        case GK_DIST_SORTED: CHECK(in_range == N && nonzero < 200, "sorted runs: %llu values",
                                   (unsigned long long)nonzero); break;
        case GK_DIST_OUT_OF_RANGE: CHECK(in_range > N / 3 && in_range < 2 * N / 3, "about half out of range: %llu",
                                         (unsigned long long)in_range); break;
        }
    }
    CHECK(gk_hist_dist_parse("zipf", &(gk_hist_dist){0}) != 0, "unknown distribution");
}

static void test_table(void)
{
    size_t count = gk_histogram_variant_count();
    CHECK(count >= 1, "the ladder has %zu variants", count);
    CHECK(gk_histogram_variant_at(count) == NULL && gk_histogram_find_variant(0) == NULL, "out of range");
    CHECK(gk_histogram_best_variant() == (int)count, "the best is the last rung");
    for (size_t i = 0; i < count; ++i) {
        const gk_histogram_variant *v = gk_histogram_variant_at(i);
        CHECK(v->id == (int)i + 1, "row %zu has id %d", i, v->id);
        const gk_histogram_row *row = gk_histogram_row_find(v->id);
        /* Each pair whole or absent, at least one present; the integer
         * pair alongside run_ex only where it is variant 7's (variant 10). */
        CHECK(row && &row->info == v && !row->workspace == !row->run && !row->workspace_ex == !row->run_ex &&
                  (row->run || row->run_ex),
              "row %d has whole pairs of functions", v->id);
        CHECK(!(row->run && row->run_ex) ||
                  (row->run == gk_histogram_07_tuned_run && row->workspace == gk_histogram_07_tuned_workspace),
              "row %d: an integer pair beside run_ex is variant 7's", v->id);
        CHECK((v->forms & GK_HISTOGRAM_FORM_INT) != 0, "row %d takes gk_histogram's form", v->id);
        CHECK(row->run_ex == NULL || v->forms == 31u, "row %d with run_ex takes every form", v->id);
        CHECK(v->name && v->name[0] && v->idea && v->idea[0], "row %d has a name and an idea", v->id);
        for (size_t j = 0; j < i; ++j) CHECK(strcmp(v->name, gk_histogram_variant_at(j)->name) != 0, "names unique");
    }
    gk_test_table t = {"", row_name, count};
    gk_test_kernel_files(GK_HISTOGRAM_KERNEL_DIR, &t, 1);
}

static void test_arguments(void)
{
    /* Host buffers stand in for device pointers: every call below is
     * rejected before anything would touch them. */
    static _Alignas(16) uint32_t in[64];
    static _Alignas(16) uint64_t counts[256];
    static _Alignas(16) unsigned char ws[1 << 16];
    size_t bytes;
    for (size_t i = 0; i < gk_histogram_variant_count(); ++i) {
        int v = gk_histogram_variant_at(i)->id;
        REJECT(gk_histogram(v, GK_F32, in, 64, 16, counts, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        REJECT(gk_histogram(v, GK_I32, in, 64, 16, counts, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        REJECT(gk_histogram(v, (gk_dtype)9, in, 64, 16, counts, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        REJECT(gk_histogram(v, GK_U32, in, 64, 0, counts, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        REJECT(gk_histogram(v, GK_U32, in, 64, GK_HISTOGRAM_MAX_BINS + 1, counts, NULL, &bytes, 0),
               GK_ERROR_INVALID_ARGUMENT);
        REJECT(gk_histogram(v, GK_U8, in, 64, 257, counts, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_histogram(v, GK_U32, in, 64, 16, counts, NULL, NULL, 0), GK_ERROR_NULL_POINTER);
        /* The query: any n, both types, the largest bins; never 0, whole granules. */
        size_t ns[] = {0, 1, 65537, (size_t)1 << 33};
        for (size_t k = 0; k < 4; ++k) {
            bytes = 0;
            EXPECT(gk_histogram(v, GK_U32, NULL, ns[k], GK_HISTOGRAM_MAX_BINS, NULL, NULL, &bytes, 0), GK_SUCCESS);
            CHECK(bytes > 0 && bytes % 256 == 0, "variant %d: %zu bytes", v, bytes);
            EXPECT(gk_histogram(v, GK_U8, NULL, ns[k], 256, NULL, NULL, &bytes, 0), GK_SUCCESS);
        }
        size_t need = 0;
        EXPECT(gk_histogram(v, GK_U32, in, 1000, 256, counts, NULL, &need, 0), GK_SUCCESS);
        if (need <= sizeof ws) {
            bytes = need - 1;
            EXPECT(gk_histogram(v, GK_U32, in, 1000, 256, counts, ws, &bytes, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
            CHECK(bytes == need - 1, "too small: *workspace_bytes untouched");
            bytes = sizeof ws;
            EXPECT(gk_histogram(v, GK_U32, in, 1000, 256, NULL, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
            EXPECT(gk_histogram(v, GK_U32, NULL, 1000, 256, counts, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
            EXPECT(gk_histogram(v, GK_U32, (const char *)in + 2, 1000, 256, counts, ws, &bytes, 0),
                   GK_ERROR_INVALID_ARGUMENT);
            EXPECT(gk_histogram(v, GK_U32, in, 1000, 256, (uint64_t *)((char *)counts + 4), ws, &bytes, 0),
                   GK_ERROR_INVALID_ARGUMENT);
            EXPECT(gk_histogram(v, GK_U32, in, 1000, 256, counts, ws + 8, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            CHECK(bytes == sizeof ws, "*workspace_bytes untouched by real calls");
        }
    }
    REJECT(gk_histogram(0, GK_U32, in, 64, 16, counts, NULL, &bytes, 0), GK_ERROR_UNKNOWN_VARIANT);
    REJECT(gk_histogram(99, GK_U32, in, 64, 16, counts, NULL, &bytes, 0), GK_ERROR_UNKNOWN_VARIANT);
    gk_status s = gk_histogram(0, GK_U32, in, 64, 16, counts, NULL, &bytes, 0);
    CHECK(strcmp(s.file, "histogram/histogram.c") == 0, "status file from the source root: %s", s.file);
}

/* The reference of gk_histogram_ex: the exact rule on edges, one ulp either
 * side, NaN, infinities, denormals, channels and pitched rows. */
static void test_reference_ex(void)
{
    uint64_t c0[16], c1[16], c2[16], c3[16];
    uint64_t *cs[4] = {c0, c1, c2, c3};
    /* f32, even bins over [0, 1), 10 bins: 0.3f = 0.300000011920928955078125
     * lies above 3/10, so it is in bin 3; the float just below it,
     * 0.29999998f, in bin 2. 0.7f = 0.699999988079071044921875 lies below
     * 7/10: bin 6, though the f32 product 0.7f * 10 rounds to 7. */
    float f[] = {0.0f, 0.3f, 0.29999998f, 0.7f, 1.0f, -0.0f, NAN, INFINITY, -INFINITY, 1e-45f, 0.99999994f, -1e-45f};
    gk_histogram_desc d = gk_histogram_desc_1d(GK_F32, f, 12);
    d.ch[0].bins = 10;
    d.ch[0].lower = 0.0;
    d.ch[0].upper = 1.0;
    CHECK(gk_hist_ref_ex(&d, cs) == 0, "reference ran");
    CHECK(c0[0] == 3 && c0[3] == 1 && c0[2] == 1 && c0[6] == 1 && c0[9] == 1, "f32 even edges: %llu %llu %llu %llu %llu",
          (unsigned long long)c0[0], (unsigned long long)c0[3], (unsigned long long)c0[2], (unsigned long long)c0[6],
          (unsigned long long)c0[9]);
    uint64_t total = 0;
    for (int i = 0; i < 10; ++i) total += c0[i];
    CHECK(total == 7, "1.0, NaN, +-inf and -denormal not counted (%llu counted)", (unsigned long long)total);

    /* Levels with a repeat (an empty bin) and infinities. */
    const double lv[] = {-INFINITY, 0.0, 0.0, 1.0, INFINITY};
    d.ch[0].bins = 4;
    d.ch[0].levels = lv;
    CHECK(gk_hist_ref_ex(&d, cs) == 0, "reference ran");
    CHECK(c0[0] == 2 && c0[1] == 0 && c0[2] == 7 && c0[3] == 1,
          "levels: -inf and -denormal below 0, bin [0, 0) empty, 1 in [1, inf), +inf and NaN nowhere: %llu %llu %llu %llu",
          (unsigned long long)c0[0], (unsigned long long)c0[1], (unsigned long long)c0[2], (unsigned long long)c0[3]);

    /* u32 even over [0, 2^32) in 3 bins: edges 1431655765.33.. and 2863311530.66.. */
    uint32_t u[] = {0, 1431655765u, 1431655766u, 2863311530u, 2863311531u, 4294967295u};
    gk_histogram_desc du = gk_histogram_desc_1d(GK_U32, u, 6);
    du.ch[0].bins = 3;
    du.ch[0].upper = 4294967296.0;
    CHECK(gk_hist_ref_ex(&du, cs) == 0, "reference ran");
    CHECK(c0[0] == 2 && c0[1] == 2 && c0[2] == 2, "u32 even, edges not integers");

    /* f16: 0x3c00 = 1.0, 0x0001 = 2^-24 (denormal), 0x7c00 = +inf, 0x7e00 NaN. */
    CHECK(gk_hist_half_value(0x3c00) == 1.0 && gk_hist_half_value(0x0001) == ldexp(1.0, -24) &&
              gk_hist_half_value(0xc000) == -2.0 && isinf(gk_hist_half_value(0x7c00)) &&
              isnan(gk_hist_half_value(0x7e00)),
          "f16 values");

    /* RGBA u8, 3 channels counted, 2 rows of 2 pixels, stride 11 bytes (3
     * bytes of padding, never counted: they hold 7s). */
    uint8_t img[22];
    memset(img, 7, sizeof img);
    const uint8_t px[2][8] = {{1, 2, 3, 4, 1, 9, 200, 4}, {0, 2, 255, 4, 1, 2, 3, 4}};
    memcpy(img, px[0], 8);
    memcpy(img + 11, px[1], 8);
    gk_histogram_desc di = gk_histogram_desc_1d(GK_U8, img, 2);
    di.channels = 4;
    di.num_rows = 2;
    di.row_stride_bytes = 11;
    for (int c = 0; c < 3; ++c) {
        di.ch[c].bins = 16;
        di.ch[c].upper = 256;
    }
    CHECK(gk_hist_ref_ex(&di, cs) == 0, "reference ran");
    CHECK(c0[0] == 4 && c1[0] == 4 && c2[0] == 2 && c2[15] == 1 && c2[12] == 1, "RGBA: channels and rows");
}

/* gk_hist_ref_ex (edges, binary search) against gk_hist_ref_bin (the rule
 * evaluated directly) sample by sample: every edge of several even layouts
 * and of levels, one ulp (one unit) either side, and random samples, for
 * every sample type; plus the generator's levels and rounding. */
static void test_reference_edges(void)
{
    static const struct { gk_dtype dt; size_t bins; double lo, hi; } lay[] = {
        {GK_F32, 10, 0, 1}, {GK_F32, 7, -1.5, 2.25}, {GK_F32, 1000, 0, 1}, {GK_F32, 3, 0, 0.30000001192092896},
        /* -1e30f and 2e30f: edge 1 is 0, but the double estimate is about 1e14 off (the edges' binary search) */
        {GK_F32, 3, -1.0000000150474662e30, 2.0000000300949324e30},
        {GK_F16, 10, 0, 1}, {GK_F16, 7, -1.5, 2.25}, {GK_F16, 1000, -1, 3},
        {GK_U8, 256, 0, 256}, {GK_U8, 13, 5, 200}, {GK_U8, 7, 0, 256},
        {GK_U16, 1000, 0, 65536}, {GK_U16, 13, 5, 200},
        {GK_I32, 1000, -2147483648.0, 2147483648.0}, {GK_I32, 7, -100, 101},
        {GK_U32, 3, 0, 4294967296.0}, {GK_U32, 1000, 0, 4294967296.0}, {GK_U32, 13, 5, 200}};
    gk_rng r;
    gk_rng_seed(&r, 12345);
    enum { MAXN = 12000 };
    static double xs[MAXN], lv[1001];
    static unsigned char buf[MAXN * 4];
    static uint64_t c[1000];
    uint64_t *cs[1] = {c};
    size_t cases = 0;
    for (size_t k = 0; k < sizeof lay / sizeof lay[0]; ++k)
        for (int levels = 0; levels < 2; ++levels) {
            const gk_dtype dt = lay[k].dt;
            const int is_float = dt == GK_F32 || dt == GK_F16;
            gk_histogram_channel ch = {lay[k].bins, lay[k].lo, lay[k].hi, NULL, NULL};
            const size_t b = ch.bins;
            for (size_t i = 0; i <= b; ++i) { /* quadratic levels, snapped */
                const double f = (double)i / (double)b;
                lv[i] = gk_hist_snap(dt, ch.lower + (ch.upper - ch.lower) * f * f);
            }
            lv[b] = ch.upper; /* may be above the type (u32: 2^32): allowed */
            if (levels) ch.levels = lv;
            size_t n = 0;
            for (size_t i = 0; i <= b && n + 3 < MAXN; ++i) {
                const double e = levels ? lv[i] : ch.lower + (ch.upper - ch.lower) * (double)i / (double)b;
                const double v = gk_hist_snap(dt, e);
                const double step = is_float ? fabs(v) * 1e-7 + 1e-30 : 1.0; /* one f32 ulp or more */
                xs[n++] = v;
                xs[n++] = gk_hist_snap(dt, is_float ? (double)nextafterf((float)v, INFINITY) : v + step);
                xs[n++] = gk_hist_snap(dt, is_float ? (double)nextafterf((float)v, -INFINITY) : v - step);
            }
            if (is_float) { /* zeros and the least denormals, both signs */
                xs[n++] = 0.0, xs[n++] = -0.0;
                xs[n++] = gk_hist_snap(dt, ldexp(1.0, -149)), xs[n++] = gk_hist_snap(dt, -ldexp(1.0, -149));
            }
            while (n < MAXN) {
                const double u = (double)(gk_rng_next(&r) >> 11) / 9007199254740992.0;
                xs[n++] = gk_hist_snap(dt, ch.lower + (ch.upper - ch.lower) * (1.2 * u - 0.1));
            }
            gk_histogram_desc d = gk_histogram_desc_1d(dt, buf, n);
            d.ch[0] = ch;
            const size_t es = gk_dtype_size(dt);
            for (size_t i = 0; i < n; ++i) {
                const double v = xs[i];
                switch (dt) {
                case GK_F32: { float f = (float)v; memcpy(buf + i * es, &f, 4); break; }
                case GK_F16: { uint16_t h = gk_hist_half_bits((float)v); memcpy(buf + i * es, &h, 2); xs[i] = gk_hist_half_value(h); break; }
                case GK_U8: buf[i] = (uint8_t)v; break;
                case GK_U16: { uint16_t u = (uint16_t)v; memcpy(buf + i * es, &u, 2); break; }
                case GK_I32: { int32_t u = (int32_t)v; memcpy(buf + i * es, &u, 4); break; }
                default: { uint32_t u = (uint32_t)v; memcpy(buf + i * es, &u, 4); break; }
                }
            }
            CHECK(gk_hist_ref_ex(&d, cs) == 0, "reference ran");
            uint64_t want[1000] = {0};
            for (size_t i = 0; i < n; ++i) {
                const long long bin = gk_hist_ref_bin(&ch, xs[i]);
                if (bin >= 0) want[bin]++;
            }
            ++cases;
            size_t bad = gk_hist_check(c, want, b, gk_dtype_name(dt), stdout);
            CHECK(bad == 0, "%s %s bins=%zu [%g, %g): edges agree with the direct rule", gk_dtype_name(dt),
                  levels ? "levels" : "even", b, ch.lower, ch.upper);
        }
    CHECK(cases >= 20, "%zu layouts compared", cases);

    /* The generator: values inside their drawn bins, all counted for uniform. */
    double l3[4] = {0.0, 0.25, 0.5, 1.0};
    static float fs[1000];
    gk_hist_fill_levels(GK_F32, fs, 1000, 1, l3, 3, GK_DIST_UNIFORM, 3);
    int inside = 1;
    for (int i = 0; i < 1000; ++i) inside &= fs[i] >= 0.0f && fs[i] <= 1.0f;
    CHECK(inside, "gk_hist_fill_levels: f32 inside [0, 1]");
    CHECK(gk_hist_half_bits(1.0f) == 0x3c00 && gk_hist_half_bits(65504.0f) == 0x7bff &&
              gk_hist_half_bits(65520.0f) == 0x7c00 && gk_hist_half_bits(ldexpf(1.0f, -24)) == 0x0001 &&
              gk_hist_half_bits(-2.0f) == 0xc000,
          "f16 bits");
    CHECK(gk_hist_snap(GK_U8, 300) == 255 && gk_hist_snap(GK_I32, -3.5) == -4 && gk_hist_snap(GK_F32, 0.1) == (double)0.1f,
          "snap");
}

/* gk_histogram_ex's argument checks. */
static void test_arguments_ex(void)
{
    static _Alignas(16) float in[64];
    static _Alignas(16) uint64_t counts[256];
    static _Alignas(16) unsigned char ws[1 << 16];
    const double sorted[] = {0, 1, 1, 2}, unsorted[] = {0, 2, 1, 3}, with_nan[] = {0, NAN, 1, 2};
    size_t bytes;
    int best = gk_histogram_best_variant();
    gk_histogram_desc d = gk_histogram_desc_1d(GK_F32, in, 64);
    d.ch[0].bins = 3;
    d.ch[0].lower = 0;
    d.ch[0].upper = 1;
    d.ch[0].counts = counts;
    size_t need = 0;
    EXPECT(gk_histogram_ex(best, &d, NULL, &need, 0), GK_SUCCESS);
    CHECK(need > 0 && need % 256 == 0 && need <= sizeof ws, "query: %zu bytes", need);
    REJECT(gk_histogram_ex(1, &d, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
    REJECT(gk_histogram_ex(best, NULL, NULL, &bytes, 0), GK_ERROR_NULL_POINTER);
    gk_histogram_desc e = d;
    e.dtype = GK_F64;
    REJECT(gk_histogram_ex(best, &e, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e = d, e.channels = 5;
    REJECT(gk_histogram_ex(best, &e, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e = d, e.ch[0].bins = 0;
    REJECT(gk_histogram_ex(best, &e, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e = d, e.ch[0].bins = GK_HISTOGRAM_MAX_BINS + 1;
    REJECT(gk_histogram_ex(best, &e, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    /* Real calls rejected before anything is launched. */
    struct { double lo, hi; gk_dtype dt; } bad_even[] = {
        {1, 1, GK_F32}, {1, 0, GK_F32}, {0, INFINITY, GK_F32}, {0, 0.1, GK_F32}, {NAN, 1, GK_F32},
        {0.5, 3, GK_U8}, {0, 257, GK_U8}, {-1, 3, GK_U16}, {-2147483649.0, 0, GK_I32}, {0, 4294967297.0, GK_U32}};
    for (size_t k = 0; k < sizeof bad_even / sizeof bad_even[0]; ++k) {
        e = d, e.dtype = bad_even[k].dt, e.ch[0].lower = bad_even[k].lo, e.ch[0].upper = bad_even[k].hi;
        bytes = sizeof ws;
        EXPECT(gk_histogram_ex(best, &e, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    }
    e = d, e.ch[0].levels = unsorted;
    bytes = sizeof ws;
    EXPECT(gk_histogram_ex(best, &e, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e.ch[0].levels = with_nan;
    EXPECT(gk_histogram_ex(best, &e, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e = d, e.ch[0].counts = NULL;
    EXPECT(gk_histogram_ex(best, &e, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
    e = d, e.ch[0].counts = (uint64_t *)((char *)counts + 4);
    EXPECT(gk_histogram_ex(best, &e, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e = d, e.in = (const char *)in + 2;
    EXPECT(gk_histogram_ex(best, &e, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e = d, e.in = NULL;
    EXPECT(gk_histogram_ex(best, &e, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
    e = d, e.num_rows = 2, e.row_pixels = 8, e.row_stride_bytes = 31; /* below 32 bytes, and not a multiple of 4 */
    EXPECT(gk_histogram_ex(best, &e, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    e.row_stride_bytes = 34;
    EXPECT(gk_histogram_ex(best, &e, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    bytes = need - 1;
    EXPECT(gk_histogram_ex(best, &d, ws, &bytes, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
    CHECK(bytes == need - 1, "too small: *workspace_bytes untouched");
    /* Levels need their copy in the workspace: more bytes than even bins. */
    size_t need_levels = 0;
    e = d, e.ch[0].levels = sorted;
    EXPECT(gk_histogram_ex(best, &e, NULL, &need_levels, 0), GK_SUCCESS);
    CHECK(need_levels >= need, "levels: %zu bytes, even: %zu", need_levels, need);
    REJECT(gk_histogram_range(best, GK_F32, in, 64, 3, NULL, counts, NULL, &bytes, 0), GK_ERROR_NULL_POINTER);
    REJECT(gk_histogram_even(best, GK_F32, in, 64, 0, 0, 1, counts, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
}

int main(void)
{
    test_reference();
    test_reference_ex();
    test_reference_edges();
    test_arguments_ex();
    test_table();
    test_arguments();
    return check_summary("test_histogram_cpu");
}
