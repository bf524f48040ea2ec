/* CPU references: see reduce_ref.h. */
#include "reduce_ref.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

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
