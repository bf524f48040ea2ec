/* reduce_ref.h: CPU references for the reduce module (tests and bench).
 *
 * f32: accumulated in double, with the sum of absolute values alongside (the
 * tolerance of a float sum is derived from it, gk/verify.h). max/min are
 * exact. i32: sums wrap modulo 2^32 exactly as the GPU's do; max/min exact.
 * Partials follow the variant's partition (gk_partition in gk/reduce.h).
 *
 * Every type (gk_reduce_ref_typed): floating inputs (f16, bf16, f32, f64)
 * read exactly into double and summed with Neumaier's compensated summation
 * (an error of about 2 u64 |sum| + n u64^2 sum|x|, far below what the GPU's
 * f32 or f64 sum may make); max/min/arg exact; integers exact, wrapping to
 * the type's width as the GPU's sums do.
 */
#ifndef GK_REDUCE_REF_H
#define GK_REDUCE_REF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gk/reduce.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gk_ref_f32 {
    double value;   /* the exact-ish result, in double */
    double sum_abs; /* sum of |x| over the elements reduced */
    size_t count;   /* how many elements */
} gk_ref_f32;

float gk_reduce_identity_f32(gk_reduce_op op);
int32_t gk_reduce_identity_i32(gk_reduce_op op);

gk_ref_f32 gk_reduce_ref_f32(const float *x, size_t n, gk_reduce_op op);
int32_t gk_reduce_ref_i32(const int32_t *x, size_t n, gk_reduce_op op);

/* Per-block references for m blocks under a partition with tile `tile`.
 * out[b] for b < m. */
void gk_reduce_ref_partials_f32(const float *x, size_t n, gk_partition p, size_t tile, size_t m,
                                gk_reduce_op op, gk_ref_f32 *out);
void gk_reduce_ref_partials_i32(const int32_t *x, size_t n, gk_partition p, size_t tile, size_t m,
                                gk_reduce_op op, int32_t *out);

/* Does the 4-byte GPU result `got` (a float or an int32, by dtype) match the
 * reference of the n elements? f32 sums within gk_sum_tolerance(n, sum|x|),
 * everything else exactly; for n = 0 the identity, bit for bit (the max of
 * nothing is -inf, which an ordinary float check would reject). A mismatch is
 * printed to `log` with `label`. Returns 1 on a match. */
int gk_reduce_check_result(gk_dtype dtype, gk_reduce_op op, size_t n, const void *got, const gk_ref_f32 *ref_f32,
                           int32_t ref_i32, const char *label, FILE *log);

/* ---- Every type and form (variants 13-15) ------------------------------- */

/* The reference result of one reduction. */
typedef struct gk_ref_value {
    double f;       /* floating types: the result (sum: compensated, in double) */
    int64_t i;      /* integer types: the exact result, wrapped to the type's width
                       (i32, i64 sign-extended; u32 zero-extended)               */
    double sum_abs; /* sum of |x| (floating types)                               */
    size_t count;   /* elements reduced                                          */
    size_t index;   /* arg forms: index of the first extremum; SIZE_MAX if none  */
} gk_ref_value;

/* Element i of x (of type dt) as a double; exact for every type but i64
 * beyond 2^53 (used only for floating types). f16 and bf16 decoded by hand. */
double gk_reduce_elem_f64(gk_dtype dt, const void *x, size_t i);
/* Element i of an integer array, sign- or zero-extended. */
int64_t gk_reduce_elem_i64(gk_dtype dt, const void *x, size_t i);

/* Reduce x[0..n) of type dt with op; arg != 0 for arg-max / arg-min (op MAX
 * or MIN: gk_reduce_arg's rule: a NaN beats every number, the first index
 * wins a tie). */
gk_ref_value gk_reduce_ref_typed(gk_dtype dt, gk_reduce_op op, int arg, const void *x, size_t n);

/* Does the GPU's result (value at got_value, of gk_reduce_result_dtype(dt);
 * got_index when arg) match ref? Sums: f32 results (f32, f16, bf16) within
 * gk_sum_tolerance; f64 within gk_reduce_tolerance_f64; integers exact.
 * max/min and arg exactly (the value bit for bit, NaN matching NaN only in
 * the arg forms, where a NaN is a legal answer; +0 and -0 equal). A mismatch
 * is printed to `log` with `label`. Returns 1 on a match. */
int gk_reduce_check_typed(gk_dtype dt, gk_reduce_op op, int arg, const void *got_value, size_t got_index,
                          const gk_ref_value *ref, const char *label, FILE *log);

/* Tolerance of an f64 sum of n terms against the compensated reference:
 * lambda sqrt(n) u64 sum|x| (Higham and Mary's probabilistic bound, as
 * gk_sum_tolerance) + 3 u64 |ref| (rounding the result, the reference's
 * 2 u64 |sum|) + 4 n u64^2 sum|x| (the reference's second-order term). */
double gk_reduce_tolerance_f64(size_t n, double sum_abs, double ref);

/* Fresh random data of type dt for tests and the bench: floats in [-1, 1]
 * (f16 as k/1024, bf16 as k/128: exact in their types; f64 with all 53
 * bits random); i32 in [-2^20, 2^20]; u32 and i64 over their whole range
 * (so that sums wrap). */
void gk_reduce_fill(gk_dtype dt, void *x, size_t n, uint64_t seed);
/* Store the double v (representable in dt) as element i. */
void gk_reduce_store(gk_dtype dt, void *x, size_t i, double v);

#ifdef __cplusplus
}
#endif

#endif /* GK_REDUCE_REF_H */
