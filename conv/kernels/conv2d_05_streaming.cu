/* 2D variant 5 (id 12): streaming for small masks. Each warp walks down a
 * strip of 128 columns, its input rows queued into a ring in shared memory
 * by cp.async, its outputs summed in registers over a rolling window of
 * mask_rows rows, one kernel compiled per mask shape.
 *
 * The idea. With a small mask a 2D convolution is a stream: k = m_r m_c
 * FMAs per output (9 at 3 x 3, 49 at 7 x 7) against 4 bytes read and 4
 * written, k / 4 FLOP/B, left of the roofline's knee (about 18 FLOP/B on an
 * H100, k = 72). Its time should be the time to move the bytes, so the
 * kernel must (a) keep enough loads in flight to fill DRAM's pipeline,
 * (b) read each input from DRAM about once, in wide coalesced accesses,
 * and (c) spend few issue slots per output beyond the FMAs, so that 7 x 7
 * (49 FMAs per 8 bytes) still keeps up with DRAM. A tile kernel (variants
 * 3 and 4) loads a tile, waits at a barrier, computes, and only then loads
 * the next: while a block computes it has no load in flight. Here a warp's loads run ahead of
 * its arithmetic, and the one barrier per group of rows (step 11) waits for
 * no load.
 *
 * What the kernel does (mask m_r x m_c, both <= 9):
 *   1. Work. A strip is 128 consecutive output columns, 4 per lane (lane l:
 *      columns 4 l .. 4 l + 3 of the strip). The 8 warps of a block take 8
 *      neighbouring strips over the same rows, so that a block reads and
 *      writes 4 KB of each image row together; the grid is one resident
 *      wave (resident_grid) and every block takes one share of rows of one
 *      group of 8 strips, the shares as equal as the rows allow, so no
 *      block waits on a last, partly empty round of tiles. Which block
 *      takes which share is step 9.
 *   2. The ring. Each warp owns kDepth rows of 136 floats in shared memory
 *      (4 ghost-or-halo columns left of the strip, its 128, 4 right of it);
 *      kDepth is the smallest multiple of m_r that is at least 6 (6 at 3 x 3,
 *      10 at 5 x 5, 7 at 7 x 7), so every ring slot and every accumulator
 *      row below is a compile-time index in a loop unrolled by kDepth rows.
 *      Input row r goes to slot r % kDepth as one 16-byte cp.async per lane
 *      (LDGSTS: global to shared without a register), plus one by lane 0 for
 *      the 4 columns left of the strip and one by lane 31 for the 4 right of
 *      it when the mask reaches them; rows and columns outside the image are
 *      zero-filled by the copy itself (source size 0: nothing read). Before
 *      row r is used the warp waits until at most kDepth - 2 of its groups
 *      are pending, then queues row r + kDepth - 1: kDepth - 2 to kDepth - 1
 *      rows of up to 544 bytes in flight behind the row in use (4-5 rows at
 *      3 x 3, 8-9 at 5 x 5, 5-6 at 7 x 7). A __syncwarp between the wait and
 *      the queueing makes every lane's copies visible and frees the slot of
 *      row r - 1 that row r + kDepth - 1 takes.
 *   3. The window. Each lane reads its 4 inputs of the row and the 4 on
 *      either side as three 16-byte shared loads (LDS.128; lanes read 16
 *      consecutive bytes each, 512 per warp: 4 wavefronts, no bank
 *      conflict); the left and right loads are skipped when m_c leaves no
 *      halo on that side.
 *   4. Rolling accumulators. Input row r feeds output row j = r - a through
 *      mask row a, a = 0 .. m_r - 1. Output row j lives in acc[j % m_r][0..3]
 *      until its last input row r = j + m_r - 1 has been added; then it is
 *      stored (one 16-byte store, a plain write-back one: see step 9) and
 *      the slot is reused by the output row m_r below it, whose
 *      first product overwrites it (an FMUL, no zeroing). Each input row is
 *      thus read from shared memory once and used for all m_r output rows
 *      it touches; the taps come as 16-byte broadcasts (every lane reads
 *      the same address), m_r ceil(m_c / 4) per row, padded with zeros that
 *      are never multiplied (a zero tap times an Inf input would be NaN),
 *      or, for masks of 36 taps or more, from registers (step 10).
 *      At the two ends of a share the sums for the m_r - 1 output rows
 *      beyond it are computed and dropped, and m_r - 1 input rows are read
 *      again by the neighbouring share: a share is 167 to 249 rows at 8192
 *      x 8192.
 *   5. One kernel per shape: the tap loops and the ring are unrolled for
 *      m_r and m_c (1 .. 9 each: 81 shapes, and each in two forms below).
 *      A halo of at most 4 columns on each side (m_c <= 9) is what one
 *      16-byte neighbour vector holds; wider masks go to variant 6.
 *   6. Alignment. When in, out and both strides are multiples of 16 bytes
 *      and cols of 4, every lane's 4 columns are wholly inside a row or
 *      wholly outside it, and the copies and stores are 16 bytes; otherwise
 *      the other form of the kernel copies and stores 4 bytes per element
 *      (the same ring and arithmetic). Nothing outside [0, cols) of a row is
 *      read or written, nor the padding between rows.
 *   7. Alignment in shared memory. A warp's copy of a row is 512 bytes that
 *      start on a 32-byte boundary in global memory (a row of an image from
 *      cudaMalloc with a stride of whole 32-byte sectors) and land 16 bytes
 *      into a ring row. Where that ring row itself starts 16 bytes past a
 *      32-byte boundary, the copy crosses the sectors of shared memory 16
 *      bytes out of step with those of its source, and the L2 serves every
 *      sector twice. An earlier build let the compiler place the rings: in
 *      its SASS (cuobjdump, CUDA 13.0) they began right after the taps, 48
 *      bytes into the block's shared memory at 3 x 3 (strips on 32-byte
 *      boundaries), 160 at 5 x 5 and 224 at 7 x 7 (16 bytes off). Nsight
 *      Compute counted 9.5 million L2 sectors read at 3 x 3 and 18.0 and
 *      18.2 million at 5 x 5 and 7 x 7, for the same 275-279 MB from DRAM.
 *      So the rings now start 16 bytes past a 128-byte boundary (ring_raw):
 *      every ring row is 544 bytes, a multiple of 32, and every strip starts
 *      on a 32-byte boundary. Measured on an H200 (2026-11-28, gk_bench,
 *      8192 x 8192, cold L2, medians, the two builds twice in alternation):
 *      5 x 5 0.1664 and 0.1658 ms before, 0.1547 and 0.1552 after (77.7% ->
 *      83.5% of the device copy's 0.1293 ms), the L2 sectors 18.0 -> 9.55
 *      million; 7 x 7 0.1860 and 0.1856 -> 0.1843 and 0.1839 ms (9.64
 *      million sectors; instruction issue bounds it, below); 3 x 3 the same
 *      (0.1552, 0.1549 -> 0.1553, 0.1557). Rows whose source starts 16 bytes
 *      off a 32-byte boundary (a stride of an odd number of 16-byte units)
 *      still cross out of step. With the rings aligned, 3 x 3 and 5 x 5
 *      both stay at 83-84% of the copy on the H200; more rows in flight at
 *      3 x 3 (rings of 9 rows, 7-8 in flight) and 4 blocks per SM there (64
 *      registers, no spills) took 0.1540 and 0.1544-0.1545 ms against
 *      0.1550-0.1552 (the same run, twice each), too little to keep.
 *   8. Full groups. The loop runs kDepth rows at a time (one ring's worth,
 *      so that every slot and accumulator index is a constant). A group
 *      whose rows all finish an output row (none of the first m_r - 1),
 *      all exist (none past the share's end) and all queue a row inside
 *      the image takes a second copy of the unrolled rows with none of
 *      those tests: the row's address is used as it is, with no select
 *      against rows outside the image, and every row stores. Only the
 *      first group of a share and its last one or two (whose rows queue
 *      rows past the share) take the general copy. The cost is
 *      code (two unrolled copies) and registers (below); 3 x 3 is held at
 *      80 registers (__launch_bounds__ with 3 blocks) so that it keeps 3
 *      blocks per SM. Measured on the H200 (2026-11-28, the same method as
 *      step 7, the builds before and after twice each): 7 x 7 0.1832 and
 *      0.1835 -> 0.1810 and 0.1812 ms, 9 x 9 0.3515 and 0.3528 -> 0.3224
 *      and 0.3223, 1 x 1 0.1469 and 0.1467 -> 0.1433 and 0.1433, 5 x 5
 *      0.1549 and 0.1548 -> 0.1546 and 0.1546, 3 x 3 0.1552 and 0.1552 ->
 *      0.1557 and 0.1560 (conv/tuning/align-h200/).
 *   9. Row bands. The launcher trims the grid to a multiple of the number
 *      of groups G (at most G - 1 blocks fewer: 392 of 396 at 3 x 3 on 8192
 *      columns, G = 8), and block b takes group b % G and share b / G of
 *      its rows: the G blocks b - b % G .. b - b % G + G - 1 start on the
 *      same row of every group and walk down together, reading and writing
 *      whole image rows (32 KB at 8192 columns) where each block alone
 *      reads 4 KB. (With fewer blocks than groups, on images wider than 8
 *      x 128 columns per block, a block takes an equal share of the
 *      (group, row) pairs in order instead.) The earlier order gave block
 *      b the b-th share of the pairs taken group by group, so that the
 *      blocks at work at one time read 4 KB pieces of 33 to 50 rows of
 *      each group, far apart. Measured on the H200 (2026-11-28, 8192 x
 *      8192, the two orders alternated, twice each; cold L2, medians):
 *      3 x 3 0.1558 and 0.1556 -> 0.1521 and 0.1520 ms (85.0% of the
 *      copy), 5 x 5 0.1547 and 0.1547 -> 0.1534 and 0.1530 (84.3-84.5%),
 *      7 x 7 0.1810 and 0.1807 -> 0.1759 and 0.1756 (73.6%), 9 x 9 0.3236
 *      and 0.3226 -> 0.3186 and 0.3184, 1 x 1 0.1432 and 0.1433 -> 0.1438
 *      and 0.1436 (conv/tuning/align-h200/, with 4096 x 16384 too). With
 *      the bands, 3 blocks per SM at 5 x 5 too (80 registers, 8 bytes of
 *      stack) took 0.1559 and 0.1560 ms against 0.1534 and 0.1534 in one
 *      more run, and the taps in registers at 5 x 5 (107 registers, 10
 *      fewer LDS.128 a row) 0.1530 and 0.1531 against 0.1531 and 0.1531 in
 *      another; neither was kept. With the bands, evict-first stores of
 *      the output (st.global.cs, which this kernel used until then: the
 *      output is not read again) cost time against plain write-back ones
 *      (st.global.wb) or ones cached in L2 only (st.global.cg): 0.1524 and
 *      0.1526 ms at 3 x 3 against 0.1511-0.1513, 0.1535 and 0.1536 at 5 x
 *      5 against 0.1517-0.1520, 7 x 7 the same (0.1762-0.1777); the three
 *      builds alternated, twice each. So the stores are write-back now.
 *  10. Taps in registers. For a mask of 36 taps or more (6 x 6 up, and 4 x
 *      9) each lane copies the taps from shared memory into m_r m_c
 *      registers once, after the barrier, and the rows take them from
 *      there: the m_r ceil(m_c / 4) broadcast LDS.128 of each row (14 at 7 x
 *      7) are gone. __launch_bounds__ asks for 2 blocks, so up to 128
 *      registers (7 x 7: 128, no spills), where 112 gave 2 blocks too. A
 *      full row at 7 x 7 is then 221 to 233 instructions, against 235 to
 *      243. Measured on the H200 (2026-11-28, the same method as step 7,
 *      the builds before and after twice each): 7 x 7 0.1764 and 0.1768 ->
 *      0.1584 and 0.1582 ms (73.2-73.3% -> 81.7-81.8% of the copy), 8 x 8
 *      0.2252 and 0.2251 -> 0.1952 and 0.1953, 9 x 9 0.3199 and 0.3207 ->
 *      0.2770 and 0.2755, 6 x 6 0.1534 and 0.1534 -> 0.1520 and 0.1520;
 *      5 x 5 keeps its broadcasts (0.1508-0.1509 ms in both builds).
 *      Nsight Compute counts at 7 x 7 an instruction issued in 86.8% of
 *      each scheduler's active cycles, the FMA pipe busy in 75.3% and
 *      122.8 million warp instructions, against 76.1%, 61.1% and 131.9
 *      million before. The same change timed on an H100 before step 7 had
 *      gained 1% (below). Two more cuts of the 7 x 7 row were timed after
 *      step 10 and not kept (the same method, conv/tuning/forms-h200/
 *      steps_2d_skip_pairs.txt): skipping, in the general copy, the sums
 *      of output rows outside the share (a uniform branch per mask row;
 *      about 2% of a share's FMAs), 0.1584 and 0.1585 ms against 0.1582
 *      and 0.1577, and 5 x 5 slower (0.1538-0.1539 against 0.1519-0.1521);
 *      and, on top of it, a wait and __syncwarp before every second row of
 *      a full group only (4 of 7 at 7 x 7), queueing two rows at a time,
 *      0.1592 and 0.1596 ms at 7 x 7, 0.2027-0.2031 against 0.1947-0.1949
 *      at 8 x 8 (each such wait leaves one or two rows fewer in flight;
 *      whether that is what costs was not profiled).
 *  11. A barrier per group. Until this step nothing but the taps' barrier
 *      tied a block's warps together: each walked its strip at its own
 *      pace. Now the warps of a block meet at a named barrier (bar.sync
 *      1, counting only the warps whose strips exist) at the head of every
 *      group of kDepth rows: one BAR.SYNC per 7 rows at 7 x 7, and no wait
 *      for a load, since the rows already queued stay in flight through it.
 *      Measured on the H200 (2026-11-28, 8192 x 8192, the same method as
 *      step 7, the builds before and after twice each; medians, ms):
 *            mask   before            after             % of the copy after
 *            1 x 1  0.1425  0.1426    0.1428  0.1428    90.5
 *            3 x 3  0.1508  0.1507    0.1487  0.1489    86.8-86.9
 *            5 x 5  0.1514  0.1514    0.1488  0.1489    86.9
 *            6 x 6  0.1531  0.1532    0.1508  0.1509    85.7-85.8
 *            7 x 7  0.1584  0.1580    0.1504  0.1506    85.9
 *            8 x 8  0.1949  0.1956    0.1729  0.1733    74.6-74.7
 *            9 x 9  0.2757  0.2773    0.2300  0.2312    55.9-56.2
 *      and 16384 x 2048 at 7 x 7 0.0881-0.0882 -> 0.0819-0.0820 ms (76.5%
 *      -> 82.2-82.3%). What changed, in Nsight Compute at 7 x 7 with the
 *      clocks left free (one launch each, 1.82-1.83 GHz): 285.8 -> 277.0
 *      thousand cycles; warps waiting for an instruction (the "no
 *      instruction" stall) 0.25 -> 0.06 per issued instruction, waiting at
 *      the barrier 0.01 -> 0.25; an instruction issued in 81.4% -> 84.4% of
 *      the elapsed cycles; DRAM at 69.3% -> 71.8% of its peak. At 5 x 5,
 *      "no instruction" 0.13 -> 0.04, the barrier 0.41, 272.2 -> 261.3
 *      thousand cycles. A reading of those counts, not a proof: a full
 *      group at 7 x 7 is 7 rows of 221 to 233 instructions (below),
 *      and warps at different places in it do not share what the
 *      instruction caches hold, nor, rows apart, the DRAM pages their
 *      loads open. Two forms timed in an earlier run that day and not kept
 *      (with the barrier at masks of 36 taps or more only; each build
 *      twice): one block of 16 warps per SM (the ring in dynamic shared
 *      memory) with the barrier, 0.1500 and 0.1501 ms at 7 x 7 against
 *      0.1504 and 0.1504 with 8 warps; and the 16 warps without it, 0.1702
 *      and 0.1699 (0.1584 and 0.1583 before this step).
 *
 * Counted (cuobjdump -sass, CUDA 13.0, sm_90, the 16-byte form, from one
 * wait for a row to the next): a row of a full group (step 8) is 62 to 67
 * instructions at 3 x 3 (36 FFMA/FMUL), 137 to 147 at 5 x 5 (100) and 235
 * to 243 at 7 x 7 (196, 81-83%), against 74 to 88, 148 to 156 and 248 to 256
 * in the general copy; the rest are the wait and __syncwarp, the LDGSTS of
 * the next row with its address (and, in the general copy, its tests),
 * the 3 window loads, the m_r ceil(m_c / 4) tap loads and the store. With
 * the taps in registers (step 10) a full row at 7 x 7 is 221 to 233 (196,
 * 84-89%). Step 11 adds one BAR.SYNC per group of kDepth rows, at the
 * loop's head. Registers (ptxas): 48, 80 and 94 at 1, 3 and 5 per side
 * (92 at 5 before step 11), 128 at 7 x 7 (112 with the taps in shared
 * memory), no
 * spills; shared memory 8 x kDepth x 544 bytes of ring (26.1 KB at 3 x 3,
 * 43.5 KB at 5 x 5, 30.5 KB at 7 x 7) and the taps. So 3 blocks (24 warps)
 * per SM at 3 x 3, 2 (16 warps) at 5 x 5 and 7 x 7: registers are given
 * to a warp in units of 256, so 94 per thread take 3072 per warp and
 * 24576 per block, and a third block does not fit in 65536 (Nsight
 * Compute's occupancy section, on the build before step 8 with 84
 * registers: a block limit of 2 by registers at 5 x 5).
 *
 * Bound by: DRAM at 3 x 3 (with the halo read twice: 16 bytes per strip
 * edge and row, m_r - 1 rows per share); at 7 x 7 instruction issue. With
 * step 11 (Nsight Compute with the clocks left free, 1.83 GHz, one launch
 * at 8192 x 8192), 7 x 7 issues an instruction in 86.8% of each
 * scheduler's active cycles, 86% of them FFMA (about 106 of the 123.4
 * million, counting the m_r - 1 rows of sums each share computes and
 * drops), with the FMA pipe busy in 75.0% and DRAM at 71.8% of its peak;
 * 5 x 5 issues in 59.9% with DRAM at 76.9%. With step 10 and the clocks
 * locked at base, 7 x 7 had issued in 86.8% too, with DRAM at 56.4%, and 5
 * x 5 in 73.3% with DRAM at 71.1%. On
 * the H200 with steps 7 to 9, before the write-back stores (Nsight
 * Compute, which locks the clocks at base; conv/tuning/align-h200/
 * ncu_bands_*): 3 x 3 has DRAM at 72.3% of
 * its peak, an instruction issued in 38.4% of each scheduler's active
 * cycles and the shared-memory queue (mio throttle) as the first stall
 * reason; 5 x 5 issues in 72.1% of the cycles with DRAM at 71.0%, and 7 x
 * 7 in 76.0% with DRAM at 46.6%, both with "not selected" (a warp ready
 * while another issues) first. On the H100, before steps 7 and 8 (254
 * instructions a row at 7 x 7), it counted 75.6% at 7 x 7 and, at 5 x 5,
 * issue in 50.7% of the cycles, DRAM at 74.2% of its peak and the stalls
 * spread over the shared-memory queue, shared loads (short scoreboard) and
 * selection; 3 blocks per SM there (at most 80 registers) took the same
 * time, 0.2234 ms. (These H100 counts, and the timings that follow, come
 * from the build before step 7, whose L2 served each sector twice at 5 x 5
 * and 7 x 7.) Two changes were timed against this file in
 * one run on an H100 (2026-11-28 06:43 UTC, 8192 x 8192, medians) and not
 * kept: the taps held in registers instead of broadcast from shared memory
 * (14 fewer LDS.128 a row at 7 x 7; 128 registers) took 0.2266 against
 * 0.2292 and 0.2294 ms at 7 x 7, 0.2206 against 0.2205 and 0.2208 at 5 x 5,
 * too little to move either goal; and 8 columns per lane at 5 x 5 and 7 x 7
 * (two groups of 4, 128 columns apart, so the window loads stay
 * conflict-free; 4 warps a block, 127 and 153 registers, 16 and 12 warps
 * per SM), whose SASS at 7 x 7 has 16% fewer instructions per multiply-add
 * (4024 for 2744 FFMA and FMUL, against 2392 for 1372; cuobjdump, CUDA
 * 13.0), was slower: 0.2234 and 0.2232 ms at 5 x 5, 0.2486 and 0.2499
 * at 7 x 7. Measured on an H100 at 8192 x 8192 before step 7 (conv/README.md,
 * the 2D table): 87.3% of the device copy's speed at 3 x 3, 81.7% at 5 x 5,
 * 78.7% at 7 x 7 and 50.2% at 9 x 9; on an H200 with steps 7 to 9 and the
 * write-back stores (above), whose copy is 1.4 times as fast, 85.6% at 3 x
 * 3, 85.2% at 5 x 5, 73.2% at 7 x 7, 40.4% at 9 x 9 and 90.5% at 1 x 1,
 * with step 10 81.7-81.8% at 7 x 7 and 46.7-46.9% at 9 x 9, and with step
 * 11 86.8-86.9% at 3 x 3 and 5 x 5, 85.9% at 7 x 7 and 55.9-56.2% at 9 x
 * 9. Also timed on the
 * H200 with steps 7 to 9 and not kept: two groups of 4 columns per lane,
 * 128 apart, 4 warps a block (to stay within 48 KB of static shared
 * memory) and 128 registers (up to 120 bytes of spill stores): 0.2467 and 0.2463
 * ms against 0.1761 and 0.1764 at 7 x 7, 0.1971 and 0.1991 against 0.1548
 * and 0.1552 at 6 x 6; its two unrolled copies of 7 rows of 392 FMAs no
 * longer fit the instruction cache (Nsight Compute: 2.96 warps per issue
 * waiting for an instruction, against 0.17), and it issued in 57.9% of the
 * cycles.
 *
 * Limits: mask sides <= 9 (the table's max_width). Any image: 64-bit
 * positions and strides, shares of at most 2^30 rows; in and out need only
 * their 4-byte alignment. No workspace, no host synchronisation.
 *
 * Sources: Kirk, Hwu & El Hajj, "Programming Massively Parallel
 * Processors", 4th ed., chapter 7 and the thread-coarsening sections; CUDA
 * C++ Programming Guide, "Asynchronous Data Copies" (cp.async, its groups
 * and zero fill) and "Device Memory Accesses"; PTX ISA, "cp.async".
 *
 * Build alone: nvcc -arch=sm_90 -std=c++17 -c conv2d_05_streaming.cu, next
 * to common.cuh (sm_80 and newer: cp.async).
 */
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include <type_traits> /* std::true_type */
#include <utility>     /* std::index_sequence */

