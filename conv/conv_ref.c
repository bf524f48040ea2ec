/* The conv module's reference, tolerances and generators: see conv_ref.h. */
#include "conv_ref.h"

#include <math.h>

#include "gk/random.h"
#include "gk/verify.h"

void gk_conv_fill(float *x, size_t n, gk_conv_data kind, uint64_t seed)
{
    if (kind == GK_CONV_DATA_REAL) {
        gk_fill_f32(x, n, seed, -1.0f, 1.0f);
        return;
    }
    gk_rng r;
    gk_rng_seed(&r, seed);
    for (size_t i = 0; i < n; ++i) {
        /* 16 values, -8..-1 and 1..8: never 0. */
        int v = (int)(gk_rng_next(&r) >> 60);
        x[i] = (float)(v < 8 ? v - 8 : v - 7);
    }
}

/* The taps j of output i that land inside [0, n): i - r + j in [0, n). */
static void tap_range(size_t n, size_t width, size_t i, size_t *lo, size_t *hi)
{
    size_t r = width / 2;
    *lo = i < r ? r - i : 0;                         /* i - r + j >= 0 */
    size_t room = n - i + r;                         /* i - r + j < n  <=>  j < n - i + r */
    *hi = room < width ? room : width;
}

double gk_conv_ref_at(const float *in, size_t n, const float *mask, size_t width, size_t i, double *mag)
{
    size_t lo, hi, r = width / 2;
    tap_range(n, width, i, &lo, &hi);
    double s = 0.0, m = 0.0;
    const float *x = in + (i + lo - r); /* in[i - r + lo], inside the array */
    for (size_t j = lo; j < hi; ++j) {
        double p = (double)x[j - lo] * (double)mask[j];
        s += p;
        m += fabs(p);
    }
    if (mag != NULL) *mag = m;
    return s;
}

void gk_conv_ref(const float *in, size_t n, const float *mask, size_t width, double *ref, double *mag)
{
    for (size_t i = 0; i < n; ++i) {
        double m;
        ref[i] = gk_conv_ref_at(in, n, mask, width, i, &m);
        if (mag != NULL) mag[i] = m;
    }
}

double gk_conv_tolerance(size_t width, double mag)
{
    double ku = (double)(width + 2) * GK_F32_UNIT_ROUNDOFF;
    return ku / (1.0 - ku) * mag;
}

static size_t report(size_t bad, const char *label, FILE *log, size_t i, double got, double want, double tol)
{
    if (log != NULL && bad < GK_VERIFY_SHOW) {
        if (tol > 0)
            fprintf(log, "  %s mismatch at [%zu]: got %.9g expected %.9g (|diff| %.3g > tol %.3g)\n",
                    label ? label : "", i, got, want, fabs(got - want), tol);
        else
            fprintf(log, "  %s mismatch at [%zu]: got %.9g expected %.9g exactly\n", label ? label : "", i, got,
                    want);
    }
    return bad + 1;
}

size_t gk_conv_check(const float *got, const double *ref, const double *mag, size_t n, size_t width,
                     const char *label, FILE *log)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) {
        double g = (double)got[i];
        double tol = mag != NULL ? gk_conv_tolerance(width, mag[i]) : 0.0;
        /* isfinite first: a NaN compares false with everything. */
        if (!(isfinite(g) && fabs(g - ref[i]) <= tol)) bad = report(bad, label, log, i, g, ref[i], tol);
    }
    if (bad > GK_VERIFY_SHOW && log != NULL) fprintf(log, "  %s: %zu of %zu outputs mismatch\n", label ? label : "", bad, n);
    return bad;
}

/* The indices the sampled checks look at, in order: the first and the last
 * width + 32 outputs (every output whose window reaches a ghost cell, and a
 * few more), then `samples` drawn uniformly from the ones between. When n is
 * at most twice that, every output. */
typedef struct sampler {
    size_t n, head, tail, samples, k;
    gk_rng r;
} sampler;

static void sampler_init(sampler *s, size_t n, size_t width, size_t samples, uint64_t seed)
{
    size_t edge = width + 32;
    s->n = n;
    s->head = n <= 2 * edge ? n : edge;
    s->tail = n <= 2 * edge ? 0 : edge;
    s->samples = n <= 2 * edge ? 0 : samples;
    s->k = 0;
    gk_rng_seed(&s->r, seed);
}

/* The next index, or n when done; *interior says whether it was drawn. */
static size_t sampler_next(sampler *s, int *interior)
{
    size_t k = s->k++;
    *interior = 0;
    if (k < s->head) return k;
    k -= s->head;
    if (k < s->tail) return s->n - s->tail + k;
    k -= s->tail;
    if (k < s->samples) {
        *interior = 1;
        return s->head + gk_rng_next(&s->r) % (s->n - s->head - s->tail);
    }
    return s->n;
}

