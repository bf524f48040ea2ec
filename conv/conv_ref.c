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

/* 1 (and a line on log) when the 2-norm of the error over n outputs,
 * estimated from the squared errors sq of `drawn` samples as
 * sqrt(n sq / drawn), is above tol (or NaN); 0 otherwise or with no sample. */
static size_t estimate_exceeds(double n, double sq, size_t drawn, double tol, const char *label, FILE *log)
{
    if (drawn == 0) return 0;
    const double est = sqrt(n * sq / (double)drawn);
    if (est <= tol) return 0;
    if (log != NULL)
        fprintf(log, "  %s: ||out - ref||_2 estimated from %zu samples as %.4g > tol %.4g\n", label ? label : "",
                drawn, est, tol);
    return 1;
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
    return bad + estimate_exceeds((double)n, sq, drawn, tol, label, log);
}

/* ---- 2D ------------------------------------------------------------------ */

double gk_conv2d_ref_at(const float *in, size_t rows, size_t cols, size_t in_stride, const float *mask,
                        size_t mask_rows, size_t mask_cols, size_t y, size_t x, double *mag)
{
    size_t alo, ahi, blo, bhi;
    tap_range(rows, mask_rows, y, &alo, &ahi); /* the 1D tap range, per axis */
    tap_range(cols, mask_cols, x, &blo, &bhi);
    const size_t ry = mask_rows / 2, rx = mask_cols / 2;
    double s = 0.0, m = 0.0;
    for (size_t a = alo; a < ahi; ++a) {
        const float *row = in + (y + a - ry) * in_stride + (x + blo - rx);
        const float *mk = mask + a * mask_cols;
        for (size_t b = blo; b < bhi; ++b) {
            double p = (double)row[b - blo] * (double)mk[b];
            s += p;
            m += fabs(p);
        }
    }
    if (mag != NULL) *mag = m;
    return s;
}

static size_t report2(size_t bad, const char *label, FILE *log, size_t r, size_t c, double got, double want,
                      double tol)
{
    if (log != NULL && bad < GK_VERIFY_SHOW)
        fprintf(log, "  %s mismatch at [%zu][%zu]: got %.9g expected %.9g (|diff| %.3g, tol %.3g)\n",
                label ? label : "", r, c, got, want, fabs(got - want), tol);
    return bad + 1;
}

static size_t check2d_at(size_t bad, const float *got, size_t got_stride, const float *in, size_t rows, size_t cols,
                         size_t in_stride, const float *mask, size_t mr, size_t mc, int exact, size_t y, size_t x,
                         const char *label, FILE *log)
{
    double mag, want = gk_conv2d_ref_at(in, rows, cols, in_stride, mask, mr, mc, y, x, &mag);
    double tol = exact ? 0.0 : gk_conv_tolerance(mr * mc, mag), g = (double)got[y * got_stride + x];
    if (!(isfinite(g) && fabs(g - want) <= tol)) bad = report2(bad, label, log, y, x, g, want, tol);
    return bad;
}

size_t gk_conv2d_check(const float *got, size_t got_stride, const float *in, size_t rows, size_t cols,
                       size_t in_stride, const float *mask, size_t mask_rows, size_t mask_cols, int exact,
                       const char *label, FILE *log)
{
    size_t bad = 0;
    for (size_t y = 0; y < rows; ++y)
        for (size_t x = 0; x < cols; ++x)
            bad = check2d_at(bad, got, got_stride, in, rows, cols, in_stride, mask, mask_rows, mask_cols, exact, y, x,
                             label, log);
    if (bad > GK_VERIFY_SHOW && log != NULL)
        fprintf(log, "  %s: %zu of %zu outputs mismatch\n", label ? label : "", bad, rows * cols);
    return bad;
}

static size_t count_nonfinite2d(const float *got, size_t got_stride, size_t rows, size_t cols, const char *label,
                                FILE *log)
{
    size_t bad = 0;
    for (size_t y = 0; y < rows; ++y)
        for (size_t x = 0; x < cols; ++x)
            if (!isfinite(got[y * got_stride + x])) {
                if (log != NULL && bad < GK_VERIFY_SHOW)
                    fprintf(log, "  %s: out[%zu][%zu] is not finite\n", label ? label : "", y, x);
                ++bad;
            }
    return bad;
}

/* The k-th output the 2D sampled checks look at, k < 2 samples: the first
 * `samples` on the borders (first / last row, first / last column, in
 * turn), the others drawn uniformly; returns whether it was drawn. */
