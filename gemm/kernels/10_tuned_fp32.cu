/* Variant 10: tuned fp32 SGEMM. A three-stage cp.async pipeline of 16-deep
 * k-slices of a 128 x 256 block tile, synchronized by mbarriers instead of
 * block-wide barriers, 8 x 16 results per thread, conflict-free float4
 * fragment loads from paired lanes, register double buffering, and an inner
 * loop that is nearly all FFMA: the top of the FFMA ladder (variant 11
 * moves to tensor cores).
 *
 * The idea. A GEMM on CUDA cores is fast when every issue slot of every SM
 * scheduler carries an FFMA. An sm_90 SM has 4 schedulers, each issuing one
 * warp instruction per clock to 32 FP32 lanes: 128 FMAs per clock. Anything
 * else a warp issues (a shared load, an address add, a bounds check, a
 * barrier) takes a slot from an FFMA, and any clock in which a scheduler
 * finds no ready warp is lost. Variant 9 has the right warp and thread
 * tiles (2 x 2 warps of 64 x 64 in a 128 x 128 x 8 block tile, 128 results
 * per thread, 2 blocks per SM) and a two-stage cp.async double buffer. This
 * variant keeps the warp and thread tiles, makes the block tile wider and
 * deeper (128 x 256 x 16: 2 x 4 warps, 1 block per SM; point 7 and "How the
 * default was chosen" below), and removes what still stalls the warps or
 * takes issue slots.
 *
 * Numbers below are for the default configuration: BM = 128, BN = 256,
 * BK = 16, warp tile 64 x 64 (2 x 4 warps), thread tile TM x TN = 8 x 16,
 * 256 threads, 3 stages.
 *
 * Kept from variant 9: 128 results per thread. Per k a thread reads
 * TM + TN = 24 floats from shared memory (2 + 4 LDS.128) for 128 FMAs:
 * 0.1875 floats, 0.75 bytes, per FMA (0.375 B/FLOP); an 8 x 8 thread tile
 * would need 16 floats per 64 FMAs (0.25 per FMA). An SM's shared memory
 * returns 128 bytes per clock, one 4-byte register for each of 32 lanes, so
 * a warp's LDS.128 holds it for 4 clocks. In the 128 clocks in which the 4
 * schedulers issue the 128 FFMAs of one k for one warp each, those 4 warps
 * use 4 x 6 x 4 = 96 clocks of it (75%); with 8 x 8 tiles, 4 x 4 x 4 = 64
 * clocks per 64 FFMA clocks: no slack at all. Registers: 128 accumulators
 * + 2 x 24 fragment registers = 176 before addresses; ptxas -v (sm_90,
 * CUDA 13.0): 245 to 255 per thread for the four instantiations
 * gemm_tuned<kVecB, kVecC> (<0,0> 250, <0,1> 255, <1,0> 245, and 251 for
 * the all-aligned <1,1>), no spills, no stack frame.
 * __launch_bounds__(256, 1): 256 threads x at most 256 allocated registers
 * = 65,536, the whole register file of an SM, so an SM holds 1 block = 8
 * warps, 2 per scheduler: as many warps as variant 9's 2 blocks of 4. Few,
 * and enough: a warp's 128 FFMAs per k are independent (128 accumulators),
 * so one warp alone can issue an FFMA every clock. The price of one block
 * per SM: a block-wide barrier would stop the whole SM whenever it waits,
 * which is why this variant has none in its loop (point 8).
 *
 * What changed, and why each is faster:
 *
 * 1. Three pipeline stages instead of two. A stage holds one k-slice, A as
 *    As[BK][BM + 4] and B as Bs[BK][BN]: (16 x 132 + 16 x 256) x 4 = 24,832
 *    bytes; 3 stages = 74,496 bytes per block (and 48 bytes of mbarriers),
 *    the only block on its SM (the 228 KB of an SM would hold 3:
 *    registers, not shared memory, limit occupancy). Slice t + 2 is
 *    requested while slice t is multiplied, and the wait before slice
 *    t + 1 leaves slice t + 2's copies outstanding (variant 9 waits for
 *    everything). So up to 2 slices, 49,664 bytes, are requested ahead per
 *    block, which is per SM (variant 9: 8 KB per block, 16 KB per SM).
 *    A block needs at least 128 x 256 / 128 = 256 clocks per k (it has all
 *    of the SM's 128 FMAs per clock), 4096 per slice. A copy issued 4 k
 *    into slice t (point 8) is first waited for at the last k of slice
 *    t + 1, before that k's FFMAs: 12 k of slice t (k = 4 .. 15) and 15 k
 *    of slice t + 1 later: at least 27 k = 6,912 clocks, about 3.5 us at
 *    1.98 GHz (variant 9: one k-step). L2 and DRAM latency (typically well
 *    under 1 us), including the slow copies of a busy moment, are covered.
 *
 * 2. A transposed in shared memory, fragments double-buffered in
 *    registers. Variant 9 keeps A as it lies in memory and reads it along
 *    k, 4 k indices per float4, so it must hold B's fragments for 4 k at
 *    once, and each slice starts with shared loads issued after its
 *    barrier, which the warp then waits for. Here As is k-major: a thread's
 *    fragment for one k is 8 + 16 floats, and two sets (48 registers) are
 *    enough to load k + 1 while the 128 FFMAs of k issue; the shared-load
 *    latency (tens of clocks) hides under them. At the last k of a slice
 *    the order is: wait for the next slice's copies, load k = 0 of the
 *    next slice, then the FFMAs of the last k, so every wait is followed
 *    by 128 FFMAs of work already in registers. The price: a
 *    cp.async copies bytes as they are, so A is copied 4 bytes at a time,
 *    element (row, k) to As[k][row] (8 copies per thread per slice instead
 *    of 2 sixteen-byte ones); with 2048 FFMAs per slice that is small.
 *
 * 3. Conflict-free stores, conflict-free paired reads. The copies into As:
 *    a warp writes 4 rows x 8 k, word k * 132 + r, bank (4k + r) mod 32
 *    (132 = 4 mod 32): all 32 banks once. Without the 4 floats of padding,
 *    k * 128 + r would put 8 lanes on each of 4 banks: 8-way. The reads: a
 *    warp's 32 lanes form an 8 x 4 grid (kLaneRows x kLaneCols); a thread's
 *    8 x 16 tile is made of 4 x 4 pieces 32 rows and 16 columns apart, so
 *    one LDS.128 of a warp reads 32 consecutive floats of As (8 distinct
 *    float4: each bank once) or 16 consecutive floats of Bs: no conflict.
 *    The lanes are interleaved: bit 0 of the lane number is a column bit
 *    and bit 1 a row bit, so lanes l and l ^ 1 read the same A float4 and
 *    lanes l and l ^ 2 the same B float4. On Volta and Turing NVIDIA
 *    engineers describe that pairing as halving the clocks of a 128-bit
 *    shared load (4 to 2); for Hopper it is not documented, so the counts
 *    above assume 4.
 *
 * 4. No integer work in the inner loop. The k-loop of a slice is fully
 *    unrolled, every fragment address is a base register plus a constant,
 *    the copy addresses advance by one add per slice, and bounds checks
 *    exist only in blocks that overlap the edge of C and in the last,
 *    partial slice of k (uniform branches pick the checked or the
 *    unchecked copy code; variant 9 checks every copy of every slice).
 *    cuobjdump -sass of the all-aligned kernel (CUDA 13.0): an interior
 *    trip of the main loop (one slice: unchecked copies) is 2243
 *    instructions, of which 2048 FFMA (91.3%), 96 LDS.128, 12 LDGSTS
 *    (cp.async), 4 mbarrier operations (point 8), 3 predicated-off LDS
 *    placeholders and 80 others (address, parity and loop arithmetic,
 *    branches). (With a __syncthreads per slice instead of the mbarriers:
 *    2223, 92%. The 128 x 128 x 8 configuration of that version: 1024
 *    FFMA of 1150, 89%.)
 *
 * 5. Block swizzle. The 1-D grid is walked in groups of GK10_SWIZZLE = 8
 *    tile rows: inside a group, down a column of tiles, then the next
 *    column (variant 9: row by row). Blocks resident together (1 per SM,
 *    132 on an H200) then cover about 8 tile rows by 17 tile columns: they
 *    share about 8 A panels and 17 B panels, which L2 serves many times,
 *    instead of a few A panels and every B panel of a wide matrix.
 *
 * 6. A wider fast path. Only B's rows must be 16-byte aligned for the
 *    16-byte copies (A is copied 4 bytes at a time on both paths), so an
 *    odd lda no longer forces the fallback. Through gk_gemm_ex, a B stored
 *    k x n whose ldb is not a multiple of 4 is first copied into the
 *    workspace with padded rows (common.cuh, padded_copy: a read and a
 *    write of B) and the fast path reads the copy; gk_gemm has no
 *    workspace and takes the fallback.
 *
 * 7. A wider, deeper block tile: 128 x 256 x 16 instead of 128 x 128 x 8.
 *    BN = 256 cuts the global bytes per FLOP by a quarter (below); BK = 16
 *    halves the barriers, waits and per-slice loop instructions per FFMA.
 *    The costs: 1 block per SM (see the registers above), 74,496 bytes of
 *    shared memory, twice the unrolled loop code, and up to 255 wasted
 *    columns in the last tile column instead of 127.
 *
 * 8. No block-wide barrier in the loop: mbarriers instead. A pipeline that
 *    every thread both fills and reads needs two facts before a stage is
 *    reused: the copies into it have landed (for everyone's copies, not
 *    just this thread's), and nobody still reads what it held before.
 *    Variant 9 gets both from one __syncthreads per slice (as does the
 *    barrier version measured in run 3 below), and with one block of 8
 *    warps per SM that barrier makes every warp wait, once per slice, for
 *    the slowest. Here
 *    each fact has its own mbarrier per stage (PTX ISA: mbarrier), 256
 *    arrivals per phase:
 *    - full[s]: after issuing its copies into stage s, a thread executes
 *      cp.async.mbarrier.arrive.noinc, an arrival that happens when its
 *      copies have landed; before reading slice t + 1 a thread waits for
 *      full (its parity, (t + 1) / 3 mod 2, names the fill).
 *    - empty[s]: a thread arrives once it has loaded its last fragments of
 *      the slice in s; before copying a later slice into s it waits for
 *      empty, i.e. for every thread to be done with the slice s held.
 *    A warp thus waits only for data that has not landed, and for warps
 *    still reading the slice whose stage it refills. And the refill is
 *    issued GK10_REFILL_AT = 4 k into slice t, not at its start: a thread
 *    then waits only for a thread more than 4 k (512 of its FFMAs) behind
 *    it, while the copy still has 27 k (6,912 clocks, point 1) to land. Per slice a thread
 *    executes 4 mbarrier operations (two waits, two arrivals) where it had
 *    a wait_group, a commit and a __syncthreads.
 *
 * Global memory (L2) traffic: a block reads (BM + BN) x BK = 6144 floats
 * per slice for BM x BN x BK = 524,288 FMAs, 85.3 FMAs per float loaded
 * (BM * BN / (BM + BN) = 32768 / 384), 3/128 (0.023) byte per FLOP: a
 * quarter less than variant 9's 128 x 128 tile (64 FMAs per float, 1/32
 * byte per FLOP), and small: at the FFMA rate an SM then needs about 6
 * bytes per clock from L2 (8 with 128 x 128).
 *
 * Copies. A: 8 four-byte copies per thread per slice (4 passes of 32 rows
 * x 2 runs of 8 k); a warp instruction reads 4 rows x 32 contiguous bytes
 * (4 whole sectors), and the L2::128B hint brings the rest of each
 * 128-byte line, the other 8 k of this slice and the next slice of that
 * row, into L2. B: 4 sixteen-byte copies per thread per slice (16 rows x
 * 64 chunks / 256 threads) when every row of B starts on a 16-byte
 * boundary (b % 16 == 0 and ldb % 4 == 0): the fast path, 12 copies per
 * thread per slice in all, chosen by the launcher at run time. Otherwise
 * the same kernel (template flag kVecB = false) copies B 4 bytes at a
 * time, 16 per thread per slice, 24 in all: the fallback, which differs
 * in those 12 extra copies per 2048 FFMAs and their addresses (an interior
 * trip of 2281 instructions, 2048 of them FFMA: 89.8%) and in scalar stores of C when
 * C's rows are not 16-byte aligned. Copies outside A or B (edge tiles, the
 * partial last slice) are zero-filled by cp.async's source-size operand,
 * so the extra products are exactly 0; the source address is then the
 * matrix base, valid and not read.
 *
 * What bounds it: the instruction mix first. With 2048 of 2243
 * instructions per interior slice being FFMA, the kernel cannot exceed
 * about 91% of the FP32 peak even with no stalls. Measured
 * (gemm/bench-h200.json, H200, 2026-11-23 19:42 UTC): 48.7 TFLOP/s at
 * 4096^3 and 49.6 at 8192^3, 72.7% and 74.2% of the bench's FP32 peak
 * (66.9 TFLOP/s: 128 FMAs per SM and clock, 132 SMs, the 1.98 GHz boost
 * clock). The rest is lost to stalls at the mbarrier waits, register bank
 * conflicts inside the FFMA stream and a clock below 1.98 GHz under this
 * load; no profile here apportions them.
 *
 * gk_gemm_ex: transposed operands, batches, epilogues. This is the fp32
 * rung that takes every description (variant->extended). What changes:
 *   - op_a = T (A stored k x m): the A stage is k-major already (As[k][m],
 *     the transposition above), so A's copies run along m instead: lane l
 *     of a warp copies m = l of one k-row, 32 consecutive floats per warp
 *     instruction (one 128-byte line) into 32 consecutive floats of As (no
 *     bank conflict); 2 k-rows per pass of 256 threads, 8 passes per slice.
 *   - op_b = T (B stored n x k, the weight layout): B must now be transposed
 *     on its way in, exactly as A is for op_a = N: 8 lanes along k (one
 *     32-byte sector per n-row), 4-byte copies, 32 n-rows per pass, 16
 *     copies per thread and slice; its k-rows get A's 4 floats of padding,
 *     BN + 4 = 260 = 4 modulo 32, so the 32 lanes' writes (8 k x 4 n) fall
 *     in 32 distinct banks (BStage). The stage grows by 16 x 4 floats.
 *   - batches: one block per tile of every product, a 1-D grid of tiles x
 *     batch blocks; block b takes tile b % tiles of product b / tiles and
 *     offsets A, B and C by that product's strides (0: a shared operand).
 *   - the epilogue (common.cuh's epilogue_apply: bias, ReLU, GELU) in
 *     store_tile, on alpha acc + beta C before the store; a thread reads
 *     its 16 columns' bias once (4 float4 where the bias is 16-byte
 *     aligned). One instance per kind, picked after the main loop.
 * The main loop, the fragments and the pipeline are unchanged. The default
 * description (as stored, one product, no epilogue: gk_gemm's calls) runs
 * an instance built without the batch offsets and the epilogue's switch
 * (kEx = false): with them the as-stored kernel took 2.8960 ms at 4096^3
 * against cuBLAS fp32's 2.6605 (0.92x), without them 2.8225 and 2.8204
 * against 2.6761 and 2.6558 (0.95x, 0.94x; H100, CUDA 13.0, 2026-11-25,
 * gk_bench medians, gemm/tuning/gemm-ex-h100). ptxas -v (CUDA 13.0,
 * sm_90): 245 to 255 registers for the 16 instances, no spills, no stack.
 *
 * Limits. Compute capability 8.0 or later (cp.async); the launcher returns
 * cudaErrorNotSupported below. 256 threads per block (default), 74,544
 * bytes of dynamic shared memory (3 stages and 6 mbarriers; 75,312 with
 * op_b = T; above the 48 KB a launch gets without asking: the launcher
 * raises the limit), grid = ceil(m/128) x ceil(n/256) blocks per product
 * (1-D, at most 2^31 - 1 blocks: cudaErrorInvalidConfiguration above). Any m, n, k (k = 0 writes beta * C), any lda, ldb, ldc,
 * pointers 4-byte aligned. Fast path: B rows 16-byte aligned; float4 loads
 * and stores of C when c % 16 == 0 and ldc % 4 == 0, else one float at a
 * time. Edge tiles: zero-filled copies and guarded stores; beta == 0 never
 * reads C. Tiles overhanging the edge do full work (4097 rows = 33 tile
 * rows; 3001 columns = 12 tile columns, 3072 columns of work).
 *
 * How the default was chosen. gemm/tuning/variant10-h200.txt records
 * configurations of this file timed against cublasSgemm (pure fp32, median
 * of 20, same process) on an H200 with CUDA 13.0, as ratios cuBLAS time /
 * this kernel's time at 4096^3 / 8192^3 / 4097 x 3001 x 2049. The previous
 * default, 128 x 128 x 8 with 4 stages, reached 0.885 / 0.880 / 0.852
 * (run 1). BN = 256 alone gave 0.894 / 0.897 / 0.846 (run 1; 0.894 /
 * 0.899 / 0.847 in run 2); with BK = 16 as well, 0.900 / 0.910 / 0.827 at
 * 4 stages and 0.902 / 0.913 / 0.829 at 3, the default (run 2): 2% and 4%
 * closer to cuBLAS on the squares, 3% further on the odd shape. BM = 256
 * (256 x 128) was slower everywhere (0.837 / 0.835 / 0.651); 3 stages
 * alone on 128 x 128 x 8 helped only the odd shape (0.856 / 0.859 /
 * 0.930); BK = 16 alone on it helped 4096^3 by 1% and cost the odd shape
 * (0.894 / 0.881 / 0.812); 8 x 8 thread tiles (WN = 32, TN = 8) lost on
 * the squares (0.871 / 0.865 / 0.879); a swizzle of 4 or 16 tile rows
 * instead of 8 (on 128 x 256 x 8) moved no ratio by more than 0.01.
 * cuBLAS's own 4096^3 time ranged over 2.684 to 2.800 ms within run 1, so
 * differences of about 1% at that size are noise. Worth trying on another
 * GPU or for other shapes: -DGK10_BK=8 (0.893 / 0.895 / 0.850) and
 * -DGK10_BK=8 -DGK10_STAGES=5 (0.906 / 0.901 / 0.849), which keep most of
 * the gain on the squares and lose less on the odd shape; -DGK10_STAGES=4
 * (0.900 / 0.910 / 0.827: a fourth stage bought nothing); and, for shapes
 * like 4097 x 3001 x 2049, -DGK10_BN=128 -DGK10_BK=8 (the previous tile
 * with 3 stages: 0.930 there). Reproduce with scripts/tune_gemm.sh.
 * Run 3 (scripts/tune_gemm.sh through gk_bench, cold L2, median, the same
 * H200) compared that configuration's __syncthreads per slice with the
 * mbarriers of point 8. The barrier version measured 3.006 / 23.78 / 1.341
 * ms (0.893 / 0.905 / 0.822); the mbarriers with the refill at k = 0,
 * 2.923 / 23.01 / 1.286 (0.919 / 0.935 / 0.857); at k = 8, 2.883 / 22.69
 * / 1.237 (0.931 / 0.948 / 0.891), with a fourth stage 2.880 / 22.67 /
 * 1.233; at k = 4, the default, 2.831 / 22.17 / 1.226 ms (0.948 / 0.971 /
 * 0.899): 6%, 7% and 9% faster than the barrier.
 *
 * Tuning macros (compile-time; the static_asserts below check them):
 *   GK10_BM, GK10_BN   block tile (default 128, 256), multiples of 32 / 4
 *   GK10_BK            k-slice per stage (16; a multiple of 8)
 *   GK10_WM, GK10_WN   warp tile (64, 64); (WM/TM) x (WN/TN) must be 32 lanes
 *   GK10_TM, GK10_TN   thread tile (8, 16), multiples of 4
 *   GK10_STAGES        pipeline stages (3; at least 2)
 *   GK10_THREADS       derived: 32 x (BM/WM) x (BN/WN); set only to check it
 *   GK10_MIN_BLOCKS    __launch_bounds__ blocks per SM (2 when threads x
 *                      TM x TN <= 16384, else 1; 1 for the default)
 *   GK10_SWIZZLE       tile rows per swizzle group (8; 1 = row-major order)
 *   GK10_REFILL_AT     the k of a slice at which the refill is issued (4; 0 .. BK-1)
 * Configurations worth comparing (each compiles without spills for sm_90;
 * ratios to cuBLAS as above; shared memory counted in stages, to which the
 * mbarriers add 16 bytes per stage):
 *   default                       128x256x16, 256 thr (2x4 warps of 64x64), 8x16,
 *                                 3 stages, 1 block/SM, 74,496 B smem,
 *                                 85 FMAs per float loaded
 *   -DGK10_BN=128 -DGK10_BK=8 -DGK10_STAGES=4
 *                                 the previous default: 128x128x8, 128 thr, 4 stages,
 *                                 2 blocks/SM, 33,280 B smem, 64 FMAs per float
 *   -DGK10_BK=8                   128x256x8, 3 stages, 37,248 B smem: twice the
 *                                 mbarrier waits per FFMA, half the loop code
 *   -DGK10_BK=8 -DGK10_STAGES=5   128x256x8, 5 stages, 62,080 B smem
 *   -DGK10_STAGES=4               a fourth 24,832 B stage: 99,328 B smem
 *   -DGK10_BN=128 -DGK10_BK=8     128x128x8, 128 thr, 3 stages, 2 blocks/SM,
 *                                 24,960 B smem: best measured on 4097x3001x2049
 *   -DGK10_BN=128 -DGK10_BK=8 -DGK10_STAGES=4 -DGK10_WN=32 -DGK10_TN=8
 *                                 8x8 per thread, 256 thr, <= 128 registers,
 *                                 2 blocks/SM = 16 warps; more shared-memory traffic
 *   -DGK10_BM=256 -DGK10_BN=128 -DGK10_BK=8 -DGK10_STAGES=4
 *                                 256x128x8, 256 thr (4x2 warps), 1 block/SM,
 *                                 49,664 B smem; measured slower
 *
 * Sources: NVIDIA CUTLASS documentation, "Efficient GEMM in CUDA"
 * (hierarchical block / warp / thread tiling, multistage software
 * pipelining, threadblock rasterization, the interleaved SIMT lane layout);
 * Simon Boehm, "How to Optimize a CUDA Matmul Kernel for cuBLAS-like
 * Performance" (2022) for the warp-tiling step this builds on; Kirk & Hwu,
 * "Programming Massively Parallel Processors", tiling chapters; PTX ISA,
 * cp.async (cp-size, src-size zero fill), cp.async.mbarrier.arrive and
 * mbarrier (init, arrive, try_wait / test_wait .parity); CUDA
 * C++ Programming Guide (shared-memory banks, __launch_bounds__, carveout);
 * the NVIDIA developer forum thread "Unexpected shared memory bank
 * conflict" (2019) on 128-bit shared loads. Written from these
 * descriptions; no code copied.
 *
 * Build alone: nvcc -arch=sm_90 -c 10_tuned_fp32.cu
 *   (next to common.cuh, which it includes: the two files need nothing
 *   else but the CUDA toolkit)
 */
