/* GPU tests of the conv module.
 *
 * For each variant: n in {0, 1, 2, 31, 257, 4097, 65537, 2^20+13} and, for
 * the tiled variants, one short of, at and one past the tile and one past
 * two tiles (the row's `tile`); widths {1, 2, 3, 7, 8, 31, 127, 1023, 4099,
 * 10000}, odd and even, n < width included. Every (n, width) whose float64
 * CPU reference costs at most 2^28 multiply-adds runs with fresh random
 * data in [-1, 1) (a new seed every run, printed for --seed) checked
 * elementwise within gk_conv_tolerance (conv_ref.h: gamma_(width+2) times
 * sum |products|), and, where n * width <= 2^24, a second time with small
 * integers, which fp32 holds exactly in any order, checked bit for bit (a
 * dropped or repeated tap fails it at any width). in, mask and out start
 * 0-3 floats past a 16-byte boundary (in + 1, out + 1, ... in turn); out,
 * the 64 guard floats on each side of it and the workspace are poisoned
 * first (out with NaN), every output must be written and the guards left
 * alone; in must be unchanged. A width above the variant's max_width must
 * return GK_ERROR_UNSUPPORTED and write nothing. Then two calls on two
 * streams with two different masks (and widths) at once, several rounds,
 * both results checked exactly: what the by-value mask of the
 * constant-memory variants guarantees.
 *
 *   test_conv_gpu [--variant ID] [--small] [--cufft] [--large] [--seed S]
 *
 * --small: n * width <= 2^21 and n up to 4097 plus the tiles (what
 * scripts/sanitize.sh runs under compute-sanitizer). --cufft: the cuFFT
 * reference (cufft_conv.h) against the float64 CPU reference within its
 * normwise tolerance (gk_conv_fft_tolerance), with a result shifted by one
 * place as the control that the check can fail. --large: n = 2^31 + 2^20 + 17
 * (indices past 2^31) at width 7, checked exactly on every output with
 * integer data, and at width 1023 on the outputs near the ends and 2^20
 * others; skipped when the GPU or the host lacks the memory. Exit 77 (a
 * CTest skip) when no GPU is visible.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "conv_ref.h"
#include "cufft_conv.h"
#include "gk/conv.h"
#include "gk/random.h"
#include "gpu_test.h"
#include "test_util.h"

enum { GUARD = 64 };            /* floats poisoned on each side of out */
static const uint32_t POISON = 0xffffffffu; /* a NaN */

static const size_t all_n[] = {0, 1, 2, 31, 257, 4097, 65537, ((size_t)1 << 20) + 13};
static const size_t all_w[] = {1, 2, 3, 7, 8, 31, 127, 1023, 4099, 10000};
#define BUDGET ((double)((size_t)1 << 28))       /* multiply-adds of the CPU reference per case */
#define SMALL_BUDGET ((double)((size_t)1 << 21)) /* under the sanitizer */
#define EXACT_BUDGET ((double)((size_t)1 << 24)) /* the integer rerun */

typedef struct buffers {
    float *d_in, *d_mask, *d_out;
    void *d_ws;
    size_t cap_in, cap_mask, cap_out, cap_ws;
} buffers;

static uint64_t mix(uint64_t seed, uint64_t a, uint64_t b, uint64_t c)
{
    gk_rng r;
    gk_rng_seed(&r, seed ^ (a * 0x9e3779b97f4a7c15ULL) ^ (b << 29) ^ (c * 0xc2b2ae3d27d4eb4fULL));
    return gk_rng_next(&r);
}

/* Poison out and its guards; returns the device pointer of out[0]. */
static float *poisoned_out(buffers *b, size_t n, size_t off)
{
    size_t total = n + 2 * GUARD + 4;
    gk_test_ensure_device((void **)&b->d_out, &b->cap_out, total * sizeof(float));
    TRY_CUDA(cudaMemset(b->d_out, 0xff, total * sizeof(float)));
    return b->d_out + GUARD + off;
}

/* Everything outside out[0..n) (the guards) must still be poison. Returns 1
 * when it is. h has room for n + 2 GUARD + 4 floats. */
static int guards_intact(const float *h, size_t n, size_t off, const char *label)
{
    size_t total = n + 2 * GUARD + 4, lo = GUARD + off, hi = lo + n;
    for (size_t i = 0; i < total; ++i) {
        if (i >= lo && i < hi) continue;
        uint32_t bits;
        memcpy(&bits, &h[i], 4);
        if (bits != POISON) {
            printf("  %s: wrote outside out[0..n): at out[%lld]\n", label, (long long)i - (long long)lo);
            return 0;
        }
    }
    return 1;
}

