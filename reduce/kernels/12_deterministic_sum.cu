/* Variant 12: the deterministic sum. Variant 11 with its atomic tail
 * replaced by a fixed-order tree over the per-block results: the same bits
 * on every run, on any stream, whatever else runs beside it.
 *
 * The idea. A float sum depends on the order of its additions: (a + b) + c
 * and a + (b + c) may differ in the last bit. Variant 11 fixes the order of
 * everything inside a block (each thread's loop, then the shuffle tree) but
 * adds the block results into *out with atomicAdd, in the order the blocks
 * happen to finish; that order changes from run to run, and so may the last
 * bits of the sum. Here every block but the last stores its result in the
 * workspace, at its own slot, and the last block of the grid adds the
 * stored results in slot order with a fixed tree (thread t adds slots t and
 * t + 512 of each round, then block_reduce's tree): the order of every
 * addition is set by the code, not by the timing. No atomic touches the
 * data or a counter.
 *
 * What makes it the same on every run: which elements a thread adds, and in
 * what order, depends on n, the alignment of `in` and the grid; the grid is
 * min(what n needs, SMs x resident blocks per SM, 4096), set by the GPU
 * model and this kernel's occupancy, never by the stream or by other work.
 * So the same input on the same GPU model gives the same bits; another GPU
 * model (another SM count) may round differently, always within the bound.
 *
 * How the last block knows a slot is ready, with no counter: each call tags
 * its slots with a value no earlier call used (below, "tagged slots and an
 * epoch"), and the last block loads each slot until it holds this call's
 * tags. A ticket (an atomic counter, the last block to arrive adds) needs a
 * counter at 0, and the workspace comes uninitialised, so a ticket costs a
 * cudaMemsetAsync before every call; the tags need none.
 *
 * Measured on an H200 (reduce/tuning/forms-h200/tags), f32 sums at n =
 * 2^20: a ticket end (a 4-byte memset, a release-acquire atomic per block,
 * one warp of the last block to arrive adding) took 7.62 to 7.68 us in six
 * runs (1.13x to 1.17x CUB, 71.5% to 72.3% of the read-only stream); the
 * tagged slots 6.69 to 6.85 us in ten runs (1.28x to 1.32x CUB, 80.6% to
 * 82.1%); each block's slot prefetched into L2 as well (below), 6.62 to
 * 6.70 us in six runs beside 6.69 to 6.82 without it; and this file's
 * build, which also clears the slots and holds 4 blocks per SM (below),
 * 6.62 to 6.72 us in three runs beside 6.62 to 6.66 without the clearing
 * (1.29x to 1.33x CUB, 81.7% to 82.4% of the stream). At 2^24 it takes
 * 25.9 to 26.0 us (1.07x to 1.08x CUB; the ticket 26.7 to 26.9, 1.03x to
 * 1.05x); at 2^28 it reads as fast as the stream (1.013x CUB).
 * Variant 11, not reproducible, takes 6.59 to 6.75 us at 2^20: a memset
 * (it zeroes *out) and a RED per block cost about what the tags cost.
 * What bounds the end is latency: two trips through the L2 and a tree.
 * A sum built like this kernel (its loop, its end) that reads the GPU's
 * global timer in every block (reduce/tuning/det_timeline.cu, its output
 * beside it) shows, at 2^20 on an H200, from the first block's start: the
 * other blocks hold their results at 2.08 to 2.82 us, the last of their
 * slots' stores is issued at 2.85, and the last block, which began to wait
 * at 2.59, has seen every slot at 3.42 (the median slot is seen 0.51 us
 * after its store: a store to the L2 and a load back; a thread reloads a
 * slot once or twice); its tree and its store end at 3.65. The stream
 * has neither. More loads of each slot in flight (2, 4 or 8 per thread)
 * delay the slots instead: the median slot is seen 1.28, 1.02 and 1.54 us
 * after its store; a slot per warp (no block tree before the slots, 16
 * times as many to wait for) makes the call 0.4 us slower. Slower as
 * well, each timed beside the tagged end without the prefetch: a last
 * block that reads no data and waits for the slots from its start
 * (7.01 to 7.14 us), one that adds the slots into its threads' values
 * before its own tree (7.01; 6.98 to 7.17 with the slots' lines
 * prefetched), and one whose warp 0 alone waits for the slots (7.55 to
 * 7.66); and, timed beside this file's code (reduce/tuning/forms-h200/
 * tags/README.md): the read-only stream's order of loads (6.62 to 6.78 us
 * at 2^20, where this code took 6.66, but 26.66 against 25.73 at 2^24),
 * and an end that keeps only the warps with slots to wait for and no
 * barrier before they wait (7.10 to 7.17). The README's table under step
 * 12 compares the other ends one could build (reduce/tuning/det_tails.cu):
 * a cooperative launch's grid.sync(), a second kernel started early by
 * programmatic dependent launch, one cluster with distributed shared
 * memory.
 * Bound by: DRAM bandwidth at large n, launch and DRAM latency at small n.
 *
 * Limits: f32 and i32, sum, max, min; 512 threads per block; grid min(resident
 * blocks, 4096, what n needs); any n; `in` 4-byte aligned. Workspace: 256
 * bytes (the epoch) + 4096 slots of 16 bytes. A call's workspace must not be
 * in use by another call at the same time (as everywhere in the library).
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
constexpr size_t kEpochBytes = 256;  /* the epoch's place; keeps the slots 16-byte aligned */

