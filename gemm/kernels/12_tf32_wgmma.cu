/* Variant 12: TF32 on Hopper's wgmma. The persistent, warp-specialized
 * design of bf16_05 (a TMA producer warpgroup, two wgmma consumer
 * warpgroups, a ring of 4 stages that runs on across tiles), fed fp32
 * matrices and multiplying in TF32; for products with few tiles, the same
 * kernel on tiles of 128 or 64 rows ("Narrow tiles" below).
 *
 * The idea: variant 11 multiplies in TF32 with the warp-level
 *     mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32    (1024 multiply-adds)
 * and every operand of every mma passes through registers: per warp and
 * 8-deep k-step it loads both fragments from shared memory (16 LDS.64 for
 * 32 mma of its 64 x 64 tile) and converts each element. Here one warpgroup
 * (128 threads) issues
 *     wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32   (131,072 multiply-adds)
 * per k8-step: 128 times the work of one mma, with the large operand (256 x 8)
 * read by the tensor cores straight from shared memory through a matrix
 * descriptor, and only the small one (64 x 8) passed in registers.
 *
 * ---- Why the roles are swapped: the K-major rule ------------------------------------
 * For .tf32 the PTX ISA allows no transpose: a wgmma operand read from
 * shared memory through a descriptor must be K-major (its k index
 * contiguous). Our A (m x k, row-major) is K-major; our B (k x n, row-major)
 * is N-major, so it cannot be a descriptor operand. Only wgmma's A operand
 * may come from registers, and a register fragment can be gathered from any
 * layout. So the tensor cores compute the transpose, as variant 11 does:
 *     C^T = B^T * A^T:  wgmma A (M' = 64, from REGISTERS) = B^T  (rows n, columns k)
 *                       wgmma B (N' = 256, from SHARED)   = A^T  (K-major: our A tile as the TMA loads it)
 *                       accumulator D (64 x 256)          = a C^T tile
 *
 * ---- Tiles and shared memory ---------------------------------------------------------
 * CTA tile 256 rows of C (m: the wgmma's N' = 256) x 128 columns (n: two
 * consumer warpgroups x M' = 64) x 32 deep (k: one 128-byte row of fp32,
 * the 128-byte swizzle's width). 384 threads: warpgroup 0 produces,
 * warpgroups 1 and 2 consume (setmaxnreg 40 / 232; 56 / 224 on the cp.async path).
 * Per stage: A slab 256 x 32 fp32 = 32 KB (one TMA box, 128-byte swizzle,
 * read by both consumer warpgroups through descriptors: the whole slab is
 * each one's N' = 256), B slab 32 x 128 fp32 = 16 KB as 4 panels of 32
 * columns ([n/32][k][n%32]: 32 k-rows of 128 bytes, 4 KB, one TMA box
 * each, with the same 128-byte swizzle as A: chunk (n % 32) / 4 of k-row kk
 * stored at chunk ((n % 32) / 4) ^ (kk % 8)). 4 stages = 192 KB, + 32 KB
 * for the epilogue's TMA store ("The store") + 1024 bytes of alignment
 * slack + 8 mbarriers (64 bytes) = 230,464 bytes: 1 CTA per SM.
 *
 * ---- The register fragment (PTX ISA "wgmma-64N8-A"; mma.m16n8k8's A, per warp) -------
 * Warp w (0..3) of a consumer warpgroup holds rows 16w .. 16w+15 of the
 * 64-row M' slice; lane l = 4g + t. For k8-step s:
 *     a0 = A'(16w+g, t)   a1 = A'(16w+g+8, t)   a2 = A'(16w+g, t+4)   a3 = A'(16w+g+8, t+4)
 * with A'(i, kk) = B(k0 + 8s + kk, bn + 64 cw + frag_col(i)) (cw: consumer
 * 0 or 1). Which column of B a row i of A' holds is ours to choose, as
 * long as the epilogue stores row i's results in that column; the natural
 * choice (column i) conflicts in the swizzled panels: the 8 lanes of one t
 * read 8 consecutive floats, chunks c and c + 1 of k-row t, stored at
 * chunks c ^ t and (c + 1) ^ t, and t = 0 and t = 1 (also 2 and 3) land on
 * the same two chunks: 2-way conflicts. So row i = 16w + 8h + g takes
 * column frag_col(i) = 32 (i / 32) + 16 ((i / 4) % 2) + 8 ((i / 16) % 2)
 * + 4 ((i / 8) % 2) + i % 4 (a bit permutation): warp w's 16 rows stay in
 * panel 2 cw + w / 2, and the lanes of one t read chunks c and c + 4
 * (c = 2 (w % 2) + h), stored at c ^ t and (c + 4) ^ t: over t = 0 .. 3
 * (and t + 4 for a2, a3) eight distinct chunks, 32 distinct banks. Each of
 * the 16 LDS.32 per thread and k-tile is one conflict-free wavefront
 * (static_asserts recount every warp, register and lane); k8-step s adds
 * 8 k-rows = 1024 bytes, where the swizzle repeats. The values are already
 * TF32 (see "Precision"). The accumulator fragment:
 * d[4j + 2h + e] = D(16w + g + 8h, 8j + 2t + e) = C(bm + 8j + 2t + e,
 * bn + 64 cw + frag_col(16w + g + 8h)). (Layouts as figures in the PTX
 * ISA; checked against the thread/value layouts ALayout_64x8 and
 * CLayout_64xN of CUTLASS's cute/atom/mma_traits_sm90_gmma.hpp.)
 *
 * ---- Fragment hazards: two register sets --------------------------------------------
 * wgmma reads its register operands asynchronously: a fragment register
 * must not be rewritten before the wgmma.wait_group that retires the wgmma
 * reading it. The consumers keep one k-tile of wgmma in flight
 * (wait_group 1), so the k-tile loop is unrolled by 2 with two fragment sets
 * (k-tile parity): k-tile kt of a tile loads set kt % 2 while k-tile
 * kt-1's wgmma still read set (kt-1) % 2. After each wait_group an empty asm with "+r"
 * on the retired set keeps those registers live up to that point, so that
 * the compiler cannot hand them to the next loads early. The odd last
 * k-tile of a tile is a separate step after the loop. Written as a
 * conditional second half inside the loop body instead, it gives ptxas
 * (which checks every control-flow path, feasible or not) a path running
 * two set-0 k-tiles back to back: it warns "wgmma.mma_async instructions
 * are serialized due to non wgmma instructions defining input registers of
 * a wgmma between start and end of the pipeline stage" (C7513) and puts a
 * wait after every wgmma. As written, ptxas gives no such warning for
 * either kernel (CUDA 13.0), and the SASS per k-tile is 4 HGMMA after one
 * WARPGROUP.ARRIVE, then WARPGROUP.DEPBAR.LE gsb0, 0x1, with the three
 * steps' fragments in distinct registers.
 *
 * ---- Shared-memory traffic per k-tile (one CTA, 1,048,576 multiply-adds) ------------
 *   TMA writes        32 KB (A) + 16 KB (B)                      = 48 KB
 *   wgmma reads A     2 warpgroups x 4 k8-steps x 8 KB            = 64 KB
 *   fragment loads    2 warpgroups x 128 threads x 16 x 4 B       = 16 KB
 *   total 128 KB = 1024 wavefronts of 128 B, 1/8 byte per multiply-add.
 * Variant 11, per k-tile of its 128 x 256 x 32 block (the same 1,048,576
 * multiply-adds): 48 KB of cp.async writes and 1024 wavefronts (128 KB) of
 * fragment loads: 176 KB. Instructions per consumer thread and k-tile: 4
 * HGMMA and 16 LDS, no conversion (the TMA rounds); variant 11's lane issues
 * 128 HMMA, 64 LDS.64 and 256 conversion instructions per k-tile (its
 * header).
 *
 * ---- The persistent ring: bf16_05's --------------------------------------------------
 * Each CTA walks tiles blockIdx.x, + gridDim.x, ... in the grouped order
 * (GK12_GROUP_M = 8 tile rows of 256, column by column inside a group);
 * grid = min(tiles, SMs x resident CTAs per SM). k-tile number `it` of the
 * CTA (never reset between tiles) lives in stage it % 4; consumers wait on
 * full parity (it / 4) & 1, the producer on empty parity (it / 4 - 1) & 1
 * for it >= 4; every consumer warp releases every k-tile once, a tile's
 * last right after wait_group 0, before the epilogue, so the next tile's
 * first k-tiles load while it stores (the invariant, and bf16_05's CPU
 * simulation of it, are written out above gemm_tf32_persistent). The
 * epilogue stores from registers: per (j, e, h) a warp's store instruction
 * writes 4 rows (t) x two runs of 4 consecutive floats 16 columns apart
 * (frag_col): 8 sectors of 32 bytes, each half used (before the
 * permutation, one run of 8 floats: 4 full sectors); 128 such stores per
 * thread and tile, alpha * d, + beta * C only when beta != 0 (beta = 0
 * never reads C), each bounds-checked against m and n.
 * Edges: the TMA zero-fills what leaves the matrix (A rows >= m, A columns
 * and B rows >= k, B columns >= n inside a loaded panel) and counts the
 * full box bytes; B panels wholly at or right of column n are not loaded:
 * their stale contents reach only accumulator rows of columns >= n (a
 * panel's columns map to A' rows through frag_col and nowhere else), which
 * are never stored.
 *
 * ---- Registers (ptxas -v, CUDA 13.0, sm_90a) ------------------------------------------
 * gemm_tf32_persistent<kBM, true>  (TMA):      168 registers at launch (the cap
 *                                              of __launch_bounds__(384, 1)), 4 barriers
 *                                              (the two warpgroups' of the TMA store;
 *                                              1 where kTC, which stores from registers)
 * gemm_tf32_persistent<kBM, false> (cp.async): 168 registers at launch, 2 barriers
 *                                              (the consumers' named barrier)
 * (every height: the figures below are for kBM = 256, the most registers)
 * gemm_tf32_scale_c (k = 0):              16 registers
 * All: 0 bytes of stack, no spills, no "wgmma serialized" warning. The
 * consumers hold 128 accumulators, 3 x 16 fragment registers (the loop's
 * two sets and the odd tail's: in the SASS, cuobjdump, 12 HGMMA and 48
 * LDS in the TMA kernel, 3 k-tile bodies), 4 fragment addresses. Splits:
 * TMA path 40 / 232 (128 x 40 + 256 x 232 = 64,512 = 384 x 168, the CTA's
 * registers at launch: setmaxnreg only moves registers within the CTA);
 * cp.async path 56 / 224 (64,512 too): with 32-column panels its producer
 * threads keep two column offsets and two 64-bit row offsets for B, and
 * at 40 ptxas spills 56 bytes. Two producer warpgroups (512 threads) are
 * not an option for the cp.async path: ptxas cannot compile the m64n256k8
 * wgmma under the 128-register launch cap of 512 threads ("Insufficient
 * registers (128) ... 158 or higher").
 *
 * ---- Precision ------------------------------------------------------------------------
 * The tensor core reads only the top 19 bits of each fp32 it is given
 * (TF32: sign, 8 exponent, 10 mantissa bits): handed raw fp32, it would
 * truncate, a one-sided error of up to 2^-10 of each operand whose sum over
 * k grows like k when the products share a sign. So both operands are
 * rounded to nearest first. TMA path: both tensor maps have the element type
 * CU_TENSOR_MAP_DATA_TYPE_TFLOAT32, and the TMA rounds each
 * fp32 to TF32 on its way to shared memory, to nearest even. Measured on
 * the H200 (CUDA 13.0, driver 580, 2026-11-23) by a probe that loaded fp32
 * patterns 1 + x 2^-23 through both element types: FLOAT32 leaves the bits
 * as they are; TFLOAT32 gives 0x3f800fff -> 0x3f800000, 0x3f801000 (a tie)
 * -> 0x3f800000, 0x3f801001 -> 0x3f802000, 0x3f803000 (a tie) -> 0x3f804000.
 * (cuBLAS's TF32 GEMM rounds the same way, the probe found at 256^3.)
 * cp.async path: the copies move fp32 bits unchanged; each B fragment value
 * is rounded after its load (cvt.rna.tf32.f32: to nearest, ties away from
 * zero) and A's slab in place before its first wgmma (round_a_slab). Each
 * operand is then within 2^-11 of its value, as in variant 11, and
 * gemm_ref.h's TF32 tolerance (u_p = 2 * 2^-11) holds for both paths.
 *
 * ---- Padded copies: rows the TMA cannot address, through gk_gemm_ex -----------------
 * The TMA needs base addresses 16-byte aligned and row strides (4 lda,
 * 4 ldb bytes) multiples of 16 (and < 2^40). Given gk_gemm_ex's workspace,
 * an operand whose stride is not (4097 x 3001 x 2049 with lda = 2049, ldb
 * = 3001) is first copied as stored with rows padded to a multiple of 4
 * floats (common.cuh: padded_copy, pad_rows; A's transposed copy, when
 * there is one, is padded already), and the TMA path reads the copy: that
 * shape takes 0.3543 ms against this rung's cp.async path's 0.5324 (the
 * run before, tiles-h100/tiles_tf32.json), variant 11's 0.4957 and cuBLAS
 * TF32's 0.4235 (1.20x; H100, CUDA 13.0, gk_bench medians, cold L2,
 * 2026-11-26, gemm/tuning/tiles-h100/padded_tf32.json).
 *
 * ---- The cp.async path: rows the TMA cannot address, without a workspace -------------
 * Without a workspace (gk_gemm), and for a pointer offset by one float
 * with aligned strides, the SAME
 * persistent kernel runs with kTma = false: its 128 producer threads copy
 * each stage with 4-byte cp.async.ca (src-size 0: zero fill outside the
 * matrix) into exactly the layouts the TMA writes. Per thread and k-tile:
 * 64 copies of A (thread p takes k = p % 32 of rows p / 32 + 4i: a warp
 * reads one 128-byte row and writes 32 distinct banks of the swizzled row)
 * and 32 of B (thread p takes B-slab floats p + 128i in shared-memory order:
 * panel i / 8, k-row p / 32 + 4 (i % 8), the 32 columns of the panel in
 * swizzled order, so a warp reads one 128-byte row segment of B and writes
 * 32 consecutive words). A producer
 * thread never waits for its own copies: after a stage's copies it issues
 * cp.async.mbarrier.arrive.noinc on the stage's full barrier, which counts
 * the arrival when the thread's copies have landed (128 arrivals complete
 * the phase), and goes on to the next stage as soon as it is free: up to 4
 * stages of copies in flight per thread. (Waiting for its copies of k-tile
 * it-2 with cp.async.wait_group before arriving instead makes each
 * producer step wait for the consumers' answer to the previous one: the
 * odd shape took 0.90 ms that way against 0.46 with the arrivals, both
 * measured with the 8-column layout of "Why 32-column panels".) Then the
 * consumers: after the
 * full barrier, the 256 consumer threads round the A slab in place (8
 * LDS.128, 32 conversions and 8 STS.128 each), fence their writes to the
 * async proxy (fence.proxy.async: st.shared and cp.async are generic-proxy
 * writes, wgmma reads through the async proxy) and meet at a named barrier
 * (bar.sync 1, 256) before the wgmma; the fragment loads round B. Releases:
 * every consumer thread arrives on the empty barrier (256 arrivals, not 8):
 * each thread's own ld.shared of the stage is then ordered before the
 * producer's next copies into it by its own release, which
 * compute-sanitizer's racecheck follows (with one arrival per warp after
 * __syncwarp it reported the copies racing with the other lanes' loads).
 * Setmaxnreg 56 / 224 (see "Registers"); no spill.

 * ---- k = 0 -------------------------------------------------------------------------------
 * With no k-tile the ring would never turn (ktiles = 0), so the persistent
 * kernel is not launched: gemm_tf32_scale_c sets C = beta * C (C = 0
 * without reading it when beta = 0), grid-stride, size_t indexing, any m,
 * n, ldc.
 *
 * ---- Why 32-column panels: the L2's requests ------------------------------------------
 * The simpler layout of B, [n/8][k][n%8] (16 TMA boxes of 8 columns x 32
 * k-rows per stage, unswizzled), has conflict-free fragment loads with
 * column i in row i. But each box row is 32 bytes, so the TMA asks the L2
 * for B in 32-byte pieces. Counted per CTA and k-tile:
 * A's box 256 rows of 128 bytes, B's 16 x 32 rows of 32 bytes: 768 row
 * requests, 512 of them B's for a third of the bytes; with 4 panels of
 * 128-byte rows B takes 128, and the k-tile 384. Nsight Compute (ncu
 * --clock-control none, H200, CUDA 13.0, 2026-11-23, 4096^3, one launch
 * each) with the 8-column layout: 484.5 us, L2 throughput 72% of its peak
 * against cuBLAS TF32's 54% (343.2 us, the same bytes: its kernel,
 * sm90_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x256x32_warpgroupsize2x1x1,
 * has this file's tile shape), and SM throughput 60% against 88%. With the
 * panels: 343.1 us, against cuBLAS's 342.2 us in the same run;
 * 19.5 million L2 read requests (80.7 million sectors) against cuBLAS's
 * 17.1 million (68.9 million). In the bench (H200, CUDA 13.0, cold L2,
 * medians; two runs of 2026-11-23, 17:54 UTC with 8 columns, 18:32 UTC
 * with panels): 0.4895 -> 0.3529 ms at 4096^3 and 3.9977 -> 3.0454 ms at
 * 8192^3, 0.761x -> 0.969x and 0.750x -> 0.975x cuBLAS TF32. The row permutation (frag_col) is what
 * lets 128-byte swizzled panels keep the conflict-free fragment loads.
 * (One 3D TMA box per stage in the 8-column layout, which cuts the
 * instructions but not the 32-byte rows, measured no gain: 0.4855 against
 * 0.4884 ms at 4096^3.) The cp.async path copies the same layout; on the
 * odd shape it took 0.4645 ms with 8 columns (register split 40 / 232) and
 * 0.4862 with the panels (56 / 224, another copy order) in those two runs
 * (0.915x -> 0.869x); which of the two changes costs the 5% is not known.
 *
 * ---- gk_gemm_ex: layouts, batches, the epilogue -----------------------------------------
 * The K-major rule decides what a transposed operand costs.
 * - op_b = T (B stored n x k, y = x W^T): B is K-major as stored, so its
 *   slab is loaded like A's, one TMA box of 32 k x 128 rows of n (16 KB,
 *   128-byte swizzle, bt_offset = a_offset), and the register fragments
 *   are read from it: lane (g, t) of warp w reads row 16w + g (+ 8) of
 *   its warpgroup's 64, word t of chunk 2s (+ 1 for a2, a3), stored at
 *   chunk (2s) ^ g. The 8 g's are 8 rows with 8 different swizzles: 32
 *   banks without frag_col's permutation (frag_loads_conflict_free_t
 *   recounts it), so row i of the wgmma's A is column i of the tile
 *   (col_of), and the epilogue's 8 lanes of one t store 8 consecutive
 *   floats. The cp.async path copies B as it copies A (copy_kmajor).
 * - op_a = op_b = T: C^T = B_stored A_stored, the default layout's product
 *   with the operands' roles swapped: B stored n x k is K-major, the
 *   shared-memory operand (this kernel's A, n rows), and A stored k x m is
 *   MN-major, read into register fragments as B is in the default layout.
 *   The launcher swaps A and B, m and n; the kernel computes a tile of
 *   C^T and stores it transposed (kTC, store_tile_t: a lane's two
 *   accumulators of rows 2t, 2t + 1 become one 8-byte store into a row of
 *   C). Nothing is copied.
 * - op_a = T, op_b = N (A stored k x m, B k x n): both operands are
 *   MN-major, and one of them must be the shared-memory operand, which
 *   TF32 reads K-major only. A TMA box keeps the layout it finds, so the
 *   launcher first copies A transposed into the workspace (transpose_f32
 *   in common.cuh: m x k, rows padded to 16 bytes, one copy per product
 *   that has its own A), and the kernel reads the copy: one more read and
 *   write of A, 8 m k bytes, before the product.
 * - Batches: the persistent walk numbers the tiles of all products, t =
 *   z x (tiles of a product) + tile (tile_of), so a CTA goes on from one
 *   product's last tiles to the next one's first. The tensor maps are 3D
 *   (columns, rows, products; sm90.cuh's map_batched), a box's third
 *   coordinate is its product, and an operand of stride 0 has a map of
 *   one product read at coordinate 0. The cp.async path offsets A and B by
 *   z times their strides, and the epilogue C.
 * - The epilogue (bias, bias + ReLU, bias + GELU: common.cuh's
 *   epilogue_apply) is applied in store_tile before the one store: a
 *   thread stores two columns of every row of its tile, so it loads their
 *   two biases once per tile; the switch on the kind is made once per
 *   tile, into one instance of store_tile per kind. k = 0 is
 *   gemm_tf32_scale_c's epilogue(beta C + bias) over every product.
 *
 * ---- Narrow tiles: products with few tiles -----------------------------------------------
 * The 256 x 128 tile suits large products, where every CTA walks many
 * tiles. At 1024^3 there are 32 of them for 132 SMs, so three quarters of
 * the GPU idles: 26.30 us against cuBLAS TF32's 16.51 (0.63x). So the
 * kernel is a template on the tile's height kBM, the wgmma's N' (Geo):
 *   kBM   wgmma       accumulators  A slab  stages  multiply-adds per byte loaded
 *   256   m64n256k8   128           32 KB   4       21.3 (1,048,576 per 48 KB)
 *   128   m64n128k8    64           16 KB   6       16   (524,288 per 32 KB)
 *    64   m64n64k8     32            8 KB   8       10.7 (262,144 per 24 KB)
 * Everything else is the same: 128 columns (two consumer warpgroups of
 * M' = 64), B's panels and fragments, 192 KB of stages (1 CTA per SM),
 * the epilogue (kBM / 64 passes). Each element of C still sums its
 * k8-steps in the same order, so the three heights give the same bits.
 * The launcher picks the height per call (pick_bm) from the tile counts
 * and the SM count: the lowest rounds x kBM x w, with rounds =
 * ceil(tiles / SMs) the rounds of the persistent walk and w = 8, 9 and 16
 * eighths the relative time of a row of C at each height, which the
 * 4096^3 run below measures where every height runs many rounds (399.49 /
 * 338.43 = 1.18 at 128 rows, 678.75 / 338.43 = 2.01 at 64). So a product
 * that one round of 64-row tiles covers takes them, and two rounds of
 * narrow tiles lose to one of wide ones. Measured (gemm/tuning/
 * tf32_heights.cu, each height forced; tiles-h100/tf32_heights.txt: H100,
 * CUDA 13.0, cold L2, medians of 40, C = A B, us, cuBLAS TF32's time over
 * ours in parentheses; C stored through the TMA, below):
 *   shape              cuBLAS   kBM = 256       128             64
 *   256^3               7.14    11.81 (0.60)     8.96 (0.80)     7.81 (0.91)
 *   512^3               9.66    16.42 (0.59)    11.94 (0.81)    10.46 (0.92)
 *   768^3              12.58    21.41 (0.59)    14.82 (0.85)    13.15 (0.96)
 *   1024^3             16.51    26.30 (0.63)    18.05 (0.91)    16.22 (1.02)
 *   1536^3             38.94    36.26 (1.07)    42.59 (0.91)    53.63 (0.73)
 *   2048^3             50.05    48.13 (1.04)    55.30 (0.91)    90.62 (0.55)
 *   4096^3            341.95   338.43 (1.01)   399.49 (0.86)   678.75 (0.50)
 *   256 x 4096 x 1024  21.44    27.42 (0.78)    19.81 (1.08)    17.89 (1.20)
 *   3000 x 700 x 1500  47.10    47.71 (0.99)    64.13 (0.73)    77.92 (0.60)
 * pick_bm takes 64 rows for the first four and 256 x 4096 x 1024 (one
 * round: 128 tiles at 1024^3), 256 from 1536^3 on (72 tiles; two rounds
 * of 128-row tiles cost 2304 against 2048) and for 3000 x 700 x 1500.
 * GK_GEMM_AUTO gives this rung TF32 products from a few million
 * multiply-adds on (gk/gemm.h: GK_GEMM_TF32_WGMMA_*), where variant 21's
 * 64 x 64 mma.sync tiles took it before.
 *
 * ---- The store: through shared memory and the TMA -----------------------------------------
 * Where beta = 0 and C's rows are whole 16-byte units, the consumers stage
 * C in shared memory and the TMA stores it (store_tile_tma: 32 KB beside
 * the stages, 16 KB per consumer warpgroup, passes of 64 rows, two boxes of
 * 64 rows x 32 columns in the 128-byte swizzle, each warpgroup's thread 0
 * issuing them while the warpgroup goes on); elsewhere (beta != 0, other
 * rows, both operands transposed) each thread stores from registers
 * (store_tile, store_tile_t). From registers, with B as stored, a warp's
 * store writes 4 rows x two runs of 4 floats 16 columns apart (frag_col):
 * 8 half-used 32-byte sectors, 128 such stores per thread and 256-row
 * tile, and the CTA's stores of its last tile add to the kernel's time.
 * Measured in one run (tiles-h100/tf32_heights_regstore.txt before,
 * tf32_heights.txt after; H100, us): 2048^3 57.79 -> 48.13 (0.87x ->
 * 1.04x cuBLAS TF32), 4096^3 356.19 -> 338.43 (0.96x -> 1.01x), 1536^3
 * 46.98 -> 36.26 on 256-row tiles, 1024^3 16.51 -> 16.22 on 64-row tiles,
 * 256^3 on 256-row tiles 25.34 -> 11.81. (With 4 stages of 48 KB the
 * 32 KB fit beside them: 196,608 + 32,768 + 1,024 bytes of alignment
 * slack + the barriers = 230,464 bytes of the 232,448 a block may have.)
 *
 * ---- What is left out -------------------------------------------------------------------
 * - Cluster multicast of A (variant 17 multicasts B across 2-CTA
 *   clusters and measured no gain at 4096^3, 1.1% at 8192^3), a ping-pong
 *   schedule: not done. (Before the TMA store, a build that stored
 *   nothing, timed by ncu at 4096^3, took 322.9 us against 345-347 us.)
 *
 * What bounds it: a k-tile's 1,048,576 multiply-adds take the SM about
 * 1024 clocks at the TF32 rate (NVIDIA's H100 SXM and H200 figure, 989
 * TFLOPS with sparsity, is 494.7 dense: 1024 multiply-adds per SM and
 * clock at 132 SMs and 1.83 GHz), and its shared-memory traffic is 1024
 * wavefronts of
 * 128 bytes by the count above, one per clock, if the wgmma's descriptor
 * reads and the TMA's writes share the LDS's 128 bytes per clock (not
 * verified here). Measured (gemm/bench-h200.json: H200, CUDA 13.0,
 * 2026-11-23 19:42 UTC, cold L2, medians): 0.3443 ms at 4096^3, 399.2
 * TFLOP/s, which is 74.6% of the bench's TF32 peak of 535.3 TFLOP/s (the
 * same 1024 multiply-adds per SM and clock at the 1.98 GHz boost clock the
 * device reports) and 80.7% of NVIDIA's published dense 494.7 TFLOP/s (at
 * 1.83 GHz), against cuBLAS TF32's 0.3406 ms (0.989x); 3.1025 ms at 8192^3
 * against 3.0262 (0.975x); 0.4868 ms on 4097 x 3001 x 2049, the cp.async
 * path, against 0.4236 (0.870x); variant 11 takes 0.5935, 4.7964 and 0.4654
 * ms. Measured slower: grouping 16 tile rows instead of 8 (GK12_GROUP_M=16:
 * 0.5189 against 0.4907 ms at 4096^3, 4.3783 against 3.9797 at 8192^3, one
 * run, with the 8-column layout). Then the epilogue (above) and the last round
 * of tiles; for the cp.async path, the 96 copies per producer thread and
 * k-tile and the consumers' rounding of A (8 KB more shared-memory reads
 * and writes per consumer warp and k-tile).
 *
 * Checked: the GPU tests (tests/test_gemm_gpu.c: odd shapes, offsets of one
 * float, leading dimensions +3/+5/+1, both paths, against float64 and
 * cuBLAS) and compute-sanitizer's memcheck, racecheck and synccheck pass on
 * the H200, with the panel layout; test shape 300 x 36 x 200 leaves two
 * of a tile's four B panels unloaded (right of n). A CPU emulation (C++,
 * not part of the repository) of the stages, fragments, m64n256k8 and the
 * epilogue with the 8-column layout was exact on integer data for
 * m x n x k = 256 x 128 x 32, 300 x 130 x 70, 513 x 260 x 33, 1 x 1 x 1
 * and 17 x 9 x 95; the panel layout has no emulation: static_asserts check
 * b_offset's swizzle, that frag_col is a permutation of the 64 columns and
 * that every fragment load touches 32 distinct banks.
 *
 * Limits:
 * - sm_90a only (wgmma, setmaxnreg, the TMA and mbarrier forms used here):
 *   the code is compiled only where __CUDA_ARCH_FEAT_SM90_ALL is defined;
 *   elsewhere the kernels are stubs (a 1 KB static shared array that the
 *   launcher detects with cudaFuncGetAttributes) and the launcher returns
 *   cudaErrorNotSupported, as it does on any GPU other than compute
 *   capability 9.0.
 * - TMA path: base addresses 16-byte aligned, 4 lda and 4 ldb (and 4
 *   times the batch strides) multiples of 16 (below 2^40), and maps the
 *   driver takes; otherwise the cp.async path. Tensor maps are made
 *   on the host at every call (cuTensorMapEncodeTiled through
 *   cudaGetDriverEntryPointByVersion: nothing links libcuda) and passed as
 *   const __grid_constant__ CUtensorMap parameters.
 * - TMA coordinates are int: bm, bn + 32j (< n), kt * 32 (< k) and the
 *   product z stay below 2^31 since m, n, k, batch <= 2^31 - 1.
 * - At most 2^31 - 1 tiles of 256 x 128 over all products
 *   (cudaErrorInvalidConfiguration above; a narrower height is taken only
 *   where its tiles number no more).
 *
 * Sources: PTX ISA: "Asynchronous Warpgroup Level Matrix Multiply-Accumulate
 * Instructions" (wgmma.mma_async, .tf32 restrictions; "Register Fragments"
 * figures wgmma-64N8-A and wgmma-64N8-D; "Matrix Descriptor Format";
 * wgmma.fence / commit_group / wait_group), cp.async.bulk.tensor, mbarrier
 * (phases, try_wait.parity, expect_tx), setmaxnreg, cp.async and
 * cp.async.mbarrier.arrive (.noinc), bar.sync (named barriers), cvt (.rna
 * .tf32.f32), fence.proxy.async; CUDA C++ Programming Guide ("Tensor Memory
 * Access"); CUDA Driver API (cuTensorMapEncodeTiled's requirements, the
 * TFLOAT32 element type); NVIDIA
 * CUTLASS documentation (warp-specialized persistent kernels, tile
 * schedulers) and cute/atom/mma_traits_sm90_gmma.hpp (the fragment layouts).
 *
 * Build alone: nvcc -gencode arch=compute_90a,code=sm_90a -c 12_tf32_wgmma.cu
 *   (next to sm90.cuh and common.cuh, which it includes: the three files
 *   need nothing else but the CUDA toolkit; with -arch=sm_90 or -arch=sm_80
 *   it builds too, as the stubs that report "not supported")
 */
