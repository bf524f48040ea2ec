/* Seeded generators: see gk/random.h. */
#include "gk/random.h"

void gk_rng_seed(gk_rng *r, uint64_t seed) { r->state = seed; }

uint64_t gk_rng_next(gk_rng *r)
{
    /* splitmix64 (Steele, Lea, Flood 2014). */
    uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void gk_fill_f32(float *x, size_t n, uint64_t seed, float lo, float hi)
{
    gk_rng r;
    gk_rng_seed(&r, seed);
    for (size_t i = 0; i < n; ++i) {
        float v;
        do {
            /* 24 random bits: every value is an exact float in [0, 1). */
            float u = (float)(gk_rng_next(&r) >> 40) * (1.0f / 16777216.0f);
            v = lo + (hi - lo) * u;
        } while (v == 0.0f);
        x[i] = v;
    }
}

void gk_fill_i32(int32_t *x, size_t n, uint64_t seed, int32_t lo, int32_t hi)
{
    gk_rng r;
    gk_rng_seed(&r, seed);
    uint64_t span = (uint64_t)((int64_t)hi - (int64_t)lo) + 1;
    for (size_t i = 0; i < n; ++i) {
        int32_t v;
        do {
            v = (int32_t)((int64_t)lo + (int64_t)(gk_rng_next(&r) % span));
        } while (v == 0);
        x[i] = v;
    }
}
