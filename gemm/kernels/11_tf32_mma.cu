/* Variant 11: TF32 tensor cores, warp-level mma.sync, a 3-stage cp.async
 * pipeline and swizzled shared memory.
 *
 * The idea: variants 1-10 multiply with FFMA, one fused multiply-add per
 * thread and instruction, 32 per warp instruction. A tensor core multiplies
 * small matrices: one warp-wide
 *     mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32    (SASS: HMMA.1688.F32.TF32)
 * computes D(16x8) = A(16x8) * B(8x8) + C, 16*8*8 = 1024 multiply-adds, 32
 * times the work of one warp FFMA, accumulating in fp32. Its inputs are TF32:
 * fp32 with the mantissa cut to 10 explicit bits. The block tiling, warp
 * tiling and cp.async double buffering of variants 5-9 stay; what changes is
 * the innermost product: a warp no longer runs 8x8 FFMAs per thread but owns
 * a 64x64 patch of C made of 4 x 8 mma tiles. This is the Ampere way (sm_80);
 * Hopper's wgmma (operands straight from shared memory, fed by the TMA) is a
 * later module.
 *
 * What that changes, counted per warp and 8-deep k-step of a 64x64 warp
 * tile: 64*64*8 = 32768 multiply-adds were 1024 FFMA instructions (plus the
 * shared loads feeding them); here they are 32 HMMA, 16 LDS.64 and 64
 * conversion instructions (below). Arithmetic stops being the instruction
 * stream's bulk; feeding the tensor cores from shared memory becomes the job.
 *
 * ---- Fragments: who holds what (PTX ISA, mma.m16n8k8 .tf32) --------------
 * Lane l is split into g = l / 4 (0..7) and t = l % 4 (0..3). For one mma:
 *   A (16 x 8): a0 = A[g][t], a1 = A[g+8][t], a2 = A[g][t+4], a3 = A[g+8][t+4]
 *   B ( 8 x 8): b0 = B[t][g], b1 = B[t+4][g]
 *   D (16 x 8): d0 = D[g][2t], d1 = D[g][2t+1], d2 = D[g+8][2t], d3 = D[g+8][2t+1]
 * In SASS the A operand is 4 consecutive registers and the B operand 2
 * consecutive registers (an aligned quad / pair). That detail decides the
 * shared-memory layout below.
 *
 * ---- Which operand is which: the tensor core computes C^T ------------------
 * The obvious mapping (our A as the mma's A via ldmatrix.x4, our B as the
 * mma's B) needs b0 = B[t][g] and b1 = B[t+4][g] side by side in a register
 * pair, but in a row-major B tile they lie in different k rows: no vector
 * load (and no ldmatrix.trans, which transposes 16-bit elements) delivers
 * that pair, and a first version of this file, loading B with LDS.128, made
 * ptxas build the pairs with 192 register moves per 128 HMMA in the loop
 * (counted in its SASS).
 * So the roles are swapped: the tensor core computes C^T = B^T * A^T, tile by
 * tile, and three free relabellings make every operand a plain 8-byte load:
 * - k: inside k-step s (8 columns of the k-tile), mma index t is k column
 *   8s + 2t and t+4 is 8s + 2t + 1. Any order works if A and B use the same.
 * - n (the mma's 16 rows = columns of C): mma row r of n-tile i is warp
 *   column 16i + 2(r % 8) + r / 8, so rows g and g+8 are columns 2g, 2g+1.
 * - m (the mma's 8 columns = rows of C): mma column c of m-tile j is warp row
 *   8j + c.
 * Then, per lane and k-step:
 *   mma A = B^T:  a0,a1 = B[8s+2t][16i+2g .. +1],  a2,a3 = B[8s+2t+1][16i+2g .. +1]
 *                 two LDS.64, straight into the quad (n-tile i, 4 per warp)
 *   mma B = A^T:  b0,b1 = A[8j+g][8s+2t .. +1]
 *                 one LDS.64, straight into the pair (m-tile j, 8 per warp)
 *   D = C^T:      d0,d2 = C[8j+2t][16i+2g .. +1],  d1,d3 = C[8j+2t+1][16i+2g .. +1]
 *                 two float2 per lane and tile in the epilogue.
 * No register moves, no ldmatrix.
 *
 * ---- Tiles (defaults; every figure below follows from the macros) ---------
 * Block tile BM x BN x BK = 128 x 256 x 32, 8 warps as 2 (m) x 4 (n), warp
 * tile 64 x 64 = NT x MT = 4 n16-tiles x 8 m8-tiles = 32 mma per k-step.
 *   Global traffic: a BM x BN tile loads (BM + BN) * BK floats for
 *   BM * BN * BK multiply-adds: BM*BN/(BM+BN) = 32768/384 = 85.3 multiply-
 *   adds per float loaded (0.023 bytes per flop). Over a 4096^3 product:
 *   4096^3 * (1/BM + 1/BN) * 4 bytes = 3.2 GB through L2 for 137 GFLOP.
 *   Shared traffic per warp and k-step: 4 n-tiles x 2 LDS.64 + 8 m-tiles x 1
 *   LDS.64 = 16 loads of 256 B = 4 KB for 32 mma: 128 B, one full shared-
 *   memory wavefront (32 banks x 4 B), per mma; one float per 32 multiply-
 *   adds (an FFMA kernel with an 8x8 thread tile reads 16 floats per 64
 *   multiply-adds: one per 4).
 *
 * ---- Why shared memory is the next limit, and the swizzle ------------------
 * An SM's shared memory serves one 128-byte wavefront per clock. Per k-tile
 * the block reads 8 warps x 4 k-steps x 32 wavefronts = 1024 and the
 * cp.async copies write (BM + BN) * BK * 4 / 128 = 384 more, for 1024 mma:
 * 1.375 wavefronts per mma. That is only affordable if every access costs
 * its minimum, so each one is made conflict-free (a 64-bit load is served
 * 16 lanes = 128 B at a time, a 16-byte cp.async write 8 lanes at a time):
 * A slab [BM][BK]: 16-byte chunk q of row r is stored at chunk q ^ 2(r % 4).
 *   A half-warp's b-pair loads cover rows 8j + g (4 rows, g = 0..3 or 4..7)
 *   x 8-byte pieces 8s + 2t (t = 0..3: chunks 2s, 2s+1, both halves). Rows are
 *   BK * 4 = 128 B apart, so unswizzled the 4 rows hit the same 8 banks:
 *   4-way conflict. The XOR moves the 4 rows' chunk pairs to 4 disjoint
 *   places: 32 distinct banks, 1 wavefront per half-warp.
 * B slab [BK][BN]: chunk q of row p is stored at q ^ 2((p / 2) % 4). A half-
 *   warp's quad loads cover rows 8s + 2t (+1) (4 rows, 2 * BN * 4 B apart:
 *   same banks) x columns 16i + 2g (g = 0..3: 2 chunks, both halves):
 *   unswizzled 4-way, swizzled 1 wavefront.
 * Both XORs stay inside an aligned group of 8 chunks (128 B), so the
 * cp.async writes (8 lanes = 8 consecutive chunks of one row) remain
 * conflict-free. static_asserts below recount all of this for whatever
 * configuration is compiled.
 *
 * ---- Pipeline and registers ------------------------------------------------
 * STAGES = 3 slabs of (BM + BN) * BK * 4 B = 48 KB: 144 KB of dynamic shared
 * memory. cp.async.cg copies 16-byte chunks global -> shared without passing
 * through registers; while the warps compute on slab s, slabs s+1 and s+2
 * are in flight: 96 KB requested and not yet consumed per SM. One barrier
 * per k-tile (4 k-steps = 128 mma per warp) with GK11_CONVERT=0, two with
 * GK11_CONVERT=1 (below); one (two) more before the loop. The fragments are double-
 * buffered in registers: k-step s+1 (across the k-tile boundary too) is read
 * while the mma of k-step s run.
 * Registers: NT*MT*4 = 128 fp32 accumulators per thread, 2 x (16 + 16) = 64
 * fragment registers, plus addresses: ptxas -v must report <= 255 and no
 * spills. Occupancy: 256 threads x up to 255 registers and 144 KB of 227 KB
 * shared memory allow 1 block = 8 warps per SM, two per scheduler; latency
 * is hidden by the 32 independent mma per k-step and the 2 k-tiles in
 * flight, not by more warps.
 *
 * ---- Precision (what the tolerance assumes) --------------------------------
 * Each operand is rounded fp32 -> TF32 with cvt.rna.tf32.f32 (round to
 * nearest, ties away from zero) as it moves from shared memory to registers.
 * TF32 = 1 sign, 8 exponent (fp32's range), 10 explicit mantissa bits: unit
 * roundoff u = 2^-11, each product a*b off by a relative 2u + u^2 at most,
 * sums in fp32 inside the tensor core. The tests and the bench hold every
 * element of C to gk_gemm_tolerance (../gemm_ref.h derives it, gemm_ref.c
 * computes it) for TF32:
 *   tol = lambda * (u_p * rms + u32 * sqrt(k + 2) * mag) + u32 * |ref| + (k + 2) * u64 * mag
 * with u_p = 2 * 2^-11 (both operands rounded to TF32), u32 = 2^-24,
 * u64 = 2^-53, lambda = 10, ref the exact (float64) value,
 * mag = |alpha| sum_p |a_ip b_pj| + |beta c_ij| and
 * rms = |alpha| sqrt(sum_p (a_ip b_pj)^2). The first term bounds the
 * products' rounding (independent, mean-zero errors: Hoeffding), the second
 * the fp32 additions inside the tensor core and the epilogue (Higham and
 * Mary's probabilistic bound), the last two the rounding of the result to
 * float and the reference's own error; doubled where the comparison is with
 * cuBLAS instead of the exact value. For random data rms is about
 * mag / sqrt(k), so the TF32 term grows like sqrt(k), as the real error does.
 * u_p is 2^13 times the u32 that the FFMA variants' product term uses: a far
 * looser tolerance than theirs. The conversion compiles to 2 SASS
 * instructions per element (a compare against infinity and a predicated
 * integer add of half a TF32 unit; the HMMA ignores the 13 low bits, so
 * ptxas drops the mask): 64 per lane and k-step next to 32 HMMA.
 *
 * ---- GK11_CONVERT: where the rounding happens ------------------------------
 * 0 (default): per fragment element in registers, as above. A lane converts
 *   NT*4 + MT*2 = 32 elements per k-step, 128 per k-tile: 256 SASS (FSETP +
 *   IADD) per k-tile, the largest non-HMMA cost of the loop. Every element
 *   of a slab is converted by each warp that reads it (4 n-warps read each A
 *   element, 2 m-warps each B element): 128 * 256 = 32768 conversions per
 *   k-tile for 12288 elements.
 * 1: once per element, in shared memory. Right after the barrier that makes
 *   k-tile kt+1's slab complete (the wait + barrier in k-tile kt's last
 *   k-step), the block rounds that slab in place: thread tid reads float4
 *   chunks tid, tid + 256, ... of the A slab (4) and of the B slab (8), 12
 *   LDS.128 + 48 cvt.rna + 12 STS.128 per thread = (128*32 + 32*256) / 256
 *   = 48 elements instead of 128. Consecutive threads take consecutive
 *   16-byte chunks, so each 8 threads cover one 128-byte wavefront of memory
 *   as it lies (the swizzle is untouched): conflict-free, but the stage's
 *   48 KB are read and written once more: 2 x 384 wavefronts per k-tile next
 *   to the 1408 of the loop (1.375 -> 2.125 per mma; +55% shared traffic).
 *   A second barrier then makes every thread's rounded values visible before
 *   anyone loads k-tile kt+1's fragments, which the mma use unconverted.
 *   Stored through memory, cvt.rna costs 3 SASS (ptxas keeps the mask: the
 *   stored value must be a TF32 number): 144 per k-tile instead of 256.
 *   The trade: the extra barrier, and k-tile kt+1's first fragment loads
 *   now wait for the pass and that barrier instead of being issued during
 *   the last k-step's mma. What hides it: that last k-step's 32 mma need
 *   only registers loaded a k-step earlier, so they sit between the two
 *   barriers in one basic block with the pass, and ptxas interleaves them
 *   (HMMA, LDS.128, cvt, STS.128 alternate in the SASS): the tensor pipe
 *   has the last k-step's work while the pass runs. Converting a stage
 *   further ahead (k-tile kt+2 during kt) would hide the pass completely but
 *   needs its copies waited for a k-tile earlier: one stage less of copy
 *   latency hiding, with 3 stages too dear. The conversion is the same
 *   cvt.rna, so results are bit-identical to GK11_CONVERT=0: zero-filled
 *   elements stay 0, Inf stays Inf, NaN stays NaN. Measured 9-16% slower
 *   than 0 on the H200 all the same: see "How the default was chosen".
 *
 * What bounds it: the issue rate of mma.sync on Hopper's tensor cores
 * (which run it well below wgmma's rate), then shared-memory bandwidth
 * (1.375 wavefronts per mma) and the issue slots of the 16 LDS.64 and 64
 * conversion instructions per 32 HMMA; at 4096^3 the 3.2 GB of L2 -> SM
 * traffic comes next, which the 128 x 256 tile (128 x 128: 4.3 GB) and the
 * block swizzle keep down.
 *
 * L2 block swizzle: the 1-D grid is walked in groups of GROUP_M = 8 tile
 * rows, column by column inside a group (block b of a group -> tile row
 * b % 8, tile column b / 8), so the blocks resident at one time share 8
 * slabs of A and a few of B in L2.
 *
 * Limits and fallbacks:
 * - sm_80+ (cp.async, mma .tf32). Compiled for an older GPU the kernel is
 *   empty, and the launcher returns cudaErrorNotSupported below compute
 *   capability 8.0 without launching. 144 KB of shared memory (set with
 *   cudaFuncSetAttribute) fits sm_80 (163 KB) and sm_90 (227 KB).
 * - Fast path per operand, chosen by the launcher: A (B) is copied in 16-byte
 *   cp.async.cg chunks when a (b) is 16-byte aligned and lda (ldb) % 4 == 0;
 *   otherwise every float is copied by a 4-byte cp.async.ca (4x the copy
 *   instructions; same layout, same compute).
 * - Edges: a chunk or float outside the matrix is copied with src-size 0
 *   (cp.async then reads nothing and writes zeros, the source address being
 *   the matrix start), so a partial k-tile adds exact zeros. A chunk that
 *   straddles column k or n (when that is not a multiple of 4) is copied
 *   float by float, so no copy names a byte outside A or B.
 *   C is written as float2 when c is 8-byte aligned, ldc is even and both
 *   columns exist, one guarded float at a time otherwise; rows past m are
 *   skipped. beta == 0 never reads C. k == 0 skips the k-loop; the epilogue
 *   still writes beta * C (0 when beta == 0).
 * - 1-D grid of ceil(m/BM) * ceil(n/BN) blocks (at most 2^31 - 1).
 *
 * Tuning macros (compile-time; static_asserts check them): GK11_BM, GK11_BN,
 * GK11_BK (32 or 64), GK11_WARPS_M, GK11_WARPS_N, GK11_STAGES, GK11_GROUP_M,
 * GK11_MIN_BLOCKS (__launch_bounds__ minimum blocks per SM), GK11_CONVERT (0: TF32
 * rounding per fragment in registers; 1: once per element in shared memory,
 * see above). Warp tile =
 * (BM/WARPS_M) x (BN/WARPS_N), rows a multiple of 8, columns of 16.
 * Worth trying (same source, -D flags):
 *   default: BM=128 BN=256 BK=32 WARPS 2x4 STAGES=3 (warp 64x64, 144 KB, 1 block/SM)
 *   -DGK11_STAGES=4                                  (192 KB: sm_90 only)
 *   -DGK11_BM=256 -DGK11_BN=128 -DGK11_WARPS_M=4 -DGK11_WARPS_N=2
 *                                   (256x128, 8 warps of 64x64, 144 KB)
 *   -DGK11_BN=128 -DGK11_WARPS_N=2 -DGK11_MIN_BLOCKS=2
 *                                   (128x128, 4 warps of 64x64, 96 KB, 2 blocks/SM)
 *   -DGK11_CONVERT=1                 (any of the above: rounding in shared memory)
 *
 * ---- How the default was chosen ---------------------------------------------
 * Measured, not guessed: gemm/tuning/variant11-h200.csv holds the runs
 * (NVIDIA H200, CUDA 13.0). scripts/tune_gemm.sh 11 builds gk_bench once per
 * set of -D flags and times this variant and cuBLAS TF32 in the same process
 * (cold L2, median) at 4096^3, 8192^3 and 4097x3001x2049. Its vs_reference
 * column is cuBLAS TF32 time / variant 11 time: 1 would be cuBLAS's speed,
 * and above 0.5 is the issue's target. cuBLAS's own time varies by several %
 * from process to process (0.341-0.377 ms at 4096^3), so the ratios are
 * noisier than the kernel's own times, which are quoted too.
 * - The default, BK=32 STAGES=3 (128x256 tile, 144 KB), "default" in run 2
 *   and "cvt0" in run 3: 0.801 / 0.800 ms at 4096^3 (172 TFLOP/s; 0.448x /
 *   0.432x), 6.40 / 6.45 ms at 8192^3 (0.463x / 0.479x), 0.473 / 0.466 ms at
 *   4097x3001x2049 (0.896x / 0.911x).
 * - -DGK11_BK=64 -DGK11_STAGES=2 ("bk64s2", "cvt0bk64"): 3-4% faster on the
 *   squares (0.769 / 0.775 ms: 0.443x / 0.471x; 6.19 ms: 0.483x / 0.501x),
 *   1% slower on the odd shape (0.885x / 0.898x). Not the default: it needs
 *   2 x (128x64 + 64x256) x 4 = 196,608 bytes of shared memory per block,
 *   more than an A100 (compute capability 8.0, the oldest the variant table
 *   lists for variant 11) can give a block (163 KB).
 * - -DGK11_STAGES=4 ("s4"; 192 KB, sm_90 only): within 1% of the default
 *   (0.456x, 0.466x, 0.901x).
 * - 128x128 with 2 blocks/SM ("b128"): 5%, 7% and 20% slower (0.412x,
 *   0.437x, 0.744x). Same 64x64 warp tiles, so the same cost per mma, but a
 *   third more L2 -> SM traffic (4.3 GB instead of 3.2 at 4096^3).
 * - 256x128 ("b256x128"): as fast on the squares (0.445x, 0.463x), 50%
 *   slower on the odd shape (0.599x). Counted, not profiled: its 17 x 24 =
 *   408 tiles make 3 rounds of the H200's 132 SMs (one block each) and 12
 *   tiles more, a fourth round; 128x256's 33 x 12 = 396 are exactly 3.
 * - -DGK11_CONVERT=1 (run 3): SLOWER. cvt1 (BK=32 STAGES=3): 0.893 / 7.06 /
 *   0.526 ms, 0.390x / 0.431x / 0.807x, 9.5-13% slower than cvt0's 0.432x /
 *   0.479x / 0.911x; cvt1bk64: 11-16% slower than cvt0bk64 (0.418x, 0.440x,
 *   0.814x); cvt1s4 (4 stages) within 0.4% of cvt1 (0.389x, 0.433x,
 *   0.809x). It saves 112 of 256 conversion SASS per lane and k-tile but
 *   adds 2 x 384 shared-memory wavefronts to the loop's 1408 (1.375 -> 2.125
 *   per mma) and a barrier the next k-tile's first fragment loads wait for:
 *   by the wavefront counting above, the shared-memory pass costs more than
 *   the conversions it saves.
 * The issue's target is NOT met by mma.sync here: 0.43-0.45x at 4096^3 for
 * the default (0.5x would need 0.69-0.72 ms; it takes 0.80), 0.47x at best
 * for any configuration tried; only BK=64 STAGES=2 reached 0.50x, once
 * (0.501x in run 3), and at 8192^3.
 * Every knob above changes the block tile or the pipeline; none changes
 * what an mma costs, which the 64x64 warp tile and mma.sync's register
 * operands fix (see the counts above): 1 shared-memory wavefront of fragment
 * loads per mma plus 0.375 of copies, and 16 LDS.64 and 64 conversions
 * beside every 32 HMMA, i.e. 2.5 more instructions per HMMA from a scheduler
 * that issues one a clock. At the tensor cores' full rate (one m16n8k8 per
 * clock per SM, one per 4 clocks per scheduler) that would be 1.375 of the 1
 * wavefront an SM serves per clock, and 3.5 of every 4 issue slots: the
 * wavefronts alone cap mma.sync at 1/1.375 = 73% of that rate. These counts
 * do not by themselves put the ceiling below 0.5x: cuBLAS measures 355-404
 * TFLOP/s on the squares, 72-82% of the H200's 495 TFLOP/s dense TF32, so
 * 0.5x is 36-41% of that peak, and this kernel runs at 34-36% (170-178
 * TFLOP/s). What they do say is that the register path leaves no slack to
 * trade: both of its costs come with every mma, and moving work from one to
 * the other (GK11_CONVERT=1) lost 9-16%.
 * The rest of the gap is mma.sync on Hopper itself, the first bound under
 * "What bounds it", which no run here isolates. wgmma (a later issue)
 * removes the register-fragment path: it reads both operands from shared
 * memory itself, once per warpgroup of 4 warps instead of once per warp, so
 * the LDS.64 and per-fragment conversions leave the instruction stream.
 *
 * Sources: PTX ISA (cp.async, mma.m16n8k8 .tf32 fragment layouts,
 * cvt.rna.tf32.f32); NVIDIA CUTLASS documentation "Efficient GEMM in CUDA"
 * (block / warp / instruction tiling, multistage pipelines, swizzled shared
 * memory); Simon Boehm, "How to Optimize a CUDA Matmul Kernel for cuBLAS-like
 * Performance" (2022), for the ladder this ends; the CUDA C++ Programming
 * Guide (asynchronous copies, shared-memory banks).
 *
 * Build alone: nvcc -arch=sm_90 -c 11_tf32_mma.cu
 */
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