#include "sm90.cuh"

#include <string.h>

/* The wgmma and TMA code exists only in a device compilation for sm_90a,
 * where nvcc defines __CUDA_ARCH_FEAT_SM90_ALL (sm90.cuh's GK_SM90A). */
#ifndef __CUDA_ARCH_FEAT_SM90_ALL
#pragma nv_diag_suppress 177 /* the stub leaves the helpers unused */
#pragma nv_diag_suppress 550 /* and round_a_slab's registers "set but never used" */
#endif

#ifndef GK12_GROUP_M
#define GK12_GROUP_M 8
#endif
/* The lowest tile height the launcher may pick (256, 128 or 64; header
 * "Narrow tiles"): a tuning knob for gemm/tuning builds. */
#ifndef GK12_MIN_BM
#define GK12_MIN_BM 64
#endif


namespace {

constexpr int kBN = 128, kBK = 32;                  /* C columns (2 x M'), k; C rows kBM = 256, 128 or 64 (Geo) */
constexpr int kConsumers = kBN / 64;                /* 2 consumer warpgroups, 64 columns of C each */
constexpr int kConsumerWarps = kConsumers * 4;      /* 8: each releases a stage once (TMA path: the empty barrier's count) */
/* The two instantiations of the kernel (kTma true: the TMA path; false:
 * the cp.async path, header), 384 threads each (1 producer + 2 consumer
 * warpgroups):
 *                         TMA path                         cp.async path
 *   full barrier count    1 (+ the bytes)                  128 (one per producer thread, when its copies land)
 *   empty barrier count   8 (lane 0 of each consumer warp) 256 (every consumer thread)
 *   setmaxnreg            40 / 232                         56 / 224 (the producer threads' copy state) */
constexpr int kThreads = (1 + kConsumers) * 128;
constexpr int kLaunchRegs = (65536 / kThreads) & ~7; /* 168: __launch_bounds__(384, 1) */
template <bool kTma> struct Mode {
    static constexpr unsigned kFullCount = kTma ? 1u : 128u;
    static constexpr unsigned kEmptyCount = kTma ? (unsigned)kConsumerWarps : (unsigned)(kConsumers * 128);
    static constexpr int kProducerRegs = kTma ? 40 : 56;
    static constexpr int kConsumerRegs = kTma ? 232 : 224;
    /* setmaxnreg only moves registers within the CTA: a split must fit the
     * CTA's registers at launch; multiples of 8 in 24 .. 256. */
    static_assert(128 * kProducerRegs + kConsumers * 128 * kConsumerRegs <= kThreads * kLaunchRegs,
                  "setmaxnreg: the warpgroups' registers fit the CTA's registers at launch (384 x 168)");
    static_assert(kProducerRegs % 8 == 0 && kProducerRegs >= 24 && kProducerRegs <= kLaunchRegs &&
                      kConsumerRegs % 8 == 0 && kConsumerRegs <= 256 && kConsumerRegs >= kLaunchRegs,
                  "setmaxnreg takes multiples of 8 in 24 .. 256; the producer decreases, the consumers increase");
};
template struct Mode<true>;
template struct Mode<false>;
constexpr int kCopyThreads = 128;                   /* cp.async path: the producer warpgroup copies */
constexpr unsigned kGroupM = GK12_GROUP_M;
constexpr int kKSteps = kBK / 8;                    /* wgmma k8-steps per k-tile: 4 */
constexpr int kPanelCols = 32;                      /* one B panel: 32 columns = one 128-byte row of fp32 */
constexpr int kPanelBytes = kBK * kPanelCols * 4;   /* 32 k-rows x 32 columns: 4 KB, one TMA box */
constexpr int kPanels = kBN / kPanelCols;           /* 4 */
constexpr int kBBytes = kBK * kBN * 4;              /* one B slab: 16 KB */
constexpr int kFrag = 4 * kKSteps;                  /* fragment registers per thread and k-tile: 16 */
constexpr int kBCopies = kBK * kBN / kCopyThreads;  /* 32 */

static_assert(kBK * 4 == 128, "rows of 128 bytes: the 128-byte swizzle (and the TMA box's inner 128 bytes)");
static_assert(kBBytes % 1024 == 0 && kPanelBytes % 1024 == 0,
              "slabs and panels keep the 1024-byte alignment of the swizzle atoms");
static_assert(kBCopies * kCopyThreads == kBK * kBN && kCopyThreads == 128,
              "cp.async path: the 128 producer threads cover a stage exactly (the mappings below assume 128)");

/* The tile's height kBM (rows of C, the wgmma's N'): 256, the rung's
 * tile, or 128 and 64 for products with few tiles (the launcher's
 * pick_bm, header "Narrow tiles"). What depends on it: the A slab (kBM x
 * 32 fp32, one TMA box), the accumulators (kBM / 2 per thread), and the
 * ring's depth, which keeps 192 KB of stages at every height: 4 stages of
 * 48 KB, 6 of 32 KB, 8 of 24 KB. */
/* The epilogue's staging of C for the TMA store ("The store" in the
 * header): per consumer warpgroup 64 rows x its 64 columns of fp32, two
 * boxes of 64 rows x 32 columns (128-byte rows, the 128-byte swizzle). */
constexpr int kEpiRows = 64, kEpiBoxCols = 32;
constexpr int kEpiBoxBytes = kEpiRows * kEpiBoxCols * 4;  /* 8 KB */
constexpr int kEpiGroupBytes = 2 * kEpiBoxBytes;           /* 16 KB: one warpgroup's 64 columns */
constexpr int kEpiBytes = kConsumers * kEpiGroupBytes;      /* 32 KB */
template <int kBM> struct Geo {
    static_assert(kBM == 256 || kBM == 128 || kBM == 64, "m64n256k8, m64n128k8 or m64n64k8");
    static constexpr int kABytes = kBM * kBK * 4;              /* one A slab: 32, 16 or 8 KB */
    static constexpr int kAcc = kBM / 2;                       /* accumulators per thread: 128, 64 or 32 */
    static constexpr int kStages = 192 * 1024 / (kABytes + kBBytes); /* 4, 6 or 8 */
    static constexpr size_t kSmemBytes = (size_t)kStages * (kABytes + kBBytes) + kEpiBytes + 1024 + 2 * kStages * 8;
    static constexpr int kACopies = kBM * kBK / kCopyThreads;  /* cp.async path: 4-byte copies per thread and k-tile: 64, 32, 16 */
    static_assert(kABytes % 1024 == 0, "A slabs keep the 1024-byte alignment of the swizzle atoms");
    static_assert(kACopies * kCopyThreads == kBM * kBK, "cp.async path: the producer threads cover an A slab exactly");
    static_assert(kStages * (kABytes + kBBytes) == 192 * 1024, "192 KB of stages");
    static_assert(kSmemBytes <= 227u * 1024u, "dynamic shared memory above sm_90's 227 KB per block");
};
template struct Geo<256>;
template struct Geo<128>;
template struct Geo<64>;
static_assert(Geo<256>::kStages == 4 && Geo<128>::kStages == 6 && Geo<64>::kStages == 8, "the ring's depths");

/* ---- Where things live in a stage (bytes) ---------------------------------------------
 * A slab: element (r, kk), r < 256 rows of m, kk < 32: 128-byte rows, the
 * 16-byte chunk kk / 4 stored at chunk (kk / 4) ^ (r % 8): the TMA's
 * 128-byte swizzle (1024-byte atoms of 8 rows). */
__host__ __device__ constexpr int a_offset(int r, int kk)
{
    return r * 128 + (((kk >> 2) ^ (r & 7)) << 4) + (kk & 3) * 4;
}
/* B slab: element (kk, nn), kk < 32, nn < 128: 4 panels of 32 columns
 * ([n/32][k][n%32]), each row of a panel 128 bytes with the same 128-byte
 * swizzle: the 16-byte chunk (nn % 32) / 4 of k-row kk stored at chunk
 * ((nn % 32) / 4) ^ (kk % 8). */
__host__ __device__ constexpr int b_offset(int kk, int nn)
{
    return (nn >> 5) * kPanelBytes + kk * 128 + ((((nn >> 2) & 7) ^ (kk & 7)) << 4) + (nn & 3) * 4;
}
/* Which column of the warpgroup's 64 a row of its wgmma A operand holds.
 * Row i = 16w + 8h + g (warp w, fragment half h, lane group g) takes column
 *     32 (i / 32) + 16 ((i / 4) % 2) + 8 ((i / 16) % 2) + 4 ((i / 8) % 2) + i % 4
 * (bits b5 b4 b3 b2 b1 b0 of i become b5 b2 b4 b3 b1 b0): a permutation of
 * 0 .. 63 that keeps each warp's 16 rows in one 32-column panel and gives
 * the 8 lanes of one t the chunks c and c + 4 of it (c = 2 (w % 2) + h),
 * so that the four t's, whose k-rows differ in kk % 8, find them at four
 * disjoint chunk pairs c ^ t, (c + 4) ^ t: a fragment load touches all 32
 * banks once. The epilogue stores row i's results in column frag_col(i). */
__host__ __device__ constexpr int frag_col(int i)
{
    return (i & 32) | (((i >> 2) & 1) << 4) | (((i >> 4) & 1) << 3) | (((i >> 3) & 1) << 2) | (i & 3);
}

static_assert(a_offset(7, 31) == 7 * 128 + ((7 ^ 7) << 4) + 12 && a_offset(9, 4) == 9 * 128 + ((1 ^ 1) << 4),
              "a_offset: the 128-byte swizzle");
static_assert(b_offset(0, 32) == kPanelBytes && b_offset(1, 0) == 128 + 16 && b_offset(0, 4) == 16 &&
                  b_offset(kBK - 1, kBN - 1) == kBBytes - 128 + ((7 ^ 7) << 4) + 12,
              "b_offset: 4 KB panels of 32 x 32 with the 128-byte swizzle");
static_assert(frag_col(0) == 0 && frag_col(4) == 16 && frag_col(8) == 4 && frag_col(16) == 8 && frag_col(63) == 63 &&
                  frag_col(36) == 48,
              "frag_col: the bit permutation b5 b4 b3 b2 b1 b0 -> b5 b2 b4 b3 b1 b0");
/* Recount, for every warp w, fragment register (h, hi) and lane (g, t):
 * the bank of the word read (b_offset(t + 4 hi, frag_col(16w + 8h + g)),
 * k8-step 0; a step adds 1024 bytes) takes all 32 values, once each. */
__host__ __device__ constexpr bool frag_loads_conflict_free()
{
    for (int w = 0; w < 4; ++w)
        for (int h = 0; h < 2; ++h)
            for (int hi = 0; hi < 2; ++hi) {
                unsigned banks = 0;
                for (int lane = 0; lane < 32; ++lane) {
                    const int g = lane >> 2, t = lane & 3;
                    const int bank = (b_offset(t + 4 * hi, frag_col(16 * w + 8 * h + g)) >> 2) & 31;
                    banks |= 1u << bank;
                }
                if (banks != 0xffffffffu) return false;
            }
    return true;
}
static_assert(frag_loads_conflict_free(), "each fragment load: 32 lanes, 32 distinct banks");
/* frag_col is a bijection onto 0 .. 63 (the epilogue stores every column once). */
__host__ __device__ constexpr bool frag_col_bijective()
{
    unsigned long long seen = 0;
    for (int i = 0; i < 64; ++i) seen |= 1ull << frag_col(i);
    return seen == ~0ull;
}
static_assert(frag_col_bijective(), "frag_col: a permutation of the 64 columns");

/* B stored n x k (op_b = T, the weight layout): the B slab is K-major like
 * the A slab, 128 rows of n x 32 k in 128-byte swizzled rows (bt_offset =
 * a_offset), one TMA box of 16 KB. Row i of the wgmma's A operand is then
 * column 64 cw + i itself: a0's 32 lanes read rows 16w + g (g = 0 .. 7: 8
 * distinct swizzles), k = t, the word t of chunk 0 ^ g; 32 distinct banks
 * without a permutation. col_of says which column row i holds, per layout. */
__host__ __device__ constexpr int bt_offset(int nn, int kk) { return a_offset(nn, kk); }
template <bool kTB> __host__ __device__ constexpr int col_of(int i) { return kTB ? i : frag_col(i); }
__host__ __device__ constexpr bool frag_loads_conflict_free_t()
{
    for (int w = 0; w < 4; ++w)
        for (int h = 0; h < 2; ++h)
            for (int hi = 0; hi < 2; ++hi)
                for (int s = 0; s < kKSteps; ++s) {
                    unsigned banks = 0;
                    for (int lane = 0; lane < 32; ++lane) {
                        const int g = lane >> 2, t = lane & 3;
                        banks |= 1u << ((bt_offset(16 * w + 8 * h + g, 8 * s + t + 4 * hi) >> 2) & 31);
                    }
                    if (banks != 0xffffffffu) return false;
                }
    return true;
}
static_assert(frag_loads_conflict_free_t(), "op_b = T: each fragment load, 32 lanes, 32 distinct banks");

/* ---- Descriptors ------------------------------------------------------------ */
/* The A slab as the wgmma's B operand (N' = 256 rows, K-major): 8-row atoms
 * 1024 bytes apart (SBO); LBO unused (K lies inside one 128-byte row). */
constexpr uint32_t kSbo = 1024, kLbo = 16;
/* k8-step s of the slab at byte address as: 8 fp32 = 32 bytes further
 * along each row (the swizzle is applied to the address the hardware
 * forms, as for bf16_05's k16-steps of 32 bytes). Both consumer warpgroups
 * read the whole slab: no per-warpgroup offset. */
__host__ __device__ constexpr uint64_t a_slab_desc(uint32_t as, int s)
{
    return make_desc(as + (uint32_t)(32 * s), kLbo, kSbo);
}

/* ---- PTX wrappers (sm_90a; empty elsewhere, and never called there) ------- */
/* 4 bytes global -> shared, bypassing registers; src_bytes 0 writes a zero
 * and reads nothing (src must still be a valid address). */
__device__ __forceinline__ void cp_async4(uint32_t dst, const float *src, int src_bytes)
{
#if GK_SM90A
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes) : "memory");
#endif
}
/* One fp32 from shared memory, rounded to TF32 (round to nearest, ties away
 * from zero): the register holds the TF32 value in fp32 format (the SASS
 * clears its 13 low bits). */
