/* Variant 11: guarded cells. Even bins by an estimate proven right, with no
 * load, for all but the samples next to an edge (f16: variant 10's check);
 * levels by a table of cells that leaves at most a short search (cells
 * over the float's key for float samples); 8- and 16-bit integers into
 * power-of-two bins by a shift; each channel's plan read once per item;
 * bytes counted by their value, and one channel of floats in one run of
 * samples, in lean walks of their own; levels far enough apart in flat
 * key cells, one shared load and no branch around the atomic.
 *
 * The idea. Variants 8-10 make every sample's bin exact by checking it: an
 * estimate, then two threshold loads from shared memory (even bins), or a
 * search of floor(log2 bins) + 1 loads (levels). Those loads, not the
 * reads from DRAM, set their pace. Ten changes:
 *   1. Even bins: prove, don't check. The exact bin is floor(Q), Q = (x -
 *      lower) bins / (upper - lower), a real number. The kernel computes
 *      y = fl(fma(d, s, -0.5)), d = fl(x - lower) (integers: exact, then
 *      one rounding to float), s = fl(bins / (upper - lower)) (the
 *      quotient taken in double first): three roundings of relative size
 *      u = 2^-24 at most, so |y - (Q - 0.5)| <= eps = (3 (bins + 1) + 3.5)
 *      u (1 + 2^-20) + bins 2^-50 wherever |Q| <= bins + 1. Then r = the
 *      integer nearest y (y + 1.5 x 2^23 rounds it: the bits of that sum
 *      minus those of 1.5 x 2^23 are r, for |y| < 2^22), and
 *        if 0 <= r < bins and |y - r| < g = 0.5 - eps,
 *        then |(Q - 0.5) - r| < 0.5, so r < Q < r + 1: the bin is r,
 *      and x lies strictly inside [lower, upper), so it is counted. No
 *      load, no compare with a boundary: a subtraction, an fma, three
 *      additions, two compares. A sample that fails the guard (Q within
 *      eps of an integer, i.e. x next to an edge: 2 eps of the samples
 *      spread evenly, 1 in 10,800 at 256 bins, 1 in 680 at 4096), outside
 *      the range, NaN or infinite takes the exact path: its key and the
 *      range test; then, when y is finite, Q lies within 1/2 + eps of the
 *      integer e nearest it, so its bin is e or e - 1, and one threshold
 *      key (levels.cuh, item 2) says which; else variant 9's branch-free
 *      search. (The host turns the guard off, leaving only the exact path,
 *      when eps >= 1/8, bins > 2^21 or s lies outside [2^-126, 2^127]. The
 *      proof assumes IEEE arithmetic with denormals kept, the toolkit's
 *      default; a subtraction whose result is a denormal is exact anyway.)
 *      f16 samples take variant 10's way instead: the key and the range
 *      test, the estimate b checked against the two threshold keys t[b]
 *      and t[b + 1], a search when the check fails. f16 values lie on a
 *      coarse grid that holds the boundaries themselves (every k / 256 in
 *      [1/256, 1) is an f16 value), a sample on a boundary always fails
 *      the guard, and where many do (in the bench's data 1 sample in 8 or
 *      more) nearly every warp would run both the guarded path and the
 *      exact one.
 *   2. Levels: cells. The span of the levels, [lo, lo + M / s) with lo at
 *      or below levels[0] (floats: the largest float there; integers: its
 *      floor, at least the type's minimum) and s = fl(M / (levels[bins] -
 *      lo)), is cut into M equal cells (M a power of two, at least 32 x
 *      bins up to 8192: 32 KiB), and a table, built once per call, holds for cell
 *      j the bins at its two ends: T[j] = the bin of C_j = lo + j / s,
 *      T[j + 1] = the bin of C_{j+1} (computed in double; the guard's
 *      margin covers that rounding; packed as two 16-bit numbers, so bins
 *      <= 65536). The same guarded estimate, now with M cells, proves
 *      that C_j < x < C_{j+1}, so the bin of x lies in [T[j], T[j + 1]]:
 *      one 4-byte shared load gives both ends, and when they are equal (a
 *      cell inside one bin) that is the bin. Otherwise a branch-free
 *      search over the T[j + 1] - T[j] + 1 candidates: floor(log2(T[j+1]
 *      - T[j])) + 1 steps, one for a cell holding one boundary, instead
 *      of floor(log2 bins) + 1. Where the levels crowd (log-spaced
 *      levels, say) a cell holds many boundaries and its search is
 *      longer, never longer than variant 9's.
 *   3. Integers into power-of-two bins. u8, u16, i32 and u32 samples with
 *      upper - lower = bins x 2^p (u8 over [0, 256) in 256 bins, p = 0; in
 *      64 bins, p = 2) need no estimate: the bin is (x - lower) >> p,
 *      counted when x - lower < upper - lower as an unsigned number; over
 *      the whole type (u8 over [0, 256), u16 over [0, 65536)) every sample
 *      is counted and the bin is x >> p, or x itself when p = 0 (a mode
 *      of its own, kWhole, so that no shift by zero is issued). Variant 10
 *      read a 256-entry table per u8 sample instead.
 *   4. Channels per item. With 1, 2 or 4 channels the samples of a 16-byte
 *      vector (4, 8 or 16 of them) hold every channel in the same places in
 *      every vector of an item, so the walk (levels.cuh, walk_rows) takes
 *      one channel at a time: its plan (bins, mode, estimate, counters)
 *      read once per item into registers, then its samples from every
 *      vector; a channel not counted (RGBA's alpha) costs nothing. Variant
 *      10 read the plan from shared memory for every sample.
 *   5. Whole channels once per block. Reading a channel's plan once per item
 *      is still about 40 instructions (its fields from the constant bank,
 *      its first and last keys from shared memory, a jump on its mode: 41 in
 *      the SASS of the RGBA kernel, cuobjdump, CUDA 13.0) for the 16 samples
 *      of that channel a thread counts in an item of 8-bit RGBA pixels, each
 *      of which costs 3 (the byte, its counter's address, the atomic). A
 *      channel of u8 or u16 samples binned by the value itself (kWhole: the
 *      whole type, bins = 256 or 65536) needs nothing of its plan but where
 *      its counters start, so each block notes once which channels those are
 *      (a mask) and the byte offset of each one's counters for its lane's
 *      replica (4 registers); for them the walk's per-item step is a test of
 *      the mask and a select of the offset (13 instructions in the same
 *      SASS). Measured on an H200 (2026-11-28, gk_bench, 2^26 pixels, 256
 *      bins, cold L2, medians, the builds before and after alternated twice;
 *      histogram/tuning/forms-h200/ch_*.json): RGBA with 3 channels counted
 *      0.0988 and 0.0988 ms -> 0.0928 and 0.0925 (72.3% -> 77.0-77.3% of the
 *      read-only stream, 1.22x -> 1.30x CUB's MultiHistogramEven<4, 3>), all
 *      4 counted 0.1391 -> 0.1267 and 0.1265 (1.18x -> 1.30x), 2 channels
 *      0.0551 and 0.0552 -> 0.0534 and 0.0532 (1.85x -> 1.91x). Three
 *      channels (RGB) take the walk's per-sample form (CC = 0: with 3
 *      channels the channel changes from sample to sample and from lane to
 *      lane), where every sample went through the channel's test and select
 *      and the mode's branch: 1.2588 and 1.2591 ms before, 0.5731 and 0.5711
 *      with the mask, 0.29x CUB's 0.1673 to 0.1676. So when all 3 channels
 *      are such channels the walk (levels.cuh) takes the three channels'
 *      offsets once per vector, in the order its first sample's channel
 *      sets, and sample e of the vector takes offset e mod 3 of them, a
 *      compile-time choice: per sample the byte, its address and the atomic,
 *      as with 4 channels. In a second run (another H200, the builds with
 *      the mask alone and with this form alternated twice, ch_mask_*.json
 *      and ch_rgb_*.json): RGB 0.5685 and 0.5678 -> 0.0839 and 0.0838 ms
 *      (10.1% -> 68.7% of the stream, 0.29x -> 1.99x CUB), the other channel
 *      counts unchanged (RGBA 0.0926 and 0.0923 against 0.0922 and 0.0923).
 *   6. Five blocks per SM for one channel of floats. Nsight Compute on an
 *      H200 (histogram/tuning/forms-h200/profile/) found the f32 kernel at 4
 *      blocks per SM, limited by registers (52) and shared memory (49 KB at
 *      4096 bins) alike, with 3.2 of the 10.5 cycles between a warp's
 *      instructions spent waiting for its 16-byte loads (even bins, 4096).
 *      With one channel of f32 or f16 samples the kernel is now compiled for
 *      5 blocks (__launch_bounds__(256, 5): at most 48 registers;
 *      cuobjdump -res-usage gives 43 to 48 and no stack) and its counters, keys and cells kept
 *      within 44 KB a block instead of 56 (replica_shift's budget: at 4096
 *      bins one copy of the counters instead of two), so 40 warps per SM
 *      instead of 32 hold loads in flight. Measured on an H200 (2026-11-28,
 *      gk_bench, cold L2, medians; histogram/tuning/forms-h200/blocks5/):
 *      even bins over 2^28 f32 samples, 4096 bins 0.2972 and 0.2974 ms ->
 *      0.2866 and 0.2868 (83.5% -> 86.6% of the read-only stream, 9.6x ->
 *      9.9x CUB's HistogramEven), 256 bins 0.2768 and 0.2770 -> 0.2696 and
 *      0.2699 (89.7% -> 92.0%, 1.00x -> 1.03x); levels at 256 bins 0.7411
 *      -> 0.7267, at 4096 1.1880 -> 1.1870 (its keys and cells take 64 KB
 *      a block: 3 blocks either way); f16 at 2^26 0.1131 -> 0.1106 (one run
 *      each). The same rule for every sample type with one channel, in the
 *      same run, was slower for u8 (0.0320 -> 0.0334 ms) and u16 (0.0498
 *      -> 0.0512) and changed nothing for i32 and u32 (0.0832 -> 0.0828,
 *      0.0822 -> 0.0824); in an earlier run with every channel count at 5
 *      blocks (44 KB), RGBA took 0.0992-0.0993 ms against 0.0923-0.0924:
 *      those keep 4 blocks and 56 KB.
 *   7. Levels of float samples: cells over the key (kKeys). Equal cells in
 *      value (item 2) serve levels spread about evenly; with quadratic
 *      levels and samples spread evenly over the bins (gk_bench's data:
 *      a bin drawn, then a value in it) the narrow bins at the low end get
 *      as many samples as the wide ones, and there a cell holds many
 *      boundaries: at 4096 bins and 8192 cells, bins 0-1023 (a quarter of
 *      the samples) lie two or more to a cell, and nearly every warp
 *      searches. A float's key (levels.cuh, fkey) is ordered as its value
 *      is, and its top 9 bits name its sign and binade, so the cells are
 *      cut in key space instead, binade by binade: a piece is 2^23 keys
 *      (key >> 23 names it), and the host counts the levels in each piece
 *      the levels span (each level's key taken from its nearest float:
 *      only a count, to size the cells by) and cuts a piece holding n
 *      levels into the least power of two of cells >= n, at least 2^7
 *      (cells of at most 2^16 keys), a piece holding none into one cell.
 *      The cells thus follow the levels' density one binade at a time.
 *      A kernel then writes each cell's word from the exact thresholds
 *      (item 2's keys t): with n0 thresholds <= the cell's first key kc,
 *      the bin n0 - 1 and the offset t[n0] - kc (16 bits) of its one
 *      boundary; with no boundary the bin less one and offset 0; a mark
 *      (0xffff) for two boundaries or more (an offset of 0xffff is taken
 *      for the mark: searched, so still exact). Per sample, all in integers
 *      and exact, no estimate and no guard: the key (x + 0 turns -0 into
 *      +0; then the sign's fold: 3 operations), its piece q = (key >> 23)
 *      - p0 (q >= pieces: not counted), one shared load of the piece's
 *      word (its cells' byte offset, their width 2^s), one of the cell,
 *      and the bin = (the cell's bin + (key mod 2^s >= offset)) mod 2^16.
 *      Cells below levels[0] or past levels[bins] give bins outside [0,
 *      bins), not counted, so there is no range test; a marked cell takes
 *      the range test and variant 9's search over all the bins. With the
 *      bench's levels over [0, 1): 130 pieces (from the one below 0.0's
 *      to the one above 1.0's), 17 of them with levels and 2289 cells at
 *      256 bins (9.4 KiB with the pieces' words), 25 and 8041 cells at
 *      4096 (31.9 KiB). The rare search reads the keys from global memory,
 *      so none are copied to shared memory, and at 4096 bins a block
 *      takes its counters (16 KiB) and the cells: 4 blocks per SM where
 *      item 2's cells and keys left 3. For f32 and f16 samples with one
 *      channel, bins < 65536, the pieces' cells within the workspace
 *      (kMaxPieces + 8192 + 4 (bins + 1) words) and their byte offsets
 *      below 2^24; otherwise item 2's cells. The key cells run in
 *      kernels of their own (hist_cells' Keys), so that the kernels of
 *      the other modes carry none of their code. Measured on an H200
 *      (2026-11-29, gk_bench, 2^28 f32 samples, quadratic levels, cold
 *      L2, medians, the builds alternated twice; run r8 of
 *      histogram/tuning/forms-h200/keys/): 256 bins 0.7297-0.7346 ms ->
 *      0.4906-0.4911 (5.13-5.16x -> 7.68x CUB's HistogramRange, 33.8-34.0%
 *      -> 50.5-50.6% of the read-only stream), 4096 bins 1.1876-1.1906 ->
 *      0.5098-0.5108 (3.65x -> 8.50x, 20.8-20.9% -> 48.6-48.7%). With the key cells
 *      in the same kernel as the other modes 0.5032-0.5033 and 0.5219 ms;
 *      with a range test per sample as well, in two other runs, 0.5355-
 *      0.5416 and 0.5427-0.5511; two cells per level were slower at 4096
 *      bins (0.5919-0.5924 ms: 55 KiB of cells, 3 blocks per SM) and no
 *      faster at 256. Even bins, whose code did not change, took 0.2713-
 *      0.2719 and 0.2911-0.2914 ms at 256 and 4096 bins in r8 against
 *      0.2703-0.2707 and 0.2871-0.2876 before (0.4% and 1.3% slower; 91.3%
 *      and 85.2% of the stream), and 0.2718-0.2719 and 0.2925-0.2928 with
 *      the key cells in the same kernel; the rest is not explained (the
 *      kernel's registers went from 43 to 48, cuobjdump -res-usage, at the
 *      same 5 blocks per SM).
 *   8. Bytes by their value, lean. For u8 samples whose every counted
 *      channel is whole (over [0, 256) in 256 bins: the byte is the bin)
 *      in one run of bytes (one row, or rows with no padding; with 3
 *      channels, all three counted), items 4 and 5 still cost, per item of
 *      16 KiB, the item's row and place (64-bit arithmetic), the row's end
 *      tested per vector, and per channel its test, its offset's select and
 *      jumps: read off the SASS of the RGBA kernel (CUDA 13.0), about 110
 *      instructions a thread for the item and 30 for each channel, beside
 *      3 for each of the thread's 48 counted bytes. A kernel of its own,
 *      hist_whole, walks the run's 16-byte vectors grid-stride, U = 4 at a
 *      time, and needs none of it: sample i of the run is in channel i mod
 *      C, so with C = 1, 2 or 4 sample e of every vector is in channel
 *      (head + e) mod C (16 is a multiple of C) and the counters' offsets
 *      are put in that order once per block; with C = 3, vector w starts
 *      in channel (head + w) mod 3, and the three offsets are put in order
 *      once per vector (6 selects for 16 samples). Per byte: one PRMT (the
 *      byte, zero-extended), one IMAD (its counter's address), the atomic;
 *      per channel and 4 vectors, one test. And its counters have 32
 *      replicas where 16 were: with 16 (item 6's budget of 56 KB at 4
 *      blocks per SM, 768 counters for RGBA), lanes l and l + 16 share
 *      replica l mod 16, and their words (b << 4) + l mod 16 fall in one
 *      bank whenever b and b' have the same parity, in half the pairs of
 *      uniform bytes, so nearly every atomic instruction of a warp meets
 *      a two-way bank conflict; with 32, lane l's words lie in bank l. 32
 *      replicas of 768 counters are 96 KB, so the kernel runs 512 threads
 *      a block, 2 blocks and 32 warps per SM (at most 64 registers: 40 to
 *      58). Measured on an H200 (2026-11-29, gk_bench, 2^26 pixels, 256
 *      bins, cold L2, medians, the builds alternated twice; the second run
 *      of histogram/tuning/forms-h200/whole/): RGBA with 3 channels
 *      counted 0.0931 and 0.0933 ms -> 0.0776 and 0.0776 (76.6-76.8% ->
 *      92.1-92.2% of the read-only stream; 1.29x -> 1.55x CUB's
 *      MultiHistogramEven<4, 3>), all 4 counted 0.1268 -> 0.0889 (1.30x ->
 *      1.85x; 1024 counters: 16 replicas), RGB 0.0843-0.0844 -> 0.0624-
 *      0.0625 (1.99x -> 2.68-2.69x CUB, 67.7-67.8% -> 90.9-91.7%), 2 channels
 *      0.0537-0.0544 -> 0.0473-0.0474 (1.87-1.89x -> 2.15x), one channel
 *      2^26 bytes 0.0322-0.0323 -> 0.0293-0.0296 (1.20x -> 1.31-1.32x,
 *      84.6-85.0% of the stream) and 2^28 bytes 0.0808-0.0809 -> 0.0760-0.0762
 *      (1.60x -> 1.70-1.71x, 94.1-94.2%). In the first run (whole/r1/) the same walk
 *      with item 6's 16 replicas and 256 threads took RGBA to 0.0833-0.0835
 *      ms, and the 32 replicas to 0.0776-0.0780: the walk and the replicas
 *      each give about half of the gain.
 *   9. One channel of floats in one run of samples. The walk by rows
 *      costs, per item of 16 KiB, the item's row, its place and its head
 *      in 64-bit arithmetic and a test of the row's end per vector: about
 *      120 instructions a thread (read off the SASS of the key-cell
 *      kernel, CUDA 13.0) for the 16 f32 samples the thread counts in it,
 *      7 to 8 a sample beside the 33 of a key-cell sample. For one channel
 *      of f32 or f16 samples in one run (one row, or rows with no
 *      padding), hist_run walks the run's vectors grid-stride instead,
 *      U = 4 at a time on every resident block, with the channel's mode
 *      chosen once per block (each_mode around the whole loop), and block
 *      0 counts the head and the tail. Measured on an H200 (2026-11-29,
 *      gk_bench, cold L2, medians, the builds alternated twice;
 *      histogram/tuning/forms-h200/run/r1): 2^28 f32 samples, even bins
 *      0.2686-0.2691 -> 0.2544 ms at 256 bins (90.6-90.7% -> 95.8% of the
 *      read-only stream, 1.03x -> 1.09x CUB) and 0.2898-0.2900 -> 0.2625-
 *      0.2627 at 4096 (84.1% -> 92.8-92.9%, 9.8-9.9x -> 10.9x), levels
 *      0.4898-0.4917 -> 0.4303-0.4314 at 256 bins (49.5-49.7% -> 56.5-
 *      56.6%, 6.9x -> 7.9x CUB's HistogramRange) and 0.5100-0.5105 ->
 *      0.4474-0.4504 at 4096 (47.7-47.8% -> 54.1-54.5%, 8.5x -> 9.6-9.7x);
 *      f16 even bins over 2^26 samples 0.1285 -> 0.1120-0.1122 (0.59x ->
 *      0.67x CUB). The same walk took u16, i32 and u32 samples (2^26, 256
 *      bins) 1.2% to 3.6% longer (u16 0.0494-0.0496 -> 0.0509-0.0512 ms,
 *      u32 0.0815 -> 0.0838-0.0839), so integer samples keep the walk by
 *      rows. Evening out the rounds over fewer blocks, as walk_rows'
 *      launch does, was slower in a second run (run/r2: f16 0.1169-0.1170
 *      ms against 0.1287-0.1288 for the build before, a ratio of 0.91
 *      where run/r1 had 0.87; RGBA, item 8's kernel on the same launch,
 *      0.0780-0.0782 against 0.0927-0.0930, 0.84, where run/r1 had 0.83).
 *      Tried on top of it and not kept (run/flat/, one run of each build,
 *      its patch there): the key cells' samples of a vector with no branch
 *      per sample (the piece clamped into the table and the bin discarded
 *      outside it, the atomic a predicated red.shared, marked cells
 *      searched after, one branch per vector), so that ptxas interleaves
 *      the four samples' shared loads. Levels at 256 bins took 0.4281 ms
 *      against 0.4299, at 4096 0.4527 against 0.4500, f16 levels (2^26)
 *      0.1271 against 0.1264: fewer instructions, no faster, so the
 *      branches were not what bounds the key cells.
 *  10. Flat key cells. Nsight Compute on an H200 (2026-11-29, 2^28 f32
 *      samples between 256 quadratic levels, item 9's kernel;
 *      histogram/tuning/forms-h200/flat/profile/) counts 311 million warp
 *      instructions, 37 per 32 samples, one issued in 74% of the active
 *      cycles, the integer pipe (ALU) 61% busy, shared memory 52% (2.2
 *      wavefronts per shared load: bank conflicts, but not the bound):
 *      the instructions bound it. Per sample the key cells spend, beside
 *      the key and the atomic, the piece's word (a load, and 3 operations
 *      to take its cells' offset and width apart), the cell's load, a mask
 *      built from the width, a test for a marked cell, the compare with
 *      the boundary's place, an addition, a select and a 16-bit mask, and
 *      a branch around the atomic with its reconvergence (BSSY, BSYNC).
 *      Where every two levels lie far enough apart, one width serves all:
 *      the window from just below the key of levels[1] to just past that
 *      of levels[bins - 1] (every inner threshold) is cut into cells of
 *      2^sh keys, sh <= 16 the largest that leaves at most one threshold
 *      in a cell (keys of the levels' nearest floats 2^sh + 2 apart or
 *      more: plan_flat), at most as many cells as item 7's table would
 *      take. A cell's word is W = (b + 1) 2^16 - o, b the bin of its
 *      first key and o its threshold's place in it, or b 2^16 with none:
 *      for the key at place r of the cell, W + r carries into bit 16
 *      exactly when r >= o, so (W + r) >> 16 is the bin. Per sample: the
 *      key (2 operations: -0 is not turned into +0 first; the one
 *      threshold that could part them, +0's key, is lowered to -0's), its
 *      place in the window and its cell (a subtraction, a shift), a test
 *      that the cell is in the window (else below every inner threshold,
 *      bin 0, or above them all, the last bin, once the key's range test
 *      passes), the cell's load, the place in the cell (a mask), an
 *      addition, a shift. A sample outside the levels takes bin `bins`,
 *      a sink: one row of counters past the last that is never read, so
 *      that the atomic needs no branch; and no cell needs a clamp, for
 *      the window starts above levels[0]'s threshold (its key lies 2^sh +
 *      2 or more below levels[1]'s), so every cell's bins lie in [0,
 *      bins]. 15 instructions a sample on the common path of the loop's
 *      SASS (CUDA 13.0; a BSSY and a BSYNC around the window's test among
 *      them), where the key cells take about 35. The bench's levels,
 *      quadratic over [0, 1), take it at 256 bins (sh = 16, 2047 cells:
 *      the levels lie at least 93440 keys apart); at 4096 bins the top
 *      ones lie 5795 keys apart, and cells of 2^12 keys would need 49151:
 *      item 7's pieces stay. Measured on an H200 (2026-11-29, gk_bench,
 *      cold L2, medians, the builds alternated twice;
 *      histogram/tuning/forms-h200/flat/):
 *      2^28 f32 samples between 256 quadratic levels 0.4318-0.4321 ms ->
 *      0.2869-0.2875 (58.7% -> 88.1-88.3% of the read-only stream, 8.30x
 *      -> 12.46-12.49x CUB's HistogramRange), 2^26 f16 samples 0.1263-
 *      0.1270 -> 0.0778-0.0781 (33.1-33.3% -> 53.9-54.1%, 2.8x -> 4.6x
 *      CUB); 4096 bins, still item 7's cells, 0.4460-0.4522 against
 *      0.4471-0.4480 (noise). The steps, each in a run against the one
 *      before on another H200 (flat/r1-r3): cells with a compare and a
 *      select 77.2-77.8% of the stream (f32, 256 bins); the word W
 *      82.6-82.9%; the sink 84.8-84.9%; the key in 2 operations 84.4-86.5%
 *      there and 87.8% in the last run; no clamp 88.1-88.3%. In a last
 *      run of the final build alone (flat/final, another H200): 0.2827
 *      ms, 86.2% of the stream, 12.25x CUB.
 *
 * Counted, per sample, after its 16-byte load and besides its shared
 * atomic (one per counted sample, to the lane's replica of the counter):
 * even bins passing the guard, f32: 8 operations (a subtraction, an fma,
 * three additions, an integer subtraction, a compare of an absolute value,
 * an unsigned compare; SASS, CUDA 13.0) and no load; u8 and u16: the
 * integer placed in a float's significand (a logic operation) before the
 * subtraction; power-of-two bins: a subtraction, a compare, a shift (over
 * the whole type: the shift alone); levels: the estimate, the key and its
 * range test (f32: 3 and 2 operations), one shared load of the cell, and
 * floor(log2(T[j + 1] - T[j])) + 1 steps of search (a load, a compare, a
 * select) when the cell holds boundaries; levels of float samples by key
 * cells (item 7): the key, its piece, two shared loads, a mask, a compare
 * and an addition; by flat key cells (item 10): the key (2 operations), a
 * subtraction, a shift, a compare, one shared load, a mask, an addition and
 * a shift. Per item (16 KiB; none in the walks of items 8 and
 * 9, which go grid-stride over vectors) and channel
 * (once per block when there is one channel): the fields of its plan,
 * loaded from the kernel's parameters (the constant bank), its first and
 * last key, and one branch on its mode. Per block: keys and cells copied
 * from the workspace into shared memory. Per call: the one launch of
 * levels.cuh's prepare_channels (counts zeroed, thresholds written), and
 * for each channel with levels one launch that builds its cells (M
 * threads, two binary searches over the levels each).
 *
 * Shared memory per block: the private counters (replicas as variant 10),
 * the keys (sum of (bins + 1) x 4 bytes, 8 for i32 and u32), the cells (M
 * x 4 bytes per channel with levels: 32 KiB from 256 bins up, 4 KiB at 7;
 * key cells, item 7: the pieces' words and the cells, and no keys;
 * item 10: the cells alone, and the counters one row more, the sink).
 * When they do not fit: keys and cells in global memory, then 64-bit global
 * atomics, as variant 10. Item 8's kernel: the counters alone, 2^5
 * replicas where they fit in 112.5 KB (2 blocks per SM), fewer else
 * (RGBA's 768 counters: 96 KB; 4 channels' 1024: 2^4 replicas, 64 KB).
 *
 * Bound by: measured on an H100 (histogram/README.md, "How the forms
 * compare"; uniform data, n = 2^28 f32, the read-only stream 0.357 ms):
 *   - f32 even bins: 0.3662 ms at 256 bins and 0.3829 ms at 4096, 97.5%
 *     and 93.3% of the stream (variant 10: 0.4846 and 0.4951 ms), 1.01x
 *     and 8.32x CUB's HistogramEven. Nsight Compute at 256 bins: 189
 *     million warp instructions (22.5 per 32 samples), one issued in 65%
 *     of each scheduler's active cycles, and waiting for the loads (long
 *     scoreboard) the first stall reason: close to the stream, with the
 *     per sample work (the 8 operations, the address and the atomic)
 *     still in the way; at 4096 bins the guard fails 16 times as often;
 *   - f32 levels: 0.7957 ms at 256 bins (44.9% of the stream, 4.98x CUB's
 *     HistogramRange; variant 10: 1.3832 ms) and 1.1903 ms at 4096 (30.0%,
 *     3.70x; variant 10: 4.8172 ms). Instruction issue bounds it: Nsight
 *     Compute at 256 bins counts 579 million warp instructions (69 per 32
 *     samples), one issued in 74% of the active cycles. With quadratic
 *     levels and 8 cells per bin a cell holds a boundary for about 12% of
 *     uniform samples (1 / (16 sqrt(x)) at x), so nearly every warp has a
 *     lane in the search and runs it; at 4096 bins the keys, the cells and
 *     one copy of the counters take 64 KiB of shared memory per block, 3
 *     blocks per SM instead of 4. Tried and not kept: deciding a cell with
 *     one boundary by one key and a select in every lane, the search only
 *     for cells with two or more: 0.8092 and 1.2642 ms, slower. These H100
 *     figures had 8 cells per bin; now 32 (up to 8192 cells), so that at
 *     256 bins a boundary falls in the cell of about 3% of the samples (1
 *     / (64 sqrt(x))) instead of 12%: on an H200 (2026-11-28, the two
 *     builds alternated twice, histogram/tuning/forms-h200/range_c*.json)
 *     256 bins took 0.7868 and 0.7873 ms with 8, 0.7424 and 0.7453 with 32
 *     (4.31x -> 4.56x CUB's 3.3890 to 3.3928); 4096 bins had 8192 cells
 *     already and keep them. These figures are item 2's cells; item 7's
 *     key cells, which f32 and f16 levels with one channel take now, run
 *     at 7.68x and 8.50x CUB on an H200 (50.5-50.6% and 48.6-48.7% of the stream);
 *   - RGBA u8, 3 channels counted, 2^26 pixels: 0.1138 ms, 87.0% of the
 *     stream, 1.11x CUB's MultiHistogramEven<4, 3> (variant 10: 0.2002
 *     ms). Nsight Compute: 58.1 million warp instructions (9.2 per 32
 *     counted samples), one issued in 63% of the active cycles, where
 *     variant 7's u8 kernel issues 29.0 million for 2^28 bytes (3.5 per
 *     32): here each sample needs at least the byte's extraction, the
 *     counter's address and the atomic, and each item and channel the
 *     plan's fields and a branch on its mode. Before items wholly inside
 *     their row skipped the test of the row's end per vector and p = 0
 *     its shift (kWhole): 64.9 million (10.3 per 32), 68% issue, 0.1164
 *     ms (the run of 2026-11-28 03:40 UTC). Item 8's walk now leaves the
 *     byte, the address and the atomic, and on an H200 reads 92.1-92.2%
 *     of the stream at 1.55x CUB;
 *   - even bins at n = 2^26: u8 1.05x CUB (83.6% of the stream), u16
 *     2.73x (89.0%), i32 3.36x and u32 3.31x (93.7%, 93.6%); f16, by
 *     variant 10's estimate and check (item 1: on the f16 grid samples on
 *     a boundary fail the guard), 0.1154 ms, 48.6% of the stream, 0.67x
 *     CUB's 0.0772 ms and 1.05x faster than variant 10 (0.1213 ms).
 * On an H200, whose read-only stream is 1.44 to 1.47 times as fast as the
 * H100's (0.2436 to 0.2484 ms over 2^28 floats, against 0.357) with the same
 * SMs and clock (2026-11-28, gk_bench, cold L2, medians,
 * histogram/tuning/forms-h200/), the same code, before item 5, reads less of
 * the stream: RGBA 0.0990 and 0.0985 ms (73.0-73.3%, 1.21-1.22x CUB), f32
 * even bins 89.4-89.6% at 256 bins and 83.3% at 4096, levels 31.5% and
 * 21.0%: where the H100 already issued an instruction in 63-74% of the
 * cycles, the H200 asks 1.44 to 1.47 times as many per second. More loads in
 * flight per thread did not help: 8 vectors per thread
 * and item instead of 4 (walk_rows' U; 64 registers, 2 instantiations with 8
 * bytes of stack), the two builds alternated twice, took RGBA 0.1007 and
 * 0.1005 ms, even bins 0.2798 and 0.3199 ms (against 0.2771-0.2777 and
 * 0.2980-0.2983), levels 0.7962 and 1.2534 ms (against 0.7861-0.7870 and
 * 1.1841-1.1878). Nor does fetching ahead into L2: thread 0 of each block
 * issuing one cp.async.bulk.prefetch.L2 (PTX ISA; sm_90) of the block's
 * next item (16 KiB), one or two items ahead, a build of each and this
 * code alternated twice (H200, 2026-11-28, 2^28 f32 samples and 2^26 RGBA
 * pixels; histogram/tuning/forms-h200/profile/prefetch_*), was slower
 * everywhere: even bins at 256 0.2749-0.2751 ms -> 0.2893-0.2894 one item
 * ahead and 0.2925-0.2929 two ahead, at 4096 0.2956-0.2960 -> 0.3100-0.3105
 * and 0.3142-0.3143, RGBA 0.0925-0.0926 -> 0.0982-0.0985 and 0.1001-0.1004,
 * levels at 256 0.7416-0.7421 -> 0.7590-0.7591 and 0.7645-0.7648 (why was
 * not profiled). More warps did help, for one channel of floats: item 6.
 *
 * Registers: __launch_bounds__(256, 4), at most 64 per thread (ptxas -v,
 * CUDA 13.0, sm_90: 48 to 64 for the counting kernels, no spills), so 4
 * blocks (32 warps) per SM by registers; for one channel of f32 or f16
 * samples (item 6) __launch_bounds__(256, 5), 44 to 48 (with item 10),
 * 5 blocks (40 warps), item 9's hist_run too (40 to 46); item 8's hist_whole
 * __launch_bounds__(512, 2), 40 to 58, 2 blocks (32 warps). No spills,
 * no stack.
 *
 * Limits: 256 threads per block (item 8's kernel: 512); every dtype of
 * gk_histogram_ex, every form, 1-4 channels, any rows and strides;
 * launches of at most 2^31 samples. Cells for levels with bins <= 65536 and finite levels[0] and
 * levels[bins] (else variant 9's search); key cells as item 7 says, flat ones
 * as item 10 (plan_flat).
 * Workspace: the thresholds (levels.cuh, item 4), then per channel with
 * levels 4 M bytes of cells, or 4 x max(M, kMaxPieces + 8192 + 4 (bins +
 * 1)) where key cells may be taken (one channel of f32 or f16, bins <
 * 65536).
 *
 * Build alone: nvcc -arch=sm_90 -c 11_guarded_cells.cu (with common.cuh and
 * levels.cuh, the folder's shared plumbing, next to it);
 * -DGK_H11_WHOLE_BLOCK=256 builds item 8's kernel with 256-thread blocks,
 * 4 per SM, and so 16 replicas of RGBA's counters (the form timed in
 * histogram/tuning/forms-h200/whole/r1 as w256).
 */
