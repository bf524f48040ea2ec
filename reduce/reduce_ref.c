/* CPU references: see reduce_ref.h. */
#include "reduce_ref.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "gk/random.h"
#include "gk/verify.h"

float gk_reduce_identity_f32(gk_reduce_op op)
{
    return op == GK_REDUCE_SUM ? 0.0f : op == GK_REDUCE_MAX ? -INFINITY : INFINITY;
}

int32_t gk_reduce_identity_i32(gk_reduce_op op)
{
    return op == GK_REDUCE_SUM ? 0 : op == GK_REDUCE_MAX ? INT32_MIN : INT32_MAX;
}

static void acc_f32(gk_ref_f32 *r, float x, gk_reduce_op op)
{
    double d = (double)x;
    if (op == GK_REDUCE_SUM) r->value += d;
    else if (op == GK_REDUCE_MAX) r->value = fmax(r->value, d);
    else r->value = fmin(r->value, d);
    r->sum_abs += fabs(d);
    r->count++;
}

static int32_t acc_i32(int32_t a, int32_t x, gk_reduce_op op)
{
    if (op == GK_REDUCE_SUM) return (int32_t)((uint32_t)a + (uint32_t)x); /* modulo 2^32 */
    if (op == GK_REDUCE_MAX) return x > a ? x : a;
    return x < a ? x : a;
}

static gk_ref_f32 ref_f32_init(gk_reduce_op op)
{
    gk_ref_f32 r = {(double)gk_reduce_identity_f32(op), 0.0, 0};
    return r;
}

gk_ref_f32 gk_reduce_ref_f32(const float *x, size_t n, gk_reduce_op op)
{
    gk_ref_f32 r = ref_f32_init(op);
    for (size_t i = 0; i < n; ++i) acc_f32(&r, x[i], op);
    return r;
}

int32_t gk_reduce_ref_i32(const int32_t *x, size_t n, gk_reduce_op op)
{
    int32_t a = gk_reduce_identity_i32(op);
    for (size_t i = 0; i < n; ++i) a = acc_i32(a, x[i], op);
    return a;
}

/* Which block element i belongs to. */
static size_t owner(size_t i, gk_partition p, size_t tile, size_t m)
{
    return p == GK_PARTITION_CHUNKED ? i / tile : (i / tile) % m;
}

void gk_reduce_ref_partials_f32(const float *x, size_t n, gk_partition p, size_t tile, size_t m,
                                gk_reduce_op op, gk_ref_f32 *out)
{
    for (size_t b = 0; b < m; ++b) out[b] = ref_f32_init(op);
    for (size_t i = 0; i < n; ++i) acc_f32(&out[owner(i, p, tile, m)], x[i], op);
}

void gk_reduce_ref_partials_i32(const int32_t *x, size_t n, gk_partition p, size_t tile, size_t m,
                                gk_reduce_op op, int32_t *out)
{
    for (size_t b = 0; b < m; ++b) out[b] = gk_reduce_identity_i32(op);
    for (size_t i = 0; i < n; ++i) {
        size_t b = owner(i, p, tile, m);
        out[b] = acc_i32(out[b], x[i], op);
    }
}

int gk_reduce_check_result(gk_dtype dtype, gk_reduce_op op, size_t n, const void *got, const gk_ref_f32 *ref_f32,
                           int32_t ref_i32, const char *label, FILE *log)
{
    if (dtype == GK_F32) {
        float g;
        memcpy(&g, got, sizeof g);
        if (n == 0) {
            float id = gk_reduce_identity_f32(op);
            int ok = memcmp(&g, &id, sizeof g) == 0;
            if (!ok && log != NULL) fprintf(log, "  %s: got %g, expected the identity %g\n", label, g, id);
            return ok;
        }
        double tol = op == GK_REDUCE_SUM ? gk_sum_tolerance(n, ref_f32->sum_abs, ref_f32->value) : 0.0;
        return gk_verify_f32(&g, &ref_f32->value, &tol, 1, label, log) == 0;
    }
    int32_t g;
    memcpy(&g, got, sizeof g);
    return gk_verify_i32(&g, &ref_i32, 1, label, log) == 0;
}

/* ---- Every type and form ------------------------------------------------- */

static int is_float_type(gk_dtype dt) { return dt == GK_F32 || dt == GK_F64 || dt == GK_F16 || dt == GK_BF16; }

static double half_to_double(uint16_t h)
{
    int sign = h >> 15, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v;
    if (e == 0x1f) v = m ? NAN : INFINITY;
    else if (e == 0) v = ldexp((double)m, -24); /* subnormal: m * 2^-24 */
    else v = ldexp((double)(m | 0x400), e - 25);
    return sign ? -v : v;
}