#include "common.cuh"

namespace {

/* ---- Tuning knobs. The defaults are the configuration this file ships
 * (128 x 256 x 16, 3 stages: see "How the default was chosen" above);
 * build others with e.g. -DGK10_BN=128 -DGK10_BK=8 -DGK10_STAGES=4, the
 * previous default (through CMAKE_CUDA_FLAGS). The static_asserts below say
 * which combinations hold. */
#ifndef GK10_BM
#define GK10_BM 128 /* block tile rows (of A and C) */
#endif
#ifndef GK10_BN
#define GK10_BN 256 /* block tile columns (of B and C) */
#endif
#ifndef GK10_BK
#define GK10_BK 16 /* depth of one k-slice held in a shared-memory stage */
#endif
#ifndef GK10_WM
#define GK10_WM 64 /* warp tile rows */
#endif
#ifndef GK10_WN
#define GK10_WN 64 /* warp tile columns */
#endif
#ifndef GK10_TM
#define GK10_TM 8 /* results per thread down a column (multiple of 4) */
#endif
#ifndef GK10_TN
#define GK10_TN 16 /* results per thread along a row (multiple of 4) */
#endif
#ifndef GK10_STAGES
#define GK10_STAGES 3 /* shared-memory stages of the cp.async pipeline (>= 2) */
#endif
#ifndef GK10_THREADS
#define GK10_THREADS (32 * (GK10_BM / GK10_WM) * (GK10_BN / GK10_WN)) /* one warp per warp tile */
#endif
#ifndef GK10_MIN_BLOCKS
/* __launch_bounds__' second argument: blocks per SM the register allocation
 * must allow. 2 when a thread's accumulators leave room for it (the
 * 65536-register file over 2 blocks), else 1, so ptxas never has to spill.
 * The default, 256 threads x 128 accumulators = 32768, gets 1. */
#define GK10_MIN_BLOCKS ((GK10_THREADS) * (GK10_TM) * (GK10_TN) > 16384 ? 1 : 2)
#endif
#ifndef GK10_REFILL_AT
#define GK10_REFILL_AT 4 /* the k of a slice at which a thread issues its copies of a later slice */
#endif
#ifndef GK10_SWIZZLE
#define GK10_SWIZZLE 8 /* tile rows per group of the block swizzle; 1 = plain row-major order */
#endif

constexpr int kBM = GK10_BM, kBN = GK10_BN, kBK = GK10_BK;
constexpr int kWM = GK10_WM, kWN = GK10_WN, kTM = GK10_TM, kTN = GK10_TN;
constexpr int kStages = GK10_STAGES, kThreads = GK10_THREADS, kMinBlocks = GK10_MIN_BLOCKS;
constexpr unsigned kSwizzle = GK10_SWIZZLE;

constexpr int kWarpsN = kBN / kWN;     /* warp tiles along a block row */
constexpr int kLaneRows = kWM / kTM;   /* lanes down a warp tile */
constexpr int kLaneCols = kWN / kTN;   /* lanes along a warp tile */
constexpr int kAPad = 4;               /* floats added to each k-row of the A stage (bank argument below) */
constexpr int kAStride = kBM + kAPad;  /* floats from one k-row of the A stage to the next */
constexpr int kBStride = kBN;          /* floats from one k-row of the B stage to the next */
constexpr int kStageFloats = kBK * kAStride + kBK * kBStride;
constexpr unsigned kStageBytes = kStageFloats * 4u;
constexpr int kRefillAt = GK10_REFILL_AT;
/* the stages, then two 8-byte mbarriers per stage (full, empty) */
constexpr size_t kSmemBytes = (size_t)kStages * kStageBytes + 16u * kStages;
/* op_b = T (B stored n x k, gk_gemm_ex): B is transposed on its way into
 * the stage as A is, 8 lanes along k, so its k-rows get A's padding of 4
 * floats (the bank argument of the A stage, with BN + 4 = 4 modulo 32). */
template <bool kTB> struct BStage {
    static constexpr int kStride = kTB ? kBN + kAPad : kBStride;
    static constexpr int kFloats = kBK * kAStride + kBK * kStride;
    static constexpr unsigned kBytes = kFloats * 4u;
    static constexpr size_t kSmem = (size_t)kStages * kBytes + 16u * kStages;
};
static_assert(BStage<false>::kFloats == kStageFloats && BStage<false>::kSmem == kSmemBytes, "op_b = N: the stage as it was");
static_assert((kBN + kAPad) % 32 == 4, "op_b = T: the B stage's k-row stride must be 4 modulo 32");

/* The A loader: each warp copies 4 rows x 8 consecutive k (one 32-byte
 * sector per row), so the block copies kThreads / 8 rows per pass. */
constexpr int kARowsPerPass = kThreads / 8;
constexpr int kARowPasses = kBM / kARowsPerPass;
constexpr int kAKPasses = kBK / 8;
/* The B loader: 16-byte chunks on the fast path, single floats otherwise. */
constexpr int kBChunksPerRow = kBN / 4;
constexpr int kBVecLoads = kBK * kBChunksPerRow / kThreads;
constexpr int kBScalarLoads = kBK * kBN / kThreads;

static_assert(kBM % kWM == 0 && kBN % kWN == 0, "the warp tiles must cover the block tile");
static_assert(kThreads == 32 * (kBM / kWM) * (kBN / kWN), "GK10_THREADS must be one warp per warp tile");
static_assert(kThreads <= 1024, "at most 1024 threads per block");
static_assert(kTM % 4 == 0 && kTN % 4 == 0, "thread tiles are made of 4x4 pieces (float4 fragments)");
static_assert(kWM % kTM == 0 && kWN % kTN == 0 && kLaneRows * kLaneCols == 32,
              "a warp tile is exactly 32 thread tiles: (WM/TM) * (WN/TN) == 32");
static_assert(kLaneRows >= 2 && kLaneCols >= 2, "the lane layout interleaves pairs in both directions");
static_assert(kWM % (4 * kLaneRows) == 0 && kWN % (4 * kLaneCols) == 0, "fragments are whole float4 columns");
static_assert(kBK % 8 == 0, "the A loader copies k in runs of 8 (one 32-byte sector per row)");
static_assert(kBM % 32 == 0, "the A stage's row stride BM + 4 must be 4 modulo 32 (conflict-free stores)");
static_assert(kBM % kARowsPerPass == 0, "the A loader's passes must cover BM");
static_assert(kThreads % kBChunksPerRow == 0 || kBChunksPerRow % kThreads == 0, "B loader (16-byte) layout");
static_assert((kBK * kBChunksPerRow) % kThreads == 0 && kBVecLoads >= 1, "B loader (16-byte) layout");
static_assert(kThreads % kBN == 0 || kBN % kThreads == 0, "B loader (4-byte) layout");
static_assert((kBK * kBN) % kThreads == 0 && kBScalarLoads >= 1, "B loader (4-byte) layout");
static_assert(kStages >= 2, "a pipeline needs at least two stages");
static_assert(kSmemBytes <= 227u * 1024u, "more shared memory per block than sm_90 allows (227 KB)");
static_assert(kSwizzle >= 1, "GK10_SWIZZLE counts tile rows per group (1 = no swizzle)");
static_assert(kRefillAt >= 0 && kRefillAt < kBK, "GK10_REFILL_AT: a k of the slice, 0 .. BK-1");

/* ---- cp.async (PTX ISA, "Data Movement: cp.async"), sm_80 and later. A
 * copy goes from global memory straight into shared memory without passing
 * through registers, and the thread does not wait for it: an mbarrier
 * hears later when its copies have landed (below). kBytes = 4: .ca, the
 * only cache mode allowed for a 4-byte copy; 16: .cg, cached in L2 only
 * (nothing of B is read twice by one SM's L1). L2::128B: also bring the
 * rest of the 128-byte line into L2, where the other copies of the row
 * (for A: the other 8 k of this slice and the next slice, BK = 16) will find
 * it. kZfill: copy only src_bytes (0 .. kBytes) and fill the rest with
 * zeros; with 0 nothing is read (src must still be valid). Below sm_80 this
 * is empty (the launcher refuses those devices, so the kernel never runs
 * there). */
template <int kBytes, bool kZfill = false>
__device__ __forceinline__ void cp_async_l2(uint32_t dst, const float *src, uint32_t src_bytes = 0)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if (kBytes == 4 && !kZfill)
        asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], 4;\n" ::"r"(dst), "l"(src) : "memory");
    else if (kBytes == 4)
        asm volatile("cp.async.ca.shared.global.L2::128B [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes)
                     : "memory");
    else if (!kZfill)
        asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16;\n" ::"r"(dst), "l"(src) : "memory");
    else
        asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes)
                     : "memory");
