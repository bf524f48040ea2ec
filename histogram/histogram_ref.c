/* The histogram module's reference and generators: see histogram_ref.h. */
#include "histogram_ref.h"

#include <math.h>
#include <string.h>

#include "gk/random.h"
#include "gk/verify.h"

static const char *const dist_names[GK_DIST_COUNT] = {"uniform", "skewed", "onebin", "sorted", "outofrange"};

const char *gk_hist_dist_name(gk_hist_dist d) { return (unsigned)d < GK_DIST_COUNT ? dist_names[d] : "?"; }

int gk_hist_dist_parse(const char *s, gk_hist_dist *d)
{
    for (int i = 0; i < GK_DIST_COUNT; ++i)
        if (strcmp(s, dist_names[i]) == 0) {
            *d = (gk_hist_dist)i;
            return 0;
        }
    return 1;
}

static void put(gk_dtype dtype, void *x, size_t i, uint64_t v)
{
    if (dtype == GK_U8) ((uint8_t *)x)[i] = (uint8_t)v;
    else ((uint32_t *)x)[i] = (uint32_t)v;
}

void gk_hist_fill(gk_dtype dtype, void *x, size_t n, size_t bins, gk_hist_dist dist, uint64_t seed)
{
    gk_rng r;
    gk_rng_seed(&r, seed);
    const uint64_t type_values = dtype == GK_U8 ? 256 : ((uint64_t)1 << 32);
    uint64_t run_value = 0, run_left = 0;
    for (size_t i = 0; i < n; ++i) {
        uint64_t z = gk_rng_next(&r), v;
        switch (dist) {
        case GK_DIST_SKEWED: {
            /* Geometric with q = 15/16: v = floor(log(u) / log(q)), u in (0, 1]. */
            double u = ((double)(z >> 11) + 1.0) * (1.0 / 9007199254740992.0);
            v = (uint64_t)floor(log(u) / log(15.0 / 16.0)) % bins;
            break;
        }
        case GK_DIST_ONE_BIN: v = bins / 2; break;
        case GK_DIST_SORTED:
            if (run_left == 0) {
                run_value = (run_value + 1 + (z >> 52) % 7) % bins;
                run_left = 1 + (z >> 20) % 4096;
            }
            v = run_value;
            --run_left;
            break;
        case GK_DIST_OUT_OF_RANGE: {
            uint64_t span = 2 * (uint64_t)bins < type_values ? 2 * (uint64_t)bins : type_values;
            v = z % span;
            break;
        }
        default: v = z % bins; break;
        }
        put(dtype, x, i, v);
    }
}

void gk_hist_ref(gk_dtype dtype, const void *x, size_t n, size_t bins, uint64_t *counts)
{
    memset(counts, 0, bins * sizeof *counts);
    if (dtype == GK_U8) {
        const uint8_t *p = (const uint8_t *)x;
        for (size_t i = 0; i < n; ++i)
            if (p[i] < bins) counts[p[i]]++;
    } else {
        const uint32_t *p = (const uint32_t *)x;
        for (size_t i = 0; i < n; ++i)
            if (p[i] < bins) counts[p[i]]++;
    }
}

size_t gk_hist_check(const uint64_t *got, const uint64_t *expected, size_t bins, const char *label, FILE *log)
{
    size_t bad = 0;
    for (size_t b = 0; b < bins; ++b) {
        if (got[b] == expected[b]) continue;
        if (log != NULL && bad < GK_VERIFY_SHOW)
            fprintf(log, "  %s mismatch at bin %zu: got %llu expected %llu\n", label ? label : "", b,
                    (unsigned long long)got[b], (unsigned long long)expected[b]);
        ++bad;
    }
    if (bad > GK_VERIFY_SHOW && log != NULL)
        fprintf(log, "  %s: %zu of %zu bins mismatch\n", label ? label : "", bad, bins);
    return bad;
}
