/* CPU tests of the conv module: the reference against hand-computed answers
 * and against a literal reading of the definition, the tolerance against
 * fp32 arithmetic done on the CPU (it must pass every order of the
 * additions and fail a dropped tap), the cuFFT references' lengths and
 * normwise checks (1D and 2D), the variant table against itself and against
 * conv/kernels/, and argument checking (every rejected call launches
 * nothing and writes nothing, so none of this needs a GPU). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "conv_ref.h"
#include "cufft_conv.h"
#include "gk/conv.h"
#include "gk/verify.h"
#include "test_util.h"
#include "variants.h"

/* The name of variant `id`, NULL when there is none (gk_test_kernel_files). */
static const char *row_name(int id)
{
    const gk_conv_variant *v = gk_conv_find_variant(id);
    return v ? v->name : NULL;
}

/* The same for the 2D and depthwise tables, whose files are numbered in
 * their own ladder: conv2d_NN is id 7 + NN, depthwise_NN id 13 + NN. */
static const char *row_name_2d(int nn)
{
    const gk_conv_variant *v = gk_conv2d_find_variant(7 + nn);
    return v ? v->name : NULL;
}

static const char *row_name_dw(int nn)
{
    const gk_conv_variant *v = gk_conv_depthwise_find_variant(13 + nn);
    return v ? v->name : NULL;
}

static const double U32 = GK_F32_UNIT_ROUNDOFF;

/* The definition read literally: a signed tap position, ghost cells tested
 * one by one. */
static double literal(const float *in, size_t n, const float *mask, size_t width, size_t i)
{
    double s = 0.0;
    long long r = (long long)(width / 2);
    for (size_t j = 0; j < width; ++j) {
        long long k = (long long)i - r + (long long)j;
        if (k >= 0 && k < (long long)n) s += (double)in[k] * (double)mask[j];
    }
    return s;
}

static int same(const double *got, const double *want, size_t n)
{
    for (size_t i = 0; i < n; ++i)
        if (got[i] != want[i]) return 0;
    return 1;
}

static void test_reference(void)
{
    double ref[8], mag[8];
    /* Odd width 3 (r = 1): out[i] = in[i-1] + 10 in[i] + 100 in[i+1]. */
    const float in5[] = {1, 2, 3, 4, 5}, m3[] = {1, 10, 100};
    gk_conv_ref(in5, 5, m3, 3, ref, mag);
    CHECK(same(ref, (const double[]){210, 321, 432, 543, 54}, 5) && same(mag, ref, 5), "width 3: %g %g %g %g %g",
          ref[0], ref[1], ref[2], ref[3], ref[4]);
    /* Even width 4 (r = 2): two taps before in[i], one after. */
    const float m4[] = {1, 10, 100, 1000};
    gk_conv_ref(in5, 5, m4, 4, ref, NULL);
    CHECK(same(ref, (const double[]){2100, 3210, 4321, 5432, 543}, 5), "width 4: %g %g %g %g %g", ref[0], ref[1],
          ref[2], ref[3], ref[4]);
    /* n < width: n = 2, width 5 (r = 2): out[0] = 3 in[0] + 4 in[1], out[1] = 2 in[0] + 3 in[1]. */
    const float in2[] = {10, 20}, m5[] = {1, 2, 3, 4, 5};
    gk_conv_ref(in2, 2, m5, 5, ref, NULL);
    CHECK(same(ref, (const double[]){110, 80}, 2), "n < width: %g %g", ref[0], ref[1]);
    /* n = 1 with width 7: only the centre tap mask[3] meets the input. */
    const float one[] = {3}, m7[] = {100, 100, 100, 2, 100, 100, 100};
    gk_conv_ref(one, 1, m7, 7, ref, NULL);
    CHECK(ref[0] == 6, "n = 1: %g", ref[0]);
    /* Width 1 is a scaling; mag is the sum of |products|. */
    const float in3[] = {1, -2, 4}, s1[] = {-2.5f};
    gk_conv_ref(in3, 3, s1, 1, ref, mag);
    CHECK(same(ref, (const double[]){-2.5, 5, -10}, 3) && same(mag, (const double[]){2.5, 5, 10}, 3),
          "width 1 scales");
    const float in_pm[] = {1, -1, 1}, m_pm[] = {1, 1, 1};
    gk_conv_ref(in_pm, 3, m_pm, 3, ref, mag);
    CHECK(same(ref, (const double[]){0, 1, 0}, 3) && same(mag, (const double[]){2, 3, 2}, 3), "mag: %g %g %g",
          mag[0], mag[1], mag[2]);

    /* Against the literal definition on random data: odd and even widths,
     * n below, at and above the width. */
    static float x[300], m[70];
    static double r[300];
    const size_t ns[] = {1, 2, 5, 69, 70, 71, 300}, ws[] = {1, 2, 3, 8, 31, 64, 70};
    for (size_t a = 0; a < 7; ++a)
        for (size_t b = 0; b < 7; ++b) {
            gk_conv_fill(x, ns[a], GK_CONV_DATA_REAL, 10 + a);
            gk_conv_fill(m, ws[b], GK_CONV_DATA_REAL, 20 + b);
            gk_conv_ref(x, ns[a], m, ws[b], r, NULL);
            int ok = 1;
            for (size_t i = 0; i < ns[a]; ++i) {
                double d = fabs(r[i] - literal(x, ns[a], m, ws[b], i)), at = gk_conv_ref_at(x, ns[a], m, ws[b], i, NULL);
                ok &= d <= 1e-12 && at == r[i];
            }
            CHECK(ok, "n = %zu, width %zu: the reference is the definition", ns[a], ws[b]);
        }

    /* The generators: REAL in [-1, 1) without zeros, INTEGER in [-8, 8]
     * without zeros, every one of the 16 values drawn. */
    static float g[4096];
    gk_conv_fill(g, 4096, GK_CONV_DATA_INTEGER, 5);
    int seen[17] = {0}, ok = 1;
    for (int i = 0; i < 4096; ++i) {
        ok &= g[i] == floorf(g[i]) && g[i] >= -8 && g[i] <= 8 && g[i] != 0;
        if (ok) seen[(int)g[i] + 8] = 1;
    }
    int kinds = 0;
    for (int v = 0; v < 17; ++v) kinds += seen[v];
    CHECK(ok && kinds == 16, "INTEGER data: nonzero integers in [-8, 8], %d values seen", kinds);
    gk_conv_fill(g, 4096, GK_CONV_DATA_REAL, 5);
    ok = 1;
    for (int i = 0; i < 4096; ++i) ok &= g[i] >= -1 && g[i] < 1 && g[i] != 0;
    CHECK(ok, "REAL data in [-1, 1) without zeros");
}