#endif
}
/* ---- Global -> shared copies of one k-slice (a stage) --------------------
 * Stage layout (floats): As[BK][BM + 4], then Bs[BK][BStage<kTB>::kStride].
 * A is stored transposed (k-major), so that a thread's fragment of A for
 * one k is 4 consecutive floats (one LDS.128); that transposition is why A
 * is copied 4 bytes at a time. B is stored as it is in global memory.
 * gk_gemm_ex's transposed operands change only these copies: A stored k x m
 * (kTA) already lies k-major, so its copies run along m, 32 consecutive
 * floats per warp, into As unchanged; B stored n x k (kTB) is transposed on
 * the way in as A is (8 lanes along k, 4-byte copies) into k-rows padded
 * to BN + 4. */
constexpr int kTARows = kThreads / kBM;  /* op_a = T: k-rows of A per pass (2) */
constexpr int kTAPasses = kBK / kTARows; /* op_a = T: passes per slice (8) */
constexpr int kTBCols = kThreads / 8;    /* op_b = T: n-rows of B per pass (32) */
constexpr int kTBPasses = kBN / kTBCols; /* op_b = T: passes per slice (8) */
template <bool kVecB, bool kTA = false, bool kTB = false> struct TileLoader {
    const float *a_src; /* this thread's first A element of the next slice: row row0 + a_r, column k0 + a_k */
    const float *b_src; /* this thread's first B element (or chunk) of the next slice */
    const float *a;     /* matrix bases: a valid address for copies that read nothing */
    const float *b;
    size_t a_pass;      /* lda * kARowsPerPass: from one A pass's row to the next */
    size_t a_slice;     /* from one slice of A to the next: BK (as stored) or BK lda (kTA) */
    size_t b_slice;     /* ldb * BK: from one slice of B to the next (BK with kTB) */
    size_t b_pass;      /* kTB: 32 ldb, from one of this thread's n-rows of B to the next */
    size_t ldb;
    uint32_t a_dst, b_dst; /* shared byte addresses of this thread's first element in stage 0 */
    unsigned a_row, a_k;   /* global row of the first A element; its k within the slice */
    unsigned b_row, b_col; /* row within the slice and global column of the first B element */
    unsigned m, n, k;

    /* Copies slice t (k0 = t * BK) into the stage at byte offset stage_off.
     * kGuard = false: the whole slice is inside A and B (interior block, not
     * the last, partial slice): no checks at all. kGuard = true: every copy
     * checks its row and column; outside elements are zero-filled (the
     * source size is 0; the source address is the matrix base, valid and
     * not read). Zeros in both A and B make the extra products exactly 0. */
    template <bool kGuard> __device__ __forceinline__ void load(unsigned t, uint32_t stage_off)
    {
        const unsigned k0 = t * kBK;
        if constexpr (kTA) {
            /* A stored k x m: this thread's column a_row of k-rows a_k + kTARows i;
             * a warp's copies are 32 consecutive floats of one k-row, and its
             * shared writes 32 consecutive floats of one As row: no conflict. */
#pragma unroll
            for (int i = 0; i < kTAPasses; ++i) {
                const float *src = a_src + i * a_pass;
                const uint32_t dst = a_dst + stage_off + (i * kTARows * kAStride) * 4;
                if (kGuard) {
                    const bool ok = a_row < m && k0 + a_k + i * kTARows < k;
                    cp_async_l2<4, true>(dst, ok ? src : a, ok ? 4u : 0u);
                } else {
                    cp_async_l2<4>(dst, src);
                }
            }
        } else {
#pragma unroll
            for (int i = 0; i < kARowPasses; ++i) {
#pragma unroll
                for (int kp = 0; kp < kAKPasses; ++kp) {
                    /* consecutive lanes take consecutive k (a_k = tid % 8), so a
                     * row's 8 floats are one sector; the shared address is
                     * (k * (BM + 4) + row) floats: see the bank count in the header. */
                    const float *src = a_src + i * a_pass + kp * 8;
                    const uint32_t dst = a_dst + stage_off + (kp * 8 * kAStride + i * kARowsPerPass) * 4;
                    if (kGuard) {
                        const bool ok = a_row + i * kARowsPerPass < m && k0 + kp * 8 + a_k < k;
                        cp_async_l2<4, true>(dst, ok ? src : a, ok ? 4u : 0u);
                    } else {
                        cp_async_l2<4>(dst, src);
                    }
                }
            }
        }
        if constexpr (kTB) {
            /* B stored n x k, copied as A is: lanes b_row = tid % 8 along k, n-rows
             * b_col + 32 i; shared address (k * (BN + 4) + n) floats. */
#pragma unroll
            for (int i = 0; i < kTBPasses; ++i) {
#pragma unroll
                for (int kp = 0; kp < kAKPasses; ++kp) {
                    const float *src = b_src + i * b_pass + kp * 8;
                    const uint32_t dst = b_dst + stage_off + (kp * 8 * BStage<kTB>::kStride + i * kTBCols) * 4;
                    if (kGuard) {
                        const bool ok = b_col + i * kTBCols < n && k0 + kp * 8 + b_row < k;
                        cp_async_l2<4, true>(dst, ok ? src : b, ok ? 4u : 0u);
                    } else {
                        cp_async_l2<4>(dst, src);
                    }
                }
            }
        } else if (kVecB) {
#pragma unroll
            for (int p = 0; p < kBVecLoads; ++p) {
                /* chunk p*kThreads + tid of the slice: row and column offsets are
                 * compile-time constants (the static_asserts make the split exact). */
                const int dr = (p * kThreads) / kBChunksPerRow;
                const int dc = ((p * kThreads) % kBChunksPerRow) * 4;
                const float *src = b_src + dr * ldb + dc;
                const uint32_t dst = b_dst + stage_off + (dr * kBStride + dc) * 4;
                if (kGuard) {
                    const unsigned col = b_col + dc;
                    /* a chunk that straddles column n copies only its first n - col floats */
                    unsigned bytes = col < n ? (n - col < 4u ? (n - col) * 4u : 16u) : 0u;
                    if (k0 + b_row + dr >= k) bytes = 0u;
                    cp_async_l2<16, true>(dst, bytes ? src : b, bytes);
                } else {
                    cp_async_l2<16>(dst, src);
                }
            }
        } else {
#pragma unroll
            for (int p = 0; p < kBScalarLoads; ++p) {
                const int dr = (p * kThreads) / kBN;
                const int dc = (p * kThreads) % kBN;
                const float *src = b_src + dr * ldb + dc;
                const uint32_t dst = b_dst + stage_off + (dr * kBStride + dc) * 4;
                if (kGuard) {
                    const bool ok = b_col + dc < n && k0 + b_row + dr < k;
                    cp_async_l2<4, true>(dst, ok ? src : b, ok ? 4u : 0u);
                } else {
                    cp_async_l2<4>(dst, src);
                }
            }
        }
        a_src += a_slice; /* next slice: BK columns (or k-rows) of A further, BK rows (or columns) of B */
        b_src += b_slice;
    }
};
static_assert(kThreads % kBM == 0 && kTAPasses * kTARows == kBK, "op_a = T: whole k-rows of A per pass");
static_assert(kThreads % 8 == 0 && kTBPasses * kTBCols == kBN, "op_b = T: whole n-rows of B per pass");

