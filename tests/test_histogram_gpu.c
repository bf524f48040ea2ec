/* GPU tests of the histogram module.
 *
 * For each variant, both sample types, n in {0, 1, 31, 257, 65537, 2^20+13,
 * 2^24+7} and bins in {1, 2, 255, 256, 257, 4096, 65536, 300007, 2^20} (u8: bins up
 * to 256): fresh random samples (a new seed every run, printed for --seed)
 * from each distribution in turn (uniform, skewed, one bin, sorted runs,
 * out of range), the input placed at an offset from a 256-byte boundary
 * (0-3 elements for u32, 0-15 bytes for u8), counts, the guard words after
 * them and the workspace poisoned first; then every count compared exactly
 * with the CPU's sequential histogram, and the guards checked untouched.
 * Every combination is run for every distribution at n = 65537, and a second
 * call must give the same counts.
 *
 *   test_histogram_gpu [--variant ID] [--small] [--large] [--seed S]
 *
 * --small: n up to 65537 and bins up to 65536 (what scripts/sanitize.sh runs
 * under compute-sanitizer). --large: n = 2^32 + 2^20 + 17 u8 samples, nearly
 * all in bin 0 of one bin, so the count passes 2^32 (64-bit counts); skipped
 * when the GPU or the host lacks the memory. Exit 77 (a CTest skip) when no
 * GPU is visible.
 */
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

enum { GUARD = 16 };                    /* 64-bit words poisoned after counts */
static const uint64_t POISON = 0xa5a5a5a5a5a5a5a5ULL;

static const size_t all_n[] = {0, 1, 31, 257, 65537, ((size_t)1 << 20) + 13, ((size_t)1 << 24) + 7};
static const size_t all_bins[] = {1, 2, 255, 256, 257, 4096, 65536, 300007, (size_t)1 << 20};

typedef struct buffers {
    unsigned char *d_in;
    uint64_t *d_counts;
    void *d_ws;
    size_t cap_in, cap_counts, cap_ws;
    uint64_t *ref, *got;
} buffers;

static uint64_t mix(uint64_t seed, uint64_t a, uint64_t b, uint64_t c)
{
    gk_rng r;
    gk_rng_seed(&r, seed ^ (a * 0x9e3779b97f4a7c15ULL) ^ (b << 32) ^ (c * 0xc2b2ae3d27d4eb4fULL));
    return gk_rng_next(&r);
}

/* One call on the samples in h (n of dtype), uploaded at byte offset `off`;
 * compares with ref. Returns 1 on a pass. */
static int run_one(buffers *b, const gk_histogram_variant *v, gk_dtype dt, const void *h, size_t n, size_t bins,
                   size_t off, const char *dist, int twice)
{
    char label[192];
    snprintf(label, sizeof label, "v%d %s %s n=%zu bins=%zu %s offset %zu bytes", v->id, v->name, gk_dtype_name(dt), n,
             bins, dist, off);
    size_t elem = gk_dtype_size(dt);
    gk_test_ensure_device((void **)&b->d_in, &b->cap_in, n * elem + 256);
    if (n) TRY_CUDA(cudaMemcpy(b->d_in + off, h, n * elem, cudaMemcpyHostToDevice));
    gk_test_ensure_device((void **)&b->d_counts, &b->cap_counts, (bins + GUARD) * 8);
    size_t need = 0;
    gk_status s = gk_histogram(v->id, dt, b->d_in + off, n, bins, b->d_counts, NULL, &need, 0);
    if (!gk_test_ok(s, label, "query")) return 0;
    gk_test_ensure_device(&b->d_ws, &b->cap_ws, need);
    int ok = 1;
    for (int round = 0; round < (twice ? 2 : 1); ++round) {
        /* Poison: every count must be written, nothing after them, and the
         * workspace must need no initialisation. */
        TRY_CUDA(cudaMemset(b->d_counts, 0xa5, (bins + GUARD) * 8));
        TRY_CUDA(cudaMemset(b->d_ws, 0x5a, b->cap_ws));
        size_t bytes = b->cap_ws;
        s = gk_histogram(v->id, dt, b->d_in + off, n, bins, b->d_counts, b->d_ws, &bytes, 0);
        if (gk_ok(s)) s = GK_CUDA_STATUS(cudaDeviceSynchronize());
        gk_test_require(s, label);
        TRY_CUDA(cudaMemcpy(b->got, b->d_counts, (bins + GUARD) * 8, cudaMemcpyDeviceToHost));
        ok &= gk_hist_check(b->got, b->ref, bins, label, stdout) == 0;
        for (size_t g = 0; g < GUARD; ++g)
            if (b->got[bins + g] != POISON) {
                printf("  %s: wrote past counts[bins - 1] (guard word %zu)\n", label, g);
                ok = 0;
                break;
            }
    }
    return ok;
}