#include "common.cuh" /* ceil_div, resident_grid, copy_async */

namespace {

constexpr unsigned kWarps = 8, kThreads = 32 * kWarps; /* a block: 8 warps on 8 neighbouring strips */
constexpr unsigned kStrip = 4 * 32;                    /* output columns per strip: 4 per lane */
constexpr unsigned kPitch = kStrip + 8;                /* a row in the ring: 4 + 128 + 4 columns */
constexpr int kDepthMin = 6;                           /* rows in a ring: at least this many */
constexpr unsigned kMinRows = 32;                      /* the shortest share of rows worth a block */
constexpr unsigned kMaxSegment = 1u << 30;             /* rows per segment: int counters */
constexpr unsigned kMaxSide = 9;                       /* the table's max_width: halos of <= 4 columns */

/* One 16-byte shared load (LDS.128), in PTX. Its "memory" clobber keeps it
 * after the cp.async wait and the __syncwarp that make its data ready, as
 * they would keep a plain float4 read; ptxas -v shows the same registers
 * either way at 3, 5 and 7 taps per side. */
__device__ __forceinline__ float4 lds128(const float *p)
{
    float4 v;
    asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "r"(smem_addr(p))
                 : "memory");
    return v;
}

__device__ __forceinline__ float comp(const float4 &v, int e) { return e == 0 ? v.x : e == 1 ? v.y : e == 2 ? v.z : v.w; }

