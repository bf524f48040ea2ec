/* The histogram module's table of variants: the one list that the API, the
 * tests, the bench and the docs read. Adding a variant is a kernel file in
 * kernels/, its entry points in variants.h, and a row here. */
#include <stddef.h>

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

#define COUNT (sizeof table / sizeof table[0])

size_t gk_histogram_variant_count(void) { return COUNT; }

const gk_histogram_variant *gk_histogram_variant_at(size_t index)
{
    return index < COUNT ? &table[index].info : NULL;
}

const gk_histogram_row *gk_histogram_row_find(int id)
{
    for (size_t i = 0; i < COUNT; ++i)
        if (table[i].info.id == id) return &table[i];
    return NULL;
}

const gk_histogram_variant *gk_histogram_find_variant(int id)
{
    const gk_histogram_row *r = gk_histogram_row_find(id);
    return r ? &r->info : NULL;
}

int gk_histogram_best_variant(void) { return table[COUNT - 1].info.id; }