/* out[i] computed in fp32 on the CPU, the taps in `order`: 0 a chain
 * j = 0..width-1, 1 the chain backwards, 2 sums of chunks of 16 taps added
 * at the end (the shape of a register-blocked kernel). One tap, `drop`, may
 * be left out (width: none). */
static float fp32_conv(const float *in, size_t n, const float *mask, size_t width, size_t i, int order, size_t drop)
{
    volatile float acc = 0.0f; /* volatile: every step rounded to float, no wider register */
    long long r = (long long)(width / 2);
    if (order == 2) {
        for (size_t c = 0; c < width; c += 16) {
            volatile float part = 0.0f;
            for (size_t j = c; j < c + 16 && j < width; ++j) {
                long long k = (long long)i - r + (long long)j;
                if (j != drop && k >= 0 && k < (long long)n) part = part + in[k] * mask[j];
            }
            acc = acc + part;
        }
        return acc;
    }
    for (size_t t = 0; t < width; ++t) {
        size_t j = order == 1 ? width - 1 - t : t;
        long long k = (long long)i - r + (long long)j;
        if (j != drop && k >= 0 && k < (long long)n) acc = acc + in[k] * mask[j];
    }
    return acc;
}

static void test_tolerance(void)
{
    /* gamma_(width+2) = (width+2) u / (1 - (width+2) u). */
    double g3 = 3 * U32 / (1 - 3 * U32), g1025 = 1025 * U32 / (1 - 1025 * U32);
    CHECK(gk_conv_tolerance(1, 1.0) == g3 && gk_conv_tolerance(1023, 2.0) == 2 * g1025 &&
              fabs(gk_conv_tolerance(1023, 1.0) / (1025 * U32) - 1) < 1e-4,
          "tol(1, 1) = %.6g, tol(1023, 2) = %.6g", gk_conv_tolerance(1, 1.0), gk_conv_tolerance(1023, 2.0));
    CHECK(gk_conv_tolerance(7, 0.0) == 0.0, "no magnitude, no tolerance");

    /* Real fp32 arithmetic in three orders passes; a dropped tap fails. */
    enum { N = 2000, W = 1023 };
    static float x[N], m[W], got[N];
    static double ref[N], mag[N];
    const size_t widths[] = {1, 2, 7, 8, 127, 1023};
    for (size_t wi = 0; wi < 6; ++wi) {
        size_t w = widths[wi];
        gk_conv_fill(x, N, GK_CONV_DATA_REAL, 100 + w);
        gk_conv_fill(m, w, GK_CONV_DATA_REAL, 200 + w);
        gk_conv_ref(x, N, m, w, ref, mag);
        for (int order = 0; order < 3; ++order) {
            for (size_t i = 0; i < N; ++i) got[i] = fp32_conv(x, N, m, w, i, order, w);
            CHECK(gk_conv_check(got, ref, mag, N, w, "fp32 on the CPU", stdout) == 0,
                  "width %zu, order %d: fp32 results pass the bound", w, order);
        }
        if (w < 2) continue;
        /* Drop the tap with the largest |mask[j]|: the error is then
         * |in * mask[j]|, which exceeds the tolerance at most outputs. */
        size_t big = 0;
        for (size_t j = 1; j < w; ++j)
            if (fabsf(m[j]) > fabsf(m[big])) big = j;
        for (size_t i = 0; i < N; ++i) got[i] = fp32_conv(x, N, m, w, i, 0, big);
        size_t bad = gk_conv_check(got, ref, mag, N, w, "dropped tap", NULL);
        CHECK(bad > N / 2, "width %zu: a dropped tap fails %zu of %d outputs", w, bad, N);
    }

    /* INTEGER data: fp32 is exact in every order, at every width the tests
     * use (up to 10000 < 2^18), so the check can be exact. */
    static float xi[N], mi[10000];
    gk_conv_fill(xi, N, GK_CONV_DATA_INTEGER, 7);
    gk_conv_fill(mi, 10000, GK_CONV_DATA_INTEGER, 8);
    gk_conv_ref(xi, N, mi, 10000, ref, NULL);
    int exact = 1;
    for (int order = 0; order < 3; ++order) {
        for (size_t i = 0; i < N; ++i) got[i] = fp32_conv(xi, N, mi, 10000, i, order, 10000);
        exact &= gk_conv_check(got, ref, NULL, N, 10000, "integers", stdout) == 0;
    }
    CHECK(exact, "INTEGER data at width 10000: fp32 in three orders gives the reference bit for bit");
    for (size_t i = 0; i < N; ++i) got[i] = fp32_conv(xi, N, mi, 10000, i, 0, 5000);
    CHECK(gk_conv_check(got, ref, NULL, N, 10000, "integers, dropped tap", NULL) > N / 2,
          "INTEGER data: one dropped tap of 10000 fails");

    /* NaN and Inf fail; errors just inside and outside the bound. */
    const double r1[] = {1.0, 2.0, 3.0}, g1[] = {1.0, 1.0, 1.0};
    float v[3] = {1.0f, 2.0f, 3.0f};
    CHECK(gk_conv_check(v, r1, g1, 3, 7, "same", NULL) == 0, "identical passes");
    v[1] = NAN;
    CHECK(gk_conv_check(v, r1, g1, 3, 7, "nan", NULL) == 1, "NaN fails");
    v[1] = INFINITY;
    CHECK(gk_conv_check(v, r1, g1, 3, 7, "inf", NULL) == 1, "Inf fails");
    const double big_mag[] = {1e6, 1e6, 1e6}; /* tol = 9 u * 1e6 = 0.54 */
    float w2[3] = {1.5f, 2.5f, 3.25f};
    CHECK(gk_conv_check(w2, r1, big_mag, 3, 7, "inside", NULL) == 0, "errors inside the bound pass");
    w2[2] = 3.75f;
    CHECK(gk_conv_check(w2, r1, big_mag, 3, 7, "outside", NULL) == 1, "an error outside the bound fails");
    CHECK(gk_conv_check(w2, r1, NULL, 3, 7, "exact", NULL) == 3, "exact mode: every difference fails");
}

static int is_7_smooth_even(size_t v)
{
    if (v < 2 || v % 2) return 0;
    const size_t p[] = {2, 3, 5, 7};
    for (int k = 0; k < 4; ++k)
        while (v % p[k] == 0) v /= p[k];
    return v == 1;
}

