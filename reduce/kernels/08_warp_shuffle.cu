/* Variant 8: warp shuffle (as in Justin Luitjens, "Faster Parallel
 * Reductions on Kepler", NVIDIA Developer Blog, 2014, and CUB's
 * cub::BlockReduce with its default BLOCK_REDUCE_WARP_REDUCTIONS algorithm).
 *
 * The idea: threads of one warp can read each other's registers directly
 * with __shfl_down_sync, without going through shared memory. Each warp
 * reduces its 32 values in 5 shuffle steps; the 8 warp results go through
 * shared memory once; warp 0 reduces those 8 with shuffles again.
 *
 * What changed: the tree no longer touches shared memory at each step.
 * Counting per block of 256 threads: variant 7 executes 3 __syncthreads()
 * (after the load, after strides 128 and 64) and 12 __syncwarp() (warp 0's
 * six steps, two each), and 39 warp-level shared-memory instructions with
 * work in them (8 warps store s[t]; at stride 128, 4 warps load 2 words and
 * store 1: 12; at stride 64, 2 warps: 6; warp 0's tail, 1 load then 6 x
 * (load + store): 13). (nvcc predicates the steps at strides 128 and 64
 * instead of branching around them, so the idle warps issue those 3
 * instructions too, with every lane off: 30 more issued, none of them
 * touching memory; cuobjdump -sass for sm_90.) Variant 8 executes 1
 * __syncthreads() and 9 shared-memory instructions (one store per warp, by
 * lane 0; one load by warp 0), but 45 shuffles (5 in each of the 8 warps,
 * then 5 more in warp 0) with an add after each.
 *
 * What the table shows: no gain; 8 is slightly slower than 7 at every size.
 * The README's table gives 0.0107 against 0.0105 ms at n = 2^20 (1.8%),
 * 0.0435 against 0.0428 ms at 2^24 (1.4%) and 0.4581 against 0.4533 ms at
 * 2^28 (1.1%). Only at 2^28 is the gap clear of the run-to-run spread: in
 * bench-h200.json the min..max ranges of 8 and 7 there, 0.4566..0.4596 and
 * 0.4517..0.4554 ms, do not overlap, while at 2^20 and 2^24 they do. Why:
 * both variants read the same 512 elements per block with the same two
 * 4-byte loads in flight per thread, and a block's life is mostly the wait
 * for those loads; the tree after them is a small part of it, so making the
 * tree cheaper in shared-memory traffic and barriers does not show. (That
 * is a reading of the table, not a profile; nothing measured here explains
 * the 1-2% by which 8 is slower.) Shuffles can pay off where the tree is a
 * larger share of a block's time; here their value is that block_reduce()
 * is short and needs a single barrier, which variants 9-11 reuse (they take
 * the same two functions from common.cuh, as v8::warp_reduce and
 * v8::block_reduce).
 *
 * What is left: every block still reads just 512 elements, two loads in
 * flight per thread, and then retires; n/512 short blocks are launched
 * (524,288 at n = 2^28), and a chain of launches reduces their results (4 at
 * 2^28: 2^28 -> 524288 -> 1024 -> 2 -> 1 values). Bound by: memory latency
 * (too little data in flight) and per-block overhead.
 *
 * Limits: launched with 256 threads per block (a multiple of 32), any n.
 * From common.cuh in this folder: the Sum/Max/Min operations and the chain of
 * launches that reduces the per-block values (run_passes). This file and that
 * header are all a project needs besides the CUDA toolkit.
 * Build alone (in this folder): nvcc -arch=sm_90 -c 08_warp_shuffle.cu
 */
#include "common.cuh"

namespace {

constexpr unsigned kBlock = 256;          /* threads per block */
constexpr unsigned kChunk = 2 * kBlock;   /* elements per block in a pass: two per thread */

/* Sum (or max, min) of one value per lane across a warp, in registers: at
 * each step lane l adds the value of lane l + offset, which __shfl_down_sync
 * reads straight out of that lane's register. After 5 steps lane 0 holds the
 * warp's result. The full mask says all 32 lanes take part (the kernels below
 * always call this with whole warps). */
template <typename T, typename Op>
__device__ T warp_reduce(T v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v = Op::apply(v, __shfl_down_sync(0xffffffffu, v, offset));
    return v;
}

/* Block-wide result from one value per thread: shuffle within each warp,
 * park each warp's result in shared memory, then warp 0 shuffles those.
 * Valid in thread 0. One barrier in all. */
template <typename T, typename Op>
__device__ T block_reduce(T v)
{
    __shared__ T warp_results[kBlock / 32];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_reduce<T, Op>(v);
    if (lane == 0) warp_results[warp] = v;
    __syncthreads(); /* every warp's result is in shared memory before warp 0 reads them */
    if (warp == 0) {
        v = lane < kBlock / 32 ? warp_results[lane] : Op::identity(T());
        v = warp_reduce<T, Op>(v);
    }
    return v;
}

template <typename T, typename Op>
__global__ void __launch_bounds__(kBlock) reduce_warp_shuffle(const T *__restrict__ in, size_t n,
                                                                T *__restrict__ block_out)
{
    const unsigned t = threadIdx.x;
    /* First add during load: thread t adds elements t and t + 256 of its
     * block's 512 (both loads coalesced) before anything touches shared
     * memory. Past the end it uses the identity. */
    size_t i = (size_t)blockIdx.x * kChunk + t;
    T a = i < n ? in[i] : Op::identity(T());
    T b = i + kBlock < n ? in[i + kBlock] : Op::identity(T());
    T v = block_reduce<T, Op>(Op::apply(a, b));
    if (t == 0) block_out[blockIdx.x] = v;
}

} // namespace

/* The entry points that reduce/variants.h declares, gk_reduce_08_warp_shuffle_workspace,
 * _num_partials and _run: common.cuh's chain of passes, launching this kernel. */
GK_REDUCE_PASSES_ENTRY_POINTS(gk_reduce_08_warp_shuffle, reduce_warp_shuffle, kBlock, kChunk)
