/* Variant 14: arg-max and arg-min. Each thread ends with a (value, index)
 * pair instead of a value, and the pairs are reduced like values; inside
 * its loop a thread keeps only a value and the number of the vector that
 * held it first (step 2).
 *
 * The idea. The index of the largest element is not a function of the
 * largest value alone, so a reduction that must report it carries both: a
 * state (value, index) per thread, and an operation on two states that keeps
 * the better one (typed.cuh's ArgMax / ArgMin). If that operation is
 * associative and commutative, everything of variant 13 carries over
 * unchanged: the loop, the vector loads, the shuffle tree (a pair moves as
 * two shuffles, its value and its 64-bit index), the per-block slots and
 * the last block's tree. It is, when ties are broken by the index: of two
 * equal values the smaller index wins, so the result is the first
 * occurrence of the extremum whatever order the pairs meet in, and the
 * answer does not depend on the grid, the GPU or the run.
 *
 * What the index costs, step 1: pairs all the way. The index of an
 * element is computed, not loaded: vector v holds elements head +
 * v*kPerVec + k, so a thread can derive each element's index from its loop
 * counter and fold (value, index) pairs in its loop. Per element that is a
 * compare and two selects (the index is 64-bit: two registers) instead of
 * one add. Neither reads memory, yet they are not free: a round of four
 * 16-byte vectors of f32 arg-max was 315 instructions in the SASS
 * (cuobjdump, CUDA 13.0, loop included), about 79 per vector. On an H100
 * that still kept pace with DRAM: 2^28 floats at 97.7% of the read-only
 * stream, 1.006x CUB's ArgMax (2026-11-27). An H200 reads 1.44 to 1.47 times
 * as fast with the same SMs and clock, and there it did not: 0.3077 ms,
 * 80.7% of the stream, 0.83x CUB (0.2558 ms); 79 instructions per 16 bytes
 * at that speed would need an instruction issued in about two thirds of all
 * scheduler cycles of the GPU, as well as the loads.
 *
 * Step 2: values in the loop, the index once. The loop only has to know
 * which vector first held the thread's best value; the position inside it
 * can be found once, at the end. So per vector the loop takes the best of
 * its kPerVec values (3 max.NaN for f32: one instruction each, see
 * typed.cuh's best_max), compares that with the thread's best (beats: two
 * compares for f32) and, when strictly better, keeps the value and the
 * vector's number: 12 instructions per vector in the SASS of the f32 loop
 * (96 for a trip of two rounds of four vectors), against 79. Strictly
 * better means that of equal values the earlier vector is kept, so the
 * vector kept holds the thread's first best element. After the loop the
 * thread loads that vector again (one 16-byte load, once) and takes its
 * first element that ties with the best value. The thread starts from the
 * identity with its first vector as the one kept: if nothing beats the
 * identity, every element of the thread equals it and the first one is
 * the answer. The pairs, and the index compare on a tie, are still what
 * the threads, warps and blocks combine afterwards. The loop's four loads
 * of the next round still go out before the current round is used (two
 * rounds per trip, the two register sets swapping roles, so no register is
 * copied). Measured on the H200 (2026-11-28, gk_bench, 2^28 floats, cold
 * L2, medians, the two builds alternated twice): arg-max 0.3077 and 0.3076
 * ms before, 0.2549 and 0.2550 after (97.4% of the stream; CUB 0.2555 to
 * 0.2559 in the same runs: 1.00x), arg-min the same (0.3077 -> 0.2551).
 *
 * NaN and infinities, the rule stated in typed.cuh: a NaN beats every
 * number, for arg-max and arg-min alike, and NaNs tie with each other, so
 * an input with a NaN reports its first NaN (NumPy's argmax and argmin do
 * the same; CUB compares with < and leaves NaN unspecified). -inf and +inf
 * are ordinary values. -0 and +0 are equal: the first of them wins. The
 * identity (the result for n = 0) is (-inf or the lowest integer for
 * arg-max, +inf or the highest for arg-min, index 2^64 - 1); since every
 * real index is smaller, an input of nothing but -inf still reports index 0
 * for arg-max.
 *
 * Indices are 64-bit: any n the API takes (up to 2^38) is exact.
 * This variant also does sum, max and min for every type (the same loop,
 * each vector folded into the thread's value: no index at all), so it
 * takes every type and operation.
 *
 * Limits: 512 threads per block; grid min(resident blocks, 4096, what n
 * needs); any n; `in` aligned to its element size. Workspace: 256 bytes (the
 * epoch) + 4096 tagged slots of 32 bytes (a pair and its tags).
 * From typed.cuh in this folder: Elem<In>, the operations (ArgMax, ArgMin),
 * block_reduce, tag_tail and the type x op switch.
 * Build alone (in this folder): nvcc -arch=sm_90 -c 14_arg_pairs.cu
 */