__device__ __forceinline__ uint32_t lds_tf32(uint32_t addr)
{
    uint32_t r = 0;
#if GK_SM90A
    asm volatile("{\n"
                 ".reg .f32 x;\n"
                 "ld.shared.f32 x, [%1];\n"
                 "cvt.rna.tf32.f32 %0, x;\n"
                 "}\n"
                 : "=r"(r)
                 : "r"(addr)
                 : "memory");
#endif
    return r;
}
/* TMA path: B's slab already holds TF32 values (its tensor map's element
 * type is TFLOAT32, and the TMA rounds each fp32 to nearest even on the way,
 * measured: see "Precision"), so the fragment is a plain load. */
__device__ __forceinline__ uint32_t lds_b32(uint32_t addr)
{
    uint32_t r = 0;
#if GK_SM90A
    asm volatile("ld.shared.b32 %0, [%1];\n" : "=r"(r) : "r"(addr) : "memory");
#endif
    return r;
}
template <bool kTma> __device__ __forceinline__ uint32_t lds_frag(uint32_t addr)
{
    return kTma ? lds_b32(addr) : lds_tf32(addr);
}
/* Keep the compiler from moving reads or writes of a fragment set across a
 * wgmma fence or wait, as acc_fence (sm90.cuh) does for the accumulators:
 * the set is "used" here, so its registers stay
 * its own (not reused for anything else) up to this point. */
