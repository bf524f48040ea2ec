/* Variant 17 (bf16_05): persistent tiles, in pairs of CTAs that share B by
 * cluster multicast. Variant 16's producer and consumer warpgroups, but each
 * CTA stays resident and walks many output tiles, and its mbarrier ring of
 * stages runs on from one tile to the next, so the next tile's first
 * k-tiles load while the consumers store the current one. Two CTAs of a
 * cluster compute vertically adjacent tiles and each loads half of the B
 * k-tile they both need, multicast into both. With beta = 0 each consumer
 * warp stages its results in shared memory and hands them to the TMA to
 * store, going on to the next tile without waiting for them (step 3).
 * Rows the TMA cannot address (an lda or ldb not a multiple of 8) are
 * first copied with padded rows into gk_gemm_ex's workspace (see "Padded
 * copies"); without a workspace (gk_gemm_bf16), and for a base not 16-byte
 * aligned, they run the same kernel body in gather mode: the producer
 * warpgroup's 128 threads copy each stage themselves (see "Gather mode").
 *
 * The idea, step 1 (persistence): in variant 16 each block computes one
 * 128 x 256 tile and exits. Its tensor cores idle through the block's end
 * and the next block's start: the epilogue (each consumer thread's 64 bf16
 * pair stores from registers), then the new block's launch, barrier
 * initialization, and its first k-tile crossing from DRAM/L2 before the
 * first wgmma (the other 3 stages fill behind it). At 4096^3 a tile has 64
 * k-tiles, so that gap comes once every 64 k-tiles; it is the difference
 * persistence removes. Here:
 *   - the grid is the number of CTAs that fit at once (1 per SM: 230,464
 *     bytes of shared memory each; with clusters, 2 x the clusters that fit,
 *     see below), capped at the work there is; each CTA walks its tiles in
 *     the grouped order of variant 14's block swizzle (kGroupM = 16 tile
 *     rows, column by column inside a group; 8 in gather mode), so the ~132
 *     tiles in progress at one time share 16 A row-panels and 9 or 10 B
 *     column-panels in L2 (see "The group height" below; -DGKB5_GROUP_M=N
 *     and -DGKB5_GATHER_GROUP_M=N to try others);
 *   - the producer thread never stops between tiles: its ring position
 *     (stage it % 4, phase it / 4) counts every k-tile of every tile of its
 *     CTA, and it waits only for free stages. When the consumers release a
 *     tile's last stages (the last one right after wgmma.wait_group 0,
 *     before the epilogue), it is already waiting to queue the next tile's
 *     k-tiles into them: during the epilogue all 4 stages (192 KB, 4 of the
 *     next tile's k-tiles) are loaded or in flight, and the consumers'
 *     first full-barrier wait after the epilogue finds its k-tile landed;
 *   - the consumers count the same sequence, zero their accumulators at
 *     each tile's start, and store each tile from registers exactly as
 *     variant 16 (bounds-checked bf16 pairs, beta = 0 never reads C).
 * Counted per CTA at 4096^3 (512 tiles, 132 CTAs: 3 or 4 tiles each): 1
 * launch prologue and pipeline fill instead of 3.9, and 3 of every 4
 * epilogues overlap the next tile's loads. What remains unhidden is the
 * epilogue's own time (the consumer warps store instead of issuing
 * wgmma) and the tail (512 tiles = 3.88 rounds of 132: the last round has
 * 116 tiles; 2048 tiles at 8192^3 = 15.5 rounds).
 *
 * ---- Step 2: clusters of 2 along m, B multicast (GKB5_CLUSTER = 2, the default) ----
 * Per k-tile a CTA needs A's 128 x 64 box (16 KB) and B's four 64 x 64
 * panels (32 KB). The two tiles (bm, bn) and (bm + 128, bn) need the same B
 * panels, so the kernel is launched in clusters of 2 (the cluster dimension
 * launch attribute, {2, 1, 1}) and the cluster walks PAIRS of tile rows:
 * pair p = cluster, + clusters, ... in the grouped order over
 * ceil(tiles_m / 2) pair rows (groups of kGroupM / 2 = 8 pair rows: the
 * same 16 tile rows as without clusters), and the CTA of rank r takes tile row
 * 2 pair_row + r, the same bn. Per k-tile the producer of CTA r loads its
 * own A box (plain TMA, into its own shared memory) and panels 2r and
 * 2r + 1 with cp.async.bulk.tensor ... .multicast::cluster, cta mask 0b11:
 * the TMA reads each box from L2 once and writes it at the same shared
 * memory offset in both CTAs, completing its bytes on the mbarrier at the
 * same offset in each. Counted per CTA and k-tile: B from L2 32 KB -> 16
 * KB, A unchanged (16 KB), so L2-to-SM bytes 48 KB -> 32 KB (a third less;
 * per FLOP of the 128 x 256 x 64 k-tile, 85 -> 128 FLOP per byte); each
 * stage still receives 48 KB, so expect_tx is unchanged (A + every panel
 * inside n, whichever CTA loads it). Measured (H200, CUDA 13.0,
 * 2026-11-23, gk_bench, cold L2, medians, two builds timed one after the
 * other, both with step 1's register epilogue and groups of 8 tile rows;
 * gemm/tuning/tensor-core-h200.txt): GKB5_CLUSTER=2 0.1935 ms at 4096^3 and
 * 1.6431 at 8192^3, GKB5_CLUSTER=1 (no cluster) 0.1928 and 1.6617; cuBLAS
 * BF16 in the same runs 0.1724 / 0.1721 and 1.5674 / 1.5684. So multicast
 * changes nothing measurable at 4096^3 (0.4%, inside the spread of repeated
 * runs) and gains 1.1% at 8192^3: halving B's L2-to-SM bytes is not what
 * bounds this kernel here.
 * What it costs:
 *   - coupling: the producer of CTA r fills stage s of BOTH CTAs, so it
 *     waits until the consumers of both released it. Each empty barrier
 *     counts 2 x 8 arrivals: every consumer warp's lane 0 arrives on its own
 *     CTA's empty barrier and on the peer's (a remote arrive: mapa turns
 *     the barrier's shared-memory offset into the peer's shared::cluster
 *     address, then mbarrier.arrive.shared::cluster: mbar_arrive_remote
 *     says why not .release.cluster). The full barrier stays local (count
 *     1). The slower SM of a pair sets the pace of both;
 *   - scheduling: a cluster's 2 CTAs run at once on 2 SMs of one GPC, so
 *     the grid is 2 x min(cudaOccupancyMaxActiveClusters, pairs): an SM
 *     left without a partner in its GPC idles (on the H200 the occupancy
 *     calculator reports 66 clusters of 2: all 132 SMs busy). Work is handed out in
 *     pairs: at 4096^3, 256 pairs = 3.88 rounds of 66 clusters, as before;
 *   - odd tiles_m: the last pair row's rank-1 tile lies below m. That CTA
 *     still runs every k-tile of the pair (it must: it multicasts its half
 *     of B to its peer, and its peer multicasts to it); its A boxes are
 *     zero-filled by the TMA (rows >= m, full bytes still counted) and its
 *     epilogue stores nothing (every row >= m). So both CTAs of a cluster
 *     walk the same number of tiles and k-tiles: their rings stay in
 *     lockstep by construction. The cost: tiles_n wasted tiles, e.g. at
 *     m = 4224, n = 4096: 33 tile rows, 17 pair rows, 16 idle tiles of 544;
 *   - barriers: after the mbarrier init (and fence.mbarrier_init.release
 *     .cluster) a cluster barrier (barrier.cluster.arrive.release /
 *     wait.acquire, every thread of both CTAs) replaces __syncthreads, so
 *     that no CTA multicasts into, or arrives on, a peer whose barriers are
 *     not initialized yet; and every thread of both CTAs ends with the same
 *     cluster barrier, so that neither exits while the other may still
 *     write to its shared memory (its multicasts) or arrive on its
 *     barriers. The producer warpgroup therefore no longer returns early.
 * -DGKB5_CLUSTER=1 builds the kernel without step 2: no cluster launch
 * attribute, no multicast, no remote arrives, empty barriers of count 8.
 *
 * ---- Step 3: the epilogue through shared memory and the TMA store ------------------
 * Steps 1 and 2 store each tile from registers: per consumer thread 64 bf16
 * pairs (4-byte stores), each warp store instruction writing 8 rows x 16
 * bytes, 8 half-used 32-byte sectors. What that costs, measured by leaving
 * it out (a build that stored nothing, timed by ncu --clock-control none on
 * the H200, CUDA 13.0, 2026-11-23, cold L2;
 * gemm/tuning/tensor-core-h200.txt): 175.3 us against 205.4 us at 4096^3
 * (15%), 1.36 against 1.45 ms at 8192^3 (6%): while the 8 consumer warps
 * store, no wgmma is issued, and the stores trickle out (each 32-byte sector
 * of C is written in two halves, by two store instructions: at 4096^3, 2.1
 * million sector writes for C's 1.05 million sectors). Here, when beta = 0
 * (C is not read) and C's rows are TMA-addressable:
 *   - each consumer warp owns a 4 KB buffer (8 warps: 32 KB, what the 4
 *     stages leave of the 227 KB: 4 x 48 KB + 32 KB + 1088 = 230,464 bytes)
 *     and stores its 16 rows x 256 columns in 2 passes of 128 columns;
 *   - a pass: lane 0 waits until the warp's previous TMA stores have read
 *     the buffer (cp.async.bulk.wait_group.read 0: at a tile's first pass
 *     they finished long ago), __syncwarp; 8 stmatrix.x4 per lane write
 *     alpha * d rounded to bf16 (stmatrix takes the accumulator fragment's
 *     layout as it is: register i of a lane holds row lane / 4, columns
 *     2 (lane % 4), + 1 of 8 x 8 matrix i) as two 16 x 64 boxes with the
 *     128-byte swizzle (each matrix's 8 rows of 16 bytes fall in 8 distinct
 *     chunks: all 32 banks, one wavefront per matrix); each lane fences its
 *     writes to the async proxy (fence.proxy.async.shared::cta: stmatrix
 *     writes through the generic proxy, the TMA reads through the async
 *     one), __syncwarp, and lane 0 issues the two TMA stores
 *     (cp.async.bulk.tensor ... .bulk_group) and commits them;
 *   - the warp then goes on to the next tile: the global writes overlap
 *     its wgmma. Per thread and tile: 16 stmatrix instead of 64 stores.
 *     The TMA clips at m and n (no bounds checks in the kernel); a pass
 *     wholly right of n, or a warp's rows wholly below m, is skipped;
 *   - before the block ends, lane 0 waits for its stores to complete
 *     (cp.async.bulk.wait_group 0): they read this CTA's shared memory.
 * Otherwise (beta != 0, or a C the TMA cannot address: base not 16-byte
 * aligned, 2 ldc not a multiple of 16) and in gather mode, the epilogue
 * stores from registers as before. Measured (H200, CUDA 13.0, 2026-11-23,
 * gk_bench, cold L2, medians, the 17:54 and 18:32 UTC runs, committed
 * as earlier versions of gemm/bench-h200.json; groups of 8): 0.1953 ->
 * 0.1767 ms at 4096^3 and 1.6664 -> 1.6016 ms at 8192^3, against cuBLAS
 * BF16's 0.1745 / 0.1730 and 1.5686 / 1.5493 in the same runs: 0.894x ->
 * 0.979x and 0.941x -> 0.967x.
 *
 * ---- The group height, and what the medians at 8192^3 measure -------------------
 * The walk's group height decides how many bytes cross from DRAM. In a
 * round of 132 tiles (66 pairs) that all sweep k together, each A
 * row-panel and each B column-panel in use is read from DRAM about once
 * and shared in L2 by the tiles of its row or column: at 8192^3 an A panel
 * is 128 x 8192 bf16 = 2 MB, a B panel 8192 x 256 = 4 MB. Groups of 8
 * tile rows cover 8 rows x 16.5 columns per round: 8 x 2 + 16.5 x 4 = 82
 * MB of panels; groups of 16 (kGroupM, the default) 16 rows x 8.25
 * columns: 32 + 33 = 65 MB, near the least for 132 tiles of this shape
 * (r x c = 132 at r = 2c). Counted by ncu (H200, CUDA 13.0, --clock-control
 * none, cold L2, one call at 8192^3): 1.51 GB read from DRAM with groups of
 * 8, 1.23 GB with 16 (cuBLAS BF16's kernel: 1.25 GB); kernel time 1.38 and
 * 1.37 ms. Timed by gk_bench (H200, 2026-11-23, three alternations, each
 * in its own process with cuBLAS BF16): medians at 8192^3 1.5884, 1.5897,
 * 1.5896 ms with 8 against 1.5617, 1.5534, 1.5868 with 16 (cuBLAS 1.5530
 * to 1.5724 ms); at 4096^3 0.1778-0.1788 against 0.1768-0.1771 ms (these
 * runs, the ncu counts and the power readings below:
 * gemm/tuning/tensor-core-h200.txt). Why 1.4% less time (the means of
 * the three medians at 8192^3, 1.5892 and 1.5673 ms) from 18.5% fewer
 * DRAM bytes: nvidia-smi, sampling every 25 ms through 800 back-to-back
 * calls at 8192^3, showed the board at ~695 W of its 700 W limit, the SM
 * clock down from 1980 to 1470-1500 MHz and the clock-event reason "software
 * power cap". The first calls run at full clock (the fastest calls); the
 * median runs capped, and a capped kernel's time follows its energy per
 * call, which the bytes it moves are part of.
 * Gather mode keeps groups of 8 (kGatherGroupM): at 4097 x 3001 x 2049,
 * where A (16.8 MB) and B (12.3 MB) fit in L2 whatever the order, it took
 * 0.4788-0.4811 ms with 8 and 0.5064-0.5078 with 16 (three alternations,
 * cuBLAS 0.3781-0.3793); which of its per-CTA loads the taller groups slow
 * down was not measured.
 *
 * ---- The ring across tiles: the invariant ---------------------------------------
 * Written out above gemm_bf16_persistent, with why the cluster-wide empty
 * barrier keeps a waiter from ever being 2 phases apart. In short: k-tile
 * number `it` of the CTA (it = tiles done * ktiles + kt, never reset) lives
 * in stage it % 4 as its use it / 4; consumers wait on full parity
 * (it / 4) & 1, the producer on empty parity (it / 4 - 1) & 1 for it >= 4,
 * and every consumer warp releases every k-tile once (to both CTAs), a
 * tile's last included. Step 1 was checked by a CPU simulation (C++, not
 * in this repository): the producer, the 8 consumer warps and the TMA
 * copies as separate actors over mbarriers with try_wait.parity semantics,
 * interleaved at random (300 seeds x 2 schedules) for 2, 3 and 4 stages,
 * k-tiles per tile 1, 2, 3, 4, 5 and 17, and 1, 2, 3, 5 and 8 tiles per
 * CTA: no deadlock, every consumer reads the k-tile it expects, no TMA
 * write lands in a stage a warp still holds, every barrier ends balanced
 * (54,000 runs). It fails, as it should, when the tile's last k-tile is not
 * released or the ring restarts at each tile. Step 2 by a second one
 * (Python, not in this repository): 2 CTAs, each a producer and 2 or 8
 * consumer warps; A copies, each multicast panel's landing in each CTA and
 * each remote arrive are separate in-flight events that land in any order,
 * late more often than not; 2, 3 and 4 stages, 1, 2, 3 and 5 k-tiles per
 * tile, 1, 2, 3 and 5 tiles, 1 to 4 panels inside n per tile (so at times
 * only rank 0 loads B): 3,840 runs, no deadlock, every consumer reads its
 * k-tile's A and every panel, no copy lands in a stage a warp of that CTA
 * still reads, nothing in flight at the final cluster barrier, and 257
 * remote arrivals that landed after their phase had completed without them
 * (another warp's next release counted in their place) did no harm. It
 * fails, as it should, with local-only empty barriers, with remote arrives
 * but a count of 8, and without a tile's last release. The pair walk
 * (pair_origin over cluster + i * clusters) was checked to cover every
 * tile once, the rows below m only for odd tiles_m, for tiles_m <= 40,
 * tiles_n <= 20 and 1, 7, 64, 66 and 67 clusters; the tile walk of step 1
 * likewise for grids of 1, 7, 132 and 133. Gather mode's ring (128
 * producer arrivals per stage, every producer thread waiting on the empty
 * barrier) by a third (Python, not in this repository): 2, 4 or 8
 * producer threads, each waiting, writing its part and arriving as
 * separate steps, and 2 or 8 consumer warps, interleaved at random; 2, 3
 * and 4 stages, 1, 2, 3, 5 and 17 k-tiles per tile, 1, 2, 3 and 5 tiles:
 * 4,500 runs, no deadlock, every consumer reads every part of its k-tile,
 * no thread writes a stage a warp still reads, every arrival lands in the
 * phase of its own use. It fails, as it should, when only one producer
 * thread waits on the empty barrier, with a full-barrier count of 1,
 * without a tile's last release, and when the ring restarts at each tile.
 *
 * ---- Step 4: gk_gemm_ex: transposed operands, FP16, batches, epilogues -------------
 * The same kernel takes every description of gk_gemm_ex (gk/gemm.h): 16
 * instances, gemm16_persistent<kF16, kAT, kBT> and its gather twin, for
 * the two 16-bit types and the four layouts; the batch and the epilogue
 * are arguments.
 *   - What a transposed operand changes: only how its tile reaches shared
 *     memory and how the wgmma is told to read it. wgmma reads A as an M x
 *     K and B as an N x K tile, each either K-major (a slab row is 64
 *     consecutive k: 128 bytes of one row of A, or of one column of B) or
 *     MN-major (a slab row is 64 consecutive m or n of one k), chosen by
 *     the instruction's imm-trans-a / imm-trans-b bits; PTX allows the
 *     MN-major form for 16-bit types only (TF32 operands in shared memory
 *     must be K-major: what 12_tf32_wgmma.cu does about it). Row-major
 *     storage makes A (op_a = N, m x k) K-major and B (op_b = N, k x n)
 *     MN-major, the layouts of steps 1-3. A stored k x m (op_a = T) is
 *     MN-major: the TMA loads it as B's panels are loaded, two boxes of 64
 *     m x 64 k-rows (128-byte swizzle) per k-tile, warpgroup wg's 64 rows
 *     are panel wg, and imm-trans-a is 1. B stored n x k (op_b = T, the
 *     weight of y = x W^T) is K-major: one box of 64 k x 128 n-rows per CTA
 *     of a pair (two alone), laid out as A's rows, and imm-trans-b is 0.
 *     The descriptors follow (a_desc, b_desc): the same 1024-byte stride
 *     between 8-row swizzle atoms, the step through k moving 32 bytes along
 *     a K-major row or 16 rows down an MN-major panel. The ring, the
 *     multicast (B's two halves instead of four panels: each CTA of the
 *     pair loads one) and the epilogue do not change. Gather mode copies
 *     each layout with Gather (below): a K-major slab as A's rows, an
 *     MN-major one as B's panels.
 *   - FP16: wgmma's .f16 form reads IEEE half as it reads bf16 (a product of
 *     two halves, 11 significant bits each, is exact in fp32); the tensor
 *     maps say FLOAT16; the epilogue rounds to half (CElem in common.cuh).
 *   - Batches: the unit of work becomes (product z, pair p), u = z x pairs
 *     + p, walked as before, so the tail of one product fills SMs with the
 *     next one's tiles. Every tensor map is 3D (columns, rows, products):
 *     a box's z coordinate is the product, 0 for an operand whose stride is
 *     0 (shared by all products, read from L2 by all). Gather mode offsets
 *     its pointers by z x stride. Strides that are not multiples of 8
 *     elements take gather mode (the TMA's 16-byte rule).
 *   - Epilogues: bias, bias + ReLU, bias + GELU are applied to each value
 *     before its rounding, in both epilogues (common.cuh's epilogue_apply):
 *     each consumer lane reads the bias of its 2 columns of each 8-column
 *     block from global memory (through L1, 64 values per thread and tile),
 *     and the switch on the kind is made once per tile.
 * Registers: the producer's walk over products costs registers; with the
 * TMA-mode split of steps 1-3 (40 / 232) ptxas spilled 8 bytes in the
 * producer, so the split is 48 / 224 (ptxas -v, CUDA 13.0: no spills in
 * any of the 16 instances).
 *
 * ---- Registers and tile: variant 16's -----------------------------------------------
 * 384 threads (1 producer + 2 consumer warpgroups), setmaxnreg 48 / 224
 * (gather mode: 104 / 200 at the default batch, see there), 128 x 256 x 64 tiles (each consumer
 * 64 x 256, m64n256k16, 128 fp32 accumulators per thread), 4 stages of 48
 * KB. ptxas -v (CUDA 13.0, sm_90a): every instance of gemm16_persistent and
 * gemm16_persistent_gather 168 registers at launch, 0 bytes of stack,
 * no spills, no "wgmma serialized" warning.
 *
 * ---- What is left out, and why -------------------------------------------------------
 * - Clusters along n too (2 x 2, sharing A's boxes as well: L2-to-SM bytes
 *   per CTA and k-tile 24 KB): four CTAs coupled, 4-tile units of work, and
 *   an A box split across 2 CTAs; not built (see "clusters of 2 x 2"
 *   below).
 * - A "ping-pong" schedule (tried on an H200, 2026-11-28, not kept): each
 *   consumer warpgroup on a 64 x 256 tile of its own (the two take the
 *   CTA's units in turn; a stage holds A's 64 rows and B's 256 columns, 40
 *   KB; two named barriers let a warpgroup start a unit's k-tiles only after
 *   the other has waited on every k-tile of the unit before, so that one
 *   stores while the other multiplies and no full barrier is waited on two
 *   phases ahead). Its results passed the bench's check, but it ran slower
 *   in every case timed (gk_bench, cold L2, medians; cooperative as above /
 *   ping-pong, each in its own process beside cuBLAS): 4096^3 0.1772 /
 *   0.2242 ms (cuBLAS BF16 0.1751 / 0.1752), with bias + GELU 0.1897 /
 *   0.2334 (cuBLASLt 0.1819 / 0.1802), 64 x 512^3 0.0394 / 0.0454
 *   (cuBLAS 0.0359 / 0.0360), y = x W^T at 8192^3 1.5737 / 1.8661 (cuBLAS
 *   1.5533 / 1.5795). Counted: a 64 x 256 x 64 k-tile brings 40 KB into
 *   the SM for 2.1 MFLOP, 1.67x the bytes per FLOP of the shared 128 x 256
 *   tile (48 KB for 4.2 MFLOP; the multicast halves what a CTA asks of L2,
 *   not what lands in its shared memory), and its 4 stages hold half the
 *   tensor-core work (4 k-tiles of one warpgroup instead of both). Which of
 *   the two bounds it was not profiled. (At 1000^3 the twice as many units filled more SMs: 0.0140
 *   against 0.0173 ms; GK_GEMM_AUTO runs other kernels there.)
 * - Each half's epilogue under the other half's wgmma (tried on an H100,
 *   2026-11-27, not kept): the accumulators as two arrays of 64 (columns
 *   0-127 and 128-255), a tile's first and last 2 k-tiles issued as
 *   m64n128k16 on one half at a time, so that wgmma.wait_group 1 leaves one
 *   half's group running while the other half is stored. ptxas (CUDA 13.0)
 *   then serialized every wgmma of every instance: C7520 ("program
 *   dependence on compiler-inserted WG.AR in divergent path") in the TMA
 *   instances, C7514 ("non wgmma instructions reading accumulator
 *   registers of a wgmma between start and end of the pipeline stage") in
 *   gather mode, C7511 (register resources) with split-K's fp32 partials;
 *   an earlier form that zeroed a half while the other's group ran got
 *   C7515 ("... defining accumulator registers ..."). Timed so (gk_bench,
 *   cold L2, medians, cuBLAS in the same run): 0.2303 ms at 4096^3 against
 *   cuBLAS BF16's 0.1747 (0.76x), 0.0564 ms for 64 x 512^3 against 0.0445.
 *   Its tests passed; the branches that decide whether a tile is split
 *   (its k-tile count) and whether a half is pending are what ptxas cannot
 *   follow, so a form with the same groups on every path is the next try.
 * - The TMA store for beta != 0 (C loaded by the TMA into the buffer, then
 *   combined): those calls keep the register epilogue.
 * - Tried on the H200 and not kept (2026-11-23; gk_bench medians, each
 *   build in its own process beside cuBLAS BF16, or ncu):
 *   - a stagger, consumer warpgroup 1 issuing k-tile kt only after
 *     warpgroup 0 issued kt + L (named barriers), meant to overlap one
 *     warpgroup's epilogue with the other's wgmma: L = 1 took 0.1940 ms at
 *     4096^3 and 1.6293 at 8192^3 against 0.1755 and 1.5816 without, L = 2
 *     0.3299 and 2.5889 (not profiled; one likely cost: a stage is freed
 *     only when the later warpgroup is done with it, so the earlier one
 *     sees a shallower ring);
 *   - the TMA store in 4 passes of 64 columns on two alternating 2 KB boxes
 *     (wait_group.read 1 instead of 0 between passes): 0.1777 and 0.1772 ms
 *     at 4096^3 against 0.1771 and 0.1768, no change; alpha == 1 without
 *     the multiply, likewise (0.1761, 0.1765);
 *   - a try_wait suspend-time hint of 10 ms: ncu counted the same 248
 *     million instructions at 8192^3, so the waits were not spinning;
 *   - clusters of 2 x 2 (see above): cudaOccupancyMaxActiveClusters
 *     reports 30 clusters of 4 at this shared memory size, 120 of the 132
 *     SMs (9% fewer), while step 2's clusters of 2, a third fewer L2 bytes,
 *     gained 1.1% at 8192^3; not built.
 * - cuBLAS BF16 at 8192^3 runs 128 x 320 tiles (its kernel name, in this
 *   library's row-major terms: nvjet_sm90_tst_320x128_64x3_1x2_..._coopB,
 *   3 stages, clusters of 2 along m): fewer L2 and shared-memory bytes per
 *   FLOP, at 13 rounds of 1.25 x the work each instead of 15.5 (16)
 *   rounds; not tried here.
 *
 * ---- Padded copies (rows the TMA cannot address, through gk_gemm_ex) ---------------
 * The TMA asks for row strides in multiples of 16 bytes, so A and B with
 * an odd lda or ldb cannot be mapped. Given a workspace, the launcher
 * first copies each such operand as stored into it, rows padded to a
 * multiple of 8 elements (common.cuh: padded_pair16, pad_rows: one
 * 16-byte store per 8 elements read with 2-byte loads, a warp's loads
 * covering 512 contiguous bytes), then runs the TMA kernel on the copies.
 * The copy reads and writes 2 (m k + k n) bytes each way against the
 * product's 2 m n k flops, so it costs least where the product is large:
 * at 4097 x 3001 x 2049 (lda 2049, ldb 3001; 29.2 MB of copies) the call
 * takes 0.1654 ms against cuBLAS BF16's 0.3795 (2.29x; H100, CUDA 13.0,
 * gk_bench medians, cold L2, 2026-11-26,
 * gemm/tuning/tiles-h100/padded_bf16.json), and 0.1630-0.1711 ms in the
 * nt and tn layouts (1.97-2.30x, padded_bf16_layouts.json); in gather
 * mode it took 0.5375 ms against 0.3725 (0.69x, the run before:
 * auto_bf16_gather.json). The copies and the kernel are programmatic
 * dependent launches (common.cuh: pad_into, pdl_wait; sm90.cuh:
 * launch_clusters), so each launch's latency overlaps the grid before it:
 * on an H200 the three launches of 4097 x 3001 x 2049 took 0.1512-0.1513
 * ms against 0.1533-0.1536 without (gemm/tuning/pdl-h200).
 *
 * ---- Gather mode (rows the TMA cannot address without a workspace, and k = 0) -------
 * An odd lda or ldb, as in 4097 x 3001 x 2049 (lda = 2049, ldb = 3001),
 * starts every other row 2 bytes past a 4-byte boundary: neither the TMA
 * (16-byte rows) nor cp.async (4 bytes at least) can copy those rows.
 * Variants 15 and 16 hand such calls to variant 14's kernel, whose 256
 * computing threads gather element by element between their wgmma, 8 loads
 * in flight per chunk: 0.549 ms on the H200 against cuBLAS's 0.378
 * (gemm/bench-h200.json, 2026-11-23 19:42 UTC). (A build of that kernel
 * that issued all of a k-tile's loads before their stores took its
 * computing threads to 234-236 registers instead of 170-182, and 0.5969
 * ms against 0.5573 with 8 loads per chunk: one run the same day, not
 * kept in gemm/tuning/.) Here they run the persistent kernel in gather mode
 * (kTma = false: gemm_bf16_persistent_gather): no tensor maps and no cluster
 * (each CTA loads its own A and B; the grid is step 1's, with the gather
 * kernel's own occupancy); the same ring, consumers and epilogue.
 *   - Who loads: all 128 threads of the producer warpgroup (in TMA mode
 *     one issues the TMA and 127 idle), with registers of their own, so the
 *     loads in flight do not compete with the accumulators. Per stage each
 *     thread copies 24 16-byte chunks (8 of A's 128 x 64 slab, 16 of B's
 *     64 x 256) into the 128-byte-swizzled layouts the wgmma descriptors
 *     read; consecutive lanes take consecutive chunks of a row. A chunk is
 *     read with 4-byte __ldg where its elements are 4-byte aligned: 4 words,
 *     or, 2 bytes off, element 0, 3 words and element 7 (2-byte loads);
 *     rows outside the matrix and columns >= k (A) or >= n (B) become zeros,
 *     and no load touches them (chunk_load).
 *   - Loads in flight: batches of GKB5_GATHER_BATCH = 6 chunks. Each
 *     thread issues the loads of 6 chunks (24 to 30 loads, 96 bytes) before
 *     their stores, 4 batches per stage; the first batch's loads go out
 *     before its wait for the stage to be empty, so that they cross from L2
 *     while the consumers finish the stage's previous use. Measured on the
 *     H200 (CUDA 13.0, 2026-11-23, 4097 x 3001 x 2049, gk_bench medians,
 *     one build per batch, each against cuBLAS BF16 in its own process):
 *     batch 24 (a whole stage) 0.5303 ms against cuBLAS's 0.3789 (0.71x),
 *     batch 12 0.5131-0.5132 ms (0.74x, two runs), batch 8 0.5214 (0.73x),
 *     batch 6 0.4856 against 0.3801 (0.78x): the default. Variant 14's
 *     copy path, which this mode replaced, took 0.5600 ms against 0.3798
 *     (0.68x; these runs: gemm/tuning/tensor-core-h200.txt).
 *   - Registers: setmaxnreg 104 for the producer, 200 for the consumers at
 *     batch 6 (152 / 176 at 24, 120 / 192 at 12, 112 / 192 at 8): a split
 *     must satisfy P + 2 C <= 3 x 168, the CTA's registers at launch, since
 *     setmaxnreg only moves registers within the CTA. ptxas -v (CUDA 13.0,
 *     sm_90a): 168 at launch, 0 bytes of stack, no spills for each of these
 *     four; tighter producer shares spilled (96 at batch 6 and 104 at
 *     batch 8: 48 bytes).
 *   - Why the fence: the producers write a stage with st.shared, through
 *     the generic proxy, and wgmma reads it through the async proxy, which
 *     the PTX memory model orders after those writes only across a proxy
 *     fence. Each producer thread runs fence.proxy.async.shared::cta after
 *     its stores and before its mbarrier.arrive (release); a consumer's
 *     wait on the full barrier (acquire) then orders its wgmma after every
 *     thread's fenced stores. The TMA needs none: it writes through the
 *     async proxy itself. The full barrier counts 128 arrivals, one per
 *     producer thread: no thread can vouch for another's stores (the TMA's
 *     transaction bytes have no st.shared counterpart); every producer
 *     thread waits on the empty barrier before it writes (the invariant
 *     above gemm_bf16_persistent).
 *   - k = 0: gather mode with no k-tile; the producers load nothing, the
 *     consumers store alpha x 0 + beta x C, as variant 14's kernel did.
 * The copy was checked on the CPU (a host build not in this repository):
 * chunk_load, chunk_store and gather_stage as written here, compiled for the
 * host with stand-ins for __ldg, __byte_perm and st.shared, every stage of
 * every tile of 2,520 shapes (m 1 .. 257, k 1 .. 130, n 1 .. 520, lda and
 * ldb padded by 0 to 3, A and B starting 0 or 2 bytes past a 256-byte
 * boundary), by both the kWhole and the general path, batches of 24 and 12
 * (batch 6, the default, only by the GPU tests): every slab byte right
 * (zeros included), every 16-byte chunk written once, every load inside the
 * matrix, every 4-byte load aligned, no store before the empty wait. A wrong
 * byte selector, parity, count test, row bound or B destination makes it
 * fail. On the GPU it passes the tests (offsets of one element, leading
 * dimensions +3/+5/+1) and compute-sanitizer's three tools.
 *
 * What bounds it: the consumers' wgmma issue; the epilogue's stmatrix
 * passes (not overlapped with this CTA's own wgmma; the global writes
 * are); the last round of tiles (at 8192^3, 1024 pairs on 66 clusters:
 * 15.5 rounds, the last half full); with clusters, the slower CTA of each
 * pair; in the medians at 8192^3, the board's power cap (see "The group
 * height"). Without TMA stores, the register epilogue's store time. In gather mode, the producers:
 * one L2 round trip per stage and thread, and the L1's throughput for
 * loads whose lanes are 16 bytes apart (per stage and CTA the producer
 * warps issue 576 load instructions, up to 864 where a chunk straddles
 * column k or n, some wholly predicated off, each active one touching 4
 * to 8 128-byte lines); which of these, or the wgmma, bounds the odd shape
 * is for the measurement to say.
 *
 * Split-K (GK_GEMM_AUTO's configuration, gk_gemm_bf16_05_persistent_run_split):
 * with few tiles and a long k most SMs idle (256 x 256 x 65536: one pair
 * of tiles, one cluster of 2 CTAs on 132 SMs, each walking 1024 k-tiles).
 * The same kernel then stores fp32 partials: the launcher gives it S
 * slices of kc = 64 kt_per as if they were a batch (unit u is a pair of
 * slice u / pairs), A and B addressed whole (maps without a batch
 * dimension), and each unit walks only its slice's k-tiles (ktile_range;
 * the ring position `it` still counts every k-tile the CTA loads, so the
 * producer and consumers stay in step). The TMA zero-fills past k, so the
 * last slice may be shorter, and all slices run in one launch. The
 * epilogue writes alpha * d as float pairs into slab z of the workspace
 * (store_partial, no TMA store: its map is of C's 16-bit type), and
 * gemm/split_k.cu adds the slabs in a fixed order and rounds C once. At
 * 256 x 256 x 65536 (S = 64) that takes 0.0509 ms against 0.5851 unsplit
 * (H100, gemm/tuning/split-h100/split_bf16.json; cuBLAS 0.0392); the rule
 * for S, and its measurements, are on gemm/README.md. Only in TMA mode: with
 * rows the TMA cannot address the launcher returns cudaErrorNotSupported
 * before launching anything, and gemm.c runs the product unsplit.
 *
 * Limits (as variant 16):
 * - sm_90a only (wgmma, setmaxnreg, the TMA and mbarrier forms used here,
 *   and the multicast form of the TMA, which PTX marks as optimized for
 *   sm_90a): the code is compiled only where __CUDA_ARCH_FEAT_SM90_ALL is
 *   defined; elsewhere the kernels are stubs (a 1 KB static shared array
 *   that the launcher detects with cudaFuncGetAttributes) and the launcher
 *   returns cudaErrorNotSupported (GK_ERROR_UNSUPPORTED through
 *   gk_gemm_bf16), as it does on any GPU other than compute capability 9.0.
 * - The TMA path needs A's and B's base addresses 16-byte aligned and row
 *   strides (2 lda, 2 ldb bytes) multiples of 16; otherwise, and for k = 0,
 *   both operands take gather mode (any 2-byte-aligned base, any lda and
 *   ldb). Tile edges: the TMA zero-fills boxes outside the matrix (and
 *   counts their full bytes on the barrier); B panels wholly outside n are
 *   not loaded; gather mode writes zeros there; the epilogue stores only
 *   inside m x n.
 * - Tensor maps made on the host at every call with cuTensorMapEncodeTiled,
 *   reached through cudaGetDriverEntryPointByVersion (nothing links
 *   libcuda), passed as const __grid_constant__ CUtensorMap parameters.
 * - Grid: GKB5_CLUSTER = 2: 2 x min(pairs, clusters resident at once), by
 *   cudaLaunchKernelEx with the cluster dimension attribute
 *   (cudaErrorInvalidConfiguration if the occupancy calculator reports no
 *   cluster fits); GKB5_CLUSTER = 1 and gather mode: min(tiles, SMs x
 *   resident CTAs per SM), no clusters. At most 2^31 - 1 tiles
 *   (cudaErrorInvalidConfiguration above).
 *
 * Sources: PTX ISA (mbarrier phases, try_wait.parity, arrive on a
 * shared::cluster address and the .release/.acquire .cluster semantics;
 * cp.async.bulk.tensor, its .multicast::cluster form and its store
 * direction with .bulk_group, cp.async.bulk.commit_group and wait_group
 * .read; stmatrix; mapa;
 * barrier.cluster; fence.mbarrier_init; %cluster_ctarank; setmaxnreg and
 * its per-CTA register pool; the generic and async proxies and
 * fence.proxy.async; ld.global.nc; prmt; wgmma); CUDA C++ Programming
 * Guide ("Tensor Memory Access", "Thread Block Clusters", "Distributed
 * Shared Memory", cudaLaunchKernelEx and
 * cudaOccupancyMaxActiveClusters); NVIDIA CUTLASS documentation (persistent
 * "tile scheduler" kernels, the warp-specialized "cooperative" and
 * "ping-pong" schedules, TMA multicast across a cluster, epilogues that
 * store through shared memory with the TMA, the grouped
 * rasterization of tiles for L2 reuse); the Triton matrix-multiplication
 * tutorial ("L2 cache optimizations": grouped ordering).
 *
 * Build alone: nvcc -gencode arch=compute_90a,code=sm_90a -c bf16_05_persistent.cu
 *   (next to sm90.cuh and common.cuh, which it includes: the three files
 *   need nothing else but the CUDA toolkit)
 *   (-DGKB5_CLUSTER=1 without clusters; -DGKB5_GATHER_BATCH=24, 12 or 8
 *   for other batches in gather mode; with -arch=sm_90 or -arch=sm_80 it builds
 *   too, as the stubs that report "not supported")
 */