/* The tuning knobs (see the header); the defaults are the first configuration. */
#ifndef GK11_BM
#define GK11_BM 128
#endif
#ifndef GK11_BN
#define GK11_BN 256
#endif
#ifndef GK11_BK
#define GK11_BK 32
#endif
#ifndef GK11_WARPS_M
#define GK11_WARPS_M 2
#endif
#ifndef GK11_WARPS_N
#define GK11_WARPS_N 4
#endif
#ifndef GK11_STAGES
#define GK11_STAGES 3
#endif
#ifndef GK11_GROUP_M
#define GK11_GROUP_M 8
#endif
#ifndef GK11_MIN_BLOCKS
#define GK11_MIN_BLOCKS 1
#endif
#ifndef GK11_CONVERT
#define GK11_CONVERT 0 /* 0: cvt.rna per fragment element in registers; 1: once per element in shared memory */
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
/* Below sm_80 the kernel body is compiled out, leaving its helpers unused. */
#pragma nv_diag_suppress 177
#endif

namespace {

constexpr int kBM = GK11_BM, kBN = GK11_BN, kBK = GK11_BK;
constexpr int kWarpsM = GK11_WARPS_M, kWarpsN = GK11_WARPS_N;
constexpr int kStages = GK11_STAGES;
constexpr unsigned kGroupM = GK11_GROUP_M;
constexpr int kThreads = kWarpsM * kWarpsN * 32;
constexpr int kWM = kBM / kWarpsM, kWN = kBN / kWarpsN; /* warp tile: rows (m) x columns (n) */
constexpr int kNT = kWN / 16;                           /* n16 tiles per warp (the mma's 16 rows run over n) */
constexpr int kMT = kWM / 8;                            /* m8 tiles per warp (the mma's 8 columns run over m) */
constexpr int kKSteps = kBK / 8;                        /* mma k-steps per k-tile */
constexpr int kAStage = kBM * kBK, kBStage = kBK * kBN; /* floats per slab */
constexpr size_t kSmemBytes = (size_t)kStages * (kAStage + kBStage) * sizeof(float);

static_assert(kBM % kWarpsM == 0 && kWM % 8 == 0, "warp tile rows: a multiple of 8 (m8 tiles)");
static_assert(kBN % kWarpsN == 0 && kWN % 16 == 0, "warp tile columns: a multiple of 16 (n16 tiles)");
static_assert(kBN % 32 == 0, "B rows a whole number of 128-byte lines (the swizzle's bank arithmetic)");
static_assert(kBK == 32 || kBK == 64, "BK: 32 or 64 (A rows of at least 8 chunks for the swizzle)");
static_assert(kKSteps % 2 == 0, "fragment double buffer: k-step 0 of every k-tile uses buffer 0");
static_assert(kStages >= 2 && kStages <= 8, "2..8 pipeline stages");
static_assert(kThreads >= 32 && kThreads <= 1024, "block size");
static_assert(kSmemBytes <= 227u * 1024u, "dynamic shared memory above sm_90's 227 KB per block");
static_assert(kGroupM >= 1 && kGroupM <= 64, "GROUP_M");
static_assert(GK11_CONVERT == 0 || GK11_CONVERT == 1, "GK11_CONVERT: 0 (registers) or 1 (shared memory)");
constexpr bool kConvertSmem = GK11_CONVERT == 1;
/* GK11_CONVERT=1's pass over a slab: 16-byte chunks, thread tid takes chunks
 * tid, tid + kThreads, ... of the A slab and then of the B slab. */
constexpr int kCvtA = (kAStage / 4 + kThreads - 1) / kThreads; /* A chunks per thread: 4 by default */
constexpr int kCvtB = (kBStage / 4 + kThreads - 1) / kThreads; /* B chunks per thread: 8 by default */
static_assert(kAStage % 4 == 0 && kBStage % 4 == 0, "slabs of whole 16-byte chunks");

/* ---- Shared-memory layout: where float (row, col) of a slab lives --------
 * The 16-byte chunk col/4 of a row is stored at chunk (col/4) ^ swizzle(row);
 * the XOR only touches chunk bits 1-2, so a chunk stays whole, stays in its
 * aligned group of 8 chunks (128 B), and the pattern repeats every 4 (A) or
 * 8 (B) rows. */
__host__ __device__ constexpr int a_swizzle(int r) { return (r & 3) << 1; }
__host__ __device__ constexpr int b_swizzle(int p) { return ((p >> 1) & 3) << 1; }
__host__ __device__ constexpr int a_index(int r, int c)
{
    return r * kBK + (((c >> 2) ^ a_swizzle(r)) << 2) + (c & 3);
}
__host__ __device__ constexpr int b_index(int p, int c)
{
    return p * kBN + (((c >> 2) ^ b_swizzle(p)) << 2) + (c & 3);
}

/* ---- Fragment and accumulator coordinates (see "Which operand is which") --
 * Lane (g, t) = (lane / 4, lane % 4). */
/* The float2 {b0, b1} of m-tile j, k-step s: A slab row 8j + g, columns 8s + 2t, +1. */
__host__ __device__ constexpr int a_frag_offset(int lane, int warp_m, int j, int s)
{
    return a_index(warp_m * kWM + 8 * j + (lane >> 2), 8 * s + 2 * (lane & 3));
}
/* The float2 {a[2hh], a[2hh+1]} of n-tile i, k-step s: B slab row 8s + 2t + hh,
 * columns 16i + 2g, +1. */
__host__ __device__ constexpr int b_frag_offset(int lane, int warp_n, int i, int s, int hh)
{
    return b_index(8 * s + 2 * (lane & 3) + hh, warp_n * kWN + 16 * i + 2 * (lane >> 2));
}
/* acc[i][j][e + 2f] is C(c_row(.., j, e), c_col(.., i, f)) of the block tile. */
__host__ __device__ constexpr int c_row(int lane, int warp_m, int j, int e)
{
    return warp_m * kWM + 8 * j + 2 * (lane & 3) + e;
}
__host__ __device__ constexpr int c_col(int lane, int warp_n, int i, int f)
{
    return warp_n * kWN + 16 * i + 2 * (lane >> 2) + f;
}

/* ---- Compile-time proofs for the configuration being built -------------
 * (1) The fragment offsets split into a per-lane part and a compile-time
 * part: m-tile j adds 8j rows (A's swizzle repeats every 4 rows); n-tile i
 * adds 32 floats per pair of tiles (the XOR stays within 8 chunks); k-step s
 * and half hh add 8s + hh rows (B's swizzle depends on row / 2 % 4 = t).
 * So a lane keeps kKSteps A offsets and 2 B offsets in registers. */
__host__ __device__ constexpr bool offsets_split()
{
    for (int lane = 0; lane < 32; ++lane)
        for (int w = 0; w < (kWarpsM > kWarpsN ? kWarpsM : kWarpsN); ++w)
            for (int s = 0; s < kKSteps; ++s) {
                for (int j = 0; j < kMT; ++j)
                    if (w < kWarpsM && a_frag_offset(lane, w, j, s) != a_frag_offset(lane, w, 0, s) + 8 * j * kBK)
                        return false;
                for (int i = 0; i < kNT; ++i)
                    for (int hh = 0; hh < 2; ++hh)
                        if (w < kWarpsN && b_frag_offset(lane, w, i, s, hh) !=
                                               b_frag_offset(lane, w, i & 1, 0, 0) + 32 * (i >> 1) + (8 * s + hh) * kBN)
                            return false;
            }
    return true;
}
/* (2) Bank conflicts: a 64-bit shared load is served half a warp (16 lanes,
 * 128 B) per wavefront; it costs one wavefront per half-warp exactly when
 * those 16 lanes touch 32 different banks. Checked for every fragment load
 * of every warp. */
__host__ __device__ constexpr bool half_warp_free(const int (&off)[32])
{
    for (int h = 0; h < 2; ++h) {
        bool used[32] = {};
        for (int l = 16 * h; l < 16 * h + 16; ++l)
            for (int w = 0; w < 2; ++w) {
                const int bank = (off[l] + w) % 32;
                if (used[bank]) return false;
                used[bank] = true;
            }
    }
    return true;
}
__host__ __device__ constexpr bool fragment_loads_conflict_free()
{
    for (int s = 0; s < kKSteps; ++s) {
        for (int w = 0; w < kWarpsM; ++w)
            for (int j = 0; j < kMT; ++j) {
                int off[32] = {};
                for (int l = 0; l < 32; ++l) off[l] = a_frag_offset(l, w, j, s);
                if (!half_warp_free(off)) return false;
            }
        for (int w = 0; w < kWarpsN; ++w)
            for (int i = 0; i < kNT; ++i)
                for (int hh = 0; hh < 2; ++hh) {
                    int off[32] = {};
                    for (int l = 0; l < 32; ++l) off[l] = b_frag_offset(l, w, i, s, hh);
                    if (!half_warp_free(off)) return false;
                }
    }
    return true;
}
/* (3) The 16-byte cp.async writes: 8 consecutive threads (one 128-byte
 * wavefront) write 8 consecutive chunks of a row; they must land in 8
 * different chunk positions. */
__host__ __device__ constexpr bool copy_writes_conflict_free()
{
    for (int base = 0; base < kBM * kBK / 4; base += 8) {
        bool used[8] = {};
        for (int u = base; u < base + 8; ++u) {
            const int pos = a_index(u / (kBK / 4), (u % (kBK / 4)) * 4) / 4 % 8;
            if (used[pos]) return false;
            used[pos] = true;
        }
    }
    for (int base = 0; base < kBK * kBN / 4; base += 8) {
        bool used[8] = {};
        for (int u = base; u < base + 8; ++u) {
            const int pos = b_index(u / (kBN / 4), (u % (kBN / 4)) * 4) / 4 % 8;
            if (used[pos]) return false;
            used[pos] = true;
        }
    }
    return true;
}
static_assert(offsets_split(), "fragment offsets: per-lane part + compile-time part");
static_assert(fragment_loads_conflict_free(), "fragment loads: one wavefront per half-warp");
static_assert(copy_writes_conflict_free(), "cp.async writes: one wavefront per 8 chunks");

/* ---- PTX wrappers (sm_80+; empty elsewhere, and never called there) ----- */
__device__ __forceinline__ uint32_t smem_u32(const void *p) { return (uint32_t)__cvta_generic_to_shared(p); }

/* 16-byte async copy; reads only src_bytes (0..16) bytes and zero-fills the rest. */
__device__ __forceinline__ void cp_async16(uint32_t dst, const float *src, int src_bytes)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
#endif
}
/* 4-byte async copy (any 4-byte alignment); src_bytes 0 writes a zero. */
__device__ __forceinline__ void cp_async4(uint32_t dst, const float *src, int src_bytes)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
#endif
}
__device__ __forceinline__ void cp_async_commit()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}
/* Wait until at most N of this thread's committed groups are still in flight. */
template <int N> __device__ __forceinline__ void cp_async_wait()
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}
/* fp32 -> tf32, round to nearest, ties away from zero (the low 13 bits become 0). */
__device__ __forceinline__ uint32_t to_tf32(float x)
{
    uint32_t r = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
#endif
    return r;
}
/* d += a * b on the tensor cores, one m16n8k8 tile. */
__device__ __forceinline__ void mma_tf32(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
}