template <typename T> struct Vec16;
template <> struct Vec16<float> { typedef float4 type; };
template <> struct Vec16<int> { typedef int4 type; };

/* A read-only 16-byte load (ld.global.nc: the input is not written during the
 * kernel). PTX also has cache-hinted forms; none is used here. Timed on
 * an H200 beside this file's code (reduce/tuning/forms-h200/tags/
 * README.md, f32 sums, three runs each): with .L2::256B (each load asks the
 * L2 for 256 bytes) 2^20 takes what it takes without it (6.62 to 6.72 us
 * against 6.66 to 6.75), 2^24 0.2 us more and 2^28 260.5 to 261.2 us
 * against 248.1 to 248.2; with .L1::no_allocate as well, 2^24 takes 23.1
 * to 23.2 us against 25.8 to 25.9, but 2^28 262.1 to 262.3. */
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

/* ---- The end: tagged slots and an epoch ----------------------------------
 * The workspace holds one 64-bit epoch word and a 16-byte slot per block.
 * Thread 0 of each block reads the epoch e when the block starts. This call
 * tags its slots with two 32-bit tags, A and B, the halves of mix64(e + 1)
 * (B flipped in its last bit where it equals A). Every block but the last
 * stores its result in its slot twice, as {A << 32 | bits, B << 32 | bits},
 * with one 16-byte store, and leaves. The last block (blockIdx.x ==
 * gridDim.x - 1, the combiner) loads every slot until each one carries this
 * call's tags, clears it (stores zeros), adds them in a fixed order, stores
 * the result and then the epoch e + 1, for the next call.
 *
 * Why no counter and no memset: a ticket counter must start at 0, and the
 * workspace comes uninitialised, so a ticket needs a 4-byte cudaMemsetAsync
 * before every call (0.83 us on an H100 and on an H200: an empty kernel
 * with and without one, tuning/det_tails_h100.txt and det_tags_h200.txt).
 * Tags need no zero: a slot holds this call's tags only once this call has
 * stored it. An earlier call of this file left its slots cleared: zero tags
 * are never a call's, since A is never B. (Its epoch alone would not do:
 * other code sharing the workspace may write it back to an earlier value,
 * as another variant's 4-byte counter memset writes its first word to 0,
 * and then an uncleared slot of that earlier epoch would pass for this
 * call's; tests/test_reduce_gpu.c does just that between two calls, and a
 * build without the clearing returned a wrong sum there: reduce/tuning/
 * forms-h200/tags/slots_check_without_clearing.txt.) Left over from
 * anything else, a slot matches only if its two high words equal A and B
 * and its two low words agree: random bits do so once in 2^96, and memory
 * filled with one byte or one 8-byte word (0, 0xff..., a NaN) never does.
 * mix64 is a bijection, so two epochs share their tags only where the flip
 * of B makes them meet.
 * mix64 is the finaliser of SplitMix64 (Steele, Lea and Flood, "Fast
 * splittable pseudorandom number generators", OOPSLA 2014): it spreads
 * neighbouring epochs over all 2^64 values, so small integers left in the
 * workspace by other code do not look like tags.
 *
 * Why the epoch read is safe: every block reads it before it stores its
 * slot, and the slot holds tags computed from what it read; the combiner
 * writes e + 1 only after it has seen every slot with the tags of e + 1, so
 * every read of the epoch in this call comes before that write and returns
 * e. Slots and epoch are loaded and stored with relaxed .gpu operations
 * (PTX ISA, "Memory Consistency Model"): each 8-byte half of a slot is one
 * single-copy-atomic access, and a half that has arrived carries its own
 * tag, so the combiner never takes a half-written slot.
 *
 * The combiner waits for the other blocks, so they must be able to run
 * while it does: the grid is at most what fits on the GPU at once (SMs x
 * resident blocks per SM), and beside other kernels a block waits only
 * until they free an SM. (Where this process gets fewer SMs than the device
 * has, under MPS or green contexts, it rests on the blocks being dispatched
 * in index order, so that the last block starts last: what the hardware
 * does, but CUDA does not promise.) */