#include <math.h>
#include <string.h>

#include "common.cuh"
#include "levels.cuh"

namespace {

/* How a channel finds a bin (the header's items 1-3); every mode ends in
 * the exact path (the key, the range test, the search) where its proof
 * does not hold. */
enum Mode : unsigned { kOff = 0, kSearch = 1, kEven = 2, kCells = 3, kShift = 4, kShiftAll = 5, kCheck = 6, kKeys = 8, kFlat = 9 };
constexpr unsigned kWhole = 7; /* kShiftAll with p = 0: each_mode's, never a plan's */

constexpr float kMagic = 12582912.0f;       /* 1.5 x 2^23: y + kMagic rounds y to an integer */
constexpr unsigned kMagicBits = 0x4b400000u; /* its bits */
constexpr unsigned kCellsPerBin = 32; /* cells per bin, at least (below kMaxCells) */
constexpr unsigned kMaxCells = 8192;  /* 32 KiB of cells per channel */
constexpr unsigned kNone = 0xffffffffu; /* a sample not counted */
/* Key cells (kKeys): the pieces of 2^23 keys (a binade of floats each)
 * that the levels span, a piece with levels cut into at least 2^7 cells
 * (cells of at most 2^16 keys, so that a boundary's place in its cell fits
 * 16 bits) and at least kKeyDensity cells per level in it, a piece without
 * one cell. A cell word: bits 16-31 the place of its one boundary (0: none;
 * kSlowKey: two or more), bits 0-15 the bin of the cell's first key, less
 * one when there is no boundary (both modulo 2^16). */
constexpr unsigned kMaxPieces = 512, kKeyDensity = 1;
constexpr unsigned kSlowKey = 0xffffu;

/* A channel's plan for this variant, built on the host (by value in the
 * kernel's parameters: a constant-bank load per field). */
struct Fast {
    unsigned mode;             /* Mode */
    unsigned bins;
    unsigned base;             /* SharedH: its first counter among the block's */
    unsigned shift;            /* kShift: p; kFlat: a cell's width's log */
    float lo, s, g;            /* kEven, kCells: d = x - lo (u8, u16: lo holds 2^23 + lower), y = fma(d, s, -0.5) */
    unsigned toff;             /* its first key among the block's shared keys */
    unsigned coff;             /* kCells: its first cell among the block's shared cells */
    unsigned ncells;           /* kCells: M; kKeys: the pieces' words and the cells, in words; kFlat: cells */
    unsigned np, p0;           /* kKeys: pieces, and the first one's number (key >> 23); kFlat: cells, first key */
    long long lowi;            /* integers: lower (kShift; i32, u32: kEven, kCells) */
    unsigned long long range;  /* kShift: upper - lower */
    double cell0;              /* kCells: lo, the first cell's start, exactly (host side: build_cells) */
    const void *t;             /* its bins + 1 keys (workspace) */
    const unsigned *cells;     /* kCells: its M cells (workspace) */
    unsigned long long *counts;
};
struct Fasts {
    Fast f[kMaxChannels];
    unsigned keys, cells; /* all channels' keys and cells, in elements */
};

/* d = x - lo as a float for the estimate (the header, item 1). */
template <typename T> __device__ __forceinline__ float diff(T x, const Fast &f)
{
    if constexpr (Sample<T>::kFloat) return Sample<T>::value(x) - f.lo;
    else if constexpr (sizeof(T) <= 2) return __uint_as_float(0x4b000000u | (unsigned)x) - f.lo; /* exact */
    else return (float)((long long)Sample<T>::key(x) - f.lowi);
}

/* The guarded estimate: whether the header's proof holds for x with r =
 * *b below limit, the bin (kEven, limit bins) or cell (kCells, limit M);
 * y and r (as a float) for the exact path. */
template <typename T>
__device__ __forceinline__ bool guarded(T x, const Fast &f, unsigned limit, unsigned *b, float *yp, float *rp)
{
    const float y = fmaf(diff(x, f), f.s, -0.5f);
    const float t = y + kMagic;
    const float r = t - kMagic;
    *yp = y;
    *rp = r;
    *b = __float_as_uint(t) - kMagicBits;
    return fabsf(y - r) < f.g && *b < limit; /* NaN fails the compare */
}

/* Item 10 takes a float's key without turning -0 into +0 first, so that
 * -0's key is 0x7fffffff, just below +0's; a threshold at +0's key (a
 * level of 0, or of -0) is lowered to -0's, and no other key lies between
 * the two. */
__host__ __device__ __forceinline__ unsigned below_zero(unsigned t) { return t == 0x80000000u ? 0x7fffffffu : t; }

template <typename T, bool SharedH, bool SharedT, bool Keys = false> struct Guarded {
    using Key = typename Sample<T>::Key;
    const Fasts *fp;        /* the kernel's parameter */
    unsigned *hist;         /* SharedH: the replicas */
    char *hb;               /* SharedH: the current channel's counter 0, this lane's replica */
    const Key *keys;        /* SharedT: every channel's keys */
    const unsigned *cells;  /* SharedT: every channel's cells */
    unsigned shift, mine;   /* replicas 2^shift; this lane's */
    /* The current channel, in registers. */
    Fast f;
    const Key *t;
    const unsigned *cell;
    Key k0, kb;
    /* Item 5: channels binned by the byte or half-word itself (kWhole), set
     * once per block: bit c of wmask, and the byte offset of counter 0 of
     * channel c, this lane's replica, in wofs[c] (4 channels at most). */
    static constexpr bool kMayWhole = SharedH && !Sample<T>::kFloat && sizeof(T) <= 2;
    unsigned wmask = 0, wofs0 = 0, wofs1 = 0, wofs2 = 0, wofs3 = 0;
    bool whole = false; /* the current channel is one of them */

    __device__ __forceinline__ void find_whole(unsigned channels)
    {
        if constexpr (kMayWhole) {
            for (unsigned c = 0; c < channels && c < 4; ++c) {
                const Fast &g = fp->f[c];
                if (g.mode != kShiftAll || g.shift != 0) continue;
                const unsigned o = ((g.base << shift) + mine) * 4u;
                wmask |= 1u << c;
                if (c == 0) wofs0 = o;
                else if (c == 1) wofs1 = o;
                else if (c == 2) wofs2 = o;
                else wofs3 = o;
            }
        }
    }
    /* The walk's three-channel form (levels.cuh): every one of 3 channels
     * counted by its value; the counter offset of channel c < 3; and the
     * count of sample x at offset o. */
    __device__ __forceinline__ bool all_whole3() const { return kMayWhole && wmask == 7u; }
    __device__ __forceinline__ unsigned offset(unsigned c) const { return c == 0 ? wofs0 : c == 1 ? wofs1 : wofs2; }
    __device__ __forceinline__ void add_at(unsigned o, T x) const
    {
        if constexpr (kMayWhole) atomicAdd((unsigned *)((char *)hist + o + (unsigned)x * (4u << shift)), 1u);
    }
    __device__ __forceinline__ bool channel(unsigned c)
    {
        if constexpr (kMayWhole) {
            whole = (wmask >> c) & 1u;
            if (whole) {
                hb = (char *)hist + (c == 0 ? wofs0 : c == 1 ? wofs1 : c == 2 ? wofs2 : wofs3);
                return true;
            }
        }
        f = fp->f[c];
        if (f.mode == kOff) return false;
        hb = (char *)(hist + (f.base << shift) + mine);
        t = SharedT && f.mode < kKeys ? keys + f.toff : (const Key *)f.t; /* kKeys, kFlat: keys stay in global memory */
        cell = SharedT ? cells + f.coff : f.cells;
        k0 = t[0];
        kb = t[f.bins];
        if (Keys && f.mode == kFlat) k0 = below_zero(k0), kb = below_zero(kb);
        return true;
    }
    __device__ __forceinline__ void add(unsigned b) const
    {
        /* Replica `mine` of counter b: byte b x 4 x 2^shift past hb. */
        if (SharedH) atomicAdd((unsigned *)(hb + b * (4u << shift)), 1u);
        else atomicAdd(f.counts + b, 1ull);
    }
    /* The exact path, for a sample the guard did not take: the key and the
     * range test; then, when the estimate y (r its nearest integer) is
     * finite and Q lies within 1/2 + eps of the integer e nearest it (e =
     * r or r + 1, 0 <= e <= bins: the guard failed next to an edge), the
     * bin is e or e - 1, and one key says which: e when x >= boundary e;
     * else the search over all the bins. kNone: not counted. */
    __device__ __forceinline__ unsigned exact(T x, bool near, unsigned e) const
    {
        const Key k = Sample<T>::key(x);
        if (k < k0 || k >= kb) return kNone; /* outside, or NaN */
        if (near && e <= f.bins) return (e < f.bins && t[e] <= k) || e == 0 ? e : e - 1;
        return search_lifting(t, f.bins, k);
    }
    /* The bin of sample x of the current channel, whose mode M is kShift,
     * kCells or kSearch, or kNone when it is not counted. */
    template <unsigned M> __device__ __forceinline__ unsigned bin_as(T x) const
    {
        if constexpr (M == kShift) {
            if constexpr (!Sample<T>::kFloat) {
                if constexpr (sizeof(T) <= 2) {
                    const unsigned d = (unsigned)x - (unsigned)f.lowi; /* lower >= 0 here */
                    return d < (unsigned)f.range ? d >> f.shift : kNone;
                } else {
                    const unsigned long long d = (unsigned long long)((long long)Sample<T>::key(x) - f.lowi);
                    return d < f.range ? (unsigned)(d >> f.shift) : kNone;
                }
            }
            return kNone;
        } else if constexpr (M == kCells) {
            float y, r;
            unsigned j;
            if (!guarded(x, f, f.ncells, &j, &y, &r)) return exact(x, false, 0);
            const Key k = Sample<T>::key(x);
            if (k < k0 || k >= kb) return kNone; /* outside, or NaN */
            const unsigned w = cell[j];
            unsigned b = w & 0xffffu;
            const unsigned hi = w >> 16;
            if (hi != b) {
                /* The largest i in [b, hi] with t[i] <= k (t[b] <= k: the
                 * header's item 2), by binary lifting. */
                for (unsigned step = 1u << (31 - __clz(hi - b)); step; step >>= 1) {
                    const unsigned i = min(b + step, hi);
                    b = t[i] <= k ? i : b;
                }
            }
            return b;
        } else if constexpr (M == kKeys) {
            /* The key's piece, its cell, and the cell's one boundary
             * against the key's place in the cell: integers only, exact. */
            /* fkey's key in three operations: x + 0 turns -0 into +0 (and
             * any NaN into a NaN), then the sign's fold. */
            const unsigned xb = __float_as_uint(Sample<T>::value(x) + 0.0f);
            const Key k = xb ^ ((unsigned)((int)xb >> 31) | 0x80000000u);
            const unsigned q = ((unsigned)k >> 23) - f.p0;
            if (q >= f.np) return kNone; /* outside every piece (NaN included) */
            /* The piece's word: its cells' byte offset in the table, and
             * their width's log in bits 24-31. */
            const unsigned px = cell[q], sh = px >> 24;
            const unsigned w = *(const unsigned *)((const char *)cell + (px & 0xffffffu) +
                                                   ((((unsigned)k & 0x7fffffu) >> sh) << 2));
            const unsigned off = w >> 16;
            if (off == kSlowKey) return (k < k0 || k >= kb) ? kNone : search_lifting(t, f.bins, k);
            return (w + (((unsigned)k & ((1u << sh) - 1u)) >= off)) & 0xffffu; /* >= bins: not counted (count_as) */
        } else if constexpr (M == kFlat) {
            /* Item 10: the key's place r in the window, its cell r >> sh,
             * and the cell's one boundary against r's place in the cell.
             * The key in two operations, -0 kept apart from +0 (just
             * below it): the thresholds of kFlat are lowered to match. */
            const unsigned xb = __float_as_uint(Sample<T>::value(x));
            const Key k = xb ^ ((unsigned)((int)xb >> 31) | 0x80000000u);
            const unsigned r = (unsigned)k - f.p0, j = r >> f.shift;
            if (j < f.np) return (cell[j] + (r & ((1u << f.shift) - 1u))) >> 16; /* 0 .. bins (bins: not counted) */
            /* Outside the window: below every inner boundary, bin 0; above
             * them, the last bin; outside the levels, bins (the sink). */
            return (k < k0 || k >= kb) ? f.bins : (unsigned)k < f.p0 ? 0u : f.bins - 1;
        } else {
            return exact(x, false, 0);
        }
    }
    __device__ __forceinline__ void add_bin(unsigned b) const
    {
        if (b != kNone) add(b);
    }
    /* Counts sample x of the current channel, whose mode is M: the two
     * commonest paths straight to the atomic, the others through bin_as. */
    template <unsigned M> __device__ __forceinline__ void count_as(T x) const
    {
        if constexpr (M == kWhole && !Sample<T>::kFloat && sizeof(T) <= 2) {
            add((unsigned)x);
        } else if constexpr (M == kShiftAll && !Sample<T>::kFloat && sizeof(T) <= 2) {
            add((unsigned)x >> f.shift);
        } else if constexpr (M == kCheck) {
            /* Variant 10's way: an estimate checked against two keys. */
            const Key k = Sample<T>::key(x);
            if (k < k0 || k >= kb) return; /* outside, or NaN */
            unsigned b = min(__float2uint_rz(diff(x, f) * f.s), f.bins - 1);
            if (!(t[b] <= k && k < t[b + 1])) b = search_lifting(t, f.bins, k);
            add(b);
        } else if constexpr (M == kKeys) {
            const unsigned b = bin_as<M>(x);
            if (b < f.bins) add(b); /* a bin past the last: outside the levels (kNone too) */
        } else if constexpr (M == kFlat) {
            /* Bin `bins` (outside the levels) is the sink, a counter no one
             * reads: no branch. */
            const unsigned b = bin_as<M>(x);
            if constexpr (SharedH) add(b);
            else if (b < f.bins) add(b);
        } else if constexpr (M == kEven) {
            float y, r;
            unsigned b;
            if (guarded(x, f, f.bins, &b, &y, &r)) add(b);
            else add_bin(exact(x, fabsf(y) < 4194304.0f, y > r ? b + 1 : b)); /* e: r + 1 when y > r */
        } else {
            add_bin(bin_as<M>(x));
        }
    }
    /* body(mode) with the current channel's mode as a constant, so that
     * the walk branches on it once per item and channel, not per sample. */
    template <typename F> __device__ __forceinline__ void each_mode(F body) const
    {
        using std::integral_constant;
        if constexpr (kMayWhole) {
            if (whole) {
                body(integral_constant<unsigned, kWhole>());
                return;
            }
        }
        if constexpr (Keys) { /* a kernel of its own for key cells (items 7, 10): one channel, kKeys or kFlat */
            if constexpr (Sample<T>::kFloat) {
                if (f.mode == kFlat) body(integral_constant<unsigned, kFlat>());
                else body(integral_constant<unsigned, kKeys>());
            }
            return;
        }
        switch (f.mode) {
        case kEven: body(integral_constant<unsigned, kEven>()); break;
        case kCells: body(integral_constant<unsigned, kCells>()); break;
        case kCheck:
            if constexpr (std::is_same<T, Half>::value) body(integral_constant<unsigned, kCheck>());
            break;
        case kShift:
            if constexpr (!Sample<T>::kFloat) body(integral_constant<unsigned, kShift>());
            break;
        case kShiftAll:
            if constexpr (!Sample<T>::kFloat && sizeof(T) <= 2) {
                if (f.shift == 0) body(integral_constant<unsigned, kWhole>());
                else body(integral_constant<unsigned, kShiftAll>());
            }
            break;
        default: body(integral_constant<unsigned, kSearch>()); break;
        }
    }
    __device__ __forceinline__ void count(T x, unsigned c)
    {
        if (channel(c)) each_mode([&](auto m) { count_as<decltype(m)::value>(x); });
    }
};

/* Blocks per SM the counting kernel is compiled for (item 6): 5 for one
 * channel of f32 or f16 samples, 4 otherwise; and the shared memory a
 * block may take for its counters, keys and cells at that count (5 x (44
 * + 1) KB <= 228 KB, 4 x (56 + 1) KB = 228 KB). */
template <typename T, int CC>
constexpr bool kFiveBlocks = CC == 1 && (std::is_same<T, float>::value || std::is_same<T, Half>::value);
template <typename T, int CC> constexpr unsigned kBlocksPerSm = kFiveBlocks<T, CC> ? 5 : 4;
template <typename T, int CC> constexpr size_t kBudget = kFiveBlocks<T, CC> ? 44 * 1024 : kReplicaBudget;

/* The counters: the first words of dynamic shared memory. */
__device__ __forceinline__ const unsigned *hist_of(unsigned long long *smem8)
{
    return reinterpret_cast<const unsigned *>(smem8);
}

/* A block's start: its counters zeroed (SharedH), the keys and cells
 * copied in (SharedT), k set up on them. Dynamic shared memory: the
 * counters ((total_bins + Keys) << shift words, rounded to 8 bytes: the
 * key cells' kernels have one row more, item 10's sink), then the keys
 * and the cells. */
template <typename T, bool SharedH, bool SharedT, bool Keys>
__device__ __forceinline__ void start_block(const Plan &p, const Fasts &fs, unsigned shift, unsigned long long *smem8,
                                            Guarded<T, SharedH, SharedT, Keys> &k)
{
    using Key = typename Sample<T>::Key;
    unsigned *hist = reinterpret_cast<unsigned *>(smem8);
    const unsigned words = (p.total_bins + (Keys ? 1 : 0)) << shift;
    Key *keys = reinterpret_cast<Key *>(smem8 + (SharedH ? (words + 1) / 2 : 0));
    unsigned *cells = reinterpret_cast<unsigned *>(keys + (SharedT ? fs.keys : 0));

    if (SharedH)
        for (unsigned b = threadIdx.x; b < words; b += kBlock) hist[b] = 0;
    if (SharedT)
        for (unsigned c = 0; c < p.channels; ++c) {
            const Fast &f = fs.f[c];
            if (f.mode == kOff) continue;
            if (f.mode < kKeys)
                for (unsigned b = threadIdx.x; b <= f.bins; b += kBlock) keys[f.toff + b] = __ldg((const Key *)f.t + b);
            if (f.mode == kCells || f.mode >= kKeys)
                for (unsigned j = threadIdx.x; j < f.ncells; j += kBlock) cells[f.coff + j] = __ldg(f.cells + j);
        }
    __syncthreads(); /* counters zero, keys and cells in place before any thread counts */

    k.fp = &fs, k.hist = hist, k.keys = keys, k.cells = cells, k.shift = shift;
    k.mine = threadIdx.x & ((1u << shift) - 1);
}

/* The walk by rows and items (levels.cuh, walk_rows). CC: the channel
 * count if 1, 2 or 4, else 0. */
template <typename T, bool SharedH, bool SharedT, int CC, bool Keys>
__global__ void __launch_bounds__(kBlock, kBlocksPerSm<T, CC>)
    hist_cells(const __grid_constant__ Plan p, const __grid_constant__ Fasts fs, size_t w0, unsigned items, size_t segs,
               unsigned shift)
{
    extern __shared__ unsigned long long smem8[]; /* 8-byte aligned for 64-bit keys */
    Guarded<T, SharedH, SharedT, Keys> k;
    start_block(p, fs, shift, smem8, k);
    if (CC != 1) k.find_whole(p.channels);
    if (CC == 1) k.channel(0); /* counted: a single channel always is */
    walk_rows<T, CC>(p, k, w0, items, segs);
    if (SharedH) {
        __syncthreads(); /* every count of the block is in shared memory before the merge reads it */
        merge_replicas(p, hist_of(smem8), shift);
    }
}

/* Item 9: one channel in one run of samples (one row, or rows with no
 * padding): vectors v0 .. v0 + nv - 1 of the run after its head, walked
 * grid-stride, U = kUnroll at a time, the channel's mode chosen once per
 * block, no row and no item; block 0 of the launch with bit 0 of
 * first_last counts the head (the samples before the first 16-byte
 * boundary), block 0 of the one with bit 1 the tail. */
template <typename T, bool SharedH, bool SharedT, bool Keys>
__global__ void __launch_bounds__(kBlock, kBlocksPerSm<T, 1>)
    hist_run(const __grid_constant__ Plan p, const __grid_constant__ Fasts fs, size_t v0, size_t nv, unsigned head,
             unsigned tail, unsigned first_last, unsigned shift)
{
    constexpr unsigned V = Vector<T>::kPer, U = kUnroll;
    extern __shared__ unsigned long long smem8[]; /* 8-byte aligned for 64-bit keys */
    Guarded<T, SharedH, SharedT, Keys> k;
    start_block(p, fs, shift, smem8, k);
    k.channel(0); /* counted: a single channel always is */
    const uint4 *vp = reinterpret_cast<const uint4 *>(p.in + (size_t)head * sizeof(T)) + v0;
    const size_t stride = (size_t)gridDim.x * kBlock * U;
    k.each_mode([&](auto m) {
        constexpr unsigned M = decltype(m)::value;
        size_t v = (size_t)blockIdx.x * kBlock * U + threadIdx.x;
        for (; v + (U - 1) * kBlock < nv; v += stride) {
            Vector<T> x[U];
#pragma unroll
            for (unsigned u = 0; u < U; ++u) x[u].v = __ldg(vp + v + u * kBlock);
#pragma unroll
            for (unsigned u = 0; u < U; ++u)
#pragma unroll
                for (unsigned i = 0; i < V; ++i) k.template count_as<M>(x[u].e[i]);
        }
#pragma unroll
        for (unsigned u = 0; u < U; ++u) /* the last, partial round */
            if (v + u * kBlock < nv) {
                Vector<T> x;
                x.v = __ldg(vp + v + u * kBlock);
#pragma unroll
                for (unsigned i = 0; i < V; ++i) k.template count_as<M>(x.e[i]);
            }
    });
    if (blockIdx.x == 0) {
        /* The head (samples 0 .. head - 1 of the run) and the tail (the
         * `tail` samples after the last vector), one sample per thread. */
        const T *s = reinterpret_cast<const T *>(p.in);
        if ((first_last & 1u) && threadIdx.x < head) k.count(s[threadIdx.x], 0);
        else if ((first_last & 2u) && threadIdx.x >= 32 && threadIdx.x - 32 < tail)
            k.count(s[head + (v0 + nv) * V + (threadIdx.x - 32)], 0);
    }
    if (SharedH) {
        __syncthreads(); /* every count of the block is in shared memory before the merge reads it */
        merge_replicas(p, hist_of(smem8), shift);
    }
}

/* Whether the region is one run of samples: one row, or rows with no
 * padding between them (then rows x row_samples samples in a row). */
template <typename T> bool one_run(const Plan &p) { return p.rows == 1 || p.stride == p.row_samples * sizeof(T); }

/* Cuts a region that is one run of samples into launches of at most 2^31
 * samples (32-bit shared counters never wrap) and calls launch(grid, v0,
 * nv, head, tail, first_last) for each: vectors v0 .. v0 + nv - 1 after
 * the head, on at most `resident` blocks of Threads threads with U vectors
 * each per round. */
template <typename T, unsigned Threads, unsigned U, typename F>
cudaError_t each_run_launch(const Plan &p, size_t resident, F launch)
{
    constexpr size_t V = Vector<T>::kPer;
    const size_t n = p.rows * p.row_samples; /* > 0 */
    const size_t align = ((16 - ((uintptr_t)p.in & 15)) & 15) / sizeof(T); /* p.in is element-aligned */
    const unsigned head = (unsigned)(align < n ? align : n);
    const size_t nvec = (n - head) / V;
    const unsigned tail = (unsigned)(n - head - nvec * V);
    const size_t per_launch = ((size_t)1 << 31) / V;
    size_t v0 = 0;
    do {
        const size_t nv = nvec - v0 < per_launch ? nvec - v0 : per_launch;
        /* Every resident block, or fewer when nv needs fewer. (Evening
         * out the rounds as walk_rows' launch does, e.g. 512 blocks of 32
         * rounds where 528 take 31 or 32, was slower: the header, item 9.) */
        const size_t want = (nv + (size_t)Threads * U - 1) / ((size_t)Threads * U);
        const unsigned grid = (unsigned)(want == 0 ? 1 : want < resident ? want : resident);
        launch(grid, v0, nv, head, tail, (v0 == 0 ? 1u : 0u) | (v0 + nv == nvec ? 2u : 0u));
        const cudaError_t e = cudaGetLastError();
        if (e) return e;
        v0 += nv;
    } while (v0 < nvec);
    return cudaSuccess;
}

/* Item 8: bytes counted by their value, in one run of bytes. When the
 * samples are u8, every counted channel is whole (kShiftAll with p = 0:
 * the byte is the bin) and the region is one run of bytes (one row, or
 * rows with no padding), the walk needs nothing per item but the loads: no
 * row, no channel plan, no mode. Sample i of the region is in channel i
 * mod C. With C = 1, 2 or 4 (16 is a multiple of C) sample e of every
 * 16-byte vector is in channel (head + e) mod C, so the counters' offsets
 * (this lane's replica) are put in that order once per block; with C = 3
 * (every channel counted) vector w starts in channel (head + w) mod 3, so
 * the three offsets are put in order once per vector (16 samples). Each
 * sample costs its byte (one PRMT), its counter's address and the atomic.
 * kWholeBlock threads a block, lane l on replica l mod 2^shift. Block 0 of
 * the launch with bit 0 of first_last counts the head (the bytes before
 * the first 16-byte boundary), block 0 of the one with bit 1 the tail. */
#ifndef GK_H11_WHOLE_BLOCK
#define GK_H11_WHOLE_BLOCK 512
#endif
constexpr unsigned kWholeBlock = GK_H11_WHOLE_BLOCK;
constexpr unsigned kWholeUnroll = 4;                           /* 16-byte loads in flight per thread */
constexpr unsigned kWholeBlocksPerSm = 2048 / kWholeBlock / 2; /* 2 blocks of 512 threads */

template <int CC>
__global__ void __launch_bounds__(kWholeBlock, kWholeBlocksPerSm)
    hist_whole(const __grid_constant__ Plan p, const __grid_constant__ Fasts fs, size_t v0, size_t nv,
               unsigned head, unsigned tail, unsigned first_last, unsigned shift)
{
    constexpr unsigned U = kWholeUnroll;
    extern __shared__ unsigned long long smem8[];
    unsigned *hist = reinterpret_cast<unsigned *>(smem8);
    const unsigned words = p.total_bins << shift;
    for (unsigned b = threadIdx.x; b < words; b += kWholeBlock) hist[b] = 0;
    __syncthreads(); /* counters zero before any thread counts */

    const unsigned mine = threadIdx.x & ((1u << shift) - 1);
    const unsigned step = 4u << shift; /* bytes from counter b to b + 1 of a replica */
    /* oc[c]: the byte offset of counter 0 of channel c (this lane's
     * replica), or kNone when the channel is not counted. */
    unsigned oc[CC];
#pragma unroll
    for (int c = 0; c < CC; ++c) oc[c] = fs.f[c].mode == kOff ? kNone : ((fs.f[c].base << shift) + mine) * 4u;
    /* C = 1, 2, 4: o[j], the offset of sample j's channel in every vector. */
    unsigned o[CC];
#pragma unroll
    for (int j = 0; j < CC; ++j) {
        const unsigned c = (head + j) % CC;
        o[j] = oc[0];
#pragma unroll
        for (int i = 1; i < CC; ++i) o[j] = c == (unsigned)i ? oc[i] : o[j];
    }
    const char *hb = reinterpret_cast<const char *>(hist);
    /* Sample e of vector x: byte e & 3 of word e / 4, by one byte permute
     * (selector 0x444k: byte k, then three zero bytes). */
    auto add = [&](unsigned oj, const uint4 &x, unsigned e) {
        const unsigned w = e < 4 ? x.x : e < 8 ? x.y : e < 12 ? x.z : x.w;
        atomicAdd((unsigned *)(hb + oj + __byte_perm(w, 0u, 0x4440u | (e & 3u)) * step), 1u);
    };
    /* The first m of a thread's U vectors; ph: the channel of the first
     * one's first sample (C = 3). C = 1, 2, 4: the channels outside, the
     * vectors inside, one test of a channel per U vectors. */
    auto count = [&](const uint4 *x, unsigned m, unsigned ph) {
        if constexpr (CC == 3) {
#pragma unroll
            for (unsigned u = 0; u < U; ++u)
                if (u < m) {
                    unsigned q = ph + (u * kWholeBlock) % 3u; /* vector u's first channel */
                    q = q >= 3u ? q - 3u : q;
                    const unsigned a = q == 0 ? oc[0] : q == 1 ? oc[1] : oc[2];
                    const unsigned b = q == 0 ? oc[1] : q == 1 ? oc[2] : oc[0];
                    const unsigned c = q == 0 ? oc[2] : q == 1 ? oc[0] : oc[1];
#pragma unroll
                    for (unsigned e = 0; e < 16; ++e) add(e % 3 == 0 ? a : e % 3 == 1 ? b : c, x[u], e);
                }
        } else {
#pragma unroll
            for (int j = 0; j < CC; ++j)
                if (o[j] != kNone)
#pragma unroll
                    for (unsigned u = 0; u < U; ++u)
                        if (u < m)
#pragma unroll
                            for (unsigned e = j; e < 16; e += CC) add(o[j], x[u], e);
        }
    };
    const uint4 *vp = reinterpret_cast<const uint4 *>(p.in + head) + v0;
    const size_t stride = (size_t)gridDim.x * kWholeBlock * U;
    size_t v = (size_t)blockIdx.x * kWholeBlock * U + threadIdx.x;
    /* C = 3: the channel of vector v's first sample, (head + v0 + v) mod 3,
     * moved on by stride mod 3 each round. */
    unsigned ph = CC == 3 ? (unsigned)((head + v0 + v) % 3u) : 0u;
    const unsigned dph = CC == 3 ? (unsigned)(stride % 3u) : 0u;
    for (; v + (U - 1) * kWholeBlock < nv; v += stride) {
        uint4 x[U];
#pragma unroll
        for (unsigned u = 0; u < U; ++u) x[u] = __ldg(vp + v + u * kWholeBlock);
        count(x, U, ph);
        if (CC == 3) ph = ph + dph >= 3u ? ph + dph - 3u : ph + dph;
    }
    if (v < nv) { /* the last, partial round: this thread's first m vectors */
        uint4 x[U];
        unsigned m = 0;
#pragma unroll
        for (unsigned u = 0; u < U; ++u)
            if (v + u * kWholeBlock < nv) x[u] = __ldg(vp + v + u * kWholeBlock), m = u + 1;
        count(x, m, ph);
    }
    if (blockIdx.x == 0 && threadIdx.x < 32) {
        /* The head (bytes 0 .. head - 1 of the region) and the tail (the
         * `tail` bytes after the last vector), one byte per lane. */
        const unsigned char *s = reinterpret_cast<const unsigned char *>(p.in);
        size_t i = kNone;
        if ((first_last & 1u) && threadIdx.x < head) i = threadIdx.x;
        else if ((first_last & 2u) && threadIdx.x >= 16 && threadIdx.x - 16 < tail)
            i = head + (v0 + nv) * 16 + (threadIdx.x - 16);
        if (i != kNone) {
            const Fast &f = fs.f[i % CC];
            if (f.mode != kOff) atomicAdd(hist + (((f.base + s[i]) << shift) + mine), 1u);
        }
    }
    __syncthreads(); /* every count of the block is in shared memory before the merge reads it */
    merge_replicas<kWholeBlock>(p, hist, shift);
}

/* Item 8's kernel for the call, if it takes it: u8 samples (T), every
 * counted channel whole (with 3 channels, all three counted), the region
 * one run of bytes, and the counters in shared memory with 2^5 replicas
 * where they fit at kWholeBlocksPerSm blocks per SM (2^4 for 4 channels),
 * fewer else. *taken: whether it did. */
template <typename T>
cudaError_t run_whole(const Plan &p, const Fasts &fs, cudaStream_t stream, bool *taken)
{
    *taken = false;
    if constexpr (!std::is_same<T, uint8_t>::value) {
        return cudaSuccess;
    } else {
        if (p.counted == 0 || (p.channels == 3 && p.counted != 3)) return cudaSuccess;
        if (!one_run<T>(p)) return cudaSuccess; /* padding between rows */
        for (unsigned c = 0; c < p.channels; ++c)
            if (fs.f[c].mode != kOff && (fs.f[c].mode != kShiftAll || fs.f[c].shift != 0)) return cudaSuccess;
        const size_t budget = 227 * 1024 / kWholeBlocksPerSm - 1024; /* less the driver's 1 KB a block */
        unsigned sh = 5;
        while (sh > 0 && ((size_t)p.total_bins << sh) * 4 > budget) --sh;
        const size_t smem = ((size_t)p.total_bins << sh) * 4;
        if (smem > budget) return cudaSuccess;
        auto kernel = p.channels == 1 ? hist_whole<1> : p.channels == 2 ? hist_whole<2>
                                                      : p.channels == 3 ? hist_whole<3> : hist_whole<4>;
        bool fits = false;
        cudaError_t e = allow_smem(kernel, smem, &fits);
        if (e || !fits) return e;
        size_t resident = 0;
        e = resident_blocks(kernel, kWholeBlock, smem, &resident);
        if (e || resident == 0) return e;
        *taken = true;
        return each_run_launch<uint8_t, kWholeBlock, kWholeUnroll>(
            p, resident, [&](unsigned grid, size_t v0, size_t nv, unsigned head, unsigned tail, unsigned fl) {
                kernel<<<grid, kWholeBlock, smem, stream>>>(p, fs, v0, nv, head, tail, fl, sh);
            });
    }
}

/* The cells of one channel with levels: for j < M, entry j = T[j] | T[j +
 * 1] << 16, T[i] = min(bins - 1, the number of levels <= lo + i / s, less
 * one, at least 0). M threads. */
__global__ void build_cells(unsigned *cells, unsigned m, const double *levels, unsigned bins, double lo, double s)
{
    const unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= m) return;
    unsigned ends[2];
    for (int e = 0; e < 2; ++e) {
        const double c = lo + (double)(j + e) / s;
        unsigned a = 0, z = bins + 1; /* the number of levels <= c: the least i with levels[i] > c */
        while (a < z) {
            const unsigned mid = a + (z - a) / 2;
            if (levels[mid] <= c) a = mid + 1;
            else z = mid;
        }
        ends[e] = a == 0 ? 0 : min(a - 1, bins - 1);
    }
    cells[j] = ends[0] | ends[1] << 16;
}