/* ---- Global -> shared copies of one k-tile (issued, not waited) ----------
 * A slab is BM rows x BK floats, a B slab BK rows x BN floats, copied in units
 * of kW floats (kW = 4: one 16-byte cp.async.cg; kW = 1: one 4-byte
 * cp.async.ca). Thread tid copies units tid, tid + kThreads, ...: consecutive
 * threads take consecutive units of a row, so every warp reads whole 128-byte
 * lines. As kThreads is a multiple of the units per row, a thread keeps one
 * column and steps down kRowStep rows per unit: its global offset grows by
 * kRowStep * ld (one 64-bit add), and its shared offset repeats the first
 * kRepeat units' (the swizzle's period in units) shifted by whole periods,
 * a compile-time constant. Nothing per unit stays in registers across the
 * k-loop. */
__host__ __device__ constexpr int gcd(int x, int y) { return y == 0 ? x : gcd(y, x % y); }
template <int kW, int kRows, int kCols, int kPeriod> struct Copy {
    static constexpr int kUnitsPerRow = kCols / kW;
    static_assert(kUnitsPerRow <= kThreads, "a row of a slab must not need more units than threads");
    static constexpr int kRowStep = kThreads / kUnitsPerRow;
    static constexpr int kUnits = kRows / kRowStep;                  /* units per thread */
    static constexpr int kRepeat = kPeriod / gcd(kRowStep, kPeriod); /* units until the swizzle repeats */
    static_assert(kThreads % kUnitsPerRow == 0 && kRows % kRowStep == 0, "whole rows of units per pass");
    static_assert(kUnits % kRepeat == 0, "whole swizzle periods per thread");
};