#include "sm90.cuh"

#include <string.h>

/* The wgmma and TMA code exists only in a device compilation for sm_90a,
 * where nvcc defines __CUDA_ARCH_FEAT_SM90_ALL (sm90.cuh's GK_SM90A). */
#ifndef __CUDA_ARCH_FEAT_SM90_ALL
#pragma nv_diag_suppress 177 /* the stub leaves the helpers unused */
#endif

#ifndef GKB5_GROUP_M
#define GKB5_GROUP_M 16
#endif
#ifndef GKB5_GATHER_GROUP_M
#define GKB5_GATHER_GROUP_M 8
#endif

/* CTAs per cluster along m: 2 (the default) pairs two CTAs that share each
 * k-tile's B panels by TMA multicast; 1 builds the kernel without clusters
 * (no cluster launch, no multicast, no remote arrives), to time both. */
#ifndef GKB5_CLUSTER
#define GKB5_CLUSTER 2
#endif

namespace {

/* The tile, its stages and their bytes (128 x 256 x 64, 4 stages of 48 KB)
 * are those of variants 14-17: sm90.cuh's bf16_tile. */
using namespace bf16_tile;
constexpr int kWarpgroups = kBM / 64;               /* 2: each owns 64 rows x all BN columns */
constexpr int kWsThreads = 3 * 128;                 /* 1 producer + 2 consumer warpgroups */
constexpr int kProducerThreads = 128;               /* the producer warpgroup */
constexpr int kConsumerWarps = kWarpgroups * 4;     /* 8: each releases a stage once (the empty barrier's count) */
/* Registers per thread at launch: __launch_bounds__(384, 1) caps them at
 * 65536 / 384 rounded down to a multiple of 8, and ptxas gives the kernels
 * exactly that. setmaxnreg only moves registers between the warpgroups of
 * the CTA (a .dec returns them to the CTA's pool, an .inc waits until the
 * pool holds them), so a split must satisfy 128 P + 256 C <= 384 x 168. */
constexpr int kLaunchRegs = (65536 / kWsThreads) & ~7; /* 168 */
constexpr int kProducerRegs = 48, kConsumerRegs = 224; /* TMA mode: setmaxnreg, per thread after the split */
constexpr unsigned kGroupM = GKB5_GROUP_M;             /* TMA mode */
constexpr unsigned kGatherGroupM = GKB5_GATHER_GROUP_M; /* gather mode */
constexpr int kCluster = GKB5_CLUSTER;              /* TMA mode: CTAs of a cluster, adjacent tile rows, the same bn */
constexpr uint16_t kClusterMask = (1u << kCluster) - 1u; /* multicast to every CTA of the cluster: 0b11 */
/* The epilogue's staging buffer (TMA mode with beta = 0 and a C the TMA
 * can address; sm90.cuh's store_tile_tma): each consumer warp stages 16
 * rows x 128 columns of bf16 at a time, two boxes of 16 x 64 for the TMA
 * store, in 2 passes. */
constexpr int kEpiRows = EpiTma<kAcc>::kRows, kEpiBoxCols = EpiTma<kAcc>::kBoxCols; /* 16, 64 */
constexpr int kEpiBoxBytes = EpiTma<kAcc>::kBoxBytes;       /* 2 KB: 16 rows of 128 bytes, the 128-byte swizzle */
constexpr int kEpiCols = EpiTma<kAcc>::kPassCols;           /* 128 */
constexpr int kEpiWarpBytes = EpiTma<kAcc>::kWarpBytes;     /* 4 KB */
constexpr int kEpiBytes = kConsumerWarps * kEpiWarpBytes;   /* 32 KB */
constexpr int kEpiPasses = EpiTma<kAcc>::kPasses;           /* 2 */
/* Dynamic shared memory: the stages, the epilogue's buffers, 1024 bytes of
 * alignment slack, a full and an empty mbarrier per stage. */
constexpr size_t kDynSmemBytes = (size_t)kStages * (kABytes + kBBytes) + kEpiBytes + 1024 + 2 * kStages * 8;

/* Gather mode (rows the TMA cannot address): every producer thread copies
 * 16-byte chunks (8 bf16) of each stage, kGatherAChunks of A's slab and
 * kGatherBChunks of B's, in batches of kGatherBatch chunks whose loads are
 * all issued before the first of their stores; a chunk is held in at most 5
 * registers between its loads and its store. GKB5_GATHER_BATCH: 24, 12, 8
 * or 6 (the default, measured fastest: header); the register split follows. */
#ifndef GKB5_GATHER_BATCH
#define GKB5_GATHER_BATCH 6
#endif
constexpr int kGatherAChunks = kBM * kBK / 8 / kProducerThreads; /* 8 per thread and stage */
constexpr int kGatherBChunks = kBK * kBN / 8 / kProducerThreads; /* 16 */
constexpr int kGatherChunks = kGatherAChunks + kGatherBChunks;   /* 24: 384 bytes of the stage's 48 KB */
constexpr int kGatherBatch = GKB5_GATHER_BATCH;
/* Gather mode's split: the producer holds up to 5 x kGatherBatch loaded
 * words, plus addresses and loop state; the consumers keep the rest. Each
 * is the tightest producer share tried that ptxas fits without spills. */
constexpr int kGatherProducerRegs = kGatherBatch == 24 ? 152 : kGatherBatch == 12 ? 120 : kGatherBatch == 8 ? 112 : 104;
constexpr int kGatherConsumerRegs = ((kWsThreads * kLaunchRegs / 128 - kGatherProducerRegs) / 2) & ~7;

static_assert(kDynSmemBytes <= 227u * 1024u, "dynamic shared memory above sm_90's 227 KB per block");
static_assert(kEpiBoxBytes % 1024 == 0 && kEpiWarpBytes % 1024 == 0 && kEpiPasses * kEpiCols == kBN &&
                  kEpiRows == 16 && kEpiCols == 2 * kEpiBoxCols,
              "epilogue: a warp's 16 rows, boxes of 1024-byte-aligned swizzle atoms");
static_assert(kLaunchRegs == 168, "the register splits below assume 168 registers per thread at launch");
static_assert(128 * kProducerRegs + kWarpgroups * 128 * kConsumerRegs <= kWsThreads * kLaunchRegs &&
                  128 * kGatherProducerRegs + kWarpgroups * 128 * kGatherConsumerRegs <= kWsThreads * kLaunchRegs,
              "setmaxnreg: the warpgroups' registers fit the CTA's registers at launch (384 x 168)");
static_assert(kProducerRegs % 8 == 0 && kConsumerRegs % 8 == 0 && kProducerRegs >= 24 && kConsumerRegs <= 256 &&
                  kGatherProducerRegs % 8 == 0 && kGatherConsumerRegs % 8 == 0 && kGatherConsumerRegs <= 256,
              "setmaxnreg takes multiples of 8 in 24 .. 256");
static_assert(kProducerRegs <= kLaunchRegs && kGatherProducerRegs <= kLaunchRegs &&
                  kConsumerRegs >= kLaunchRegs && kGatherConsumerRegs >= kLaunchRegs,
              "the producer's setmaxnreg decreases, the consumers' increases");
static_assert(kGatherBatch == 24 || kGatherBatch == 12 || kGatherBatch == 8 || kGatherBatch == 6,
              "GKB5_GATHER_BATCH: 24, 12, 8 or 6 (the splits checked for spills)");
static_assert(kGatherAChunks == 8 && kGatherBChunks == 16, "the gather's thread -> chunk map (gather_stage)");
static_assert(kCluster == 1 || kCluster == 2, "GKB5_CLUSTER: 1 (no clusters) or 2 (a pair of CTAs along m)");
static_assert(kGroupM % kCluster == 0, "GKB5_GROUP_M counts tile rows: a whole number of cluster rows");

/* ---- Where things live in a slab: variant 13's layout (common.cuh) ------ */
typedef Bf16Slab<kBM, kBN, kBK, kProducerThreads> Slab;

/* ---- Element types, transposed operands and batches (gk_gemm_ex) ------------
 * (See "Transposed operands, FP16, batches and epilogues" in the header.)
 * Elem<kF16>::T is C's element type: __nv_bfloat16 or __half. */
template <bool kF16> struct Elem {
    typedef __nv_bfloat16 T;
};
template <> struct Elem<true> {
    typedef __half T;
};
/* A's slab: K-major for op_a = N (one box of 64 k x 128 rows: the layout
 * above), MN-major for op_a = T, A stored k x m (two panels of 64 m-columns
 * x 64 k-rows: B's panel layout). */
template <bool kAT> struct ASlab {
    static constexpr int kPieces = kAT ? 2 : 1;
    static constexpr int kPieceBytes = kABytes / kPieces; /* 8 KB or 16 KB */
};
/* B's slab: MN-major for op_b = N (four panels of 64 n-columns x 64
 * k-rows), K-major for op_b = T, B stored n x k (two halves of 128 n-rows x
 * 64 k: A's K-major layout). In a cluster each CTA loads kPerCta of them. */
template <bool kBT> struct BSlab {
    static constexpr int kPieces = kBT ? 2 : kPanels;
    static constexpr int kPieceCols = kBN / kPieces;      /* 128 or 64 columns of the tile */
    static constexpr int kPieceBytes = kBBytes / kPieces; /* 16 KB or 8 KB */
    static constexpr int kPerCta = kPieces / kCluster;    /* 1 or 2 in a pair; 2 or 4 alone */
    static_assert(kPieces % kCluster == 0, "the CTAs of a cluster share B's pieces evenly");
};
/* One k-tile of a consumer warpgroup, as sm90.cuh's bf16_wgmma_ktile, for
 * any type and layout: imm-trans-a is 1 for an MN-major A (op_a = T),
 * imm-trans-b 1 for an MN-major B (op_b = N). */
template <bool kF16, bool kAT, bool kBT>
__device__ __forceinline__ void wgmma_ktile(float (&d)[kAcc], uint32_t as0, uint32_t bs0, int slab, int wg)
{
    acc_fence(d);
    wgmma_fence();
    const uint32_t as = as0 + slab * kABytes, bs = bs0 + slab * kBBytes;
#pragma unroll
    for (int s = 0; s < kKSteps; ++s)
        wgmma_m64n256k16_any<kF16, kAT ? 1 : 0, kBT ? 0 : 1>(d, desc16_a<kAT>(as, wg, s), desc16_b<kBT>(bs, s));
    wgmma_commit();
    wgmma_wait<1>();
    acc_fence(d);
}

/* What a launch needs besides the tensor maps (a kernel parameter). Strides
 * are 0 when batch = 1; a_batched / b_batched: the operand has a stride
 * (TMA mode: its map has a batch dimension, coordinate z). */
struct Params {
    const unsigned short *a, *b; /* gather mode */
    size_t lda, ldb, ldc;
    size_t stride_a, stride_b, stride_c; /* elements between products */
    void *c;
    const void *bias; /* n elements of C's type; read only when epi != 0 */
    unsigned m, n, k, tiles_m, tiles_n, batch;
    float alpha, beta;
    int epi;                 /* gk_gemm_epilogue: 0 none, 1 bias, 2 + ReLU, 3 + GELU */
    unsigned kt_per;         /* split-K (fp32 partials only): product z takes k-tiles z kt_per ..; 0: all */
    bool c_vec, c_tma, bias_vec, a_batched, b_batched;
};

/* ---- Clusters (sm_90a): used only when GKB5_CLUSTER = 2 ----------------------
 * cluster_ctarank, cluster_sync and mbar_arrive_remote are sm90.cuh's; the
 * multicast form of the TMA copy is its tma_load_3d with a CTA mask. The
 * two CTAs run the same kernel with the same dynamic shared memory layout,
 * so one offset names the same slab and barrier in both. */

/* ---- The TMA store epilogue: sm90.cuh's store_tile_tma (stmatrix into a
 * warp's buffer, the TMA store from it). ---- */

/* Cell t (0 .. rows * cols - 1) of a rows x cols grid in the L2-friendly
 * order: groups of group_rows rows, walked column by column inside a group,
 * so that the cells in progress at one time share A rows and B columns; a
 * bijection onto the grid (checked on the CPU). */
__device__ __forceinline__ void grouped_cell(unsigned t, unsigned rows, unsigned cols, unsigned group_rows,
                                             unsigned *row, unsigned *col)
{
    const unsigned long long group_cells = (unsigned long long)group_rows * cols;
    const unsigned group = (unsigned)(t / group_cells);
    const unsigned first = group * group_rows;
    const unsigned rows_in_group = rows - first < group_rows ? rows - first : group_rows;
    const unsigned in_group = (unsigned)(t - group * group_cells);
    *row = first + in_group % rows_in_group;
    *col = in_group / rows_in_group;
}
/* The persistent kernel's unit of work is a pair: C (the cluster size:
 * kCluster in TMA mode, 1 in gather mode) vertically adjacent tiles with the
 * same bn, one per CTA of a cluster (with C = 1 a pair is one tile). Pair p
 * (0 .. pair_rows * tiles_n - 1) is a cell of the pair_rows x tiles_n grid in
 * the grouped order, groups of kGroupM / C pair rows (the same kGroupM tile
 * rows as without clusters); the CTA of rank `rank` takes its tile row
 * C * pair_row + rank. When C = 2 and tiles_m is odd, the last pair row's
 * rank-1 tile is row tiles_m: below m (see the kernel). */
template <int C, bool kGather = false>
__device__ __forceinline__ void pair_origin(unsigned p, unsigned rank, unsigned tiles_m, unsigned tiles_n,
                                            unsigned *bm, unsigned *bn)
{
    const unsigned pair_rows = (tiles_m + C - 1) / C;
    unsigned row, col;
    grouped_cell(p, pair_rows, tiles_n, (kGather ? kGatherGroupM : kGroupM) / C, &row, &col);
    *bm = (row * C + rank) * kBM;
    *bn = col * kBN;
}

/* ---- Gather mode: the producer warpgroup's copies -----------------------------------
 * A chunk is 8 consecutive elements of one row of a slab (A: columns
 * kt * 64 + 8q .. of row bm + r; B: columns bn + 8q .. of k-row kt * 64 + p),
 * 16 bytes of shared memory. Its first `count` elements (0 .. 8) lie inside
 * the matrix; the others, and every element of a row outside it, are
 * written as zeros. The loads touch those `count` elements and nothing else,
 * 4 bytes at a time where they are 4-byte aligned (the API promises only 2
 * bytes, and an odd lda moves every other row 2 bytes off). `odd` says
 * whether the chunk starts 2 bytes past a 4-byte boundary. Load slot s
 * (x[s], s = 0 .. 4) reads elements f .. f + w - 1 of the chunk:
 *            s = 0        s = 1, 2, 3      s = 4
 *   f        0            2s - odd         7
 *   w        2 - odd      2                odd
 * so 4 words (0 1) (2 3) (4 5) (6 7) when even; element 0, the words
 * (1 2) (3 4) (5 6), element 7 when odd: every word starts at an even
 * element offset from a 4-byte boundary, i.e. is 4-byte aligned. A slot is
 * read as one word when both of its elements are inside (count >= f + 2),
 * as element f alone (2 bytes, zero-extended) when only that one is, else
 * not at all (zero). kWhole: count is 0 or 8 for every chunk of the call,
 * which leaves one test per slot. At most 5 loads per chunk instead of 8,
 * each into a register of its own, none used before the batch's stores. */
__device__ __forceinline__ uint32_t ld_word(const unsigned short *base, size_t off)
{
    return __ldg(reinterpret_cast<const unsigned *>(base + off)); /* little-endian: element off in bits 0-15 */
}
__device__ __forceinline__ uint32_t ld_half(const unsigned short *base, size_t off) { return __ldg(base + off); }

template <bool kWhole>
__device__ __forceinline__ void chunk_load(uint32_t (&x)[5], const unsigned short *base, size_t off, int count,
                                           int odd)
{
    /* base + off + f is formed only where it is read: a row outside the
     * matrix may lie past the end of its allocation. */
#pragma unroll
    for (int s = 0; s < 5; ++s) {
        const int f = s == 0 ? 0 : (s == 4 ? 7 : 2 * s - odd);
        const int w = s == 0 ? 2 - odd : (s == 4 ? odd : 2);
        const bool word = w == 2 && (kWhole ? count > 0 : count >= f + 2);
        const bool half = !word && w >= 1 && (kWhole ? count > 0 : count >= f + 1);
        uint32_t v = 0u;
        if (word) v = ld_word(base, off + f); /* two tests, not if-else: predicated loads, no branch */
        if (half) v = ld_half(base, off + f);
        x[s] = v;
    }
}
/* The chunk's 4 words into shared memory, element 2j in the low half of
 * word j, as the TMA would write them. Word j is __byte_perm(x[j], x[j + 1],
 * sel): byte i of the result is byte sel[i] of the pair x[j + 1]:x[j] (0-3
 * from x[j], 4-7 from x[j + 1]). Even: x[j] itself (0x3210; x[4] = 0).
 * Odd: the upper half of x[j] and the lower half of x[j + 1] (0x5432),
 * except word 0: x[0] is element 0 alone, in its lower half (0x5410). */
__device__ __forceinline__ void chunk_store(uint32_t dst, const uint32_t (&x)[5], int odd)
{
    const uint32_t sel0 = odd ? 0x5410u : 0x3210u, sel = odd ? 0x5432u : 0x3210u;
    st_shared16(dst, __byte_perm(x[0], x[1], sel0), __byte_perm(x[1], x[2], sel), __byte_perm(x[2], x[3], sel),
                __byte_perm(x[3], x[4], sel));
}

/* Producer thread t (0 .. 127; warp w = t / 32, lane l = t % 32) copies, of
 * each stage, for the default layouts (op_a = op_b = N),
 *   A: chunk column t % 8 of the rows t / 8 + 16 i, i = 0 .. 7;
 *   B: chunk column l of the k-rows 4 i + w, i = 0 .. 15.
 * Each is a bijection onto its slab's chunks (A: t / 8 = 0 .. 15 and i give
 * each of the 128 rows once, t % 8 each of its 8 chunks; B: w and i each of
 * the 64 k-rows, l each of its 32 chunks). Why this map:
 *   - coalescing: one load instruction of a warp reads, A: 4 rows, 8
 *     consecutive chunks (128 bytes) of each; B: 32 consecutive chunks (512
 *     bytes) of one row;
 *   - banks: its 16-byte stores fill, A: 4 whole 128-byte rows of the slab;
 *     B: one 128-byte row of each of the 4 panels: 4 wavefronts, the least
 *     that 512 bytes take;
 *   - one `odd` per thread, operand and product: a chunk starts 2 bytes off
 *     when its element offset from the 4-byte-aligned address below the
 *     matrix is odd. For A that is a / 2 + (bm + t / 8 + 16 i) lda + kt * 64
 *     + 8 (t % 8) (a in bytes, even by the API): the parity of a / 2 +
 *     (t / 8) lda, since bm, 16 i and the column are even; for B, b / 2 +
 *     (kt * 64 + 4 i + w) ldb + bn + 8 l: the parity of b / 2 + w ldb;
 *   - shared memory: rows t / 8 + 16 i keep the swizzle of row t / 8 (16 i
 *     % 8 = 0), so A chunk i lies 2048 i bytes after chunk 0; k-rows 4 i + w
 *     that of row w (i even) or w + 4 (i odd), so B chunk i lies 1024 (i / 2)
 *     bytes after chunk 0 or 1 (see Slab::b_offset): immediate offsets.
 * Gather<kKMajor, kExtent> writes this map for any slab: a K-major slab of
 * kExtent rows (A for op_a = N, 128 rows; B for op_b = T, 256 n-rows) is
 * copied as A above, chunk column t % 8 of the rows t / 8 + 16 i; an
 * MN-major slab of kExtent columns (B for op_b = N, 256; A for op_a = T,
 * 128 m-columns) as B above, chunk column t % (kExtent / 8) of the k-rows
 * t / (kExtent / 8) + (1024 / kExtent) i. Every slab has 8 (A) or 16 (B)
 * chunks per thread and stage in both layouts, and the same arguments hold:
 * for A MN-major, a warp's load reads 2 k-rows x 256 bytes, its stores fill
 * one 128-byte row of 2 k-rows of each of the 2 panels (4 wavefronts), and
 * k-rows t / 16 + 8 i keep row t / 16's swizzle (chunk i 1024 i bytes on);
 * for B K-major, exactly A's map over 16 chunks. */
struct Share {
    const unsigned short *src; /* this product's matrix */
    size_t off;                /* element offset of the thread's chunk 0 */
    size_t step;               /* element offset from one of its chunks to the next */
    int count;                 /* elements of each chunk inside the matrix's columns (0 .. 8) */
    int rows_left;             /* chunk i lies inside the matrix's rows iff kStep i < rows_left */
    int odd;                   /* the chunks start 2 bytes past a 4-byte boundary */
    uint32_t d0, d1;           /* shared-memory address of chunk 0 (and, kStep = 4, of chunk 1) */
};
template <bool kKMajor, int kExtent> struct Gather {
    static constexpr int kQ = kKMajor ? kBK / 8 : kExtent / 8;          /* chunks per slab row */
    static constexpr int kStep = kProducerThreads / kQ;                 /* slab rows from one chunk to the next */
    static constexpr int kChunks = (kKMajor ? kExtent : kBK) / kStep;   /* per thread and stage */
    static_assert(kQ * kStep == kProducerThreads && (kStep == 16 || kStep == 8 || kStep == 4),
                  "whole slab rows per thread step; the swizzle repeats every 8 rows");

    /* Thread t's chunks of k-tile kt of the tile whose first row (K-major:
     * of A, or of B's n-rows) or column (MN-major) is `origin`; `outer` is
     * the matrix's extent there (m or n), and the slab lies at `slab`. */
    __device__ static __forceinline__ Share share(const unsigned short *src, size_t ld, unsigned outer, unsigned k,
                                                  unsigned origin, unsigned kt, uint32_t slab, int t)
    {
        Share s;
        const int q = t % kQ, r0 = t / kQ;
        s.src = src;
        s.step = (size_t)kStep * ld;
        if constexpr (kKMajor) {
            const unsigned col = kt * kBK + 8 * q; /* < k + 64: fits (k < 2^31) */
            s.off = (size_t)(origin + r0) * ld + col;
            s.count = col >= k ? 0 : (k - col < 8 ? (int)(k - col) : 8);
            s.rows_left = (int)(outer - origin) - r0;
            s.d0 = slab + Slab::a_offset(r0, q);
            s.d1 = s.d0;
        } else {
            const unsigned col = origin + 8 * q;
            s.off = (size_t)(kt * kBK + r0) * ld + col;
            s.count = col >= outer ? 0 : (outer - col < 8 ? (int)(outer - col) : 8);
            s.rows_left = (int)(k - kt * kBK) - r0;
            s.d0 = slab + Slab::b_offset(r0, q);
            s.d1 = slab + Slab::b_offset(r0 + 4, q); /* used only when kStep = 4 (r0 < 4) */
        }
        /* kStep ld and the k-tile steps (64, 64 ld) are even: one parity for all. */
        s.odd = (int)((((uintptr_t)src >> 1) + s.off) & 1u);
        return s;
    }
    /* Where chunk i goes: rows r0 + kStep i keep r0's swizzle when kStep is
     * 8 or 16; with kStep = 4 they alternate between r0's and r0 + 4's. */
    __device__ static __forceinline__ uint32_t dst(const Share &s, int i)
    {
        if constexpr (kStep == 4)
            return ((i & 1) ? s.d1 : s.d0) + 1024u * (uint32_t)(i >> 1);
        else
            return s.d0 + (uint32_t)(kStep * 128 * i);
    }
};
/* A's and B's gather maps for the layouts (op_a, op_b). */
template <bool kAT> using GatherA = Gather<!kAT, kBM>;
template <bool kBT> using GatherB = Gather<kBT, kBN>;

/* One stage by producer thread t: its 24 chunks (sa's GA::kChunks of A,
 * then sb's of B) in batches of kGatherBatch, every load of a batch issued
 * before the first of its stores; the first batch's loads are issued before
 * the wait for the stage to be empty (if `wait`: empty barrier `empty`,
 * parity `parity`), so that they are in flight while the consumers finish
 * with it. Rows outside the matrix give zeros. */
template <bool kWhole, class GA, class GB>
__device__ __forceinline__ void gather_stage(const Share &sa, const Share &sb, uint32_t empty, uint32_t parity,
                                             bool wait)
{
    static_assert(GA::kChunks == kGatherAChunks && GB::kChunks == kGatherBChunks, "24 chunks per thread and stage");
#pragma unroll
    for (int c0 = 0; c0 < kGatherChunks; c0 += kGatherBatch) {
        uint32_t x[kGatherBatch][5];
#pragma unroll
        for (int j = 0; j < kGatherBatch; ++j) {
            const int c = c0 + j; /* A chunks 0 .. 7, then B chunks 8 .. 23 */
            if (c < kGatherAChunks) {
                chunk_load<kWhole>(x[j], sa.src, sa.off + (size_t)c * sa.step,
                                   GA::kStep * c < sa.rows_left ? sa.count : 0, sa.odd);
            } else {
                const int i = c - kGatherAChunks;
                chunk_load<kWhole>(x[j], sb.src, sb.off + (size_t)i * sb.step,
                                   GB::kStep * i < sb.rows_left ? sb.count : 0, sb.odd);
            }
        }
        /* Nothing is written to the stage before its previous use is released. */
        if (c0 == 0 && wait) mbar_wait(empty, parity);
#pragma unroll
        for (int j = 0; j < kGatherBatch; ++j) {
            const int c = c0 + j;
            if (c < kGatherAChunks)
                chunk_store(GA::dst(sa, c), x[j], sa.odd);
            else
                chunk_store(GB::dst(sb, c - kGatherAChunks), x[j], sb.odd);
        }
    }
}

/* The gather producer: every thread of the producer warpgroup walks the
 * CTA's tiles (units first, first + step, ... below `units`: the consumers'
 * walk; unit u is tile u % tiles of product u / tiles) and their k-tiles
 * in the one ring sequence `it`, and for each: its share of the stage
 * (gather_stage), then fence.proxy.async (its st.shared, made through the
 * generic proxy, become visible to the async proxy, through which the
 * consumers' wgmma read the stage), then its arrival on the stage's full
 * barrier (count 128: the phase completes when every thread's share is
 * written and fenced). */
template <bool kAT, bool kBT>
__device__ __forceinline__ void gather_producer(uint32_t as0, uint32_t bs0, uint32_t full0, uint32_t empty0,
                                                const Params &prm, unsigned first, unsigned step, unsigned units,
                                                int t)
{
    typedef GatherA<kAT> GA;
    typedef GatherB<kBT> GB;
    const unsigned m = prm.m, n = prm.n, k = prm.k, tiles = prm.tiles_m * prm.tiles_n;
    const unsigned ktiles = (k + kBK - 1) / kBK;
    unsigned it = 0; /* the ring position: never reset between tiles */
    for (unsigned u = first; u < units; u += step) {
        const unsigned z = u / tiles;
        unsigned bm, bn;
        pair_origin<1, true>(u - z * tiles, 0u, prm.tiles_m, prm.tiles_n, &bm, &bn);
        const unsigned short *const a = prm.a + (size_t)z * prm.stride_a;
        const unsigned short *const b = prm.b + (size_t)z * prm.stride_b;
        for (unsigned kt = 0; kt < ktiles; ++kt, ++it) {
            const int slab = (int)(it % kStages);
            const Share sa = GA::share(a, prm.lda, m, k, bm, kt, as0 + slab * kABytes, t);
            const Share sb = GB::share(b, prm.ldb, n, k, bn, kt, bs0 + slab * kBBytes, t);
            /* A chunk that straddles the matrix's last column needs every
             * test of chunk_load<false>. When no lane of the warp has one (all
             * but the last k-tile and the last tile column or row, and those
             * too when the extents are multiples of 8) the warp takes
             * chunk_load<true>: a vote, so that the warp does not split. */
            const bool whole =
                __all_sync(0xffffffffu, (sa.count == 0 || sa.count == 8) && (sb.count == 0 || sb.count == 8));
            /* Use it / kStages of the stage: the first kStages uses find it
             * empty; later ones wait for phase it / kStages - 1 of its empty
             * barrier (every consumer warp released the previous use). */
            const uint32_t parity = (it / kStages - 1) & 1u;
            const bool wait = it >= (unsigned)kStages;
            const uint32_t empty = empty0 + 8 * slab;
            if (whole)
                gather_stage<true, GA, GB>(sa, sb, empty, parity, wait);
            else
                gather_stage<false, GA, GB>(sa, sb, empty, parity, wait);
            fence_proxy_async();
            mbar_arrive(full0 + 8 * slab);
        }
    }
}

/* ---- The persistent kernel -------------------------------------------------------- */
/* The producer thread of the CTA of rank `rank` queues k-tile kt of its
 * tile at (bm, bn) into stage `slab`: one arrive.expect_tx on its stage's
 * full barrier with the bytes that stage receives, then its boxes: A's 128
 * rows x 64 k (one box of 64 k x 128 rows for op_a = N; two of 64 m x 64 k
 * for op_a = T), into this CTA only, and its share of B's pieces (op_b = N:
 * panels of 64 k-rows x 64 columns; op_b = T: halves of 128 n-rows x 64 k):
 * pieces kPerCta * rank .. + kPerCta - 1 (all of them with GKB5_CLUSTER =
 * 1), each multicast into the same slab of both CTAs (they share bn). So
 * each CTA's stage receives A + all of the tile's pieces, its own and its
 * peer's: the expect_tx counts them all. The peer's boxes may complete on
 * this barrier before this arrive.expect_tx: the transaction count dips
 * below zero for a moment, and the phase cannot complete before this one
 * arrival (its count is 1), which adds the expected bytes.
 * A piece wholly right of column n is loaded by neither CTA (both compute
 * the same `pieces` from bn): its stale contents (another tile's, or never
 * written) reach only the accumulators of columns >= n, which the epilogue
 * never stores. A box that leaves the matrix is zero-filled and still
 * counts its full bytes (all of it, for the A box of a tile below m).
 * Every map is 3D (columns, rows, products): za and zb are the product's
 * index in A's and B's maps (0 for an operand the products share). */
template <bool kAT, bool kBT>
__device__ __forceinline__ void load_stage(const CUtensorMap *map_a, const CUtensorMap *map_b, uint32_t as0,
                                           uint32_t bs0, uint32_t full0, int slab, unsigned kt, unsigned bm,
                                           unsigned bn, int pieces, unsigned rank, int za, int zb)
{
    typedef BSlab<kBT> B;
    const uint32_t full = full0 + 8 * slab;
    mbar_arrive_expect_tx(full, (uint32_t)(kABytes + pieces * B::kPieceBytes));
    /* Coordinates fit an int (m, n, k <= 2^31 - 1, tiles aligned): bm <=
     * 2^31 - 128 (a tile row below m, which exists only for odd tiles_m <=
     * 2^24 - 1, included), kt * kBK <= 2^31 - 64, bn + 192 <= 2^31 - 64. */
    const uint32_t as = as0 + slab * kABytes;
    if constexpr (kAT) {
        tma_load_3d(as, map_a, (int)bm, (int)(kt * kBK), za, full);
        tma_load_3d(as + kPanelBytes, map_a, (int)(bm + 64), (int)(kt * kBK), za, full);
    } else {
        tma_load_3d(as, map_a, (int)(kt * kBK), (int)bm, za, full);
    }
    const int p0 = B::kPerCta * (int)rank;
    const int p1 = p0 + B::kPerCta < pieces ? p0 + B::kPerCta : pieces;
    for (int p = p0; p < p1; ++p) {
        const uint32_t dst = bs0 + slab * kBBytes + p * B::kPieceBytes;
        const uint16_t mask = kCluster == 1 ? (uint16_t)0 : kClusterMask;
        if constexpr (kBT)
            tma_load_3d(dst, map_b, (int)(kt * kBK), (int)(bn + B::kPieceCols * p), zb, full, mask);
        else
            tma_load_3d(dst, map_b, (int)(bn + B::kPieceCols * p), (int)(kt * kBK), zb, full, mask);
    }
}
/* A consumer warp (lane 0) releases stage `slab`: one arrival on this
 * CTA's empty barrier and, in a cluster (C = 2), one on the peer's barrier
 * at the same offset, since the peer's producer multicasts into this CTA's
 * stage too. The local arrival first: the remote one's release (at CTA
 * scope, mbar_arrive_remote's default) orders it before itself. */
template <int C> __device__ __forceinline__ void release_stage(uint32_t empty0, int slab, unsigned peer)
{
    mbar_arrive(empty0 + 8 * slab);
    if constexpr (C > 1) mbar_arrive_remote(empty0 + 8 * slab, peer);
}

/* ---- The ring's invariant (checked by CPU simulations, see the header) ----
 * Every thread of a role numbers the k-tiles it handles in one sequence
 * that runs on across the tiles of this CTA: it = (tiles done) * ktiles + kt.
 * k-tile `it` lives in stage it % kStages and is that stage's use
 * u = it / kStages. The CTAs of a cluster walk the same pairs, hence the
 * same number of tiles and k-tiles: one sequence for both, and use u of a
 * stage holds the same B k-tile in both. Then:
 *   full[s]  (this CTA's, count 1) completes its phase u when use u's bytes
 *            have landed here: its producer's arrive.expect_tx, then A and
 *            this CTA's panels from its own copies, the peer's panels from
 *            the peer's multicasts; a consumer waits on parity u & 1;
 *   empty[s] (this CTA's, count kEmpty = 16) completes its phase u
 *            when the 8 consumer warps of this CTA and the 8 of the peer
 *            have released use u (each warp arrives on the empty[s] of both
 *            CTAs); the producer, before queuing use u >= 1 into stage s of
 *            both CTAs, waits on parity (u - 1) & 1.
 *   (GKB5_CLUSTER = 1: count 8, no peer, no multicast.)
 * A parity names a phase unambiguously only if the waiter is never 2
 * phases behind or ahead; it is not:
 *  - no byte of use u + 1 reaches this CTA's stage s (its data, or its
 *    transactions on full[s]) before every consumer warp here released use
 *    u: this CTA's producer waits for that on its own empty[s], and the
 *    peer's producer on the peer's empty[s], which counts this CTA's
 *    releases too. A warp releases use u after its wait on full[s] phase
 *    u, so full[s] is in phase u + 1 when those bytes land, and phase u + 1
 *    cannot complete before every consumer here waited on phase u;
 *  - empty[s] cannot complete use u before this CTA's producer queued it:
 *    its consumers release use u after full[s] phase u, which needs that
 *    producer's one arrival;
 *  - no empty[s] phase u completes while a warp of either CTA still reads
 *    use u. Its 16 arrivals could come early only if one warp's release of
 *    use u + 1 stood in for another's release of use u (a remote arrive
 *    still in flight, say). A warp releases use u + 1 after its own CTA's
 *    full[s] phase u + 1, hence after its own producer saw its own
 *    empty[s] complete phase u. For a warp of this CTA, that is the phase
 *    in question: already complete. For a warp of the peer, it is the
 *    peer's phase u, which completed earlier and (by the same argument, at
 *    that earlier time) only once every warp of both CTAs was done with use
 *    u. At worst a slow arrival is counted in the next phase, for a warp
 *    that is done with the stage.
 * So each consumer warp releases every k-tile exactly once, in both CTAs,
 * the last k-tile of a tile included (after its wgmma.wait_group 0), and
 * both roles count `it` on across tiles: restarting it at 0 per tile, or
 * not releasing a tile's last k-tile, breaks the parity (the simulations
 * catch both).
 *
 * Gather mode (kTma = false: no cluster, C = 1): the same sequence, the
 * same stages and the same consumers; the 128 producer threads write each
 * stage themselves, with st.shared, each its own 24 chunks of it. Then:
 *   full[s]  (count 128) completes its phase u when every producer thread
 *            has written its chunks of use u, fenced them (below) and
 *            arrived: 128 arrivals, because no thread can speak for the
 *            stores of another (there are no transaction bytes to count, as
 *            the TMA's); a consumer waits on parity u & 1, as in TMA mode;
 *   empty[s] (count 8) completes its phase u when the 8 consumer warps
 *            released use u; EVERY producer thread, before it writes use
 *            u >= 1, waits on parity (u - 1) & 1 (each writes a part of
 *            the stage, so each must know that nobody still reads it).
 * Never 2 phases apart, by the argument above for one CTA: a producer
 * thread arrives for use u + 1 only after empty[s] phase u, which needs
 * every consumer warp's wait on full[s] phase u, which needs all 128
 * arrivals for use u. So an arrival for use u + 1 never lands in phase u
 * (however late another thread's arrival for use u is), and no thread
 * writes use u + 1 into the stage while a warp still reads use u (the
 * release follows that warp's wgmma.wait_group, which retires its reads).
 * The fence is on the writer's side: fence.proxy.async orders a thread's
 * own generic-proxy writes before its later accesses through the async
 * proxy, and the wgmma's reads are made by the consumers, ordered after the
 * producer's arrive (release) by their wait (acquire); the fence between
 * each thread's stores and its arrive makes those stores, not only the
 * barrier's phase, visible to the async proxy that wgmma reads through.
 * A consumer-side fence after the wait would not do: it orders only the
 * consumer thread's own generic accesses. */
/* One tile's epilogue: through shared memory and the TMA when c_tma (TMA
 * mode, beta = 0, C TMA-addressable), else from registers; epilogue kEpi. */
template <int kEpi, bool kTma, typename T>
__device__ __forceinline__ void epilogue_tile(const float (&d)[kAcc], const CUtensorMap *map_c, const Params &prm,
                                              unsigned z, uint32_t buf, unsigned row0, unsigned bn, int lane)
{
    const T *const bias = static_cast<const T *>(prm.bias);
    if (kTma && prm.c_tma)
        store_tile_tma<kAcc, kEpi, T>(d, map_c, (int)z, buf, prm.m, prm.n, row0, bn, lane, prm.alpha,
                                bias, prm.bias_vec);
    else
        store_tile<kAcc, kEpi, T>(d, static_cast<T *>(prm.c) + (size_t)z * prm.stride_c, prm.ldc, prm.m, prm.n, row0,
                                  bn, lane, prm.alpha, prm.beta, prm.c_vec, bias, prm.bias_vec);
}

/* A split product's partial tile: common.cuh's store_partial (alpha * d in
 * fp32, no bias, beta = 0: the launcher refuses anything else). */

/* The k-tiles unit of product z walks: all of them, or with split-K
 * (kF32C and kt_per > 0: product z is slice z of one product, A and B not
 * batched) k-tiles z kt_per .. min(z kt_per + kt_per, ktiles) - 1; the
 * launcher makes every slice non-empty. The TMA zero-fills past k, so a
 * slice ends anywhere. */
template <bool kF32C>
__device__ __forceinline__ void ktile_range(unsigned kt_per, unsigned z, unsigned ktiles, unsigned *kt0, unsigned *kt1)
{
    *kt0 = 0, *kt1 = ktiles;
    if constexpr (kF32C) {
        if (kt_per != 0) {
            *kt0 = z * kt_per;
            *kt1 = ktiles - *kt0 < kt_per ? ktiles : *kt0 + kt_per;
        }
    }
}

/* kF32C: C is fp32 (a split product's partials), TMA mode only. */
template <bool kTma, bool kF16, bool kAT, bool kBT, bool kF32C = false>
__device__ __forceinline__ void persistent_body(const CUtensorMap *map_a, const CUtensorMap *map_b,
                                                const CUtensorMap *map_c, const Params &prm)
{
    typedef typename Elem<kF16>::T T;
    const unsigned n = prm.n, k = prm.k, tiles_m = prm.tiles_m, tiles_n = prm.tiles_n;
    /* Gather mode runs without clusters: each CTA loads its own A and B. */
    constexpr int kC = kTma ? kCluster : 1;
    constexpr unsigned kEmpty = kC * kConsumerWarps; /* releases per stage use: 16 in a pair, 8 alone */
    constexpr unsigned kFull = kTma ? 1u : (unsigned)kProducerThreads; /* arrivals per stage use */
    constexpr int kPRegs = kTma ? kProducerRegs : kGatherProducerRegs;
    constexpr int kCRegs = kTma ? kConsumerRegs : kGatherConsumerRegs;

    extern __shared__ __align__(128) unsigned char smem[];
    /* Slabs from the first 1024-byte boundary, then the barriers (as variant
     * 15): the same offsets in both CTAs of a cluster (same kernel, same
     * dynamic shared memory), which the multicasts and the remote arrivals
     * rely on. */
    const Ring ring = ring_layout<kStages, kABytes, kBBytes, kEpiBytes>(smem);
    const uint32_t as0 = ring.as0, bs0 = ring.bs0, full0 = ring.full0, empty0 = ring.empty0;
    const uint32_t epi0 = ring.extra; /* the epilogue's buffers: 4 KB per consumer warp */

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wg = warp >> 2; /* 0: the producer; 1, 2: the consumers */
    /* >= 1 in TMA mode (the launcher sends k = 0 to gather mode, where no
     * k-tile is loaded and the epilogue scales C by beta). */
    const unsigned ktiles = (k + kBK - 1) / kBK;
    /* Clusters are kC consecutive blocks along x: cluster blockIdx.x / kC,
     * this CTA's rank in it blockIdx.x % kC (read from %cluster_ctarank),
     * its peer the other rank. Without clusters: rank and peer 0, one CTA
     * per "cluster", one tile per "pair". */
    const unsigned rank = kC > 1 ? cluster_ctarank() : 0u;
    const unsigned peer = rank ^ (unsigned)(kC - 1);
    const unsigned cluster = blockIdx.x / kC, clusters = gridDim.x / kC;
    /* A unit of work is a pair of one product: unit u is pair u % pairs of
     * product u / pairs (both CTAs of a cluster walk the same units, hence
     * the same product). units <= 2^31 - 1 (the launcher checks). */
    const unsigned pairs = (tiles_m + kC - 1) / kC * tiles_n;
    const unsigned units = pairs * prm.batch;

    if (tid == 0) {
        /* full: TMA, one arrive.expect_tx, then the bytes; gather, 128
         * arrivals. empty: one arrival per consumer warp of each CTA. */
        init_ring<kStages>(full0, empty0, kFull, kEmpty);
        if constexpr (kTma) {
            prefetch_tensormap(map_a);
            prefetch_tensormap(map_b);
        }
    }
    /* The barriers are initialized before any thread waits on them and, in
     * a cluster, before the peer's producer multicasts into this CTA or the
     * peer's consumers arrive on its empty barriers: a cluster-wide barrier
     * (a barrier of this CTA's threads too). Without clusters a block-wide
     * one. Then the roles split; they meet again only at the end. */
    if constexpr (kC > 1)
        cluster_sync();
    else
        __syncthreads();

    if (wg == 0) {
        setmaxnreg_dec<kPRegs>();
        if constexpr (kTma) {
            /* ---- Producer warpgroup, TMA mode: one thread walks this CTA's
             * tiles (its rank's tile of each pair p = cluster, cluster +
             * clusters, ...) and their k-tiles in one sequence. It never waits
             * for an epilogue: when the consumers release a tile's last
             * stages, it is already waiting to fill them with the next tile's
             * first k-tiles. */
            if (tid == 0) {
                typedef BSlab<kBT> B;
                unsigned it = 0; /* the ring position: never reset between tiles */
                for (unsigned u = cluster; u < units; u += clusters) {
                    const unsigned z = u / pairs;
                    unsigned bm, bn;
                    pair_origin<kC>(u - z * pairs, rank, tiles_m, tiles_n, &bm, &bn);
                    /* B's pieces inside n: the same count in both CTAs (same bn). */
                    const int pieces = n - bn >= (unsigned)kBN
                                           ? B::kPieces
                                           : (int)((n - bn + B::kPieceCols - 1) / B::kPieceCols);
                    const int za = prm.a_batched ? (int)z : 0, zb = prm.b_batched ? (int)z : 0;
                    unsigned kt0, kt1;
                    ktile_range<kF32C>(prm.kt_per, z, ktiles, &kt0, &kt1);
                    for (unsigned kt = kt0; kt < kt1; ++kt, ++it) {
                        const int slab = (int)(it % kStages);
                        /* Use it / kStages of the stage: its previous use is
                         * released by all consumer warps, this CTA's and (in a
                         * cluster) the peer's, into both of which this thread
                         * multicasts (phase it / kStages - 1 of the empty
                         * barrier). The first kStages uses find the stages empty. */
                        if (it >= (unsigned)kStages) mbar_wait(empty0 + 8 * slab, (it / kStages - 1) & 1u);
                        load_stage<kAT, kBT>(map_a, map_b, as0, bs0, full0, slab, kt, bm, bn, pieces, rank, za,
                                             zb);
                    }
                }
            }
            /* The other 127 producer threads, and thread 0 once it has queued
             * the last k-tile of its last tile, are done: the TMA completes the
             * copies on its own. They do not return: in a cluster they meet the
             * final cluster barrier below (.aligned: the whole warp, thread 0
             * included). */
        } else {
            /* ---- Producer warpgroup, gather mode: all 128 threads copy,
             * walking the consumers' tiles (one tile per "pair"). */
            gather_producer<kAT, kBT>(as0, bs0, full0, empty0, prm, cluster, clusters, units, tid);
            /* Every store of this thread is fenced and arrived on: nothing of
             * it is left in flight when it exits, and nothing waits for its
             * exit (no cluster barrier in gather mode). */
        }
    } else {
        /* ---- Consumer warpgroups: rows 64 cw .. 64 cw + 63 of each tile. */
        setmaxnreg_inc<kCRegs>();
        const int cw = wg - 1;
        float d[kAcc];
        unsigned it = 0; /* the same sequence as the producer's (and as the peer's) */
        for (unsigned u = cluster; u < units; u += clusters) {
            const unsigned z = u / pairs;
            unsigned bm, bn;
            pair_origin<kC, !kTma>(u - z * pairs, rank, tiles_m, tiles_n, &bm, &bn);
            /* A fresh tile: zero the accumulators. The epilogue of the previous
             * tile read them after wgmma.wait_group 0 (no wgmma in flight), and
             * acc_fence below orders these writes before the next wgmma. */
#pragma unroll
            for (int i = 0; i < kAcc; ++i) d[i] = 0.0f;

            unsigned kt0, kt1;
            ktile_range<kF32C>(prm.kt_per, z, ktiles, &kt0, &kt1);
            for (unsigned kt = kt0; kt < kt1; ++kt, ++it) {
                const int slab = (int)(it % kStages);
                /* Wait for k-tile it. TMA mode: the TMA has written all its
                 * bytes, the peer's multicast panels included (visible to this
                 * thread and to its wgmma, which read through the async proxy
                 * as the TMA writes: no proxy fence). Gather mode: every
                 * producer thread has stored and fenced its chunks. */
                mbar_wait(full0 + 8 * slab, (it / kStages) & 1u);
                __syncwarp(); /* the wgmma below are .sync.aligned: the warp's lanes converge */
                /* 4 wgmma, then wait until at most this k-tile's group is
                 * running: k-tile it-1's wgmma (and their reads of its stage)
                 * are done in this warp ... */
                wgmma_ktile<kF16, kAT, kBT>(d, as0, bs0, slab, cw);
                /* ... which releases k-tile it-1's stage to both producers
                 * (within this tile: the previous tile's last stage was
                 * released before its epilogue). */
                if (kt > kt0 && lane == 0) release_stage<kC>(empty0, (int)((it - 1) % kStages), peer);
            }
            wgmma_wait<0>(); /* every wgmma done: the accumulators are final ... */
            acc_fence(d);
            /* ... and the tile's last stage is free: released now, before the
             * epilogue, so that the producers refill it with the next tile's
             * k-tiles while this warp stores. (`it` is past the last k-tile.
             * k = 0, gather mode only: no k-tile, nothing to release.) */
            __syncwarp(); /* every lane's wait_group 0 is done before lane 0 speaks for the warp */
            if ((kTma || ktiles > 0) && lane == 0) release_stage<kC>(empty0, (int)((it - 1) % kStages), peer);

            /* The epilogue, while the next tile's first k-tiles land: through
             * shared memory and the TMA (step 3), or from registers as variant
             * 16's. A tile below m (rank 1's tile of the last pair row when
             * tiles_m is odd: its A boxes were zeros) has every row >= m and
             * stores nothing. */
            const unsigned row0 = bm + 64 * cw + 16 * (warp & 3);
            const uint32_t buf = epi0 + (uint32_t)((warp - 4) * kEpiWarpBytes);
            if constexpr (kF32C) {
                store_partial<kAcc>(d, static_cast<float *>(prm.c) + (size_t)z * prm.stride_c, prm.ldc, prm.m, prm.n, row0,
                              bn, lane, prm.alpha, prm.c_vec);
            } else {
                switch (prm.epi) { /* uniform: one instance of the epilogue per kind */
                case 0: epilogue_tile<0, kTma, T>(d, map_c, prm, z, buf, row0, bn, lane); break;
                case 1: epilogue_tile<1, kTma, T>(d, map_c, prm, z, buf, row0, bn, lane); break;
                case 2: epilogue_tile<2, kTma, T>(d, map_c, prm, z, buf, row0, bn, lane); break;
                default: epilogue_tile<3, kTma, T>(d, map_c, prm, z, buf, row0, bn, lane); break;
                }
            }
        }
        /* The TMA stores have written C before the block ends (and read
         * this CTA's shared memory before it is released). */
        if (kTma && prm.c_tma && lane == 0) bulk_wait_all();
    }

    /* ---- The end, in a cluster: neither CTA exits while the other may
     * still write to its shared memory or arrive on its barriers. Every
     * multicast into this CTA belongs to a full-barrier phase that its
     * consumers waited on (both CTAs walk the same k-tiles), so none is in
     * flight once they are here. The last remote arrivals on the peer's
     * empty barriers were issued by this CTA's consumer lanes before their
     * barrier.cluster.arrive.release, which orders them before it: the peer,
     * past its wait.acquire, has them all. Every thread of both CTAs, the
     * producer warpgroup's included, meets here. */
    if constexpr (kC > 1) {
        __syncwarp(); /* the producer warp's thread 0 rejoins its lanes: the barrier is .aligned */
        cluster_sync();
    }
}

/* TMA mode: the tensor maps of A, B and C (host-made, see run). */
template <bool kF16, bool kAT, bool kBT, bool kF32C>
__global__ void __launch_bounds__(kWsThreads, 1)
gemm16_persistent(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                  const __grid_constant__ CUtensorMap map_c, const __grid_constant__ Params prm)
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    pdl_wait(); /* a programmatic dependent launch (sm90.cuh's launch_clusters; common.cuh) */
    persistent_body<true, kF16, kAT, kBT, kF32C>(&map_a, &map_b, &map_c, prm);
#else
    sm90a_stub(prm.m, prm.n); /* not compiled for sm_90a: a stub, never launched (sm90.cuh) */
#endif
}