#include "typed.cuh"

namespace {

constexpr unsigned kBlock = 512;      /* threads per block */
constexpr unsigned kUnroll = 4;       /* 16-byte vectors in flight per thread */
constexpr size_t kMaxBlocks = 4096;   /* bounds the workspace, whatever the GPU */
constexpr size_t kEpochBytes = 256;   /* the epoch word; keeps the slots 32-byte aligned */
constexpr size_t kNone = ~(size_t)0;  /* no vector */

/* The kPerVec elements of one 16-byte vector combined as a tree by
 * combine(a, b). The plain operations (sum, max, min) fold a vector with
 * Op::apply; step 2 takes a vector's winning value with Op::best:
 * kPerVec - 1 best()s, one instruction each for f32, f16 and bf16
 * (max.NaN / min.NaN). */
template <typename In, typename F>
__device__ __forceinline__ typename Elem<In>::Acc vector_tree(const uint4 &u, F combine)
{
    constexpr int kV = Elem<In>::kPerVec;
    typename Elem<In>::Acc s[kV];
#pragma unroll
    for (int k = 0; k < kV; ++k) s[k] = Elem<In>::get(u, k);
#pragma unroll
    for (int w = 1; w < kV; w *= 2)
#pragma unroll
        for (int k = 0; k + w < kV; k += 2 * w) s[k] = combine(s[k], s[k + w]);
    return s[0];
}

/* Variant 13's loop, shared by both forms: each round, thread t of block b
 * loads vectors b*kBlock*kUnroll + u*kBlock + t, all four before the first
 * is used, and hands each to visit(vector, its number) in increasing order.
 * Software-pipelined: the next round's four loads are written before this
 * round's vectors are visited, so that they cross from DRAM while the
 * thread computes (see the header). */
template <typename Visit>
__device__ __forceinline__ void each_vector(const uint4 *__restrict__ vin, size_t nvec, size_t v, size_t stride,
                                            Visit visit)
{
    uint4 x[kUnroll], y[kUnroll];
    bool full = v + (kUnroll - 1) * kBlock < nvec;
    if (full) {
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u) x[u] = __ldg(vin + v + u * kBlock);
    }
    /* One round: the next round's loads into b (when it is full), then a's
     * vectors. Two rounds per trip, x and y swapping roles, so that no
     * register is copied. */
    auto round = [&](const uint4(&a)[kUnroll], uint4(&b)[kUnroll]) {
        const size_t vn = v + stride;
        const bool next = vn + (kUnroll - 1) * kBlock < nvec;
        if (next) {
#pragma unroll
            for (unsigned u = 0; u < kUnroll; ++u) b[u] = __ldg(vin + vn + u * kBlock);
        }
#pragma unroll
        for (unsigned u = 0; u < kUnroll; ++u) visit(a[u], v + u * kBlock);
        v = vn, full = next;
    };
    while (full) {
        round(x, y);
        if (!full) break;
        round(y, x);
    }
    /* The last, partial round: whichever of this thread's vectors exist. */
#pragma unroll
    for (unsigned u = 0; u < kUnroll; ++u)
        if (v + u * kBlock < nvec) visit(__ldg(vin + v + u * kBlock), v + u * kBlock);
}