/* The units of one thread for one k-tile: calls unit(dst, off, nb, w) with
 * dst the unit's float offset in the slab, off its element offset in the
 * matrix (meaningful only when nb > 0), w its width in floats (4 or 1) and
 * nb the bytes to read: 4 * w inside the matrix, 0 outside (zero-filled).
 * A 16-byte chunk that straddles the last column (k for A, n for B; only
 * when that is not a multiple of 4) goes float by float instead, so that no
 * copy ever names a byte past the matrix, even one it would not read.
 * __host__ __device__ so that a CPU emulation can run the very same code. */
template <bool kVec, class Unit>
__host__ __device__ __forceinline__ void a_tile_units(unsigned m, unsigned k, size_t lda, unsigned bm, unsigned kt,
                                                      int tid, Unit &&unit)
{
    typedef Copy<kVec ? 4 : 1, kBM, kBK, 4> C; /* A's swizzle repeats every 4 rows */
    const int r0 = tid / C::kUnitsPerRow, c = (tid % C::kUnitsPerRow) * (kVec ? 4 : 1);
    const unsigned col = kt * kBK + c;
    /* bytes of this thread's units inside A's columns: all, the 4-12 before
     * column k (a straddling chunk, kVec only), or none; the same for all
     * its units (one column) */
    const int bytes = col >= k ? 0 : kVec ? (int)(k - col < 4 ? k - col : 4) * 4 : 4;
    const int rows_left = (int)(m - bm) - r0; /* unit u is inside A iff u * kRowStep < rows_left */
    int dst[C::kRepeat];
#pragma unroll
    for (int q = 0; q < C::kRepeat; ++q) dst[q] = a_index(r0 + q * C::kRowStep, c);
    size_t off = (size_t)(bm + r0) * lda + col; /* an offset, not a pointer: added to a only when inside A */
    const size_t step = (size_t)C::kRowStep * lda;
    if (kVec && bytes > 0 && bytes < 16) { /* this thread's chunks straddle column k: float by float */
#pragma unroll 1
        for (int p = 0; p < C::kUnits / C::kRepeat; ++p)
#pragma unroll
            for (int q = 0; q < C::kRepeat; ++q) {
                const bool in = (p * C::kRepeat + q) * C::kRowStep < rows_left;
#pragma unroll
                for (int e = 0; e < 4; ++e)
                    unit(dst[q] + p * C::kRepeat * C::kRowStep * kBK + e, off + e, in && 4 * e < bytes ? 4 : 0, 1);
                off += step;
            }
        return;
    }
    /* The 16-byte path is unrolled whole; the 4-byte path (4x the units) stays
     * a loop over swizzle periods, so its addresses do not crowd the
     * accumulators out of the registers. */
#pragma unroll(kVec ? C::kUnits / C::kRepeat : 1)
    for (int p = 0; p < C::kUnits / C::kRepeat; ++p)
#pragma unroll
        for (int q = 0; q < C::kRepeat; ++q) {
            const int u = p * C::kRepeat + q;
            unit(dst[q] + p * C::kRepeat * C::kRowStep * kBK, off, u * C::kRowStep < rows_left ? bytes : 0,
                 kVec ? 4 : 1);
            off += step;
        }
}
template <bool kVec, class Unit>
__host__ __device__ __forceinline__ void b_tile_units(unsigned n, unsigned k, size_t ldb, unsigned bn, unsigned kt,
                                                      int tid, Unit &&unit)
{
    typedef Copy<kVec ? 4 : 1, kBK, kBN, 8> C; /* B's swizzle repeats every 8 rows */
    const int p0 = tid / C::kUnitsPerRow, c = (tid % C::kUnitsPerRow) * (kVec ? 4 : 1);
    const unsigned col = bn + c;
    const int bytes = col >= n ? 0 : kVec ? (int)(n - col < 4 ? n - col : 4) * 4 : 4;
    const int rows_left = (int)(k - kt * kBK) - p0; /* the k rows of this k-tile inside B */
    int dst[C::kRepeat];
#pragma unroll
    for (int q = 0; q < C::kRepeat; ++q) dst[q] = b_index(p0 + q * C::kRowStep, c);
    size_t off = (size_t)(kt * kBK + p0) * ldb + col;
    const size_t step = (size_t)C::kRowStep * ldb;
    if (kVec && bytes > 0 && bytes < 16) { /* this thread's chunks straddle column n: float by float */
#pragma unroll 1
        for (int p = 0; p < C::kUnits / C::kRepeat; ++p)
#pragma unroll
            for (int q = 0; q < C::kRepeat; ++q) {
                const bool in = (p * C::kRepeat + q) * C::kRowStep < rows_left;
#pragma unroll
                for (int e = 0; e < 4; ++e)
                    unit(dst[q] + p * C::kRepeat * C::kRowStep * kBN + e, off + e, in && 4 * e < bytes ? 4 : 0, 1);
                off += step;
            }
        return;
    }
#pragma unroll(kVec ? C::kUnits / C::kRepeat : 1)
    for (int p = 0; p < C::kUnits / C::kRepeat; ++p)
#pragma unroll
        for (int q = 0; q < C::kRepeat; ++q) {
            const int u = p * C::kRepeat + q;
            unit(dst[q] + p * C::kRepeat * C::kRowStep * kBN, off, u * C::kRowStep < rows_left ? bytes : 0,
                 kVec ? 4 : 1);
            off += step;
        }
}

