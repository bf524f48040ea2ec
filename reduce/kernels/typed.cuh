/* typed.cuh: the plumbing that variants 13-15 share, for every element type.
 *
 * Variants 1-12 include common.cuh and take float and int32 only. Variants
 * 13-15 include this header instead (and nothing else of the repository):
 * copy a kernel file and this header into a project and it compiles with the
 * CUDA toolkit alone (`nvcc -arch=sm_90 -c 14_arg_pairs.cu`). What is here is
 * what those three files would otherwise each repeat:
 *   - Elem<In>: for each stored type, the type it is accumulated and returned
 *     in (Acc), how many elements one 16-byte load brings (kPerVec: 8 halves,
 *     4 floats or 32-bit ints, 2 doubles or 64-bit ints) and how to take
 *     element k out of such a load, exactly, as an Acc.
 *   - The operations over an Acc: Sum, Max, Min (a plain value as the state)
 *     and ArgMax, ArgMin (a (value, index) pair as the state, the lesson of
 *     14_arg_pairs.cu, whose header explains the tie and NaN rules).
 *   - shfl_down, ldcg and store of a state (a pair is two fields).
 *   - warp_reduce and block_reduce over any state: variant 8's shuffles
 *     (08_warp_shuffle.cu explains them), written for a state type.
 *   - tag_tail: variant 12's end (12_deterministic_sum.cu explains it),
 *     written for a state type: block results in tagged slots, the grid's
 *     last block adds them in a fixed order, no counter and no memset.
 *   - dispatch_plain / dispatch_all: the switch from the launchers' codes to
 *     the template arguments In and Op.
 * The codes: dtype is gk_dtype's value (0 f32, 1 i32, 3 u32, 4 f64, 5 f16,
 * 6 bf16, 7 i64); op 0 sum, 1 max, 2 min, 3 arg-max, 4 arg-min.
 *
 * All of it is in an anonymous namespace: each kernel file gets its own
 * copy. Nothing here keeps state.
 */
#ifndef GK_REDUCE_KERNELS_TYPED_CUH
#define GK_REDUCE_KERNELS_TYPED_CUH

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