/* The host's plan of a channel's key cells (kKeys): piece q (keys (p0 +
 * q) 2^23 on) holds its cells from e[q] & 0xffffff on, each 2^(e[q] >>
 * 24) keys wide. */
struct KeyPlan {
    unsigned np, p0, ncells;
    unsigned e[kMaxPieces];
};

/* n0, n1: the thresholds t <= kc, and < kc + 2^sh (Low: each lowered by
 * below_zero). */
template <bool Low = false>
__device__ __forceinline__ void thresholds_in(unsigned long long kc, unsigned sh, const unsigned *t, unsigned bins,
                                              unsigned *n0, unsigned *n1)
{
    const unsigned long long ke = kc + (1ull << sh);
    *n0 = *n1 = 0;
    for (unsigned lo = 0, hi = bins + 1; lo < hi;) {
        const unsigned mid = (lo + hi) / 2;
        if ((unsigned long long)(Low ? below_zero(t[mid]) : t[mid]) <= kc) lo = *n0 = mid + 1;
        else hi = mid;
    }
    for (unsigned lo = 0, hi = bins + 1; lo < hi;) {
        const unsigned mid = (lo + hi) / 2;
        if ((unsigned long long)(Low ? below_zero(t[mid]) : t[mid]) < ke) lo = *n1 = mid + 1;
        else hi = mid;
    }
}
/* The word of the key cell of keys kc .. kc + 2^sh - 1 (the word above),
 * from the exact thresholds t. */
