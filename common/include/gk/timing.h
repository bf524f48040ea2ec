/* gk/timing.h: timing GPU work the same way everywhere (bench and tests).
 *
 * One sample = CUDA events recorded on the caller's stream just before and
 * just after one call of the function. Before each sample, when a flusher is
 * given, a buffer twice the size of the L2 cache is overwritten on the same
 * stream, outside the events, so that every sample starts with a cold L2 and
 * reads its input from DRAM ("cold" timing; pass NULL for "hot" timing).
 * Warm-up calls come first and are not counted. The result is the median,
 * min and max over the samples: the median is the number to quote.
 */
#ifndef GK_TIMING_H
#define GK_TIMING_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "gk/device.h"
#include "gk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef gk_status (*gk_timed_fn)(void *ctx, cudaStream_t stream);

typedef struct gk_timing_opts {
    int warmup;            /* untimed calls first (>= 0)                              */
    int min_iters;         /* at least this many samples (>= 1)                        */
    int max_iters;         /* at most this many samples (<= GK_TIMING_MAX_ITERS)        */
    double target_seconds; /* stop after min_iters once the samples add up to this     */
} gk_timing_opts;

#define GK_TIMING_MAX_ITERS 1000

typedef struct gk_timing {
    double median_ms, min_ms, max_ms;
    int iters;
} gk_timing;

typedef struct gk_l2_flusher {
    void *buf;
    size_t bytes;
} gk_l2_flusher;

/* Allocates 2 x L2 bytes of device memory (at least 8 MiB). */
gk_status gk_l2_flusher_create(gk_l2_flusher *f, const gk_device_info *dev);
void gk_l2_flusher_destroy(gk_l2_flusher *f);
gk_status gk_l2_flush(const gk_l2_flusher *f, cudaStream_t stream);

/* Times fn(ctx, stream) as described above. flusher may be NULL (hot). */
gk_status gk_time_gpu(gk_timed_fn fn, void *ctx, cudaStream_t stream, const gk_timing_opts *opts,
                      const gk_l2_flusher *flusher, gk_timing *out);

/* Median of v[0..n) (n >= 1); sorts v in place. Pure; tested without a GPU. */
double gk_median(double *v, int n);

#ifdef __cplusplus
}
#endif

#endif /* GK_TIMING_H */