/* Issue one k-tile's copies of A (of B) into a slab. src-size 0 reads
 * nothing and writes zeros; the source address is then a itself, so no
 * address outside A is ever formed. */
template <bool kVec>
__device__ __forceinline__ void load_a_tile(float *as, const float *a, size_t lda, unsigned m, unsigned k,
                                            unsigned bm, unsigned kt, int tid)
{
    const uint32_t as_u32 = smem_u32(as);
    a_tile_units<kVec>(m, k, lda, bm, kt, tid, [&](int d, size_t off, int nb, int w) {
        if (kVec && w == 4) cp_async16(as_u32 + 4u * d, nb ? a + off : a, nb);
        else cp_async4(as_u32 + 4u * d, nb ? a + off : a, nb);
    });
}
template <bool kVec>
__device__ __forceinline__ void load_b_tile(float *bs, const float *b, size_t ldb, unsigned n, unsigned k,
                                            unsigned bn, unsigned kt, int tid)
{
    const uint32_t bs_u32 = smem_u32(bs);
    b_tile_units<kVec>(n, k, ldb, bn, kt, tid, [&](int d, size_t off, int nb, int w) {
        if (kVec && w == 4) cp_async16(bs_u32 + 4u * d, nb ? b + off : b, nb);
        else cp_async4(bs_u32 + 4u * d, nb ? b + off : b, nb);
    });
}

