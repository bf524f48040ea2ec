/* The histogram module's table of variants: the one list that the API, the
 * tests, the bench and the docs read. Adding a variant is a kernel file in
 * kernels/, its entry points in variants.h, and a row here. */
#include <stddef.h>

#include "../common/module.h"
#include "variants.h"

#define INT GK_HISTOGRAM_FORM_INT
#define ALL                                                                                                   \
    (GK_HISTOGRAM_FORM_INT | GK_HISTOGRAM_FORM_EVEN | GK_HISTOGRAM_FORM_RANGE | GK_HISTOGRAM_FORM_CHANNELS |    \
     GK_HISTOGRAM_FORM_ROWS)

static const gk_histogram_row table[] = {
    {{1, "global_atomics", "one 64-bit global atomicAdd per sample, grid-stride loop", INT},
     gk_histogram_01_global_atomics_workspace, gk_histogram_01_global_atomics_run, NULL, NULL},
    {{2, "privatized", "a shared-memory sub-histogram per block, merged with global atomics", INT},
     gk_histogram_02_privatized_workspace, gk_histogram_02_privatized_run, NULL, NULL},
    {{3, "coarsened_contiguous", "resident grid, each thread a contiguous chunk: one merge per block (uncoalesced)", INT},
     gk_histogram_03_coarsened_contiguous_workspace, gk_histogram_03_coarsened_contiguous_run, NULL, NULL},
    {{4, "coarsened_interleaved", "resident grid, grid-stride loop: coalesced loads, one merge per block", INT},
     gk_histogram_04_coarsened_interleaved_workspace, gk_histogram_04_coarsened_interleaved_run, NULL, NULL},
    {{5, "warp_aggregated", "one shared atomic per group of equal values in a warp (__match_any_sync)", INT},
     gk_histogram_05_warp_aggregated_workspace, gk_histogram_05_warp_aggregated_run, NULL, NULL},
    {{6, "replicated", "several sub-histograms per block, one per group of warps: less contention", INT},
     gk_histogram_06_replicated_workspace, gk_histogram_06_replicated_run, NULL, NULL},
    {{7, "tuned", "16-byte loads, 32 lane replicas (<= 512 bins), one-copy slices in <= 8 passes, global beyond", INT},
     gk_histogram_07_tuned_workspace, gk_histogram_07_tuned_run, NULL, NULL},
    {{8, "float_bins", "bins of any sample type: a float estimate checked against exact boundaries, no division", ALL},
     NULL, NULL, gk_histogram_08_float_bins_workspace_ex, gk_histogram_08_float_bins_run_ex},
    {{9, "levels_search", "boundaries staged in shared memory, branch-free binary search (binary lifting)", ALL},
     NULL, NULL, gk_histogram_09_levels_search_workspace_ex, gk_histogram_09_levels_search_run_ex},
    /* gk_histogram's integer form: variant 7's entry points (variant 10's kernel file says why). */
    {{10, "vector_rows", "16-byte loads split into channels, rows walked piece by piece, u8 by table; int form: 7's", ALL},
     gk_histogram_07_tuned_workspace, gk_histogram_07_tuned_run, gk_histogram_10_vector_rows_workspace_ex,
     gk_histogram_10_vector_rows_run_ex},
    {{11, "guarded_cells", "even bins by a guarded estimate (no load), levels by equal cells, 2^p bins by a shift; int form: 7's", ALL},
     gk_histogram_07_tuned_workspace, gk_histogram_07_tuned_run, gk_histogram_11_guarded_cells_workspace_ex,
     gk_histogram_11_guarded_cells_run_ex},
};

/* GK_TABLE_LOOKUPS (common/module.h) defines gk_histogram_variant_count,
 * gk_histogram_variant_at, gk_histogram_row_find and gk_histogram_find_variant. */
GK_TABLE_LOOKUPS(gk_histogram, gk_histogram_row, gk_histogram_variant, table)

int gk_histogram_best_variant(void) { return table[gk_histogram_variant_count() - 1].info.id; }
