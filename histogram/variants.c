/* The histogram module's table of variants: the one list that the API, the
 * tests, the bench and the docs read. Adding a variant is a kernel file in
 * kernels/, its entry points in variants.h, and a row here. */
#include <stddef.h>

#include "../common/module.h"
#include "variants.h"

static const gk_histogram_row table[] = {
    {{1, "global_atomics", "one 64-bit global atomicAdd per sample, grid-stride loop"},
     gk_histogram_01_global_atomics_workspace, gk_histogram_01_global_atomics_run},
    {{2, "privatized", "a shared-memory sub-histogram per block, merged with global atomics"},
     gk_histogram_02_privatized_workspace, gk_histogram_02_privatized_run},
    {{3, "coarsened_contiguous", "resident grid, each thread a contiguous chunk: one merge per block (uncoalesced)"},
     gk_histogram_03_coarsened_contiguous_workspace, gk_histogram_03_coarsened_contiguous_run},
    {{4, "coarsened_interleaved", "resident grid, grid-stride loop: coalesced loads, one merge per block"},
     gk_histogram_04_coarsened_interleaved_workspace, gk_histogram_04_coarsened_interleaved_run},
    {{5, "warp_aggregated", "one shared atomic per group of equal values in a warp (__match_any_sync)"},
     gk_histogram_05_warp_aggregated_workspace, gk_histogram_05_warp_aggregated_run},
    {{6, "replicated", "several sub-histograms per block, one per group of warps: less contention"},
     gk_histogram_06_replicated_workspace, gk_histogram_06_replicated_run},
    {{7, "tuned", "16-byte loads, 32 lane replicas (<= 512 bins), one-copy slices in <= 8 passes, global beyond"},
     gk_histogram_07_tuned_workspace, gk_histogram_07_tuned_run},
};

/* GK_TABLE_LOOKUPS (common/module.h) defines gk_histogram_variant_count,
 * gk_histogram_variant_at, gk_histogram_row_find and gk_histogram_find_variant. */
GK_TABLE_LOOKUPS(gk_histogram, gk_histogram_row, gk_histogram_variant, table)

int gk_histogram_best_variant(void) { return table[gk_histogram_variant_count() - 1].info.id; }