namespace {

constexpr size_t ceil_div(size_t x, size_t y) { return (x + y - 1) / y; }

/* ---- Element types ------------------------------------------------------ */
/* Word w (0-3) of a 16-byte load; w is a compile-time constant after
 * unrolling, so this folds to a register. */
__device__ __forceinline__ unsigned word(const uint4 &u, int w)
{
    return w == 0 ? u.x : w == 1 ? u.y : w == 2 ? u.z : u.w;
}

/* Element k of a 16-byte load holds the bytes [k*size, (k+1)*size) of it;
 * the GPU is little-endian, so element 0 is the low bits of u.x. */
template <typename In> struct Elem;
template <> struct Elem<float> {
    typedef float Acc;
    static constexpr int kPerVec = 4;
    __device__ static float get(const uint4 &u, int k) { return __uint_as_float(word(u, k)); }
    __device__ static float load(const float *p) { return __ldg(p); }
};
template <> struct Elem<int> {
    typedef int Acc;
    static constexpr int kPerVec = 4;
    __device__ static int get(const uint4 &u, int k) { return (int)word(u, k); }
    __device__ static int load(const int *p) { return __ldg(p); }
};
template <> struct Elem<unsigned> {
    typedef unsigned Acc;
    static constexpr int kPerVec = 4;
    __device__ static unsigned get(const uint4 &u, int k) { return word(u, k); }
    __device__ static unsigned load(const unsigned *p) { return __ldg(p); }
};
template <> struct Elem<double> {
    typedef double Acc;
    static constexpr int kPerVec = 2;
    __device__ static double get(const uint4 &u, int k)
    {
        return __hiloint2double((int)word(u, 2 * k + 1), (int)word(u, 2 * k));
    }
    __device__ static double load(const double *p) { return __ldg(p); }
};
template <> struct Elem<long long> {
    typedef long long Acc;
    static constexpr int kPerVec = 2;
    __device__ static long long get(const uint4 &u, int k)
    {
        return (long long)(((unsigned long long)word(u, 2 * k + 1) << 32) | word(u, 2 * k));
    }
    __device__ static long long load(const long long *p) { return __ldg(p); }
};
/* Half types: every f16 and bf16 value is exactly a float, so the
 * conversion rounds nothing; the sums are then rounded as f32 sums. */
template <> struct Elem<__half> {
    typedef float Acc;
    static constexpr int kPerVec = 8;
    __device__ static float get(const uint4 &u, int k)
    {
        unsigned w = word(u, k / 2);
        return __half2float(__ushort_as_half((unsigned short)(k % 2 ? w >> 16 : w & 0xffffu)));
    }
    __device__ static float load(const __half *p) { return __half2float(__ldg(p)); }
};
template <> struct Elem<__nv_bfloat16> {
    typedef float Acc;
    static constexpr int kPerVec = 8;
    /* A bf16 is the top half of a float: shift it into place. */
    __device__ static float get(const uint4 &u, int k)
    {
        unsigned w = word(u, k / 2);
        return __uint_as_float(k % 2 ? w & 0xffff0000u : w << 16);
    }
    __device__ static float load(const __nv_bfloat16 *p)
    {
        return __uint_as_float((unsigned)__bfloat16_as_ushort(__ldg(p)) << 16);
    }
};

/* ---- Identities and the plain operations -------------------------------- */
template <typename A> struct Limits;
template <> struct Limits<float> {
    __device__ static float lowest() { return __int_as_float(0xff800000); } /* -inf */
    __device__ static float highest() { return __int_as_float(0x7f800000); } /* +inf */
};
template <> struct Limits<double> {
    __device__ static double lowest() { return __longlong_as_double((long long)0xfff0000000000000ULL); }
    __device__ static double highest() { return __longlong_as_double(0x7ff0000000000000LL); }
};
template <> struct Limits<int> {
    __device__ static int lowest() { return -2147483647 - 1; }
    __device__ static int highest() { return 2147483647; }
};
template <> struct Limits<unsigned> {
    __device__ static unsigned lowest() { return 0u; }
    __device__ static unsigned highest() { return 0xffffffffu; }
};
template <> struct Limits<long long> {
    __device__ static long long lowest() { return -9223372036854775807LL - 1; }
    __device__ static long long highest() { return 9223372036854775807LL; }
};

/* Integer sums wrap modulo 2^32 (int, unsigned) or 2^64 (long long): add as
 * unsigned, where wrapping is defined. */
__device__ __forceinline__ float add(float a, float b) { return a + b; }
__device__ __forceinline__ double add(double a, double b) { return a + b; }
__device__ __forceinline__ int add(int a, int b) { return (int)((unsigned)a + (unsigned)b); }
__device__ __forceinline__ unsigned add(unsigned a, unsigned b) { return a + b; }
__device__ __forceinline__ long long add(long long a, long long b)
{
    return (long long)((unsigned long long)a + (unsigned long long)b);
}
/* max and min follow fmax/fmin for floating types: a NaN loses to a number. */
__device__ __forceinline__ float max_of(float a, float b) { return fmaxf(a, b); }
__device__ __forceinline__ double max_of(double a, double b) { return fmax(a, b); }
template <typename A> __device__ __forceinline__ A max_of(A a, A b) { return a > b ? a : b; }
__device__ __forceinline__ float min_of(float a, float b) { return fminf(a, b); }
__device__ __forceinline__ double min_of(double a, double b) { return fmin(a, b); }
template <typename A> __device__ __forceinline__ A min_of(A a, A b) { return a < b ? a : b; }

/* Every operation has a State (what a thread carries), make() (the state of
 * one element and its index), apply(), identity(), and value()/index() (what
 * is written out). For the plain operations the state is the value itself
 * and the index is ignored. */
template <typename A> struct Sum {
    typedef A State;
    static constexpr bool kArg = false;
    __device__ static State make(A v, size_t) { return v; }
    __device__ static State apply(State a, State b) { return add(a, b); }
    __device__ static State identity() { return A(0); }
    __device__ static A value(State s) { return s; }
    __device__ static unsigned long long index(State) { return ~0ULL; }
};
template <typename A> struct Max {
    typedef A State;
    static constexpr bool kArg = false;
    __device__ static State make(A v, size_t) { return v; }
    __device__ static State apply(State a, State b) { return max_of(a, b); }
    __device__ static State identity() { return Limits<A>::lowest(); }
    __device__ static A value(State s) { return s; }
    __device__ static unsigned long long index(State) { return ~0ULL; }
};
template <typename A> struct Min {
    typedef A State;
    static constexpr bool kArg = false;
    __device__ static State make(A v, size_t) { return v; }
    __device__ static State apply(State a, State b) { return min_of(a, b); }
    __device__ static State identity() { return Limits<A>::highest(); }
    __device__ static A value(State s) { return s; }
    __device__ static unsigned long long index(State) { return ~0ULL; }
};

/* ---- Arg-max and arg-min: a (value, index) pair ------------------------- */
template <typename A> struct Pair {
    A v;
    unsigned long long i;
};
__device__ __forceinline__ bool is_nan(float a) { return a != a; }
__device__ __forceinline__ bool is_nan(double a) { return a != a; }
template <typename A> __device__ __forceinline__ bool is_nan(A) { return false; }

/* rank(a, b) > 0 when a beats b, < 0 when b beats a, 0 on a tie. A NaN beats
 * every number and ties with a NaN (NumPy's argmax/argmin: the first NaN is
 * the answer); -0 and +0 tie. */
template <typename A> __device__ __forceinline__ int rank_max(A a, A b)
{
    bool an = is_nan(a), bn = is_nan(b);
    if (an || bn) return (int)an - (int)bn;
    return (int)(a > b) - (int)(a < b);
}
template <typename A> __device__ __forceinline__ int rank_min(A a, A b)
{
    bool an = is_nan(a), bn = is_nan(b);
    if (an || bn) return (int)an - (int)bn;
    return (int)(a < b) - (int)(a > b);
}
/* The winner of two values under the same rule, either one on a tie. For
 * f32 one instruction: max.NaN / min.NaN (PTX ISA, sm_80 and newer) return
 * a NaN when either input is one, so a NaN still beats every number. */
template <typename A> __device__ __forceinline__ A best_max(A a, A b) { return rank_max(b, a) > 0 ? b : a; }
template <typename A> __device__ __forceinline__ A best_min(A a, A b) { return rank_min(b, a) > 0 ? b : a; }
template <> __device__ __forceinline__ float best_max(float a, float b)
{
    float r;
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
}
template <> __device__ __forceinline__ float best_min(float a, float b)
{
    float r;
    asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
}
/* a strictly beats b: rank > 0, in two compares for f32 (b is not a NaN,
 * and a is a NaN or beyond b: an unordered compare, true when either is a
 * NaN). */
template <typename A> __device__ __forceinline__ bool beats_max(A a, A b) { return rank_max(a, b) > 0; }
template <typename A> __device__ __forceinline__ bool beats_min(A a, A b) { return rank_min(a, b) > 0; }
template <> __device__ __forceinline__ bool beats_max(float a, float b) { return b == b && !(a <= b); }
template <> __device__ __forceinline__ bool beats_min(float a, float b) { return b == b && !(a >= b); }
/* On a tie the smaller index wins, so the result is the first occurrence
 * whatever order the pairs are combined in (the operation is associative
 * and commutative). The identity has index 2^64 - 1, which every element's
 * index beats on a tie: an element equal to the identity's value (-inf, the
 * lowest integer) is still reported. */
template <typename A> struct ArgMax {
    typedef Pair<A> State;
    static constexpr bool kArg = true;
    __device__ static State make(A v, size_t i) { return State{v, (unsigned long long)i}; }
    __device__ static State apply(State a, State b)
    {
        int r = rank_max(a.v, b.v);
        return r > 0 || (r == 0 && a.i < b.i) ? a : b;
    }
    /* On values alone: rank, strictly beats, and a value that wins (either
     * one on a tie). */
    __device__ static int rank(A a, A b) { return rank_max(a, b); }
    __device__ static bool beats(A a, A b) { return beats_max(a, b); }
    __device__ static A best(A a, A b) { return best_max(a, b); }
    __device__ static State identity() { return State{Limits<A>::lowest(), ~0ULL}; }
    __device__ static A value(State s) { return s.v; }
    __device__ static unsigned long long index(State s) { return s.i; }
};
template <typename A> struct ArgMin {
    typedef Pair<A> State;
    static constexpr bool kArg = true;
    __device__ static State make(A v, size_t i) { return State{v, (unsigned long long)i}; }
    __device__ static State apply(State a, State b)
    {
        int r = rank_min(a.v, b.v);
        return r > 0 || (r == 0 && a.i < b.i) ? a : b;
    }
    __device__ static int rank(A a, A b) { return rank_min(a, b); }
    __device__ static bool beats(A a, A b) { return beats_min(a, b); }
    __device__ static A best(A a, A b) { return best_min(a, b); }
    __device__ static State identity() { return State{Limits<A>::highest(), ~0ULL}; }
    __device__ static A value(State s) { return s.v; }
    __device__ static unsigned long long index(State s) { return s.i; }
};

/* ---- Moving a state: shuffles, L2 reads --------------------------------- */
template <typename A> __device__ __forceinline__ A shfl_down(A v, int offset)
{
    return __shfl_down_sync(0xffffffffu, v, offset);
}
template <typename A> __device__ __forceinline__ Pair<A> shfl_down(Pair<A> p, int offset)
{
    return Pair<A>{__shfl_down_sync(0xffffffffu, p.v, offset), __shfl_down_sync(0xffffffffu, p.i, offset)};
}
/* A read through L2 (ld.global.cg), never a stale L1 line: for values other
 * blocks wrote during this kernel. */
template <typename A> __device__ __forceinline__ A ldcg(const A *p) { return __ldcg(p); }
template <typename A> __device__ __forceinline__ Pair<A> ldcg(const Pair<A> *p)
{
    return Pair<A>{__ldcg(&p->v), __ldcg(&p->i)};
}

/* ---- Variant 8's warp and block reductions, for any state --------------- */
/* After 5 shuffle steps lane 0 holds the warp's result. Called by whole
 * warps only (the full mask). */
template <typename Op> __device__ typename Op::State warp_reduce(typename Op::State v)
{
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v = Op::apply(v, shfl_down(v, offset));
    return v;
}

/* One state per thread in, the block's result out, valid in thread 0.
 * Block is the block size, a multiple of 32. One barrier. A caller that
 * calls it again must first pass a barrier of its own, so that warp 0 has
 * read warp_results before they are overwritten. */
template <typename Op, unsigned Block> __device__ typename Op::State block_reduce(typename Op::State v)
{
    __shared__ typename Op::State warp_results[Block / 32];
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    v = warp_reduce<Op>(v);
    if (lane == 0) warp_results[warp] = v;
    __syncthreads(); /* every warp's result is in shared memory before warp 0 reads them */
    if (warp == 0) {
        v = lane < Block / 32 ? warp_results[lane] : Op::identity();
        v = warp_reduce<Op>(v);
    }
    return v;
}

/* ---- Variant 12's tail, for any state ----------------------------------- */
/* 12_deterministic_sum.cu writes this end out for 4-byte values and
 * explains it: an epoch word in the workspace, a slot per block tagged with
 * two 32-bit tags (A, B) made from the epoch, the grid's last block loading
 * the slots until each carries this call's tags, clearing each it takes and
 * adding them in a fixed order, then storing epoch + 1; no counter, so no
 * memset. Here a slot is
 * 32 bytes, four 8-byte halves, half k = tag << 32 | word k % K, where the
 * state is K 4-byte words (1, 2 or 4: a value of 4 or 8 bytes, or a
 * (value, index) pair of 16) and the tags alternate A, B, A, B; a half is
 * taken only with its own tag, and a word stored twice or more must agree
 * with itself. Stored and loaded as two 16-byte relaxed .gpu accesses. */
constexpr size_t kTagSlotBytes = 32;

__device__ __forceinline__ unsigned long long mix64(unsigned long long z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* The tags of the call that read epoch e: A low, B high, B made to differ
 * from A. */
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

/* A state as 4-byte words and back. */
template <typename S> struct Words {
    static constexpr unsigned K = sizeof(S) / 4;
    static_assert(sizeof(S) % 4 == 0 && (K == 1 || K == 2 || K == 4), "a state of 4, 8 or 16 bytes");
    unsigned w[K];
};
template <typename S> __device__ __forceinline__ Words<S> to_words(S s)
{
    Words<S> x;
    memcpy(x.w, &s, sizeof(S));
    return x;
}
template <typename S> __device__ __forceinline__ S from_words(Words<S> x)
{
    S s;
    memcpy(&s, x.w, sizeof(S));
    return s;
}
/* Slot halves h[0..3] of a state, tagged. */
template <typename S> __device__ __forceinline__ void tag_halves(S s, unsigned long long tags, unsigned long long h[4])
{
    const Words<S> x = to_words(s);
#pragma unroll
    for (unsigned k = 0; k < 4; ++k)
        h[k] = ((k & 1 ? tags >> 32 : tags & 0xffffffffu) << 32) | x.w[k % Words<S>::K];
}
/* Whether halves h[0..3] are a whole slot of this call; if so, its state. */
template <typename S> __device__ __forceinline__ bool untag_halves(const unsigned long long h[4], unsigned long long tags, S *s)
{
    bool ok = true;
    Words<S> x;
#pragma unroll
    for (unsigned k = 0; k < 4; ++k) {
        ok &= (h[k] >> 32) == (k & 1 ? tags >> 32 : tags & 0xffffffffu);
        if (k < Words<S>::K) x.w[k] = (unsigned)h[k];
        else ok &= (unsigned)h[k] == x.w[k % Words<S>::K];
    }
    *s = from_words(x);
    return ok;
}

/* Called by every thread of every block after block_reduce, with the
 * block's result r in thread 0 and the epoch e that thread 0 read at the
 * block's start. Every block but the last stores its tagged slot and
 * returns false. The last block returns true, with the grid's result in
 * thread 0's *total: thread t adds slots t, t + Block, ... in turn, loading
 * each until it carries this call's tags and then clearing it (the last
 * block's own r takes slot gridDim.x - 1), then block_reduce adds the
 * threads' values; thread 0 stores epoch e + 1. The grid must fit on the
 * GPU at once (12_deterministic_sum.cu says why). */
template <typename Op, unsigned Block>
__device__ bool tag_tail(typename Op::State r, ulonglong2 *slots, unsigned long long *epoch, unsigned long long e,
                         typename Op::State *total)
{
    typedef typename Op::State S;
    const unsigned grid = gridDim.x;
    if (blockIdx.x != grid - 1) {
        if (threadIdx.x == 0) {
            unsigned long long h[4];
            tag_halves(r, tag_pair(e), h);
            st_relaxed2(slots + 2 * blockIdx.x, make_ulonglong2(h[0], h[1]));
            st_relaxed2(slots + 2 * blockIdx.x + 1, make_ulonglong2(h[2], h[3]));
        }
        return false;
    }
    __shared__ unsigned long long s_e;
    __shared__ S s_r;
    if (threadIdx.x == 0) {
        s_e = e;
        s_r = r;
    }
    __syncthreads(); /* also the barrier block_reduce asks for before its second call */
    e = s_e;
    const unsigned long long tags = tag_pair(e);
    S p = Op::identity();
    for (unsigned b = threadIdx.x; b < grid; b += Block) {
        S x = s_r; /* slot grid - 1 */
        if (b + 1 < grid) {
            unsigned long long h[4];
            for (;;) {
                const ulonglong2 lo = ld_relaxed2(slots + 2 * b), hi = ld_relaxed2(slots + 2 * b + 1);
                h[0] = lo.x, h[1] = lo.y, h[2] = hi.x, h[3] = hi.y;
                if (untag_halves(h, tags, &x)) break;
            }
            /* Taken: cleared, as in variant 12. */
            st_relaxed2(slots + 2 * b, make_ulonglong2(0ull, 0ull));
            st_relaxed2(slots + 2 * b + 1, make_ulonglong2(0ull, 0ull));
        }
        p = Op::apply(p, x);
    }
    p = block_reduce<Op, Block>(p);
    if (threadIdx.x == 0) {
        *total = p;
        st_relaxed(epoch, e + 1); /* after every slot of this call was seen */
    }
    return true;
}

/* ---- From the launchers' codes to the templates ------------------------ */
/* f is called as f(In(), Op()) and gets In, Op as decltype of its arguments.
 * dispatch_plain instantiates sum, max and min only; dispatch_all also the
 * arg operations. */
template <typename In, typename F> cudaError_t with_plain_op(int op, F f)
{
    typedef typename Elem<In>::Acc A;
    switch (op) {
    case 0: return f(In(), Sum<A>());
    case 1: return f(In(), Max<A>());
    case 2: return f(In(), Min<A>());
    default: return cudaErrorInvalidValue;
    }
}
template <typename In, typename F> cudaError_t with_any_op(int op, F f)
{
    typedef typename Elem<In>::Acc A;
    switch (op) {
    case 3: return f(In(), ArgMax<A>());
    case 4: return f(In(), ArgMin<A>());
    default: return with_plain_op<In>(op, f);
    }
}
#define GK_TYPED_SWITCH(WITH)                                  \
    switch (dtype) {                                           \
    case 0: return WITH<float>(op, f);                         \
    case 1: return WITH<int>(op, f);                           \
    case 3: return WITH<unsigned>(op, f);                      \
    case 4: return WITH<double>(op, f);                        \
    case 5: return WITH<__half>(op, f);                        \
    case 6: return WITH<__nv_bfloat16>(op, f);                 \
    case 7: return WITH<long long>(op, f);                     \
    default: return cudaErrorInvalidValue;                     \
    }
template <typename F> cudaError_t dispatch_plain(int dtype, int op, F f) { GK_TYPED_SWITCH(with_plain_op) }
template <typename F> cudaError_t dispatch_all(int dtype, int op, F f) { GK_TYPED_SWITCH(with_any_op) }
#undef GK_TYPED_SWITCH

} // namespace

#endif /* GK_REDUCE_KERNELS_TYPED_CUH */