__device__ __forceinline__ unsigned key_cell_word(unsigned long long kc, unsigned sh, const unsigned *t, unsigned bins)
{
    unsigned n0, n1;
    thresholds_in(kc, sh, t, bins, &n0, &n1);
    unsigned w = (n0 - 2) & 0xffffu; /* no boundary: the bin less one, and 0 */
    if (n1 > n0) {
        const unsigned off = n1 == n0 + 1 && sh <= 16 ? (unsigned)(t[n0] - kc) : kSlowKey; /* 1 .. 2^16 - 1 */
        w = ((n0 - 1) & 0xffffu) | off << 16;
    }
    return w;
}

/* Writes a channel's pieces and cells (kKeys) into `out`. One thread a
 * cell, the first np threads also a piece. */
__global__ void build_key_cells(unsigned *out, const __grid_constant__ KeyPlan kp, const unsigned *t, unsigned bins)
{
    const unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < kp.np) out[c] = (kp.e[c] & 0xff000000u) | 4 * (kp.np + (kp.e[c] & 0xffffffu)); /* bytes, in the kernel */
    if (c >= kp.ncells) return;
    unsigned a = 0, z = kp.np - 1; /* the last piece whose cells start at or before c */
    while (a < z) {
        const unsigned mid = (a + z + 1) / 2;
        if ((kp.e[mid] & 0xffffffu) <= c) a = mid;
        else z = mid - 1;
    }
    const unsigned sh = kp.e[a] >> 24;
    const unsigned long long kc = ((unsigned long long)(kp.p0 + a) << 23) + ((unsigned long long)(c - (kp.e[a] & 0xffffffu)) << sh);
    out[kp.np + c] = key_cell_word(kc, sh, t, bins);
}

