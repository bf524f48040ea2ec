/* Variant 12: the deterministic sum. Variant 11 with its atomic tail
 * replaced by a fixed-order tree over the per-block results: the same bits
 * on every run, on any stream, whatever else runs beside it.
 *
 * The idea. A float sum depends on the order of its additions: (a + b) + c
 * and a + (b + c) may differ in the last bit. Variant 11 fixes the order of
 * everything inside a block (each thread's loop, then the shuffle tree) but
 * adds the block results into *out with atomicAdd, in the order the blocks
 * happen to finish; that order changes from run to run, and so may the last
 * bits of the sum. Here every block stores its result in the workspace at
 * its own slot, takes a ticket, and the last block to finish adds the stored
 * results in slot order with a fixed tree (thread t adds slots t, t + 512,
 * ... in that order, then the block's shuffle tree): the order of every
 * addition is set by the code, not by the timing. The ticket is an atomic on
 * a counter, never on the data. (Variant 11 already ends max and min this
 * way; here sums do too.)
 *
 * What makes it the same on every run: which elements a thread adds, and in
 * what order, depends on n, the alignment of `in` and the grid; the grid is
 * min(what n needs, SMs x resident blocks per SM, 4096), set by the GPU
 * model and this kernel's occupancy, never by the stream or by other work.
 * So the same input on the same GPU model gives the same bits; another GPU
 * model (another SM count) may round differently, always within the bound.
 *
 * The cost, against variant 11: each block stores 4 bytes, fences and takes
 * a ticket (an atomic whose answer it waits for, instead of a fire-and-
 * forget RED); the last block reads at most 4096 results (16 KiB) and
 * reduces them, after every other block has finished. Both launchers queue
 * one 4-byte cudaMemsetAsync before the kernel (variant 11 zeroes *out, this
 * one the ticket counter: the workspace comes uninitialised), so that is not
 * the difference. Measured on an H100 (the README's table under step 12,
 * f32 sums): about 2 us at every size, 9.06 against 7.30 us at n = 2^20
 * (1.064x CUB instead of 1.320x) and 355.6 against 353.6 us at 2^28 (1.012x
 * CUB instead of 1.018x, both as fast as the read-only stream).
 * Bound by: DRAM bandwidth at large n, launch and DRAM latency at small n.
 *
 * Limits: f32 and i32, sum, max, min; 512 threads per block; grid min(resident
 * blocks, 4096, what n needs); any n; `in` 4-byte aligned. Workspace: 256
 * bytes of counter + 4096 block results.
 * From common.cuh in this folder: the Sum/Max/Min operations, variant 8's
 * block reduction (v8::block_reduce) and the dtype x op switch.
 * Build alone (in this folder): nvcc -arch=sm_90 -c 12_deterministic_sum.cu
 */
#include <stdint.h>

#include "common.cuh"

namespace {

/* Variant 11's values. */
constexpr unsigned kBlock = 512; /* threads per block */
constexpr unsigned kUnroll = 4;  /* 16-byte vectors in flight per thread */
constexpr size_t kMaxBlocks = 4096;    /* bounds the workspace, whatever the GPU */
constexpr size_t kCounterBytes = 256;  /* the arrival counter's slot; keeps the block results aligned */

template <typename T> struct Vec16;
template <> struct Vec16<float> { typedef float4 type; };
template <> struct Vec16<int> { typedef int4 type; };

/* A read-only 16-byte load (ld.global.nc: the input is not written during the
 * kernel). PTX also has cache-hinted forms (an L2::256B prefetch,
 * evict-first); none is used here, and this repository records no timing of
 * them. */
__device__ __forceinline__ float4 load16(const float4 *p) { return __ldg(p); }
__device__ __forceinline__ int4 load16(const int4 *p) { return __ldg(p); }

template <typename Op> __device__ __forceinline__ float combine4(float4 v)
{
    return Op::apply(Op::apply(v.x, v.y), Op::apply(v.z, v.w));
}
template <typename Op> __device__ __forceinline__ int combine4(int4 v)
{
    return Op::apply(Op::apply(v.x, v.y), Op::apply(v.z, v.w));
}

template <typename T, typename Op>
__global__ void __launch_bounds__(kBlock) reduce_deterministic(const T *__restrict__ in, size_t n, size_t head,
                                                              T *__restrict__ out, T *__restrict__ block_results,
                                                              unsigned *__restrict__ arrivals)
{
    typedef typename Vec16<T>::type V;
    const V *vin = reinterpret_cast<const V *>(in + head); /* 16-byte aligned by the choice of head */
    const size_t nvec = (n - head) / 4;
    T acc = Op::identity(T());

    /* The scalars outside the vector range: threads 0-3 of block 0 take the
     * head (elements 0..head-1), threads 4-7 the tail (after the last vector). */
    if (blockIdx.x == 0 && threadIdx.x < 8) {
        size_t i = threadIdx.x < 4 ? threadIdx.x : head + 4 * nvec + (threadIdx.x - 4);
        if (threadIdx.x < 4 ? i < head : i < n) acc = in[i];
    }

    /* Main loop: each round, thread t of block b loads vectors
     * b*kBlock*kUnroll + u*kBlock + t for u = 0..kUnroll-1. All loads are
     * issued before the first add uses one. */
    const size_t per_round = (size_t)kBlock * kUnroll;
    const size_t stride = (size_t)gridDim.x * per_round;
    size_t v = (size_t)blockIdx.x * per_round + threadIdx.x;
    for (; v + (kUnroll - 1) * kBlock < nvec; v += stride) {
        V x[kUnroll];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u) x[u] = load16(vin + v + u * kBlock);
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u) acc = Op::apply(acc, combine4<Op>(x[u]));
    }
    /* The last, partial round (the next full round would start past nvec,
     * since stride >= per_round): whichever of this thread's vectors exist. */
