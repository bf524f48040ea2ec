/* Variant 13: every type, one 16-byte load whatever the type: 8 halves, 4
 * floats or 32-bit integers, 2 doubles or 64-bit integers per load.
 *
 * The idea. Variant 12 loads float4 / int4: four elements per 16-byte load.
 * A kernel that loaded f16 or bf16 one element (2 bytes) at a time would
 * issue 8 times as many load instructions for the same bytes and keep an
 * eighth of the bytes in flight per instruction (variant 11's header
 * derives how many bytes must be in flight to keep DRAM busy). So every type
 * is read the same way here: as 16-byte vectors (uint4, one LDG.E.128 each),
 * kUnroll = 4 of them in flight per thread, 64 bytes per thread whatever the
 * type; each vector is then taken apart into its kPerVec elements in
 * registers (typed.cuh's Elem<In>::get: a shift and a move for a half, no
 * memory access). The bytes in flight, the loop and the grid are variant
 * 12's; what changes per type is only how many elements a vector holds
 * (8 x f16 / bf16, 4 x f32 / i32 / u32, 2 x f64 / i64) and what they are
 * added in.
 *
 * Accumulation. f16 and bf16 elements are converted to f32 (exactly: every
 * half value is a float) and summed in f32; the result is an f32, so a sum
 * of halves neither overflows at 65504 nor loses the bits that f16
 * accumulation would. f64 sums in f64. Integer sums wrap: i32 and u32
 * modulo 2^32, i64 modulo 2^64, exact in any order. Max and min are exact
 * for every type (f16 / bf16 returned as the equal f32). Within a vector
 * the elements are combined as a tree (pairs, then pairs of pairs), which
 * keeps the chain of dependent adds short.
 *
 * The tail is variant 12's (tag_tail in typed.cuh): per-block results in
 * tagged slots, a fixed-order sum by the grid's last block, no counter and
 * no memset. So every result of this variant (f32, f64 and half
 * sums included) has the same bits on every run for the same input and
 * GPU model.
 *
 * Bound by: DRAM bandwidth at large n (2 bytes an element for halves: twice
 * the elements per second of f32 at the same bandwidth). At small n, launch
 * and latency. Measured on an H100 (reduce/tuning/forms-h100/; the README's
 * tables are the H200's, reduce/tuning/forms-h200/), sums of 2^27 elements: f64 and i64
 * (1 GiB) at 100.5% and 100.3% of the read-only stream of the same bytes,
 * 1.013x and 1.011x CUB; bf16 and f16 (256 MiB) at 98.2% and 98.1% of it,
 * 1.068x and 1.069x CUB's TransformReduce.
 *
 * Limits: 512 threads per block; grid min(resident blocks, 4096, what n
 * needs); any n; `in` aligned to its element size (the 0 to kPerVec - 1
 * elements before the first 16-byte boundary and after the last whole
 * vector are added by threads of block 0). Workspace: 256 bytes (the
 * epoch) + 4096 tagged slots of 32 bytes.
 * From typed.cuh in this folder: Elem<In>, the operations, block_reduce,
 * tag_tail and the type x op switch. This file and that header are all
 * a project needs besides the CUDA toolkit.
 * Build alone (in this folder): nvcc -arch=sm_90 -c 13_every_type.cu
 */
#include "typed.cuh"

