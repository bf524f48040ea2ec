/* Variant 11: TF32 tensor cores, warp-level mma.sync, swizzled shared memory,
 * fed by the TMA through an mbarrier pipeline on Hopper (sm_90) and by a
 * cp.async pipeline elsewhere.
 *
 * The idea: variants 1-10 multiply with FFMA, one fused multiply-add per
 * thread and instruction, 32 per warp instruction. A tensor core multiplies
 * small matrices: one warp-wide
 *     mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32    (SASS: HMMA.1688.F32.TF32)
 * computes D(16x8) = A(16x8) * B(8x8) + C, 16*8*8 = 1024 multiply-adds, 32
 * times the work of one warp FFMA, accumulating in fp32. Its inputs are TF32:
 * fp32 with the mantissa cut to 10 explicit bits. The block tiling, warp
 * tiling and multistage pipeline of variants 5-9 stay; what changes is the
 * innermost product: a warp no longer runs 8x8 FFMAs per thread but owns a
 * 64x64 patch of C made of 4 x 8 mma tiles. mma.sync is the Ampere way
 * (sm_80); variant 12 moves to Hopper's warpgroup-wide wgmma.
 *
 * What that changes, counted per warp and 8-deep k-step of a 64x64 warp
 * tile: 64*64*8 = 32768 multiply-adds were 1024 FFMA instructions (plus the
 * shared loads feeding them); here they are 32 HMMA and 16 LDS.64. Arithmetic
 * stops being the instruction stream's bulk; feeding the tensor cores from
 * shared memory becomes the job, and so does everything else a warp issues
 * or waits for: the operands' rounding to TF32 and the pipeline's barriers
 * (the last two sections say what each cost, measured).
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
 * that pair: loading B with LDS.128 in that mapping, ptxas builds the pairs
 * with 192 register moves per 128 HMMA in the loop (counted in the SASS of
 * such a build).
 * So the roles are swapped: the tensor core computes C^T = B^T * A^T, tile by
 * tile, and three free relabellings make every operand a plain 8-byte load:
 * - k: inside k-step s (8 columns of the k-tile), mma index t is k column
 *   8s + 2t and t+4 is 8s + 2t + 1. Any order works if A and B use the same.
 * - n (the mma's 16 rows = columns of C): mma row r of n-tile i is warp
 *   column 16i + 2(r % 8) + r / 8, so rows g and g+8 are columns 2g, 2g+1.
 * - m (the mma's 8 columns = rows of C): mma column c of m-tile j is warp
 *   row 8j + rho(c), rho(c) = 2(c % 4) + c / 4 (c = 0..7 -> rows 0, 2, 4, 6,
 *   1, 3, 5, 7): the order the swizzle below needs.
 * Then, per lane and k-step:
 *   mma A = B^T:  a0,a1 = B[8s+2t][16i+2g .. +1],  a2,a3 = B[8s+2t+1][16i+2g .. +1]
 *                 two LDS.64, straight into the quad (n-tile i, 4 per warp)
 *   mma B = A^T:  b0,b1 = A[8j+rho(g)][8s+2t .. +1]
 *                 one LDS.64, straight into the pair (m-tile j, 8 per warp)
 *   D = C^T:      d0,d2 = C[8j+rho(2t)][16i+2g .. +1],  d1,d3 = C[8j+rho(2t+1)][16i+2g .. +1]
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
 * ---- Shared memory: 128-byte panels and their swizzle ----------------------
 * An SM's shared memory serves one 128-byte wavefront per clock. Per k-tile
 * the block reads 8 warps x 4 k-steps x 32 wavefronts = 1024 and the loads
 * write (BM + BN) * BK * 4 / 128 = 384 more, for 1024 mma: 1.375 wavefronts
 * per mma. That is only affordable if every access costs its minimum (a
 * 64-bit load is served 16 lanes = 128 B at a time), so the layout is
 * chosen for the fragment loads and for the TMA at once:
 * - Both slabs are stored as panels 32 floats (128 B) wide: the A slab
 *   [BM][BK] is BK/32 panels of BM rows, the B slab [BK][BN] is BN/32 = 8
 *   panels of BK rows. Inside a panel, 16-byte chunk q of row r is stored at
 *   chunk q ^ (r % 8). That is the TMA's 128-byte swizzle mode (CUDA C++
 *   Programming Guide, "Tensor Memory Access"; in address bits: bits 4-6
 *   XORed with bits 7-9), which the TMA applies by itself when a panel
 *   starts on a 1024-byte boundary; the cp.async path computes the same
 *   places, so both paths share every fragment load.
 * - The A loads (b0,b1): a half-warp reads rows 8j + rho(g) for g = 0..3
 *   (rows 0, 2, 4, 6 of the m-tile) or 4..7 (1, 3, 5, 7), times 8-byte
 *   pieces 8s + 2t (t = 0..3: chunks 2s and 2s+1, both halves). Rows are
 *   128 B apart, so unswizzled all 4 rows hit the same 8 banks: 4-way. With
 *   the XOR, chunk 2s + b of row r goes to (2s + b) ^ r: for the even rows
 *   r = 2g that is 2(s ^ g) + b, for the odd rows 2(s ^ g) + (b ^ 1): 8
 *   distinct chunks, 32 banks, 1 wavefront per half-warp. (With rows
 *   8j + g instead of rho, rows 0 and 1 would send chunks 2s+1 and 2s to
 *   the same place: 2-way.)
 * - The B loads (a0,a1 and a2,a3): a half-warp reads rows 8s + 2t + hh
 *   (t = 0..3) times columns 16i + 2g (g = 0..3: chunks 4(i%2) and
 *   4(i%2) + 1 of a panel, both halves). The rows' swizzles 2t + hh differ
 *   in bits 1-2 and the two chunks in bit 0: 8 distinct chunks again.
 * - The cp.async path's 16-byte writes: 8 lanes write the 8 chunks of one
 *   128-byte row, which the XOR permutes within the row: 1 wavefront.
 * static_asserts below recount all of this for whatever configuration is
 * compiled.
 *
 * ---- Two pipelines: the TMA path and the cp.async path ----------------------
 * The launcher picks one per call; both run the same warps, fragments and
 * epilogue.
 * TMA path (compute capability 9.0+, both operands' rows 16-byte aligned,
 * k > 0): STAGES = 4 slabs of (BM + BN) * BK * 4 B = 48 KB, 192 KB of
 * dynamic shared memory (plus 1 KB of alignment slack and 8 mbarriers).
 * Per k-tile, thread 0 issues one 2D tensor copy (cp.async.bulk.tensor) of
 * A (32 k-columns x 128 rows) and 8 of B (32 columns x 32 k-rows each):
 * whole swizzled panels, zero-filled where they leave the matrix, their
 * bytes counted on the stage's "full" mbarrier (arrive.expect_tx). Each
 * tensor map's element type is TFLOAT32, so the TMA rounds every element to
 * TF32 (to nearest, ties to even) on its way into shared memory: the warps
 * read operands ready for the tensor core and convert nothing. A warp waits
 * on "full" before a k-tile's first fragment loads; every thread arrives on
 * the stage's "empty" mbarrier (count 256) once it has issued its last
 * loads of the k-tile, and thread 0 waits on "empty" before it refills
 * that stage. There is no block-wide barrier in the loop: a warp that runs
 * ahead is held back only by data that has not landed, or (warp 0 alone,
 * when it is about to refill a stage) by a warp still reading the k-tile
 * before its own, whose stage that is.
 * An interior trip of the main loop (one k-tile), counted in the SASS
 * (cuobjdump, CUDA 13.0): 346 instructions, of which 104 are thread 0's
 * copy branch; a warp that skips it issues 128 HMMA, 64 LDS.64 and 50
 * others (addresses, the two mbarrier operations, the loop).
 * cp.async path (compute capability 8.x, rows the TMA cannot address, or
 * k = 0): STAGES = 3 slabs, 144 KB (plus the slack), which an A100 (163 KB
 * per block) holds. Every thread copies 16-byte chunks (or single floats:
 * "Limits" below) with cp.async.cg into the swizzled places; one commit
 * group per k-tile; before a k-tile's first fragment loads a thread waits
 * for its own copies (cp.async.wait_group) and then, at a __syncthreads,
 * for everyone's, which also tells that every warp has finished reading the
 * slab that is refilled next. The operands reach registers as fp32 and are
 * rounded there (cvt.rna.tf32.f32: to nearest, ties away from zero), 2 SASS
 * instructions per element (a compare against infinity and a predicated
 * integer add of half a TF32 unit; the HMMA ignores the 13 low bits, so
 * ptxas drops the mask): NT*4 + MT*2 = 32 elements per lane and k-step, 64
 * instructions next to 32 HMMA. Each A element is rounded by the 4 n-warps
 * that read it, each B element by the 2 m-warps.
 * Both paths: the fragments are double-buffered in registers (k-step s+1,
 * across the k-tile boundary too, is read while the mma of k-step s run).
 * Registers: NT*MT*4 = 128 fp32 accumulators per thread, 2 x (16 + 16) = 64
 * fragment registers, plus addresses: ptxas -v (sm_90, CUDA 13.0) reports
 * 216 for the TMA kernel and 248-255 for the four cp.async ones, no spills.
 * Occupancy: 256 threads and up to 255 registers, 193 KB or 145 KB of
 * shared memory: 1 block = 8 warps per SM, two per scheduler; latency is
 * hidden by the 32 independent mma per k-step and the stages in flight,
 * not by more warps.
 *
 * ---- Precision (what the tolerance assumes) --------------------------------
 * Each operand is rounded fp32 -> TF32 to nearest (ties to even by the TMA,
 * away from zero by cvt.rna: they differ only on exact ties). TF32 = 1
 * sign, 8 exponent (fp32's range), 10 explicit mantissa bits: unit
 * roundoff u = 2^-11, each product a*b off by a relative 2u + u^2 at most,
 * sums in fp32 inside the tensor core. The tests and the bench hold every element of C to
 * gk_gemm_tolerance (../gemm_ref.h derives it, gemm_ref.c computes it) for
 * TF32:
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
 * looser tolerance than theirs. Rounding to nearest is what keeps the
 * errors mean-zero: truncation (what the tensor core does to fp32 bits it
 * is handed unrounded) errs toward zero every time, and on positive data
 * the error grows like k, not sqrt(k); a test shape with positive inputs
 * and k = 8192 is there to catch it.
 *
 * What bounds it: the issue rate of mma.sync on Hopper's tensor cores
 * (which run it well below wgmma's rate), then shared-memory bandwidth
 * (1.375 wavefronts per mma) and, on the cp.async path, the 64 conversions
 * beside every 32 HMMA; at 4096^3 the 3.2 GB of L2 -> SM traffic comes
 * next, which the 128 x 256 tile (128 x 128: 4.3 GB) and the block swizzle
 * keep down.
 *
 * L2 block swizzle: the 1-D grid is walked in groups of GROUP_M = 8 tile
 * rows, column by column inside a group (block b of a group -> tile row
 * b % 8, tile column b / 8), so the blocks resident at one time share 8
 * slabs of A and a few of B in L2.
 *
 * gk_gemm_ex (transposed operands, batches, the epilogue): the fragment
 * loads above are built around A stored m x k (pairs along k in one
 * 8-byte word) and B stored k x n (pairs along n); a transposed operand
 * would need another layout and another conflict count. So the launcher
 * first copies an operand given transposed (A stored k x m, B stored n x k)
 * into the workspace as m x k or k x n (transpose_f32 in common.cuh, rows
 * padded to 16 bytes, one copy per product that has its own operand), and
 * the kernel reads the copies: a read and a write of each such operand
 * (8 m k or 8 k n bytes) before the product. Batches: block b of the 1-D
 * grid is tile b mod (tiles of a product) of product b / (tiles of a
 * product); the tensor maps are 3D (columns, rows, products: sm90.cuh's
 * map_batched), a box's third coordinate its product, 0 for an operand of
 * stride 0; the cp.async path offsets A and B by z times their strides,
 * the epilogue C. The epilogue (bias, bias + ReLU, bias + GELU: common.cuh's
 * epilogue_apply) is applied in store_warp_tile before the one store; a
 * lane's 2 NT = 8 columns are the same in every row, so their biases are
 * loaded once.
 *
 * Limits and fallbacks:
 * - sm_80+ (cp.async, mma .tf32). Compiled for an older GPU the kernel is
 *   empty, and the launcher returns cudaErrorNotSupported below compute
 *   capability 8.0 without launching. Shared memory is raised with
 *   cudaFuncSetAttribute: 145 KB fits sm_80 (163 KB), 193 KB sm_90 (227 KB).
 * - The TMA path needs compute capability 9.0+, a build that holds its
 *   sm_90 code (a build for older GPUs only leaves a stub, which the
 *   launcher recognizes by the static shared variable it declares, and
 *   takes the cp.async path), a and b 16-byte aligned with lda and ldb
 *   multiples of 4 (the TMA's 16-byte row strides), k > 0, and m, n, k at
 *   most 2^31 - 289 (the TMA's coordinates are signed 32-bit and reach a
 *   dimension plus a box). Its tensor
 *   maps are encoded on the host at every call (cuTensorMapEncodeTiled
 *   through cudaGetDriverEntryPointByVersion: nothing links libcuda).
 * - cp.async path, per operand: A (B) is copied in 16-byte cp.async.cg
 *   chunks when a (b) is 16-byte aligned and lda (ldb) % 4 == 0; otherwise
 *   every float is copied by a 4-byte cp.async.ca (4x the copy
 *   instructions; same layout, same compute).
 * - Edges: the TMA zero-fills what lies outside the matrix. On the cp.async
 *   path a chunk or float outside the matrix is copied with src-size 0
 *   (cp.async then reads nothing and writes zeros, the source address being
 *   the matrix start), and a chunk that straddles column k or n (when that
 *   is not a multiple of 4) is copied float by float, so no copy names a
 *   byte outside A or B. Either way a partial k-tile adds exact zeros.
 *   C is written as float2 when c is 8-byte aligned, ldc is even and both
 *   columns exist, one guarded float at a time otherwise; rows past m are
 *   skipped. beta == 0 never reads C. k == 0 skips the k-loop; the epilogue
 *   still writes beta * C (0 when beta == 0).
 * - 1-D grid of ceil(m/BM) * ceil(n/BN) * batch blocks (at most 2^31 - 1).
 *
 * Tuning macros (compile-time; static_asserts check them): GK11_BM, GK11_BN,
 * GK11_BK (32 or 64), GK11_WARPS_M, GK11_WARPS_N, GK11_STAGES (cp.async
 * path), GK11_TMA_STAGES (TMA path), GK11_GROUP_M, GK11_MIN_BLOCKS
 * (__launch_bounds__ minimum blocks per SM). Warp tile =
 * (BM/WARPS_M) x (BN/WARPS_N), rows a multiple of 8, columns of 32.
 * Worth trying (same source, -D flags):
 *   default: BM=128 BN=256 BK=32 WARPS 2x4, 4 TMA stages, 3 cp.async stages
 *   -DGK11_BK=64 -DGK11_STAGES=2 -DGK11_TMA_STAGES=2
 *                                   (192 KB on both paths: sm_90 only; faster there)
 *   -DGK11_TMA_STAGES=3               (144 KB)
 *   -DGK11_BM=256 -DGK11_BN=128 -DGK11_WARPS_M=4 -DGK11_WARPS_N=2
 *                                   (256x128, 8 warps of 64x64)
 *
 * ---- How the default was chosen ---------------------------------------------
 * Measured, not guessed: gemm/tuning/variant11-h200.csv holds the runs
 * (NVIDIA H200, CUDA 13.0). scripts/tune_gemm.sh 11 builds gk_bench once per
 * set of -D flags and times this variant and cuBLAS TF32 in the same process
 * (cold L2, median) at 4096^3, 8192^3 and 4097x3001x2049. Its vs_reference
 * column is cuBLAS TF32 time / variant 11 time: 1 would be cuBLAS's speed.
 * cuBLAS's own time varies by several % from process to process
 * (0.341-0.377 ms at 4096^3), so the ratios are noisier than the kernel's
 * own times, which are quoted too. The cp.async path alone (runs 2-4,
 * without the TMA path): its best configuration took 0.80 ms at 4096^3
 * (172 TFLOP/s, 0.43-0.46x), and no tile or stage count moved it by more
 * than 4%: -DGK11_BK=64
 * -DGK11_STAGES=2 0.76-0.78 ms, 4 stages within 1%, 128x128 with 2 blocks
 * per SM 5-20% slower (a third more L2 traffic), 256x128 as fast on the
 * squares and 50% slower on 4097x3001x2049 (its 17 x 24 = 408 tiles make
 * 3 rounds of the H200's 132 SMs and 12 tiles more; 128x256's 396 make
 * exactly 3). Rounding once per element in shared memory instead of in
 * registers (a pass over each landed slab, a second barrier per k-tile:
 * 48 instead of 128 conversions per thread and k-tile, but 2 x 384 more
 * wavefronts) was 9-16% slower. The loop's costs, priced one at a time
 * (run 4, 4096^3 / 8192^3):
 * - The rounding. The same kernel with the conversion removed (a
 *   measurement only: the tensor core then truncates) took 0.711 / 5.78 ms
 *   instead of 0.798 / 6.35: the 64 conversions per 32 HMMA cost 11%.
 * - The TMA path takes them out for free: the TMA rounds. With the
 *   cp.async path's __syncthreads per k-tile kept (run 5) it took 0.667 /
 *   5.23 ms (4 stages; 3 stages 0.673 / 5.25).
 * - The barrier. Replacing that __syncthreads by the full/empty mbarriers
 *   above (run 6, the default) took 0.590 / 4.83 ms: 233 / 228 TFLOP/s,
 *   0.589x / 0.632x cuBLAS TF32 in that run: 12% less time than with the
 *   barrier, 26% less than the cp.async path. With one barrier per
 *   k-tile every warp waits for the slowest at every k-tile; with the
 *   mbarriers a warp waits only for data that has not landed.
 * - 3 TMA stages instead of 4: the same speed (0.589 / 4.81 ms).
 * - -DGK11_BK=64 -DGK11_STAGES=2 -DGK11_TMA_STAGES=2: 0.542 / 4.39 ms
 *   (0.635x / 0.696x), and 0.432 ms instead of 0.464 on 4097x3001x2049
 *   (lda = 2049: the cp.async path). Not the default, because BK is one
 *   macro for both paths: the cp.async path's 2 stages of 64 need 192 KB,
 *   more than an A100 gives a block.
 * How it compares (gemm/bench-h200.json, H200, 2026-11-23 19:42 UTC): the
 * default's TMA path takes 0.5935 ms at 4096^3 and 4.7964 at 8192^3, 0.574x
 * and 0.631x cuBLAS TF32 (231.6 and 229.2 TFLOP/s); on 4097x3001x2049
 * (lda = 2049: the cp.async path) 0.4654 ms, 0.910x. The cp.async path on
 * the squares (A100, or rows the TMA cannot address) measured 0.43-0.47x
 * in the runs above. What bounds it: see "What bounds it" above.
 *
 * Sources: PTX ISA (cp.async, cp.async.bulk.tensor, mbarrier, mma.m16n8k8
 * .tf32 fragment layouts, cvt.rna.tf32.f32); CUDA C++ Programming Guide
 * (asynchronous copies, "Tensor Memory Access" and its swizzle modes,
 * shared-memory banks); CUDA Driver API (cuTensorMapEncodeTiled, the
 * TFLOAT32 element type); NVIDIA CUTLASS documentation "Efficient GEMM in
 * CUDA" (block / warp / instruction tiling, multistage pipelines, swizzled
 * shared memory); Simon Boehm, "How to Optimize a CUDA Matmul Kernel for
 * cuBLAS-like Performance" (2022), for the ladder this ends.
 *
 * Build alone: nvcc -arch=sm_90 -c 11_tf32_mma.cu
 *   (next to sm90.cuh and common.cuh, which it includes: the three files
 *   need nothing else but the CUDA toolkit)
 */