/* Writes a channel's flat cells (kFlat, item 10): cell j holds keys k0 +
 * j 2^sh on, at most one threshold (lowered by below_zero) among them,
 * and lies above threshold 0 (plan_flat). Its word W is (b + 1) 2^16 - o,
 * b the bin of its first key (0 .. bins - 1, or bins above the levels)
 * and o the place of its one threshold in it (1 <= o < 2^sh <= 2^16), or
 * b 2^16 when it holds none: then for the key at place r of the cell (0
 * <= r < 2^sh), (W + r) >> 16 is b + 1 when r >= o and b when r < o, the
 * bin itself, in [0, bins] (bins: not counted). */
__global__ void build_flat_cells(unsigned *out, unsigned ncells, unsigned k0, unsigned sh, const unsigned *t,
                                 unsigned bins)
{
    const unsigned j = blockIdx.x * blockDim.x + threadIdx.x;
    if (j >= ncells) return;
    const unsigned long long kc = k0 + ((unsigned long long)j << sh);
    unsigned n0, n1;
    thresholds_in<true>(kc, sh, t, bins, &n0, &n1);
    out[j] = n1 > n0 ? (n0 << 16) - (unsigned)(below_zero(t[n0]) - kc) : (n0 - 1) << 16;
}

/* Words of workspace a channel's key cells may take (the query knows only
 * the bins): the pieces' and at most this many cells. */