__device__ __forceinline__ void frag_fence(uint32_t (&f)[kFrag])
{
#pragma unroll
    for (int i = 0; i < kFrag; ++i) asm volatile("" : "+r"(f[i])::"memory");
}
/* d += A * B: one m64nNk8 wgmma of the warpgroup (N = kBM: 256, 128 or
 * 64), A (64 x 8 TF32) from the registers a0..a3 of each thread, B (8 x N)
 * K-major from shared memory through the descriptor db; scale-d 1
 * (accumulate), A and B scaled by 1; N / 2 accumulators per thread. TF32
 * has no transpose immediates. */
template <int kBM>
__device__ __forceinline__ void wgmma_tf32(float (&d)[kBM / 2], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                           uint64_t db)
{
#if GK_SM90A
/* The instruction for width N, with D's register list and operands; the
 * fragment, descriptor and scale-d follow at I0 .. I5. */
#define GK_WGMMA_TF32(N, D, OPS, I0, I1, I2, I3, I4, I5)                                                   \
    asm volatile("{\n"                                                                                        \
                 ".reg .pred p;\n"                                                                            \
                 "setp.ne.b32 p, %" I5 ", 0;\n"                                                               \
                 "wgmma.mma_async.sync.aligned.m64n" N "k8.f32.tf32.tf32\n"                                   \
                 "{" D "},\n"                                                                                 \
                 "{%" I0 ", %" I1 ", %" I2 ", %" I3 "}, %" I4 ", p, 1, 1;\n"                                   \
                 "}\n"                                                                                        \
                 : OPS(d)                                                                                     \
                 : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "l"(db), "r"(1))
    if constexpr (kBM == 256)
        GK_WGMMA_TF32("256", GK_WGMMA_D128, GK_WGMMA_D128_OPERANDS, "128", "129", "130", "131", "132", "133");
    else if constexpr (kBM == 128)
        GK_WGMMA_TF32("128", GK_WGMMA_D64, GK_WGMMA_D64_OPERANDS, "64", "65", "66", "67", "68", "69");
    else
        GK_WGMMA_TF32("64", GK_WGMMA_D32, GK_WGMMA_D32_OPERANDS, "32", "33", "34", "35", "36", "37");
#undef GK_WGMMA_TF32
#endif
}

/* ---- The producer's two ways of filling a stage -------------------------------------- */
/* TMA: the producer thread queues k-tile kt of the tile at (bm, bn) into
 * stage `slab`: one arrive.expect_tx on the stage's full barrier with the
 * bytes the boxes bring, then the boxes: A's 256 rows x 32 k (one box) and
 * B's 32 k-rows x 32 columns for each panel holding a column < n. A panel
 * wholly at or right of column n is not loaded: its stale contents (another
 * tile's, or never written) reach only accumulator rows of columns >= n,
 * which the epilogue never stores. A box that leaves the matrix is
 * zero-filled and still counts its full bytes. */
template <int kBM, bool kTB>
__device__ __forceinline__ void load_stage_tma(const CUtensorMap *map_a, const CUtensorMap *map_b, uint32_t as,
                                               uint32_t bs, uint32_t full, unsigned kt, unsigned bm, unsigned bn,
                                               int panels, int za, int zb)
{
    /* Coordinates fit an int: bm, bn, kt * kBK and bn + 32j (< n for a
     * loaded panel) stay below 2^31 (m, n, k <= 2^31 - 1), and so do the
     * products za, zb (batch <= 2^31 - 1). The maps are 3D (k or n, rows,
     * products): za, zb are 0 for a broadcast operand or one product. */
    if constexpr (kTB) {
        /* B stored n x k: one box of 32 k x 128 rows of n, K-major like A's. */
        mbar_arrive_expect_tx(full, (uint32_t)(Geo<kBM>::kABytes + kBBytes));
        tma_load_3d(as, map_a, (int)(kt * kBK), (int)bm, za, full);
        tma_load_3d(bs, map_b, (int)(kt * kBK), (int)bn, zb, full);
        return;
    }
    mbar_arrive_expect_tx(full, (uint32_t)(Geo<kBM>::kABytes + panels * kPanelBytes));
    tma_load_3d(as, map_a, (int)(kt * kBK), (int)bm, za, full);
    for (int j = 0; j < panels; ++j)
        tma_load_3d(bs + j * kPanelBytes, map_b, (int)(bn + kPanelCols * j), (int)(kt * kBK), zb, full);
}

/* cp.async: producer thread p (0..127) copies its 64 A and 32 B elements
 * of k-tile kt into stage (as, bs), zeros outside the matrix, into the very
 * layouts the TMA writes.
 * A: element (r, kk) with kk = p % 32, r = p / 32 + 4i: a warp takes one
 *    row's 32 consecutive k (128 bytes of global memory; in shared memory
 *    32 distinct words of one swizzled 128-byte row: no bank conflict).
 *    r % 8 is p / 32 + 4 (i % 2): two swizzled offsets, + 1024 bytes per 8 rows.
 * B: the slab's float p + 128i in shared-memory order, i.e. panel i / 8,
 *    k-row kk = p / 32 + 4 (i % 8), slot (p / 4) % 8 of the row, which holds
 *    chunk slot ^ (kk % 8) = slot ^ (p / 32 + 4 (i % 2)): column
 *    nn = 32 (i / 8) + 4 (slot ^ (p / 32 + 4 (i % 2))) + p % 4. A warp takes
 *    the 32 columns of one panel row (one 128-byte row segment of B, in
 *    swizzled order) and writes 32 consecutive words (no bank conflict).
 * Both loops are unrolled: each copy is an offset add, a compare with
 * counts computed once (rows of A inside m; k-rows of B inside k and
 * panels inside n, for each parity of i) and the
 * LDGSTS; the offsets are integers, added to a or b only for copies inside
 * the matrix. */
/* A K-major slab of kRows rows x 32 k (the A slab, or B's when stored n x
 * k): producer thread p copies element (r, kk) with kk = p % 32, r = p / 32
 * + 4i, i < kRows / 4 (see load_stage_cp_async); rows past `rows` and k past
 * `k` are zeros. */