/* Gather mode: A and B by address and leading dimension, launched without
 * clusters. */
template <bool kF16, bool kAT, bool kBT>
__global__ void __launch_bounds__(kWsThreads, 1) gemm16_persistent_gather(const __grid_constant__ Params prm)
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    persistent_body<false, kF16, kAT, kBT>(nullptr, nullptr, nullptr, prm);
#else
    sm90a_stub(prm.m, prm.n); /* not compiled for sm_90a: a stub, never launched (sm90.cuh) */
#endif
}

/* Gather mode, for rows the TMA cannot address (and k = 0): the persistent
 * kernel whose producer warpgroup copies A and B itself. */
template <bool kF16, bool kAT, bool kBT>
cudaError_t run_gather(int dev, const Params &prm, size_t units, cudaStream_t stream)
{
    auto kernel = gemm16_persistent_gather<kF16, kAT, kBT>;
    cudaError_t err = sm90a_image(kernel);
    if (err != cudaSuccess) return err;
    err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kDynSmemBytes);
    if (err != cudaSuccess) return err;
    size_t grid = 0;
    err = resident_grid(kernel, kWsThreads, kDynSmemBytes, dev, units, &grid);
    if (err != cudaSuccess) return err;
    kernel<<<(unsigned)grid, kWsThreads, kDynSmemBytes, stream>>>(prm);
    return cudaGetLastError();
}