/* ---- GK11_CONVERT=1: round a landed slab to TF32 in place ---------------
 * Thread tid takes float4 chunks tid, tid + kThreads, ... of the stage's A
 * slab, then the same of its B slab (the two are not adjacent in shared
 * memory). The pass works on memory as it lies, so the swizzle is untouched;
 * per 8 consecutive threads its 16-byte loads and stores cover 8 consecutive
 * chunks = one 128-byte wavefront: conflict-free. Each element of the stage
 * is covered exactly once (chunk u -> floats 4u .. 4u+3, u < slab / 4).
 * __host__ __device__ for the CPU emulation: chunk(in_a, float offset). */
template <class Chunk>
__host__ __device__ __forceinline__ void cvt_chunks(int tid, Chunk &&chunk)
{
#pragma unroll
    for (int q = 0; q < kCvtA; ++q) {
        const int u = tid + q * kThreads;
        if ((kAStage / 4) % kThreads == 0 || u < kAStage / 4) chunk(true, 4 * u);
    }
#pragma unroll
    for (int q = 0; q < kCvtB; ++q) {
        const int u = tid + q * kThreads;
        if ((kBStage / 4) % kThreads == 0 || u < kBStage / 4) chunk(false, 4 * u);
    }
}
__device__ __forceinline__ void convert_stage(float *as, float *bs, int tid)
{
    cvt_chunks(tid, [&](bool in_a, int off) {
        float4 *p = reinterpret_cast<float4 *>((in_a ? as : bs) + off);
        float4 v = *p;
        /* cvt.rna.tf32.f32 as in mma_step: the same bits reach the HMMA. Its
         * result is only ever read by the HMMA, which ignores the low 13 bits
         * (ptxas may leave them unmasked), so the stored value need not be a
         * clean TF32 float. Zero stays zero, Inf stays Inf, NaN stays NaN. */
        v.x = __uint_as_float(to_tf32(v.x));
        v.y = __uint_as_float(to_tf32(v.y));
        v.z = __uint_as_float(to_tf32(v.z));
        v.w = __uint_as_float(to_tf32(v.w));
        *p = v;
    });
}