static int test_variant(buffers *b, const gk_histogram_variant *v, int small, uint64_t seed)
{
    int before = check_failed;
    size_t max_n = all_n[sizeof all_n / sizeof all_n[0] - 1];
    void *h = malloc(max_n * 4 + 16);
    b->ref = (uint64_t *)malloc(((size_t)1 << 20) * 8);
    b->got = (uint64_t *)malloc((((size_t)1 << 20) + GUARD) * 8);
    int combo = 0;
    for (size_t bi = 0; bi < sizeof all_bins / sizeof all_bins[0]; ++bi) {
        size_t bins = all_bins[bi];
        if (small && bins > 65536) continue;
        for (int d = 0; d < 2; ++d) {
            gk_dtype dt = d ? GK_U8 : GK_U32;
            if (dt == GK_U8 && bins > 256) continue;
            for (size_t ni = 0; ni < sizeof all_n / sizeof all_n[0]; ++ni) {
                size_t n = all_n[ni];
                if (small && n > 65537) continue;
                /* Every distribution at n = 65537; elsewhere they take turns. */
                for (int dist = 0; dist < GK_DIST_COUNT; ++dist) {
                    if (n != 65537 && dist != combo % GK_DIST_COUNT) continue;
                    size_t off = dt == GK_U8 ? (size_t)(combo % 16) : (size_t)(combo % 4) * 4;
                    gk_hist_fill(dt, h, n, bins, (gk_hist_dist)dist, mix(seed, (uint64_t)v->id, bins, n * 8 + dist));
                    gk_hist_ref(dt, h, n, bins, b->ref);
                    CHECK(run_one(b, v, dt, h, n, bins, off, gk_hist_dist_name((gk_hist_dist)dist), n == 65537),
                          "v%d %s n=%zu bins=%zu %s", v->id, gk_dtype_name(dt), n, bins,
                          gk_hist_dist_name((gk_hist_dist)dist));
                }
                ++combo;
            }
        }
    }
    free(h);
    free(b->ref);
    free(b->got);
    printf("variant %d %-22s %s\n", v->id, v->name, check_failed == before ? "ok" : "FAILED");
    fflush(stdout);
    return check_failed == before;
}

/* n > 2^32 u8 samples, bins = 1: all zeros but one sample every 8192 to
 * 16383 (values 1-255, not counted). The gaps are at least 8192, so at most
 * n / 8192 + 1 = 524417 samples are dropped, fewer than the 2^20 + 17 that n
 * has above 2^32: counts[0] passes 2^32 whatever the seed (checked below). */
static int test_large(buffers *b, const gk_histogram_variant *only, uint64_t seed)
{
    const size_t n = ((size_t)1 << 32) + ((size_t)1 << 20) + 17;
    size_t free_b = 0, total_b = 0;
    TRY_CUDA(cudaMemGetInfo(&free_b, &total_b));
    unsigned char *h = (unsigned char *)malloc(n);
    if (free_b < n + ((size_t)1 << 30) || h == NULL) {
        free(h);
        printf("SKIPPED: n = 2^32+2^20+17 needs %.1f GB free on the GPU (has %.1f) and as much host memory%s\n",
               (n + ((size_t)1 << 30)) / 1e9, free_b / 1e9, h ? "" : " (malloc failed)");
        return GK_TEST_SKIP;
    }
    memset(h, 0, n);
    gk_rng r;
    gk_rng_seed(&r, seed);
    uint64_t dropped = 0;
    for (size_t i = 0; i < n; i += 8192 + gk_rng_next(&r) % 8192) {
        h[i] = (unsigned char)(1 + gk_rng_next(&r) % 255);
        ++dropped;
    }
    uint64_t want = (uint64_t)n - dropped;
    CHECK(want > ((uint64_t)1 << 32), "the input's count %llu does not pass 2^32", (unsigned long long)want);
    printf("n = %zu u8 samples, %llu of them out of range: counts[0] must be %llu (> 2^32)\n", n,
           (unsigned long long)dropped, (unsigned long long)want);
    b->ref = (uint64_t *)malloc(8);
    b->got = (uint64_t *)malloc((1 + GUARD) * 8);
    b->ref[0] = want;
    for (size_t i = 0; i < gk_histogram_variant_count(); ++i) {
        const gk_histogram_variant *v = gk_histogram_variant_at(i);
        if (only && v != only) continue;
        CHECK(run_one(b, v, GK_U8, h, n, 1, 1, "mostly zeros", 0), "v%d n > 2^32", v->id);
        printf("  v%d done\n", v->id);
        fflush(stdout);
        /* The input is uploaded again by the next call: keep it (same h). */
    }
    free(h);
    free(b->ref);
    free(b->got);
    return 0;
}

int main(int argc, char **argv)
{
    int variant = 0, small = 0, large = 0;
    uint64_t seed = gk_test_new_seed();
    const gk_test_option opts[] = {{"--small", &small, NULL}, {"--large", &large, NULL}};
    if (gk_test_args(argc, argv, opts, 2, "test_histogram_gpu [--variant ID] [--small] [--large] [--seed S]", &variant,
                     &seed) != 0)
        return 2;
    gk_device_info dev;
    const gk_histogram_variant *only = variant ? gk_histogram_find_variant(variant) : NULL;
    int rc = gk_test_start(gk_test_open_gpu(&dev, seed), variant, only != NULL);
    if (rc != 0) return rc;
    buffers b = {0};
    if (large) {
        if (test_large(&b, only, seed) == GK_TEST_SKIP) return GK_TEST_SKIP;
    } else {
        for (size_t i = 0; i < gk_histogram_variant_count(); ++i) {
            const gk_histogram_variant *v = gk_histogram_variant_at(i);
            if (only == NULL || v == only) test_variant(&b, v, small, seed);
        }
    }
    cudaFree(b.d_in);
    cudaFree(b.d_counts);
    cudaFree(b.d_ws);
    return check_summary("test_histogram_gpu");
}
