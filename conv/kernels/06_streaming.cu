/* Variant 6: streaming, for small masks. 16-byte loads and stores, each
 * input read from DRAM once, the next tile's loads in flight while this
 * one is computed.
 *
 * The idea. For small widths a convolution is a stream: 2w FLOPs per
 * output against 4 bytes read and 4 written, an arithmetic intensity of
 * 2w / 8 = w / 4 FLOP/B (1.75 at w = 7), far left of an H200's roofline
 * knee (about 67 TFLOP/s / 4.8 TB/s = 14 FLOP/B, w = 56). The time is the
 * time to move 8n bytes, and the ceiling is a device-to-device copy of the
 * same bytes. So this variant is built like a copy kernel that does a
 * little arithmetic on the way: every global access 16 bytes wide, every
 * input byte fetched from DRAM once, enough loads in flight to cover DRAM
 * latency, and few instructions per byte. The arithmetic works on a window
 * of inputs held in registers, as in variant 5.
 *
 * What changed against variants 3 to 5, and why, counted:
 *
 * 1. 16-byte loads, aligned to in's own 16-byte grid. `in` need only be
 *    4-byte aligned, so the block loads the 16-byte vectors of the
 *    rounded-down pointer in4 = in & ~15 that cover its span: whole-vector
 *    loads (LDG.E.128), one per thread and vector, consecutive threads on
 *    consecutive vectors, so a warp load is 512 contiguous bytes, 16 full
 *    sectors. Where the tile's first input sits inside its vector (kShift =
 *    0 .. 3) is the same for every tile, because tiles start on 16-byte
 *    boundaries of out and are a multiple of 4 long: the kernel is compiled
 *    for the 4 values and the launcher starts the one that applies, so the
 *    shift costs nothing at run time (window word kShift + c + jj is a
 *    constant register index; what the shift does change is the chunk
 *    loop's instruction count, below). The tiles whose span crosses
 *    position 0 or n load element by element (ghost cells 0): nothing is
 *    read outside [0, n).
 * 2. 16-byte stores. Tiles are laid on out's 16-byte grid (the first tile
 *    starts at position -d, d = out's distance in floats from the 16-byte
 *    boundary below it, 0 to 3), so every
 *    group of 4 outputs is one aligned STG.E.128, a warp store 512
 *    contiguous bytes; only the 0 to 3 outputs before out's first boundary
 *    and after its last one are stored singly (the "head" and "tail").
 * 3. One pass over the input. A tile is kTile = 4096 outputs (256 threads
 *    x GK6_VEC = 4 vectors of 4); its span is 1024 + ceil(w / 4) + 1
 *    vectors, 1027 at w = 7: the 3 vectors of halo (0.3%) are read again by
 *    the neighbouring tile, which a neighbouring block loads at about the
 *    same time, so they come from L2. DRAM traffic: 4 bytes read and 4
 *    written per output, the copy's.
 * 4. Bytes in flight (Little's law: bytes in flight = bandwidth x
 *    latency). A grid of exactly the resident blocks walks the tiles, tile
 *    blockIdx.x, then + gridDim.x, ...; right after a tile's span is in
 *    shared memory each thread issues the loads of its next tile into
 *    registers (GK6_VEC + 1 = 5 vectors, 4 for most threads), and they stay
 *    in flight while the current tile is computed and stored. 5 blocks x
 *    256 threads x 4 x 16 B = 80 KB per SM are outstanding nearly all the
 *    time. An H200 SM's share of 4.8 TB/s is 36 GB/s, 36 KB per
 *    microsecond of latency (18 KB for the reads alone), so this covers
 *    well over 2 microseconds of DRAM latency. (Variant 3, at small w, has
 *    1 or 2 loads of 4 bytes per thread in flight, and none while it
 *    computes.)
 * 5. The mask in shared memory. Each block copies the taps from global
 *    memory once (zero after the last, to a multiple of 4) and reads them as
 *    16-byte broadcasts, all lanes on the same address. There is no host
 *    copy and no wait as in variants 2 to 5: the call returns as soon as
 *    the kernel is queued, and any width works.
 * 6. The arithmetic, as in variant 5 but 16 bytes at a time: thread t
 *    computes output vectors t + 256 u (4 outputs each, u < 4), with a
 *    12-word window of the span in registers. Per chunk of 4 taps: one new
 *    16-byte vector of the span, one 16-byte broadcast of the taps, 16 FFMA,
 *    and the window's slide by 4 words (8 moves in the source, which the
 *    compiler turns into 4 to 11 register moves, by kShift, and renames
 *    the rest away). The last w % 4 taps use the same window with
 *    predicated FFMAs, so no tap beyond width is ever multiplied and the
 *    result is exact for any input.
 *
 * Shared memory traffic at w = 7, per warp and 128 outputs: 3 or 4 window
 * loads of 16 bytes (by kShift; 4 wavefronts each, consecutive lanes on
 * consecutive 16-byte words: conflict-free), 2 mask broadcasts (1 wavefront
 * each) and 1 fill store of 16 bytes (4 wavefronts): at most 22
 * wavefronts. At the DRAM roof an SM turns out 4.8 TB/s / 8 B / 132 = 4.5 G
 * outputs/s, about 2.3 per clock at 1.98 GHz: 0.4 wavefronts per clock of
 * the 1 that shared memory serves. Instructions executed at w = 7
 * (cuobjdump -sass, CUDA 13.0): about 90 per output vector in the compute
 * and about 100 per tile in the fetch and the fill, about 470 per thread
 * and tile of 16 outputs, 29 per output: at 2.3 outputs per clock, about 2
 * of the 4 warp instructions per clock an SM issues. FMA: 16 of its 128
 * lanes per clock. So at w = 7 DRAM is the limit, with room in every other
 * unit.
 *
 * Wider masks. The chunk loop issues 16 FFMA in 28 to 35 instructions, by
 * kShift (cuobjdump -sass, CUDA 13.0, sm_90; kShift = 0, 1, 2, 3: 35, 33,
 * 31, 29 in the one-pass loop, 35, 34, 32, 28 in the multi-pass one): 2
 * LDS.128, 16 FFMA, 4 to 11 register moves and 6 for the addresses and the
 * loop. kShift = 1 is the bench's case at w = 7, 31, 127 and 1023 (in and
 * out from cudaMalloc, r mod 4 = 3): 16 FFMA in 33 instructions, 48%, so
 * this kernel's own FMA ceiling is about half of the fp32 peak,
 * 66.9 x 16 / 33 = 32.4 TFLOP/s on an H200 (30.6 to 36.9 over the four
 * shifts). The DRAM roof, 4.81 TB/s x w / 4 FLOP/B, reaches that near w = 27
 * (25 to 31 by kShift). Up to there it stays memory bound; beyond, it is
 * bound by instruction issue at about half the FMA peak (at w = 127, 2.1 ms,
 * about 4.7 times the DRAM time), which variant 7 is built to remove.
 * Measured (H200, CUDA 13.0, 2026-11-23, conv/bench-h200.json), n = 2^28:
 * lower than that count: 34.3% of the fp32 peak at w = 127 and 35.7% at
 * w = 1023, about a third, 71% and 74% of the 48% the count allows; at
 * w = 127 2.9721 ms, 5.9 times the device copy's 0.5049. At w = 31 it
 * reaches 60.1% of the copy's speed and variant 7 is already faster (0.7844
 * against 0.8398 ms).
 *
 * Masks wider than GK6_MAX_TAPS = 1024 taps take several passes over each
 * tile, each with its own span and taps; the sums wait between passes in
 * shared memory, each thread in its own 16-byte slots (no barrier needed).
 *
 * Resources: shared memory per block (1024 + ceil(w / 4) + 1) x 16 bytes
 * of span, ceil(w / 4) x 16 of taps, and, above 1024 taps, 16 KB of partial
 * sums: 16464 bytes at w = 7, 24592 at w = 1024, 40976 for wider masks,
 * always under the 48 KB that needs no opt-in. ptxas -v (CUDA 13.0, sm_90)
 * reports 48 registers per thread for all 4 shifts, no spills, under
 * __launch_bounds__(256, 5): 5 blocks of 256 threads per SM (1280
 * threads), 5 x 16.5 KB = 82 KB of shared memory at w = 7.
 *
 * Tuning knobs (compile-time macros), with the defaults and why:
 *   GK6_THREADS    256  threads per block.
 *   GK6_VEC          4  output vectors per thread per tile: kTile = 4096,
 *                       so the halo is 0.3% of the span at w = 7, and
 *                       kLoads = 5 loads of 16 bytes per thread cover the
 *                       span (4 for most threads: 64 bytes in flight).
 *   GK6_MAX_TAPS  1024  taps per pass: one pass covers every width up to
 *                       1024 in at most 24.6 KB of shared memory.
 *   GK6_MIN_BLOCKS   5  (1280 / GK6_THREADS; 1024 / GK6_THREADS on sm_75)
 *                       the register cap: 5 x 256 threads allow 48
 *                       registers, which ptxas fits without spilling; 6
 *                       blocks (40 registers) spill about 170 bytes and 8
 *                       (32 registers, full occupancy) about 400 bytes per
 *                       thread. 5 blocks already keep 80 KB per SM in
 *                       flight.
 * The bench at n = 2^28 and w = 7 against the copy ceiling is the test of
 * these; rebuild with e.g. -DGK6_VEC=2 or -DGK6_THREADS=512 to compare.
 *
 * Limits: any width (several passes above GK6_MAX_TAPS), any n: 64-bit
 * positions, a grid of min(resident blocks, tiles) whose blocks walk all
 * tiles. The table's "tile" is 4096 outputs, laid from position -d (point
 * 2). in, mask and out need only their 4-byte alignment. No workspace, no
 * host synchronisation.
 *
 * Sources: Kirk, Hwu & El Hajj, "Programming Massively Parallel
 * Processors", 4th ed., chapter 7 (tiled convolution, halo cells); CUDA C++
 * Programming Guide, "Device Memory Accesses" (sizes and alignment of
 * vector accesses), "Shared Memory" (banks), "Occupancy Calculator"; CUDA
 * C++ Best Practices Guide, "Coalesced Access to Global Memory".
 *
 * Build alone: nvcc -arch=sm_90 -c 06_streaming.cu, next to common.cuh (this
 * folder's shared plumbing: ceil_div, the shared-memory opt-in, the resident
 * grid); the two files and the CUDA toolkit are all it needs.
 */
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "common.cuh" /* ceil_div, allow_smem, resident_grid */