inline size_t key_words(size_t bins) { return kMaxPieces + 8192 + 4 * kKeyDensity * (bins + 1); }

/* Plans key cells for float samples between `bins` + 1 levels: the pieces
 * from one before the piece of levels[0] to one after that of
 * levels[bins] (each level's key taken from its nearest float: a count to
 * size the cells by, the cells themselves built from the exact
 * thresholds). False when they would take more pieces or words than
 * allowed (then the linear cells, or the search). */
inline bool plan_keys(const double *lv, size_t bins, KeyPlan *kp)
{
    if (bins > 65535) return false;
    const unsigned a = fkey((float)lv[0]) >> 23, z = fkey((float)lv[bins]) >> 23;
    const unsigned p0 = a ? a - 1 : 0, p1 = z < 511 ? z + 1 : 511;
    if (p1 < p0 || p1 - p0 + 1 > kMaxPieces) return false;
    kp->np = p1 - p0 + 1;
    kp->p0 = p0;
    unsigned cnt[kMaxPieces] = {0};
    for (size_t i = 0; i <= bins; ++i) cnt[(fkey((float)lv[i]) >> 23) - p0] += 1;
    size_t total = 0;
    for (unsigned q = 0; q < kp->np; ++q) {
        unsigned sh = 23;
        if (cnt[q]) {
            sh = 16;
            while (sh > 0 && (1u << (23 - sh)) < kKeyDensity * cnt[q]) --sh;
        }
        kp->e[q] = (unsigned)total | sh << 24;
        total += (size_t)1 << (23 - sh);
    }
    kp->ncells = (unsigned)total;
    return kp->np + total <= key_words(bins) && 4 * (kp->np + total) < (1u << 24);
}