/* A thread's fragments for one k: TM floats of A (column k of the block's A
 * tile) and TN floats of B (row k of its B tile), as float4 loads. */
__device__ __forceinline__ void load_fragments(float (&fa)[kTM], float (&fb)[kTN], const float *as, const float *bs)
{
#pragma unroll
    for (int i = 0; i < kTM / 4; ++i) put4(&fa[4 * i], *reinterpret_cast<const float4 *>(as + i * kLaneRows * 4));
#pragma unroll
    for (int j = 0; j < kTN / 4; ++j) put4(&fb[4 * j], *reinterpret_cast<const float4 *>(bs + j * kLaneCols * 4));
}

/* One k of the outer product: TM x TN FFMAs, no other instruction. */
__device__ __forceinline__ void outer_product(float (&acc)[kTM][kTN], const float (&fa)[kTM], const float (&fb)[kTN])
{
#pragma unroll
    for (int i = 0; i < kTM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] = fmaf(fa[i], fb[j], acc[i][j]);
}

/* Writes a thread's TM x TN results: rows crow + i*4*kLaneRows + 0..3,
 * columns ccol + j*4*kLaneCols + 0..3, the layout the fragments were read
 * in. Rows past m and columns past n are skipped. kVecC: one float4 per
 * row piece when all 4 columns exist (C's rows are 16-byte aligned and the
 * column is a multiple of 4); otherwise one float at a time. kReadC: the
 * old C is read (beta != 0). */