static void test_fft_helpers(void)
{
    CHECK(gk_conv_fft_length(5, 3) == 8 && gk_conv_fft_length(1000, 7) == 1008 && gk_conv_fft_length(1, 1) == 2 &&
              gk_conv_fft_length((size_t)1 << 20, 1) == (size_t)1 << 20,
          "lengths: %zu %zu %zu", gk_conv_fft_length(5, 3), gk_conv_fft_length(1000, 7), gk_conv_fft_length(1, 1));
    /* Brute force: the least even 7-smooth number >= n + width - 1. */
    const size_t ns[] = {1, 2, 31, 257, 4097, 65537, 1000003, ((size_t)1 << 20) + 13};
    const size_t ws[] = {1, 2, 7, 1023, 4099};
    int ok = 1;
    for (int a = 0; a < 8; ++a)
        for (int b = 0; b < 5; ++b) {
            size_t need = ns[a] + ws[b] - 1, L = gk_conv_fft_length(ns[a], ws[b]), first = need < 2 ? 2 : need;
            while (!is_7_smooth_even(first)) ++first;
            if (L != first) {
                ok = 0;
                printf("  n %zu width %zu: length %zu, expected %zu\n", ns[a], ws[b], L, first);
            }
        }
    CHECK(ok, "the transform length is the least even 7-smooth number >= n + width - 1");
    CHECK(gk_conv_fft_length((size_t)1 << 28, 1023) < ((size_t)1 << 28) + ((size_t)1 << 22),
          "a 7-smooth length lands close: %zu", gk_conv_fft_length((size_t)1 << 28, 1023));

    /* The normwise tolerance: (3 e_L + 5 u) ||in||_2 ||mask||_1. */
    double e20 = 16 * 20 * U32 / (1 - 16 * 20 * U32);
    CHECK(fabs(gk_conv_fft_tolerance((size_t)1 << 20, 2.0, 3.0) - (3 * e20 + 5 * U32) * 6.0) < 1e-15,
          "fft tol at L = 2^20: %.6g", gk_conv_fft_tolerance((size_t)1 << 20, 2.0, 3.0));
    CHECK(gk_conv_fft_tolerance(1 << 10, 1, 1) < gk_conv_fft_tolerance(1 << 20, 1, 1), "grows with log L");
    const float x2[] = {3, -4};
    CHECK(gk_conv_norm2(x2, 2) == 5.0 && gk_conv_norm1(x2, 2) == 7.0, "norms");

    /* The normwise check: a result within the bound passes, the same
     * result shifted by one place fails, NaN fails. */
    enum { N = 5000, W = 127 };
    static float x[N], m[W], got[N];
    static double ref[N];
    gk_conv_fill(x, N, GK_CONV_DATA_REAL, 1);
    gk_conv_fill(m, W, GK_CONV_DATA_REAL, 2);
    gk_conv_ref(x, N, m, W, ref, NULL);
    double tol = gk_conv_fft_tolerance(gk_conv_fft_length(N, W), gk_conv_norm2(x, N), gk_conv_norm1(m, W));
    for (size_t i = 0; i < N; ++i) got[i] = (float)ref[i];
    CHECK(gk_conv_check_fft(got, ref, N, tol, "rounded", stdout) == 0, "the reference rounded to float passes");
    for (size_t i = 0; i + 1 < N; ++i) got[i] = (float)ref[i + 1];
    CHECK(gk_conv_check_fft(got, ref, N, tol, "shifted", NULL) == 1, "shifted by one fails (tol %.3g)", tol);
    for (size_t i = 0; i < N; ++i) got[i] = (float)ref[i];
    got[N / 2] = NAN;
    CHECK(gk_conv_check_fft(got, ref, N, tol, "nan", NULL) == 1, "NaN fails");

    /* The bench's sampled checks: exact data passes; an error near an end
     * (always looked at) fails; an unwritten output (NaN) anywhere fails. */
    for (size_t i = 0; i < N; ++i) got[i] = (float)ref[i];
    CHECK(gk_conv_check_sampled(got, x, N, m, W, 256, 9, "sampled", stdout) == 0 &&
              gk_conv_check_fft_sampled(got, x, N, m, W, tol, 256, 9, "sampled fft", stdout) == 0,
          "sampled checks pass the reference");
    got[N - 3] += 1.0f;
    CHECK(gk_conv_check_sampled(got, x, N, m, W, 256, 9, "sampled", NULL) == 1, "an error at an end fails");
    got[N - 3] = (float)ref[N - 3];
    got[N / 2 + 1] = NAN;
    CHECK(gk_conv_check_sampled(got, x, N, m, W, 256, 9, "sampled", NULL) >= 1 &&
              gk_conv_check_fft_sampled(got, x, N, m, W, tol, 256, 9, "sampled fft", NULL) >= 1,
          "NaN anywhere fails the sampled checks");
    for (size_t i = 0; i + 1 < N; ++i) got[i] = (float)ref[i + 1];
    CHECK(gk_conv_check_fft_sampled(got, x, N, m, W, tol, 256, 9, "sampled fft", NULL) > 0,
          "a shifted result fails the sampled normwise check");
}

/* The 2D normwise checks of the cuFFT 2D reference, as the 1D ones above:
 * the reference rounded to float passes, shifted by one place fails, NaN
 * fails, the padding of got is not looked at; and the argument checks of
 * gk_cufft_conv2d that need no GPU. */