static int sample2d(gk_rng *r, size_t k, size_t samples, size_t rows, size_t cols, size_t *py, size_t *px)
{
    size_t y = gk_rng_next(r) % rows, x = gk_rng_next(r) % cols;
    if (k < samples) {
        switch (k % 4) {
        case 0: y = 0; break;
        case 1: y = rows - 1; break;
        case 2: x = 0; break;
        default: x = cols - 1; break;
        }
    }
    *py = y, *px = x;
    return k >= samples;
}

size_t gk_conv2d_check_sampled(const float *got, size_t got_stride, const float *in, size_t rows, size_t cols,
                               size_t in_stride, const float *mask, size_t mask_rows, size_t mask_cols,
                               size_t samples, uint64_t seed, const char *label, FILE *log)
{
    size_t bad = count_nonfinite2d(got, got_stride, rows, cols, label, log);
    gk_rng r;
    gk_rng_seed(&r, seed);
    for (size_t k = 0; k < samples + samples; ++k) {
        size_t y, x;
        sample2d(&r, k, samples, rows, cols, &y, &x);
        bad = check2d_at(bad, got, got_stride, in, rows, cols, in_stride, mask, mask_rows, mask_cols, 0, y, x, label,
                         log);
    }
    return bad;
}

double gk_conv2d_norm2(const float *in, size_t rows, size_t cols, size_t stride)
{
    double s = 0.0;
    for (size_t y = 0; y < rows; ++y)
        for (size_t x = 0; x < cols; ++x) {
            double v = (double)in[y * stride + x];
            s += v * v;
        }
    return sqrt(s);
}

size_t gk_conv2d_check_fft(const float *got, size_t got_stride, const float *in, size_t rows, size_t cols,
                           size_t in_stride, const float *mask, size_t mask_rows, size_t mask_cols, double tol,
                           const char *label, FILE *log)
{
    size_t bad = count_nonfinite2d(got, got_stride, rows, cols, label, log);
    double sq = 0.0, worst = -1.0, worst_got = 0.0, worst_want = 0.0;
    size_t wy = 0, wx = 0;
    for (size_t y = 0; y < rows; ++y)
        for (size_t x = 0; x < cols; ++x) {
            double want = gk_conv2d_ref_at(in, rows, cols, in_stride, mask, mask_rows, mask_cols, y, x, NULL);
            double g = (double)got[y * got_stride + x], e = g - want;
            if (!isfinite(e)) continue;
            sq += e * e;
            if (fabs(e) > worst) worst = fabs(e), wy = y, wx = x, worst_got = g, worst_want = want;
        }
    double norm = sqrt(sq);
    if (!(norm <= tol)) {
        if (log != NULL)
            fprintf(log,
                    "  %s: ||out - ref||_2 = %.4g > tol %.4g (largest error %.4g at [%zu][%zu]: got %.9g expected "
                    "%.9g)\n",
                    label ? label : "", norm, tol, worst, wy, wx, worst_got, worst_want);
        ++bad;
    }
    return bad;
}

size_t gk_conv2d_check_fft_sampled(const float *got, size_t got_stride, const float *in, size_t rows, size_t cols,
                                   size_t in_stride, const float *mask, size_t mask_rows, size_t mask_cols, double tol,
                                   size_t samples, uint64_t seed, const char *label, FILE *log)
{
    size_t bad = count_nonfinite2d(got, got_stride, rows, cols, label, log);
    gk_rng r;
    gk_rng_seed(&r, seed);
    double sq = 0.0;
    size_t drawn = 0;
    for (size_t k = 0; k < samples + samples; ++k) {
        size_t y, x;
        int interior = sample2d(&r, k, samples, rows, cols, &y, &x);
        double want = gk_conv2d_ref_at(in, rows, cols, in_stride, mask, mask_rows, mask_cols, y, x, NULL);
        double g = (double)got[y * got_stride + x], e = g - want;
        if (!(fabs(e) <= tol)) bad = report2(bad, label, log, y, x, g, want, tol);
        if (interior && isfinite(e)) sq += e * e, ++drawn;
    }
    return bad + estimate_exceeds((double)rows * (double)cols, sq, drawn, tol, label, log);
}

/* ---- Depthwise ------------------------------------------------------------ */

