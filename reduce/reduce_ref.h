/* reduce_ref.h: CPU references for the reduce module (tests and bench).
 *
 * f32: accumulated in double, with the sum of absolute values alongside (the
 * tolerance of a float sum is derived from it, gk/verify.h). max/min are
 * exact. i32: sums wrap modulo 2^32 exactly as the GPU's do; max/min exact.
 * Partials follow the variant's partition (gk_partition in gk/reduce.h).
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

#ifdef __cplusplus
}
#endif

#endif /* GK_REDUCE_REF_H */
