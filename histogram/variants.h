/* variants.h: the histogram module's internals (not installed).
 *
 * The kernel files' entry points, written out (grep finds each one), and the
 * table that joins each public description (gk_histogram_variant,
 * gk/histogram.h) to its functions. Only histogram.c calls them, after
 * checking every argument.
 */
#ifndef GK_HISTOGRAM_VARIANTS_H
#define GK_HISTOGRAM_VARIANTS_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#include "gk/histogram.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What each kernel file exports (extern "C", histogram/kernels/NN_name.cu):
 *   workspace(n, bins, dtype)  bytes of scratch the call needs (may be 0)
 *   run(...)                   zero counts, then count in[0..n) into them on
 *                              `stream`; dtype 2 = u8, 3 = u32 (gk_dtype).
 * Both assume gk_histogram() checked the arguments: dtype u8 or u32,
 * 1 <= bins <= 2^24 (<= 256 for u8), counts non-NULL and 8-byte aligned, in
 * non-NULL when n > 0, a workspace of workspace() bytes, 16-byte aligned and
 * not initialised. The types are function types, so that each entry point
 * below is declared by its type and its full name. */
typedef size_t gk_histogram_workspace_fn(size_t n, size_t bins, int dtype);
typedef cudaError_t gk_histogram_run_fn(const void *in, size_t n, int dtype, size_t bins, unsigned long long *counts,
                                        void *workspace, cudaStream_t stream);

/* The entry points of the variants that take gk_histogram_ex (8 and up):
 *   workspace_ex(dtype, channels, bins[c], levels[c])  scratch bytes (only
 *       whether levels[c] is NULL is read)
 *   run_ex(...)  zero each counted channel's counts, then count the region
 *       into them on `stream`. levels[c]: the caller's host levels (copied
 *       into the workspace on `stream`), NULL for even bins over
 *       [lower[c], upper[c]); bins[c] == 0: channel c not counted.
 * Both assume gk_histogram_ex() checked every argument (gk/histogram.h). */
typedef size_t gk_histogram_workspace_ex_fn(int dtype, int channels, const size_t *bins,
                                            const double *const *levels);
typedef cudaError_t gk_histogram_run_ex_fn(int dtype, const void *in, int channels, size_t rows, size_t row_pixels,
                                           size_t row_stride, const size_t *bins, const double *lower,
                                           const double *upper, const double *const *levels,
                                           unsigned long long *const *counts, void *workspace,
                                           cudaStream_t stream);

/* A row has workspace and run (gk_histogram's form, variants 1-7),
 * workspace_ex and run_ex (every form, variants 8 and 9: gk_histogram's
 * form is run as even bins over [0, bins), the other pair NULL), or both
 * (variant 10: gk_histogram's form through workspace and run, which are
 * variant 7's, every other form through workspace_ex and run_ex). */
typedef struct gk_histogram_row {
    gk_histogram_variant info; /* what gk_histogram_variant_at() shows */
    gk_histogram_workspace_fn *workspace;
    gk_histogram_run_fn *run;
    gk_histogram_workspace_ex_fn *workspace_ex;
    gk_histogram_run_ex_fn *run_ex;
} gk_histogram_row;

/* The row of variant `id`, NULL when there is none. */
const gk_histogram_row *gk_histogram_row_find(int id);

/* The kernel files' entry points. */
gk_histogram_workspace_fn gk_histogram_01_global_atomics_workspace;
gk_histogram_run_fn gk_histogram_01_global_atomics_run;
gk_histogram_workspace_fn gk_histogram_02_privatized_workspace;
gk_histogram_run_fn gk_histogram_02_privatized_run;
gk_histogram_workspace_fn gk_histogram_03_coarsened_contiguous_workspace;
gk_histogram_run_fn gk_histogram_03_coarsened_contiguous_run;
gk_histogram_workspace_fn gk_histogram_04_coarsened_interleaved_workspace;
gk_histogram_run_fn gk_histogram_04_coarsened_interleaved_run;
gk_histogram_workspace_fn gk_histogram_05_warp_aggregated_workspace;
gk_histogram_run_fn gk_histogram_05_warp_aggregated_run;
gk_histogram_workspace_fn gk_histogram_06_replicated_workspace;
gk_histogram_run_fn gk_histogram_06_replicated_run;
gk_histogram_workspace_fn gk_histogram_07_tuned_workspace;
gk_histogram_run_fn gk_histogram_07_tuned_run;
gk_histogram_workspace_ex_fn gk_histogram_08_float_bins_workspace_ex;
gk_histogram_run_ex_fn gk_histogram_08_float_bins_run_ex;
gk_histogram_workspace_ex_fn gk_histogram_09_levels_search_workspace_ex;
gk_histogram_run_ex_fn gk_histogram_09_levels_search_run_ex;
gk_histogram_workspace_ex_fn gk_histogram_10_vector_rows_workspace_ex;
gk_histogram_run_ex_fn gk_histogram_10_vector_rows_run_ex;
gk_histogram_workspace_ex_fn gk_histogram_11_guarded_cells_workspace_ex;
gk_histogram_run_ex_fn gk_histogram_11_guarded_cells_run_ex;

#ifdef __cplusplus
}
#endif

#endif /* GK_HISTOGRAM_VARIANTS_H */
