/* Variant 11: the fast one. 16-byte loads, four in flight per thread, a
 * grid of exactly the resident blocks, one kernel, and the tail that tuning
 * found cheapest for sums. (Public background: Luitjens, "CUDA Pro Tip:
 * Increase Performance with Vectorized Memory Access", NVIDIA Developer
 * Blog, 2013; CUB's DeviceReduce also sizes its grid from the occupancy.)
 *
 * The idea, in four changes over variants 9 and 10:
 *
 * 1. Bytes in flight. To keep DRAM busy, the GPU must have about
 *    bandwidth x latency bytes requested and not yet returned (Little's
 *    law). Variant 9's header derives from the README's table that its loads
 *    took at most 0.43 us on average at n = 2^28, so the 4814 GB/s peak
 *    needs at least 4814 GB/s x 0.43 us, about 2.1 MB in flight, about
 *    2.1 MB / 132 SMs = 16 KB per SM, and more as latency grows under load.
 *    Variant 9 has one 4-byte load per thread in flight, 2048 x 4 B = 8 KiB
 *    per SM at full occupancy: not enough. Here each thread issues
 *    kUnroll = 4 loads of 16 bytes (float4 / int4, one instruction each)
 *    before it adds any of them (cuobjdump -sass for sm_90: four
 *    LDG.E.128.CONSTANT, then the adds): 64 bytes per thread. At 32
 *    registers per thread (ptxas -v) an SM's 65536 registers hold
 *    65536 / (32 x 512) = 4 blocks of 512, as many as its 2048-thread limit
 *    allows: 2048 x 64 B = 128 KiB per SM, 16 times
 *    variant 9, with a quarter of the load instructions of a scalar loop.
 *    Within one load instruction the threads of a block read consecutive
 *    16-byte vectors: every warp-wide load is 32 x 16 = 512 contiguous bytes.
 *
 * 2. The grid. As many blocks of 512 threads as the GPU holds at once (SMs x
 *    blocks per SM from the occupancy calculator: 132 x 4 = 528 on the
 *    table's H200), each looping over the array: one wave, no straggling
 *    second wave, every thread the same share to within one round. Small
 *    inputs get fewer blocks (four vectors per thread at least, the last
 *    block excepted).
 *
 * 3. The tail. Every block ends with one value; they must be combined. For
 *    sums, one atomicAdd per block straight into *out (variant 10's tail,
 *    after a 4-byte cudaMemsetAsync): a block's atomicAdd needs no answer
 *    (it compiles to a fire-and-forget RED), so the block just exits. The
 *    other way kept in this file is a last-block ticket: each block stores
 *    its value, fences, takes a ticket with atomicAdd (an atomic whose
 *    answer the block must wait for); the last one reduces the stored
 *    values. The atomic tail was the faster of the two for sums in tuning
 *    runs at n = 2^20; those timings are not in the README's table, and
 *    scripts/tune_reduce11.sh reruns the comparison (it builds with
 *    -DGK11_TICKET_FOR_SUMS=1 to send sums through the ticket too). (A
 *    cooperative launch with a grid-wide barrier is a third way; it is not
 *    implemented here.) So sums end with an atomicAdd per block; max and
 *    min, which have no float atomic, end with the ticket.
 *
 * 4. Any alignment. `in` needs only its natural 4-byte alignment: the 0-3
 *    elements before the first 16-byte boundary and the 0-3 after the last
 *    whole vector are added by the first threads of block 0.
 *
 * What the table shows, against variant 10: 0.0080 -> 0.0069 ms at
 * n = 2^20 (1.16x), 0.0409 -> 0.0254 ms at 2^24 (1.61x), 0.4378 -> 0.2433 ms
 * at 2^28 (1.80x), where it reads at 91.7% of the peak DRAM bandwidth, as
 * fast as the table's read-only stream (100.3% of that ceiling, within the
 * spread of the two timings); and against CUB, 1.34x, 1.11x and 1.02x (the
 * "vs its reference" column; at 2^28 the min..max ranges of the two in
 * bench-h200.json, 0.2416..0.2455 and 0.2454..0.2507 ms, just overlap).
 *
 * The price: an f32 sum adds the block results in the order their atomics
 * arrive, so it may differ in the last bits from run to run (as variant 10;
 * CUB's is reproducible run to run on one GPU). i32 sums (integer addition
 * is associative) and max/min (exact) are the same every run. Per-block
 * partials are not exposed.
 * Bound by: DRAM bandwidth at large n, launch and DRAM latency at small n.
 *
 * Limits: 512 threads per block; grid min(resident blocks, 4096, what n
 * needs); any n. Workspace: 256 bytes of counter + 4096 block results (used by
 * max and min only).
 * From common.cuh in this folder: the Sum/Max/Min operations, variant 8's
 * block reduction (v8::block_reduce) and the dtype x op switch. This file and
 * that header are all a project needs besides the CUDA toolkit.
 * Build alone (in this folder): nvcc -arch=sm_90 -c 11_vectorized_single_pass.cu
 */
