/* Variant 11: the fast one. 16-byte loads, several in flight per thread, a
 * grid of exactly the resident blocks, and a single pass whose last block
 * finishes the job.
 *
 * The idea, in three changes over variants 9 and 10:
 *
 * 1. Bytes in flight. To keep DRAM busy, an SM must have about
 *    bandwidth x latency / SMs bytes requested and not yet returned (about
 *    3.35 TB/s x ~700 ns / 132 SMs, some 18 KB on an H100). Variant 9 has one
 *    4-byte load per thread in flight, 8 KB per SM at full occupancy: not
 *    enough. Here each thread loads kUnroll = 4 vectors of 16 bytes
 *    (float4 / int4, one instruction each) and only then adds them: 64 bytes
 *    per thread, 128 KB per SM in flight, with a quarter of the load
 *    instructions of a scalar loop. Consecutive threads load consecutive
 *    16-byte vectors, so every warp-wide load is 512 contiguous bytes.
 *
 * 2. The grid. Exactly as many blocks as the GPU holds at once (SMs x
 *    threads per SM / 256, read from the device), each looping over the
 *    array: one wave, no tail of half-empty waves, no block launched twice.
 *
 * 3. A single pass. Each block writes its result to the workspace, then
 *    takes a ticket from an arrival counter with atomicAdd; the block that
 *    draws the last ticket knows every other result is written (each block
 *    fences its write before taking its ticket) and reduces the per-block
 *    results itself, in block order, into *out. No second kernel, no atomic
 *    on the result, and a fixed order of additions: unlike variant 10, an
 *    f32 sum is bitwise reproducible on a given GPU model. The counter is set
 *    to 0 with a 4-byte cudaMemsetAsync before the kernel (the workspace comes
 *    uninitialised), and one block alone skips counter and memset.
 *
 * Any alignment: `in` only needs its natural 4-byte alignment. The 0-3
 * elements before the first 16-byte boundary and the 0-3 after the last whole
 * vector are added by the first threads of block 0; everything in between is
 * read as vectors.
 *
 * Operations: sum, max, min for f32 and i32. Per-block partials are not
 * exposed (the partition mixes vectors and scalars and depends on the GPU).
 * Bound by: DRAM bandwidth; the bench compares it with cub::DeviceReduce.
 *
 * Limits: 256 threads per block; grid min(resident blocks, 4096, what n
 * needs); any n. Workspace: 256 bytes of counter + 4096 partials.
 * Build alone: nvcc -arch=sm_90 -c 11_vectorized_single_pass.cu
 */
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

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

#ifndef GK11_BLOCK
#define GK11_BLOCK 256
#endif
#ifndef GK11_UNROLL
#define GK11_UNROLL 4
#endif
#ifndef GK11_LOAD
#define GK11_LOAD 0
#endif
#ifndef GK11_FINISH
#define GK11_FINISH 0
#endif
#ifndef GK11_SPREAD
#define GK11_SPREAD 0
#endif
constexpr unsigned kBlock = GK11_BLOCK;   /* threads per block */
constexpr unsigned kUnroll = GK11_UNROLL; /* 16-byte vectors in flight per thread */
constexpr size_t kMaxBlocks = 4096;       /* bounds the workspace, whatever the GPU */
constexpr size_t kCounterBytes = 256;     /* the arrival counter's slot; keeps the partials aligned */

template <typename T> struct Vec16;
template <> struct Vec16<float> { typedef float4 type; };
template <> struct Vec16<int> { typedef int4 type; };

/* A read-only 16-byte load (ld.global.nc: the input is not written during
 * the kernel). */