template <bool kVecC, bool kReadC, int kEpi = 0>
__device__ __forceinline__ void store_tile(const float (&acc)[kTM][kTN], float *c, size_t ldc, unsigned m, unsigned n,
                                           unsigned crow, unsigned ccol, float alpha, float beta,
                                           const float *__restrict__ bias = nullptr, bool bias_vec = false)
{
    /* gk_gemm_ex's epilogue (common.cuh's epilogue_apply): the bias of this
     * thread's columns, read once (a float4 per piece where the bias is
     * 16-byte aligned), added before the activation and C's rounding. */
    float bj[kTN / 4][4];
#pragma unroll
    for (int j = 0; j < kTN / 4; ++j) {
        const unsigned col = ccol + j * 4 * kLaneCols;
#pragma unroll
        for (int jj = 0; jj < 4; ++jj) bj[j][jj] = 0.0f;
        if constexpr (kEpi != 0) {
            if (bias_vec && col + 3 < n) {
                const float4 q = __ldg(reinterpret_cast<const float4 *>(bias + col));
                bj[j][0] = q.x;
                bj[j][1] = q.y;
                bj[j][2] = q.z;
                bj[j][3] = q.w;
            } else {
#pragma unroll
                for (int jj = 0; jj < 4; ++jj)
                    if (col + jj < n) bj[j][jj] = __ldg(bias + col + jj);
            }
        }
    }
#pragma unroll
    for (int i = 0; i < kTM / 4; ++i) {
#pragma unroll
        for (int ii = 0; ii < 4; ++ii) {
            const unsigned row = crow + i * 4 * kLaneRows + ii;
            if (row >= m) continue;
            float *c_row = c + (size_t)row * ldc;
#pragma unroll
            for (int j = 0; j < kTN / 4; ++j) {
                const unsigned col = ccol + j * 4 * kLaneCols;
                float *p = c_row + col;
                const float *v = &acc[4 * i + ii][4 * j];
                if (kVecC && col + 3 < n) {
                    float4 o = make_float4(alpha * v[0], alpha * v[1], alpha * v[2], alpha * v[3]);
                    if (kReadC) {
                        const float4 old = *reinterpret_cast<const float4 *>(p);
                        o.x = fmaf(beta, old.x, o.x);
                        o.y = fmaf(beta, old.y, o.y);
                        o.z = fmaf(beta, old.z, o.z);
                        o.w = fmaf(beta, old.w, o.w);
                    }
                    o.x = epilogue_apply<kEpi>(o.x, bj[j][0]);
                    o.y = epilogue_apply<kEpi>(o.y, bj[j][1]);
                    o.z = epilogue_apply<kEpi>(o.z, bj[j][2]);
                    o.w = epilogue_apply<kEpi>(o.w, bj[j][3]);
                    *reinterpret_cast<float4 *>(p) = o;
                } else {
#pragma unroll
                    for (int jj = 0; jj < 4; ++jj)
                        if (col + jj < n)
                            p[jj] = epilogue_apply<kEpi>(kReadC ? fmaf(beta, p[jj], alpha * v[jj]) : alpha * v[jj],
                                                         bj[j][jj]);
                }
            }
        }
    }
}

