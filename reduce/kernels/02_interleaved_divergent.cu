/* Variant 2: tree in shared memory, interleaved addressing, divergent branch
 * (kernel 1 of Mark Harris, "Optimizing Parallel Reduction in CUDA", NVIDIA,
 * 2007; PMPP, 4th ed., section 10.3, "A simple reduction kernel", builds
 * the same divergent tree).
 *
 * The idea: each block of 256 threads copies 256 elements into shared memory
 * and sums them as a binary tree: at step s (1, 2, 4, ...), thread t adds
 * s[t + s] into s[t] when t is a multiple of 2s. After log2(256) = 8 steps
 * s[0] holds the block's sum, which thread 0 writes out: one partial per
 * block. Those M partials are reduced the same way by a second launch, and so
 * on, until one value is left. Each launch divides the count by 256 = 2^8, so
 * a call makes ceil(log2(n) / 8) launches (one for n <= 256): two up to
 * 2^16 = 65536 elements, three up to 2^24 (so 3 at the table's 2^20 and
 * 2^24), four up to 2^32 (4 at 2^28), five up to GK_REDUCE_MAX_N = 2^38
 * (2^38 -> 2^30 -> 2^22 -> 2^14 -> 64 -> 1 values).
 *
 * What changed from variant 1: no atomics. Each element is read once,
 * coalesced, and the additions happen in parallel inside each block, so the
 * time now depends on bandwidth and instruction issue instead of one
 * address's atomic rate: the first big jump of the ladder (the README's
 * table: 92x over variant 1 at n = 2^20, 172x at 2^24, 184x at 2^28).
 *
 * Why it is still slow: `t % (2*s) == 0` picks every other thread, then
 * every fourth... so in every warp half the lanes or more sit idle while the
 * few active ones work (divergence): 32 lanes are issued for 16, 8, 4...
 * useful adds. The modulo itself is an expensive integer operation, done by
 * every thread at every step: 2s is not known at compile time, so nvcc emits
 * a full unsigned remainder, about 17 instructions including a reciprocal
 * (cuobjdump -sass of this file for sm_90). Bound by: instruction issue, not
 * memory (8.7% of peak DRAM bandwidth at 2^28 in the table).
 *
 * The loops read blockDim.x at run time, as Harris's kernels do (variant 7
 * makes the block size a compile-time constant).
 *
 * Limits: launched with 256 threads per block, any n.
 * Build alone: nvcc -arch=sm_90 -c 02_interleaved_divergent.cu
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

constexpr unsigned kBlock = 256;      /* threads per block */
constexpr unsigned kChunk = kBlock;   /* elements per block in a pass */

template <typename T, typename Op>
__global__ void reduce_interleaved_divergent(const T *__restrict__ in, size_t n, T *__restrict__ block_out)
{
    __shared__ T s[kBlock];
    const unsigned t = threadIdx.x;
    /* One element per thread. size_t index: n may exceed 2^31. Past the end
     * the thread loads the identity, so the tree below needs no bounds. */
    size_t i = (size_t)blockIdx.x * kChunk + t;
    s[t] = i < n ? in[i] : Op::identity(T());
    __syncthreads(); /* all of s is written before anyone reads a neighbour's slot */

    for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
        /* The divergent branch: active threads are spread over every warp. */
        if (t % (2 * stride) == 0) s[t] = Op::apply(s[t], s[t + stride]);
        __syncthreads(); /* this level's sums are complete before the next level reads them */
    }
    if (t == 0) block_out[blockIdx.x] = s[0];
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
        reduce_interleaved_divergent<T, Op><<<(unsigned)blocks, kBlock, 0, stream>>>(src, m, dst);
        cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess || dst == out) return err;
        src = dst;
        m = blocks;
    }
}

} // namespace

/* Workspace: every intermediate level of more than one value. */
extern "C" size_t gk_reduce_02_interleaved_divergent_workspace(size_t n, size_t elem_size)
{
    size_t bytes = 0;
    for (size_t m = (n + kChunk - 1) / kChunk; m > 1; m = (m + kChunk - 1) / kChunk)
        bytes += m * elem_size;
    return bytes;
}

/* M: the number of blocks of pass 1, one partial each (block b: elements
 * [b*kChunk, (b+1)*kChunk)). */
extern "C" size_t gk_reduce_02_interleaved_divergent_num_partials(size_t n) { return (n + kChunk - 1) / kChunk; }

/* dtype: 0 = float, 1 = int32; op: 0 = sum, 1 = max, 2 = min (gk/reduce.h). */
extern "C" cudaError_t gk_reduce_02_interleaved_divergent_run(const void *in, size_t n, int dtype, int op, void *out,
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
