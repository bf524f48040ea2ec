/* The conv module's table of variants: the one list that the API, the tests,
 * the bench and the docs read. Adding a variant is a kernel file in
 * kernels/, its entry points in variants.h, and a row here.
 *
 * max_width: GK_CONV_PARAM_MASK_MAX for the variants that pass the mask by
 * value (its kernel parameter holds that many floats), 0 (any) for the rest.
 * tile: the outputs of one tile, as the kernel file defines it (kTile: 256
 * in 03 and 04, kThreads x kC = 256 x 8 in 05, GK6_THREADS x GK6_VEC x 4 =
 * 256 x 4 x 4 in 06, GK7_THREADS x GK7_R = 256 x 16 in 07, at their default
 * tuning); the GPU test runs n one short of, at and one past it. 0 for the
 * variants with one output per thread and no tile. */
#include <stddef.h>

#include "../common/module.h"
#include "variants.h"

#define ANY 0
#define PARAM GK_CONV_PARAM_MASK_MAX

static const gk_conv_row table[] = {
    {{1, "basic", "one thread per output; mask and input read from global memory, width loads of each",
      GK_CONV_MASK_GLOBAL, ANY, 0, 0},
     gk_conv_01_basic_workspace, gk_conv_01_basic_run},
    {{2, "constant_mask", "the mask passed by value as a kernel parameter: the constant bank, one broadcast per tap",
      GK_CONV_MASK_CONSTANT, PARAM, 0, 1},
     gk_conv_02_constant_mask_workspace, gk_conv_02_constant_mask_run},
    {{3, "tiled_halo", "the block's input tile and its halo cells staged in shared memory: each input read once",
      GK_CONV_MASK_CONSTANT, PARAM, 256, 1},
     gk_conv_03_tiled_halo_workspace, gk_conv_03_tiled_halo_run},
    {{4, "tiled_cached_halo", "only the block's own inputs in shared memory; the halo cells read through the caches",
      GK_CONV_MASK_CONSTANT, PARAM, 256, 1},
     gk_conv_04_tiled_cached_halo_workspace, gk_conv_04_tiled_cached_halo_run},
    {{5, "register_tiled", "several consecutive outputs per thread from a sliding window of inputs in registers",
      GK_CONV_MASK_CONSTANT, PARAM, 2048, 1},
     gk_conv_05_register_tiled_workspace, gk_conv_05_register_tiled_run},
    {{6, "streaming", "small masks, memory bound: 16-byte loads and stores, each input byte read from DRAM once",
      GK_CONV_MASK_SHARED, ANY, 4096, 0},
     gk_conv_06_streaming_workspace, gk_conv_06_streaming_run},
    {{7, "register_blocked", "large masks, arithmetic bound: register blocks of outputs x taps, near the fp32 peak",
      GK_CONV_MASK_SHARED, ANY, 4096, 0},
     gk_conv_07_register_blocked_workspace, gk_conv_07_register_blocked_run},
};

/* GK_TABLE_LOOKUPS (common/module.h) defines gk_conv_variant_count,
 * gk_conv_variant_at, gk_conv_row_find and gk_conv_find_variant. */
GK_TABLE_LOOKUPS(gk_conv, gk_conv_row, gk_conv_variant, table)

int gk_conv_best_variant(size_t width) { return width <= GK_CONV_BEST_SPLIT_WIDTH ? 6 : 7; }

const char *gk_conv_mask_in_name(gk_conv_mask_in m)
{
    switch (m) {
    case GK_CONV_MASK_GLOBAL: return "global";
    case GK_CONV_MASK_CONSTANT: return "constant";
    case GK_CONV_MASK_SHARED: return "shared";
    default: return "?";
    }
}

/* The 2D table, ids 7 + NN for kernels/conv2d_NN_name.cu. max_width: the
 * largest mask side; tile: outputs per block tile as the file defines it
 * (16 x 16 in 03 and 04, 32 x 256 in 06), 0 for one output per thread
 * or a strip streamed by a warp (05). */