#include <stdint.h>

#include "common.cuh"

namespace {

/* The chosen values; scripts/tune_reduce11.sh rebuilds with others and times
 * each build against CUB. */
#ifndef GK11_BLOCK
#define GK11_BLOCK 512
#endif
#ifndef GK11_UNROLL
#define GK11_UNROLL 4
#endif
#ifndef GK11_TICKET_FOR_SUMS
#define GK11_TICKET_FOR_SUMS 0
#endif
constexpr unsigned kBlock = GK11_BLOCK;   /* threads per block */
constexpr unsigned kUnroll = GK11_UNROLL; /* 16-byte vectors in flight per thread */
constexpr size_t kMaxBlocks = 4096;    /* bounds the workspace, whatever the GPU */
constexpr size_t kCounterBytes = 256;  /* the arrival counter's slot; keeps the block results aligned */

/* Sums finish with atomicAdd into *out; max and min with the ticket. */
template <typename Op> struct AtomicTail { static constexpr bool value = false; };
template <> struct AtomicTail<Sum> { static constexpr bool value = !GK11_TICKET_FOR_SUMS; };

template <typename T> struct Vec16;
template <> struct Vec16<float> { typedef float4 type; };
template <> struct Vec16<int> { typedef int4 type; };

/* A read-only 16-byte load (ld.global.nc: the input is not written during the
 * kernel). PTX also has cache-hinted forms; none is used here (variant
 * 12's header gives their timings on its loop, which is this one). */
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
__global__ void __launch_bounds__(kBlock) reduce_vectorized(const T *__restrict__ in, size_t n, size_t head,
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
    if (AtomicTail<Op>::value) { /* sums: *out was zeroed by the launcher */
        if (threadIdx.x == 0) atomicAdd(out, r);
        return;
    }

    /* Max and min: store this block's result, then take a ticket. */
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
     * stale L1 line, in block order. */
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
        err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_vectorized<T, Op>, kBlock, 0);
    if (err != cudaSuccess) return err;

    size_t blocks = ceil_div(nvec, (size_t)kBlock * kUnroll);
    if (blocks > (size_t)sms * (size_t)per_sm) blocks = (size_t)sms * (size_t)per_sm;
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    if (blocks == 0) blocks = 1;

    unsigned *arrivals = (unsigned *)workspace;
    T *block_results = (T *)((char *)workspace + kCounterBytes);
    if (blocks > 1) {
        /* The tail's starting point: 0 in *out for the atomicAdds of a sum
         * (all-zero bits are 0 for both types), 0 in the ticket counter
         * otherwise (the workspace comes uninitialised). */
        err = AtomicTail<Op>::value ? cudaMemsetAsync(out, 0, sizeof(T), stream)
                                    : cudaMemsetAsync(arrivals, 0, sizeof(unsigned), stream);
        if (err != cudaSuccess) return err;
    }
    reduce_vectorized<T, Op><<<(unsigned)blocks, kBlock, 0, stream>>>(in, n, head, (T *)out, block_results,
                                                                      arrivals);
    return cudaGetLastError();
}

} // namespace

extern "C" size_t gk_reduce_11_vectorized_single_pass_workspace(size_t n, size_t elem_size)
{
    (void)n;
    return kCounterBytes + kMaxBlocks * elem_size;
}

extern "C" cudaError_t gk_reduce_11_vectorized_single_pass_run(const void *in, size_t n, int dtype, int op,
                                                               void *out, void *partials, void *workspace,
                                                               cudaStream_t stream)
{
    (void)partials;
    return dispatch(dtype, op, [=](auto t, auto o) {
        return run<decltype(t), decltype(o)>(in, n, out, workspace, stream);
    });
}