/* One instance (type, layouts): TMA mode where A's and B's rows (and
 * strides) allow it and the driver takes the maps, else gather mode. */
template <bool kF16, bool kAT, bool kBT, bool kF32C>
cudaError_t run(int dev, Params prm, const void *a, const void *b, size_t units, cudaStream_t stream)
{
    const CUtensorMapDataType dtype = kF16 ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16 : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    const size_t m = prm.m, n = prm.n, k = prm.k, batch = prm.batch;
    /* The TMA needs 16-byte-aligned rows, and 16-byte strides between the
     * products of a batched operand. */
    bool tma = k > 0 && tma_addressable(a, prm.lda, 2) && tma_addressable(b, prm.ldb, 2) &&
               (prm.stride_a * 2) % 16 == 0 && (prm.stride_b * 2) % 16 == 0;
    PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
    CUtensorMap map_a, map_b, map_c;
    memset(&map_c, 0, sizeof(map_c)); /* never read without c_tma */
    if (tma) {
        cudaError_t err = get_encode_tiled(&encode);
        if (err != cudaSuccess) return err;
        /* A: m x k stored (op_a = N; boxes of 64 k x 128 rows) or k x m (T;
         * boxes of 64 m x 64 k). B: k x n (N; 64 n x 64 k) or n x k (T; 64 k
         * x 128 n). A refused map (the driver's own limits) falls back to
         * gather mode. */
        tma = map_batched(encode, &map_a, dtype, 2, a, kAT ? k : m, kAT ? m : k, prm.lda, prm.a_batched, batch, prm.stride_a,
                     64, kAT ? 64 : kBM) == cudaSuccess &&
              map_batched(encode, &map_b, dtype, 2, b, kBT ? n : k, kBT ? k : n, prm.ldb, prm.b_batched, batch, prm.stride_b,
                     64, kBT ? 128 : kBK) == cudaSuccess;
    }
    if (!tma) {
        if constexpr (kF32C) return cudaErrorNotSupported; /* fp32 partials: TMA mode only (gemm.c then runs unsplit) */
        prm.c_tma = false;
        prm.a = static_cast<const unsigned short *>(a);
        prm.b = static_cast<const unsigned short *>(b);
        return run_gather<kF16, kAT, kBT>(dev, prm, units, stream);
    }
    /* C through the TMA store when beta = 0 (C is not read) and its rows
     * (and the products' strides) are TMA-addressable: boxes of 64 columns x
     * 16 rows (a warp's rows); otherwise the epilogue stores from registers. */
    prm.c_tma = !kF32C && prm.beta == 0.0f && tma_addressable(prm.c, prm.ldc, 2) && (prm.stride_c * 2) % 16 == 0 &&
                map_batched(encode, &map_c, dtype, 2, prm.c, m, n, prm.ldc, batch > 1, batch, prm.stride_c, kEpiBoxCols,
                       kEpiRows) == cudaSuccess;

    auto kernel = gemm16_persistent<kF16, kAT, kBT, kF32C>;
    cudaError_t err = sm90a_image(kernel);
    if (err != cudaSuccess) return err;
    err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kDynSmemBytes);
    if (err != cudaSuccess) return err;
    const size_t tiles_m = prm.tiles_m, tiles_n = prm.tiles_n;
    if constexpr (kCluster == 1) {
        /* Persistent: as many CTAs as can be resident at once, never more
         * than there are tiles. */
        size_t grid = 0;
        err = resident_grid(kernel, kWsThreads, kDynSmemBytes, dev, tiles_m * tiles_n * batch, &grid);
        if (err != cudaSuccess) return err;
        kernel<<<(unsigned)grid, kWsThreads, kDynSmemBytes, stream>>>(map_a, map_b, map_c, prm);
        return cudaGetLastError();
    } else {
        /* Persistent clusters of kCluster CTAs (sm90.cuh's launch_clusters),
         * one per unit (a pair of tiles of one product) at most. */
        const size_t pair_units = (tiles_m + kCluster - 1) / kCluster * tiles_n * batch;
        return launch_clusters<kCluster>(kernel, kWsThreads, kDynSmemBytes, pair_units, stream, map_a, map_b, map_c,
                                         prm);
    }
}

} // namespace