/* Plans flat key cells (item 10) for float samples between `bins` + 1
 * levels, at most `limit` of them: the window from just below the key of
 * levels[1] to just past that of levels[bins - 1] cut into cells 2^sh keys
 * wide, sh as large as keeps every two levels' thresholds in different
 * cells (sh <= 16). Each level's exact threshold (levels.cuh, Edge::level:
 * the key of the least float >= the level) is the key of its nearest float
 * or the next, and below_zero may lower it by one, so keys of nearest
 * floats 2^sh + 2 apart or more put the thresholds 2^sh apart or more, in
 * different cells; the window holds every inner threshold (1 .. bins - 1)
 * and starts above threshold 0. False when the levels are not all finite
 * floats, lie closer or need more cells. */
inline bool plan_flat(const double *lv, size_t bins, size_t limit, unsigned *k0, unsigned *sh, unsigned *ncells)
{
    if (bins < 2 || bins > 65535) return false;
    unsigned long long gap = ~0ull;
    for (size_t i = 0; i <= bins; ++i) {
        if (!(lv[i] > -3.4e38 && lv[i] < 3.4e38)) return false;
        if (i > 0) {
            const unsigned a = fkey((float)lv[i - 1]), z = fkey((float)lv[i]);
            if (z <= a) return false;
            if (z - a < gap) gap = z - a;
        }
    }
    unsigned s = 16;
    while (s > 0 && gap < (1ull << s) + 2) --s;
    if (gap < (1ull << s) + 2) return false;
    const unsigned long long a = fkey((float)lv[1]) - 1, z = (unsigned long long)fkey((float)lv[bins - 1]) + 2;
    const unsigned long long n = (z - a + (1ull << s) - 1) >> s;
    if (n > limit) return false;
    *k0 = (unsigned)a, *sh = s, *ncells = (unsigned)n;
    return true;
}

/* M for a channel with levels and `bins` bins: the least power of two >=
 * kCellsPerBin x bins, at most kMaxCells; 0 (no cells) beyond 65536 bins
 * (16-bit ends). */
inline unsigned cells_for(size_t bins)
{
    if (bins > 65536) return 0;
    unsigned m = 1;
    while (m < kCellsPerBin * bins && m < kMaxCells) m *= 2;
    return m;
}

/* Workspace words of cells for a channel with levels: the linear cells or,
 * where a call may take them (keys: one channel of f32 or f16 samples;
 * bins < 65536), the key cells, whichever is larger. */
inline size_t cell_words(size_t bins, bool keys)
{
    const size_t m = cells_for(bins), k = keys && bins <= 65535 ? key_words(bins) : 0;
    return m > k ? m : k;
}

/* The largest float below f, for a finite f (nextafterf(f, -INFINITY),
 * written out so that the library needs no libm). */
inline float next_down(float f)
{
    unsigned b;
    memcpy(&b, &f, 4);
    if (f > 0.0f) b -= 1;
    else if (f == 0.0f) b = 0x80000001u; /* -0 and +0: the negative denormal nearest 0 */
    else b += 1;
    memcpy(&f, &b, 4);
    return f;
}

/* The guard g = 0.5 - eps as a float no larger than the real number (0:
 * the guard never passes). */
inline float guard_of(double eps)
{
    if (!(eps < 0.125)) return 0.0f;
    float g = (float)(0.5 - eps);
    if ((double)g > 0.5 - eps) g = next_down(g);
    return g;
}

/* Each counted channel's mode and its constants (the header's items 1-3),
 * from what prepare() put in p and the caller's arguments. */