template <int kRows>
__device__ __forceinline__ void copy_kmajor(uint32_t slab, const float *__restrict__ src, size_t ld, unsigned rows,
                                            unsigned k, unsigned kt, unsigned r_first, int p)
{
    constexpr int kCopies = kRows * kBK / kCopyThreads;
    const int kk = p & 31, r0 = p >> 5;
    const unsigned col = kt * kBK + kk;
    /* Copies i < rows_in hold a row < rows (rows r_first + r0 + 4i). */
    const unsigned first = r_first + (unsigned)r0;
    const int rows_in = col >= k || first >= rows ? 0 : (int)min((rows - first + 3u) / 4u, (unsigned)kCopies);
    const uint32_t dst0 = slab + (uint32_t)a_offset(r0, kk), dst1 = slab + (uint32_t)a_offset(r0 + 4, kk);
    size_t off = (size_t)first * ld + col;
    const size_t step = 4 * ld;
#pragma unroll
    for (int i = 0; i < kCopies; ++i, off += step) {
        const bool ok = i < rows_in;
        cp_async4(((i & 1) ? dst1 : dst0) + (uint32_t)(i >> 1) * 1024u, ok ? src + off : src, ok ? 4 : 0);
    }
}
template <int kBM, bool kTB>
__device__ __forceinline__ void load_stage_cp_async(uint32_t as, uint32_t bs, const float *__restrict__ a, size_t lda,
                                                    const float *__restrict__ b, size_t ldb, unsigned m, unsigned n,
                                                    unsigned k, unsigned kt, unsigned bm, unsigned bn, int p)
{
    copy_kmajor<kBM>(as, a, lda, m, k, kt, bm, p);
    if constexpr (kTB) {
        copy_kmajor<kBN>(bs, b, ldb, n, k, kt, bn, p); /* 32 copies, as A's 64 */
        return;
    }
    {
        /* Float p + 128i of the slab: panel i / 8, k-row r0 + 4 (i % 8) with
         * r0 = p / 32, chunk slot (p / 4) % 8 holding chunk slot ^ (k-row % 8)
         * = slot ^ (r0 + 4 (i % 2)), element p % 4. */
        const int r0 = p >> 5, slot = (p >> 2) & 7, e = p & 3;
        const uint32_t dst = bs + 4u * (uint32_t)p;
        const unsigned krow0 = kt * kBK + (unsigned)r0;
        const unsigned col_even = bn + 4u * (unsigned)(slot ^ r0) + (unsigned)e;       /* i even */
        const unsigned col_odd = bn + 4u * (unsigned)(slot ^ (r0 + 4)) + (unsigned)e;  /* i odd */
        /* Copies with i % 8 < rows_in hold a k-row < k (k-rows krow0 + 4 (i % 8));
         * panels j < panels_even (panels_odd) a column < n (columns col + 32j). */
        const int rows_in = krow0 >= k ? 0 : (int)min((k - krow0 + 3u) / 4u, 8u);
        const int panels_even = col_even >= n ? 0 : (int)min((n - col_even + 31u) / 32u, (unsigned)kPanels);
        const int panels_odd = col_odd >= n ? 0 : (int)min((n - col_odd + 31u) / 32u, (unsigned)kPanels);
        const size_t off_even = (size_t)krow0 * ldb + col_even, off_odd = (size_t)krow0 * ldb + col_odd;
#pragma unroll
        for (int i = 0; i < kBCopies; ++i) {
            const bool ok = (i & 7) < rows_in && (i >> 3) < ((i & 1) ? panels_odd : panels_even);
            const size_t off = ((i & 1) ? off_odd : off_even) + 4 * (size_t)(i & 7) * ldb + 32 * (size_t)(i >> 3);
            cp_async4(dst + 512u * (uint32_t)i, ok ? b + off : b, ok ? 4 : 0);
        }
    }
}

/* cp.async path: the copies put A's fp32 bits in shared memory unchanged,
 * and the tensor core would use only their top 19 (truncation toward zero,
 * a one-sided error of up to 2^-10 of each value: a bias that grows with k
 * when the products share a sign). So the 256 consumer threads round the
 * landed A slab in place before its first wgmma: thread q takes the 16-byte
 * chunks q + 256i (i < 8; a warp's LDS.128 / STS.128 covers 512 contiguous
 * bytes: 4 wavefronts, no conflict), cvt.rna.tf32.f32 on each element: the
 * rounding to nearest that the TMA's TFLOAT32 load gives in the TMA path,
 * to within ties. Each thread then fences its writes to the async proxy,
 * and a named barrier over the 256 consumer threads (both read the whole
 * slab) precedes the wgmma. */
template <int kBM> __device__ __forceinline__ void round_a_slab(uint32_t as, int q)
{
#pragma unroll
    for (int i = 0; i < Geo<kBM>::kABytes / 16 / (kConsumers * 128); ++i) {
        const uint32_t addr = as + 16u * (uint32_t)(q + kConsumers * 128 * i);
        uint32_t x, y, z, w;
#if GK_SM90A
        asm volatile("{\n"
                     ".reg .f32 a, b, c, d;\n"
                     "ld.shared.v4.f32 {a, b, c, d}, [%4];\n"
                     "cvt.rna.tf32.f32 %0, a;\n"
                     "cvt.rna.tf32.f32 %1, b;\n"
                     "cvt.rna.tf32.f32 %2, c;\n"
                     "cvt.rna.tf32.f32 %3, d;\n"
                     "}\n"
                     : "=r"(x), "=r"(y), "=r"(z), "=r"(w)
                     : "r"(addr)
                     : "memory");
        asm volatile("st.shared.v4.b32 [%0], {%1, %2, %3, %4};\n" ::"r"(addr), "r"(x), "r"(y), "r"(z), "r"(w)
                     : "memory");
#else
        x = y = z = w = addr;
        (void)x, (void)y, (void)z, (void)w;
#endif
    }
}
/* The 256 consumer threads (named barrier 1; 0 is __syncthreads'). */
__device__ __forceinline__ void consumers_sync()
{
#if GK_SM90A
    asm volatile("bar.sync 1, %0;\n" ::"n"(kConsumers * 128) : "memory");
#endif
}

/* A consumer warp releases a stage. Its lanes read the stage's B slab with
 * ld.shared (the fragments), and the producer then overwrites it: each
 * lane's reads must come before those writes. TMA path: the warp's lanes
 * converge and order their accesses (__syncwarp), and lane 0's arrival (a
 * release) speaks for the warp: 8 arrivals per stage, as in bf16_05. The
 * cp.async path, whose copies are generic-proxy writes that
 * compute-sanitizer's racecheck follows, has every consumer thread arrive
 * for its own reads (256 arrivals per stage): the release/acquire pair then
 * orders each read before the copies without relying on the warp barrier. */
template <bool kTma> __device__ __forceinline__ void release_stage(uint32_t bar, bool release, int lane)
{
    __syncwarp();
    if (release && (!kTma || lane == 0)) mbar_arrive(bar);
}

/* ---- One k-tile of a consumer warpgroup ---------------------------------------------- */
/* A consumer thread's four fragment addresses (k8-step 0 of stage 0's B
 * slab): lane = 4g + t of warp w of consumer warpgroup cw loads
 *   a0 = A'(16w + g, t)   a1 = A'(16w + 8 + g, t)   a2 = A'(16w + g, t + 4)   a3 = A'(16w + 8 + g, t + 4)
 * with A'(i, kk) = B(kk, 64 cw + frag_col(i)) of the k-tile. */
struct FragAddr {
    uint32_t a0, a1, a2, a3;
};
template <bool kTB> __device__ __forceinline__ FragAddr frag_addresses(uint32_t bs0, int cw, int w, int lane)
{
    const int g = lane >> 2, t = lane & 3;
    if constexpr (kTB) {
        /* B stored n x k: rows r0 = 64 cw + 16w + g and r1 = r0 + 8 of the
         * K-major slab, word t of chunk 0 ^ g. k8-step s, half hi (a2, a3:
         * k + 4) is chunk c = 2s + hi, stored at c ^ g: the address with
         * bits 4-6 XORed with c (the slab and its rows start on 1024- and
         * 128-byte boundaries, so bits 4-6 hold g alone). a2, a3 repeat a0,
         * a1; consume_ktile applies the XOR. */
        const int r0 = 64 * cw + 16 * w + g;
        const uint32_t p0 = bs0 + (uint32_t)bt_offset(r0, t), p1 = bs0 + (uint32_t)bt_offset(r0 + 8, t);
        return FragAddr{p0, p1, p0, p1};
    } else {
        const int c0 = 64 * cw + frag_col(16 * w + g), c1 = 64 * cw + frag_col(16 * w + 8 + g);
        return FragAddr{bs0 + (uint32_t)b_offset(t, c0), bs0 + (uint32_t)b_offset(t, c1),
                        bs0 + (uint32_t)b_offset(t + 4, c0), bs0 + (uint32_t)b_offset(t + 4, c1)};
    }
}
/* k-tile `it` (ring position) with fragment set `cur`; `prev` is the set
 * k-tile it-1 used, whose wgmma may still be running on entry.
 *   wait for the stage; load and round the 16 fragment values into cur;
 *   fence; 4 wgmma (k8-steps) on cur and the A slab; commit;
 *   wait_group 1: k-tile it-1's wgmma (readers of prev and of its stage)
 *   are done; fence prev and d; release k-tile it-1's stage.
 * fa holds this thread's a0 .. a3 addresses in stage 0's B slab. */
template <int kBM, bool kTma, bool kTB>
__device__ __forceinline__ void consume_ktile(float (&d)[kBM / 2], uint32_t (&cur)[kFrag], uint32_t (&prev)[kFrag],
                                              uint32_t as0, const FragAddr &fa, uint32_t full0, uint32_t empty0,
                                              unsigned it, bool release_prev, int lane, int q)
{
    constexpr int kStages = Geo<kBM>::kStages, kABytes = Geo<kBM>::kABytes;
    const int slab = (int)(it % kStages);
    /* k-tile it has landed: the TMA's bytes complete_tx on the barrier, or
     * the 128 producer threads' copies (each fenced to the async proxy
     * before its arrival); visible to this thread's loads and its wgmma. */
    mbar_wait(full0 + 8 * slab, (it / kStages) & 1u);
    if (!kTma) {
        /* cp.async path: round A to TF32 in place (round_a_slab), fence,
         * and wait for the other 255 consumer threads' share. */
        round_a_slab<kBM>(as0 + (uint32_t)(slab * kABytes), q);
        fence_proxy_async();
        consumers_sync();
    }
    __syncwarp(); /* the wgmma below are .sync.aligned: the warp's lanes converge */

    /* Set cur was last read by k-tile it-2's wgmma, retired by the
     * wait_group 1 of k-tile it-1 (at a tile's first k-tiles, by the
     * previous tile's wait_group 0): free to overwrite. k8-step s is 8
     * k-rows = 1024 bytes further (the swizzle repeats every 8 rows). */
    const uint32_t so = (uint32_t)(slab * kBBytes);
#pragma unroll
    for (int s = 0; s < kKSteps; ++s) {
        if constexpr (kTB) {
            /* K-major B: k8-step s is chunk 2s (+1 for a2, a3) of the same rows. */
            const uint32_t x0 = (uint32_t)(2 * s) << 4, x1 = (uint32_t)(2 * s + 1) << 4;
            cur[4 * s + 0] = lds_frag<kTma>((fa.a0 + so) ^ x0);
            cur[4 * s + 1] = lds_frag<kTma>((fa.a1 + so) ^ x0);
            cur[4 * s + 2] = lds_frag<kTma>((fa.a2 + so) ^ x1);
            cur[4 * s + 3] = lds_frag<kTma>((fa.a3 + so) ^ x1);
        } else {
            cur[4 * s + 0] = lds_frag<kTma>(fa.a0 + so + 1024 * s);
            cur[4 * s + 1] = lds_frag<kTma>(fa.a1 + so + 1024 * s);
            cur[4 * s + 2] = lds_frag<kTma>(fa.a2 + so + 1024 * s);
            cur[4 * s + 3] = lds_frag<kTma>(fa.a3 + so + 1024 * s);
        }
    }
    /* The fragment and accumulator registers are final before the wgmma
     * read them (wgmma.fence orders this thread's register writes before
     * the asynchronous reads). */
    frag_fence(cur);
    acc_fence(d);
    wgmma_fence();
    const uint32_t as = as0 + (uint32_t)(slab * kABytes);
#pragma unroll
    for (int s = 0; s < kKSteps; ++s)
        wgmma_tf32<kBM>(d, cur[4 * s], cur[4 * s + 1], cur[4 * s + 2], cur[4 * s + 3], a_slab_desc(as, s));
    wgmma_commit();
    /* At most this k-tile's group still running: k-tile it-1's wgmma are
     * done in this warp, with their reads of set prev and of its stage ... */
    wgmma_wait<1>();
    acc_fence(d);
    frag_fence(prev); /* prev's registers were its own until here: only now may they be reused */
    /* ... which releases k-tile it-1's stage to the producer (within this
     * tile: the previous tile's last stage was released before its epilogue). */
    release_stage<kTma>(empty0 + 8 * (int)((it - 1) % kStages), release_prev, lane);
}

/* ---- The epilogue from registers ----------------------------------------------------- */
/* A warp's 16 columns x the tile's 256 rows: d[4j + 2h + e] is
 * C(bm + 8j + 2t + e, col0 + col_of(16w + 8h + g)), lane = 4g + t,
 * col0 = bn + 64 cw. For fixed (j, e, h) the warp's 32 stores cover 4 rows
 * (t) x 8 columns (g): with B as stored (frag_col) two runs of 4
 * consecutive floats 16 columns apart, 8 half-used 32-byte sectors when
 * C's rows start 16-byte aligned; with B stored n x k 8 consecutive floats,
 * 4 full sectors. Rows past m and columns past n are skipped. A thread
 * stores two columns of every row of the tile: gk_gemm_ex's epilogue
 * (common.cuh's store_c_epi) takes their two biases, loaded once per tile. */
