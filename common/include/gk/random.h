/* gk/random.h: seeded input generators for tests and the bench.
 *
 * A splitmix64 stream: the same seed gives the same data on every machine.
 * The generators never produce 0: an all-zero or zero-rich input hides
 * unwritten outputs and wrong indexing.
 */
#ifndef GK_RANDOM_H
#define GK_RANDOM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gk_rng {
    uint64_t state;
} gk_rng;

void gk_rng_seed(gk_rng *r, uint64_t seed);
uint64_t gk_rng_next(gk_rng *r);

/* Uniform in [lo, hi) with exact zeros redrawn. Requires lo < hi. */
void gk_fill_f32(float *x, size_t n, uint64_t seed, float lo, float hi);
/* Uniform in [lo, hi] with zeros redrawn. Requires lo <= hi and not lo == hi == 0. */
void gk_fill_i32(int32_t *x, size_t n, uint64_t seed, int32_t lo, int32_t hi);

#ifdef __cplusplus
}
#endif

#endif /* GK_RANDOM_H */
