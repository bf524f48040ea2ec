/* Even bins at the edges: which bin CUB's HistogramEven gives a sample on
 * or next to a bin boundary, against the exact rule of gk/histogram.h (and
 * against every variant that takes even bins, which must follow the rule).
 *
 * For each layout (bins over [lower, upper), f32 samples, and one f16
 * layout), the samples are, for every boundary i = lower + i (upper -
 * lower) / bins: the float nearest to it, the least float at or above it
 * (the exact edge), and one ulp either side of each (each value once per
 * boundary; f16 layouts round them to f16). For each sample:
 *   - the exact bin, gk_hist_ref_bin (the rule evaluated in 320-bit
 *     integers) or "not counted";
 *   - CUB's bin: cub::DeviceHistogram::HistogramEven on that one sample
 *     (32-bit counters, CUB's level type float, __half for f16), read back
 *     as the one count it made, or "not counted"; the guard words after
 *     CUB's counts must keep their poison;
 *   - every differing sample is printed ("cub-edge:" lines: layout, sample
 *     as a decimal and its bits, exact bin, CUB's bin), and per layout a
 *     count ("cub-edge-summary:").
 * CUB is a reference, not this library: its differences are reported, and
 * never fail the test. What fails it: a variant of this library that bins
 * the same samples (all at once, counts poisoned first) differently from
 * the exact rule, or a CUDA error.
 *
 *   test_histogram_cub_gpu [--variant ID] [--seed S]
 *
 * Exit 77 (a CTest skip) when no GPU is visible.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gk/histogram.h"
#include "gpu_test.h"
#include "histogram_ref.h"
#include "test_util.h"

enum { GUARD = 8 };
static const uint64_t POISON = 0xa5a5a5a5a5a5a5a5ULL;

typedef struct layout {
    gk_dtype dtype;
    size_t bins;
    double lower, upper; /* f32 values (f16 values for the f16 layout) */
} layout;

static const layout layouts[] = {
    {GK_F32, 10, 0.0, 1.0},   {GK_F32, 7, -1.5, 2.25},  {GK_F32, 1000, 0.0, 1.0},
    {GK_F32, 3, 0.0, 0.30000001192092896}, {GK_F32, 100, -1.0, 1.0}, {GK_F32, 256, 0.0, 1.0},
    {GK_F16, 10, 0.0, 1.0},
};

/* The samples of layout l (see the top) into xs (values of its type);
 * returns how many. */
static size_t edge_samples(const layout *l, double *xs)
{
    const gk_histogram_channel ch = {l->bins, l->lower, l->upper, NULL, NULL};
    size_t n = 0;
    for (size_t i = 0; i <= l->bins; ++i) {
        const double boundary = l->lower + (l->upper - l->lower) * (double)i / (double)l->bins;
        float near = (float)boundary, edge = near;
        /* The exact edge: the least float whose exact bin is >= i (or the
         * upper bound for i = bins). */
        if (i == l->bins) edge = (float)l->upper;
        else {
            while (edge > (float)l->lower && gk_hist_ref_bin(&ch, nextafterf(edge, -INFINITY)) >= (long long)i)
                edge = nextafterf(edge, -INFINITY);
            while (gk_hist_ref_bin(&ch, edge) < (long long)i) edge = nextafterf(edge, INFINITY);
        }
        const float base[2] = {near, edge};
        const size_t first = n; /* this boundary's samples, each value once */
        for (int k = 0; k < 2; ++k) {
            const float v[3] = {nextafterf(base[k], -INFINITY), base[k], nextafterf(base[k], INFINITY)};
            for (int j = 0; j < 3; ++j) {
                const double x = gk_hist_snap(l->dtype, v[j]);
                int seen = 0;
                for (size_t q = first; q < n; ++q) seen |= xs[q] == x;
                if (!seen) xs[n++] = x;
            }
        }
    }
    return n;
}

static void store(gk_dtype dt, void *h, size_t i, double v)
{
    if (dt == GK_F32) ((float *)h)[i] = (float)v;
    else ((uint16_t *)h)[i] = gk_hist_half_bits((float)v);
}

