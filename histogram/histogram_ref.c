/* The histogram module's reference and generators: see histogram_ref.h. */
#include "histogram_ref.h"

#include <math.h>
#include <stdlib.h>
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

/* The bin draws of both generators: each call one bin from `dist` over
 * [0, bins) ([0, span) for OUT_OF_RANGE), from one random number. */
typedef struct drawer {
    gk_rng r;
    uint64_t run_value, run_left;
} drawer;

static uint64_t draw(drawer *g, size_t bins, gk_hist_dist dist, uint64_t span)
{
    uint64_t z = gk_rng_next(&g->r);
    switch (dist) {
    case GK_DIST_SKEWED: {
        /* Geometric with q = 15/16: v = floor(log(u) / log(q)), u in (0, 1]. */
        double u = ((double)(z >> 11) + 1.0) * (1.0 / 9007199254740992.0);
        return (uint64_t)floor(log(u) / log(15.0 / 16.0)) % bins;
    }
    case GK_DIST_ONE_BIN: return bins / 2;
    case GK_DIST_SORTED:
        if (g->run_left == 0) {
            g->run_value = (g->run_value + 1 + (z >> 52) % 7) % bins;
            g->run_left = 1 + (z >> 20) % 4096;
        }
        --g->run_left;
        return g->run_value;
    case GK_DIST_OUT_OF_RANGE: return z % span;
    default: return z % bins;
    }
}

void gk_hist_fill(gk_dtype dtype, void *x, size_t n, size_t bins, gk_hist_dist dist, uint64_t seed)
{
    drawer g = {{0}, 0, 0};
    gk_rng_seed(&g.r, seed);
    const uint64_t type_values = dtype == GK_U8 ? 256 : ((uint64_t)1 << 32);
    const uint64_t span = 2 * (uint64_t)bins < type_values ? 2 * (uint64_t)bins : type_values;
    for (size_t i = 0; i < n; ++i) put(dtype, x, i, draw(&g, bins, dist, span));
}

uint16_t gk_hist_half_bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    const uint16_t s = (uint16_t)((b >> 16) & 0x8000);
    if (isnan(f)) return s | 0x7e00;
    const float a = fabsf(f);
    if (a >= 65520.0f) return s | 0x7c00;                                         /* rounds to inf */
    if (a < ldexpf(1.0f, -14)) return s | (uint16_t)lrintf(a * ldexpf(1.0f, 24)); /* denormal or 0: exact grid */
    int e;
    const float m = frexpf(a, &e); /* a = m 2^e, m in [0.5, 1) */
    long q = lrintf(m * 2048.0f);  /* 11 significant bits, to nearest even */
    if (q == 2048) q = 1024, ++e;
    return s | (uint16_t)(((e + 14) << 10) | (q - 1024));
}

double gk_hist_snap(gk_dtype dtype, double v)
{
    switch (dtype) {
    case GK_F32: return (double)(float)v;
    case GK_F16: return gk_hist_half_value(gk_hist_half_bits((float)v));
    case GK_U8: v = floor(v); return v < 0 ? 0 : v > 255 ? 255 : v;
    case GK_U16: v = floor(v); return v < 0 ? 0 : v > 65535 ? 65535 : v;
    case GK_I32: v = floor(v); return v < -2147483648.0 ? -2147483648.0 : v > 2147483647.0 ? 2147483647.0 : v;
    case GK_U32: v = floor(v); return v < 0 ? 0 : v > 4294967295.0 ? 4294967295.0 : v;
    default: return v;
    }
}

/* Store v, a value of dtype (gk_hist_snap's), as element i. */
static void put_value(gk_dtype dtype, void *x, size_t i, double v)
{
    switch (dtype) {
    case GK_F32: ((float *)x)[i] = (float)v; break;
    case GK_F16: ((uint16_t *)x)[i] = gk_hist_half_bits((float)v); break;
    case GK_U8: ((uint8_t *)x)[i] = (uint8_t)v; break;
    case GK_U16: ((uint16_t *)x)[i] = (uint16_t)v; break;
    case GK_I32: ((int32_t *)x)[i] = (int32_t)v; break;
    case GK_U32: ((uint32_t *)x)[i] = (uint32_t)v; break;
    default: break;
    }
}