template <typename T>
void plan_fast(const Plan &p, const size_t *bins, const double *lower, const double *upper,
               const double *const *levels, const char *cells_ws, Fasts *fs, KeyPlan *kp)
{
    using S = Sample<T>;
    *fs = Fasts{};
    unsigned cells = 0;
    for (unsigned c = 0; c < p.channels; ++c) {
        const Chan &h = p.ch[c];
        Fast &f = fs->f[c];
        if (h.bins == 0) continue;
        f.mode = kSearch;
        f.bins = h.bins;
        f.base = h.off;
        f.toff = h.toff; /* the sum of the bins + 1 of the counted channels before it */
        f.t = h.t;
        f.counts = h.counts;
        const double B = (double)bins[c];
        /* d = x - lo for u8 and u16 is the float 2^23 + x less 2^23 + lo. */
        const double bias = (!S::kFloat && sizeof(T) <= 2) ? 8388608.0 : 0.0;
        if (!levels[c]) {
            if constexpr (!S::kFloat) {
                const unsigned long long R = (unsigned long long)((long long)upper[c] - (long long)lower[c]);
                unsigned q = 0;
                while (q < 32 && ((unsigned long long)bins[c] << q) < R) ++q;
                if (((unsigned long long)bins[c] << q) == R) {
                    f.mode = kShift, f.shift = q, f.range = R, f.lowi = (long long)lower[c];
                    /* u8 and u16 over their whole type: every sample counted, bin x >> p. */
                    if (sizeof(T) <= 2 && lower[c] == 0 && R == (1ull << (8 * sizeof(T)))) f.mode = kShiftAll;
                    continue;
                }
                f.lowi = (long long)lower[c];
            }
            const double s = B / (upper[c] - lower[c]);
            const double eps = ((3.0 * (B + 1) + 3.5) * 0x1p-24) * (1 + 0x1p-20) + B * 0x1p-50;
            if (!(s >= 0x1p-126 && s <= 0x1p127) || B > (double)(1u << 21)) continue;
            f.lo = (float)(lower[c] + bias); /* exact: a float, or an integer below 2^23 plus 2^23 */
            f.s = (float)s;
            if (std::is_same<T, Half>::value) { /* f16: the grid holds the boundaries; check, don't guard */
                f.mode = kCheck;
                continue;
            }
            f.g = guard_of(eps);
            if (f.g == 0.0f) continue;
            f.mode = kEven;
            continue;
        }
        if (S::kFloat && p.channels == 1 && plan_keys(levels[c], bins[c], kp)) {
            f.mode = kKeys;
            f.np = kp->np;
            f.p0 = kp->p0;
            f.ncells = kp->np + kp->ncells;
            if (plan_flat(levels[c], bins[c], f.ncells, &f.p0, &f.shift, &f.np)) f.mode = kFlat, f.ncells = f.np;
            f.coff = cells;
            f.cells = (const unsigned *)cells_ws;
            cells += f.ncells;
            cells_ws += round16(cell_words(bins[c], true) * 4);
            continue;
        }
        const unsigned m = cells_for(bins[c]);
        const double l0 = levels[c][0], lb = levels[c][bins[c]];
        if (m == 0 || !(l0 > -3e38 && lb < 3e38)) continue; /* finite, and x - lo stays finite */
        double lo;
        if constexpr (S::kFloat) {
            float lf = (float)l0;
            if ((double)lf > l0) lf = next_down(lf);
            lo = lf;
        } else {
            if (!(l0 > (double)S::kMin)) lo = (double)S::kMin;
            else if (l0 >= (double)S::kEnd) continue; /* no sample reaches levels[0] */
            else { /* floor(l0), |l0| < 2^33 (no libm) */
                const long long t = (long long)l0;
                lo = (double)t > l0 ? (double)(t - 1) : (double)t;
            }
            if (bias && lo > 4194304.0) continue; /* 2^23 + lo must stay exact */
            f.lowi = (long long)lo;
        }
        double hi = lb;
        if constexpr (!S::kFloat) hi = lb > (double)S::kEnd ? (double)S::kEnd : lb;
        if (!(hi > lo)) continue;
        const float sf = (float)((double)m / (hi - lo));
        if (!(sf >= 0x1p-126f && sf <= 0x1p126f)) continue;
        /* eps: the estimate's (two roundings, |Q| <= M + 1), then the cell
         * ends' in double (lo + j / s: a few 2^-53 of |lo| s + M cells). */
        const double eps = (2.0 * (m + 1) + 2.5) * 0x1p-24 * (1 + 0x1p-20) + (fabs(lo) * sf + m + 1) * 0x1p-48;
        f.g = guard_of(eps);
        if (f.g == 0.0f) continue;
        f.mode = kCells;
        f.cell0 = lo;
        f.lo = (float)(lo + bias); /* floats: lo; u8, u16: exact; i32, u32: unused (lowi) */
        f.s = sf;
        f.ncells = m;
        f.coff = cells;
        f.cells = (const unsigned *)cells_ws;
        cells += m;
        cells_ws += round16(cell_words(bins[c], S::kFloat && p.channels == 1) * 4);
    }
    fs->keys = p.channels == 1 && fs->f[0].mode >= kKeys ? 0 : p.total_bins + p.counted; /* kKeys, kFlat: none in shared memory */
    fs->cells = cells;
}

/* The counting kernel of a call: hist_run (Run: one channel in one run of
 * samples, item 9) or hist_cells. */
template <typename T, bool SharedH, bool SharedT, int CC, bool Keys, bool Run> constexpr auto counting_kernel()
{
    if constexpr (Run) return hist_run<T, SharedH, SharedT, Keys>;
    else return hist_cells<T, SharedH, SharedT, CC, Keys>;
}

template <typename T, bool SharedH, bool SharedT, int CC, bool Keys, bool Run>
cudaError_t launch(const Plan &p, const Fasts &fs, size_t smem, size_t resident, unsigned shift,
                   cudaStream_t stream)
{
    if constexpr (Run)
        return each_run_launch<T, kBlock, kUnroll>(
            p, resident, [&](unsigned grid, size_t v0, size_t nv, unsigned head, unsigned tail, unsigned fl) {
                hist_run<T, SharedH, SharedT, Keys><<<grid, kBlock, smem, stream>>>(p, fs, v0, nv, head, tail, fl,
                                                                                   shift);
            });
    else
        return each_rows_launch<T>(p, resident, [&](unsigned grid, size_t w0, unsigned items, size_t segs) {
            hist_cells<T, SharedH, SharedT, CC, Keys><<<grid, kBlock, smem, stream>>>(p, fs, w0, items, segs, shift);
        });
}

/* Keys: the kernels of item 7 (one channel of float samples in kKeys mode),
 * so that the other modes' kernels carry none of its code. Run: item 9's
 * kernels (CC = 1). */
template <typename T, int CC, bool Keys, bool Run = false>
cudaError_t run_plan(const Plan &p, const Fasts &fs, cudaStream_t stream)
{
    using Key = typename Sample<T>::Key;
    size_t resident = 0;
    bool fits = false;
    const size_t other = (size_t)fs.keys * sizeof(Key) + (size_t)fs.cells * 4;
    const unsigned rows = p.total_bins + (Keys ? 1 : 0); /* the key cells' kernels: and the sink (item 10) */
    unsigned sh = replica_shift(rows, other, &fits, kBudget<T, CC>);
    if (!fits) sh = 0; /* one copy, if it fits at all */
    const size_t both = ((((size_t)rows << sh) + 1) / 2) * 8 + other;
    cudaError_t e = setup_private(counting_kernel<T, true, true, CC, Keys, Run>(), both, &resident);
    if (e || resident) return e ? e : launch<T, true, true, CC, Keys, Run>(p, fs, both, resident, sh, stream);
    const size_t hbytes = ((size_t)rows + 1) / 2 * 8; /* one copy, keys and cells in global memory */
    e = setup_private(counting_kernel<T, true, false, CC, Keys, Run>(), hbytes, &resident);
    if (e || resident) return e ? e : launch<T, true, false, CC, Keys, Run>(p, fs, hbytes, resident, 0, stream);
    e = resident_blocks(counting_kernel<T, false, false, CC, Keys, Run>(), kBlock, 0, &resident);
    return e ? e : launch<T, false, false, CC, Keys, Run>(p, fs, 0, resident, 0, stream);
}

} // namespace

extern "C" size_t gk_histogram_11_guarded_cells_workspace_ex(int dtype, int channels, const size_t *bins,
                                                             const double *const *levels)
{
    size_t w = plan_workspace(dtype, channels, bins, levels);
    for (int c = 0; c < channels; ++c)
        if (bins[c] && levels[c]) w += round16(cell_words(bins[c], (dtype == kF32 || dtype == kF16) && channels == 1) * 4);
    return w;
}

extern "C" cudaError_t gk_histogram_11_guarded_cells_run_ex(int dtype, const void *in, int channels, size_t rows,
                                                            size_t row_pixels, size_t row_stride, const size_t *bins,
                                                            const double *lower, const double *upper,
                                                            const double *const *levels,
                                                            unsigned long long *const *counts, void *workspace,
                                                            cudaStream_t stream)
{
    return by_sample_type(dtype, [&](auto *tag) {
        using T = typename std::remove_pointer<decltype(tag)>::type;
        Plan p;
        cudaError_t e = prepare<T>(in, channels, rows, row_pixels, row_stride, bins, lower, upper, levels, counts,
                                   workspace, stream, &p);
        if (e) return e;
        Fasts fs;
        KeyPlan kp;
        plan_fast<T>(p, bins, lower, upper, levels,
                     (const char *)workspace + plan_workspace(dtype, channels, bins, levels), &fs, &kp);
        for (unsigned c = 0; c < p.channels && !e; ++c) {
            const Fast &f = fs.f[c];
            if (f.mode == kKeys) {
                build_key_cells<<<(kp.ncells + 255) / 256, 256, 0, stream>>>((unsigned *)f.cells, kp,
                                                                          (const unsigned *)p.ch[c].t, f.bins);
                e = cudaGetLastError();
                continue;
            }
            if (f.mode == kFlat) {
                build_flat_cells<<<(f.ncells + 255) / 256, 256, 0, stream>>>((unsigned *)f.cells, f.ncells, f.p0, f.shift,
                                                                           (const unsigned *)p.ch[c].t, f.bins);
                e = cudaGetLastError();
                continue;
            }
            if (f.mode != kCells) continue;
            build_cells<<<(f.ncells + 255) / 256, 256, 0, stream>>>((unsigned *)f.cells, f.ncells, p.ch[c].levels,
                                                                    f.bins, f.cell0, (double)f.s);
            e = cudaGetLastError();
        }
        if (e || rows * row_pixels == 0) return e;
        bool taken = false;
        e = run_whole<T>(p, fs, stream, &taken);
        if (e || taken) return e;
        if constexpr (Sample<T>::kFloat)
            if (p.channels == 1 && fs.f[0].mode >= kKeys)
                return one_run<T>(p) ? run_plan<T, 1, true, true>(p, fs, stream) : run_plan<T, 1, true>(p, fs, stream);
        if constexpr (Sample<T>::kFloat) /* item 9: one channel of floats in one run of samples */
            if (p.channels == 1 && one_run<T>(p)) return run_plan<T, 1, false, true>(p, fs, stream);
        switch (p.channels) {
        case 1: return run_plan<T, 1, false>(p, fs, stream);
        case 2: return run_plan<T, 2, false>(p, fs, stream);
        case 4: return run_plan<T, 4, false>(p, fs, stream);
        default: return run_plan<T, 0, false>(p, fs, stream);
        }
    });
}