#define SIDE GK_CONV2D_PARAM_SIDE_MAX
static const gk_conv2d_row table2d[] = {
    {{8, "basic", "one thread per output; mask and input read from global memory", GK_CONV_MASK_GLOBAL, ANY, 0, 0},
     gk_conv2d_01_basic_workspace, gk_conv2d_01_basic_run},
    {{9, "constant_mask", "the mask passed by value as a kernel parameter: the constant bank", GK_CONV_MASK_CONSTANT,
      SIDE, 0, 1},
     gk_conv2d_02_constant_mask_workspace, gk_conv2d_02_constant_mask_run},
    {{10, "tiled_halo", "the block's input tile and its halo cells in shared memory: each input read once per block",
      GK_CONV_MASK_CONSTANT, SIDE, 256, 1},
     gk_conv2d_03_tiled_halo_workspace, gk_conv2d_03_tiled_halo_run},
    {{11, "tiled_cached_halo", "only the block's own inputs in shared memory; the halo read through the caches",
      GK_CONV_MASK_CONSTANT, SIDE, 256, 1},
     gk_conv2d_04_tiled_cached_halo_workspace, gk_conv2d_04_tiled_cached_halo_run},
    {{12, "streaming", "small masks: each warp streams a 128-column strip through a cp.async ring, rolling sums in registers",
      GK_CONV_MASK_SHARED, 9, 0, 0},
     gk_conv2d_05_streaming_workspace, gk_conv2d_05_streaming_run},
    {{13, "register_blocked", "large masks: 4 x 8 outputs per thread, the mask in chunks: arithmetic bound",
      GK_CONV_MASK_SHARED, ANY, 8192, 0},
     gk_conv2d_06_register_blocked_workspace, gk_conv2d_06_register_blocked_run},
};

/* The depthwise table, ids 13 + NN for kernels/depthwise_NN_name.cu.
 * max_width: 4096 for 02 (the mask and the segment's halo in 48 KB of
 * shared memory), 32 for 03 (the mask in registers); tile: outputs per
 * block's unit of work (a segment of 1024 in 02, 8 warps x 512 in 03). */
static const gk_conv_dw_row tabledw[] = {
    {{14, "basic", "one thread per output; mask, bias and input read from global memory", GK_CONV_MASK_GLOBAL, ANY, 0,
      0},
     gk_conv_depthwise_01_basic_workspace, gk_conv_depthwise_01_basic_run},
    {{15, "row_shared", "a block per (batch, channel) row: segments of the row and the channel's mask in shared memory",
      GK_CONV_MASK_SHARED, 4096, 1024, 0},
     gk_conv_depthwise_02_row_shared_workspace, gk_conv_depthwise_02_row_shared_run},
    {{16, "tuned", "16-byte loads and stores, a warp per row segment, the mask in registers, the epilogue fused",
      GK_CONV_MASK_GLOBAL, 32, 4096, 0},
     gk_conv_depthwise_03_tuned_workspace, gk_conv_depthwise_03_tuned_run},
};

GK_TABLE_LOOKUPS(gk_conv2d, gk_conv2d_row, gk_conv_variant, table2d)
GK_TABLE_LOOKUPS(gk_conv_depthwise, gk_conv_dw_row, gk_conv_variant, tabledw)

const char *gk_conv_padding_name(gk_conv_padding p)
{
    switch (p) {
    case GK_CONV_PAD_SAME: return "same";
    case GK_CONV_PAD_CAUSAL: return "causal";
    default: return "?";
    }
}

const char *gk_conv_activation_name(gk_conv_activation a)
{
    switch (a) {
    case GK_CONV_ACT_NONE: return "none";
    case GK_CONV_ACT_RELU: return "relu";
    case GK_CONV_ACT_SILU: return "silu";
    default: return "?";
    }
}