#if GK11_LOAD == 1 && (!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800)
__device__ __forceinline__ float4 load16(const float4 *p)
{
    float4 v;
    asm("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0,%1,%2,%3}, [%4];"
        : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(p));
    return v;
}
__device__ __forceinline__ int4 load16(const int4 *p)
{
    int4 v;
    asm("ld.global.nc.L1::no_allocate.L2::256B.v4.s32 {%0,%1,%2,%3}, [%4];"
        : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}
#elif GK11_LOAD == 2
__device__ __forceinline__ float4 load16(const float4 *p) { return __ldcs(p); }
__device__ __forceinline__ int4 load16(const int4 *p) { return __ldcs(p); }
#else
__device__ __forceinline__ float4 load16(const float4 *p) { return __ldg(p); }
__device__ __forceinline__ int4 load16(const int4 *p) { return __ldg(p); }
#endif

template <typename Op> __device__ __forceinline__ float combine4(float4 v)
{
    return Op::apply(Op::apply(v.x, v.y), Op::apply(v.z, v.w));
}
template <typename Op> __device__ __forceinline__ int combine4(int4 v)
{
    return Op::apply(Op::apply(v.x, v.y), Op::apply(v.z, v.w));
}


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
__global__ void __launch_bounds__(kBlock) reduce_vectorized(const T *__restrict__ in, size_t n, size_t head,
                                                              T *__restrict__ out, T *__restrict__ partials,
                                                              unsigned *__restrict__ arrivals)
{
    typedef typename Vec16<T>::type V;
    const V *vin = reinterpret_cast<const V *>(in + head); /* 16-byte aligned by the choice of head */
    const size_t nvec = (n - head) / 4;
    T acc = Op::identity(T());

    /* The scalars outside the vector range: threads 0-3 of block 0 take the
     * head (elements 0..head-1), threads 4-7 the tail (after the last
     * vector). */
    if (blockIdx.x == 0 && threadIdx.x < 8) {
        size_t i = threadIdx.x < 4 ? threadIdx.x : head + 4 * nvec + (threadIdx.x - 4);
        if (threadIdx.x < 4 ? i < head : i < n) acc = in[i];
    }

    /* Main loop: each round, thread t of block b loads vectors
     * b*kBlock*kUnroll + u*kBlock + t for u = 0..kUnroll-1: all loads are
     * issued before the first add uses one, and each load instruction covers
     * kBlock consecutive vectors across the block. */
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

    T r = block_reduce<T, Op>(acc);
    if (gridDim.x == 1) {
        if (threadIdx.x == 0) *out = r;
        return;
    }

#if GK11_FINISH == 1
    if (threadIdx.x == 0) partials[blockIdx.x] = r;
    cooperative_groups::this_grid().sync(); /* every partial is written (and visible) */
    if (blockIdx.x != 0) return;
#else
    /* Single pass: publish this block's result, then take a ticket. */
    __shared__ bool is_last;
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = r;
        __threadfence(); /* the partial is visible to every block before our ticket is */
        is_last = atomicAdd(arrivals, 1u) == gridDim.x - 1;
    }
    __syncthreads(); /* is_last is read by the whole block; warp 0 is done with block_reduce's shared slots */
    if (!is_last) return;
    __threadfence();
#endif

    /* The last block: every other block fenced its partial before its ticket,
     * so all gridDim.x partials are in memory. Read them through L2 (__ldcg),
     * never a stale L1 line, in a fixed order. */
    T p = Op::identity(T());
    for (unsigned b = threadIdx.x; b < gridDim.x; b += kBlock) p = Op::apply(p, __ldcg(partials + b));
    __syncthreads(); /* warp 0 is done with block_reduce's shared slots from the first call */
    p = block_reduce<T, Op>(p);
    if (threadIdx.x == 0) {
        *out = p;
#if GK11_FINISH == 0
        *arrivals = 0u; /* tidy: leave the counter at 0 */
#endif
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

    size_t resident = (size_t)sms * (size_t)per_sm;
#if GK11_SPREAD
    size_t blocks = (nvec + kBlock - 1) / kBlock;
#else
    size_t blocks = (nvec + (size_t)kBlock * kUnroll - 1) / ((size_t)kBlock * kUnroll);
#endif
    if (blocks > resident) blocks = resident;
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    if (blocks == 0) blocks = 1;

    unsigned *arrivals = (unsigned *)workspace;
    T *partials = (T *)((char *)workspace + kCounterBytes);
    T *outp = (T *)out;
#if GK11_FINISH == 1
    if (blocks > 1) {
        void *args[] = {(void *)&in, (void *)&n, (void *)&head, (void *)&outp, (void *)&partials, (void *)&arrivals};
        return cudaLaunchCooperativeKernel((const void *)reduce_vectorized<T, Op>, dim3((unsigned)blocks),
                                           dim3(kBlock), args, 0, stream);
    }
#else
    if (blocks > 1) {
        err = cudaMemsetAsync(arrivals, 0, sizeof(unsigned), stream);
        if (err != cudaSuccess) return err;
    }
#endif
    reduce_vectorized<T, Op><<<(unsigned)blocks, kBlock, 0, stream>>>(in, n, head, outp, partials, arrivals);
    return cudaGetLastError();
}

} // namespace

extern "C" size_t gk_reduce_11_vectorized_single_pass_workspace(size_t n, size_t elem_size)
{
    (void)n;
    return kCounterBytes + kMaxBlocks * elem_size;
}

/* dtype: 0 = float, 1 = int32; op: 0 = sum, 1 = max, 2 = min (gk/reduce.h). */
extern "C" cudaError_t gk_reduce_11_vectorized_single_pass_run(const void *in, size_t n, int dtype, int op,
                                                               void *out, void *partials, void *workspace,
                                                               cudaStream_t stream)
{
    (void)partials;
    switch (dtype * 3 + op) {
    case 0: return run<float, Sum>(in, n, out, workspace, stream);
    case 1: return run<float, Max>(in, n, out, workspace, stream);
    case 2: return run<float, Min>(in, n, out, workspace, stream);
    case 3: return run<int, Sum>(in, n, out, workspace, stream);
    case 4: return run<int, Max>(in, n, out, workspace, stream);
    case 5: return run<int, Min>(in, n, out, workspace, stream);
    default: return cudaErrorInvalidValue;
    }
}
