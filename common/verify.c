/* Verification: see gk/verify.h. */
#include "gk/verify.h"

#include <math.h>

double gk_sum_tolerance(size_t n, double sum_abs, double ref)
{
    double dn = (double)n;
    return GK_SUM_LAMBDA * sqrt(dn) * GK_F32_UNIT_ROUNDOFF * sum_abs +
           GK_F32_UNIT_ROUNDOFF * fabs(ref) + dn * GK_F64_UNIT_ROUNDOFF * sum_abs;
}

size_t gk_verify_f32(const float *got, const double *expected, const double *tol, size_t n,
                     const char *label, FILE *log)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) {
        double g = (double)got[i];
        /* isfinite first: a NaN compares false with everything, so a plain
         * "diff > tol" test would let it through. */
        int ok = isfinite(g) && fabs(g - expected[i]) <= tol[i];
        if (!ok) {
            if (log != NULL && bad < GK_VERIFY_SHOW)
                fprintf(log, "  %s mismatch at [%zu]: got %.9g expected %.9g (|diff| %.3g > tol %.3g)\n",
                        label ? label : "", i, g, expected[i], fabs(g - expected[i]), tol[i]);
            ++bad;
        }
    }
    if (bad > GK_VERIFY_SHOW && log != NULL)
        fprintf(log, "  %s: %zu of %zu elements mismatch\n", label ? label : "", bad, n);
    return bad;
}

size_t gk_verify_i32(const int32_t *got, const int32_t *expected, size_t n, const char *label,
                     FILE *log)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) {
        if (got[i] != expected[i]) {
            if (log != NULL && bad < GK_VERIFY_SHOW)
                fprintf(log, "  %s mismatch at [%zu]: got %d expected %d\n", label ? label : "", i,
                        (int)got[i], (int)expected[i]);
            ++bad;
        }
    }
    if (bad > GK_VERIFY_SHOW && log != NULL)
        fprintf(log, "  %s: %zu of %zu elements mismatch\n", label ? label : "", bad, n);
    return bad;
}