/* One call of variant v on the host data hin (n) and hmask (width), placed
 * at float offsets off_in, off_mask, off_out past 16-byte boundaries; the
 * result checked against ref (and mag: NULL for an exact check). Returns 1
 * on a pass. */
static int run_one(buffers *b, const gk_conv_variant *v, const float *hin, size_t n, const float *hmask, size_t width,
                   const double *ref, const double *mag, size_t off_in, size_t off_mask, size_t off_out,
                   const char *data, float *hout, float *hcheck)
{
    char label[192];
    snprintf(label, sizeof label, "v%d %s n=%zu width=%zu %s in+%zu mask+%zu out+%zu", v->id, v->name, n, width, data,
             off_in, off_mask, off_out);
    gk_test_ensure_device((void **)&b->d_in, &b->cap_in, (n + 4) * sizeof(float));
    gk_test_ensure_device((void **)&b->d_mask, &b->cap_mask, (width + 4) * sizeof(float));
    if (n) TRY_CUDA(cudaMemcpy(b->d_in + off_in, hin, n * sizeof(float), cudaMemcpyHostToDevice));
    TRY_CUDA(cudaMemcpy(b->d_mask + off_mask, hmask, width * sizeof(float), cudaMemcpyHostToDevice));
    float *out = poisoned_out(b, n, off_out);
    size_t need = 0;
    gk_status s = gk_conv1d(v->id, b->d_in + off_in, n, b->d_mask + off_mask, width, out, NULL, &need, 0);
    if (!gk_test_ok(s, label, "query")) return 0;
    gk_test_ensure_device(&b->d_ws, &b->cap_ws, need);
    TRY_CUDA(cudaMemset(b->d_ws, 0x5a, b->cap_ws)); /* the workspace needs no initialisation */
    size_t bytes = b->cap_ws;
    s = gk_conv1d(v->id, b->d_in + off_in, n, b->d_mask + off_mask, width, out, b->d_ws, &bytes, 0);
    if (gk_ok(s)) s = GK_CUDA_STATUS(cudaDeviceSynchronize());
    gk_test_require(s, label);
    size_t total = n + 2 * GUARD + 4;
    TRY_CUDA(cudaMemcpy(hout, b->d_out, total * sizeof(float), cudaMemcpyDeviceToHost));
    int ok = gk_conv_check(hout + GUARD + off_out, ref, mag, n, width, label, stdout) == 0;
    ok &= guards_intact(hout, n, off_out, label);
    if (n > 0 && n <= 65537) { /* the input is only read */
        TRY_CUDA(cudaMemcpy(hcheck, b->d_in + off_in, n * sizeof(float), cudaMemcpyDeviceToHost));
        if (memcmp(hcheck, hin, n * sizeof(float)) != 0) {
            printf("  %s: the input was modified\n", label);
            ok = 0;
        }
    }
    return ok;
}

/* A width above max_width: GK_ERROR_UNSUPPORTED from the query and the
 * call, and nothing written. */
static int run_rejected(buffers *b, const gk_conv_variant *v, size_t n, size_t width, float *hout)
{
    gk_test_ensure_device((void **)&b->d_in, &b->cap_in, (n + 4) * sizeof(float));
    gk_test_ensure_device((void **)&b->d_mask, &b->cap_mask, (width + 4) * sizeof(float));
    TRY_CUDA(cudaMemset(b->d_mask, 0, (width + 4) * sizeof(float)));
    float *out = poisoned_out(b, n, 1);
    gk_test_ensure_device(&b->d_ws, &b->cap_ws, 1 << 20);
    size_t bytes = 777;
    gk_status q = gk_conv1d(v->id, b->d_in, n, b->d_mask, width, out, NULL, &bytes, 0);
    int ok = q.code == GK_ERROR_UNSUPPORTED && bytes == 777;
    bytes = b->cap_ws;
    gk_status s = gk_conv1d(v->id, b->d_in, n, b->d_mask, width, out, b->d_ws, &bytes, 0);
    ok &= s.code == GK_ERROR_UNSUPPORTED && s.what != NULL;
    TRY_CUDA(cudaDeviceSynchronize());
    TRY_CUDA(cudaMemcpy(hout, b->d_out, (n + 2 * GUARD + 4) * sizeof(float), cudaMemcpyDeviceToHost));
    size_t untouched = 0, total = n + 2 * GUARD + 4;
    for (size_t i = 0; i < total; ++i) {
        uint32_t bits;
        memcpy(&bits, &hout[i], 4);
        untouched += bits == POISON;
    }
    ok &= untouched == total;
    char label[96];
    snprintf(label, sizeof label, "v%d width %zu (above max_width %zu)", v->id, width, v->max_width);
    if (untouched != total) printf("  %s: %zu floats of out and its guards written\n", label, total - untouched);
    if (!ok) printf("  %s: query %s, call %s\n", label, gk_status_string(q.code), gk_status_string(s.code));
    return ok;
}

