/* CPU tests of the histogram module: the reference and the generators
 * against known answers, the variant table against itself and against
 * histogram/kernels/, and argument checking (every rejected call launches
 * nothing and writes nothing, so none of this needs a GPU). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gk/histogram.h"
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
        CHECK(row && &row->info == v && row->workspace && row->run, "row %d has its functions", v->id);
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

int main(void)
{
    test_reference();
    test_table();
    test_arguments();
    return check_summary("test_histogram_cpu");
}