/* The workspace gk_gemm_ex asks for (gemm/variants.h): the padded copies
 * of A and B where their rows are not whole 16-byte units (common.cuh,
 * padded_pair16), (size_t)-1 at 2^62 bytes or more; 0 otherwise. */
extern "C" size_t gk_gemm_bf16_05_persistent_scratch(int op_a, int op_b, size_t m, size_t n, size_t k, size_t batch,
                                                     size_t stride_a, size_t stride_b, size_t lda, size_t ldb)
{
    return padded_pair16(op_a, op_b, m, n, k, batch, stride_a, stride_b, lda, ldb).bytes;
}

/* gk_gemm_ex's entry point (gemm/variants.h: gk_gemm_ex_run_fn): type 1
 * bf16, 2 f16; op_a, op_b 0 as stored, 1 transposed; strides read when
 * batch > 1; epilogue 0-3 with bias; a workspace of the size
 * gk_gemm_bf16_05_persistent_scratch gives, or NULL. */
extern "C" cudaError_t gk_gemm_bf16_05_persistent_run_ex(int type, int op_a, int op_b, size_t m, size_t n, size_t k,
                                                        float alpha, const void *a, size_t lda, size_t stride_a,
                                                        const void *b, size_t ldb, size_t stride_b, float beta,
                                                        void *c, size_t ldc, size_t stride_c, size_t batch,
                                                        int epilogue, const void *bias, void *workspace, cudaStream_t stream)
{
    if (type != 1 && type != 2) return cudaErrorNotSupported; /* 16-bit types only */
    /* wgmma is specific to compute capability 9.0 (sm_90a code runs there only). */
    int dev = 0;
    cudaError_t err = require_cc(9, 0, &dev);
    if (err != cudaSuccess) return err;

    const size_t tiles_m = (m + kBM - 1) / kBM, tiles_n = (n + kBN - 1) / kBN;
    /* Every unit of work (a tile, or a pair of tiles in a cluster, of one
     * product) is numbered in an unsigned int. */
    if (batch > 0x7fffffffu || tiles_m * tiles_n > 0x7fffffffu || tiles_m * tiles_n * batch > 0x7fffffffu)
        return cudaErrorInvalidConfiguration;
    if (workspace != nullptr) {
        /* Rows the TMA cannot address (lda, ldb or a batch's stride not
         * whole 16-byte units) are first copied with padded rows into the
         * workspace that gk_gemm_bf16_05_persistent_scratch sized
         * (common.cuh, pad_pair16). Without a workspace (gk_gemm_bf16),
         * they take gather mode. */
        const PaddedPair pp = padded_pair16(op_a, op_b, m, n, k, batch, stride_a, stride_b, lda, ldb);
        err = pad_pair16(pp, op_a, op_b, m, n, k, workspace, &a, &lda, &stride_a, &b, &ldb, &stride_b, stream);
        if (err != cudaSuccess) return err;
    }
    const bool batched = batch > 1;
    Params prm;
    memset(&prm, 0, sizeof(prm));
    prm.lda = lda;
    prm.ldb = ldb;
    prm.ldc = ldc;
    prm.stride_a = batched ? stride_a : 0;
    prm.stride_b = batched ? stride_b : 0;
    prm.stride_c = batched ? stride_c : 0;
    prm.a_batched = batched && stride_a != 0;
    prm.b_batched = batched && stride_b != 0;
    prm.c = c;
    prm.bias = bias;
    prm.m = (unsigned)m;
    prm.n = (unsigned)n;
    prm.k = (unsigned)k;
    prm.tiles_m = (unsigned)tiles_m;
    prm.tiles_n = (unsigned)tiles_n;
    prm.batch = (unsigned)batch;
    prm.alpha = alpha;
    prm.beta = beta;
    prm.epi = epilogue;
    /* Pairs of C (and of the bias) as 4-byte stores (loads) where every
     * product's rows allow it. */
    prm.c_vec = ((uintptr_t)c & 3u) == 0 && ldc % 2 == 0 && prm.stride_c % 2 == 0;
    prm.bias_vec = ((uintptr_t)bias & 3u) == 0;
    const size_t units = tiles_m * tiles_n * batch;
    const int layout = 2 * (op_a != 0) + (op_b != 0);
    if (type == 2) {
        switch (layout) {
        case 0: return run<true, false, false, false>(dev, prm, a, b, units, stream);
        case 1: return run<true, false, true, false>(dev, prm, a, b, units, stream);
        case 2: return run<true, true, false, false>(dev, prm, a, b, units, stream);
        default: return run<true, true, true, false>(dev, prm, a, b, units, stream);
        }
    }
    switch (layout) {
    case 0: return run<false, false, false, false>(dev, prm, a, b, units, stream);
    case 1: return run<false, false, true, false>(dev, prm, a, b, units, stream);
    case 2: return run<false, true, false, false>(dev, prm, a, b, units, stream);
    default: return run<false, true, true, false>(dev, prm, a, b, units, stream);
    }
}