/* ---- Fragments ------------------------------------------------------------- */
/* One k-step's operands as read from shared memory (still fp32). */
struct Frags {
    float x[kNT][4]; /* mma A operands (from the B slab), one quad per n-tile */
    float y[kMT][2]; /* mma B operands (from the A slab), one pair per m-tile */
};
/* Per-lane offsets in floats from the slab start (offsets_split() says why
 * these few suffice): A by k-step, B by n-tile parity. */
struct LaneOffsets {
    int a[kKSteps]; /* a_frag_offset(lane, wm, 0, s) */
    int b[2];       /* b_frag_offset(lane, wn, 0 or 1, 0, 0) */
};
__host__ __device__ __forceinline__ LaneOffsets lane_offsets(int lane, int wm, int wn)
{
    LaneOffsets lo = {};
#pragma unroll
    for (int s = 0; s < kKSteps; ++s) lo.a[s] = a_frag_offset(lane, wm, 0, s);
    lo.b[0] = b_frag_offset(lane, wn, 0, 0, 0);
    lo.b[1] = b_frag_offset(lane, wn, 1, 0, 0);
    return lo;
}
/* = b_frag_offset(lane, wn, i, s, hh) and a_frag_offset(lane, wm, j, s) */
__host__ __device__ __forceinline__ int x_offset(const LaneOffsets &lo, int i, int s, int hh)
{
    return lo.b[i & 1] + 32 * (i >> 1) + (8 * s + hh) * kBN;
}
__host__ __device__ __forceinline__ int y_offset(const LaneOffsets &lo, int j, int s) { return lo.a[s] + 8 * j * kBK; }

__device__ __forceinline__ void load_frags(Frags &f, const float *as, const float *bs, const LaneOffsets &lo,
                                           int s)
{
    /* float2 loads: every offset is even (column 8s + 2t or 16i + 2g; the
     * XOR moves whole chunks), so each is one aligned LDS.64 */
#pragma unroll
    for (int i = 0; i < kNT; ++i)
#pragma unroll
        for (int hh = 0; hh < 2; ++hh) {
            const float2 v = *reinterpret_cast<const float2 *>(bs + x_offset(lo, i, s, hh));
            f.x[i][2 * hh] = v.x;
            f.x[i][2 * hh + 1] = v.y;
        }
#pragma unroll
    for (int j = 0; j < kMT; ++j) {
        const float2 v = *reinterpret_cast<const float2 *>(as + y_offset(lo, j, s));
        f.y[j][0] = v.x;
        f.y[j][1] = v.y;
    }
}

/* Round one k-step's operands to TF32 (GK11_CONVERT=0; with 1 the slab
 * already holds them rounded) and issue its NT x MT mma. */
__device__ __forceinline__ void mma_step(float (&acc)[kNT][kMT][4], const Frags &f)
{
    uint32_t x[kNT][4], y[kMT][2];
#pragma unroll
    for (int i = 0; i < kNT; ++i)
#pragma unroll
        for (int r = 0; r < 4; ++r) x[i][r] = kConvertSmem ? __float_as_uint(f.x[i][r]) : to_tf32(f.x[i][r]);
#pragma unroll
    for (int j = 0; j < kMT; ++j) {
        y[j][0] = kConvertSmem ? __float_as_uint(f.y[j][0]) : to_tf32(f.y[j][0]);
        y[j][1] = kConvertSmem ? __float_as_uint(f.y[j][1]) : to_tf32(f.y[j][1]);
    }
#pragma unroll
    for (int i = 0; i < kNT; ++i)
#pragma unroll
        for (int j = 0; j < kMT; ++j) mma_tf32(acc[i][j], x[i], y[j][0], y[j][1]);
}

/* One element of C; beta == 0 never reads the old value (NaN there must not leak). */
__device__ __forceinline__ void store_one(float *p, float alpha, float v, float beta)
{
    *p = beta == 0.0f ? alpha * v : alpha * v + beta * *p;
}

template <bool kAVec, bool kBVec>
__global__ void __launch_bounds__(kThreads, GK11_MIN_BLOCKS)
gemm_tf32_mma(unsigned m, unsigned n, unsigned k, float alpha, const float *__restrict__ a, size_t lda,
              const float *__restrict__ b, size_t ldb, float beta, float *__restrict__ c, size_t ldc,
              unsigned tiles_m, unsigned tiles_n, bool c_vec)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    extern __shared__ __align__(128) float smem[];
    float *const as = smem;                     /* kStages A slabs of BM x BK */
    float *const bs = smem + kStages * kAStage; /* kStages B slabs of BK x BN */

    /* L2 swizzle: groups of kGroupM tile rows, walked column by column. */
    const unsigned long long group_tiles = (unsigned long long)kGroupM * tiles_n;
    const unsigned group = (unsigned)(blockIdx.x / group_tiles);
    const unsigned first_m = group * kGroupM;
    const unsigned rows_in_group = tiles_m - first_m < kGroupM ? tiles_m - first_m : kGroupM;
    const unsigned in_group = (unsigned)(blockIdx.x - group * group_tiles);
    const unsigned bm = (first_m + in_group % rows_in_group) * kBM; /* first row of the tile */
    const unsigned bn = (in_group / rows_in_group) * kBN;           /* first column */

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wm = warp / kWarpsN, wn = warp % kWarpsN; /* this warp's tile inside the block tile */

    float acc[kNT][kMT][4];
#pragma unroll
    for (int i = 0; i < kNT; ++i)
#pragma unroll
        for (int j = 0; j < kMT; ++j)