template <int kBM, bool kTB, int kEpi>
__device__ __forceinline__ void store_tile(const float (&d)[kBM / 2], float *c, size_t ldc, unsigned m, unsigned n,
                                           unsigned bm, unsigned col0, int w, int lane, float alpha, float beta,
                                           const float *bias)
{
    const int g = lane >> 2, t = lane & 3;
    const unsigned c0 = col0 + (unsigned)col_of<kTB>(16 * w + g), c1 = col0 + (unsigned)col_of<kTB>(16 * w + 8 + g);
    const bool ok0 = c0 < n, ok1 = c1 < n;
    const float b0 = kEpi != 0 && ok0 ? __ldg(bias + c0) : 0.0f, b1 = kEpi != 0 && ok1 ? __ldg(bias + c1) : 0.0f;
#pragma unroll
    for (int j = 0; j < kBM / 8; ++j) {
#pragma unroll
        for (int e = 0; e < 2; ++e) {
            const unsigned row = bm + 8 * j + 2 * t + e;
            if (row >= m) continue;
            float *const crow = c + (size_t)row * ldc;
            if (ok0) store_c_epi<kEpi>(crow + c0, d[4 * j + e], alpha, beta, b0);
            if (ok1) store_c_epi<kEpi>(crow + c1, d[4 * j + 2 + e], alpha, beta, b1);
        }
    }
}

/* The same tile stored transposed (op_a = op_b = T, which the launcher
 * runs as C^T = op(B)^T op(A)^T: this kernel's m and n are C's n and m):
 * d[4j + 2h + e] goes to C(col0 + frag_col(16w + 8h + g), bm + 8j + 2t + e).
 * A lane's e = 0, 1 are two consecutive floats of one row of C, one 8-byte
 * store where c_vec (c 8-byte aligned, ldc and the batch stride even): for
 * fixed (j, h) a warp writes 8 rows of C x 32 contiguous bytes, 8 full
 * sectors. The bias is C's column's: bm + 8j + 2t + e, read beside each
 * store (through L1): 128 loads per thread and tile, of its 64 columns
 * (each read once for h = 0 and once for h = 1). */
template <int kBM, int kEpi>
__device__ __forceinline__ void store_tile_t(const float (&d)[kBM / 2], float *c, size_t ldc, unsigned m, unsigned n,
                                             unsigned bm, unsigned col0, int w, int lane, float alpha, float beta,
                                             const float *bias, bool c_vec)
{
    const int g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int h = 0; h < 2; ++h) {
        const unsigned crow_i = col0 + (unsigned)frag_col(16 * w + 8 * h + g); /* a row of C: < n here */
        if (crow_i >= n) continue;
        float *const crow = c + (size_t)crow_i * ldc;
#pragma unroll
        for (int j = 0; j < kBM / 8; ++j) {
            const unsigned col = bm + 8 * j + 2 * t; /* a column of C: < m here; even */
            const float v0 = d[4 * j + 2 * h], v1 = d[4 * j + 2 * h + 1];
            const float b0 = kEpi != 0 && col < m ? __ldg(bias + col) : 0.0f;
            const float b1 = kEpi != 0 && col + 1 < m ? __ldg(bias + col + 1) : 0.0f;
            if (c_vec && col + 2 <= m) {
                float2 *const q = reinterpret_cast<float2 *>(crow + col);
                float2 r = make_float2(alpha * v0, alpha * v1);
                if (beta != 0.0f) { /* only then is C read */
                    const float2 o = *q;
                    r.x += beta * o.x;
                    r.y += beta * o.y;
                }
                *q = make_float2(epilogue_apply<kEpi>(r.x, b0), epilogue_apply<kEpi>(r.y, b1));
            } else {
                if (col < m) store_c_epi<kEpi>(crow + col, v0, alpha, beta, b0);
                if (col + 1 < m) store_c_epi<kEpi>(crow + col + 1, v1, alpha, beta, b1);
            }
        }
    }
}

/* ---- The epilogue through shared memory and the TMA ------------------------------------
 * Where beta = 0 and the TMA can address C (not the transposed store):
 * consumer warpgroup cw stages its 64 columns of the tile in passes of 64
 * rows (kBM / 64 passes) into its 16 KB at buf, as two boxes of 64 rows x
 * 32 columns in the 128-byte swizzle (16-byte chunk q of row r at q ^ (r %
 * 8)), and its thread 0 hands each box to the TMA. Per pass: thread 0
 * waits until the previous pass's stores have read the buffer, the
 * warpgroup meets at its named barrier (2 + cw: 0 is __syncthreads', 1 the
 * cp.async path's consumers_sync), every thread writes its 32 values
 * (epilogue(alpha d + bias), the rows 8j + 2t + e of its two columns),
 * fences them to the async proxy, meets the others again, and thread 0
 * issues the two stores and commits them; nobody waits for them to land.
 * For one (j, h, e) a warp writes 4 rows (2t + e) x two runs of 4 floats:
 * with B as stored, chunks c and c + 4 of a 32-column box (frag_col),
 * which the swizzle sends to the same 4 chunks over the 4 rows (c ^ x and
 * c ^ 4 ^ x, x in {e, 2 + e, 4 + e, 6 + e}): 16 banks, two wavefronts per
 * store; with B stored n x k, chunks c and c + 1, 8 distinct chunks, one
 * wavefront (epi_store_ways counts both). The TMA clips rows past m and columns past n (the columns
 * whose panels were not loaded among them), so nothing here checks them.
 * Before the CTA ends, thread 0 waits for its stores (bulk_wait_all): they
 * read its shared memory. */
