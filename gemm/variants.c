/* The gemm module's table of variants: the one list that the API
 * (gk_gemm, gk_gemm_bf16, gk_gemm_ex), the tests, the bench and the docs
 * read, one id per kernel everywhere. Adding a variant is a kernel file in
 * kernels/, its entry point in variants.h, and a row here.
 *
 * Each row: the public description (id, name, idea, precision, the oldest
 * compute capability it runs on, the element types it stores, whether it
 * takes every option of gk_gemm_ex), then the kernel file's functions (run
 * for fp32 storage, run16 for 16-bit storage, run_ex where extended, scratch
 * where run_ex needs a workspace; run_fp8 and scratch_fp8 for FP8 inputs).
 * Ids 1-12 store fp32 (kernels/NN_name.cu), ids 13-17 16-bit types
 * (kernels/bf16_NN_name.cu: id 12 + NN), id 18 multiplies FP8 inputs
 * (kernels/fp8_NN_name.cu: id 17 + NN), id 19 serves skinny 16-bit
 * products (kernels/skinny_NN_name.cu: id 18 + NN), ids 20 and 21 tiny and
 * mid-size 16-bit products (kernels/small_NN_name.cu: id 19 + NN; both
 * take fp32 too: 20 in fp32, 21 on TF32, the row's f32), and 22 mid-size
 * fp32 products in fp32. */
#include <stddef.h>

#include "../common/module.h"
#include "variants.h"