#include "sm90.cuh"

#include <string.h>

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
#define GK11_STAGES 3 /* the cp.async path (any GPU from sm_80 on) */
#endif
#ifndef GK11_TMA_STAGES
#define GK11_TMA_STAGES 4 /* the TMA path (sm_90) */
#endif
#ifndef GK11_GROUP_M
#define GK11_GROUP_M 8
#endif
#ifndef GK11_MIN_BLOCKS
#define GK11_MIN_BLOCKS 1
#endif

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
/* Below sm_80 the kernel body is compiled out, leaving its helpers unused. */
#pragma nv_diag_suppress 177
#endif

namespace {

constexpr int kBM = GK11_BM, kBN = GK11_BN, kBK = GK11_BK;
constexpr int kWarpsM = GK11_WARPS_M, kWarpsN = GK11_WARPS_N;
constexpr int kStagesCopy = GK11_STAGES, kStagesTma = GK11_TMA_STAGES;
constexpr unsigned kGroupM = GK11_GROUP_M;
constexpr int kThreads = kWarpsM * kWarpsN * 32;
constexpr int kWM = kBM / kWarpsM, kWN = kBN / kWarpsN; /* warp tile: rows (m) x columns (n) */
constexpr int kNT = kWN / 16;                           /* n16 tiles per warp (the mma's 16 rows run over n) */
constexpr int kMT = kWM / 8;                            /* m8 tiles per warp (the mma's 8 columns run over m) */
constexpr int kKSteps = kBK / 8;                        /* mma k-steps per k-tile */
constexpr int kPanel = 32;                              /* floats per row of a panel: 128 bytes */
constexpr int kAStage = kBM * kBK, kBStage = kBK * kBN; /* floats per slab */
constexpr size_t kStageBytes = (size_t)(kAStage + kBStage) * sizeof(float);
constexpr size_t kAlign = 1024; /* the TMA's 128-byte swizzle repeats every 1024 bytes */
/* Dynamic shared memory: slack to align the slabs to 1024 bytes, the slabs,
 * and (TMA path) two 8-byte mbarriers per stage, full and empty. */
constexpr size_t smem_bytes(int stages) { return kAlign + (size_t)stages * kStageBytes + (size_t)stages * 16; }

static_assert(kBM % kWarpsM == 0 && kWM % 8 == 0, "warp tile rows: a multiple of 8 (m8 tiles)");
static_assert(kBN % kWarpsN == 0 && kWN % kPanel == 0, "warp tile columns: whole 32-column panels of B");
static_assert(kBK % kPanel == 0, "BK: whole 32-column panels of A (32 or 64)");
static_assert(kBM <= 256 && kBK <= 256, "a TMA box is at most 256 rows");
static_assert(kKSteps % 2 == 0, "fragment double buffer: k-step 0 of every k-tile uses buffer 0");
static_assert(kStagesCopy >= 2 && kStagesCopy <= 8 && kStagesTma >= 2 && kStagesTma <= 8, "2..8 pipeline stages");
static_assert(kThreads >= 32 && kThreads <= 1024, "block size");
static_assert(smem_bytes(kStagesTma) <= 227u * 1024u, "TMA path: dynamic shared memory above sm_90's 227 KB");
static_assert(smem_bytes(kStagesCopy) <= 227u * 1024u, "cp.async path: above sm_90's 227 KB per block");
static_assert(kGroupM >= 1 && kGroupM <= 64, "GROUP_M");

/* ---- Shared-memory layout: where float (row, col) of a slab lives --------
 * A slab (BM x BK) and a B slab (BK x BN) are stored as panels 32 floats
 * (128 bytes) wide: column c is in panel c / 32. Inside a panel, row r is 128
 * bytes, and its 16-byte chunk q is stored at chunk q ^ (r % 8): exactly the
 * TMA's 128-byte swizzle, which XORs address bits 4-6 with bits 7-9, once a
 * panel starts on a 1024-byte boundary. The cp.async path writes the same
 * layout itself, so both paths share every fragment load. */
__host__ __device__ constexpr int swz(int r, int c) { return ((((c & 31) >> 2) ^ (r & 7)) << 2) + (c & 3); }
__host__ __device__ constexpr int a_index(int r, int c)
{
    return (c / kPanel) * (kBM * kPanel) + r * kPanel + swz(r, c);
}
__host__ __device__ constexpr int b_index(int p, int c)
{
    return (c / kPanel) * (kBK * kPanel) + p * kPanel + swz(p, c);
}

/* ---- Fragment and accumulator coordinates (see "Which operand is which") --
 * Lane (g, t) = (lane / 4, lane % 4). The mma's column c of m-tile j (0..7)
 * is warp row 8j + rho(c), rho(c) = 2 (c % 4) + c / 4: a half-warp (g = 0..3
 * or 4..7) reads rows 0, 2, 4, 6 or 1, 3, 5, 7 of the m-tile, whose swizzles
 * differ in chunk bits 1-2 (see the header). */
__host__ __device__ constexpr int rho(int c) { return 2 * (c & 3) + (c >> 2); }
/* The float2 {b0, b1} of m-tile j, k-step s: A slab row 8j + rho(g), columns 8s + 2t, +1. */
__host__ __device__ constexpr int a_frag_offset(int lane, int warp_m, int j, int s)
{
    return a_index(warp_m * kWM + 8 * j + rho(lane >> 2), 8 * s + 2 * (lane & 3));
}
/* The float2 {a[2hh], a[2hh+1]} of n-tile i, k-step s: B slab row 8s + 2t + hh,
 * columns 16i + 2g, +1. */
__host__ __device__ constexpr int b_frag_offset(int lane, int warp_n, int i, int s, int hh)
{
    return b_index(8 * s + 2 * (lane & 3) + hh, warp_n * kWN + 16 * i + 2 * (lane >> 2));
}
/* acc[i][j][e + 2f] is C(c_row(.., j, e), c_col(.., i, f)) of the block tile:
 * d[e + 2f] is the mma's D(row g + 8f, column 2t + e). */
__host__ __device__ constexpr int c_row(int lane, int warp_m, int j, int e)
{
    return warp_m * kWM + 8 * j + rho(2 * (lane & 3) + e);
}
__host__ __device__ constexpr int c_col(int lane, int warp_n, int i, int f)
{
    return warp_n * kWN + 16 * i + 2 * (lane >> 2) + f;
}

/* ---- Compile-time proofs for the configuration being built -------------
 * (1) The fragment offsets split into a per-lane part and a compile-time
 * part: m-tile j adds 8j rows (the swizzle repeats every 8 rows); n-tile i
 * adds one panel per pair of tiles; k-step s adds 8s rows (the swizzle of
 * row 8s + 2t + hh depends on 2t + hh only). So a lane keeps kKSteps A
 * offsets and 4 B offsets (n-tile parity x half hh) in registers. */
__host__ __device__ constexpr bool offsets_split()
{
    for (int lane = 0; lane < 32; ++lane)
        for (int w = 0; w < (kWarpsM > kWarpsN ? kWarpsM : kWarpsN); ++w)
            for (int s = 0; s < kKSteps; ++s) {
                for (int j = 0; j < kMT; ++j)
                    if (w < kWarpsM && a_frag_offset(lane, w, j, s) != a_frag_offset(lane, w, 0, s) + 8 * j * kPanel)
                        return false;
                for (int i = 0; i < kNT; ++i)
                    for (int hh = 0; hh < 2; ++hh)
                        if (w < kWarpsN && b_frag_offset(lane, w, i, s, hh) !=
                                               b_frag_offset(lane, w, i & 1, 0, hh) + (i >> 1) * kBK * kPanel +
                                                   8 * s * kPanel)
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
/* (4) The layout is a permutation of the slab: every element has its own
 * place (so the TMA's boxes, laid panel after panel, fill it exactly). */
__host__ __device__ constexpr bool layout_is_permutation()
{
    for (int base = 0; base < kAStage; base += kPanel) { /* every 128-byte row of A: 32 distinct places */
        bool used[kPanel] = {};
        const int r = (base / kPanel) % kBM, p = base / (kBM * kPanel);
        for (int c = 0; c < kPanel; ++c) {
            const int d = a_index(r, p * kPanel + c) - base;
            if (d < 0 || d >= kPanel || used[d]) return false;
            used[d] = true;
        }
    }
    return true;
}
static_assert(offsets_split(), "fragment offsets: per-lane part + compile-time part");
static_assert(fragment_loads_conflict_free(), "fragment loads: one wavefront per half-warp");
static_assert(copy_writes_conflict_free(), "cp.async writes: one wavefront per 8 chunks");
static_assert(layout_is_permutation(), "the swizzle permutes chunks inside each 128-byte row");

/* ---- PTX wrappers (sm_80+ / sm_90+; empty elsewhere, and never called there) */
/* 4-byte async copy (any 4-byte alignment); src_bytes 0 writes a zero. */
__device__ __forceinline__ void cp_async4(uint32_t dst, const float *src, int src_bytes)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes));
#endif
}
/* ---- cp.async path: global -> shared copies of one k-tile (issued, not waited)
 * A slab is BM rows x BK floats, a B slab BK rows x BN floats, copied in units
 * of kW floats (kW = 4: one 16-byte cp.async.cg; kW = 1: one 4-byte
 * cp.async.ca). Thread tid copies units tid, tid + kThreads, ...: consecutive
 * threads take consecutive units of a row, so every warp reads whole 128-byte
 * lines. As kThreads is a multiple of the units per row, a thread keeps one
 * column and steps down kRowStep rows per unit: its global offset grows by
 * kRowStep * ld (one 64-bit add), and its shared offset repeats the first
 * kRepeat units' (the swizzle's period, 8 rows, in units) shifted by whole
 * periods, a compile-time constant. Nothing per unit stays in registers
 * across the k-loop. */