/* Two calls on two streams with two masks at once, four rounds: one of the
 * streams (in turn) first kept busy with memsets, so that the two calls'
 * work interleaves on the GPU. Integer data: both checked exactly. A mask
 * kept in one place for every call (a __constant__ symbol) would let one
 * call's kernel read the other's mask; a mask passed by value cannot. */
static int run_two_streams(const gk_conv_variant *v, size_t n, uint64_t seed)
{
    const size_t wa = 7, wbs[2] = {7, 31};
    int ok = 1;
    float *h = (float *)malloc(2 * n * sizeof(float)), *hm = (float *)malloc(2 * 32 * sizeof(float));
    float *got = (float *)malloc(n * sizeof(float));
    double *ref = (double *)malloc(2 * n * sizeof(double));
    float *d_in[2], *d_mask[2], *d_out[2];
    void *d_ws[2], *d_busy;
    const size_t busy_bytes = (size_t)64 << 20;
    cudaStream_t st[2];
    for (int k = 0; k < 2; ++k) {
        TRY_CUDA(cudaMalloc((void **)&d_in[k], n * sizeof(float)));
        TRY_CUDA(cudaMalloc((void **)&d_mask[k], 32 * sizeof(float)));
        TRY_CUDA(cudaMalloc((void **)&d_out[k], n * sizeof(float)));
        TRY_CUDA(cudaMalloc(&d_ws[k], 1 << 20));
        TRY_CUDA(cudaStreamCreateWithFlags(&st[k], cudaStreamNonBlocking));
    }
    TRY_CUDA(cudaMalloc(&d_busy, busy_bytes));
    for (int round = 0; round < 4; ++round) {
        size_t w[2] = {wa, wbs[round % 2]};
        for (int k = 0; k < 2; ++k) {
            gk_conv_fill(h + k * n, n, GK_CONV_DATA_INTEGER, mix(seed, 1000 + round, k, 1));
            gk_conv_fill(hm + k * 32, w[k], GK_CONV_DATA_INTEGER, mix(seed, 2000 + round, k, 2));
            gk_conv_ref(h + k * n, n, hm + k * 32, w[k], ref + k * n, NULL);
            TRY_CUDA(cudaMemcpy(d_in[k], h + k * n, n * sizeof(float), cudaMemcpyHostToDevice));
            TRY_CUDA(cudaMemcpy(d_mask[k], hm + k * 32, w[k] * sizeof(float), cudaMemcpyHostToDevice));
            TRY_CUDA(cudaMemset(d_out[k], 0xff, n * sizeof(float)));
        }
        TRY_CUDA(cudaDeviceSynchronize());
        for (int rep = 0; rep < 4; ++rep) TRY_CUDA(cudaMemsetAsync(d_busy, rep, busy_bytes, st[round % 2]));
        for (int k = 0; k < 2; ++k) {
            size_t need = 0;
            gk_status s = gk_conv1d(v->id, d_in[k], n, d_mask[k], w[k], d_out[k], NULL, &need, 0);
            if (gk_ok(s) && need > (1 << 20)) s = GK_FAIL(GK_ERROR_WORKSPACE_TOO_SMALL, "test: workspace above 1 MiB");
            size_t bytes = 1 << 20;
            if (gk_ok(s)) s = gk_conv1d(v->id, d_in[k], n, d_mask[k], w[k], d_out[k], d_ws[k], &bytes, st[k]);
            gk_test_require(s, "two streams");
        }
        for (int k = 0; k < 2; ++k) TRY_CUDA(cudaStreamSynchronize(st[k]));
        for (int k = 0; k < 2; ++k) {
            char label[96];
            snprintf(label, sizeof label, "v%d two streams, round %d, stream %d (width %zu)", v->id, round, k, w[k]);
            TRY_CUDA(cudaMemcpy(got, d_out[k], n * sizeof(float), cudaMemcpyDeviceToHost));
            ok &= gk_conv_check(got, ref + k * n, NULL, n, w[k], label, stdout) == 0;
        }
    }
    for (int k = 0; k < 2; ++k) {
        cudaFree(d_in[k]);
        cudaFree(d_mask[k]);
        cudaFree(d_out[k]);
        cudaFree(d_ws[k]);
        cudaStreamDestroy(st[k]);
    }
    cudaFree(d_busy);
    free(h);
    free(hm);
    free(got);
    free(ref);
    return ok;
}