#pragma unroll
    for (unsigned u = 0; u < kUnroll; ++u)
        if (v + u * kBlock < nvec) acc = Op::apply(acc, combine4<Op>(load16(vin + v + u * kBlock)));

    T r = v8::block_reduce<T, Op, kBlock>(acc);
    if (gridDim.x == 1) { /* one block: nothing to combine */
        if (threadIdx.x == 0) *out = r;
        return;
    }
    /* Every operation: store this block's result at its own slot, then take
     * a ticket. */
    __shared__ bool is_last;
    if (threadIdx.x == 0) {
        block_results[blockIdx.x] = r;
        __threadfence(); /* the result is visible to every block before our ticket is */
        is_last = atomicAdd(arrivals, 1u) == gridDim.x - 1;
    }
    __syncthreads(); /* is_last is read by the whole block; warp 0 is done with block_reduce's slots */
    if (!is_last) return;

    /* The last block: every other block fenced its result before its ticket,
     * so all of them are in memory. Read them through L2 (__ldcg), never a
     * stale L1 line. The order is fixed: thread t adds slots t, t + kBlock,
     * ... in turn, then the shuffle tree adds the threads' values in a fixed
     * pattern. Which block happens to be last changes nothing. */
    __threadfence();
    T p = Op::identity(T());
    for (unsigned b = threadIdx.x; b < gridDim.x; b += kBlock) p = Op::apply(p, __ldcg(block_results + b));
    p = v8::block_reduce<T, Op, kBlock>(p);
    if (threadIdx.x == 0) {
        *out = p;
        *arrivals = 0u; /* tidy: leave the counter at 0 */
    }
}

template <typename T, typename Op>
cudaError_t run(const void *in_, size_t n, void *out, void *workspace, cudaStream_t stream)
{
    const T *in = (const T *)in_;
    /* Elements before the first 16-byte boundary (in is 4-byte aligned). */
    size_t head = ((16 - ((uintptr_t)in & 15)) & 15) / sizeof(T);
    if (head > n) head = n;
    const size_t nvec = (n - head) / 4;

    int dev = 0, sms = 0, per_sm = 0;
    cudaError_t err = cudaGetDevice(&dev);
    if (err == cudaSuccess) err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (err == cudaSuccess)
        err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_deterministic<T, Op>, kBlock, 0);
    if (err != cudaSuccess) return err;

    size_t blocks = ceil_div(nvec, (size_t)kBlock * kUnroll);
    if (blocks > (size_t)sms * (size_t)per_sm) blocks = (size_t)sms * (size_t)per_sm;
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    if (blocks == 0) blocks = 1;

    unsigned *arrivals = (unsigned *)workspace;
    T *block_results = (T *)((char *)workspace + kCounterBytes);
    if (blocks > 1) {
        /* The ticket counter starts at 0 (the workspace comes
         * uninitialised). Memory the data never passes through. */
        err = cudaMemsetAsync(arrivals, 0, sizeof(unsigned), stream);
        if (err != cudaSuccess) return err;
    }
    reduce_deterministic<T, Op><<<(unsigned)blocks, kBlock, 0, stream>>>(in, n, head, (T *)out, block_results,
                                                                      arrivals);
    return cudaGetLastError();
}

} // namespace

extern "C" size_t gk_reduce_12_deterministic_sum_workspace(size_t n, size_t elem_size)
{
    (void)n;
    return kCounterBytes + kMaxBlocks * elem_size;
}

extern "C" cudaError_t gk_reduce_12_deterministic_sum_run(const void *in, size_t n, int dtype, int op,
                                                               void *out, void *partials, void *workspace,
                                                               cudaStream_t stream)
{
    (void)partials;
    return dispatch(dtype, op, [=](auto t, auto o) {
        return run<decltype(t), decltype(o)>(in, n, out, workspace, stream);
    });
}