__device__ __forceinline__ unsigned long long mix64(unsigned long long z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* This call's tags: A in the low half, B in the high half, B made to
 * differ from A. */
__device__ __forceinline__ unsigned long long tag_pair(unsigned long long e)
{
    const unsigned long long m = mix64(e + 1);
    const unsigned a = (unsigned)m, b = (unsigned)(m >> 32);
    return ((unsigned long long)(b == a ? b ^ 1u : b) << 32) | a;
}
__device__ __forceinline__ unsigned long long ld_relaxed(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void st_relaxed(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ void prefetch_l2(const void *p) { asm volatile("prefetch.global.L2 [%0];" ::"l"(p)); }
__device__ __forceinline__ ulonglong2 ld_relaxed2(const ulonglong2 *p)
{
    ulonglong2 v;
    asm volatile("ld.relaxed.gpu.global.v2.b64 {%0, %1}, [%2];" : "=l"(v.x), "=l"(v.y) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ void st_relaxed2(ulonglong2 *p, ulonglong2 v)
{
    asm volatile("st.relaxed.gpu.global.v2.b64 [%0], {%1, %2};" ::"l"(p), "l"(v.x), "l"(v.y) : "memory");
}
__device__ __forceinline__ unsigned bits_of(float x) { return __float_as_uint(x); }
__device__ __forceinline__ unsigned bits_of(int x) { return (unsigned)x; }
__device__ __forceinline__ void from_bits(unsigned b, float *x) { *x = __uint_as_float(b); }
__device__ __forceinline__ void from_bits(unsigned b, int *x) { *x = (int)b; }
/* A slot of this call: both halves tagged, both payloads the same. */
__device__ __forceinline__ bool tagged(ulonglong2 v, unsigned long long tags)
{
    return (v.x >> 32) == (tags & 0xffffffffu) && (v.y >> 32) == (tags >> 32) && (unsigned)v.x == (unsigned)v.y;
}

constexpr unsigned kRoundSlots = 2 * kBlock; /* slots the combiner waits for at once */

/* 4 blocks per SM, at most 32 registers a thread: ptxas gives the i32 max
 * and min instances 40 otherwise (the prefetch's address beside the
 * epoch), which would hold 3 blocks per SM and 25% fewer loads in flight. */
template <typename T, typename Op>
__global__ void __launch_bounds__(kBlock, 4) reduce_deterministic(const T *__restrict__ in, size_t n, size_t head,
                                                              T *__restrict__ out, ulonglong2 *__restrict__ slots,
                                                              unsigned long long *__restrict__ epoch)
{
    typedef typename Vec16<T>::type V;
    const V *vin = reinterpret_cast<const V *>(in + head); /* 16-byte aligned by the choice of head */
    const size_t nvec = (n - head) / 4;
    T acc = Op::identity(T());
    /* The epoch, read at the start: its latency hides behind the data's.
     * And this block's slot brought into L2 (prefetch.global.L2): the L2
     * comes to the call cold (the bench flushes it), and with the slot's
     * line already there the store and the last block's load of it do not
     * wait on DRAM. */
    unsigned long long e = 0;
    if (threadIdx.x == 0 && gridDim.x > 1) {
        e = ld_relaxed(epoch);
        if (blockIdx.x + 1 < gridDim.x) prefetch_l2(slots + blockIdx.x);
    }

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

    T r = v8::block_reduce<T, Op, kBlock>(acc); /* valid in thread 0 */
    const unsigned grid = gridDim.x;
    if (grid == 1) { /* one block: nothing to combine */
        if (threadIdx.x == 0) *out = r;
        return;
    }
    if (blockIdx.x != grid - 1) { /* store the slot, tagged, and leave */
        if (threadIdx.x == 0) {
            const unsigned long long tags = tag_pair(e);
            const unsigned long long b = bits_of(r);
            st_relaxed2(slots + blockIdx.x, make_ulonglong2((tags << 32) | b, (tags & 0xffffffff00000000ull) | b));
        }
        return;
    }

    /* The combiner. In each round its threads take kRoundSlots slots at
     * once, thread t slots t and t + kBlock of the round: it loads both,
     * then loads again whichever does not yet carry this call's tags, until
     * both do, and adds them to its value in that order. Its own result r
     * takes slot grid - 1. Then the block's tree (block_reduce) adds the
     * threads' values: the order of every addition is fixed, and which block
     * finished last changes nothing. */
    __shared__ unsigned long long s_tags;
    __shared__ T s_r;
    if (threadIdx.x == 0) {
        s_tags = tag_pair(e);
        s_r = r;
    }
    __syncthreads(); /* also the barrier block_reduce asks for before its second call */
    const unsigned long long tags = s_tags;
    T p = Op::identity(T());
    for (unsigned b0 = 0; b0 < grid; b0 += kRoundSlots) {
        const unsigned b[2] = {b0 + threadIdx.x, b0 + kBlock + threadIdx.x};
        ulonglong2 got[2];
#pragma unroll
        for (unsigned j = 0; j < 2; ++j)
            if (b[j] + 1 < grid) got[j] = ld_relaxed2(slots + b[j]);
        for (;;) {
            bool waiting = false;
#pragma unroll
            for (unsigned j = 0; j < 2; ++j)
                if (b[j] + 1 < grid && !tagged(got[j], tags)) {
                    got[j] = ld_relaxed2(slots + b[j]);
                    waiting = true;
                }
            if (!waiting) break;
        }
        /* Taken: cleared, so that no later call can mistake it for its own
         * (zero tags are never a call's: A differs from B). */
#pragma unroll
        for (unsigned j = 0; j < 2; ++j)
            if (b[j] + 1 < grid) st_relaxed2(slots + b[j], make_ulonglong2(0ull, 0ull));
#pragma unroll
        for (unsigned j = 0; j < 2; ++j) {
            T x = Op::identity(T());
            if (b[j] + 1 < grid) from_bits((unsigned)got[j].x, &x);
            else if (b[j] + 1 == grid) x = s_r;
            p = Op::apply(p, x);
        }
    }
    p = v8::block_reduce<T, Op, kBlock>(p);
    if (threadIdx.x == 0) {
        *out = p;
        st_relaxed(epoch, e + 1); /* after every slot of this call was seen */
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

    /* No memset: the tags need no initialised memory (above). */
    unsigned long long *epoch = (unsigned long long *)workspace;
    ulonglong2 *slots = (ulonglong2 *)((char *)workspace + kEpochBytes);
    reduce_deterministic<T, Op><<<(unsigned)blocks, kBlock, 0, stream>>>(in, n, head, (T *)out, slots, epoch);
    return cudaGetLastError();
}

} // namespace

extern "C" size_t gk_reduce_12_deterministic_sum_workspace(size_t n, size_t elem_size)
{
    (void)n;
    (void)elem_size;
    return kEpochBytes + kMaxBlocks * sizeof(ulonglong2);
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