namespace {

constexpr unsigned kBlock = 512;      /* threads per block */
constexpr unsigned kUnroll = 4;       /* 16-byte vectors in flight per thread */
constexpr size_t kMaxBlocks = 4096;   /* bounds the workspace, whatever the GPU */
constexpr size_t kEpochBytes = 256;   /* the epoch word; keeps the slots 32-byte aligned */

/* The kPerVec elements of one 16-byte vector combined as a tree. */
template <typename In, typename Op> __device__ __forceinline__ typename Op::State fold(const uint4 &u)
{
    constexpr int kV = Elem<In>::kPerVec;
    typename Op::State s[kV];
#pragma unroll
    for (int k = 0; k < kV; ++k) s[k] = Elem<In>::get(u, k);
#pragma unroll
    for (int w = 1; w < kV; w *= 2)
#pragma unroll
        for (int k = 0; k + w < kV; k += 2 * w) s[k] = Op::apply(s[k], s[k + w]);
    return s[0];
}

template <typename In, typename Op>
__global__ void __launch_bounds__(kBlock)
    reduce_every_type(const In *__restrict__ in, size_t n, size_t head, typename Op::State *__restrict__ out,
                      ulonglong2 *__restrict__ slots, unsigned long long *__restrict__ epoch)
{
    typedef typename Op::State S;
    constexpr unsigned kV = Elem<In>::kPerVec;
    const uint4 *vin = reinterpret_cast<const uint4 *>(in + head); /* 16-byte aligned by the choice of head */
    const size_t nvec = (n - head) / kV;
    S acc = Op::identity();
    /* Variant 12's epoch, read at the start (its latency hides behind the
     * data's), and this block's slot brought into L2, as there. */
    unsigned long long e = 0;
    if (threadIdx.x == 0 && gridDim.x > 1) {
        e = ld_relaxed(epoch);
        if (blockIdx.x + 1 < gridDim.x) prefetch_l2(slots + 2 * blockIdx.x);
    }

    /* The scalars outside the vector range: threads 0..kV-1 of block 0 take
     * the head (elements 0..head-1, head < kV), threads kV..2kV-1 the tail
     * (the fewer than kV elements after the last vector). */
    if (blockIdx.x == 0 && threadIdx.x < 2 * kV) {
        size_t i = threadIdx.x < kV ? threadIdx.x : head + kV * nvec + (threadIdx.x - kV);
        if (threadIdx.x < kV ? i < head : i < n) acc = Elem<In>::load(in + i);
    }

    /* Variant 12's loop: each round, thread t of block b loads vectors
     * b*kBlock*kUnroll + u*kBlock + t, all four before the first is used. */
    const size_t per_round = (size_t)kBlock * kUnroll;
    const size_t stride = (size_t)gridDim.x * per_round;
    size_t v = (size_t)blockIdx.x * per_round + threadIdx.x;
    for (; v + (kUnroll - 1) * kBlock < nvec; v += stride) {
        uint4 x[kUnroll];
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u) x[u] = __ldg(vin + v + u * kBlock);
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u) acc = Op::apply(acc, fold<In, Op>(x[u]));
    }
    /* The last, partial round: whichever of this thread's vectors exist. */
#pragma unroll
    for (unsigned u = 0; u < kUnroll; ++u)
        if (v + u * kBlock < nvec) acc = Op::apply(acc, fold<In, Op>(__ldg(vin + v + u * kBlock)));

    S r = block_reduce<Op, kBlock>(acc);
    if (gridDim.x == 1) { /* one block: nothing to combine */
        if (threadIdx.x == 0) *out = r;
        return;
    }
    /* Variant 12's tail (tag_tail in typed.cuh): every block but the last
     * stores its result in a tagged slot; the last adds all the slots in a
     * fixed order. */
    S p;
    if (tag_tail<Op, kBlock>(r, slots, epoch, e, &p) && threadIdx.x == 0) *out = p;
}

template <typename In, typename Op>
cudaError_t run(const void *in_, size_t n, void *out, void *workspace, cudaStream_t stream)
{
    typedef typename Op::State S;
    constexpr size_t kV = Elem<In>::kPerVec;
    const In *in = (const In *)in_;
    /* Elements before the first 16-byte boundary (in is aligned to its element). */
    size_t head = ((16 - ((uintptr_t)in & 15)) & 15) / sizeof(In);
    if (head > n) head = n;
    const size_t nvec = (n - head) / kV;

    int dev = 0, sms = 0, per_sm = 0;
    cudaError_t err = cudaGetDevice(&dev);
    if (err == cudaSuccess) err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (err == cudaSuccess)
        err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_every_type<In, Op>, kBlock, 0);
    if (err != cudaSuccess) return err;

    size_t blocks = ceil_div(nvec, (size_t)kBlock * kUnroll);
    if (blocks > (size_t)sms * (size_t)per_sm) blocks = (size_t)sms * (size_t)per_sm;
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    if (blocks == 0) blocks = 1;

    /* No memset: variant 12's tags need no initialised memory. */
    unsigned long long *epoch = (unsigned long long *)workspace;
    ulonglong2 *slots = (ulonglong2 *)((char *)workspace + kEpochBytes);
    reduce_every_type<In, Op><<<(unsigned)blocks, kBlock, 0, stream>>>(in, n, head, (S *)out, slots, epoch);
    return cudaGetLastError();
}

} // namespace

extern "C" size_t gk_reduce_13_every_type_workspace(size_t n, size_t elem_size)
{
    (void)n;
    (void)elem_size;
    return kEpochBytes + kMaxBlocks * kTagSlotBytes;
}

/* dtype: gk_dtype's value; op 0 sum, 1 max, 2 min. *out is the accumulator
 * type: f32 for f32, f16 and bf16; f64; i32; u32; i64. */
extern "C" cudaError_t gk_reduce_13_every_type_run(const void *in, size_t n, int dtype, int op, void *out,
                                                   void *partials, void *workspace, cudaStream_t stream)
{
    (void)partials;
    return dispatch_plain(dtype, op, [=](auto t, auto o) {
        return run<decltype(t), decltype(o)>(in, n, out, workspace, stream);
    });
}
