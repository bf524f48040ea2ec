/* The gemm module's tables of variants, fp32 (gk_gemm) and BF16
 * (gk_gemm_bf16): the one list of each that the API, the tests, the bench and
 * the docs read. Adding a variant is a kernel file in kernels/, its entry
 * point in variants.h, and a row here.
 *
 * Each row: the public description (id, name, idea, precision, the oldest
 * compute capability it runs on), then the kernel file's function. */
#include <stddef.h>

#include "../common/module.h"
#include "variants.h"

static const gk_gemm_row table[] = {
    {{1, "naive", "one thread per element of C, threads walk down the rows: loads not coalesced", GK_GEMM_FP32, 75},
     gk_gemm_01_naive_run},
    {{2, "coalesced", "threads walk along the rows of C: B loads and C stores coalesced", GK_GEMM_FP32, 75},
     gk_gemm_02_coalesced_run},
    {{3, "smem_tiled", "32x32 tiles of A and B in shared memory: each global load used 32 times", GK_GEMM_FP32, 75},
     gk_gemm_03_smem_tiled_run},
    {{4, "1d_blocktiling", "each thread computes a column of results: one B value from shared memory feeds several",
      GK_GEMM_FP32, 75},
     gk_gemm_04_1d_blocktiling_run},
    {{5, "2d_blocktiling", "each thread computes an 8x8 tile: outer products of register fragments", GK_GEMM_FP32,
      75},
     gk_gemm_05_2d_blocktiling_run},
    {{6, "vectorized", "16-byte loads, A tile stored transposed for vector reads from shared memory", GK_GEMM_FP32,
      75},
     gk_gemm_06_vectorized_run},
    {{7, "bank_conflict_free", "shared-memory layout free of bank conflicts", GK_GEMM_FP32, 75},
     gk_gemm_07_bank_conflict_free_run},
    {{8, "warp_tiling", "a warp-level tile between block and thread: fewer shared-memory wavefronts", GK_GEMM_FP32,
      75},
     gk_gemm_08_warp_tiling_run},
    {{9, "double_buffered_cp_async", "cp.async into two shared-memory stages: loads overlap the FMAs",
      GK_GEMM_FP32, 80},
     gk_gemm_09_double_buffered_cp_async_run},
    {{10, "tuned_fp32", "multistage cp.async, large register tiles, tuned on an H100/H200", GK_GEMM_FP32, 80},
     gk_gemm_10_tuned_fp32_run},
    {{11, "tf32_mma", "TF32 tensor cores (mma.sync m16n8k8), fp32 accumulation", GK_GEMM_TF32, 80},
     gk_gemm_11_tf32_mma_run},
    {{12, "tf32_wgmma",
      "TF32 on Hopper's wgmma: TMA, a producer and two consumer warpgroups, persistent tiles; B^T from registers; "
      "sm_90a",
      GK_GEMM_TF32, 90},
     gk_gemm_12_tf32_wgmma_run},
};

/* GK_TABLE_LOOKUPS (common/module.h) defines gk_gemm_variant_count,
 * gk_gemm_variant_at, gk_gemm_row_find and gk_gemm_find_variant. */
GK_TABLE_LOOKUPS(gk_gemm, gk_gemm_row, gk_gemm_variant, table)

int gk_gemm_best_fp32_variant(void)
{
    int best = 0;
    for (size_t i = 0; i < gk_gemm_variant_count(); ++i)
        if (table[i].info.precision == GK_GEMM_FP32) best = table[i].info.id;
    return best;
}

int gk_gemm_best_variant(void) { return table[gk_gemm_variant_count() - 1].info.id; }

const char *gk_gemm_precision_name(gk_gemm_precision p)
{
    switch (p) {
    case GK_GEMM_FP32: return "fp32";
    case GK_GEMM_TF32: return "tf32";
    case GK_GEMM_BF16: return "bf16";
    default: return "?";
    }
}

/* ---- BF16 (gk_gemm_bf16) ----------------------------------------------------
 * Each row: id, name (the file is kernels/bf16_NN_name.cu), idea, precision
 * (always GK_GEMM_BF16), the oldest compute capability, the function. */
static const gk_gemm_bf16_row bf16_table[] = {
    {{1, "mma_sync", "mma.sync m16n8k16 fed by ldmatrix from swizzled tiles, multistage cp.async (the Ampere way)",
      GK_GEMM_BF16, 80},
     gk_gemm_bf16_01_mma_sync_run},
    {{2, "wgmma", "Hopper wgmma reads both tiles from shared memory (descriptors, 128-byte swizzle); sm_90a",
      GK_GEMM_BF16, 90},
     gk_gemm_bf16_02_wgmma_run},
    {{3, "tma", "the TMA loads both tiles (host-made tensor maps, 128-byte swizzle) into an mbarrier pipeline; sm_90a",
      GK_GEMM_BF16, 90},
     gk_gemm_bf16_03_tma_run},
    {{4, "warp_specialized",
      "a producer warpgroup issues the TMA, two consumer warpgroups the wgmma (mbarriers, setmaxnreg); sm_90a",
      GK_GEMM_BF16, 90},
     gk_gemm_bf16_04_warp_specialized_run},
    {{5, "persistent",
      "persistent CTAs walk grouped tiles; the TMA ring runs on across tiles, so the next tile loads during the "
      "epilogue; 2-CTA clusters multicast B; with beta = 0, C leaves through shared memory and TMA stores; sm_90a",
      GK_GEMM_BF16, 90},
     gk_gemm_bf16_05_persistent_run},
};

/* GK_TABLE_LOOKUPS (common/module.h) defines gk_gemm_bf16_variant_count,
 * gk_gemm_bf16_variant_at, gk_gemm_bf16_row_find and gk_gemm_bf16_find_variant. */
GK_TABLE_LOOKUPS(gk_gemm_bf16, gk_gemm_bf16_row, gk_gemm_variant, bf16_table)

int gk_gemm_bf16_best_variant(void) { return bf16_table[gk_gemm_bf16_variant_count() - 1].info.id; }