__host__ __device__ constexpr int gcd(int x, int y) { return y == 0 ? x : gcd(y, x % y); }
template <int kW, int kRows, int kCols> struct Copy {
    static constexpr int kUnitsPerRow = kCols / kW;
    static_assert(kUnitsPerRow <= kThreads, "a row of a slab must not need more units than threads");
    static constexpr int kRowStep = kThreads / kUnitsPerRow;
    static constexpr int kUnits = kRows / kRowStep;             /* units per thread */
    static constexpr int kRepeat = 8 / gcd(kRowStep, 8);         /* units until the swizzle repeats */
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
 * kRows x kCols is the slab, index(row, col) its layout. */
template <bool kVec, int kRows, int kCols, class Index, class Unit>
__host__ __device__ __forceinline__ void tile_units(unsigned rows_left_total, unsigned first_col, unsigned cols,
                                                    size_t first_off, size_t ld, int tid, Index &&index, Unit &&unit)
{
    typedef Copy<kVec ? 4 : 1, kRows, kCols> C;
    const int r0 = tid / C::kUnitsPerRow, c = (tid % C::kUnitsPerRow) * (kVec ? 4 : 1);
    const unsigned col = first_col + c;
    /* bytes of this thread's units inside the matrix's columns: all, the 4-12
     * before the last column (a straddling chunk, kVec only), or none; the
     * same for all its units (one column) */
    const int bytes = col >= cols ? 0 : kVec ? (int)(cols - col < 4 ? cols - col : 4) * 4 : 4;
    const int rows_left = (int)rows_left_total - r0; /* unit u is inside iff u * kRowStep < rows_left */
    int dst[C::kRepeat];
#pragma unroll
    for (int q = 0; q < C::kRepeat; ++q) dst[q] = index(r0 + q * C::kRowStep, c);
    size_t off = first_off + (size_t)r0 * ld + c; /* an offset, not a pointer: used only inside the matrix */
    const size_t step = (size_t)C::kRowStep * ld;
    if (kVec && bytes > 0 && bytes < 16) { /* this thread's chunks straddle the last column: float by float */
#pragma unroll 1
        for (int p = 0; p < C::kUnits / C::kRepeat; ++p)
#pragma unroll
            for (int q = 0; q < C::kRepeat; ++q) {
                const bool in = (p * C::kRepeat + q) * C::kRowStep < rows_left;
#pragma unroll
                for (int e = 0; e < 4; ++e)
                    unit(dst[q] + p * C::kRepeat * C::kRowStep * kPanel + e, off + e, in && 4 * e < bytes ? 4 : 0, 1);
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
            unit(dst[q] + p * C::kRepeat * C::kRowStep * kPanel, off, u * C::kRowStep < rows_left ? bytes : 0,
                 kVec ? 4 : 1);
            off += step;
        }
}
/* A thread's units always stay in one panel (a column), so stepping rows
 * adds kPanel floats per row, as tile_units assumes. */
static_assert(kThreads % (kBK / 4) == 0 && kThreads % (kBN / 4) == 0 && kThreads % kBK == 0 && kThreads % kBN == 0,
              "a thread copies one column of units");

/* Issue one k-tile's copies of A (of B) into a slab. src-size 0 reads
 * nothing and writes zeros; the source address is then the matrix start,
 * so no address outside the matrix is ever formed. */
template <bool kVec>
__device__ __forceinline__ void load_a_tile(float *as, const float *a, size_t lda, unsigned m, unsigned k,
                                            unsigned bm, unsigned kt, int tid)
{
    const uint32_t as_u32 = smem_u32(as);
    tile_units<kVec, kBM, kBK>(m - bm, kt * kBK, k, (size_t)bm * lda + (size_t)kt * kBK, lda, tid,
                               [](int r, int c) { return a_index(r, c); }, [&](int d, size_t off, int nb, int w) {
                                   if (kVec && w == 4) cp_async16(as_u32 + 4u * d, nb ? a + off : a, nb);
                                   else cp_async4(as_u32 + 4u * d, nb ? a + off : a, nb);
                               });
}
template <bool kVec>
__device__ __forceinline__ void load_b_tile(float *bs, const float *b, size_t ldb, unsigned n, unsigned k,
                                            unsigned bn, unsigned kt, int tid)
{
    const uint32_t bs_u32 = smem_u32(bs);
    tile_units<kVec, kBK, kBN>(k - kt * kBK, bn, n, (size_t)kt * kBK * ldb + bn, ldb, tid,
                               [](int p, int c) { return b_index(p, c); }, [&](int d, size_t off, int nb, int w) {
                                   if (kVec && w == 4) cp_async16(bs_u32 + 4u * d, nb ? b + off : b, nb);
                                   else cp_async4(bs_u32 + 4u * d, nb ? b + off : b, nb);
                               });
}

/* ---- TMA path: one k-tile is BK/32 boxes of A (32 k-columns x BM rows) and
 * BN/32 boxes of B (32 n-columns x BK rows), each landing as one panel. The
 * tensor maps' element type is TFLOAT32: the TMA rounds every element to
 * TF32 (to nearest, ties to even) on its way to shared memory, and writes
 * zeros where a box leaves the matrix (the last k-tile, the edge tiles).
 * Issued by thread 0; the stage's mbarrier counts the bytes. */
constexpr uint32_t kTmaBytes = (uint32_t)kStageBytes; /* whole boxes, zero-filled parts included */
__device__ __forceinline__ void load_tile_tma(const CUtensorMap *map_a, const CUtensorMap *map_b, uint32_t as,
                                              uint32_t bs, uint32_t bar, unsigned bm, unsigned bn, unsigned kt, int za,
                                              int zb)
{
    /* The maps are 3D (columns, rows, products); za, zb: the product, 0
     * for an operand that every product shares (and for one product). */
    mbar_arrive_expect_tx(bar, kTmaBytes);
#pragma unroll
    for (int p = 0; p < kBK / kPanel; ++p)
        tma_load_3d(as + 4u * p * kBM * kPanel, map_a, (int)(kt * kBK + p * kPanel), (int)bm, za, bar);
#pragma unroll
    for (int p = 0; p < kBN / kPanel; ++p)
        tma_load_3d(bs + 4u * p * kBK * kPanel, map_b, (int)(bn + p * kPanel), (int)(kt * kBK), zb, bar);
}

/* ---- Fragments ------------------------------------------------------------- */
/* One k-step's operands as read from shared memory. */
struct Frags {
    float x[kNT][4]; /* mma A operands (from the B slab), one quad per n-tile */
    float y[kMT][2]; /* mma B operands (from the A slab), one pair per m-tile */
};
/* Per-lane offsets in floats from the slab start (offsets_split() says why
 * these few suffice): A by k-step, B by n-tile parity. */
struct LaneOffsets {
    int a[kKSteps]; /* a_frag_offset(lane, wm, 0, s) */
    int b[2][2];    /* b_frag_offset(lane, wn, 0 or 1, 0, hh) */
};
__host__ __device__ __forceinline__ LaneOffsets lane_offsets(int lane, int wm, int wn)
{
    LaneOffsets lo = {};
#pragma unroll
    for (int s = 0; s < kKSteps; ++s) lo.a[s] = a_frag_offset(lane, wm, 0, s);
#pragma unroll
    for (int hh = 0; hh < 2; ++hh) {
        lo.b[0][hh] = b_frag_offset(lane, wn, 0, 0, hh);
        lo.b[1][hh] = b_frag_offset(lane, wn, 1, 0, hh);
    }
    return lo;
}
/* = b_frag_offset(lane, wn, i, s, hh) and a_frag_offset(lane, wm, j, s) */
__host__ __device__ __forceinline__ int x_offset(const LaneOffsets &lo, int i, int s, int hh)
{
    return lo.b[i & 1][hh] + (i >> 1) * kBK * kPanel + 8 * s * kPanel;
}
__host__ __device__ __forceinline__ int y_offset(const LaneOffsets &lo, int j, int s)
{
    return lo.a[s] + 8 * j * kPanel;
}

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

/* Issue one k-step's NT x MT mma. kRound (the cp.async path): round the
 * operands to TF32 first; the TMA path's slabs already hold TF32 values. */
template <bool kRound> __device__ __forceinline__ void mma_step(float (&acc)[kNT][kMT][4], const Frags &f)
{
    uint32_t x[kNT][4], y[kMT][2];
#pragma unroll
    for (int i = 0; i < kNT; ++i)
#pragma unroll
        for (int r = 0; r < 4; ++r) x[i][r] = kRound ? to_tf32(f.x[i][r]) : __float_as_uint(f.x[i][r]);
#pragma unroll
    for (int j = 0; j < kMT; ++j) {
        y[j][0] = kRound ? to_tf32(f.y[j][0]) : __float_as_uint(f.y[j][0]);
        y[j][1] = kRound ? to_tf32(f.y[j][1]) : __float_as_uint(f.y[j][1]);
    }
#pragma unroll
    for (int i = 0; i < kNT; ++i)
#pragma unroll
        for (int j = 0; j < kMT; ++j) mma_tf32(acc[i][j], x[i], y[j][0], y[j][1]);
}

/* kTma: the TMA path (sm_90; both operands TMA-addressable, k > 0);
 * otherwise the cp.async path, 16-byte copies of A (B) when kAVec (kBVec). */
/* The batch and the epilogue of gk_gemm_ex: product z reads A + z sa,
 * B + z sb and writes C + z sc (strides in elements, 0 for an operand that
 * every product shares, and for one product); epi 0 none, 1 bias, 2 bias +
 * ReLU, 3 bias + GELU (common.cuh's epilogue_apply). */
struct Batch {
    size_t sa, sb, sc;
    const float *bias;
    int epi;
};

/* Rows of C from registers: acc[i][j][e + 2f] is C(row 8j + rho(2t + e),
 * column 16i + 2g + f) of the warp tile, so for each of its 2*MT rows a
 * lane writes NT float2 (f = 0, 1 side by side). A lane's 2 NT columns are
 * the same in every row: their biases (kEpi != 0) are loaded once. */
template <int kEpi>
__device__ __forceinline__ void store_warp_tile(const float (&acc)[kNT][kMT][4], float *__restrict__ c, size_t ldc,
                                                unsigned m, unsigned n, unsigned bm, unsigned bn, int lane, int wm,
                                                int wn, float alpha, float beta, bool c_vec, const float *bias)
{
    float bj[kNT][2];
#pragma unroll
    for (int i = 0; i < kNT; ++i)
#pragma unroll
        for (int f = 0; f < 2; ++f) {
            const unsigned col = bn + c_col(lane, wn, i, f);
            bj[i][f] = kEpi != 0 && col < n ? __ldg(bias + col) : 0.0f;
        }
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
                    *p = make_float2(epilogue_apply<kEpi>(r.x, bj[i][0]), epilogue_apply<kEpi>(r.y, bj[i][1]));
                } else {
                    if (col < n) store_c_epi<kEpi>(crow + col, v0, alpha, beta, bj[i][0]);
                    if (col + 1 < n) store_c_epi<kEpi>(crow + col + 1, v1, alpha, beta, bj[i][1]);
                }
            }
        }
}