static uint16_t double_to_half_exact(double v)
{
    if (isnan(v)) return 0x7e00;
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    double a = fabs(v);
    if (isinf(a)) return sign | 0x7c00;
    if (a == 0.0) return sign;
    int e;
    double f = frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) */
    if (e - 1 > 15) return sign | 0x7c00;                   /* beyond 65504: inf */
    if (e - 1 < -14) return sign | (uint16_t)ldexp(a, 24); /* subnormal */
    uint16_t m = (uint16_t)(ldexp(f, 11) - 1024.0);       /* 10 bits below the leading 1 */
    return sign | (uint16_t)((e - 1 + 15) << 10) | m;
}

double gk_reduce_elem_f64(gk_dtype dt, const void *x, size_t i)
{
    switch (dt) {
    case GK_F32: return (double)((const float *)x)[i];
    case GK_F64: return ((const double *)x)[i];
    case GK_F16: return half_to_double(((const uint16_t *)x)[i]);
    case GK_BF16: {
        uint32_t b = (uint32_t)((const uint16_t *)x)[i] << 16;
        float f;
        memcpy(&f, &b, sizeof f);
        return (double)f;
    }
    default: return (double)gk_reduce_elem_i64(dt, x, i);
    }
}

int64_t gk_reduce_elem_i64(gk_dtype dt, const void *x, size_t i)
{
    switch (dt) {
    case GK_I32: return ((const int32_t *)x)[i];
    case GK_U32: return (int64_t)((const uint32_t *)x)[i];
    case GK_I64: return ((const int64_t *)x)[i];
    default: return 0;
    }
}

void gk_reduce_store(gk_dtype dt, void *x, size_t i, double v)
{
    switch (dt) {
    case GK_F32: ((float *)x)[i] = (float)v; break;
    case GK_F64: ((double *)x)[i] = v; break;
    case GK_F16: ((uint16_t *)x)[i] = double_to_half_exact(v); break;
    case GK_BF16: {
        float f = (float)v;
        uint32_t b;
        memcpy(&b, &f, sizeof b);
        ((uint16_t *)x)[i] = (uint16_t)(b >> 16); /* exact for values with 8 significant bits */
        break;
    }
    case GK_I32: ((int32_t *)x)[i] = (int32_t)v; break;
    case GK_U32: ((uint32_t *)x)[i] = (uint32_t)v; break;
    case GK_I64: ((int64_t *)x)[i] = (int64_t)v; break;
    default: break;
    }
}

/* The integer identity and wrap of each type, as int64 (u32 zero-extended). */
static int64_t wrap_int(gk_dtype dt, uint64_t v)
{
    if (dt == GK_I32) return (int32_t)(uint32_t)v;
    if (dt == GK_U32) return (int64_t)(uint32_t)v;
    return (int64_t)v;
}

static int64_t int_identity(gk_dtype dt, gk_reduce_op op)
{
    if (op == GK_REDUCE_SUM) return 0;
    if (dt == GK_I32) return op == GK_REDUCE_MAX ? INT32_MIN : INT32_MAX;
    if (dt == GK_U32) return op == GK_REDUCE_MAX ? 0 : (int64_t)UINT32_MAX;
    return op == GK_REDUCE_MAX ? INT64_MIN : INT64_MAX;
}

/* rank(a, b) > 0 when a beats b for arg-max (max = 1) or arg-min: a NaN
 * beats every number, NaNs tie. */
static int rank(double a, double b, int max)
{
    int an = isnan(a), bn = isnan(b);
    if (an || bn) return an - bn;
    return max ? (a > b) - (a < b) : (a < b) - (a > b);
}

gk_ref_value gk_reduce_ref_typed(gk_dtype dt, gk_reduce_op op, int arg, const void *x, size_t n)
{
    gk_ref_value r = {0.0, 0, 0.0, n, SIZE_MAX};
    int max = op == GK_REDUCE_MAX;
    if (is_float_type(dt)) {
        double sum = 0.0, comp = 0.0;
        r.f = op == GK_REDUCE_SUM ? 0.0 : max ? -INFINITY : INFINITY;
        for (size_t i = 0; i < n; ++i) {
            double v = gk_reduce_elem_f64(dt, x, i);
            r.sum_abs += fabs(v);
            if (op == GK_REDUCE_SUM) { /* Neumaier: comp collects the low bits each add loses */
                double t = sum + v;
                comp += fabs(sum) >= fabs(v) ? (sum - t) + v : (v - t) + sum;
                sum = t;
            } else if (arg) {
                if (r.index == SIZE_MAX || rank(v, r.f, max) > 0) r.f = v, r.index = i;
            } else {
                r.f = max ? fmax(r.f, v) : fmin(r.f, v);
            }
        }
        if (op == GK_REDUCE_SUM) r.f = sum + comp;
        return r;
    }
    uint64_t s = 0;
    r.i = int_identity(dt, op);
    for (size_t i = 0; i < n; ++i) {
        int64_t v = gk_reduce_elem_i64(dt, x, i);
        if (op == GK_REDUCE_SUM) s += (uint64_t)v;
        else if (arg ? (r.index == SIZE_MAX || (max ? v > r.i : v < r.i)) : (max ? v > r.i : v < r.i)) {
            r.i = v;
            if (arg) r.index = i;
        }
    }
    /* The identity ties with an element equal to it: that element is still the answer. */
    if (arg && n > 0 && r.index == SIZE_MAX) r.index = 0;
    if (op == GK_REDUCE_SUM) r.i = wrap_int(dt, s);
    return r;
}