/* The whole epilogue: beta = 0 never reads C; the kind (0 none, 1 bias, 2
 * bias + ReLU, 3 bias + GELU) picks one instance (a uniform branch, after
 * the main loop). */
template <bool kVecC>
__device__ __forceinline__ void finish(const float (&acc)[kTM][kTN], float *c, size_t ldc, unsigned m, unsigned n,
                                       unsigned crow, unsigned ccol, float alpha, float beta, int epi,
                                       const float *bias, bool bias_vec)
{
#define GK10_FINISH(E)                                                                                          \
    do {                                                                                                     \
        if (beta == 0.0f)                                                                                    \
            store_tile<kVecC, false, E>(acc, c, ldc, m, n, crow, ccol, alpha, beta, bias, bias_vec);         \
        else                                                                                                 \
            store_tile<kVecC, true, E>(acc, c, ldc, m, n, crow, ccol, alpha, beta, bias, bias_vec);          \
    } while (0)
    switch (epi) {
    case 0: GK10_FINISH(0); break;
    case 1: GK10_FINISH(1); break;
    case 2: GK10_FINISH(2); break;
    default: GK10_FINISH(3); break;
    }
#undef GK10_FINISH
}

/* What gk_gemm_ex adds to a launch: the batch (product z = blockIdx.x /
 * tiles starts at a + z stride_a, b + z stride_b, c + z stride_c; strides
 * 0 when there is one product) and the epilogue. */
struct Extra {
    size_t stride_a, stride_b, stride_c;
    const float *bias; /* n floats; read only when epi != 0 */
    int epi;           /* 0 none, 1 bias, 2 bias + ReLU, 3 bias + GELU */
    bool bias_vec;     /* bias 16-byte aligned */
};

/* kVecB: B's rows are 16-byte aligned (b % 16 == 0, ldb % 4 == 0): 16-byte
 * copies of B. kVecC: the same for C: float4 loads and stores of C. kTA,
 * kTB: A stored k x m, B stored n x k (gk_gemm_ex's op_a, op_b = T). */