template <bool kTma, bool kAVec, bool kBVec>
__global__ void __launch_bounds__(kThreads, GK11_MIN_BLOCKS)
gemm_tf32_mma(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b, unsigned m,
              unsigned n, unsigned k, float alpha, const float *__restrict__ a0, size_t lda,
              const float *__restrict__ b0, size_t ldb, float beta, float *__restrict__ c0, size_t ldc,
              unsigned tiles_m, unsigned tiles_n, bool c_vec, const Batch bt)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800 && (GK_SM90 || !kTma)
    constexpr int kStages = kTma ? kStagesTma : kStagesCopy;
    extern __shared__ __align__(16) unsigned char smem_raw[];
    /* Round the slabs up to a 1024-byte boundary (the TMA swizzle's period). */
    const uint32_t raw_u32 = smem_u32(smem_raw);
    const uint32_t pad = ((raw_u32 + kAlign - 1) & ~(uint32_t)(kAlign - 1)) - raw_u32;
    float *const as = reinterpret_cast<float *>(smem_raw + pad);
    float *const bs = as + kStages * kAStage;             /* kStages B slabs of BK x BN after kStages A slabs */
    /* TMA path: full[s] completes when slab s has landed (thread 0's
     * arrive.expect_tx + the TMA's bytes), empty[s] when all kThreads threads
     * have finished reading it. */
    const uint32_t full = smem_u32(bs + kStages * kBStage), empty = full + 8u * kStages;

    /* Block b: product z = b / (tiles_m tiles_n), then the L2 swizzle
     * inside it: groups of kGroupM tile rows, walked column by column. */
    const unsigned z = blockIdx.x / (tiles_m * tiles_n);
    unsigned bm, bn; /* the tile's first row and column */
    tile_origin<kGroupM, kBM, kBN>(blockIdx.x - z * tiles_m * tiles_n, tiles_m, tiles_n, &bm, &bn);
    const float *const a = a0 + (size_t)z * bt.sa, *const b = b0 + (size_t)z * bt.sb;
    float *const c = c0 + (size_t)z * bt.sc;
    const int za = bt.sa != 0 ? (int)z : 0, zb = bt.sb != 0 ? (int)z : 0;

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
    /* Issue k-tile kt's loads into slab `slab`: the TMA path from thread 0,
     * the cp.async path from every thread (one commit group per call, empty
     * when kt is past the last k-tile, so the wait counts stay exact). */
    auto issue = [&](unsigned kt, int slab) {
        if (kTma) {
            if (tid == 0 && kt < ktiles) {
                /* The slab's previous k-tile, kt - kStages, is read by all (its
                 * (kt / kStages - 1)-th use of empty[slab]). */
                if (kt >= (unsigned)kStages) mbar_wait(empty + 8u * slab, (kt / kStages - 1) & 1u);
                load_tile_tma(&map_a, &map_b, smem_u32(as + slab * kAStage), smem_u32(bs + slab * kBStage),
                              full + 8u * slab, bm, bn, kt, za, zb);
            }
        } else {
            if (kt < ktiles) {
                load_a_tile<kAVec>(as + slab * kAStage, a, lda, m, k, bm, kt, tid);
                load_b_tile<kBVec>(bs + slab * kBStage, b, ldb, n, k, bn, kt, tid);
            }
            cp_async_commit();
        }
    };
    /* Wait until k-tile kt (in slab `slab`, its (kt / kStages)-th fill) has
     * landed. The TMA path waits for its mbarrier; the cp.async path for
     * this thread's copies, then at a barrier for everyone's, which also
     * tells that every warp has finished its reads of the k-tile before
     * (see the loop). */
    auto land = [&](unsigned kt, int slab) {
        if (kTma) {
            if (kt < ktiles) mbar_wait(full + 8u * slab, (kt / kStages) & 1u);
        } else {
            cp_async_wait<kStages - 2>();
            __syncthreads();
        }
    };

    if (ktiles > 0) {
        if (kTma) {
            if (tid == 0) {
                prefetch_tensormap(&map_a);
                prefetch_tensormap(&map_b);
                for (int s = 0; s < kStages; ++s) {
                    mbar_init(full + 8u * s, 1);         /* thread 0's arrive.expect_tx */
                    mbar_init(empty + 8u * s, kThreads); /* every thread, once done with the slab */
                }
                fence_mbarrier_init();
            }
            __syncthreads(); /* the barriers are initialized before anyone waits on them */
        }
        /* Prologue: k-tiles 0 .. kStages-2 into slabs 0 .. kStages-2. */
#pragma unroll
        for (int s = 0; s < kStages - 1; ++s) issue((unsigned)s, s);

        const LaneOffsets lo = lane_offsets(lane, wm, wn);
        land(0, 0); /* slab 0 is complete */

        Frags frag[2];
        load_frags(frag[0], as, bs, lo, 0);
        int read_slab = 0;            /* slab of k-tile kt */
        int write_slab = kStages - 1; /* slab that k-tile kt + kStages - 1 goes to */
        for (unsigned kt = 0; kt < ktiles; ++kt) {
#pragma unroll
            for (int s = 0; s < kKSteps; ++s) {
                if (s == kKSteps - 1) {
                    /* The next k-step is k-step 0 of k-tile kt + 1. This
                     * thread has issued its last reads of k-tile kt (k-step
                     * kKSteps-1's fragments were loaded one step earlier):
                     * the TMA path says so on empty[read_slab]; the cp.async
                     * path's barrier in land() says so for every thread. From
                     * then on slab read_slab may be refilled. */
                    if (kTma) mbar_arrive(empty + 8u * read_slab);
                    read_slab = read_slab + 1 == kStages ? 0 : read_slab + 1;
                    land(kt + 1, read_slab);
                }
                /* The next k-step's fragments into the other buffer while this
                 * k-step's mma run (after the last k-tile this reads a slab
                 * nobody uses: harmless, in bounds, no copy in flight). */
                load_frags(frag[(s + 1) & 1], as + read_slab * kAStage, bs + read_slab * kBStage, lo,
                           (s + 1) % kKSteps);
                if (s == 0) {
                    /* Refill the slab k-tile kt-1 used (free once every thread
                     * is past k-tile kt-1's last k-step) with k-tile kt + kStages - 1. */
                    issue(kt + kStages - 1, write_slab);
                    write_slab = write_slab + 1 == kStages ? 0 : write_slab + 1;
                }
                mma_step<!kTma>(acc, frag[s & 1]);
            }
        }
    }

    /* Epilogue straight from registers (store_warp_tile): no shared
     * memory, no barrier; gk_gemm_ex's epilogue picked once (bt.epi is the
     * same for every thread). */
    switch (bt.epi) {
    case 0: store_warp_tile<0>(acc, c, ldc, m, n, bm, bn, lane, wm, wn, alpha, beta, c_vec, bt.bias); break;
    case 1: store_warp_tile<1>(acc, c, ldc, m, n, bm, bn, lane, wm, wn, alpha, beta, c_vec, bt.bias); break;
    case 2: store_warp_tile<2>(acc, c, ldc, m, n, bm, bn, lane, wm, wn, alpha, beta, c_vec, bt.bias); break;
    default: store_warp_tile<3>(acc, c, ldc, m, n, bm, bn, lane, wm, wn, alpha, beta, c_vec, bt.bias); break;
    }