static const gk_gemm_row table[] = {
    {{1, "naive", "one thread per element of C, threads walk down the rows: loads not coalesced", GK_GEMM_FP32, 75, GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32), 0},
     gk_gemm_01_naive_run, NULL, NULL, NULL, NULL, NULL, NULL, GK_GEMM_FP32},
    {{2, "coalesced", "threads walk along the rows of C: B loads and C stores coalesced", GK_GEMM_FP32, 75, GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32), 0},
     gk_gemm_02_coalesced_run, NULL, NULL, NULL, NULL, NULL, NULL, GK_GEMM_FP32},
    {{3, "smem_tiled", "32x32 tiles of A and B in shared memory: each global load used 32 times", GK_GEMM_FP32, 75, GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32), 0},
     gk_gemm_03_smem_tiled_run, NULL, NULL, NULL, NULL, NULL, NULL, GK_GEMM_FP32},
    {{4, "1d_blocktiling", "each thread computes a column of results: one B value from shared memory feeds several",
      GK_GEMM_FP32, 75, GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32), 0},
     gk_gemm_04_1d_blocktiling_run, NULL, NULL, NULL, NULL, NULL, NULL, GK_GEMM_FP32},
    {{5, "2d_blocktiling", "each thread computes an 8x8 tile: outer products of register fragments", GK_GEMM_FP32,
      75, GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32), 0},
     gk_gemm_05_2d_blocktiling_run, NULL, NULL, NULL, NULL, NULL, NULL, GK_GEMM_FP32},
    {{6, "vectorized", "16-byte loads, A tile stored transposed for vector reads from shared memory", GK_GEMM_FP32,
      75, GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32), 0},
     gk_gemm_06_vectorized_run, NULL, NULL, NULL, NULL, NULL, NULL, GK_GEMM_FP32},
    {{7, "bank_conflict_free", "shared-memory layout free of bank conflicts", GK_GEMM_FP32, 75, GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32), 0},
     gk_gemm_07_bank_conflict_free_run, NULL, NULL, NULL, NULL, NULL, NULL, GK_GEMM_FP32},
    {{8, "warp_tiling", "a warp-level tile between block and thread: fewer shared-memory wavefronts", GK_GEMM_FP32,
      75, GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32), 0},
     gk_gemm_08_warp_tiling_run, NULL, NULL, NULL, NULL, NULL, NULL, GK_GEMM_FP32},
    {{9, "double_buffered_cp_async", "cp.async into two shared-memory stages: loads overlap the FMAs",
      GK_GEMM_FP32, 80, GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32), 0},
     gk_gemm_09_double_buffered_cp_async_run, NULL, NULL, NULL, NULL, NULL, NULL, GK_GEMM_FP32},
    {{10, "tuned_fp32", "multistage cp.async, large register tiles, tuned on an H100/H200", GK_GEMM_FP32, 80,
      GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32), 1},
     gk_gemm_10_tuned_fp32_run, NULL, gk_gemm_10_tuned_fp32_run_ex, gk_gemm_10_tuned_fp32_scratch, NULL, NULL,
     NULL, GK_GEMM_FP32},
    {{11, "tf32_mma", "TF32 tensor cores (mma.sync m16n8k8), fp32 accumulation", GK_GEMM_TF32, 80, GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32), 1},
     gk_gemm_11_tf32_mma_run, NULL, gk_gemm_11_tf32_mma_run_ex, gk_gemm_11_tf32_mma_scratch, NULL, NULL, NULL,
     GK_GEMM_TF32},
    {{12, "tf32_wgmma",
      "TF32 on Hopper's wgmma: TMA, a producer and two consumer warpgroups, persistent tiles of 256, 128 or 64 "
      "rows; B^T from registers; C through the TMA; sm_90a",
      GK_GEMM_TF32, 90, GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32), 1},
     gk_gemm_12_tf32_wgmma_run, NULL, gk_gemm_12_tf32_wgmma_run_ex, gk_gemm_12_tf32_wgmma_scratch, NULL, NULL, NULL,
     GK_GEMM_TF32},
    /* The 16-bit rungs: kernels/bf16_01_mma_sync.cu .. bf16_05_persistent.cu. */
    {{13, "mma_sync", "mma.sync m16n8k16 fed by ldmatrix from swizzled tiles, multistage cp.async (the Ampere way)",
      GK_GEMM_BF16, 80, GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_BF16), 0},
     NULL, gk_gemm_bf16_01_mma_sync_run, NULL, NULL, NULL, NULL, NULL, GK_GEMM_FP32},
    {{14, "wgmma", "Hopper wgmma reads both tiles from shared memory (descriptors, 128-byte swizzle); sm_90a",
      GK_GEMM_BF16, 90, GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_BF16), 0},
     NULL, gk_gemm_bf16_02_wgmma_run, NULL, NULL, NULL, NULL, NULL, GK_GEMM_FP32},
    {{15, "tma", "the TMA loads both tiles (host-made tensor maps, 128-byte swizzle) into an mbarrier pipeline; sm_90a",
      GK_GEMM_BF16, 90, GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_BF16), 0},
     NULL, gk_gemm_bf16_03_tma_run, NULL, NULL, NULL, NULL, NULL, GK_GEMM_FP32},
    {{16, "warp_specialized",
      "a producer warpgroup issues the TMA, two consumer warpgroups the wgmma (mbarriers, setmaxnreg); sm_90a",
      GK_GEMM_BF16, 90, GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_BF16), 0},
     NULL, gk_gemm_bf16_04_warp_specialized_run, NULL, NULL, NULL, NULL, NULL, GK_GEMM_FP32},
    {{17, "persistent",
      "persistent CTAs walk grouped tiles; the TMA ring runs on across tiles, so the next tile loads during the "
      "epilogue; 2-CTA clusters multicast B; with beta = 0, C leaves through shared memory and TMA stores; sm_90a",
      GK_GEMM_BF16, 90, GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_BF16) | GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F16), 1},
     NULL, gk_gemm_bf16_05_persistent_run, gk_gemm_bf16_05_persistent_run_ex, gk_gemm_bf16_05_persistent_scratch,
     NULL, NULL,
     gk_gemm_bf16_05_persistent_run_split, GK_GEMM_FP32},
    /* The FP8 rung: kernels/fp8_01_scaled_wgmma.cu (id 17 + NN). */
    {{18, "scaled_wgmma",
      "FP8 inputs (e4m3, e5m2) on wgmma k32, K-major operands through the TMA, per-tensor, row and column "
      "scales, fp32 promotion of partial sums, amax; variant 17's persistent producer/consumer ring; sm_90a",
      GK_GEMM_FP8, 90,
      GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32) | GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_BF16) | GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F16), 1},
     NULL, NULL, NULL, NULL, gk_gemm_fp8_01_scaled_wgmma_run, gk_gemm_fp8_01_scaled_wgmma_scratch, NULL, GK_GEMM_FP32},
    /* A region's kernel beside the 16-bit ladder: kernels/skinny_01_weight_stream.cu (id 18 + NN). */
    {{19, "weight_stream",
      "skinny products (few rows of op(A)): the weight streamed from global memory into mma.sync registers with "
      "16-byte loads, k split over a cluster whose partial sums meet in distributed shared memory; sm_90a",
      GK_GEMM_BF16, 90, GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_BF16) | GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F16), 1},
     NULL, NULL, gk_gemm_skinny_01_weight_stream_run_ex, NULL, NULL, NULL, NULL, GK_GEMM_FP32},
    /* Tiny and mid-size products: kernels/small_NN_name.cu (id 19 + NN). */
    {{20, "dot",
      "tiny products: each element of C a dot product of a group of 1 to 256 threads on the CUDA cores, summed in a "
      "fixed tree; element loads, any layout and alignment",
      GK_GEMM_BF16, 80,
      GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_BF16) | GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F16) | GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32), 1},
     gk_gemm_small_01_dot_run_f32, gk_gemm_small_01_dot_run, gk_gemm_small_01_dot_run_ex, NULL, NULL, NULL, NULL,
     GK_GEMM_FP32},
    /* Mid-size products: kernels/small_02_tiles.cu. */
    {{21, "tiles",
      "mid-size products: 64 x 64 tiles of mma.sync on 128-thread CTAs, up to 4 per SM; 3 cp.async stages where "
      "rows are 16-byte units, element loads through registers elsewhere; any layout and alignment; fp32 on TF32",
      GK_GEMM_BF16, 80,
      GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_BF16) | GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F16) | GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32), 1},
     gk_gemm_small_02_tiles_run_tf32, gk_gemm_small_02_tiles_run, gk_gemm_small_02_tiles_run_ex, NULL, NULL, NULL,
     gk_gemm_small_02_tiles_run_split, GK_GEMM_TF32},
    /* Mid-size fp32 products in fp32: kernels/small_03_ffma.cu. */
    {{22, "ffma",
      "mid-size fp32 products in fp32: variant 21's 64 x 64 tiles, copies and stages, with 8 x 4 outputs of FFMA per "
      "thread; any layout and alignment",
      GK_GEMM_FP32, 80, GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32), 1},
     gk_gemm_small_03_ffma_run, NULL, gk_gemm_small_03_ffma_run_ex, NULL, NULL, NULL, gk_gemm_small_03_ffma_run_split,
     GK_GEMM_FP32},
    /* Mid-size 16-bit products on wgmma: kernels/small_04_wgmma_tiles.cu. */
    {{23, "wgmma_tiles",
      "mid-size products on wgmma: 128 x 128 or 128 x 64 tiles, one per CTA, a producer warpgroup's TMA ring (4 or 8 "
      "stages), two consumer warpgroups, C through the TMA store; any layout (rows the TMA cannot address: padded "
      "copies in the workspace, element loads without one); sm_90a",
      GK_GEMM_BF16, 90, GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_BF16) | GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F16), 1},
     NULL, gk_gemm_small_04_wgmma_tiles_run, gk_gemm_small_04_wgmma_tiles_run_ex,
     gk_gemm_small_04_wgmma_tiles_scratch, NULL, NULL,
     gk_gemm_small_04_wgmma_tiles_run_split, GK_GEMM_FP32},
};

