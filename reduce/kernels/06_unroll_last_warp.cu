/* Variant 6: the last warp unrolled (kernel 5 of Harris, "Optimizing
 * Parallel Reduction in CUDA"), written safely for Volta and later.
 *
 * The idea: once 32 or fewer threads are active they are all in warp 0, and
 * a warp needs no block-wide barrier. So the tree loop stops at stride 64,
 * and warp 0 finishes the last six steps (32, 16, 8, 4, 2, 1) with the loop
 * unrolled: no loop counter, no `if (t < stride)`, no __syncthreads().
 *
 * What changed and why it is faster: the last six of the eight steps were
 * the cheapest in additions and the most expensive in overhead (each ended
 * with a barrier across 8 warps of which 7 had nothing to do). A block now
 * executes 3 __syncthreads() (one after the load, then the loop's strides
 * 128 and 64) instead of variant 5's 9 (one after the load, then strides
 * 128, 64, ..., 1); warps 1-7 retire after the step at stride 64, and warp 0
 * runs straight-line code. The README's table: 0.0116 -> 0.0107 ms at
 * n = 2^20 (1.09x), 0.0533 -> 0.0437 ms at 2^24 (1.22x), 0.6456 -> 0.4676 ms
 * at 2^28 (1.38x).
 *
 * Written for Volta and later: Harris's kernel relied on the 32 threads of
 * a warp running in lockstep and used a `volatile` shared pointer with no
 * barrier. Since Volta (independent thread scheduling) that is a data race
 * (NVIDIA's "Using CUDA Warp-Level Primitives", 2018, shows this very
 * case); here every step is separated by __syncwarp(), 12 in all, which
 * order the lanes' shared-memory accesses. They cost next to nothing: in
 * this straight-line code nvcc emits no waiting instruction for them on
 * sm_90 (cuobjdump -sass shows NOPs in their place); what they guarantee is
 * the ordering, which the compiler must then respect.
 *
 * Limits: launched with 256 threads per block (at least 64), any n.
 * Build alone: nvcc -arch=sm_90 -c 06_unroll_last_warp.cu
 */
#include <cuda_runtime.h>
#include <stddef.h>

namespace {

/* ---- Operations. Each kernel file carries this block so that it compiles on
 * its own: copy one file into your project and it builds. ---------------- */
struct Sum {
    __device__ static float apply(float a, float b) { return a + b; }
    /* int32 sums wrap modulo 2^32: add as unsigned, where wrapping is defined. */
    __device__ static int apply(int a, int b) { return (int)((unsigned)a + (unsigned)b); }
    __device__ static float identity(float) { return 0.0f; }
    __device__ static int identity(int) { return 0; }
};
struct Max {
    __device__ static float apply(float a, float b) { return fmaxf(a, b); }
    __device__ static int apply(int a, int b) { return a > b ? a : b; }
    __device__ static float identity(float) { return __int_as_float(0xff800000); } /* -inf */
    __device__ static int identity(int) { return -2147483647 - 1; }
};
struct Min {
    __device__ static float apply(float a, float b) { return fminf(a, b); }
    __device__ static int apply(int a, int b) { return a < b ? a : b; }
    __device__ static float identity(float) { return __int_as_float(0x7f800000); } /* +inf */
    __device__ static int identity(int) { return 2147483647; }
};

constexpr unsigned kBlock = 256;          /* threads per block */
constexpr unsigned kChunk = 2 * kBlock;   /* elements per block in a pass: two per thread */

/* The last six steps of the tree, done by warp 0 alone (s[0..63] hold the
 * values left). No __syncthreads(): the 32 threads are one warp. Since Volta
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

template <typename T, typename Op>
__global__ void reduce_unroll_last_warp(const T *__restrict__ in, size_t n, T *__restrict__ block_out)
{
    __shared__ T s[kBlock];
    const unsigned t = threadIdx.x;
    /* First add during load: thread t adds elements t and t + 256 of its
     * block's 512 (both loads coalesced) before anything touches shared
     * memory. Past the end it uses the identity. */
    size_t i = (size_t)blockIdx.x * kChunk + t;
    T a = i < n ? in[i] : Op::identity(T());
    T b = i + kBlock < n ? in[i + kBlock] : Op::identity(T());
    s[t] = Op::apply(a, b);
    __syncthreads(); /* all of s is written before anyone reads a neighbour's slot */
    for (unsigned stride = blockDim.x / 2; stride > 32; stride >>= 1) {
        if (t < stride) s[t] = Op::apply(s[t], s[t + stride]);
        __syncthreads(); /* this level's sums are complete before the next level reads them */
    }
    if (t < 32) {
        T v = warp_tail<T, Op>(s, t);
        if (t == 0) block_out[blockIdx.x] = v;
    }
}

/* The passes. Pass 1 reduces the input to one value per block (the M
 * per-block partials, written to `partials` when the caller asked for them);
 * each later pass reduces the previous pass's values the same way, until a
 * single block is left, which writes *out. The intermediate levels live in
 * the workspace, one after another. */
template <typename T, typename Op>
cudaError_t run(const void *in_, size_t n, void *out_, void *partials_, void *ws_, cudaStream_t stream)
{
    const T *src = (const T *)in_;
    T *out = (T *)out_, *partials = (T *)partials_, *ws = (T *)ws_;
    size_t m = n;
    for (int pass = 1;; ++pass) {
        size_t blocks = (m + kChunk - 1) / kChunk;
        if (blocks == 0) blocks = 1; /* n = 0: one block writes the identity */
        T *dst;
        if (pass == 1 && partials != NULL) dst = partials;
        else if (blocks == 1) dst = out;
        else {
            dst = ws;
            ws += blocks;
        }
        reduce_unroll_last_warp<T, Op><<<(unsigned)blocks, kBlock, 0, stream>>>(src, m, dst);
        cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess || dst == out) return err;
        src = dst;
        m = blocks;
    }
}

} // namespace

/* Workspace: every intermediate level of more than one value. */
extern "C" size_t gk_reduce_06_unroll_last_warp_workspace(size_t n, size_t elem_size)
{
    size_t bytes = 0;
    for (size_t m = (n + kChunk - 1) / kChunk; m > 1; m = (m + kChunk - 1) / kChunk)
        bytes += m * elem_size;
    return bytes;
}

/* M: the number of blocks of pass 1, one partial each (block b: elements
 * [b*kChunk, (b+1)*kChunk)). */
extern "C" size_t gk_reduce_06_unroll_last_warp_num_partials(size_t n) { return (n + kChunk - 1) / kChunk; }

/* dtype: 0 = float, 1 = int32; op: 0 = sum, 1 = max, 2 = min (gk/reduce.h). */
extern "C" cudaError_t gk_reduce_06_unroll_last_warp_run(const void *in, size_t n, int dtype, int op, void *out,
                                  void *partials, void *workspace, cudaStream_t stream)
{
    switch (dtype * 3 + op) {
    case 0: return run<float, Sum>(in, n, out, partials, workspace, stream);
    case 1: return run<float, Max>(in, n, out, partials, workspace, stream);
    case 2: return run<float, Min>(in, n, out, partials, workspace, stream);
    case 3: return run<int, Sum>(in, n, out, partials, workspace, stream);
    case 4: return run<int, Max>(in, n, out, partials, workspace, stream);
    case 5: return run<int, Min>(in, n, out, partials, workspace, stream);
    default: return cudaErrorInvalidValue;
    }
}