#elif defined(__CUDA_ARCH__)
    /* The TMA instantiation compiled for a GPU below sm_90: a stub, marked by
     * a static shared variable that the launcher sees (and then takes the
     * cp.async path instead). Never launched. */
    __shared__ int stub_marker;
    if (threadIdx.x == 0x7fffffff) stub_marker = 0;
#endif
}

typedef void (*Kernel)(const CUtensorMap, const CUtensorMap, unsigned, unsigned, unsigned, float, const float *,
                       size_t, const float *, size_t, float, float *, size_t, unsigned, unsigned, bool, const Batch);


/* The transposed copies (op_a = T: A stored k x m copied m x k; op_b = T:
 * B stored n x k copied k x n), one after the other in the workspace, each
 * 256-byte aligned. */
struct Copies {
    TransposedCopy a, b;
    size_t b_offset, bytes; /* bytes: (size_t)-1 when a size reaches 2^62 */
};
inline Copies copies(int op_a, int op_b, size_t m, size_t n, size_t k, size_t batch, size_t stride_a,
                     size_t stride_b)
{
    Copies w;
    w.a = transposed_copy(k, m, batch, stride_a);
    w.b = transposed_copy(n, k, batch, stride_b);
    const size_t a_bytes = op_a ? w.a.bytes : 0, b_bytes = op_b ? w.b.bytes : 0;
    const bool overflow = (op_a && a_bytes == 0 && m != 0 && k != 0) || (op_b && b_bytes == 0 && n != 0 && k != 0);
    w.b_offset = (a_bytes + 255) / 256 * 256;
    w.bytes = overflow ? (size_t)-1 : w.b_offset + b_bytes;
    return w;
}

} // namespace