/* GK_TABLE_LOOKUPS (common/module.h) defines gk_gemm_variant_count,
 * gk_gemm_variant_at, gk_gemm_row_find and gk_gemm_find_variant. */
GK_TABLE_LOOKUPS(gk_gemm, gk_gemm_row, gk_gemm_variant, table)

/* The id of the last row that `keep` accepts (the top rung of that ladder), 0 if none. */
static int last_of(int (*keep)(const gk_gemm_variant *))
{
    int best = 0;
    for (size_t i = 0; i < gk_gemm_variant_count(); ++i)
        if (keep(&table[i].info)) best = table[i].info.id;
    return best;
}
/* The fp32 ladder: ids 1-12 (10 fp32 rungs, 2 TF32 ones); the rows after
 * the 16-bit ladder serve one region of shapes each (20-22). */
static int is_fp32(const gk_gemm_variant *v) { return v->precision == GK_GEMM_FP32 && v->id <= 12; }
/* gk_gemm_best_variant's candidates: the fp32 and TF32 rungs (fp32
 * storage from fp32 inputs; not the FP8 rung, nor a region's kernel that
 * also takes fp32: 20-22). */
static int stores_f32(const gk_gemm_variant *v)
{
    return (v->types & GK_GEMM_TYPE_BIT(GK_GEMM_TYPE_F32)) != 0 &&
           (v->precision == GK_GEMM_FP32 || v->precision == GK_GEMM_TF32) && v->id <= 12;
}
static int is_16bit(const gk_gemm_variant *v) { return v->precision == GK_GEMM_BF16; }
/* The 16-bit ladder: the 16-bit rows before the FP8 rung (13-17); the
 * rows after it serve one region of shapes each (19: skinny products). */