static size_t count_nonfinite(const float *got, size_t n, const char *label, FILE *log)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i)
        if (!isfinite(got[i])) {
            if (log != NULL && bad < GK_VERIFY_SHOW)
                fprintf(log, "  %s: out[%zu] = %g is not finite\n", label ? label : "", i, (double)got[i]);
            ++bad;
        }
    return bad;
}

size_t gk_conv_check_sampled(const float *got, const float *in, size_t n, const float *mask, size_t width,
                             size_t samples, uint64_t seed, const char *label, FILE *log)
{
    size_t bad = count_nonfinite(got, n, label, log);
    sampler s;
    sampler_init(&s, n, width, samples, seed);
    int interior;
    for (size_t i; (i = sampler_next(&s, &interior)) < n;) {
        double mag, want = gk_conv_ref_at(in, n, mask, width, i, &mag), tol = gk_conv_tolerance(width, mag);
        if (!(fabs((double)got[i] - want) <= tol)) bad = report(bad, label, log, i, got[i], want, tol);
    }
    return bad;
}

size_t gk_conv_fft_length(size_t n, size_t width)
{
    size_t need = n + width - 1, best = 0;
    if (need < 2) need = 2;
    /* For every odd part 3^b 5^c 7^d <= need, the least 2^a (a >= 1) times it
     * that reaches need; the least of those wins. (An odd part above need
     * cannot win: the power of two alone is below 2 * need.) A few thousand
     * candidates at most. */
    for (size_t p7 = 1; p7 <= need; p7 *= 7)
        for (size_t p5 = p7; p5 <= need; p5 *= 5)
            for (size_t p3 = p5; p3 <= need; p3 *= 3) {
                size_t v = 2 * p3;
                while (v < need) v *= 2;
                if (best == 0 || v < best) best = v;
            }
    return best;
}

double gk_conv_fft_tolerance(size_t L, double in_norm2, double mask_norm1)
{
    const double u = GK_F32_UNIT_ROUNDOFF;
    double cl = 16.0 * log2((double)(L < 2 ? 2 : L)) * u;
    double e = cl / (1.0 - cl);
    return (3.0 * e + 5.0 * u) * in_norm2 * mask_norm1;
}

double gk_conv_norm2(const float *x, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; ++i) s += (double)x[i] * (double)x[i];
    return sqrt(s);
}

double gk_conv_norm1(const float *x, size_t n)
{
    double s = 0.0;
    for (size_t i = 0; i < n; ++i) s += fabs((double)x[i]);
    return s;
}

size_t gk_conv_check_fft(const float *got, const double *ref, size_t n, double tol, const char *label, FILE *log)
{
    size_t bad = count_nonfinite(got, n, label, log);
    double sq = 0.0, worst = 0.0;
    size_t at = 0;
    for (size_t i = 0; i < n; ++i) {
        double e = (double)got[i] - ref[i];
        if (!isfinite(e)) continue;
        sq += e * e;
        if (fabs(e) > worst) worst = fabs(e), at = i;
    }
    double norm = sqrt(sq);
    if (!(norm <= tol)) {
        if (log != NULL)
            fprintf(log, "  %s: ||out - ref||_2 = %.4g > tol %.4g (largest error %.4g at [%zu]: got %.9g expected %.9g)\n",
                    label ? label : "", norm, tol, worst, at, (double)got[at], ref[at]);
        ++bad;
    }
    return bad;
}

size_t gk_conv_check_fft_sampled(const float *got, const float *in, size_t n, const float *mask, size_t width,
                                 double tol, size_t samples, uint64_t seed, const char *label, FILE *log)
{
    size_t bad = count_nonfinite(got, n, label, log);
    sampler s;
    sampler_init(&s, n, width, samples, seed);
    double sq = 0.0;
    size_t drawn = 0;
    int interior;
    for (size_t i; (i = sampler_next(&s, &interior)) < n;) {
        double want = gk_conv_ref_at(in, n, mask, width, i, NULL), e = (double)got[i] - want;
        if (!(fabs(e) <= tol)) bad = report(bad, label, log, i, got[i], want, tol);
        if (interior && isfinite(e)) sq += e * e, ++drawn;
    }
    if (drawn > 0) {
        double est = sqrt((double)n * sq / (double)drawn);
        if (!(est <= tol)) {
            if (log != NULL)
                fprintf(log, "  %s: ||out - ref||_2 estimated from %zu samples as %.4g > tol %.4g\n",
                        label ? label : "", drawn, est, tol);
            ++bad;
        }
    }
    return bad;
}