template <int MR, int MC, bool Vec>
__global__ void __launch_bounds__(kThreads, MR <= 3 && MC <= 3 ? 3 : MR * MC >= 36 ? 2 : 1)
    conv2d_streaming(const float *__restrict__ in, size_t rows, size_t cols, size_t in_stride,
                     const float *__restrict__ mask, float *__restrict__ out, size_t out_stride, size_t strips)
{
    constexpr int L = MC / 2, RH = MC - 1 - L; /* columns left and right of an output */
    constexpr int MCP = (MC + 3) / 4 * 4;      /* a mask row in shared memory, padded to 16 bytes */
    __shared__ __align__(16) float taps[MR * MCP];
    constexpr int kDepth = MR * ((kDepthMin + MR - 1) / MR); /* rows in a warp's ring: a multiple of MR */
    /* The rings start 16 bytes past a 128-byte boundary, so that each row's
     * strip (16 bytes into the row; rows 544 bytes apart) starts on a 32-byte
     * boundary, as its source does: see "Alignment in shared memory" above. */
    __shared__ __align__(128) float ring_raw[4 + kWarps * kDepth * kPitch];
    for (unsigned k = threadIdx.x; k < MR * MCP; k += kThreads) {
        const unsigned a = k / MCP, b = k % MCP;
        taps[k] = b < MC ? __ldg(mask + a * MC + b) : 0.0f;
    }
    __syncthreads(); /* the taps are in before any warp reads them */
    constexpr bool kRegTaps = MR * MC >= 36; /* step 10: the taps in registers */
    float tr[MR][MCP];                       /* each lane's copy of the taps (step 10) */
    if constexpr (kRegTaps) {
#pragma unroll
        for (int a = 0; a < MR; ++a)
#pragma unroll
            for (int bb = 0; bb < MCP; ++bb) tr[a][bb] = taps[a * MCP + bb];
    }

    const int lane = (int)(threadIdx.x % 32), warp = (int)(threadIdx.x / 32);
    float(*ring)[kPitch] = reinterpret_cast<float(*)[kPitch]>(ring_raw + 4 + warp * kDepth * kPitch);
    /* This block's share of the (group of 8 strips, row) pairs (step 9); warp
     * w takes strip 8 group + w of each. */
    const size_t groups = (strips + kWarps - 1) / kWarps, total = groups * rows, blocks = gridDim.x, b = blockIdx.x;
    size_t start, left;
    if (blocks % groups == 0) {
        /* Row bands (step 9): group b % groups, share b / groups of its rows
         * (per shares a group; any rows % per extra rows go one each to the
         * first shares, so a share may be empty when rows < per). */
        const size_t per = blocks / groups, g = b % groups, si = b / groups;
        start = g * rows + si * (rows / per) + (si < rows % per ? si : rows % per);
        left = rows / per + (si < rows % per ? 1 : 0);
    } else {
        /* Fewer blocks than groups: an equal share of the pairs, in order. */
        start = b * (total / blocks) + (b < total % blocks ? b : total % blocks);
        left = total / blocks + (b < total % blocks ? 1 : 0);
    }
    while (left > 0) {
        const size_t group = start / rows, ys = start % rows;
        size_t n = rows - ys < left ? rows - ys : left;
        if (n > kMaxSegment) n = kMaxSegment;
        start += n, left -= n;
        const size_t strip = group * kWarps + warp;
        if (strip >= strips) continue; /* the last group's missing strips */
        /* The threads that meet at each group's barrier (step 11): the warps
         * of this block whose strips exist in this group of strips. */
        const unsigned meet = 32u * (unsigned)(strips - group * kWarps < kWarps ? strips - group * kWarps : kWarps);
        const long long c = (long long)cols, xs = (long long)(strip * kStrip), x = xs + 4 * lane;
        bool in4[4]; /* column x + e inside the row */
#pragma unroll
        for (int e = 0; e < 4; ++e) in4[e] = x + e < c;
        /* The edges: lane 0 also loads the 4 columns left of the strip, lane 31 the 4 right of it. */
        const long long ex = lane == 0 ? xs - 4 : xs + kStrip;
        const int eslot = lane == 0 ? 0 : 4 + kStrip;
        const bool edge = (lane == 0 && xs > 0 && L > 0) || (lane == 31 && xs + kStrip < c && RH > 0);

        const int nout = (int)n, nin = nout + MR - 1; /* input rows ys - MR / 2 + r, r = 0 .. nin - 1 */
        const long long ylo = (long long)ys - MR / 2;
        const long long is = (long long)in_stride, os = (long long)out_stride;

        /* Queue input row r into ring slot r % kDepth (s, static where the loop
         * is unrolled), one commit group; src: the row's column x. */
        const int rlo = ylo >= 0 ? 0 : (int)-ylo, rhi = (long long)rows - ylo < nin ? (int)((long long)rows - ylo) : nin;
        /* The address of the next row to queue, at column x, as an integer (rows
         * above the image have no address), and the edge's offset from it. */
        uintptr_t next = (uintptr_t)in + (uintptr_t)((ylo * is + x) * (long long)sizeof(float));
        const uintptr_t row_bytes = (uintptr_t)(is * (long long)sizeof(float));
        const long long edelta = ex - x;
        auto issue = [&](const int r, const int s, auto inside) {
            /* inside: a compile-time true when row r is known to lie in the image */
            const bool valid = decltype(inside)::value || (unsigned)(r - rlo) < (unsigned)(rhi - rlo);
            const float *sr = valid ? reinterpret_cast<const float *>(next) : in;
            next += row_bytes;
            float *dst = ring[s];
            if constexpr (Vec) {
                copy_async<16>(dst + 4 + 4 * lane, sr, valid && in4[0]);
                if (edge) copy_async<16>(dst + eslot, valid ? sr + edelta : in, valid);
            } else {
#pragma unroll
                for (int e = 0; e < 4; ++e) copy_async<4>(dst + 4 + 4 * lane + e, valid && in4[e] ? sr + e : in, valid && in4[e]);
                if (edge) {
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        const bool ok = valid && ex + e >= 0 && ex + e < c;
                        copy_async<4>(dst + eslot + e, ok ? sr + edelta + e : in, ok);
                    }
                }
            }
            asm volatile("cp.async.commit_group;" ::: "memory");
        };
#pragma unroll
        for (int r = 0; r < kDepth - 1; ++r) issue(r, r, std::false_type());
        if (lane == 0 && !(xs > 0 && L > 0)) /* no left edge: zeros (ghost columns, or unread) */
            for (int s = 0; s < kDepth; ++s) *reinterpret_cast<float4 *>(&ring[s][0]) = make_float4(0.f, 0.f, 0.f, 0.f);
        if (lane == 31 && !(xs + kStrip < c && RH > 0))
            for (int s = 0; s < kDepth; ++s) *reinterpret_cast<float4 *>(&ring[s][4 + kStrip]) = make_float4(0.f, 0.f, 0.f, 0.f);

        float acc[MR][4]; /* output row j in acc[j % MR] */
        float *po = out + (long long)ys * os + x; /* the next output row to store, at column x */

        /* Input row r (ring slot u = r % kDepth, a compile-time index) with
         * every test the general case needs; kFull: a row known to be past
         * the first MR - 1 (its output row is done), before the last (no
         * end test), and whose queued row r + kDepth - 1 lies in the image
         * (no validity test): the rows of every group of kDepth that the
         * loop below finds wholly inside, which is nearly all of them. */
        auto row = [&](const int r, const int u, auto full) {
            constexpr bool kFull = decltype(full)::value;
            asm volatile("cp.async.wait_group %0;" ::"n"(kDepth - 2) : "memory"); /* row r has landed */
            __syncwarp(); /* ... for every lane, and every lane is done with row r - 1's slot */
            issue(r + kDepth - 1, (u + kDepth - 1) % kDepth, full);
            const float *sl = ring[u] + 4 + 4 * lane;
            float w[L + 4 + RH]; /* this row at columns x - L .. x + 3 + RH */
            const float4 ctr = lds128(sl);
            w[L] = ctr.x, w[L + 1] = ctr.y, w[L + 2] = ctr.z, w[L + 3] = ctr.w;
            if constexpr (L > 0) {
                const float4 lf = lds128(sl - 4);
#pragma unroll
                for (int k = 1; k <= L; ++k) w[L - k] = comp(lf, 4 - k);
            }
            if constexpr (RH > 0) {
                const float4 rt = lds128(sl + 4);
#pragma unroll
                for (int k = 0; k < RH; ++k) w[L + 4 + k] = comp(rt, k);
            }
#pragma unroll
            for (int a = 0; a < MR; ++a) {
                float *o = acc[((u - a) % MR + MR) % MR];
#pragma unroll
                for (int gq = 0; gq < MCP / 4; ++gq) {
                    const float4 m = kRegTaps ? make_float4(tr[a][4 * gq], tr[a][4 * gq + 1], tr[a][4 * gq + 2], tr[a][4 * gq + 3])
                                              : lds128(taps + a * MCP + 4 * gq); /* a broadcast */
#pragma unroll
                    for (int e = 0; e < 4; ++e) {
                        const int bb = 4 * gq + e;
                        if (bb < MC) {
#pragma unroll
                            for (int cc = 0; cc < 4; ++cc)
                                o[cc] = (a == 0 && bb == 0) ? w[cc] * comp(m, e) : fmaf(w[cc + bb], comp(m, e), o[cc]);
                        }
                    }
                }
            }
            const float *d = acc[(u + 1) % MR];
            const bool done = kFull || r >= MR - 1;
            float *const pr = po;
            if (done) po += os;
            if constexpr (Vec) {
                if (done && in4[0]) __stwb(reinterpret_cast<float4 *>(pr), make_float4(d[0], d[1], d[2], d[3]));
            } else {
#pragma unroll
                for (int cc = 0; cc < 4; ++cc)
                    if (done && in4[cc]) pr[cc] = d[cc];
            }
        };
        for (int r0 = 0; r0 < nin; r0 += kDepth) {
            /* The group's rows r0 .. r0 + kDepth - 1 all exist, all finish an
             * output row, and queue rows r0 + kDepth - 1 .. r0 + 2 kDepth - 2,
             * all inside the image: the same for every lane. */
            const bool full = r0 >= MR - 1 && r0 + kDepth <= nin && r0 + kDepth - 1 >= rlo && r0 + 2 * kDepth - 2 < rhi;
            asm volatile("bar.sync 1, %0;" ::"r"(meet) : "memory"); /* step 11: the block's warps keep together */
            if (full) {
#pragma unroll
                for (int u = 0; u < kDepth; ++u) row(r0 + u, u, std::true_type());
            } else {
#pragma unroll
                for (int u = 0; u < kDepth; ++u) {
                    if (r0 + u >= nin) break; /* the same in every lane */
                    row(r0 + u, u, std::false_type());
                }
            }
        }
        asm volatile("cp.async.wait_group 0;" ::: "memory"); /* nothing in flight into the ring */
        __syncwarp();
    }
}