static int is_16bit_ladder(const gk_gemm_variant *v) { return is_16bit(v) && v->id < 18; }

int gk_gemm_best_fp32_variant(void) { return last_of(is_fp32); }
int gk_gemm_best_variant(void) { return last_of(stores_f32); }
int gk_gemm_bf16_best_variant(void) { return last_of(is_16bit_ladder); }

gk_gemm_precision gk_gemm_variant_precision(const gk_gemm_variant *v, gk_gemm_type t)
{
    if (v == NULL) return GK_GEMM_FP32;
    if (v->precision == GK_GEMM_BF16 && t == GK_GEMM_TYPE_F16) return GK_GEMM_FP16;
    if (v->precision == GK_GEMM_BF16 && t == GK_GEMM_TYPE_F32) {
        const gk_gemm_row *r = gk_gemm_row_find(v->id);
        return r != NULL ? r->f32 : GK_GEMM_FP32;
    }
    return v->precision;
}

const char *gk_gemm_precision_name(gk_gemm_precision p)
{
    switch (p) {
    case GK_GEMM_FP32: return "fp32";
    case GK_GEMM_TF32: return "tf32";
    case GK_GEMM_BF16: return "bf16";
    case GK_GEMM_FP16: return "fp16";
    case GK_GEMM_FP8: return "fp8";
    default: return "?";
    }
}

/* The 16-bit rows (13-17, 19-21 and 23), in table order: gk_gemm_bf16's view. */
size_t gk_gemm_bf16_variant_count(void)
{
    size_t count = 0;
    for (size_t i = 0; i < gk_gemm_variant_count(); ++i) count += is_16bit(&table[i].info) != 0;
    return count;
}
const gk_gemm_variant *gk_gemm_bf16_variant_at(size_t index)
{
    for (size_t i = 0; i < gk_gemm_variant_count(); ++i)
        if (is_16bit(&table[i].info) && index-- == 0) return &table[i].info;
    return NULL;
}
const gk_gemm_variant *gk_gemm_bf16_find_variant(int id)
{
    const gk_gemm_variant *v = gk_gemm_find_variant(id);
    return v != NULL && is_16bit(v) ? v : NULL;
}