double gk_reduce_tolerance_f64(size_t n, double sum_abs, double ref)
{
    double dn = (double)n, u = GK_F64_UNIT_ROUNDOFF;
    return GK_SUM_LAMBDA * sqrt(dn) * u * sum_abs + 3.0 * u * fabs(ref) + 4.0 * dn * u * u * sum_abs;
}

int gk_reduce_check_typed(gk_dtype dt, gk_reduce_op op, int arg, const void *got_value, size_t got_index,
                          const gk_ref_value *ref, const char *label, FILE *log)
{
    int ok;
    char got_s[48], exp_s[48];
    if (is_float_type(dt)) {
        double g;
        if (gk_reduce_result_dtype(dt) == GK_F64) memcpy(&g, got_value, sizeof g);
        else {
            float f;
            memcpy(&f, got_value, sizeof f);
            g = (double)f;
        }
        if (op == GK_REDUCE_SUM && ref->count > 0) {
            double tol = gk_reduce_result_dtype(dt) == GK_F64 ? gk_reduce_tolerance_f64(ref->count, ref->sum_abs, ref->f)
                                                              : gk_sum_tolerance(ref->count, ref->sum_abs, ref->f);
            ok = isfinite(g) && fabs(g - ref->f) <= tol;
        } else if (isnan(ref->f)) {
            ok = isnan(g); /* max/min of all-NaN, or an arg answer that is a NaN */
        } else {
            ok = g == ref->f && !isnan(g); /* exact; -inf == -inf for the identity */
            if (op == GK_REDUCE_SUM) ok = ok && !signbit(g); /* the empty sum is +0 */
        }
        snprintf(got_s, sizeof got_s, "%.17g", g);
        snprintf(exp_s, sizeof exp_s, "%.17g", ref->f);
    } else {
        int64_t g;
        if (dt == GK_I64) memcpy(&g, got_value, sizeof g);
        else if (dt == GK_U32) {
            uint32_t u;
            memcpy(&u, got_value, sizeof u);
            g = (int64_t)u;
        } else {
            int32_t v;
            memcpy(&v, got_value, sizeof v);
            g = v;
        }
        ok = g == ref->i;
        snprintf(got_s, sizeof got_s, "%lld", (long long)g);
        snprintf(exp_s, sizeof exp_s, "%lld", (long long)ref->i);
    }
    int index_ok = !arg || got_index == ref->index;
    if ((!ok || !index_ok) && log != NULL) {
        if (arg)
            fprintf(log, "  %s: got %s at index %zu, expected %s at index %zu (n = %zu)\n", label, got_s, got_index,
                    exp_s, ref->index, ref->count);
        else
            fprintf(log, "  %s: got %s, expected %s (n = %zu)\n", label, got_s, exp_s, ref->count);
    }
    return ok && index_ok;
}

void gk_reduce_fill(gk_dtype dt, void *x, size_t n, uint64_t seed)
{
    gk_rng r;
    gk_rng_seed(&r, seed);
    for (size_t i = 0; i < n; ++i) {
        uint64_t b = gk_rng_next(&r);
        switch (dt) {
        case GK_F32: ((float *)x)[i] = (float)((double)(b >> 40) / 8388608.0 - 1.0); break; /* 24-bit grid */
        case GK_F64: ((double *)x)[i] = (double)(b >> 11) / 4503599627370496.0 - 1.0; break; /* 2^52 */
        case GK_F16: gk_reduce_store(dt, x, i, (double)((int64_t)(b % 2049) - 1024) / 1024.0); break;
        case GK_BF16: gk_reduce_store(dt, x, i, (double)((int64_t)(b % 257) - 128) / 128.0); break;
        case GK_I32: ((int32_t *)x)[i] = (int32_t)(b % 2097153) - 1048576; break;
        case GK_U32: ((uint32_t *)x)[i] = (uint32_t)(b >> 32); break;
        case GK_I64: ((int64_t *)x)[i] = (int64_t)b; break;
        default: break;
        }
    }
}