/* Tuning knobs (the header derives the defaults): */
#ifndef GK6_THREADS
#define GK6_THREADS 256 /* threads per block, a multiple of 32 */
#endif
#ifndef GK6_VEC
#define GK6_VEC 4 /* float4 outputs per thread per tile: tile = GK6_THREADS x GK6_VEC x 4 outputs */
#endif
#ifndef GK6_MAX_TAPS
#define GK6_MAX_TAPS 1024 /* taps per pass over the tile, a multiple of 4; wider masks take several passes */
#endif
#ifndef GK6_MIN_BLOCKS /* __launch_bounds__ blocks per SM: 5 x 256 threads caps registers at 48 */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 750
#define GK6_MIN_BLOCKS (1024 / GK6_THREADS) /* sm_75: 1024 threads per SM */
#else
#define GK6_MIN_BLOCKS (1280 / GK6_THREADS)
#endif
#endif

namespace {

constexpr unsigned kThreads = GK6_THREADS;
constexpr unsigned kVec = GK6_VEC;
constexpr unsigned kTileVecs = kThreads * kVec; /* float4 outputs per tile */
constexpr unsigned kTile = 4 * kTileVecs;       /* outputs per tile: 4096 by default */
constexpr unsigned kMaxTaps = GK6_MAX_TAPS;
constexpr unsigned kLoads = kVec + 1; /* 16-byte loads per thread issued together in the fill */
static_assert(kThreads % 32 == 0 && kThreads <= 1024, "GK6_THREADS: a multiple of 32, at most 1024");
static_assert(kVec >= 1, "GK6_VEC: at least 1");
static_assert(kMaxTaps % 4 == 0 && kMaxTaps >= 4, "GK6_MAX_TAPS: a positive multiple of 4");

/* Taps per pass rounded up to a multiple of 4: the size of the mask slot. */
__host__ __device__ inline unsigned pass_taps(size_t width)
{
    const size_t t = width < kMaxTaps ? width : kMaxTaps;
    return (unsigned)((t + 3) / 4 * 4);
}

/* Dynamic shared memory, in float4: the input span (kTileVecs + taps / 4 +
 * 1), the mask slot (taps / 4), and, for masks wider than one pass, the
 * partial sums of the tile (kTileVecs). */
inline size_t smem_vecs(size_t width)
{
    const unsigned taps = pass_taps(width);
    return kTileVecs + taps / 4 + 1 + taps / 4 + (width > kMaxTaps ? kTileVecs : 0);
}

/* Positions p .. p + 3 of the input, 0 outside [0, n): the vectors at the
 * two ends of the input, where a 16-byte load would leave the array. */
__device__ __forceinline__ float4 load_edge(const float *__restrict__ in, size_t n, long long p)
{
    float4 v;
    v.x = p + 0 >= 0 && p + 0 < (long long)n ? __ldg(in + (p + 0)) : 0.0f;
    v.y = p + 1 >= 0 && p + 1 < (long long)n ? __ldg(in + (p + 1)) : 0.0f;
    v.z = p + 2 >= 0 && p + 2 < (long long)n ? __ldg(in + (p + 2)) : 0.0f;
    v.w = p + 3 >= 0 && p + 3 < (long long)n ? __ldg(in + (p + 3)) : 0.0f;
    return v;
}

__device__ __forceinline__ void put4(float *w, float4 v)
{
    w[0] = v.x;
    w[1] = v.y;
    w[2] = v.z;
    w[3] = v.w;
}

/* Up to 4 taps (the first `taps` of m) into the 4 accumulators: output c,
 * tap jj reads window word kShift + c + jj. Called with taps = 4 (a
 * constant: 16 FFMA, no test) and once with the remainder width % 4. */
template <int kShift>
__device__ __forceinline__ void taps4(float (&acc)[4], const float (&w)[12], float4 m4, unsigned taps)
{
    const float m[4] = {m4.x, m4.y, m4.z, m4.w};
#pragma unroll
    for (unsigned jj = 0; jj < 4; ++jj)
        if (jj < taps) {
#pragma unroll
            for (unsigned c = 0; c < 4; ++c) acc[c] = fmaf(w[kShift + c + jj], m[jj], acc[c]);
        }
}

/* Outputs p .. p + 3 (p is 16-byte aligned in out); one 16-byte store when
 * all four are in [0, n), single stores of those that are otherwise. */
__device__ __forceinline__ void store4(float *__restrict__ out, size_t n, long long p, const float (&acc)[4])
{
    if (p >= 0 && p + 4 <= (long long)n) {
        *reinterpret_cast<float4 *>(out + p) = make_float4(acc[0], acc[1], acc[2], acc[3]);
    } else {
#pragma unroll
        for (int c = 0; c < 4; ++c)
            if (p + c >= 0 && p + c < (long long)n) out[p + c] = acc[c];
    }
}

/* Where the input of one pass over one tile lies. Tile k covers outputs
 * o0 .. o0 + kTile - 1, o0 = base + k kTile, base = -(out's offset in floats
 * from its 16-byte boundary), so that out + o0 is 16-byte aligned
 * (positions below 0 or from n on are computed and not stored). A pass
 * over taps j0 .. j0 + nt - 1 needs positions o0 - r + j0 on; va is the
 * vector of in4 that holds that position, and the span copied to shared
 * memory is in4[va .. va + nv - 1]. */
struct Span {
    long long va;      /* first vector: xs[v] = in4[va + v] */
    long long p_first; /* position of xs[0].x: 4 va - lead */
    unsigned nt;       /* taps in this pass */
    unsigned nv;       /* vectors in the span: kTileVecs + ceil(nt / 4) + 1 */
    bool inside;       /* the whole span lies in [0, n): plain 16-byte loads */
};

template <int kShift>
__device__ __forceinline__ Span span_of(long long o0, long long r, long long lead, size_t j0, size_t width, size_t n)
{
    Span s;
    s.nt = (unsigned)(width - j0 < kMaxTaps ? width - j0 : kMaxTaps);
    s.nv = kTileVecs + (s.nt + 3) / 4 + 1;
    /* Exact division: o0 - r + j0 + lead = kShift (mod 4) for every tile and
     * pass (kTile and kMaxTaps are multiples of 4), and kShift is chosen so. */
    s.va = (o0 - r + (long long)j0 + lead - kShift) / 4;
    s.p_first = 4 * s.va - lead;
    s.inside = s.p_first >= 0 && s.p_first + 4 * (long long)s.nv <= (long long)n;
    return s;
}

/* Issues this thread's loads of the span, vectors t + u kThreads for u <
 * kLoads, into registers: consecutive threads load consecutive vectors, so
 * each warp load is 512 contiguous bytes (interior tiles) and all kLoads
 * loads are in flight together. Vectors past kLoads kThreads (masks wider
 * than about 4 kThreads taps) are left to stash(). */
__device__ __forceinline__ void fetch(const float4 *__restrict__ in4, const float *__restrict__ in, size_t n,
                                      const Span &s, float4 (&x)[kLoads])
{
    const unsigned t = threadIdx.x;
    if (s.inside) {
#pragma unroll
        for (unsigned u = 0; u < kLoads; ++u)
            if (t + u * kThreads < s.nv) x[u] = __ldg(in4 + s.va + (t + u * kThreads));
    } else { /* a tile at either end: element by element, ghost cells 0, nothing read outside [0, n) */
#pragma unroll
        for (unsigned u = 0; u < kLoads; ++u)
            if (t + u * kThreads < s.nv) x[u] = load_edge(in, n, s.p_first + 4 * (long long)(t + u * kThreads));
    }
}

/* Stores the fetched vectors into the span in shared memory (consecutive
 * lanes, consecutive 16-byte words: conflict-free), and loads and stores
 * the rest of a span longer than kLoads kThreads vectors directly. */
__device__ __forceinline__ void stash(const float4 *__restrict__ in4, const float *__restrict__ in, size_t n,
                                      const Span &s, const float4 (&x)[kLoads], float4 *xs)
{
    const unsigned t = threadIdx.x;
#pragma unroll
    for (unsigned u = 0; u < kLoads; ++u)
        if (t + u * kThreads < s.nv) xs[t + u * kThreads] = x[u];
#pragma unroll 1
    for (unsigned v = t + kLoads * kThreads; v < s.nv; v += kThreads)
        xs[v] = s.inside ? __ldg(in4 + s.va + v) : load_edge(in, n, s.p_first + 4 * (long long)v);
}

/* The taps of one pass over one tile. Thread t computes output vectors
 * ov = t + u kThreads: in each step consecutive lanes take consecutive
 * vectors (coalesced 16-byte stores, conflict-free 16-byte shared reads).
 * Output vector ov reads scalar words 4 ov + kShift + c + j of the span; in
 * chunk k (taps 4k .. 4k + 3) those are words kShift + c + jj of the
 * 12-word window xs[ov + k .. ov + k + 2]. First pass: the sums start at 0;
 * last pass: they go to out; in between they wait in part (each thread
 * reads and writes only its own slots, so no barrier is needed for them). */
template <int kShift>
__device__ __forceinline__ void compute(const float4 *xs, const float4 *ms, float4 *part, bool first, bool last,
                                        unsigned nt, long long o0, float *__restrict__ out, size_t n)
{
    const bool whole = o0 >= 0 && o0 + (long long)kTile <= (long long)n;
    const unsigned full = nt / 4, rest = nt % 4;
#pragma unroll 1
    for (unsigned u = 0; u < kVec; ++u) {
        const unsigned ov = threadIdx.x + u * kThreads;
        float acc[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        if (!first) {
            const float4 a = part[ov];
            acc[0] = a.x, acc[1] = a.y, acc[2] = a.z, acc[3] = a.w;
        }
        float w[12];
        put4(w, xs[ov]);
        put4(w + 4, xs[ov + 1]);
#pragma unroll 1
        for (unsigned k = 0; k < full; ++k) {
            put4(w + 8, xs[ov + k + 2]);     /* one new 16-byte vector per chunk */
            taps4<kShift>(acc, w, ms[k], 4); /* ms[k]: the same address in every lane, a broadcast */
#pragma unroll
            for (unsigned q = 0; q < 8; ++q) w[q] = w[q + 4]; /* slide the window by 4 words */
        }
        if (rest) {
            put4(w + 8, xs[ov + full + 2]);
            taps4<kShift>(acc, w, ms[full], rest);
        }
        const long long p = o0 + 4 * (long long)ov; /* first of the 4 outputs, 16-byte aligned in out */
        if (last && whole) /* the whole tile in [0, n): a plain 16-byte store, no test */
            *reinterpret_cast<float4 *>(out + p) = make_float4(acc[0], acc[1], acc[2], acc[3]);
        else if (last)
            store4(out, n, p, acc);
        else
            part[ov] = make_float4(acc[0], acc[1], acc[2], acc[3]);
    }
}

/* kShift = (o0 - r + lead) mod 4, the same for every tile and pass: where
 * the first input of a pass sits inside its 16-byte vector. Launched with
 * smem_vecs(width) x 16 bytes of dynamic shared memory; taps =
 * pass_taps(width). */
template <int kShift>
__global__ void __launch_bounds__(kThreads, GK6_MIN_BLOCKS)
    conv_streaming(const float *__restrict__ in, size_t n, const float *__restrict__ mask, size_t width,
                   float *__restrict__ out, long long base, size_t tiles, unsigned taps)
{
    extern __shared__ float4 smem[];
    float4 *xs = smem;                          /* the input span of a pass, in in's own 16-byte vectors */
    float4 *ms = smem + kTileVecs + taps / 4 + 1; /* the taps of a pass, zero after the last */
    float4 *part = ms + taps / 4;               /* partial sums between passes (width > kMaxTaps only) */
    const unsigned t = threadIdx.x;
    const long long r = (long long)(width / 2);
    /* in4[v] holds positions 4v - lead .. 4v - lead + 3: the 16-byte
     * vectors of in's own alignment grid (in itself is 4-byte aligned). */
    const long long lead = (long long)((reinterpret_cast<uintptr_t>(in) & 15) / 4);
    const float4 *in4 = reinterpret_cast<const float4 *>(reinterpret_cast<uintptr_t>(in) & ~(uintptr_t)15);
    float4 x[kLoads];

    if (width <= kMaxTaps) {
        /* One pass per tile, the usual case. The taps are loaded once. The
         * loads of tile k + gridDim.x are issued right after tile k's span
         * is in shared memory, so they are in flight while tile k is
         * computed and stored: every thread keeps kLoads 16-byte loads
         * outstanding nearly all the time. */
#pragma unroll 1
        for (unsigned k = t; k < taps; k += kThreads)
            reinterpret_cast<float *>(ms)[k] = k < width ? __ldg(mask + k) : 0.0f;
        size_t tile = blockIdx.x;
        if (tile < tiles)
            fetch(in4, in, n, span_of<kShift>(base + (long long)(tile * kTile), r, lead, 0, width, n), x);
        for (; tile < tiles; tile += gridDim.x) {
            const long long o0 = base + (long long)(tile * kTile);
            const Span s = span_of<kShift>(o0, r, lead, 0, width, n);
            __syncthreads(); /* every thread is done reading the previous tile's span */
            stash(in4, in, n, s, x, xs);
            __syncthreads(); /* the span (and, the first time, the taps) is complete before any thread reads it */
            const size_t next = tile + gridDim.x;
            if (next < tiles)
                fetch(in4, in, n, span_of<kShift>(base + (long long)(next * kTile), r, lead, 0, width, n), x);
            compute<kShift>(xs, ms, part, true, true, s.nt, o0, out, n);
        }
    } else {
        /* Masks wider than kMaxTaps: several passes over each tile, each with
         * its own span and taps, the sums kept in part between passes. */
        const size_t passes = (width + kMaxTaps - 1) / kMaxTaps;
        for (size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
            const long long o0 = base + (long long)(tile * kTile);
            for (size_t pass = 0; pass < passes; ++pass) {
                const size_t j0 = pass * kMaxTaps;
                const Span s = span_of<kShift>(o0, r, lead, j0, width, n);
                fetch(in4, in, n, s, x);
                __syncthreads(); /* every thread is done reading the previous span and taps */
#pragma unroll 1
                for (unsigned k = t; k < taps; k += kThreads)
                    reinterpret_cast<float *>(ms)[k] = k < s.nt ? __ldg(mask + j0 + k) : 0.0f;
                stash(in4, in, n, s, x, xs);
                __syncthreads(); /* the span and the taps of this pass are complete */
                compute<kShift>(xs, ms, part, pass == 0, pass + 1 == passes, s.nt, o0, out, n);
            }
        }
    }
}

template <int kShift>
cudaError_t launch(const float *in, size_t n, const float *mask, size_t width, float *out, long long base,
                   size_t tiles, cudaStream_t stream)
{
    /* Above 48 KB only with tuning values far from the defaults (the
     * defaults need at most 40976 bytes). */
    const size_t smem = smem_vecs(width) * sizeof(float4);
    cudaError_t e = allow_smem(conv_streaming<kShift>, smem);
    if (e) return e;
    /* A grid of the resident blocks, each walking tiles blockIdx.x,
     * + gridDim.x, ...: one wave, and a next tile to prefetch for every
     * block but at the very end. Fewer blocks when there are fewer tiles. */
    unsigned blocks = 0;
    e = resident_grid(conv_streaming<kShift>, kThreads, smem, tiles, &blocks);
    if (e) return e;
    conv_streaming<kShift><<<blocks, kThreads, smem, stream>>>(in, n, mask, width, out, base, tiles, pass_taps(width));
    return cudaGetLastError();
}

} // namespace

extern "C" size_t gk_conv_06_streaming_workspace(size_t, size_t) { return 0; /* none */ }

extern "C" cudaError_t gk_conv_06_streaming_run(const float *in, size_t n, const float *mask, size_t width,
                                                float *out, void * /* workspace: none */, cudaStream_t stream)
{
    if (n == 0) return cudaSuccess;
    if (width == 0) return cudaErrorInvalidValue;
    /* Offsets in floats from the 16-byte boundary below each pointer. */
    const size_t lead = ((uintptr_t)in & 15) / 4, out_lead = ((uintptr_t)out & 15) / 4;
    const long long base = -(long long)out_lead; /* out + base is 16-byte aligned */
    const size_t tiles = ceil_div(n + out_lead, kTile);
    /* kShift = (base - r + lead) mod 4, in unsigned arithmetic. */
    const unsigned shift = (unsigned)((lead + 4 - out_lead + 4 - (width / 2) % 4) % 4);
    switch (shift) {
    case 0: return launch<0>(in, n, mask, width, out, base, tiles, stream);
    case 1: return launch<1>(in, n, mask, width, out, base, tiles, stream);
    case 2: return launch<2>(in, n, mask, width, out, base, tiles, stream);
    default: return launch<3>(in, n, mask, width, out, base, tiles, stream);
    }
}