static int test_variant(buffers *b, const gk_conv_variant *v, int small, uint64_t seed)
{
    int before = check_failed;
    size_t ns[sizeof all_n / sizeof all_n[0] + 4];
    size_t count = 0;
    for (size_t i = 0; i < sizeof all_n / sizeof all_n[0]; ++i)
        if (!small || all_n[i] <= 4097) ns[count++] = all_n[i];
    if (v->tile > 0) { /* one short of, at and one past a tile; one past two */
        ns[count++] = v->tile - 1;
        ns[count++] = v->tile;
        ns[count++] = v->tile + 1;
        ns[count++] = 2 * v->tile + 1;
    }
    size_t max_n = 0, max_w = 0;
    for (size_t i = 0; i < count; ++i) max_n = ns[i] > max_n ? ns[i] : max_n;
    for (size_t i = 0; i < sizeof all_w / sizeof all_w[0]; ++i) max_w = all_w[i] > max_w ? all_w[i] : max_w;
    float *hin = (float *)malloc((max_n + 1) * sizeof(float)), *hmask = (float *)malloc(max_w * sizeof(float));
    float *hout = (float *)malloc((max_n + 2 * GUARD + 4) * sizeof(float)), *hcheck = (float *)malloc((max_n + 1) * 4);
    double *ref = (double *)malloc((max_n + 1) * sizeof(double)), *mag = (double *)malloc((max_n + 1) * sizeof(double));
    if (!hin || !hmask || !hout || !hcheck || !ref || !mag) {
        printf("FATAL: out of host memory\n");
        exit(1);
    }
    double budget = small ? SMALL_BUDGET : BUDGET;
    int combo = 0, skipped = 0;
    for (size_t wi = 0; wi < sizeof all_w / sizeof all_w[0]; ++wi) {
        size_t width = all_w[wi];
        if (v->max_width != 0 && width > v->max_width) {
            CHECK(run_rejected(b, v, small ? 257 : 4097, width, hout), "v%d rejects width %zu", v->id, width);
            continue;
        }
        for (size_t ni = 0; ni < count; ++ni) {
            size_t n = ns[ni];
            if ((double)n * (double)width > budget) {
                ++skipped;
                continue;
            }
            for (int kind = 0; kind < 2; ++kind) {
                if (kind == 1 && (double)n * (double)width > EXACT_BUDGET) continue;
                gk_conv_data data = kind ? GK_CONV_DATA_INTEGER : GK_CONV_DATA_REAL;
                gk_conv_fill(hin, n, data, mix(seed, (uint64_t)v->id * 64 + (uint64_t)kind, n, width));
                gk_conv_fill(hmask, width, data, mix(seed, (uint64_t)v->id * 64 + 32 + (uint64_t)kind, n, width));
                gk_conv_ref(hin, n, hmask, width, ref, kind ? NULL : mag);
                size_t oi = (size_t)combo % 4, om = (size_t)(combo + 2) % 4, oo = (size_t)(combo + 1) % 4;
                CHECK(run_one(b, v, hin, n, hmask, width, ref, kind ? NULL : mag, oi, om, oo,
                              kind ? "integers" : "reals", hout, hcheck),
                      "v%d n=%zu width=%zu %s", v->id, n, width, kind ? "integers (exact)" : "reals");
                ++combo;
            }
        }
    }
    CHECK(run_two_streams(v, small ? 4097 : ((size_t)1 << 20) + 13, seed), "v%d two streams, two masks", v->id);
    free(hin);
    free(hmask);
    free(hout);
    free(hcheck);
    free(ref);
    free(mag);
    printf("variant %d %-20s %s (%d calls checked; %d (n, width) left to the --large and bench checks: n * width above "
           "the CPU reference's budget)\n",
           v->id, v->name, check_failed == before ? "ok" : "FAILED", combo, skipped);
    fflush(stdout);
    return check_failed == before;
}