/* CUB's bin for the one sample on the device at d_x: -1 when not counted,
 * -2 when its counts are not one 1 and zeros (printed). */
static long long cub_bin(const layout *l, const void *d_x, unsigned *d_counts, unsigned *h_counts, void **d_temp,
                         size_t *temp_cap, int *ok)
{
    const size_t bins[1] = {l->bins};
    const double lo[1] = {l->lower}, hi[1] = {l->upper};
    unsigned *counts[1] = {d_counts};
    size_t need = 0;
    TRY_CUDA(gk_cub_histogram_ex((int)l->dtype, d_x, 1, 1, 1, bins, lo, hi, NULL, counts, NULL, &need, 0));
    gk_test_ensure_device(d_temp, temp_cap, need > 0 ? need : 1);
    TRY_CUDA(cudaMemset(d_counts, 0xa5, (l->bins + GUARD) * sizeof(unsigned)));
    TRY_CUDA(gk_cub_histogram_ex((int)l->dtype, d_x, 1, 1, 1, bins, lo, hi, NULL, counts, *d_temp, &need, 0));
    TRY_CUDA(cudaDeviceSynchronize());
    TRY_CUDA(cudaMemcpy(h_counts, d_counts, (l->bins + GUARD) * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (size_t g = 0; g < GUARD; ++g)
        if (h_counts[l->bins + g] != 0xa5a5a5a5u) {
            printf("cub-edge: CUB wrote past its %zu counts (guard word %zu = %u)\n", l->bins, g, h_counts[l->bins + g]);
            *ok = 0;
        }
    long long bin = -1;
    size_t ones = 0, others = 0;
    for (size_t b = 0; b < l->bins; ++b) {
        if (h_counts[b] == 1) bin = (long long)b, ++ones;
        else if (h_counts[b] != 0) ++others;
    }
    return ones <= 1 && others == 0 ? bin : -2;
}

int main(int argc, char **argv)
{
    int variant = 0;
    uint64_t seed = gk_test_new_seed();
    if (gk_test_args(argc, argv, NULL, 0, "test_histogram_cub_gpu [--variant ID] [--seed S]", &variant, &seed) != 0)
        return 2;
    gk_device_info dev;
    const gk_histogram_variant *only = variant ? gk_histogram_find_variant(variant) : NULL;
    int rc = gk_test_start(gk_test_open_gpu(&dev, seed), variant, only != NULL);
    if (rc != 0) return rc;

    size_t total_diff = 0, total = 0;
    for (size_t li = 0; li < sizeof layouts / sizeof layouts[0]; ++li) {
        const layout *l = &layouts[li];
        const size_t cap = 6 * (l->bins + 1), es = gk_dtype_size(l->dtype);
        double *xs = (double *)gk_test_xmalloc(cap * sizeof(double));
        const size_t n = edge_samples(l, xs);
        unsigned char *h = (unsigned char *)gk_test_xmalloc(n * es);
        for (size_t i = 0; i < n; ++i) store(l->dtype, h, i, xs[i]);
        unsigned char *d_in = NULL;
        unsigned *d_c32 = NULL, *h_c32 = (unsigned *)gk_test_xmalloc((l->bins + GUARD) * sizeof(unsigned));
        uint64_t *d_counts = NULL, *got = (uint64_t *)gk_test_xmalloc((l->bins + GUARD) * 8);
        uint64_t *want = (uint64_t *)gk_test_xmalloc(l->bins * 8);
        void *d_temp = NULL;
        size_t temp_cap = 0;
        TRY_CUDA(cudaMalloc((void **)&d_in, n * es));
        TRY_CUDA(cudaMemcpy(d_in, h, n * es, cudaMemcpyHostToDevice));
        TRY_CUDA(cudaMalloc((void **)&d_c32, (l->bins + GUARD) * sizeof(unsigned)));
        TRY_CUDA(cudaMalloc((void **)&d_counts, (l->bins + GUARD) * 8));
        char name[96];
        snprintf(name, sizeof name, "%s, %zu bins over [%.9g, %.9g)", gk_dtype_name(l->dtype), l->bins, l->lower,
                 l->upper);

        /* CUB, one sample at a time. */
        const gk_histogram_channel ch = {l->bins, l->lower, l->upper, NULL, NULL};
        size_t diff = 0;
        int cub_ok = 1;
        memset(want, 0, l->bins * 8);
        for (size_t i = 0; i < n; ++i) {
            const double x = l->dtype == GK_F16 ? gk_hist_half_value(((uint16_t *)h)[i]) : (double)((float *)h)[i];
            const long long exact = gk_hist_ref_bin(&ch, x);
            if (exact >= 0) want[exact]++;
            const long long cub = cub_bin(l, d_in + i * es, d_c32, h_c32, &d_temp, &temp_cap, &cub_ok);
            if (cub == exact) continue;
            ++diff;
            float f = (float)x;
            uint32_t bits;
            memcpy(&bits, &f, 4);
            char eb[24], cb[32];
            if (exact >= 0) snprintf(eb, sizeof eb, "%lld", exact);
            else snprintf(eb, sizeof eb, "not counted");
            if (cub >= 0) snprintf(cb, sizeof cb, "%lld", cub);
            else snprintf(cb, sizeof cb, cub == -1 ? "not counted" : "not one count (see above)");
            printf("cub-edge: %s: x = %.9g (f32 bits 0x%08x): exact bin %s, CUB bin %s\n", name, x, bits, eb, cb);
        }
        printf("cub-edge-summary: %s: %zu of %zu edge samples binned differently by CUB's HistogramEven%s\n", name,
               diff, n, cub_ok ? "" : " (and CUB wrote past its counts)");
        total_diff += diff;
        total += n;

        /* This library: every variant that takes even bins, all samples at once. */
        for (size_t vi = 0; vi < gk_histogram_variant_count(); ++vi) {
            const gk_histogram_variant *v = gk_histogram_variant_at(vi);
            if ((only && v != only) || !(v->forms & GK_HISTOGRAM_FORM_EVEN)) continue;
            char label[160];
            snprintf(label, sizeof label, "v%d %s: %s edge samples", v->id, v->name, name);
            size_t need = 0;
            int ok = gk_test_ok(gk_histogram_even(v->id, l->dtype, d_in, n, l->bins, l->lower, l->upper, d_counts,
                                                  NULL, &need, 0),
                                label, "query");
            void *ws = NULL;
            TRY_CUDA(cudaMalloc(&ws, need));
            TRY_CUDA(cudaMemset(ws, 0x5a, need));
            TRY_CUDA(cudaMemset(d_counts, 0xa5, (l->bins + GUARD) * 8));
            size_t bytes = need;
            gk_status s = gk_histogram_even(v->id, l->dtype, d_in, n, l->bins, l->lower, l->upper, d_counts, ws,
                                            &bytes, 0);
            if (gk_ok(s)) s = GK_CUDA_STATUS(cudaDeviceSynchronize());
            gk_test_require(s, label);
            TRY_CUDA(cudaMemcpy(got, d_counts, (l->bins + GUARD) * 8, cudaMemcpyDeviceToHost));
            ok &= gk_hist_check(got, want, l->bins, label, stdout) == 0;
            for (size_t g = 0; g < GUARD; ++g)
                if (got[l->bins + g] != POISON) {
                    printf("  %s: wrote past its counts\n", label);
                    ok = 0;
                    break;
                }
            CHECK(ok, "%s: exact", label);
            cudaFree(ws);
        }
        cudaFree(d_temp);
        cudaFree(d_counts);
        cudaFree(d_c32);
        cudaFree(d_in);
        free(want);
        free(got);
        free(h_c32);
        free(h);
        free(xs);
    }
    printf("cub-edge-summary: all layouts: %zu of %zu edge samples binned differently by CUB's HistogramEven "
           "(a reference: not a failure)\n",
           total_diff, total);
    return check_summary("test_histogram_cub_gpu");
}