double gk_conv_dw_tolerance(size_t width, gk_conv_activation act, double mag, double y_ref)
{
    const double u = GK_F32_UNIT_ROUNDOFF;
    double tz = gk_conv_tolerance(width + 1, mag); /* gamma_(width + 3) mag */
    if (act != GK_CONV_ACT_SILU) return tz;
    return 1.1 * (1.0 + 7.0 * u) * tz + 8.0 * u * fabs(y_ref) + ldexp(1.0, -120);
}

double gk_conv_dw_ref_at(const float *in_row, size_t length, const float *mask_row, size_t width, int causal,
                         double bias, gk_conv_activation act, size_t t, double *tol)
{
    const size_t off = causal ? width - 1 : width / 2;
    double z = bias, mag = fabs(bias);
    for (size_t j = 0; j < width; ++j) {
        /* Position t - off + j, inside [0, length) only: unsigned wrap as the kernels do. */
        size_t p = t + j - off;
        if (t + j < off || p >= length) continue;
        double pr = (double)in_row[p] * (double)mask_row[j];
        z += pr;
        mag += fabs(pr);
    }
    double y = z;
    if (act == GK_CONV_ACT_RELU) y = z < 0.0 ? 0.0 : z;
    else if (act == GK_CONV_ACT_SILU) y = z / (1.0 + exp(-z));
    if (tol != NULL) *tol = gk_conv_dw_tolerance(width, act, mag, y);
    return y;
}

static size_t check_dw_at(size_t bad, const float *got, size_t out_stride, const float *in, size_t channels,
                          size_t length, size_t in_stride, const float *mask, size_t width, const float *bias,
                          int causal, gk_conv_activation act, int exact, size_t row, size_t t, const char *label,
                          FILE *log)
{
    const size_t c = row % channels;
    double tol, want = gk_conv_dw_ref_at(in + row * in_stride, length, mask + c * width, width, causal,
                                         bias ? (double)bias[c] : 0.0, act, t, &tol);
    if (exact) tol = 0.0;
    double g = (double)got[row * out_stride + t];
    if (!(isfinite(g) && fabs(g - want) <= tol)) bad = report2(bad, label, log, row, t, g, want, tol);
    return bad;
}

size_t gk_conv_dw_check(const float *got, size_t out_stride, const float *in, size_t rows, size_t channels,
                        size_t length, size_t in_stride, const float *mask, size_t width, const float *bias,
                        int causal, gk_conv_activation act, int exact, const char *label, FILE *log)
{
    size_t bad = 0;
    for (size_t row = 0; row < rows; ++row)
        for (size_t t = 0; t < length; ++t)
            bad = check_dw_at(bad, got, out_stride, in, channels, length, in_stride, mask, width, bias, causal, act,
                              exact, row, t, label, log);
    if (bad > GK_VERIFY_SHOW && log != NULL)
        fprintf(log, "  %s: %zu of %zu outputs mismatch\n", label ? label : "", bad, rows * length);
    return bad;
}

size_t gk_conv_dw_check_sampled(const float *got, size_t out_stride, const float *in, size_t rows, size_t channels,
                                size_t length, size_t in_stride, const float *mask, size_t width, const float *bias,
                                int causal, gk_conv_activation act, size_t samples, uint64_t seed,
                                const char *label, FILE *log)
{
    size_t bad = 0;
    for (size_t row = 0; row < rows; ++row)
        for (size_t t = 0; t < length; ++t)
            if (!isfinite(got[row * out_stride + t])) {
                if (log != NULL && bad < GK_VERIFY_SHOW)
                    fprintf(log, "  %s: out[%zu][%zu] is not finite\n", label ? label : "", row, t);
                ++bad;
            }
    gk_rng r;
    gk_rng_seed(&r, seed);
    const size_t edge = width + 8, nrows = samples / 64 + 1;
    for (size_t k = 0; k < nrows; ++k) { /* both ends of some rows, where the ghost cells are */
        size_t row = gk_rng_next(&r) % rows;
        for (size_t t = 0; t < length; ++t) {
            if (t == edge && length > 2 * edge) t = length - edge;
            bad = check_dw_at(bad, got, out_stride, in, channels, length, in_stride, mask, width, bias, causal, act, 0,
                              row, t, label, log);
        }
    }
    for (size_t k = 0; k < samples; ++k)
        bad = check_dw_at(bad, got, out_stride, in, channels, length, in_stride, mask, width, bias, causal, act, 0,
                          gk_rng_next(&r) % rows, gk_rng_next(&r) % length, label, log);
    return bad;
}