#pragma unroll
            for (int r = 0; r < 4; ++r) acc[i][j][r] = 0.0f;

    const unsigned ktiles = (k + kBK - 1) / kBK; /* k < 2^31: no overflow */
    if (ktiles > 0) {
        /* Prologue: k-tiles 0 .. kStages-2 into slabs 0 .. kStages-2, one
         * commit group each (empty groups past ktiles keep the count exact). */
#pragma unroll
        for (int s = 0; s < kStages - 1; ++s) {
            if ((unsigned)s < ktiles) {
                load_a_tile<kAVec>(as + s * kAStage, a, lda, m, k, bm, s, tid);
                load_b_tile<kBVec>(bs + s * kBStage, b, ldb, n, k, bn, s, tid);
            }
            cp_async_commit();
        }

        const LaneOffsets lo = lane_offsets(lane, wm, wn);

        cp_async_wait<kStages - 2>(); /* this thread's copies of k-tile 0 have landed */
        __syncthreads();              /* ... and every thread's: slab 0 is complete */
        if (kConvertSmem) {
            convert_stage(as, bs, tid); /* slab 0, complete and not yet read by anyone */
            __syncthreads();            /* every thread's conversions are visible before any fragment load */
        }

        Frags frag[2];
        load_frags(frag[0], as, bs, lo, 0);
        int read_slab = 0;            /* slab of k-tile kt */
        int write_slab = kStages - 1; /* slab that k-tile kt + kStages - 1 goes to */
        for (unsigned kt = 0; kt < ktiles; ++kt) {
#pragma unroll
            for (int s = 0; s < kKSteps; ++s) {
                if (s == kKSteps - 1) {
                    /* The next k-step is k-step 0 of k-tile kt + 1, whose copies
                     * were committed kStages - 2 groups before the newest. */
                    cp_async_wait<kStages - 2>();
                    /* Everyone's copies of k-tile kt+1 are visible, and every
                     * warp has read its last fragments of k-tile kt (k-step
                     * kKSteps-1's were loaded one step earlier): from here on
                     * slab read_slab may be refilled. */
                    __syncthreads();
                    read_slab = read_slab + 1 == kStages ? 0 : read_slab + 1;
                    if (kConvertSmem) {
                        /* GK11_CONVERT=1: round k-tile kt+1's slab in place. It
                         * is complete (the wait + barrier above) and nobody
                         * reads it before the barrier below; the only other
                         * shared traffic until then is k-tile kt+2's cp.async
                         * into another slab. This k-step's mma need only the
                         * registers loaded one k-step earlier, so they are
                         * issued in the same basic block and ptxas may
                         * interleave them with the pass. After the last
                         * k-tile the slab holds nothing anybody uses (no copy
                         * is in flight then, all later groups being empty):
                         * converting it is harmless, and keeps the branch-free
                         * block. */
                        convert_stage(as + read_slab * kAStage, bs + read_slab * kBStage, tid);
                        mma_step(acc, frag[s & 1]);
                        /* Every thread's conversions of k-tile kt+1 are
                         * visible before anyone loads its fragments (the
                         * second barrier of the k-tile). */
                        __syncthreads();
                        load_frags(frag[(s + 1) & 1], as + read_slab * kAStage, bs + read_slab * kBStage, lo, 0);
                        continue; /* s == kKSteps-1 > 0: no refill in this k-step */
                    }
                }
                /* The next k-step's fragments into the other buffer while this
                 * k-step's mma run (after the last k-tile this reads a slab
                 * nobody uses: harmless, in bounds). */
                load_frags(frag[(s + 1) & 1], as + read_slab * kAStage, bs + read_slab * kBStage, lo,
                           (s + 1) % kKSteps);
                if (s == 0) {
                    /* Refill the slab k-tile kt-1 used (free since the barrier
                     * in k-tile kt-1's last k-step) with k-tile kt + kStages - 1. */
                    const unsigned next = kt + kStages - 1;
                    if (next < ktiles) {
                        load_a_tile<kAVec>(as + write_slab * kAStage, a, lda, m, k, bm, next, tid);
                        load_b_tile<kBVec>(bs + write_slab * kBStage, b, ldb, n, k, bn, next, tid);
                    }
                    cp_async_commit(); /* one group per k-tile, even empty: the wait count stays exact */
                    write_slab = write_slab + 1 == kStages ? 0 : write_slab + 1;
                }
                mma_step(acc, frag[s & 1]);
            }
        }
    }

    /* Epilogue straight from registers: acc[i][j][e + 2f] is C(row 8j + 2t + e,
     * column 16i + 2g + f) of the warp tile, so for each of its 2*MT rows a
     * lane writes NT float2 (f = 0, 1 side by side). No shared memory, no
     * barrier. */
#pragma unroll
    for (int j = 0; j < kMT; ++j)
#pragma unroll
        for (int e = 0; e < 2; ++e) {
            const unsigned row = bm + c_row(lane, wm, j, e);
            if (row >= m) continue;
            float *const crow = c + (size_t)row * ldc;
#pragma unroll
            for (int i = 0; i < kNT; ++i) {
                const unsigned col = bn + c_col(lane, wn, i, 0); /* even */
                const float v0 = acc[i][j][e], v1 = acc[i][j][e + 2];
                if (c_vec && col + 2 <= n) {
                    /* c 8-byte aligned, ldc even, col even: an aligned float2 */
                    float2 *p = reinterpret_cast<float2 *>(crow + col);
                    float2 r = make_float2(alpha * v0, alpha * v1);
                    if (beta != 0.0f) { /* only then is C read */
                        const float2 o = *p;
                        r.x += beta * o.x;
                        r.y += beta * o.y;
                    }
                    *p = r;
                } else {
                    if (col < n) store_one(crow + col, alpha, v0, beta);
                    if (col + 1 < n) store_one(crow + col + 1, alpha, v1, beta);
                }
            }
        }
#endif
}

typedef void (*Kernel)(unsigned, unsigned, unsigned, float, const float *, size_t, const float *, size_t, float,
                       float *, size_t, unsigned, unsigned, bool);

} // namespace

extern "C" cudaError_t gk_gemm_11_tf32_mma_run(size_t m, size_t n, size_t k, float alpha, const float *a,
                                              size_t lda, const float *b, size_t ldb, float beta, float *c,
                                              size_t ldc, cudaStream_t stream)
{
    /* cp.async and mma .tf32 exist from compute capability 8.0 on. */
    int dev = 0, major = 0;
    cudaError_t err = cudaGetDevice(&dev);
    if (err == cudaSuccess) err = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    if (err != cudaSuccess) return err;
    if (major < 8) return cudaErrorNotSupported;

    const size_t tiles_m = (m + kBM - 1) / kBM, tiles_n = (n + kBN - 1) / kBN;
    if (tiles_m * tiles_n > 0x7fffffffu) return cudaErrorInvalidConfiguration;

    /* 16-byte copies need every row start 16-byte aligned: the base and ld;
     * float2 stores need 8-byte aligned row starts of C. */
    const bool a_vec = ((uintptr_t)a & 15u) == 0 && lda % 4 == 0;
    const bool b_vec = ((uintptr_t)b & 15u) == 0 && ldb % 4 == 0;
    const bool c_vec = ((uintptr_t)c & 7u) == 0 && ldc % 2 == 0;
    const Kernel kernel = a_vec ? (b_vec ? gemm_tf32_mma<true, true> : gemm_tf32_mma<true, false>)
                                : (b_vec ? gemm_tf32_mma<false, true> : gemm_tf32_mma<false, false>);

    err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kSmemBytes);
    if (err != cudaSuccess) return err;
    kernel<<<(unsigned)(tiles_m * tiles_n), kThreads, kSmemBytes, stream>>>(
        (unsigned)m, (unsigned)n, (unsigned)k, alpha, a, lda, b, ldb, beta, c, ldc, (unsigned)tiles_m,
        (unsigned)tiles_n, c_vec);
    return cudaGetLastError();
}