/* cuFFT against the float64 CPU reference, normwise. */
static void test_cufft(uint64_t seed)
{
    static const size_t cases[][2] = {{1, 1},     {2, 3},      {31, 8},      {257, 31},
                                      {1000, 10000}, {4097, 127}, {65537, 1023}, {65537, 4099},
                                      {((size_t)1 << 20) + 13, 7}, {((size_t)1 << 20) + 13, 127}};
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
        size_t n = cases[c][0], width = cases[c][1], off = c % 4;
        float *hin = (float *)malloc(n * 4), *hm = (float *)malloc(width * 4), *got = (float *)malloc(n * 4);
        double *ref = (double *)malloc(n * sizeof(double));
        gk_conv_fill(hin, n, GK_CONV_DATA_REAL, mix(seed, 77, n, width));
        gk_conv_fill(hm, width, GK_CONV_DATA_REAL, mix(seed, 78, n, width));
        gk_conv_ref(hin, n, hm, width, ref, NULL);
        float *d_in, *d_mask, *d_out;
        TRY_CUDA(cudaMalloc((void **)&d_in, (n + 4) * 4));
        TRY_CUDA(cudaMalloc((void **)&d_mask, (width + 4) * 4));
        TRY_CUDA(cudaMalloc((void **)&d_out, (n + 4) * 4));
        TRY_CUDA(cudaMemcpy(d_in + off, hin, n * 4, cudaMemcpyHostToDevice));
        TRY_CUDA(cudaMemcpy(d_mask + off, hm, width * 4, cudaMemcpyHostToDevice));
        TRY_CUDA(cudaMemset(d_out, 0xff, (n + 4) * 4));
        gk_cufft_conv *plan = NULL;
        gk_status s = gk_cufft_conv_create(&plan, n, width);
        if (gk_ok(s)) s = gk_cufft_conv_run(plan, d_in + off, d_mask + off, d_out + off, 0);
        if (gk_ok(s)) s = GK_CUDA_STATUS(cudaDeviceSynchronize());
        gk_test_require(s, "cuFFT reference");
        TRY_CUDA(cudaMemcpy(got, d_out + off, n * 4, cudaMemcpyDeviceToHost));
        size_t L = gk_cufft_conv_length(plan);
        double tol = gk_conv_fft_tolerance(L, gk_conv_norm2(hin, n), gk_conv_norm1(hm, width));
        double refnorm = 0.0;
        for (size_t i = 0; i < n; ++i) refnorm += ref[i] * ref[i];
        char label[96];
        snprintf(label, sizeof label, "cuFFT n=%zu width=%zu L=%zu", n, width, L);
        CHECK(gk_conv_check_fft(got, ref, n, tol, label, stdout) == 0, "%s within its normwise bound", label);
        /* The control: the same output rotated by one place must fail (from
         * n = 31 on, where the rotation moves the error norm to about
         * sqrt(2) ||ref||_2, far above tol; at n = 2 two nearly equal
         * outputs could swap within it). */
        if (n >= 31) {
            float first = got[0];
            memmove(got, got + 1, (n - 1) * 4);
            got[n - 1] = first;
            CHECK(gk_conv_check_fft(got, ref, n, tol, label, NULL) != 0, "%s: a shifted result fails", label);
        }
        printf("%s: tol %.3g = %.2g of ||ref||_2\n", label, tol, tol / sqrt(refnorm));
        gk_cufft_conv_destroy(plan);
        cudaFree(d_in);
        cudaFree(d_mask);
        cudaFree(d_out);
        free(hin);
        free(hm);
        free(got);
        free(ref);
    }
}