static void test_fft2d_helpers(void)
{
    enum { R = 45, C = 67, S = 70, GS = 69, MR = 7, MC = 5 };
    static float x[R * S], m[MR * MC], got[R * GS], shifted[R * C];
    static double ref[R * C];
    gk_conv_fill(x, R * S, GK_CONV_DATA_REAL, 11);
    gk_conv_fill(m, MR * MC, GK_CONV_DATA_REAL, 12);
    double n2 = 0.0;
    for (size_t y = 0; y < R; ++y)
        for (size_t c = 0; c < C; ++c) n2 += (double)x[y * S + c] * x[y * S + c];
    CHECK(fabs(gk_conv2d_norm2(x, R, C, S) - sqrt(n2)) <= 1e-12 * sqrt(n2), "2D norm over the image, not its padding");
    for (size_t y = 0; y < R; ++y)
        for (size_t c = 0; c < C; ++c) ref[y * C + c] = gk_conv2d_ref_at(x, R, C, S, m, MR, MC, y, c, NULL);
    size_t L = gk_conv_fft_length(R, MR) * gk_conv_fft_length(C, MC);
    double tol = gk_conv_fft_tolerance(L, gk_conv2d_norm2(x, R, C, S), gk_conv_norm1(m, MR * MC));
    for (size_t i = 0; i < R * GS; ++i) got[i] = NAN; /* the padding: never looked at */
    for (size_t y = 0; y < R; ++y)
        for (size_t c = 0; c < C; ++c) got[y * GS + c] = (float)ref[y * C + c];
    CHECK(gk_conv2d_check_fft(got, GS, x, R, C, S, m, MR, MC, tol, "2D rounded", stdout) == 0 &&
              gk_conv2d_check_fft_sampled(got, GS, x, R, C, S, m, MR, MC, tol, 256, 9, "2D sampled", stdout) == 0,
          "2D: the reference rounded to float passes both checks");
    for (size_t i = 0; i < R * C; ++i) shifted[(i + 1) % (R * C)] = (float)ref[i];
    CHECK(gk_conv2d_check_fft(shifted, C, x, R, C, S, m, MR, MC, tol, "2D shifted", NULL) == 1 &&
              gk_conv2d_check_fft_sampled(shifted, C, x, R, C, S, m, MR, MC, tol, 256, 9, "2D shifted", NULL) > 0,
          "2D: shifted by one place fails both checks (tol %.3g)", tol);
    got[3 * GS + 5] = NAN;
    CHECK(gk_conv2d_check_fft(got, GS, x, R, C, S, m, MR, MC, tol, "2D nan", NULL) == 1 &&
              gk_conv2d_check_fft_sampled(got, GS, x, R, C, S, m, MR, MC, tol, 256, 9, "2D nan", NULL) >= 1,
          "2D: NaN fails both checks");

    static char not_null;
    gk_cufft_conv2d *plan = (gk_cufft_conv2d *)(void *)&not_null; /* a failure must set it to NULL */
    EXPECT(gk_cufft_conv2d_create(&plan, 0, 5, 3, 3), GK_ERROR_INVALID_ARGUMENT);
    CHECK(plan == NULL, "no plan on failure");
    EXPECT(gk_cufft_conv2d_create(&plan, 5, 5, 0, 3), GK_ERROR_INVALID_ARGUMENT);
    EXPECT(gk_cufft_conv2d_create(&plan, 5, GK_CONV_MAX_N + 1, 3, 3), GK_ERROR_INVALID_ARGUMENT);
    EXPECT(gk_cufft_conv2d_run(NULL, x, S, m, got, GS, 0), GK_ERROR_NULL_POINTER);
    gk_cufft_conv2d_destroy(NULL);
}

static void test_table(void)
{
    size_t count = gk_conv_variant_count();
    CHECK(count == 7, "the ladder has %zu variants (the issue's seven)", count);
    CHECK(gk_conv_variant_at(count) == NULL && gk_conv_find_variant(0) == NULL && gk_conv_find_variant(8) == NULL,
          "out of range");
    for (size_t i = 0; i < count; ++i) {
        const gk_conv_variant *v = gk_conv_variant_at(i);
        CHECK(v->id == (int)i + 1, "row %zu has id %d", i, v->id);
        const gk_conv_row *row = gk_conv_row_find(v->id);
        CHECK(row && &row->info == v && row->workspace && row->run, "row %d has its functions", v->id);
        CHECK(v->name && v->name[0] && v->idea && v->idea[0], "row %d has a name and an idea", v->id);
        for (size_t j = 0; j < i; ++j) CHECK(strcmp(v->name, gk_conv_variant_at(j)->name) != 0, "names unique");
        /* The constant-memory variants and only they: a width limit of the
         * parameter's size, and a host wait. */
        int constant = v->id >= 2 && v->id <= 5;
        CHECK((v->mask_in == GK_CONV_MASK_CONSTANT) == constant && v->host_wait == constant &&
                  v->max_width == (constant ? (size_t)GK_CONV_PARAM_MASK_MAX : 0),
              "variant %d: mask in %s, max_width %zu, host_wait %d", v->id, gk_conv_mask_in_name(v->mask_in),
              v->max_width, v->host_wait);
        CHECK((v->tile > 0) == (v->id >= 3), "variant %d: tile %zu (tiled: 3 to 7)", v->id, v->tile);
    }
    CHECK(gk_conv_variant_at(0)->mask_in == GK_CONV_MASK_GLOBAL && gk_conv_variant_at(5)->mask_in == GK_CONV_MASK_SHARED &&
              gk_conv_variant_at(6)->mask_in == GK_CONV_MASK_SHARED,
          "mask in global (1), shared (6, 7)");
    CHECK(strcmp(gk_conv_mask_in_name(GK_CONV_MASK_CONSTANT), "constant") == 0 &&
              strcmp(gk_conv_mask_in_name((gk_conv_mask_in)9), "?") == 0,
          "mask_in names");
    CHECK(gk_conv_best_variant(1) == 6 && gk_conv_best_variant(GK_CONV_BEST_SPLIT_WIDTH) == 6 &&
              gk_conv_best_variant(GK_CONV_BEST_SPLIT_WIDTH + 1) == 7 && gk_conv_best_variant(1023) == 7,
          "best: streaming for small masks, register blocking for large");
    CHECK(strcmp(gk_conv_find_variant(6)->name, "streaming") == 0 &&
              strcmp(gk_conv_find_variant(7)->name, "register_blocked") == 0,
          "the two best rungs are where best_variant points");

    /* The three tables share one numbering: 1-7, 8-13, 14-16, no id twice. */
    CHECK(gk_conv2d_variant_count() == 6 && gk_conv_depthwise_variant_count() == 3, "2D: %zu rows, depthwise: %zu",
          gk_conv2d_variant_count(), gk_conv_depthwise_variant_count());
    for (size_t i = 0; i < gk_conv2d_variant_count(); ++i) {
        const gk_conv_variant *v = gk_conv2d_variant_at(i);
        CHECK(v->id == 8 + (int)i && gk_conv2d_find_variant(v->id) == v && gk_conv_find_variant(v->id) == NULL &&
                  gk_conv_depthwise_find_variant(v->id) == NULL,
              "2D row %zu: id %d, in its table only", i, v->id);
        const gk_conv2d_row *row = gk_conv2d_row_find(v->id);
        CHECK(row && row->workspace && row->run && v->name[0] && v->idea[0], "2D row %d complete", v->id);
        int constant = v->id >= 9 && v->id <= 11;
        CHECK((v->mask_in == GK_CONV_MASK_CONSTANT) == constant && v->host_wait == constant &&
                  (!constant || v->max_width == GK_CONV2D_PARAM_SIDE_MAX),
              "2D variant %d: constant bank and host wait for 9-11 only", v->id);
        CHECK((v->max_width == 0) == (v->id == 8 || v->id == 13), "2D variant %d: any mask for 8 and 13 only", v->id);
    }
    CHECK(gk_conv2d_variant_at(6) == NULL && gk_conv2d_find_variant(7) == NULL && gk_conv2d_find_variant(14) == NULL,
          "2D out of range");
    for (size_t i = 0; i < gk_conv_depthwise_variant_count(); ++i) {
        const gk_conv_variant *v = gk_conv_depthwise_variant_at(i);
        CHECK(v->id == 14 + (int)i && gk_conv_depthwise_find_variant(v->id) == v && gk_conv_find_variant(v->id) == NULL &&
                  gk_conv2d_find_variant(v->id) == NULL && v->host_wait == 0,
              "depthwise row %zu: id %d, in its table only, no host wait", i, v->id);
        const gk_conv_dw_row *row = gk_conv_depthwise_row_find(v->id);
        CHECK(row && row->workspace && row->run && v->name[0] && v->idea[0], "depthwise row %d complete", v->id);
    }
    CHECK(gk_conv_depthwise_variant_at(3) == NULL && gk_conv_depthwise_find_variant(13) == NULL &&
              gk_conv_depthwise_find_variant(17) == NULL,
          "depthwise out of range");
    CHECK(strcmp(gk_conv_padding_name(GK_CONV_PAD_CAUSAL), "causal") == 0 &&
              strcmp(gk_conv_activation_name(GK_CONV_ACT_SILU), "silu") == 0 &&
              strcmp(gk_conv_activation_name((gk_conv_activation)7), "?") == 0,
          "padding and activation names");

    gk_test_table t[3] = {{"", row_name, count},
                          {"conv2d_", row_name_2d, gk_conv2d_variant_count()},
                          {"depthwise_", row_name_dw, gk_conv_depthwise_variant_count()}};
    gk_test_kernel_files(GK_CONV_KERNEL_DIR, t, 3);
}