/* The workspace gk_gemm_ex asks for (gemm/variants.h): the transposed
 * copies of the operands given transposed. */
extern "C" size_t gk_gemm_11_tf32_mma_scratch(int op_a, int op_b, size_t m, size_t n, size_t k, size_t batch,
                                             size_t stride_a, size_t stride_b, size_t lda, size_t ldb)
{
    (void)lda, (void)ldb;
    return copies(op_a, op_b, m, n, k, batch, stride_a, stride_b).bytes;
}

/* gk_gemm_ex's entry point (gemm/variants.h: gk_gemm_ex_run_fn): fp32
 * storage. The kernel reads A as m x k and B as k x n: an operand given
 * transposed is first copied (transpose_f32, common.cuh) into the
 * workspace, costing a read and a write of it. Batches are a 1-D grid of
 * tiles x products; the epilogue is in store_warp_tile. */
extern "C" cudaError_t gk_gemm_11_tf32_mma_run_ex(int type, int op_a, int op_b, size_t m, size_t n, size_t k,
                                                  float alpha, const void *av, size_t lda, size_t stride_a,
                                                  const void *bv, size_t ldb, size_t stride_b, float beta, void *cv,
                                                  size_t ldc, size_t stride_c, size_t batch, int epilogue,
                                                  const void *bias, void *workspace, cudaStream_t stream)
{
    if (type != 0) return cudaErrorNotSupported; /* fp32 storage only */
    /* cp.async and mma .tf32 exist from compute capability 8.0 on, the TMA from 9.0. */
    int dev = 0;
    cudaError_t err = require_cc(8, -1, &dev);
    if (err != cudaSuccess) return err;

    const size_t tiles_m = (m + kBM - 1) / kBM, tiles_n = (n + kBN - 1) / kBN;
    if (batch > 0x7fffffffu || tiles_m * tiles_n > 0x7fffffffu || tiles_m * tiles_n * batch > 0x7fffffffu)
        return cudaErrorInvalidConfiguration;
    const float *a = static_cast<const float *>(av), *b = static_cast<const float *>(bv);
    float *const c = static_cast<float *>(cv);
    Batch bt;
    bt.sa = batch > 1 ? stride_a : 0;
    bt.sb = batch > 1 ? stride_b : 0;
    bt.sc = batch > 1 ? stride_c : 0;
    bt.bias = static_cast<const float *>(bias);
    bt.epi = epilogue;

    if (k > 0 && (op_a != 0 || op_b != 0)) {
        const Copies w = copies(op_a, op_b, m, n, k, batch, bt.sa, bt.sb);
        unsigned char *const ws = static_cast<unsigned char *>(workspace);
        if (op_a != 0) {
            float *const a2 = reinterpret_cast<float *>(ws);
            err = transpose_into(a2, w.a, a, lda, bt.sa, k, m, dev, stream);
            if (err != cudaSuccess) return err;
            a = a2;
            lda = w.a.ld;
            bt.sa = w.a.stride;
        }
        if (op_b != 0) {
            float *const b2 = reinterpret_cast<float *>(ws + w.b_offset);
            err = transpose_into(b2, w.b, b, ldb, bt.sb, n, k, dev, stream);
            if (err != cudaSuccess) return err;
            b = b2;
            ldb = w.b.ld;
            bt.sb = w.b.stride;
        }
    }

    /* The TMA path: compute capability 9.0 or above, both operands' rows
     * (and the products' strides) TMA-addressable, k > 0 (a tensor map has
     * no empty dimension), box coordinates (up to a dimension + BN) that
     * fit the TMA's signed 32-bit coordinates, and maps the driver takes.
     * Everything else takes the cp.async path. */
    const size_t coord_max = (size_t)0x7fffffff - (kBM > kBN ? kBM : kBN) - kBK;
    bool tma = k > 0 && m <= coord_max && n <= coord_max && k <= coord_max && tma_addressable(a, lda, 4) &&
               tma_addressable(b, ldb, 4) && bt.sa % 4 == 0 && bt.sb % 4 == 0 && require_cc(9) == cudaSuccess;
    /* A build for older GPUs only holds a stub TMA kernel (sm90a_image
     * tells it by its static shared variable): then the cp.async path. */
    if (tma) tma = sm90a_image(gemm_tf32_mma<true, true, true>) == cudaSuccess;

    CUtensorMap map_a, map_b;
    memset(&map_a, 0, sizeof(map_a)); /* the cp.async path never reads them */
    memset(&map_b, 0, sizeof(map_b));
    if (tma) {
        PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
        err = get_encode_tiled(&encode);
        if (err != cudaSuccess) return err;
        /* A: m rows of k, boxes of 32 k-columns x BM rows; B: k rows of n,
         * boxes of 32 n-columns x BK rows; 3D over the products. */
        tma = map_batched(encode, &map_a, CU_TENSOR_MAP_DATA_TYPE_TFLOAT32, 4, a, m, k, lda, bt.sa != 0, batch, bt.sa,
                          kPanel, kBM) == cudaSuccess &&
              map_batched(encode, &map_b, CU_TENSOR_MAP_DATA_TYPE_TFLOAT32, 4, b, k, n, ldb, bt.sb != 0, batch, bt.sb,
                          kPanel, kBK) == cudaSuccess;
    }

    /* 16-byte copies need every row start 16-byte aligned: the base, ld and
     * the products' stride; float2 stores need 8-byte aligned row starts of C. */
    const bool a_vec = ((uintptr_t)a & 15u) == 0 && lda % 4 == 0 && bt.sa % 4 == 0;
    const bool b_vec = ((uintptr_t)b & 15u) == 0 && ldb % 4 == 0 && bt.sb % 4 == 0;
    const bool c_vec = ((uintptr_t)c & 7u) == 0 && ldc % 2 == 0 && bt.sc % 2 == 0;
    const Kernel kernel = tma     ? gemm_tf32_mma<true, true, true>
                          : a_vec ? (b_vec ? gemm_tf32_mma<false, true, true> : gemm_tf32_mma<false, true, false>)
                                  : (b_vec ? gemm_tf32_mma<false, false, true> : gemm_tf32_mma<false, false, false>);
    /* A constant of each kernel (the TMA kernel's stages, or the cp.async
     * kernels'), so that calls from several host threads set the same value. */
    const size_t smem = smem_bytes(tma ? kStagesTma : kStagesCopy);
    err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (err != cudaSuccess) return err;
    kernel<<<(unsigned)(tiles_m * tiles_n * batch), kThreads, smem, stream>>>(
        map_a, map_b, (unsigned)m, (unsigned)n, (unsigned)k, alpha, a, lda, b, ldb, beta, c, ldc,
        (unsigned)tiles_m, (unsigned)tiles_n, c_vec, bt);
    return cudaGetLastError();
}

/* gk_gemm's entry point: as stored, one product, no epilogue. */
extern "C" cudaError_t gk_gemm_11_tf32_mma_run(size_t m, size_t n, size_t k, float alpha, const float *a,
                                              size_t lda, const float *b, size_t ldb, float beta, float *c,
                                              size_t ldc, cudaStream_t stream)
{
    return gk_gemm_11_tf32_mma_run_ex(0, 0, 0, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1, 0, nullptr,
                                      nullptr, stream);
}
