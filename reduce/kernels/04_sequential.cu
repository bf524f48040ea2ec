/* Variant 4: sequential addressing, no bank conflicts (kernel 3 of Harris,
 * "Optimizing Parallel Reduction in CUDA"; PMPP, 4th ed., sections 10.4
 * and 10.5 reach this addressing directly from variant 2's, to minimise
 * control divergence and then memory divergence).
 *
 * The idea: run the tree the other way round. At the first step the upper
 * half of the array is added onto the lower half (thread t: s[t] += s[t+128]),
 * then the upper half of what is left (s[t] += s[t+64]), and so on.
 *
 * What changed and why it is faster: in every step the active threads are
 * 0..stride-1, consecutive as in variant 3, so no warp is partly active
 * until fewer than 32 threads are left; and thread t now reads words t and
 * t+stride, so the active lanes of a warp read consecutive words: each in a
 * different bank, no conflict, one shared-memory round per access (variant
 * 3 needed up to 8). The README's table: 0.0155 -> 0.0140 ms at n = 2^20
 * (1.11x), 0.1117 -> 0.0901 ms at 2^24 (1.24x), 1.5812 -> 1.2285 ms at 2^28
 * (1.29x).
 *
 * The new problem: idle threads. Half the threads have nothing to do from
 * the very first step on (they only wait at each barrier), after doing
 * nothing but one load: the block keeps 256 threads alive to add 128 pairs.
 * And each thread has a single 4-byte load in flight, after which its block
 * spends 8 barrier-separated tree steps with no load in flight at all.
 * Bound by: memory latency and per-block overhead (a hypothesis: the memory
 * system is far from busy, 18.2% of peak at 2^28 in the table, and variant 5,
 * which doubles the loads in flight per thread, is 1.9x faster there).
 *
 * Limits: 256 threads per block, any n.
 * Build alone: nvcc -arch=sm_90 -c 04_sequential.cu
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
__global__ void reduce_sequential(const T *__restrict__ in, size_t n, T *__restrict__ block_out)
{
    __shared__ T s[kBlock];
    const unsigned t = threadIdx.x;
    /* One element per thread. size_t index: n may exceed 2^31. Past the end
     * the thread loads the identity, so the tree below needs no bounds. */
    size_t i = (size_t)blockIdx.x * kChunk + t;
    s[t] = i < n ? in[i] : Op::identity(T());
    __syncthreads(); /* all of s is written before anyone reads a neighbour's slot */

    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        /* Threads 0..stride-1 read words t and t+stride: consecutive words,
         * one bank each, no conflicts. */
        if (t < stride) s[t] = Op::apply(s[t], s[t + stride]);
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
        reduce_sequential<T, Op><<<(unsigned)blocks, kBlock, 0, stream>>>(src, m, dst);
        cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess || dst == out) return err;
        src = dst;
        m = blocks;
    }
}

} // namespace

/* Workspace: every intermediate level of more than one value. */
extern "C" size_t gk_reduce_04_sequential_workspace(size_t n, size_t elem_size)
{
    size_t bytes = 0;
    for (size_t m = (n + kChunk - 1) / kChunk; m > 1; m = (m + kChunk - 1) / kChunk)
        bytes += m * elem_size;
    return bytes;
}

/* M: the number of blocks of pass 1, one partial each (block b: elements
 * [b*kChunk, (b+1)*kChunk)). */
extern "C" size_t gk_reduce_04_sequential_num_partials(size_t n) { return (n + kChunk - 1) / kChunk; }

/* dtype: 0 = float, 1 = int32; op: 0 = sum, 1 = max, 2 = min (gk/reduce.h). */
extern "C" cudaError_t gk_reduce_04_sequential_run(const void *in, size_t n, int dtype, int op, void *out,
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
