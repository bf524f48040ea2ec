/* Variant 5: first add during load (kernel 4 of Harris, "Optimizing
 * Parallel Reduction in CUDA"; PMPP, 4th ed., section 10.6, where each
 * thread also adds two inputs as it loads them).
 *
 * The idea: variant 4 keeps 256 threads alive to add 128 pairs at its first
 * step. Instead, give each block 512 elements for its 256 threads, and let
 * every thread add its two elements while loading them from global memory;
 * the tree in shared memory starts with 256 values, all of them sums.
 *
 * What changed and why it is faster: two loads in flight per thread instead
 * of one, and half as many blocks. nvcc issues the two independent loads
 * (in[i] and in[i + 256]) back to back, before the add that uses them
 * (cuobjdump -sass for sm_90 shows two LDGs, then the FADD), so each thread
 * has 8 bytes in flight where variant 4 had 4. And a block now reads 512
 * elements (n/512 blocks: 2^24/512 = 32768 at n = 2^24, where variant 4
 * launched 2^24/256 = 65536) but still does one shared-memory store per
 * thread and the same 1 + 8 = 9 __syncthreads(): per element, half the
 * stores, half the barriers and half the tree steps, during which a block
 * has no load in flight. Global memory traffic is unchanged (each element is
 * still read once). The README's table: 0.0140 -> 0.0116 ms at n = 2^20
 * (1.21x), 0.0901 -> 0.0533 ms at 2^24 (1.69x), 1.2285 -> 0.6456 ms at 2^28
 * (1.90x): at 2^24 and 2^28 the largest step of the ladder after the first.
 * That it grows with n fits the explanation above (more bytes in flight
 * matter most when the loads, not the fixed costs, dominate); it is a
 * reading of the table, not a profile.
 *
 * The new problem: instruction overhead. Now that the memory side is lighter,
 * the tree's bookkeeping shows: the loop counter, the compare, and a
 * __syncthreads() at every step, even in the last steps when only one warp
 * (32 threads or fewer) is left and no block-wide barrier is needed. Bound
 * by: memory latency (two 4-byte loads in flight per thread, none during the
 * tree) and instruction issue.
 *
 * Limits: launched with 256 threads per block, any n.
 * Build alone: nvcc -arch=sm_90 -c 05_first_add_during_load.cu
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

template <typename T, typename Op>
__global__ void reduce_first_add(const T *__restrict__ in, size_t n, T *__restrict__ block_out)
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
    for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
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
        reduce_first_add<T, Op><<<(unsigned)blocks, kBlock, 0, stream>>>(src, m, dst);
        cudaError_t err = cudaGetLastError();
        if (err != cudaSuccess || dst == out) return err;
        src = dst;
        m = blocks;
    }
}

} // namespace

/* Workspace: every intermediate level of more than one value. */
extern "C" size_t gk_reduce_05_first_add_during_load_workspace(size_t n, size_t elem_size)
{
    size_t bytes = 0;
    for (size_t m = (n + kChunk - 1) / kChunk; m > 1; m = (m + kChunk - 1) / kChunk)
        bytes += m * elem_size;
    return bytes;
}

/* M: the number of blocks of pass 1, one partial each (block b: elements
 * [b*kChunk, (b+1)*kChunk)). */
extern "C" size_t gk_reduce_05_first_add_during_load_num_partials(size_t n) { return (n + kChunk - 1) / kChunk; }

/* dtype: 0 = float, 1 = int32; op: 0 = sum, 1 = max, 2 = min (gk/reduce.h). */
extern "C" cudaError_t gk_reduce_05_first_add_during_load_run(const void *in, size_t n, int dtype, int op, void *out,
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
