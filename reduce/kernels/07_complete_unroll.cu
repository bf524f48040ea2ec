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
 * Build alone: nvcc -arch=sm_90 -c 07_complete_unroll.cu
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
        reduce_complete_unroll<T, Op><<<(unsigned)blocks, kBlock, 0, stream>>>(src, m, dst);
        cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess || dst == out) return err;
        src = dst;
        m = blocks;
    }
}

} // namespace

/* Workspace: every intermediate level of more than one value. */
extern "C" size_t gk_reduce_07_complete_unroll_workspace(size_t n, size_t elem_size)
{
    size_t bytes = 0;
    for (size_t m = (n + kChunk - 1) / kChunk; m > 1; m = (m + kChunk - 1) / kChunk)
        bytes += m * elem_size;
    return bytes;
}

/* M: the number of blocks of pass 1, one partial each (block b: elements
 * [b*kChunk, (b+1)*kChunk)). */
extern "C" size_t gk_reduce_07_complete_unroll_num_partials(size_t n) { return (n + kChunk - 1) / kChunk; }

/* dtype: 0 = float, 1 = int32; op: 0 = sum, 1 = max, 2 = min (gk/reduce.h). */
extern "C" cudaError_t gk_reduce_07_complete_unroll_run(const void *in, size_t n, int dtype, int op, void *out,
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