__device__ __forceinline__ void group_sync(int cw)
{
#if GK_SM90A
    /* Immediate ids (a register id would make ptxas reserve all 16). */
    if (cw == 0)
        asm volatile("bar.sync 2, 128;\n" ::: "memory");
    else
        asm volatile("bar.sync 3, 128;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void st_shared_f32(uint32_t addr, float v)
{
#if GK_SM90A
    asm volatile("st.shared.f32 [%0], %1;\n" ::"r"(addr), "f"(v) : "memory");
#endif
}
/* Byte offset of (row r of a pass, column cl of the warpgroup's 64) in its buffer. */
__host__ __device__ constexpr int epi_offset(int r, int cl)
{
    return (cl >> 5) * kEpiBoxBytes + r * 128 + ((((cl >> 2) & 7) ^ (r & 7)) << 4) + (cl & 3) * 4;
}
/* Recount, over every warp w and (h, e), the most lanes of one staging
 * store that share a bank: its wavefronts. */
template <bool kTB> __host__ __device__ constexpr int epi_store_ways()
{
    int ways = 0;
    for (int w = 0; w < 4; ++w)
        for (int h = 0; h < 2; ++h)
            for (int e = 0; e < 2; ++e) {
                int count[32] = {};
                for (int lane = 0; lane < 32; ++lane) {
                    const int g = lane >> 2, t = lane & 3;
                    ++count[(epi_offset(2 * t + e, col_of<kTB>(16 * w + 8 * h + g)) >> 2) & 31];
                }
                for (int b = 0; b < 32; ++b) ways = count[b] > ways ? count[b] : ways;
            }
    return ways;
}
static_assert(epi_store_ways<false>() == 2 && epi_store_ways<true>() == 1,
              "a staging store: two wavefronts with B as stored (frag_col), one with B stored n x k");
template <int kBM, bool kTB, int kEpi>
__device__ __forceinline__ void store_tile_tma(const float (&d)[kBM / 2], const CUtensorMap *map_c, int z, uint32_t buf,
                                               unsigned m, unsigned n, unsigned bm, unsigned col0, int w, int lane,
                                               int cw, float alpha, const float *bias)
{
    const int g = lane >> 2, t = lane & 3;
    const bool leader = w == 0 && lane == 0;
    const int cl0 = col_of<kTB>(16 * w + g), cl1 = col_of<kTB>(16 * w + 8 + g);
    const unsigned c0 = col0 + (unsigned)cl0, c1 = col0 + (unsigned)cl1;
    const float b0 = kEpi != 0 && c0 < n ? __ldg(bias + c0) : 0.0f, b1 = kEpi != 0 && c1 < n ? __ldg(bias + c1) : 0.0f;
#pragma unroll
    for (int pass = 0; pass < kBM / kEpiRows; ++pass) {
        const unsigned row0 = bm + (unsigned)(pass * kEpiRows);
        if (row0 >= m) break; /* the same for the whole warpgroup */
        if (leader) bulk_wait_read();
        group_sync(cw);
#pragma unroll
        for (int jj = 0; jj < kEpiRows / 8; ++jj) {
            const int j = pass * (kEpiRows / 8) + jj;
#pragma unroll
            for (int e = 0; e < 2; ++e) {
                const int r = 8 * jj + 2 * t + e;
                st_shared_f32(buf + (uint32_t)epi_offset(r, cl0), epilogue_apply<kEpi>(alpha * d[4 * j + e], b0));
                st_shared_f32(buf + (uint32_t)epi_offset(r, cl1), epilogue_apply<kEpi>(alpha * d[4 * j + 2 + e], b1));
            }
        }
        fence_proxy_async();
        group_sync(cw);
        if (leader) {
            tma_store_3d(map_c, buf, (int)col0, (int)row0, z);
            if (col0 + kEpiBoxCols < n) tma_store_3d(map_c, buf + kEpiBoxBytes, (int)(col0 + kEpiBoxCols), (int)row0, z);
            bulk_commit();
        }
    }
}

/* ---- The persistent kernel -------------------------------------------------------- */
/* ---- The ring's invariant (bf16_05's, checked there by a CPU simulation) ----
 * Every thread of a role numbers the k-tiles it handles in one sequence
 * that runs on across the tiles of this CTA: it = (tiles done) * ktiles + kt.
 * k-tile `it` lives in stage it % kStages and is that stage's use
 * u = it / kStages. Then:
 *   full[s]  completes its phase u when use u's bytes have landed
 *            (TMA: 1 arrival, the producer's arrive.expect_tx, then the
 *            bytes; cp.async: the 128 producer threads' arrivals, each
 *            after its copies landed); a consumer waits on parity u & 1;
 *   empty[s] completes its phase u when all 8 consumer warps have released
 *            use u; the producer, before filling use u >= 1, waits on parity
 *            (u - 1) & 1.
 * A parity names a phase unambiguously only if the waiter is never 2
 * phases behind or ahead; it is not: full[s] cannot complete use u + 1
 * before every consumer warp released use u (the producer waits for that),
 * and empty[s] cannot complete use u before the producer filled it. So each
 * consumer warp releases every k-tile exactly once, the last k-tile of a
 * tile included (after its wgmma.wait_group 0), and both roles count `it`
 * on across tiles. The cp.async path keeps this: a producer thread's
 * arrival for use u of a stage (cp.async.mbarrier.arrive.noinc, counted when
 * its copies land) is issued before its wait for that stage's release of
 * use u, so full[s] cannot complete use u + 1 early either; the empty
 * barrier then counts the 256 consumer threads instead of 8 warps. */
/* What a launch computes: gk_gemm_ex's description, resolved by the
 * launcher. A is m x k and K-major (as stored, or the launcher's transposed
 * copy); B is k x n (kTB false) or stored n x k (kTB true). Strides in
 * elements, 0 for an operand that every product shares (and for one product). */
struct Args {
    const float *a, *b, *bias;
    float *c;
    size_t lda, ldb, ldc, sa, sb, sc;
    unsigned m, n, k, tiles_m, tiles_n, batch;
    float alpha, beta;
    int epi; /* 0 none, 1 bias, 2 bias + ReLU, 3 bias + GELU */
    bool c_vec; /* kTC: C's rows (and batch stride) allow 8-byte pairs */
    bool c_tma; /* beta = 0 and map_c addresses C (TMA path, not kTC): the TMA store (store_tile_tma) */
};

/* Tile t of the walk: product z = t / (tiles_m tiles_n), then the grouped
 * order inside the product. */
template <int kBM> __device__ __forceinline__ void tile_of(unsigned t, const Args &p, unsigned *z, unsigned *bm, unsigned *bn)
{
    const unsigned per = p.tiles_m * p.tiles_n;
    *z = t / per;
    tile_origin<kGroupM, kBM, kBN>(t - *z * per, p.tiles_m, p.tiles_n, bm, bn);
}

/* kTB: B stored n x k (the K-major B slab); kTC: store the tile transposed
 * (store_tile_t; the launcher's op_a = op_b = T, with A and B swapped). */
template <int kBM, bool kTma, bool kTB, bool kTC>
__global__ void __launch_bounds__(kThreads, 1)
gemm_tf32_persistent(const __grid_constant__ CUtensorMap map_a, const __grid_constant__ CUtensorMap map_b,
                     const __grid_constant__ CUtensorMap map_c,
                     const Args p)
{
#ifdef __CUDA_ARCH_FEAT_SM90_ALL
    extern __shared__ __align__(128) unsigned char smem[];
    constexpr int kStages = Geo<kBM>::kStages, kABytes = Geo<kBM>::kABytes, kAcc = Geo<kBM>::kAcc;
    /* The slabs, then the barriers (ring_layout; kSmemBytes holds the slack):
     * empty[s] is "the consumers are done with stage s". */
    const Ring ring = ring_layout<kStages, kABytes, kBBytes, kEpiBytes>(smem);
    const uint32_t as0 = ring.as0, bs0 = ring.bs0, full0 = ring.full0, empty0 = ring.empty0;

    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int wg = warp >> 2; /* 0: the producer; 1, 2: the consumers */
    const unsigned m = p.m, n = p.n, k = p.k;
    const unsigned ktiles = (k + kBK - 1) / kBK;           /* >= 1: the launcher sends k = 0 to gemm_tf32_scale_c */
    const unsigned tiles = p.tiles_m * p.tiles_n * p.batch; /* <= 2^31 - 1 (the launcher checks) */

    if (tid == 0) {
        /* full: TMA, the producer's arrive.expect_tx, then the bytes;
         * cp.async, one arrival per producer thread. empty: see release_stage. */
        init_ring<kStages>(full0, empty0, Mode<kTma>::kFullCount, Mode<kTma>::kEmptyCount);
        if (kTma) {
            prefetch_tensormap(&map_a);
            prefetch_tensormap(&map_b);
        }
    }
    /* The barriers are initialized before any thread waits on them: the
     * only block-wide barrier of the kernel; the roles split below. */
    __syncthreads();

    if (wg == 0) {
        /* ---- Producer warpgroup: walks this CTA's tiles (t = blockIdx.x,
         * + gridDim.x, ...) and their k-tiles in one sequence. It never
         * waits for an epilogue: when the consumers release a tile's last
         * stages, it is already waiting to fill them with the next tile's
         * first k-tiles. */
        setmaxnreg_dec<Mode<kTma>::kProducerRegs>();
        if (kTma) {
            /* One thread issues everything; the other 127 are done. */
            if (tid == 0) {
                unsigned it = 0; /* the ring position: never reset between tiles */
                for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x) {
                    unsigned z, bm, bn;
                    tile_of<kBM>(t, p, &z, &bm, &bn);
                    const int panels = n - bn >= (unsigned)kBN ? kPanels : (int)((n - bn + kPanelCols - 1) / kPanelCols); /* inside n */
                    const int za = p.sa != 0 ? (int)z : 0, zb = p.sb != 0 ? (int)z : 0;
                    for (unsigned kt = 0; kt < ktiles; ++kt, ++it) {
                        const int slab = (int)(it % kStages);
                        /* Use it / kStages of the stage: its previous use is
                         * released by all 8 consumer warps (phase
                         * it / kStages - 1 of the empty barrier). The first
                         * kStages uses find the stages empty. */
                        if (it >= (unsigned)kStages) mbar_wait(empty0 + 8 * slab, (it / kStages - 1) & 1u);
                        load_stage_tma<kBM, kTB>(&map_a, &map_b, as0 + slab * kABytes, bs0 + slab * kBBytes,
                                            full0 + 8 * slab, kt, bm, bn, panels, za, zb);
                    }
                }
            }
            /* The TMA completes the copies on its own, and the block lives
             * on while the consumers run. */
            return;
        }
        /* cp.async: all 128 producer threads walk the same sequence, each
         * copying its share of every stage and never waiting for its own
         * copies: cp.async.mbarrier.arrive.noinc makes the stage's full
         * barrier count this thread's arrival when they have landed (128
         * arrivals complete the phase). The consumers round A and fence it
         * to the async proxy (consume_ktile). */
        unsigned it = 0;
        for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x) {
            unsigned z, bm, bn;
            tile_of<kBM>(t, p, &z, &bm, &bn);
            const float *const a = p.a + (size_t)z * p.sa, *const b = p.b + (size_t)z * p.sb;
            for (unsigned kt = 0; kt < ktiles; ++kt, ++it) {
                const int slab = (int)(it % kStages);
                /* As the TMA producer: the stage's previous use is released. */
                if (it >= (unsigned)kStages) mbar_wait(empty0 + 8 * slab, (it / kStages - 1) & 1u);
                load_stage_cp_async<kBM, kTB>(as0 + slab * kABytes, bs0 + slab * kBBytes, a, p.lda, b, p.ldb, m, n, k, kt,
                                         bm, bn, tid);
                cp_async_mbar_arrive(full0 + 8 * slab);
            }
        }
        cp_async_wait<0>(); /* no copy of this thread outlives it */
        return;
    }

    /* ---- Consumer warpgroups: columns 64 cw .. 64 cw + 63 of each tile
     * (the wgmma's M'), all 256 rows (its N'). */
    setmaxnreg_inc<Mode<kTma>::kConsumerRegs>();
    const int cw = wg - 1, w = warp & 3, q = tid - 128; /* q: 0 .. 255 among the consumer threads */
    /* This thread's fragment addresses in stage 0's B slab (frag_addresses). */
    const FragAddr fa = frag_addresses<kTB>(bs0, cw, w, lane);
    float d[kAcc];
    uint32_t f0[kFrag], f1[kFrag]; /* the two fragment sets: even and odd k-tiles of a tile */
#pragma unroll
    for (int i = 0; i < kFrag; ++i) f0[i] = f1[i] = 0u;
    unsigned it = 0; /* the same sequence as the producer's */
    for (unsigned t = blockIdx.x; t < tiles; t += gridDim.x) {
        unsigned z, bm, bn;
        tile_of<kBM>(t, p, &z, &bm, &bn);
        /* A fresh tile: zero the accumulators. The epilogue of the previous
         * tile read them after wgmma.wait_group 0 (no wgmma in flight), and
         * acc_fence in consume_ktile orders these writes before the next wgmma. */
#pragma unroll
        for (int i = 0; i < kAcc; ++i) d[i] = 0.0f;

        /* Unrolled by 2: even k-tiles use set f0, odd ones f1, so that each
         * set is rewritten only after the wait_group that retired its
         * readers. The odd last k-tile (f0) comes after the loop, not as a
         * conditional second half inside it: then no path through the code,
         * feasible or not, runs two f0 k-tiles in a row (ptxas checks every
         * path, and serializes all the wgmma if one rewrites a set still in
         * flight). */
        unsigned kt = 0;
        for (; kt + 1 < ktiles; kt += 2) {
            consume_ktile<kBM, kTma, kTB>(d, f0, f1, as0, fa, full0, empty0, it, kt > 0, lane, q);
            ++it;
            consume_ktile<kBM, kTma, kTB>(d, f1, f0, as0, fa, full0, empty0, it, true, lane, q);
            ++it;
        }
        if (kt < ktiles) {
            consume_ktile<kBM, kTma, kTB>(d, f0, f1, as0, fa, full0, empty0, it, kt > 0, lane, q);
            ++it;
        }
        wgmma_wait<0>(); /* every wgmma done: the accumulators are final, both sets free ... */
        acc_fence(d);
        frag_fence(f0);
        frag_fence(f1);
        /* ... and the tile's last stage is free: released now, before the
         * epilogue, so that the producer refills it with the next tile's
         * k-tiles while this warp stores. (`it` is past the last k-tile.) */
        release_stage<kTma>(empty0 + 8 * (int)((it - 1) % kStages), true, lane);

        /* The epilogue from registers, while the next tile's first k-tiles
         * land; gk_gemm_ex's epilogue picked once per tile (p.epi is the
         * same for every thread). */
        float *const c = p.c + (size_t)z * p.sc;
        const unsigned col0 = bn + 64 * cw;
        const uint32_t ebuf = ring.extra + (uint32_t)(cw * kEpiGroupBytes);
        const int zc = p.sc != 0 ? (int)z : 0;
        if constexpr (kTC) {
            switch (p.epi) {
            case 0: store_tile_t<kBM, 0>(d, c, p.ldc, m, n, bm, col0, w, lane, p.alpha, p.beta, p.bias, p.c_vec); break;
            case 1: store_tile_t<kBM, 1>(d, c, p.ldc, m, n, bm, col0, w, lane, p.alpha, p.beta, p.bias, p.c_vec); break;
            case 2: store_tile_t<kBM, 2>(d, c, p.ldc, m, n, bm, col0, w, lane, p.alpha, p.beta, p.bias, p.c_vec); break;
            default: store_tile_t<kBM, 3>(d, c, p.ldc, m, n, bm, col0, w, lane, p.alpha, p.beta, p.bias, p.c_vec); break;
            }
        } else if (kTma && p.c_tma) { /* (only the TMA path has map_c: the other compiles without this) */
            switch (p.epi) {
            case 0: store_tile_tma<kBM, kTB, 0>(d, &map_c, zc, ebuf, m, n, bm, col0, w, lane, cw, p.alpha, p.bias); break;
            case 1: store_tile_tma<kBM, kTB, 1>(d, &map_c, zc, ebuf, m, n, bm, col0, w, lane, cw, p.alpha, p.bias); break;
            case 2: store_tile_tma<kBM, kTB, 2>(d, &map_c, zc, ebuf, m, n, bm, col0, w, lane, cw, p.alpha, p.bias); break;
            default: store_tile_tma<kBM, kTB, 3>(d, &map_c, zc, ebuf, m, n, bm, col0, w, lane, cw, p.alpha, p.bias); break;
            }
        } else {
            switch (p.epi) {
            case 0: store_tile<kBM, kTB, 0>(d, c, p.ldc, m, n, bm, col0, w, lane, p.alpha, p.beta, p.bias); break;
            case 1: store_tile<kBM, kTB, 1>(d, c, p.ldc, m, n, bm, col0, w, lane, p.alpha, p.beta, p.bias); break;
            case 2: store_tile<kBM, kTB, 2>(d, c, p.ldc, m, n, bm, col0, w, lane, p.alpha, p.beta, p.bias); break;
            default: store_tile<kBM, kTB, 3>(d, c, p.ldc, m, n, bm, col0, w, lane, p.alpha, p.beta, p.bias); break;
            }
        }
    }
    /* The TMA stores read this CTA's shared memory until they complete. */
    if (kTma && p.c_tma && w == 0 && lane == 0) bulk_wait_all();
#else
    sm90a_stub(p.m, p.n); /* not compiled for sm_90a: a stub, never launched (sm90.cuh) */
#endif
}

/* ---- k = 0: C = epilogue(beta * C) ------------------------------------------------------
 * No product to add; with beta = 0 the value is 0 and C is never read (NaN
 * in C does not leak). Grid-stride over the batch x m x n elements, size_t
 * indexing; the epilogue's bias by column. */
template <int kEpi> __device__ __forceinline__ void scale_one(float *q, float beta, float bias)
{
    *q = epilogue_apply<kEpi>(beta == 0.0f ? 0.0f : beta * *q, bias);
}
__global__ void __launch_bounds__(256) gemm_tf32_scale_c(const Args p)
{
    const size_t m = p.m, n = p.n, per = m * n, total = per * p.batch; /* < 2^62 elements (gk_gemm_ex checks) */
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += stride) {
        const size_t z = i / per, in = i - z * per, row = in / n, col = in - row * n;
        float *const q = p.c + z * p.sc + row * p.ldc + col;
        const float bias = p.epi != 0 ? p.bias[col] : 0.0f;
        switch (p.epi) {
        case 0: scale_one<0>(q, p.beta, bias); break;
        case 1: scale_one<1>(q, p.beta, bias); break;
        case 2: scale_one<2>(q, p.beta, bias); break;
        default: scale_one<3>(q, p.beta, bias); break;
        }
    }
}

typedef void (*Kernel)(const CUtensorMap, const CUtensorMap, const CUtensorMap, const Args);

/* A's transposed copy when op_a = T (the workspace's start), and its size. */
inline TransposedCopy a_copy(int op_a, size_t m, size_t k, size_t batch, size_t stride_a)
{
    TransposedCopy t = transposed_copy(k, m, batch, stride_a); /* A stored k x m -> m x k */
    if (op_a == 0) t.bytes = 0;
    return t;
}

/* One layout's launch at tile height kBM: the TMA path where both
 * operands' rows (and the products' strides) are 16-byte aligned and the
 * driver takes the maps, else the cp.async path. The caller has checked
 * that kBM's tiles number at most 2^31 - 1 over the products (pick_bm). */