/* n > 2^31: indices and grids past 32 bits. */
static int test_large(const gk_conv_variant *only, uint64_t seed)
{
    const size_t n = ((size_t)1 << 31) + ((size_t)1 << 20) + 17, bytes = n * sizeof(float);
    size_t free_b = 0, total_b = 0;
    TRY_CUDA(cudaMemGetInfo(&free_b, &total_b));
    float *hin = (float *)malloc(bytes), *hout = (float *)malloc(bytes);
    if (free_b < 2 * bytes + ((size_t)1 << 30) || hin == NULL || hout == NULL) {
        free(hin);
        free(hout);
        printf("SKIPPED: n = 2^31+2^20+17 needs %.1f GB free on the GPU (has %.1f) and as much host memory%s\n",
               (2.0 * bytes + (1 << 30)) / 1e9, free_b / 1e9, hin && hout ? "" : " (malloc failed)");
        return GK_TEST_SKIP;
    }
    gk_conv_fill(hin, n, GK_CONV_DATA_INTEGER, seed);
    float *d_in, *d_out, *d_mask;
    void *d_ws = NULL;
    size_t cap_ws = 0;
    TRY_CUDA(cudaMalloc((void **)&d_in, bytes));
    TRY_CUDA(cudaMalloc((void **)&d_out, bytes));
    TRY_CUDA(cudaMalloc((void **)&d_mask, 1024 * sizeof(float)));
    TRY_CUDA(cudaMemcpy(d_in, hin, bytes, cudaMemcpyHostToDevice));
    const size_t widths[2] = {7, 1023};
    float hm[1023];
    for (size_t i = 0; i < gk_conv_variant_count(); ++i) {
        const gk_conv_variant *v = gk_conv_variant_at(i);
        if (only && v != only) continue;
        for (int k = 0; k < 2; ++k) {
            size_t w = widths[k];
            gk_conv_fill(hm, w, GK_CONV_DATA_INTEGER, mix(seed, 5, v->id, w));
            TRY_CUDA(cudaMemcpy(d_mask, hm, w * sizeof(float), cudaMemcpyHostToDevice));
            TRY_CUDA(cudaMemset(d_out, 0xff, bytes));
            size_t need = 0;
            gk_status s = gk_conv1d(v->id, d_in, n, d_mask, w, d_out, NULL, &need, 0);
            if (gk_ok(s) && need > cap_ws) {
                cudaFree(d_ws);
                TRY_CUDA(cudaMalloc(&d_ws, need));
                cap_ws = need;
            }
            size_t have = cap_ws;
            if (gk_ok(s)) s = gk_conv1d(v->id, d_in, n, d_mask, w, d_out, d_ws, &have, 0);
            if (gk_ok(s)) s = GK_CUDA_STATUS(cudaDeviceSynchronize());
            gk_test_require(s, "large");
            TRY_CUDA(cudaMemcpy(hout, d_out, bytes, cudaMemcpyDeviceToHost));
            char label[96];
            snprintf(label, sizeof label, "v%d n=2^31+2^20+17 width=%zu", v->id, w);
            size_t bad = 0;
            if (w == 7) { /* every output, exactly (integer data) */
                for (size_t o = 0; o < n; ++o) {
                    double want = gk_conv_ref_at(hin, n, hm, w, o, NULL);
                    if ((double)hout[o] != want) {
                        if (bad < 8) printf("  %s mismatch at [%zu]: got %.9g expected %.9g\n", label, o, hout[o], want);
                        ++bad;
                    }
                }
            } else {
                bad = gk_conv_check_sampled(hout, hin, n, hm, w, (size_t)1 << 20, seed, label, stdout);
            }
            CHECK(bad == 0, "%s: %zu mismatches", label, bad);
            printf("  %s %s\n", label, bad ? "FAILED" : "ok");
            fflush(stdout);
        }
    }
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_mask);
    cudaFree(d_ws);
    free(hin);
    free(hout);
    return 0;
}

int main(int argc, char **argv)
{
    int variant = 0, small = 0, large = 0, cufft = 0;
    uint64_t seed = gk_test_new_seed();
    const gk_test_option opts[] = {{"--small", &small, NULL}, {"--large", &large, NULL}, {"--cufft", &cufft, NULL}};
    if (gk_test_args(argc, argv, opts, 3, "test_conv_gpu [--variant ID] [--small] [--cufft] [--large] [--seed S]",
                     &variant, &seed) != 0)
        return 2;
    gk_device_info dev;
    const gk_conv_variant *only = variant ? gk_conv_find_variant(variant) : NULL;
    int rc = gk_test_start(gk_test_open_gpu(&dev, seed), variant, only != NULL);
    if (rc != 0) return rc;
    if (cufft) {
        test_cufft(seed);
    } else if (large) {
        if (test_large(only, seed) == GK_TEST_SKIP) return GK_TEST_SKIP;
    } else {
        buffers b = {0};
        for (size_t i = 0; i < gk_conv_variant_count(); ++i) {
            const gk_conv_variant *v = gk_conv_variant_at(i);
            if (only == NULL || v == only) test_variant(&b, v, small, seed);
        }
        cudaFree(b.d_in);
        cudaFree(b.d_mask);
        cudaFree(b.d_out);
        cudaFree(b.d_ws);
    }
    return check_summary("test_conv_gpu");
}