/* Split-K's first step (gemm.c, GK_GEMM_AUTO): the fp32 partials of one
 * 16-bit product (type 1 bf16, 2 f16), alpha = 1, into `splits` dense m x n
 * slabs at `partials` (slab z = the k-tiles z kc / 64 .. of the product, kc
 * a multiple of 64, every slice non-empty: splits = ceil(k / kc)), in one
 * launch: the units are the tiles of each slice, as if the slices were a
 * batch, but A and B are addressed whole, so the last slice may be shorter
 * (the TMA zero-fills past k). TMA mode only: cudaErrorNotSupported, with
 * nothing launched, where the rows of A or B are not TMA-addressable. */
extern "C" cudaError_t gk_gemm_bf16_05_persistent_run_split(int type, int op_a, int op_b, size_t m, size_t n,
                                                           size_t k, size_t kc, size_t splits, const void *a,
                                                           size_t lda, const void *b, size_t ldb, float *partials,
                                                           cudaStream_t stream)
{
    if ((type != 1 && type != 2) || kc % kBK != 0 || kc == 0 || splits < 1 || (splits - 1) * kc >= k ||
        splits * kc < k)
        return cudaErrorNotSupported;
    int dev = 0;
    cudaError_t err = require_cc(9, 0, &dev);
    if (err != cudaSuccess) return err;
    const size_t tiles_m = (m + kBM - 1) / kBM, tiles_n = (n + kBN - 1) / kBN;
    if (splits > 0x7fffffffu || tiles_m * tiles_n > 0x7fffffffu || tiles_m * tiles_n * splits > 0x7fffffffu ||
        k > 0xffffffffu)
        return cudaErrorInvalidConfiguration;
    Params prm;
    memset(&prm, 0, sizeof(prm));
    prm.lda = lda;
    prm.ldb = ldb;
    prm.ldc = n;
    prm.stride_c = m * n; /* slab z */
    prm.c = partials;
    prm.m = (unsigned)m;
    prm.n = (unsigned)n;
    prm.k = (unsigned)k;
    prm.tiles_m = (unsigned)tiles_m;
    prm.tiles_n = (unsigned)tiles_n;
    prm.batch = (unsigned)splits;
    prm.alpha = 1.0f;
    prm.kt_per = (unsigned)(kc / kBK);
    prm.c_vec = ((uintptr_t)partials & 7u) == 0 && n % 2 == 0;
    const size_t units = tiles_m * tiles_n * splits;
    switch (4 * (type == 2) + 2 * (op_a != 0) + (op_b != 0)) {
    case 0: return run<false, false, false, true>(dev, prm, a, b, units, stream);
    case 1: return run<false, false, true, true>(dev, prm, a, b, units, stream);
    case 2: return run<false, true, false, true>(dev, prm, a, b, units, stream);
    case 3: return run<false, true, true, true>(dev, prm, a, b, units, stream);
    case 4: return run<true, false, false, true>(dev, prm, a, b, units, stream);
    case 5: return run<true, false, true, true>(dev, prm, a, b, units, stream);
    case 6: return run<true, true, false, true>(dev, prm, a, b, units, stream);
    default: return run<true, true, true, true>(dev, prm, a, b, units, stream);
    }
}

/* gk_gemm_bf16's entry point: bf16, as stored, one product, no epilogue. */
extern "C" cudaError_t gk_gemm_bf16_05_persistent_run(size_t m, size_t n, size_t k, float alpha, const void *a,
                                                     size_t lda, const void *b, size_t ldb, float beta, void *c,
                                                     size_t ldc, cudaStream_t stream)
{
    return gk_gemm_bf16_05_persistent_run_ex(1, 0, 0, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1, 0,
                                            nullptr, nullptr, stream);
}