static void test_arguments(void)
{
    /* Host buffers stand in for device pointers: every call below is
     * rejected before anything would touch them, or (n = 0) succeeds
     * without launching anything. */
    static _Alignas(16) float buf[1024];
    static _Alignas(16) unsigned char ws[1 << 16];
    float *in = buf, *mask = buf + 256, *out = buf + 512;
    for (int i = 0; i < 1024; ++i) buf[i] = (float)i + 0.5f;
    const size_t MAXN = GK_CONV_MAX_N;
    size_t bytes;
    for (size_t i = 0; i < gk_conv_variant_count(); ++i) {
        const gk_conv_variant *info = gk_conv_variant_at(i);
        int v = info->id;
        /* The query's own checks. */
        REJECT(gk_conv1d(v, in, 64, mask, 0, out, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_conv1d(v, in, 64, mask, 7, out, NULL, NULL, 0), GK_ERROR_NULL_POINTER);
        REJECT(gk_conv1d(v, in, MAXN + 1, mask, 7, out, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        if (info->max_width != 0) {
            REJECT(gk_conv1d(v, in, 64, mask, info->max_width + 1, out, NULL, &bytes, 0), GK_ERROR_UNSUPPORTED);
            REJECT(gk_conv1d(v, in, 64, mask, 10000, out, ws, &bytes, 0), GK_ERROR_UNSUPPORTED);
            EXPECT(gk_conv1d(v, NULL, 64, NULL, info->max_width, NULL, NULL, &bytes, 0), GK_SUCCESS);
        } else {
            REJECT(gk_conv1d(v, in, 64, mask, MAXN + 1, out, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
            EXPECT(gk_conv1d(v, NULL, 64, NULL, MAXN, NULL, NULL, &bytes, 0), GK_SUCCESS);
        }
        /* The query: any n, widths up to the limit; never 0, whole granules. */
        const size_t ns[] = {0, 1, 65537, (size_t)1 << 33, MAXN};
        const size_t wq[] = {1, 2, 7, 4096};
        for (size_t a = 0; a < 5; ++a)
            for (size_t b = 0; b < 4; ++b) {
                bytes = 0;
                EXPECT(gk_conv1d(v, NULL, ns[a], NULL, wq[b], NULL, NULL, &bytes, 0), GK_SUCCESS);
                CHECK(bytes > 0 && bytes % 256 == 0, "variant %d n %zu width %zu: %zu bytes", v, ns[a], wq[b], bytes);
            }
        size_t need = 0;
        EXPECT(gk_conv1d(v, in, 64, mask, 7, out, NULL, &need, 0), GK_SUCCESS);
        CHECK(need <= sizeof ws, "variant %d: a workspace of %zu bytes for n = 64", v, need);
        if (need > sizeof ws) continue;
        /* The real call's checks, each with everything else valid. */
        size_t big = sizeof ws;
#define REAL(call, code)                                                                           \
    do {                                                                                           \
        bytes = big;                                                                               \
        EXPECT(call, code);                                                                        \
        CHECK(bytes == big, "*workspace_bytes untouched by real calls");                           \
    } while (0)
        REAL(gk_conv1d(v, NULL, 64, mask, 7, out, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
        REAL(gk_conv1d(v, in, 64, NULL, 7, out, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
        REAL(gk_conv1d(v, in, 64, mask, 7, NULL, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
        REAL(gk_conv1d(v, (const float *)((const char *)in + 2), 64, mask, 7, out, ws, &bytes, 0),
             GK_ERROR_INVALID_ARGUMENT);
        REAL(gk_conv1d(v, in, 64, (const float *)((const char *)mask + 1), 7, out, ws, &bytes, 0),
             GK_ERROR_INVALID_ARGUMENT);
        REAL(gk_conv1d(v, in, 64, mask, 7, (float *)((char *)out + 2), ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        /* Overlaps: out on in, out inside in, in inside out, out on the mask. */
        REAL(gk_conv1d(v, in, 64, mask, 7, in, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        REAL(gk_conv1d(v, in, 64, mask, 7, in + 63, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        REAL(gk_conv1d(v, in + 63, 64, mask, 7, in, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        REAL(gk_conv1d(v, in, 64, mask, 7, mask - 60, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        REAL(gk_conv1d(v, in, 64, out + 60, 7, out, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        /* Adjacent is not overlapping, and in may overlap the mask: these
         * pass the overlap checks and stop at the workspace check after
         * them (a workspace one byte short). */
        size_t short_by_one = need - 1;
        bytes = short_by_one;
        EXPECT(gk_conv1d(v, in, 64, mask, 7, in + 64, ws, &bytes, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
        EXPECT(gk_conv1d(v, in + 64, 64, mask, 7, in, ws, &bytes, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
        EXPECT(gk_conv1d(v, in, 64, in + 3, 7, out, ws, &bytes, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
        EXPECT(gk_conv1d(v, in, 64, out + 64, 7, out, ws, &bytes, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
        CHECK(bytes == short_by_one, "too small: *workspace_bytes untouched");
        REAL(gk_conv1d(v, in, 64, mask, 7, out, ws + 8, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        /* n = 0 does nothing and succeeds (no GPU needed: nothing is
         * launched), with or without pointers. */
        REAL(gk_conv1d(v, in, 0, mask, 7, out, ws, &bytes, 0), GK_SUCCESS);
        REAL(gk_conv1d(v, NULL, 0, NULL, 7, NULL, ws, &bytes, 0), GK_SUCCESS);
        /* ... but a bad width is still a bad width at n = 0. */
        REAL(gk_conv1d(v, in, 0, mask, 0, out, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
#undef REAL
    }
    REJECT(gk_conv1d(0, in, 64, mask, 7, out, NULL, &bytes, 0), GK_ERROR_UNKNOWN_VARIANT);
    REJECT(gk_conv1d(8, in, 64, mask, 7, out, NULL, &bytes, 0), GK_ERROR_UNKNOWN_VARIANT);
    REJECT(gk_conv1d(-1, in, 64, mask, 7, out, NULL, &bytes, 0), GK_ERROR_UNKNOWN_VARIANT);
    gk_status s = gk_conv1d(0, in, 64, mask, 7, out, NULL, &bytes, 0);
    CHECK(strcmp(s.file, "conv/conv.c") == 0, "status file from the source root: %s", s.file);
    int untouched = 1;
    for (int i = 0; i < 1024; ++i) untouched &= buf[i] == (float)i + 0.5f;
    CHECK(untouched, "no rejected call wrote to in, mask or out");
}


/* ---- 2D and depthwise ---------------------------------------------------- */

/* The 2D definition read literally: signed positions, each ghost tested. */
static double literal2d(const float *in, size_t rows, size_t cols, size_t stride, const float *mask, size_t mr,
                        size_t mc, size_t y, size_t x)
{
    double s = 0.0;
    for (size_t a = 0; a < mr; ++a)
        for (size_t b = 0; b < mc; ++b) {
            long long p = (long long)y - (long long)(mr / 2) + (long long)a;
            long long q = (long long)x - (long long)(mc / 2) + (long long)b;
            if (p >= 0 && p < (long long)rows && q >= 0 && q < (long long)cols)
                s += (double)in[p * stride + q] * (double)mask[a * mc + b];
        }
    return s;
}

static void test_reference_forms(void)
{
    /* 2D against the literal reading, masks odd, even and larger than the
     * image, with a row stride above cols. */
    enum { R = 7, C = 9, S = 12 };
    static float img[R * S], mk[10 * 12];
    gk_conv_fill(img, R * S, GK_CONV_DATA_REAL, 1);
    gk_conv_fill(mk, 10 * 12, GK_CONV_DATA_REAL, 2);
    const size_t shapes[][2] = {{1, 1}, {3, 3}, {2, 4}, {5, 1}, {1, 6}, {10, 12}};
    int ok = 1;
    for (size_t k = 0; k < 6; ++k)
        for (size_t y = 0; y < R; ++y)
            for (size_t x = 0; x < C; ++x) {
                double mag, got = gk_conv2d_ref_at(img, R, C, S, mk, shapes[k][0], shapes[k][1], y, x, &mag);
                double want = literal2d(img, R, C, S, mk, shapes[k][0], shapes[k][1], y, x);
                ok &= fabs(got - want) <= 1e-12 && mag >= fabs(got);
            }
    CHECK(ok, "2D reference = the literal definition (any mask, stride > cols)");
    /* A 1 x n image with a 1 x w mask is the 1D convolution. */
    double r1 = gk_conv_ref_at(img, C, mk, 5, 3, NULL);
    CHECK(fabs(gk_conv2d_ref_at(img, 1, C, S, mk, 1, 5, 0, 3, NULL) - r1) <= 1e-12, "1 x n is 1D");
    /* Centre: mask 3 x 4 has ry = 1, rx = 2: a delta at mask[1][2] copies. */
    float delta[12] = {0};
    delta[1 * 4 + 2] = 1.0f;
    CHECK(gk_conv2d_ref_at(img, R, C, S, delta, 3, 4, 4, 5, NULL) == (double)img[4 * S + 5], "the centre");

    /* Depthwise: "same" is gk_conv1d's centring; "causal" sees t - w + 1 .. t. */
    const float row[8] = {1, 2, 3, 4, 5, 6, 7, 8}, m3[3] = {1, 10, 100};
    CHECK(gk_conv_dw_ref_at(row, 8, m3, 3, 0, 0.0, GK_CONV_ACT_NONE, 2, NULL) == 2 + 30 + 400, "same: t - 1 .. t + 1");
    CHECK(gk_conv_dw_ref_at(row, 8, m3, 3, 1, 0.0, GK_CONV_ACT_NONE, 2, NULL) == 1 + 20 + 300, "causal: t - 2 .. t");
    CHECK(gk_conv_dw_ref_at(row, 8, m3, 3, 1, 0.0, GK_CONV_ACT_NONE, 0, NULL) == 100, "causal: ghosts before 0");
    CHECK(gk_conv_dw_ref_at(row, 8, m3, 3, 1, 0.5, GK_CONV_ACT_NONE, 1, NULL) == 0.5 + 10 + 200, "bias");
    CHECK(gk_conv_dw_ref_at(row, 8, m3, 3, 1, -1000.0, GK_CONV_ACT_RELU, 7, NULL) == 0.0, "relu");
    double z = 6 + 70 + 800 - 900.0;
    CHECK(fabs(gk_conv_dw_ref_at(row, 8, m3, 3, 1, -900.0, GK_CONV_ACT_SILU, 7, NULL) - z / (1 + exp(-z))) < 1e-12,
          "silu");

    /* The SiLU bound against fp32 arithmetic done here: a sum in fp32 in
     * either order, then z / (1 + expf(-z)) in fp32 (the C library's expf,
     * within 1 ulp, inside the 2 ulp the bound allows), must pass; a
     * dropped tap must fail. */
    enum { W = 31, L = 2000 };
    static float x[L], m[W];
    gk_conv_fill(x, L, GK_CONV_DATA_REAL, 5);
    gk_conv_fill(m, W, GK_CONV_DATA_REAL, 6);
    int pass = 1, caught = 0, checked = 0;
    for (size_t t = 0; t < L; ++t) {
        double tol, want = gk_conv_dw_ref_at(x, L, m, W, 1, 0.25, GK_CONV_ACT_SILU, t, &tol);
        for (int order = 0; order < 2; ++order) {
            float acc = 0.0f, dropped = 0.0f;
            for (size_t jj = 0; jj < W; ++jj) {
                size_t j = order ? W - 1 - jj : jj;
                if (t + j < W - 1) continue;
                float pr = x[t + j - (W - 1)] * m[j];
                acc += pr;
                if (j != W - 1) dropped += pr;
            }
            float zz = acc + 0.25f, zd = dropped + 0.25f;
            float y = zz / (1.0f + expf(-zz)), yd = zd / (1.0f + expf(-zd));
            pass &= fabs((double)y - want) <= tol;
            if (t >= W) ++checked, caught += !(fabs((double)yd - want) <= tol);
        }
    }
    CHECK(pass, "fp32 causal + bias + SiLU passes its derived bound");
    /* Not every one: SiLU is flat near z = -1.28 (its derivative is 0
     * there), where dropping a tap moves the output less than the bound.
     * Over 3938 outputs all but a few percent must be caught. */
    CHECK(caught >= checked - checked / 50, "a dropped tap fails it (%d of %d)", caught, checked);
}

static void test_arguments_forms(void)
{
    static _Alignas(16) float buf[4096];
    static _Alignas(16) unsigned char ws[1 << 12];
    float *in = buf, *mask = buf + 1024, *out = buf + 2048, *bias = buf + 3072;
    for (int i = 0; i < 4096; ++i) buf[i] = (float)i + 0.5f;
    const size_t MAXN = GK_CONV_MAX_N;
    size_t bytes;
#define REAL(call, code)                                                                           \
    do {                                                                                           \
        bytes = sizeof ws;                                                                         \
        EXPECT(call, code);                                                                        \
        CHECK(bytes == sizeof ws, "*workspace_bytes untouched by real calls");                     \
    } while (0)
    for (size_t i = 0; i < gk_conv2d_variant_count(); ++i) {
        const gk_conv_variant *info = gk_conv2d_variant_at(i);
        int v = info->id;
        /* 16 x 20 image, stride 24 (out 32), mask 3 x 5. */
        REJECT(gk_conv2d(v, in, 16, 20, 24, mask, 0, 5, out, 32, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        REJECT(gk_conv2d(v, in, 16, 20, 24, mask, 3, 0, out, 32, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_conv2d(v, in, 16, 20, 24, mask, 3, 5, out, 32, NULL, NULL, 0), GK_ERROR_NULL_POINTER);
        REJECT(gk_conv2d(v, in, 16, 20, 19, mask, 3, 5, out, 32, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        REJECT(gk_conv2d(v, in, 16, 20, 24, mask, 3, 5, out, 19, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        REJECT(gk_conv2d(v, in, MAXN + 1, 1, 1, mask, 3, 5, out, 1, NULL, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        REJECT(gk_conv2d(v, in, (size_t)1 << 31, 1 << 30, 1 << 30, mask, 1, 1, out, 1 << 30, NULL, &bytes, 0),
               GK_ERROR_INVALID_ARGUMENT); /* rows x stride = 2^61 */
        if (info->max_width != 0) {
            REJECT(gk_conv2d(v, in, 16, 20, 24, mask, info->max_width + 1, 1, out, 32, NULL, &bytes, 0),
                   GK_ERROR_UNSUPPORTED);
            REJECT(gk_conv2d(v, in, 16, 20, 24, mask, 1, info->max_width + 1, out, 32, NULL, &bytes, 0),
                   GK_ERROR_UNSUPPORTED);
            EXPECT(gk_conv2d(v, NULL, 16, 20, 24, NULL, info->max_width, info->max_width, NULL, 32, NULL, &bytes, 0),
                   GK_SUCCESS);
        } else {
            REJECT(gk_conv2d(v, in, 16, 20, 24, mask, (size_t)1 << 31, (size_t)1 << 30, out, 32, NULL, &bytes, 0),
                   GK_ERROR_INVALID_ARGUMENT); /* 2^61 taps */
            EXPECT(gk_conv2d(v, NULL, 16, 20, 24, NULL, 100000, 3, NULL, 32, NULL, &bytes, 0), GK_SUCCESS);
        }
        bytes = 0;
        EXPECT(gk_conv2d(v, NULL, (size_t)1 << 20, (size_t)1 << 20, (size_t)1 << 20, NULL, 3, 3, NULL,
                         (size_t)1 << 20, NULL, &bytes, 0),
               GK_SUCCESS);
        CHECK(bytes > 0 && bytes % 256 == 0, "2D variant %d: query %zu bytes", v, bytes);
        size_t need = 0;
        EXPECT(gk_conv2d(v, in, 16, 20, 24, mask, 3, 5, out, 32, NULL, &need, 0), GK_SUCCESS);
        CHECK(need <= sizeof ws, "2D variant %d: %zu bytes of workspace", v, need);
        REAL(gk_conv2d(v, NULL, 16, 20, 24, mask, 3, 5, out, 32, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
        REAL(gk_conv2d(v, in, 16, 20, 24, NULL, 3, 5, out, 32, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
        REAL(gk_conv2d(v, in, 16, 20, 24, mask, 3, 5, NULL, 32, ws, &bytes, 0), GK_ERROR_NULL_POINTER);
        REAL(gk_conv2d(v, (const float *)((const char *)in + 2), 16, 20, 24, mask, 3, 5, out, 32, ws, &bytes, 0),
             GK_ERROR_INVALID_ARGUMENT);
        REAL(gk_conv2d(v, in, 16, 20, 24, (const float *)((const char *)mask + 1), 3, 5, out, 32, ws, &bytes, 0),
             GK_ERROR_INVALID_ARGUMENT);
        REAL(gk_conv2d(v, in, 16, 20, 24, mask, 3, 5, (float *)((char *)out + 2), 32, ws, &bytes, 0),
             GK_ERROR_INVALID_ARGUMENT);
        /* in's span is 15 x 24 + 20 = 380 floats: out at in + 379 overlaps,
         * at in + 380 does not; the mask (15 floats) against out's span. */
        REAL(gk_conv2d(v, in, 16, 20, 24, mask, 3, 5, in + 379, 32, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        REAL(gk_conv2d(v, in + 20, 16, 20, 24, mask, 3, 5, in, 24, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        REAL(gk_conv2d(v, in, 16, 20, 24, out + 490, 3, 5, out, 32, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        bytes = need - 1; /* out's span is 15 x 32 + 20 = 500 floats: a mask right after it is not an overlap */
        EXPECT(gk_conv2d(v, in, 16, 20, 24, out + 500, 3, 5, out, 32, ws, &bytes, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
        bytes = need - 1;
        EXPECT(gk_conv2d(v, in, 16, 20, 24, mask, 3, 5, in + 380, 32, ws, &bytes, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
        EXPECT(gk_conv2d(v, in, 16, 20, 24, in + 3, 3, 5, out, 32, ws, &bytes, 0), GK_ERROR_WORKSPACE_TOO_SMALL);
        REAL(gk_conv2d(v, in, 16, 20, 24, mask, 3, 5, out, 32, ws + 8, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
        /* Empty images do nothing and succeed, without pointers; a bad mask is still bad. */
        REAL(gk_conv2d(v, NULL, 0, 20, 24, NULL, 3, 5, NULL, 32, ws, &bytes, 0), GK_SUCCESS);
        REAL(gk_conv2d(v, NULL, 16, 0, 0, NULL, 3, 5, NULL, 0, ws, &bytes, 0), GK_SUCCESS);
        REAL(gk_conv2d(v, in, 0, 20, 24, mask, 0, 5, out, 32, ws, &bytes, 0), GK_ERROR_INVALID_ARGUMENT);
    }
    REJECT(gk_conv2d(1, in, 16, 20, 24, mask, 3, 5, out, 32, NULL, &bytes, 0), GK_ERROR_UNKNOWN_VARIANT);
    REJECT(gk_conv2d(14, in, 16, 20, 24, mask, 3, 5, out, 32, NULL, &bytes, 0), GK_ERROR_UNKNOWN_VARIANT);

    for (size_t i = 0; i < gk_conv_depthwise_variant_count(); ++i) {
        const gk_conv_variant *info = gk_conv_depthwise_variant_at(i);
        int v = info->id;
        const gk_conv_padding C = GK_CONV_PAD_CAUSAL;
        const gk_conv_activation S = GK_CONV_ACT_SILU;
        /* batch 2, channels 3, length 50, in stride 60, out stride 64, width 4. */
        REJECT(gk_conv1d_depthwise(v, in, 2, 3, 50, 60, mask, 0, bias, C, S, out, 64, NULL, &bytes, 0),
               GK_ERROR_INVALID_ARGUMENT);
        EXPECT(gk_conv1d_depthwise(v, in, 2, 3, 50, 60, mask, 4, bias, C, S, out, 64, NULL, NULL, 0),
               GK_ERROR_NULL_POINTER);
        REJECT(gk_conv1d_depthwise(v, in, 2, 3, 50, 60, mask, 4, bias, (gk_conv_padding)2, S, out, 64, NULL, &bytes, 0),
               GK_ERROR_INVALID_ARGUMENT);
        REJECT(gk_conv1d_depthwise(v, in, 2, 3, 50, 60, mask, 4, bias, C, (gk_conv_activation)3, out, 64, NULL, &bytes,
                                   0),
               GK_ERROR_INVALID_ARGUMENT);
        REJECT(gk_conv1d_depthwise(v, in, 2, 3, 50, 49, mask, 4, bias, C, S, out, 64, NULL, &bytes, 0),
               GK_ERROR_INVALID_ARGUMENT);
        REJECT(gk_conv1d_depthwise(v, in, 2, 3, 50, 60, mask, 4, bias, C, S, out, 49, NULL, &bytes, 0),
               GK_ERROR_INVALID_ARGUMENT);
        REJECT(gk_conv1d_depthwise(v, in, (size_t)1 << 31, (size_t)1 << 31, 1, 1, mask, 4, bias, C, S, out, 1, NULL,
                                   &bytes, 0),
               GK_ERROR_INVALID_ARGUMENT); /* 2^62 rows */
        if (info->max_width != 0)
            REJECT(gk_conv1d_depthwise(v, in, 2, 3, 50, 60, mask, info->max_width + 1, bias, C, S, out, 64, NULL,
                                       &bytes, 0),
                   GK_ERROR_UNSUPPORTED);
        size_t need = 0;
        EXPECT(gk_conv1d_depthwise(v, in, 2, 3, 50, 60, mask, 4, bias, C, S, out, 64, NULL, &need, 0), GK_SUCCESS);
        CHECK(need > 0 && need % 256 == 0 && need <= sizeof ws, "depthwise %d: %zu bytes", v, need);
        REAL(gk_conv1d_depthwise(v, NULL, 2, 3, 50, 60, mask, 4, bias, C, S, out, 64, ws, &bytes, 0),
             GK_ERROR_NULL_POINTER);
        REAL(gk_conv1d_depthwise(v, in, 2, 3, 50, 60, NULL, 4, bias, C, S, out, 64, ws, &bytes, 0),
             GK_ERROR_NULL_POINTER);
        REAL(gk_conv1d_depthwise(v, in, 2, 3, 50, 60, mask, 4, bias, C, S, NULL, 64, ws, &bytes, 0),
             GK_ERROR_NULL_POINTER);
        REAL(gk_conv1d_depthwise(v, in, 2, 3, 50, 60, mask, 4, (const float *)((const char *)bias + 2), C, S, out, 64,
                                 ws, &bytes, 0),
             GK_ERROR_INVALID_ARGUMENT);
        /* in's span: 5 x 60 + 50 = 350 floats; out at in + 349 overlaps. */
        REAL(gk_conv1d_depthwise(v, in, 2, 3, 50, 60, mask, 4, bias, C, S, in + 349, 64, ws, &bytes, 0),
             GK_ERROR_INVALID_ARGUMENT);
        REAL(gk_conv1d_depthwise(v, in, 2, 3, 50, 60, out + 100, 4, bias, C, S, out, 64, ws, &bytes, 0),
             GK_ERROR_INVALID_ARGUMENT);
        REAL(gk_conv1d_depthwise(v, in, 2, 3, 50, 60, mask, 4, out + 300, C, S, out, 64, ws, &bytes, 0),
             GK_ERROR_INVALID_ARGUMENT);
        bytes = need - 1;
        EXPECT(gk_conv1d_depthwise(v, in, 2, 3, 50, 60, mask, 4, NULL, C, S, in + 350, 64, ws, &bytes, 0),
               GK_ERROR_WORKSPACE_TOO_SMALL);
        REAL(gk_conv1d_depthwise(v, NULL, 0, 3, 50, 60, NULL, 4, NULL, C, S, NULL, 64, ws, &bytes, 0), GK_SUCCESS);
        REAL(gk_conv1d_depthwise(v, NULL, 2, 0, 50, 60, NULL, 4, NULL, C, S, NULL, 64, ws, &bytes, 0), GK_SUCCESS);
        REAL(gk_conv1d_depthwise(v, NULL, 2, 3, 0, 0, NULL, 4, NULL, C, S, NULL, 0, ws, &bytes, 0), GK_SUCCESS);
    }
    REJECT(gk_conv1d_depthwise(13, in, 2, 3, 50, 60, mask, 4, bias, GK_CONV_PAD_SAME, GK_CONV_ACT_NONE, out, 64, NULL,
                               &bytes, 0),
           GK_ERROR_UNKNOWN_VARIANT);
#undef REAL
    int untouched = 1;
    for (int i = 0; i < 4096; ++i) untouched &= buf[i] == (float)i + 0.5f;
    CHECK(untouched, "no rejected 2D or depthwise call wrote to its buffers");
}

int main(void)
{
    test_reference();
    test_tolerance();
    test_fft_helpers();
    test_fft2d_helpers();
    test_table();
    test_arguments();
    test_reference_forms();
    test_arguments_forms();
    return check_summary("test_conv_cpu");
}