template <bool kVecB, bool kVecC, bool kTA = false, bool kTB = false, bool kEx = true>
__global__ void __launch_bounds__(kThreads, kMinBlocks)
    gemm_tuned(unsigned m, unsigned n, unsigned k, float alpha, const float *__restrict__ a, size_t lda,
               const float *__restrict__ b, size_t ldb, float beta, float *__restrict__ c, size_t ldc,
               unsigned tiles_m, unsigned tiles_n, const __grid_constant__ Extra ex)
{
    /* kEx = false: the default description (as stored, one product, no
     * epilogue), compiled without the batch offsets and the epilogue's
     * switch, so that gk_gemm's calls pay for neither (with them the
     * as-stored kernel took 2.8960 ms at 4096^3, without them 2.8225 and
     * 2.8204 on the same H100: gemm/tuning/gemm-ex-h100, runs 4 and 5). */
    typedef BStage<kTB> Stage;
    /* (Below sm_80 the cp.async helpers are empty and this body is never
     * launched: the launcher refuses those devices.) */
    extern __shared__ __align__(16) float smem[];
    const unsigned tid = threadIdx.x;

    /* ---- Which tile. Block b of the 1-D grid takes tiles in groups of
     * kSwizzle tile rows: inside a group it walks down a column of tiles,
     * then to the next column. Blocks that run at the same time then share
     * a few panels of B (same column) and kSwizzle panels of A, so L2 serves
     * most of the panel reads. */
    unsigned tile_m, tile_n;
    {
        /* Product z of the batch; its tiles are blocks z tiles .. of the grid. */
        unsigned bid = blockIdx.x;
        if (kEx) {
            const unsigned tiles = tiles_m * tiles_n, z = bid / tiles;
            bid -= z * tiles;
            a += z * ex.stride_a;
            b += z * ex.stride_b;
            c += z * ex.stride_c;
        }
        if (kSwizzle <= 1) {
            tile_m = bid / tiles_n;
            tile_n = bid % tiles_n;
        } else if (tiles_m <= kSwizzle) { /* one group: column by column */
            tile_m = bid % tiles_m;
            tile_n = bid / tiles_m;
        } else { /* kSwizzle * tiles_n < tiles_m * tiles_n < 2^31: no overflow */
            const unsigned per_group = kSwizzle * tiles_n;
            const unsigned group = bid / per_group;
            const unsigned first = group * kSwizzle;
            const unsigned rows = tiles_m - first < kSwizzle ? tiles_m - first : kSwizzle; /* last group may be short */
            const unsigned r = bid - group * per_group;
            tile_m = first + r % rows;
            tile_n = r / rows;
        }
    }
    /* unsigned: row0 + kBM stays below 2^32 for any m < 2^31 */
    const unsigned row0 = tile_m * kBM, col0 = tile_n * kBN;
    const bool edge = row0 + kBM > m || col0 + kBN > n; /* does this tile stick out of C? */
    const unsigned ktiles = k / kBK + (k % kBK != 0u);
    const unsigned kfull = k / kBK; /* slices that lie entirely inside k */

    /* ---- The copy engine's per-thread state. */
    const uint32_t smem_base = (uint32_t)__cvta_generic_to_shared(smem);
    TileLoader<kVecB, kTA, kTB> ld;
    {
        if (kTA) { /* A stored k x m: lanes along m, k-rows a_k + 2 i */
            const unsigned a_r = tid % kBM, a_k = tid / kBM;
            ld.a_row = row0 + a_r;
            ld.a_k = a_k;
            ld.a_src = a + (size_t)a_k * lda + ld.a_row; /* only dereferenced inside A */
            ld.a_pass = (size_t)(kThreads / kBM) * lda;
            ld.a_slice = (size_t)kBK * lda;
            ld.a_dst = smem_base + (a_k * kAStride + a_r) * 4u;
        } else {
            const unsigned a_r = tid / 8, a_k = tid % 8; /* 8 lanes per row along k */
            ld.a_row = row0 + a_r;
            ld.a_k = a_k;
            ld.a_src = a + (size_t)ld.a_row * lda + a_k; /* only dereferenced when the row exists */
            ld.a_pass = (size_t)kARowsPerPass * lda;
            ld.a_slice = kBK;
            ld.a_dst = smem_base + (a_k * kAStride + a_r) * 4u;
        }
        unsigned b_r, b_c;
        if (kTB) { /* B stored n x k: 8 lanes along k, n-rows b_c + 32 i */
            b_r = tid % 8;
            b_c = tid / 8;
        } else if (kVecB) { /* lanes along a row of B in 16-byte chunks */
            b_r = tid / kBChunksPerRow;
            b_c = (tid % kBChunksPerRow) * 4;
        } else { /* lanes along a row of B in floats */
            b_r = tid / kBN;
            b_c = tid % kBN;
        }
        ld.b_row = b_r;
        ld.b_col = col0 + b_c;
        if (kTB) {
            ld.b_src = b + (size_t)ld.b_col * ldb + b_r;
            ld.b_slice = kBK;
            ld.b_pass = (size_t)(kThreads / 8) * ldb;
        } else {
            ld.b_src = b + (size_t)b_r * ldb + ld.b_col;
            ld.b_slice = (size_t)kBK * ldb;
            ld.b_pass = 0;
        }
        ld.ldb = ldb;
        ld.b_dst = smem_base + (kBK * kAStride + b_r * Stage::kStride + b_c) * 4u;
        ld.a = a;
        ld.b = b;
        ld.m = m;
        ld.n = n;
        ld.k = k;
    }

    /* ---- Where this thread reads its fragments. Lanes form a
     * kLaneRows x kLaneCols grid, interleaved by pairs: bit 0 of the lane
     * is a column bit and bit 1 a row bit, so lanes l and l^1 read the same
     * A float4 and lanes l and l^2 the same B float4 (see the header). */
    const unsigned warp = tid / 32, lane = tid % 32;
    const unsigned warp_m = warp / kWarpsN, warp_n = warp % kWarpsN;
    const unsigned lc = (lane & 1u) | (((lane >> 2) % (kLaneCols / 2)) << 1);
    const unsigned lr = ((lane >> 1) & 1u) | (((lane >> 2) / (kLaneCols / 2)) << 1);
    /* thread tile rows: warp_m*WM + i*(4*kLaneRows) + lr*4 + 0..3 (i < TM/4), columns likewise:
     * the float4 pieces of a warp's fragment are side by side, so one LDS.128
     * of a warp covers 4*kLaneRows (or 4*kLaneCols) consecutive floats. */
    const float *a_frag = smem + warp_m * kWM + lr * 4;
    const float *b_frag = smem + kBK * kAStride + warp_n * kWN + lc * 4;

    float acc[kTM][kTN];
#pragma unroll
    for (int i = 0; i < kTM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] = 0.0f;
    float fa[2][kTM], fb[2][kTN]; /* fragments for this k and the next */

    /* ---- The pipeline's mbarriers (after the stages): full[s] completes
     * when every thread's copies into stage s have landed (each thread's
     * cp.async.mbarrier.arrive.noinc arrives once its copies are done);
     * empty[s] when every thread has finished reading stage s. Count:
     * kThreads arrivals per phase, one phase per slice the stage holds. */
    const uint32_t full = smem_base + kStages * Stage::kBytes, empty = full + 8u * kStages;
    if (tid == 0)
        for (int s = 0; s < kStages; ++s) {
            mbar_init(full + 8u * s, kThreads);
            mbar_init(empty + 8u * s, kThreads);
        }
    __syncthreads(); /* initialized before anyone arrives or waits */

    /* Issue this thread's copies of slice tl into stage `stage`: first wait
     * until every thread has finished reading the slice the stage held
     * before (tl - kStages, the (tl / kStages - 1)-th phase of empty), then
     * copy, then arrange for full to hear when the copies have landed. */
    auto refill = [&](unsigned tl, unsigned stage) {
        if (tl >= ktiles) return;
        if (tl >= (unsigned)kStages) mbar_wait(empty + 8u * stage, (tl / kStages - 1) & 1u);
        if (edge || tl >= kfull)
            ld.template load<true>(tl, stage * Stage::kBytes);
        else
            ld.template load<false>(tl, stage * Stage::kBytes);
        cp_async_mbar_arrive(full + 8u * stage);
    };

    /* ---- Prologue: slices 0 .. kStages-2 in flight. */
#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) refill((unsigned)s, (unsigned)s);
    unsigned rstage = 0, wstage = kStages - 1; /* stage read now; stage written next */
    if (ktiles > 0) {
        mbar_wait(full, 0); /* slice 0 is complete in shared memory */
        load_fragments(fa[0], fb[0], a_frag, b_frag);
    }

    /* ---- Main loop: one slice per trip, no block-wide barrier. */
#pragma unroll 1
    for (unsigned t = 0; t < ktiles; ++t) {
        const float *as = a_frag + rstage * Stage::kFloats;
        const float *bs = b_frag + rstage * Stage::kFloats;
#pragma unroll
        for (int kk = 0; kk < kBK; ++kk) {
            if (kk == kRefillAt) {
                /* Refill: slice t + kStages - 1 goes into the stage slice t - 1
                 * used. Issued kRefillAt k into the slice, not at its start:
                 * by then a thread that waits here waits only for a thread
                 * more than kRefillAt k behind it. */
                refill(t + kStages - 1, wstage);
                wstage = wstage + 1 == kStages ? 0 : wstage + 1;
            }
            /* Fetch the fragments of the next k before the FFMAs of this k:
             * the loads are in flight while the FFMAs issue. */
            if (kk < kBK - 1) {
                load_fragments(fa[(kk + 1) & 1], fb[(kk + 1) & 1], as + (kk + 1) * kAStride,
                               bs + (kk + 1) * Stage::kStride);
            } else {
                /* Last k of the slice: its fragments are already in registers,
                 * so this thread is done with the stage. */
                mbar_arrive(empty + 8u * rstage);
                if (t + 1 < ktiles) {
                    rstage = rstage + 1 == kStages ? 0 : rstage + 1;
                    mbar_wait(full + 8u * rstage, ((t + 1) / kStages) & 1u); /* slice t+1 has landed */
                    load_fragments(fa[0], fb[0], a_frag + rstage * Stage::kFloats, b_frag + rstage * Stage::kFloats);
                }
            }
            outer_product(acc, fa[kk & 1], fb[kk & 1]);
        }
    }

    /* ---- Epilogue: C = alpha * acc + beta * C, guarded at the edges. The
     * branch on beta is uniform; with beta == 0 C is never read (a NaN
     * there must not leak into the result). */
    const unsigned crow = row0 + warp_m * kWM + lr * 4;
    const unsigned ccol = col0 + warp_n * kWN + lc * 4;
    if (kEx)
        finish<kVecC>(acc, c, ldc, m, n, crow, ccol, alpha, beta, ex.epi, ex.bias, ex.bias_vec);
    else if (beta == 0.0f)
        store_tile<kVecC, false>(acc, c, ldc, m, n, crow, ccol, alpha, beta);
    else
        store_tile<kVecC, true>(acc, c, ldc, m, n, crow, ccol, alpha, beta);
}

