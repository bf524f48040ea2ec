/* Variant 7: complete unroll with a compile-time block size (kernel 6 of
 * Harris, "Optimizing Parallel Reduction in CUDA").
 *
 * The idea: variants 2-6 read blockDim.x at run time, so the compiler cannot
 * know how many steps the tree has and must keep the loop. Make the block
 * size a template parameter instead: every `if (BLOCK >= 512)` below is
 * decided at compile time, the dead steps disappear, and the remaining steps
 * are straight-line code with constant offsets.
 *
 * What changed: no loop counter, no shift, no compare against a run-time
 * bound in the tree, and the shared-memory addresses are immediate offsets.
 * How much that is worth here: variant 6's loop had only two trips left
 * (strides 128 and 64), so little. The README's table: 0.0107 -> 0.0105 ms
 * at n = 2^20 (1.02x), 0.0437 -> 0.0428 ms at 2^24 (1.02x), 0.4676 ->
 * 0.4533 ms at 2^28 (1.03x). One kernel is compiled for each block size
 * that is used; the launcher here uses 256 (the kBlock constant is the only
 * knob).
 *
 * What is left: each thread still has just two 4-byte loads in flight from
 * global memory (the same as variants 5 and 6), and every block still goes
 * through shared memory and 3 block-wide barriers (one after the load, two
 * in the tree) plus warp 0's 12 __syncwarp(). Bound by: memory latency,
 * with too few loads in flight per thread to fill the bandwidth (49.2% of
 * peak at 2^28 in the table).
 *
 * Limits: block sizes 64..1024 (a power of two), launched with 256; any n.
 * From common.cuh in this folder: the Sum/Max/Min operations and the chain of
 * launches that reduces the per-block values (run_passes). This file and that
 * header are all a project needs besides the CUDA toolkit.
 * Build alone (in this folder): nvcc -arch=sm_90 -c 07_complete_unroll.cu
 */
#include "common.cuh"

namespace {

constexpr unsigned kBlock = 256;          /* threads per block */
constexpr unsigned kChunk = 2 * kBlock;   /* elements per block in a pass: two per thread */

/* Variant 6's warp tail, unchanged: repeated here so that the whole unrolled
 * tree is in this file. The last six steps of the tree, done by warp 0 alone
 * (s[0..63] hold the values left). No __syncthreads(): the 32 threads are one warp. Since Volta
 * the threads of a warp are not guaranteed to run in lockstep, so each step
 * reads its partner, waits at __syncwarp() until every lane has read, writes,
 * and waits again until every lane has written before the next read. (The
 * pre-Volta trick, a `volatile` pointer and no barrier at all, is a race.) */
template <typename T, typename Op>
__device__ T warp_tail(T *s, unsigned t)
{
    T v = s[t];
#pragma unroll
    for (unsigned stride = 32; stride > 0; stride >>= 1) {
        v = Op::apply(v, s[t + stride]);
        __syncwarp(); /* every lane has read s[t + stride] before anyone overwrites it */
        s[t] = v;
        __syncwarp(); /* every lane's new value is visible before the next read */
    }
    return v; /* lane 0: the block's result */
}

template <typename T, typename Op, unsigned BLOCK = kBlock>
__global__ void __launch_bounds__(BLOCK) reduce_complete_unroll(const T *__restrict__ in, size_t n,
                                                                  T *__restrict__ block_out)
{
    static_assert(BLOCK >= 64 && BLOCK <= 1024 && (BLOCK & (BLOCK - 1)) == 0, "BLOCK: power of two in 64..1024");
    __shared__ T s[BLOCK];
    const unsigned t = threadIdx.x;
    /* First add during load, as in variant 5, over this block's 2*BLOCK elements. */
    size_t i = (size_t)blockIdx.x * (2 * BLOCK) + t;
    T a = i < n ? in[i] : Op::identity(T());
    T b = i + BLOCK < n ? in[i + BLOCK] : Op::identity(T());
    s[t] = Op::apply(a, b);
    __syncthreads(); /* all of s is written before anyone reads a neighbour's slot */
    /* Each step is kept or removed by the compiler; the barrier after a step
     * makes its sums visible to the next one. */
    if (BLOCK >= 1024) { if (t < 512) s[t] = Op::apply(s[t], s[t + 512]); __syncthreads(); }
    if (BLOCK >= 512) { if (t < 256) s[t] = Op::apply(s[t], s[t + 256]); __syncthreads(); }
    if (BLOCK >= 256) { if (t < 128) s[t] = Op::apply(s[t], s[t + 128]); __syncthreads(); }
    if (BLOCK >= 128) { if (t < 64) s[t] = Op::apply(s[t], s[t + 64]); __syncthreads(); }
    if (t < 32) {
        T v = warp_tail<T, Op>(s, t);
        if (t == 0) block_out[blockIdx.x] = v;
    }
}

} // namespace

/* The entry points that reduce/variants.h declares, gk_reduce_07_complete_unroll_workspace,
 * _num_partials and _run: common.cuh's chain of passes, launching this kernel. */
GK_REDUCE_PASSES_ENTRY_POINTS(gk_reduce_07_complete_unroll, reduce_complete_unroll, kBlock, kChunk)
