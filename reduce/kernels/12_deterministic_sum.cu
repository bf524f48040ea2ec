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
 * results in slot order with a fixed tree (lane l of its warp 0 adds slots
 * l, l + 32, ... in that order, then the warp's shuffle tree): the order of every
 * addition is set by the code, not by the timing. The ticket is an atomic on
 * a counter, never on the data. (Variant 11 already ends max and min with
 * a ticket; here sums do too.)
 *
 * What makes it the same on every run: which elements a thread adds, and in
 * what order, depends on n, the alignment of `in` and the grid; the grid is
 * min(what n needs, SMs x resident blocks per SM, 4096), set by the GPU
 * model and this kernel's occupancy, never by the stream or by other work.
 * So the same input on the same GPU model gives the same bits; another GPU
 * model (another SM count) may round differently, always within the bound.
 *
 * The ticket is cheaper than variant 11's (which that file keeps for max
 * and min): a release-acquire atomic instead of a full fence and a relaxed
 * atomic, and one warp instead of the whole block in the tail. Lane 0 of
 * warp 0 stores the block's result and takes the ticket; the atomic's
 * release makes that store visible before the new count, and the last
 * block's acquire sees every result released before it. Warps 1-15 leave
 * as soon as block_reduce is done.
 *
 * The cost, against variant 11: each block stores 4 bytes and takes a
 * ticket (an atomic whose answer it waits for, instead of a fire-and-forget
 * RED); one warp of the last block reads at most 4096 results (16 KiB) and
 * reduces them, after every other block has finished. Both launchers queue
 * one 4-byte cudaMemsetAsync before the kernel (variant 11 zeroes *out, this
 * one the ticket counter: the workspace comes uninitialised), so that is not
 * the difference. Measured on an H100 (reduce/tuning/forms-h100/
 * determinism.json, f32 sums): 8.30 against 7.23 us at n = 2^20 (1.146x CUB instead of
 * 1.316x), 35.47 against 33.79 us at 2^24, 355.7 against 353.6 us at 2^28
 * (1.014x CUB instead of 1.020x, both as fast as the read-only stream).
 * With a full fence before a relaxed atomicAdd and the whole last block in
 * the tail, 2^20 took 9.06 us; the README's table under step 12 compares
 * the ends one could build (reduce/tuning/det_tails.cu): a cooperative
 * launch's grid.sync() (no memset) is faster at 2^20 only, and a second
 * kernel started early by programmatic dependent launch, no faster.
 * Bound by: DRAM bandwidth at large n, launch and DRAM latency at small n.
 *
 * Limits: f32 and i32, sum, max, min; 512 threads per block; grid min(resident
 * blocks, 4096, what n needs); any n; `in` 4-byte aligned. Workspace: 256
 * bytes of counter + 4096 block results.
 * From common.cuh in this folder: the Sum/Max/Min operations, variant 8's
 * block reduction (v8::block_reduce, v8::warp_reduce) and the dtype x op
 * switch.
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
constexpr unsigned kTailLoads = 8;     /* block results in flight per lane in the last block */

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

/* The ticket: add 1 to the arrival counter and return its old value, as one
 * atom.add.acq_rel.gpu (PTX ISA, "Memory Consistency Model" and "atom").
 * Its release half makes this thread's earlier stores (the block's result)
 * visible before the new count is; its acquire half lets the thread that
 * draws the last ticket see what every earlier ticket released. A plain
 * atomicAdd is relaxed and needs __threadfence() before it, a fence.sc
 * (MEMBAR.SC.GPU in the SASS) where the release needs MEMBAR.ALL.GPU. */
__device__ __forceinline__ unsigned ticket_acq_rel(unsigned *counter)
{
    unsigned old;
    asm volatile("atom.add.acq_rel.gpu.global.u32 %0, [%1], %2;" : "=r"(old) : "l"(counter), "r"(1u) : "memory");
    return old;
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
    /* From here on only warp 0 works: block_reduce left the result in its
     * lane 0, and one warp is enough to add the stored results. */
    if (threadIdx.x >= 32) return;
    /* Every operation: lane 0 stores this block's result at its own slot,
     * then takes a ticket with a release-acquire atomic. */
    unsigned ticket = 0;
    if (threadIdx.x == 0) {
        block_results[blockIdx.x] = r;
        ticket = ticket_acq_rel(arrivals);
    }
    ticket = __shfl_sync(0xffffffffu, ticket, 0);
    if (ticket != gridDim.x - 1) return;

    /* The last block. Its ticket's acquire saw every other block's release,
     * so every stored result is visible to lane 0, and __syncwarp passes
     * that on to the other lanes. Read through L2 (__ldcg), never a stale L1
     * line. The order is fixed: lane l adds slots l, l + 32, ... in turn,
     * then the shuffle tree adds the lanes' values in a fixed pattern. Which
     * block happens to be last changes nothing. Each lane has eight loads in
     * flight before it adds any, so 528 results take three trips to L2, not
     * seventeen. */
    __syncwarp();
    T p = Op::identity(T());
    for (unsigned b = threadIdx.x; b < gridDim.x; b += kTailLoads * 32) {
        T x[kTailLoads];
#pragma unroll
        for (unsigned j = 0; j < kTailLoads; ++j)
            x[j] = b + 32 * j < gridDim.x ? __ldcg(block_results + b + 32 * j) : Op::identity(T());
#pragma unroll
        for (unsigned j = 0; j < kTailLoads; ++j) p = Op::apply(p, x[j]);
    }
    p = v8::warp_reduce<T, Op>(p);
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