template <int kBM, bool kTB, bool kTC> cudaError_t launch(int dev, Args p, cudaStream_t stream)
{
    constexpr size_t kSmemBytes = Geo<kBM>::kSmemBytes;
    const size_t m = p.m, n = p.n, k = p.k;
    p.tiles_m = (unsigned)((m + kBM - 1) / kBM);
    p.tiles_n = (unsigned)((n + kBN - 1) / kBN);
    bool tma = tma_addressable(p.a, p.lda, 4) && tma_addressable(p.b, p.ldb, 4) && p.sa % 4 == 0 && p.sb % 4 == 0;
    CUtensorMap map_a, map_b, map_c;
    memset(&map_a, 0, sizeof(map_a)); /* the cp.async instantiation never reads them */
    memset(&map_b, 0, sizeof(map_b));
    memset(&map_c, 0, sizeof(map_c)); /* read only where p.c_tma */
    p.c_tma = false;
    if (tma) {
        PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
        cudaError_t err = get_encode_tiled(&encode);
        if (err != cudaSuccess) return err;
        /* A: m rows of k, one box of 32 k x kBM rows per stage. B: k rows of
         * n, boxes of 32 columns x 32 k-rows (one panel), or (kTB) n rows of
         * k, one box of 32 k x 128 rows. All with the 128-byte swizzle,
         * rounded to TF32 by the TMA; 3D over the products. A map the driver
         * refuses sends the call to the cp.async path. */
        tma = map_batched(encode, &map_a, CU_TENSOR_MAP_DATA_TYPE_TFLOAT32, 4, p.a, m, k, p.lda, p.sa != 0, p.batch,
                          p.sa, kBK, kBM) == cudaSuccess &&
              map_batched(encode, &map_b, CU_TENSOR_MAP_DATA_TYPE_TFLOAT32, 4, p.b, kTB ? n : k, kTB ? k : n, p.ldb,
                          p.sb != 0, p.batch, p.sb, kTB ? kBK : kPanelCols, kTB ? kBN : kBK) == cudaSuccess;
        /* C through the TMA store where beta = 0 (C is never read) and its
         * rows are whole 16-byte units: boxes of 32 columns x 64 rows
         * (FLOAT32: stored as computed), 3D over the products. */
        p.c_tma = tma && !kTC && p.beta == 0.0f && tma_addressable(p.c, p.ldc, 4) && p.sc % 4 == 0 &&
                  map_batched(encode, &map_c, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, p.c, m, n, p.ldc, p.sc != 0,
                              p.batch, p.sc, kEpiBoxCols, kEpiRows) == cudaSuccess;
    }
    const Kernel kernel =
        tma ? gemm_tf32_persistent<kBM, true, kTB, kTC> : gemm_tf32_persistent<kBM, false, kTB, kTC>;
    cudaError_t err = sm90a_image(kernel);
    if (err != cudaSuccess) return err;
    /* The same constant at every call of this kernel. */
    err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)kSmemBytes);
    if (err != cudaSuccess) return err;
    /* Persistent: as many CTAs as can be resident at once (1 per SM: 230,464
     * bytes of shared memory at kBM = 256, 230,496 and 230,528 at 128 and
     * 64), never more than there are tiles; each walks tiles blockIdx.x, +
     * gridDim.x, ... */
    size_t grid = 0;
    err = resident_grid(kernel, kThreads, kSmemBytes, dev, (size_t)p.tiles_m * p.tiles_n * p.batch, &grid);
    if (err != cudaSuccess) return err;
    kernel<<<(unsigned)grid, kThreads, kSmemBytes, stream>>>(map_a, map_b, map_c, p);
    return cudaGetLastError();
}

/* The tile height for `rows` x `cols` of C over `batch` products on `sms`
 * SMs (header "Narrow tiles"): of kBM = 256, 128 and 64 (down to
 * GK12_MIN_BM), the one with the lowest cost rounds x kBM x w, rounds =
 * ceil(tiles / sms) the rounds of the persistent walk and w = 8, 9 and 16
 * eighths the time of a row of C at that height relative to 256 (measured,
 * header: a 64-row tile takes about twice the time per row of a 256-row
 * one, a 128-row one 1.15 times); ties to the taller tile. Heights whose
 * tiles number more than 2^31 - 1 are not taken. At 1024^3 on 132 SMs:
 * 32, 64 and 128 tiles, one round each, costs 2048, 1152, 1024: 64 rows.
 * At 2048^3: 128, 256 and 512 tiles, costs 2048, 2304, 4096: 256 rows. */
inline int pick_bm(size_t rows, size_t cols, size_t batch, int sms)
{
    const size_t tiles_n = (cols + kBN - 1) / kBN, per_sm = sms > 0 ? (size_t)sms : 1;
    int best = 256;
    size_t best_cost = (size_t)-1;
    for (int bm = 256; bm >= GK12_MIN_BM; bm /= 2) {
        const size_t tiles_m = (rows + bm - 1) / bm;
        if (tiles_m * tiles_n > 0x7fffffffu || tiles_m * tiles_n * batch > 0x7fffffffu) break;
        const size_t w = bm == 256 ? 8 : bm == 128 ? 9 : 16;
        const size_t cost = (tiles_m * tiles_n * batch + per_sm - 1) / per_sm * (size_t)bm * w;
        if (cost < best_cost) best = bm, best_cost = cost;
    }
    return best;
}

/* One layout's launch at the height pick_bm gives it. */
template <bool kTB, bool kTC> cudaError_t launch_any(int dev, const Args &p, cudaStream_t stream)
{
    int sms = 0;
    const cudaError_t err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (err != cudaSuccess) return err;
    switch (pick_bm(p.m, p.n, p.batch, sms)) {
    case 64: return launch<64, kTB, kTC>(dev, p, stream);
    case 128: return launch<128, kTB, kTC>(dev, p, stream);
    default: return launch<256, kTB, kTC>(dev, p, stream);
    }
}

} // namespace

/* The copies this rung makes in the workspace: A's transposed copy when
 * op_a = T and op_b = N (its rows padded to 16 bytes), else A's padded copy
 * where its rows (or batch stride) are not whole 16-byte units; B's padded
 * copy likewise, from the next 256-byte boundary. */
struct Copies12 {
    TransposedCopy t; /* A transposed (t.bytes 0: none) */
    PaddedCopy a, b;  /* A and B padded as stored (needed: made) */
    size_t b_at, bytes; /* B's copy's offset; the total, (size_t)-1 at 2^62 bytes or more */
};
inline Copies12 copies12(int op_a, int op_b, size_t m, size_t n, size_t k, size_t batch, size_t stride_a,
                         size_t stride_b, size_t lda, size_t ldb)
{
    Copies12 c;
    c.t = a_copy(op_a != 0 && op_b == 0 ? 1 : 0, m, k, batch, stride_a);
    c.a = padded_copy(op_a ? k : m, op_a ? m : k, lda, batch, stride_a, 4);
    c.b = padded_copy(op_b ? n : k, op_b ? k : n, ldb, batch, stride_b, 4);
    if (c.t.bytes != 0 || (op_a != 0 && op_b == 0)) c.a.needed = false, c.a.bytes = 0; /* the transposed copy pads */
    if (m == 0 || n == 0 || k == 0) c.a.needed = c.b.needed = false, c.a.bytes = c.b.bytes = 0;
    const size_t limit = (size_t)1 << 62;
    const bool t_over = op_a != 0 && op_b == 0 && c.t.bytes == 0 && m != 0 && k != 0;
    const size_t a_bytes = c.t.bytes != 0 ? (c.t.bytes + 255) / 256 * 256 : c.a.bytes;
    c.b_at = a_bytes;
    c.bytes = t_over || c.a.bytes == (size_t)-1 || c.b.bytes == (size_t)-1 || a_bytes >= limit ||
                      c.b.bytes >= limit - a_bytes
                  ? (size_t)-1
                  : a_bytes + c.b.bytes;
    return c;
}

/* The workspace gk_gemm_ex asks for (gemm/variants.h): copies12's total. */
extern "C" size_t gk_gemm_12_tf32_wgmma_scratch(int op_a, int op_b, size_t m, size_t n, size_t k, size_t batch,
                                               size_t stride_a, size_t stride_b, size_t lda, size_t ldb)
{
    return copies12(op_a, op_b, m, n, k, batch, stride_a, stride_b, lda, ldb).bytes;
}

/* gk_gemm_ex's entry point (gemm/variants.h: gk_gemm_ex_run_fn): fp32
 * storage; op_b = T natively (kTB); both transposed as C^T = B A with the
 * tile stored transposed (kTC); op_a = T alone through A's transposed copy
 * in the workspace (sized by gk_gemm_12_tf32_wgmma_scratch); batches in the
 * persistent walk; the epilogue in store_tile. */
extern "C" cudaError_t gk_gemm_12_tf32_wgmma_run_ex(int type, int op_a, int op_b, size_t m, size_t n, size_t k,
                                                    float alpha, const void *av, size_t lda, size_t stride_a,
                                                    const void *bv, size_t ldb, size_t stride_b, float beta, void *cv,
                                                    size_t ldc, size_t stride_c, size_t batch, int epilogue,
                                                    const void *bias, void *workspace, cudaStream_t stream)
{
    if (type != 0) return cudaErrorNotSupported; /* fp32 storage only */
    /* wgmma is specific to compute capability 9.0 (sm_90a code runs there only). */
    int dev = 0;
    cudaError_t err = require_cc(9, 0, &dev);
    if (err != cudaSuccess) return err;
    /* The stub image (a build without sm_90a): nothing is launched, k = 0 included. */
    err = sm90a_image(gemm_tf32_persistent<256, true, false, false>);
    if (err != cudaSuccess) return err;

    /* The tallest tiles (256 rows) number at most 2^31 - 1 over the
     * products, in either orientation (pick_bm takes a narrower height
     * only where its tiles do too). */
    const size_t tiles_mn = ((m + 255) / 256) * ((n + kBN - 1) / kBN), tiles_nm = ((n + 255) / 256) * ((m + kBN - 1) / kBN);
    if (batch > 0x7fffffffu || tiles_mn > 0x7fffffffu || tiles_mn * batch > 0x7fffffffu ||
        (op_a != 0 && op_b != 0 && (tiles_nm > 0x7fffffffu || tiles_nm * batch > 0x7fffffffu)))
        return cudaErrorInvalidConfiguration;
    Args p;
    memset(&p, 0, sizeof(p));
    p.a = static_cast<const float *>(av);
    p.b = static_cast<const float *>(bv);
    p.c = static_cast<float *>(cv);
    p.bias = static_cast<const float *>(bias);
    p.lda = lda;
    p.ldb = ldb;
    p.ldc = ldc;
    p.sa = batch > 1 ? stride_a : 0;
    p.sb = batch > 1 ? stride_b : 0;
    p.sc = batch > 1 ? stride_c : 0;
    p.m = (unsigned)m;
    p.n = (unsigned)n;
    p.k = (unsigned)k;
    p.batch = (unsigned)batch;
    p.alpha = alpha;
    p.beta = beta;
    p.epi = epilogue;

    if (k == 0) {
        /* No k-tile: the ring would never turn. C = epilogue(beta * C) instead. */
        int sms = 0;
        err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        if (err != cudaSuccess) return err;
        const size_t total = m * n * batch, want = (total + 255) / 256, cap = (size_t)sms * 16;
        const unsigned blocks = (unsigned)(want < cap ? want : cap);
        gemm_tf32_scale_c<<<blocks, 256, 0, stream>>>(p);
        return cudaGetLastError();
    }
    /* Rows the TMA cannot address, given a workspace (gk_gemm_ex): padded
     * copies first (common.cuh, pad_into), so that the product takes the
     * TMA path; without one (gk_gemm), the cp.async path. */
    const Copies12 cp = workspace != nullptr ? copies12(op_a, op_b, m, n, k, batch, p.sa, p.sb, lda, ldb)
                                             : Copies12{};
    if (workspace != nullptr && cp.a.needed) {
        float *const a2 = static_cast<float *>(workspace);
        err = pad_into<float>(a2, cp.a, p.a, p.lda, p.sa, op_a ? k : m, op_a ? m : k, stream);
        if (err != cudaSuccess) return err;
        p.a = a2, p.lda = cp.a.ld, p.sa = cp.a.stride;
    }
    if (workspace != nullptr && cp.b.needed) {
        float *const b2 = reinterpret_cast<float *>(static_cast<unsigned char *>(workspace) + cp.b_at);
        err = pad_into<float>(b2, cp.b, p.b, p.ldb, p.sb, op_b ? n : k, op_b ? k : n, stream);
        if (err != cudaSuccess) return err;
        p.b = b2, p.ldb = cp.b.ld, p.sb = cp.b.stride;
    }
    if (op_a != 0 && op_b != 0) {
        /* Both transposed: C^T = B_stored A_stored, with B stored n x k as
         * this kernel's K-major A (n rows) and A stored k x m as its B (k
         * rows of m, B^T's register side, as in the default layout); the
         * tile is stored transposed (store_tile_t). No copy. */
        Args q = p;
        q.a = p.b, q.lda = p.ldb, q.sa = p.sb;
        q.b = p.a, q.ldb = p.lda, q.sb = p.sa;
        q.m = p.n, q.n = p.m;
        q.c_vec = ((uintptr_t)p.c & 7u) == 0 && ldc % 2 == 0 && p.sc % 2 == 0;
        return launch_any<false, true>(dev, q, stream);
    }
    if (op_a != 0) {
        /* TF32 wgmma reads its shared-memory operand K-major only (no
         * transpose bits), and op_b = N already takes the register side: A
         * stored k x m is first copied transposed, m x k with rows padded
         * to 16 bytes, into the workspace (one copy per product that has
         * its own A), and the product reads that copy. */
        const TransposedCopy t = a_copy(op_a, m, k, batch, p.sa);
        float *const a2 = static_cast<float *>(workspace);
        err = transpose_into(a2, t, p.a, lda, p.sa, k, m, dev, stream);
        if (err != cudaSuccess) return err;
        p.a = a2;
        p.lda = t.ld;
        p.sa = t.stride;
    }
    return op_b != 0 ? launch_any<true, false>(dev, p, stream) : launch_any<false, false>(dev, p, stream);
}

/* gk_gemm's entry point: as stored, one product, no epilogue. */
extern "C" cudaError_t gk_gemm_12_tf32_wgmma_run(size_t m, size_t n, size_t k, float alpha, const float *a,
                                                 size_t lda, const float *b, size_t ldb, float beta, float *c,
                                                 size_t ldc, cudaStream_t stream)
{
    return gk_gemm_12_tf32_wgmma_run_ex(0, 0, 0, m, n, k, alpha, a, lda, 0, b, ldb, 0, beta, c, ldc, 0, 1, 0, nullptr,
                                        nullptr, stream);
}