template <bool kVecB, bool kVecC, bool kTA, bool kTB, bool kEx>
cudaError_t launch(unsigned m, unsigned n, unsigned k, float alpha, const float *a, size_t lda, const float *b,
                   size_t ldb, float beta, float *c, size_t ldc, unsigned tiles_m, unsigned tiles_n, unsigned batch,
                   const Extra &ex, cudaStream_t stream)
{
    void (*kernel)(unsigned, unsigned, unsigned, float, const float *, size_t, const float *, size_t, float, float *,
                   size_t, unsigned, unsigned, const Extra) = gemm_tuned<kVecB, kVecC, kTA, kTB, kEx>;
    /* Dynamic shared memory above 48 KB must be asked for (the default
     * configuration needs 74,544 bytes; 75,312 with op_b = T); the carveout
     * hint gives shared memory the largest share of the L1/shared array
     * (this kernel reads nothing twice through L1). Both values are
     * constants of the kernel: calls from several host threads at once set
     * the same ones. */
    const size_t smem = BStage<kTB>::kSmem;
    cudaError_t err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
    if (err == cudaSuccess)
        err = cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                   (int)cudaSharedmemCarveoutMaxShared);
    if (err != cudaSuccess) return err;
    kernel<<<tiles_m * tiles_n * batch, kThreads, smem, stream>>>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc,
                                                                 tiles_m, tiles_n, ex);
    return cudaGetLastError();
}

/* The four copy paths of one layout: B in 16-byte chunks when its rows are
 * 16-byte aligned (as stored only), C in float4s when its rows (and the
 * products' strides) are. kEx: see gemm_tuned. */
template <bool kTA, bool kTB, bool kEx = true>
cudaError_t launch_layout(bool vec_b, bool vec_c, unsigned m, unsigned n, unsigned k, float alpha, const float *a,
                          size_t lda, const float *b, size_t ldb, float beta, float *c, size_t ldc, unsigned tm,
                          unsigned tn, unsigned batch, const Extra &ex, cudaStream_t stream)
{
    if constexpr (!kTB) {
        if (vec_b)
            return vec_c ? launch<true, true, kTA, kTB, kEx>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, tm, tn,
                                                             batch, ex, stream)
                         : launch<true, false, kTA, kTB, kEx>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, tm, tn,
                                                              batch, ex, stream);
    }
    return vec_c ? launch<false, true, kTA, kTB, kEx>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, tm, tn, batch, ex,
                                                      stream)
                 : launch<false, false, kTA, kTB, kEx>(m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, tm, tn, batch,
                                                       ex, stream);
}

} // namespace

/* B's padded copy (common.cuh, padded_copy): B stored k x n (op_b = N)
 * whose rows (or batch stride) are not whole 16-byte units, so that the
 * fast path's 16-byte copies can read it (step 6: A and B stored n x k are
 * copied 4 bytes at a time whatever their alignment). */
inline PaddedCopy b_copy10(int op_b, size_t m, size_t n, size_t k, size_t batch, size_t stride_b, size_t ldb)
{
    PaddedCopy p = padded_copy(k, n, ldb, batch, stride_b, 4);
    if (op_b != 0 || m == 0 || n == 0 || k == 0) p.needed = false, p.bytes = 0;
    return p;
}

/* The workspace gk_gemm_ex asks for (gemm/variants.h): B's padded copy. */
extern "C" size_t gk_gemm_10_tuned_fp32_scratch(int op_a, int op_b, size_t m, size_t n, size_t k, size_t batch,
                                               size_t stride_a, size_t stride_b, size_t lda, size_t ldb)
{
    (void)op_a, (void)stride_a, (void)lda;
    return b_copy10(op_b, m, n, k, batch, stride_b, ldb).bytes;
}

/* gk_gemm_ex's entry point (gemm/variants.h: gk_gemm_ex_run_fn): fp32 only
 * (type 0); op_a, op_b 0 as stored, 1 transposed; strides read when batch
 * > 1; epilogue 0-3 with a float bias; a workspace of the size
 * gk_gemm_10_tuned_fp32_scratch gives, or NULL (gk_gemm: B's rows as they
 * are). */
extern "C" cudaError_t gk_gemm_10_tuned_fp32_run_ex(int type, int op_a, int op_b, size_t m, size_t n, size_t k,
                                                   float alpha, const void *av, size_t lda, size_t stride_a,
                                                   const void *bv, size_t ldb, size_t stride_b, float beta, void *cv,
                                                   size_t ldc, size_t stride_c, size_t batch, int epilogue,
                                                   const void *bias, void *workspace, cudaStream_t stream)
{
    if (type != 0) return cudaErrorNotSupported; /* fp32 storage only */
    /* cp.async needs compute capability 8.0 or later. */
    cudaError_t err = require_cc(8);
    if (err != cudaSuccess) return err;

    const float *a = static_cast<const float *>(av), *b = static_cast<const float *>(bv);
    float *c = static_cast<float *>(cv);
    const size_t tiles_m = (m + kBM - 1) / kBM, tiles_n = (n + kBN - 1) / kBN;
    /* One block per tile of every product: a 1-D grid of at most 2^31 - 1. */
    if (batch > 2147483647u || tiles_m * tiles_n > 2147483647u || tiles_m * tiles_n * batch > 2147483647u)
        return cudaErrorInvalidConfiguration;
    if (workspace != nullptr) {
        /* B stored k x n with rows that are not 16-byte units: its padded
         * copy first, so that the fast path reads it. */
        const PaddedCopy pb = b_copy10(op_b, m, n, k, batch, stride_b, ldb);
        if (pb.needed) {
            float *const b2 = static_cast<float *>(workspace);
            err = pad_into<float>(b2, pb, b, ldb, batch > 1 ? stride_b : 0, k, n, stream);
            if (err != cudaSuccess) return err;
            b = b2, ldb = pb.ld, stride_b = pb.stride;
        }
    }
    Extra ex;
    ex.stride_a = batch > 1 ? stride_a : 0;
    ex.stride_b = batch > 1 ? stride_b : 0;
    ex.stride_c = batch > 1 ? stride_c : 0;
    ex.bias = static_cast<const float *>(bias);
    ex.epi = epilogue;
    ex.bias_vec = (uintptr_t)bias % 16u == 0;

    /* The fast path copies B (as stored) in 16-byte pieces: every row of
     * every product's B must start on a 16-byte boundary. A, and B stored n
     * x k, are copied 4 bytes at a time (their alignment does not matter).
     * C gets float4 stores when all its rows are 16-byte aligned. */
    const bool vec_b = ((uintptr_t)b % 16u == 0) && (ldb % 4u == 0) && (ex.stride_b % 4u == 0);
    const bool vec_c = ((uintptr_t)c % 16u == 0) && (ldc % 4u == 0) && (ex.stride_c % 4u == 0);
    const unsigned um = (unsigned)m, un = (unsigned)n, uk = (unsigned)k;
    const unsigned tm = (unsigned)tiles_m, tn = (unsigned)tiles_n, ub = (unsigned)batch;
    if (op_a == 0 && op_b == 0 && batch == 1 && epilogue == 0)
        return launch_layout<false, false, false>(vec_b, vec_c, um, un, uk, alpha, a, lda, b, ldb, beta, c, ldc, tm,
                                                  tn, ub, ex, stream);
    switch (2 * (op_a != 0) + (op_b != 0)) {
    case 0:
        return launch_layout<false, false>(vec_b, vec_c, um, un, uk, alpha, a, lda, b, ldb, beta, c, ldc, tm, tn, ub,
                                           ex, stream);
    case 1:
        return launch_layout<false, true>(vec_b, vec_c, um, un, uk, alpha, a, lda, b, ldb, beta, c, ldc, tm, tn, ub,
                                          ex, stream);
    case 2:
        return launch_layout<true, false>(vec_b, vec_c, um, un, uk, alpha, a, lda, b, ldb, beta, c, ldc, tm, tn, ub,
                                          ex, stream);
    default:
        return launch_layout<true, true>(vec_b, vec_c, um, un, uk, alpha, a, lda, b, ldb, beta, c, ldc, tm, tn, ub,
                                         ex, stream);
    }
}

/* gk_gemm's entry point: as stored, one product, no epilogue. */
extern "C" cudaError_t gk_gemm_10_tuned_fp32_run(size_t m, size_t n, size_t k, float alpha, const float *a,
                                                  size_t lda, const float *b, size_t ldb, float beta, float *c,
                                                  size_t ldc, cudaStream_t stream)
{
    return gk_gemm_10_tuned_fp32_run_ex(0, 0, 0, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1, 0,
                                        nullptr, nullptr, stream);
}