typedef cudaError_t launch_fn(const float *, size_t, size_t, size_t, const float *, float *, size_t, cudaStream_t);

template <int MR, int MC, bool Vec>
cudaError_t launch_as(const float *in, size_t rows, size_t cols, size_t in_stride, const float *mask, float *out,
                      size_t out_stride, cudaStream_t stream)
{
    const size_t strips = ceil_div(cols, kStrip), work = ceil_div(strips, kWarps) * rows;
    unsigned blocks = 0;
    const cudaError_t e = resident_grid(conv2d_streaming<MR, MC, Vec>, kThreads, 0, ceil_div(work, kMinRows), &blocks);
    if (e) return e;
    /* A multiple of the groups where there are at least as many blocks (step 9). */
    const size_t groups = ceil_div(strips, kWarps);
    if (blocks >= groups) blocks -= (unsigned)(blocks % groups);
    conv2d_streaming<MR, MC, Vec><<<blocks, kThreads, 0, stream>>>(in, rows, cols, in_stride, mask, out, out_stride,
                                                                   strips);
    return cudaGetLastError();
}

template <int MR, int MC>
cudaError_t launch(const float *in, size_t rows, size_t cols, size_t in_stride, const float *mask, float *out,
                   size_t out_stride, cudaStream_t stream)
{
    const bool vec = ((uintptr_t)in & 15) == 0 && in_stride % 4 == 0 && ((uintptr_t)out & 15) == 0 &&
                     out_stride % 4 == 0 && cols % 4 == 0;
    return vec ? launch_as<MR, MC, true>(in, rows, cols, in_stride, mask, out, out_stride, stream)
               : launch_as<MR, MC, false>(in, rows, cols, in_stride, mask, out, out_stride, stream);
}

template <size_t... I> struct Launches {
    static constexpr launch_fn *fn[sizeof...(I)] = {&launch<(int)(I / kMaxSide) + 1, (int)(I % kMaxSide) + 1>...};
};
template <size_t... I> Launches<I...> launches_of(std::index_sequence<I...>);
using kLaunch = decltype(launches_of(std::make_index_sequence<kMaxSide * kMaxSide>()));

} // namespace

extern "C" size_t gk_conv2d_05_streaming_workspace(size_t, size_t, size_t, size_t) { return 0; /* none */ }

extern "C" cudaError_t gk_conv2d_05_streaming_run(const float *in, size_t rows, size_t cols, size_t in_stride,
                                                       const float *mask, size_t mask_rows, size_t mask_cols,
                                                       float *out, size_t out_stride, void * /* workspace: none */,
                                                       cudaStream_t stream)
{
    if (mask_rows == 0 || mask_cols == 0 || mask_rows > kMaxSide || mask_cols > kMaxSide) return cudaErrorInvalidValue;
    return kLaunch::fn[(mask_rows - 1) * kMaxSide + (mask_cols - 1)](in, rows, cols, in_stride, mask, out, out_stride,
                                                                     stream);
}