template <typename In, typename Op>
__global__ void __launch_bounds__(kBlock)
    reduce_arg_pairs(const In *__restrict__ in, size_t n, size_t head, typename Elem<In>::Acc *__restrict__ out,
                     unsigned long long *__restrict__ out_index, ulonglong2 *__restrict__ slots,
                     unsigned long long *__restrict__ epoch)
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
        if (threadIdx.x < kV ? i < head : i < n) acc = Op::make(Elem<In>::load(in + i), i);
    }

    /* Variant 13's loop: each round, thread t of block b loads vectors
     * b*kBlock*kUnroll + u*kBlock + t, all four before the first is used.
     * Vector w holds the elements from index head + w*kV on. */
    const size_t per_round = (size_t)kBlock * kUnroll;
    const size_t stride = (size_t)gridDim.x * per_round;
    size_t v = (size_t)blockIdx.x * per_round + threadIdx.x;
    if constexpr (Op::kArg) {
        /* Step 2: values only in the loop; the vector that first holds this
         * thread's winner is remembered and searched once at the end. It
         * starts as the thread's first vector, for when nothing beats the
         * identity (every element equal to it: the first one is the answer). */
        typedef typename Elem<In>::Acc A;
        A best = Op::value(Op::identity());
        size_t where = v < nvec ? v : kNone;
        each_vector(vin, nvec, v, stride, [&](const uint4 &x, size_t w) {
            const A m = vector_tree<In>(x, [](A p, A q) { return Op::best(p, q); });
            if (Op::beats(m, best)) best = m, where = w; /* strictly better: an earlier vector keeps a tie */
        });
        if (where != kNone) {
            /* The first element of that vector that ties with best: one is
             * there, as best is one of its values (or the identity, which all
             * of the thread's first vector then equals). */
            const uint4 x = __ldg(vin + where);
            int k0 = kV - 1;
#pragma unroll
            for (int k = kV - 2; k >= 0; --k)
                if (Op::rank(Elem<In>::get(x, k), best) == 0) k0 = k;
            acc = Op::apply(acc, Op::make(Elem<In>::get(x, k0), head + where * kV + k0));
        }
    } else {
        each_vector(vin, nvec, v, stride,
                    [&](const uint4 &x, size_t) { acc = Op::apply(acc, vector_tree<In>(x, Op::apply)); });
    }

    S r = block_reduce<Op, kBlock>(acc);
    if (gridDim.x == 1) { /* one block: nothing to combine */
        if (threadIdx.x == 0) {
            *out = Op::value(r);
            if (Op::kArg) *out_index = Op::index(r);
        }
        return;
    }
    /* Variant 12's tail (tag_tail in typed.cuh): every block but the last
     * stores its result in a tagged slot; the last adds all the slots in a
     * fixed order. */
    S p;
    if (tag_tail<Op, kBlock>(r, slots, epoch, e, &p) && threadIdx.x == 0) {
        *out = Op::value(p);
        if (Op::kArg) *out_index = Op::index(p);
    }
}

template <typename In, typename Op>
cudaError_t run(const void *in_, size_t n, void *out, unsigned long long *out_index, void *workspace,
                cudaStream_t stream)
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
        err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_arg_pairs<In, Op>, kBlock, 0);
    if (err != cudaSuccess) return err;

    size_t blocks = ceil_div(nvec, (size_t)kBlock * kUnroll);
    if (blocks > (size_t)sms * (size_t)per_sm) blocks = (size_t)sms * (size_t)per_sm;
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    if (blocks == 0) blocks = 1;

    /* No memset: variant 12's tags need no initialised memory. */
    unsigned long long *epoch = (unsigned long long *)workspace;
    ulonglong2 *slots = (ulonglong2 *)((char *)workspace + kEpochBytes);
    reduce_arg_pairs<In, Op><<<(unsigned)blocks, kBlock, 0, stream>>>(
        in, n, head, (typename Elem<In>::Acc *)out, out_index, slots, epoch);
    return cudaGetLastError();
}

} // namespace

extern "C" size_t gk_reduce_14_arg_pairs_workspace(size_t n, size_t elem_size)
{
    (void)n;
    (void)elem_size;
    return kEpochBytes + kMaxBlocks * kTagSlotBytes;
}

/* dtype: gk_dtype's value; op 0 sum, 1 max, 2 min. *out is the accumulator
 * type: f32 for f32, f16 and bf16; f64; i32; u32; i64. */
extern "C" cudaError_t gk_reduce_14_arg_pairs_run(const void *in, size_t n, int dtype, int op, void *out,
                                                  void *partials, void *workspace, cudaStream_t stream)
{
    (void)partials;
    if (op > 2) return cudaErrorInvalidValue;
    return dispatch_plain(dtype, op, [=](auto t, auto o) {
        return run<decltype(t), decltype(o)>(in, n, out, nullptr, workspace, stream);
    });
}

/* op 3 arg-max, 4 arg-min: the value to *out (the accumulator type), the
 * index of its first occurrence to *out_index (2^64 - 1 when n = 0). */
extern "C" cudaError_t gk_reduce_14_arg_pairs_arg(const void *in, size_t n, int dtype, int op, void *out,
                                                  unsigned long long *out_index, void *workspace,
                                                  cudaStream_t stream)
{
    if (op != 3 && op != 4) return cudaErrorInvalidValue;
    return dispatch_all(dtype, op, [=](auto t, auto o) {
        return run<decltype(t), decltype(o)>(in, n, out, out_index, workspace, stream);
    });
}