void gk_hist_fill_levels(gk_dtype dtype, void *x, size_t n, size_t stride, const double *levels, size_t bins,
                         gk_hist_dist dist, uint64_t seed)
{
    drawer g = {{0}, 0, 0};
    gk_rng_seed(&g.r, seed);
    const double width = (levels[bins] - levels[0]) / (double)bins;
    for (size_t i = 0; i < n; ++i) {
        const uint64_t v = draw(&g, bins, dist, 2 * (uint64_t)bins);
        const double u = (double)(gk_rng_next(&g.r) >> 11) * (1.0 / 9007199254740992.0); /* [0, 1) */
        const double value = v < bins ? levels[v] + u * (levels[v + 1] - levels[v])
                                      : levels[bins] + ((double)(v - bins) + u) * width;
        put_value(dtype, x, i * stride, gk_hist_snap(dtype, value));
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

/* ---- gk_histogram_ex's reference ---------------------------------------- */

double gk_hist_half_value(uint16_t h)
{
    const int e = (h >> 10) & 31, m = h & 1023;
    const double s = (h >> 15) ? -1.0 : 1.0;
    if (e == 31) return m ? NAN : s * INFINITY;
    if (e == 0) return s * ldexp((double)m, -24);
    return s * ldexp((double)(1024 + m), e - 25);
}

static double sample_value(gk_dtype dt, const unsigned char *p)
{
    switch (dt) {
    case GK_F32: { float f; memcpy(&f, p, 4); return f; }
    case GK_F16: { uint16_t h; memcpy(&h, p, 2); return gk_hist_half_value(h); }
    case GK_U8: return *p;
    case GK_U16: { uint16_t u; memcpy(&u, p, 2); return u; }
    case GK_I32: { int32_t i; memcpy(&i, p, 4); return i; }
    case GK_U32: { uint32_t u; memcpy(&u, p, 4); return u; }
    default: return NAN;
    }
}

/* 320-bit two's-complement integers, limb 0 least significant. */
typedef struct big { uint32_t w[10]; } big;

static big big_add(big a, big b)
{
    uint64_t carry = 0;
    for (int j = 0; j < 10; ++j) {
        uint64_t s = (uint64_t)a.w[j] + b.w[j] + carry;
        a.w[j] = (uint32_t)s;
        carry = s >> 32;
    }
    return a;
}
static big big_neg(big a)
{
    big one = {{1}};
    for (int j = 0; j < 10; ++j) a.w[j] = ~a.w[j];
    return big_add(a, one);
}
static big big_mul(big a, uint32_t k)
{
    uint64_t carry = 0;
    for (int j = 0; j < 10; ++j) {
        uint64_t s = (uint64_t)a.w[j] * k + carry;
        a.w[j] = (uint32_t)s;
        carry = s >> 32;
    }
    return a;
}
/* v x 2^149 for v a multiple of 2^-149 with |v| < 2^128 (every f32 value,
 * every integer sample and every even-bin lower and upper). */
static big big_of(double v)
{
    big r = {{0}};
    if (v == 0) return r;
    int e;
    double f = frexp(fabs(v), &e);             /* |v| = f 2^e, f in [0.5, 1) */
    uint64_t m = (uint64_t)ldexp(f, 53);       /* |v| = m 2^(e - 53), exactly */
    int sh = e - 53 + 149;
    while (sh < 0) m >>= 1, ++sh;              /* the dropped bits are zeros: v is a multiple of 2^-149 */
    for (int bit = 0; bit < 64; ++bit)
        if ((m >> bit) & 1) r.w[(sh + bit) / 32] |= 1u << ((sh + bit) % 32);
    return v < 0 ? big_neg(r) : r;
}
/* bins (x - lower) >= i (upper - lower), exactly. */
static int even_at_least(double x, double lower, double upper, uint64_t i, size_t bins)
{
    big nl = big_neg(big_of(lower));
    big lhs = big_mul(big_add(big_of(x), nl), (uint32_t)bins);
    big rhs = big_mul(big_add(big_of(upper), nl), (uint32_t)i);
    big diff = big_add(lhs, big_neg(rhs));
    return (diff.w[9] >> 31) == 0;
}

long long gk_hist_ref_bin(const gk_histogram_channel *ch, double x)
{
    const size_t b = ch->bins;
    if (ch->levels) {
        const double *l = ch->levels;
        if (!(l[0] <= x && x < l[b])) return -1; /* NaN fails both */
        size_t lo = 0, hi = b;                    /* l[lo] <= x < l[hi] */
        while (hi - lo > 1) {
            size_t mid = lo + (hi - lo) / 2;
            if (l[mid] <= x) lo = mid;
            else hi = mid;
        }
        return (long long)lo;
    }
    if (!(ch->lower <= x && x < ch->upper)) return -1;
    double q = floor((x - ch->lower) / (ch->upper - ch->lower) * (double)b);
    long long i = q < 0 ? 0 : q > (double)(b - 1) ? (long long)b - 1 : (long long)q;
    while (i > 0 && !even_at_least(x, ch->lower, ch->upper, (uint64_t)i, b)) --i;
    while (i + 1 < (long long)b && even_at_least(x, ch->lower, ch->upper, (uint64_t)i + 1, b)) ++i;
    return i;
}

/* A float's bits as an integer in value order (-0.0 as +0.0), and back. */
static uint32_t float_key(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    if (b == 0x80000000u) b = 0;
    return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}
static float key_float(uint32_t k)
{
    const uint32_t b = (k & 0x80000000u) ? (k & 0x7fffffffu) : ~k;
    float f;
    memcpy(&f, &b, 4);
    return f;
}

/* e[0..bins]: e[i] = the least value of a dtype sample that is at or above
 * boundary i of channel ch (a level, or lower + i (upper - lower) / bins of
 * even bins, tested exactly by even_at_least). Every comparison of a sample
 * x with boundary i is then x >= e[i], a comparison of doubles (exact).
 * Integers: e[i] = lower + ceil(i (upper - lower) / bins), in 64-bit
 * integers (i (upper - lower) <= 2^24 x 2^33). Floats (f16 samples are f32
 * values, so the least f32 serves them too): from the double estimate,
 * stepped one float at a time until it is the least float that passes (at
 * most 64 steps; else a binary search over all the floats of [lower,
 * upper], 32 tests). */
static void edges(gk_dtype dt, const gk_histogram_channel *ch, double *e)
{
    const size_t b = ch->bins;
    if (ch->levels) {
        memcpy(e, ch->levels, (b + 1) * sizeof(double));
        return;
    }
    const double lo = ch->lower, hi = ch->upper;
    for (size_t i = 0; i <= b; ++i) {
        if (dt != GK_F32 && dt != GK_F16) {
            const uint64_t num = (uint64_t)i * (uint64_t)(hi - lo);
            e[i] = lo + (double)((num + b - 1) / b);
            continue;
        }
        double g = lo + (hi - lo) * (double)i / (double)b;
        float v = (float)(g < lo ? lo : g > hi ? hi : g);
        int steps = 0; /* the estimate is within a few floats of the edge but for extreme bounds */
        while (steps < 64 && !even_at_least(v, lo, hi, i, b)) v = nextafterf(v, INFINITY), ++steps;
        for (; steps < 64; ++steps) {
            const float prev = nextafterf(v, -INFINITY);
            if (!(v > lo) || !even_at_least(prev, lo, hi, i, b)) break;
            v = prev;
        }
        if (steps == 64) { /* too far: binary search over the floats of [lo, hi] in value order */
            uint32_t a = float_key((float)lo), z = float_key((float)hi); /* hi passes */
            while (a < z) {
                const uint32_t mid = a + (z - a) / 2;
                if (even_at_least(key_float(mid), lo, hi, i, b)) z = mid;
                else a = mid + 1;
            }
            v = key_float(a);
        }
        e[i] = v;
    }
}

int gk_hist_ref_ex(const gk_histogram_desc *d, uint64_t *const *counts)
{
    const size_t es = gk_dtype_size(d->dtype);
    double *e[GK_HISTOGRAM_MAX_CHANNELS] = {NULL};
    int ok = 1;
    for (int c = 0; c < d->channels; ++c) {
        if (d->ch[c].bins == 0) continue;
        memset(counts[c], 0, d->ch[c].bins * sizeof(uint64_t));
        e[c] = (double *)malloc((d->ch[c].bins + 1) * sizeof(double));
        if (e[c] == NULL) ok = 0;
        else edges(d->dtype, &d->ch[c], e[c]);
    }
    const size_t stride = d->num_rows > 1 ? d->row_stride_bytes : d->row_pixels * (size_t)d->channels * es;
    for (size_t r = 0; ok && r < d->num_rows; ++r) {
        const unsigned char *row = (const unsigned char *)d->in + r * stride;
        for (size_t p = 0; p < d->row_pixels; ++p)
            for (int c = 0; c < d->channels; ++c) {
                const size_t b = d->ch[c].bins;
                if (b == 0) continue;
                const double x = sample_value(d->dtype, row + (p * (size_t)d->channels + c) * es);
                const double *t = e[c];
                if (!(t[0] <= x && x < t[b])) continue; /* outside, or NaN */
                size_t lo = 0, hi = b;                   /* t[lo] <= x < t[hi]: the largest i with t[i] <= x */
                while (hi - lo > 1) {
                    const size_t mid = lo + (hi - lo) / 2;
                    if (t[mid] <= x) lo = mid;
                    else hi = mid;
                }
                counts[c][lo]++;
            }
    }
    for (int c = 0; c < d->channels; ++c) free(e[c]);
    return ok ? 0 : 1;
}
