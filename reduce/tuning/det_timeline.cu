/* det_timeline.cu: where the time of a tagged-slot sum goes, block by block.
 *
 * Variant 12 ends with tagged slots: every block but the last stores its
 * result, tagged, in its slot; the grid's last block reads its own share,
 * then loads the slots until each carries this call's tags, and adds them.
 * At n = 2^20 that end costs about a microsecond over the read-only stream,
 * which has no end at all. This program reads the GPU's global timer
 * (%globaltimer: nanoseconds, one clock for every SM) at the moments of
 * each block of one call:
 *   start      thread 0's first instruction
 *   reduced    thread 0 holds the block's result (its loads consumed and the
 *              block's shuffle tree done)
 *   stored     (every block but the last) its slot's store issued
 * and, for the last block,
 *   polling    its first loads of the slots issued
 *   seen       every slot seen with this call's tags
 *   end        the result stored
 * and, where the form records it, when each slot was seen. Times are
 * relative to the earliest start of the call; each figure is the median
 * over 300 calls (after 10), the L2 flushed before each, with CUDA events
 * around the call as gk_bench times it. Writing the timestamps adds stores
 * of its own (two or three per block): the times are a picture of the
 * order of events, not of the library's exact kernel.
 *
 * The kernels are det_tails.cu's loop (variant 11's: 512 threads, four
 * 16-byte loads in flight per thread, each block a run of 2048 vectors per
 * round) with variant 12's end (16-byte slots holding the result twice
 * beside two 32-bit tags, each block's slot prefetched into L2; the last
 * block's 512 threads wait for two slots each, then its shuffle tree), and
 * these changes to it, one at a time:
 *   spread waiting     warps 1-15 wait (several threads per slot, their
 *                      first loads 0, 256 or 768 cycles apart), the first
 *                      to see a slot parks it in shared memory, warp 0
 *                      adds from there
 *   K loads in flight  each thread keeps K = 2, 4 or 8 loads of its one
 *                      slot in flight, about 400, 200 or 100 cycles apart
 *   the bench's order  load u of thread t of block b reads vector
 *                      (b * 512 + t) + u * (the grid's threads), as
 *                      bench/ceilings.cu's read-only stream does
 *   128 bytes apart    one slot per 128-byte line instead of eight
 *   weak loads         the slots loaded with ld.global.cg (weak, L2)
 *                      instead of ld.relaxed.gpu
 *   idle               the last block reads the global timer for 128, 256
 *                      or 384 ns before its first loads of the slots
 *   a slot per warp    each warp stores its own shuffle tree's result, no
 *                      block tree before the slots (events only)
 * and, for scale, an empty kernel, the stream (the same loop, its shuffle
 * tree, no end; also without the timestamps, with each warp's tree but no
 * block barrier, and with other shapes of the grid: 132 blocks of 512
 * threads, 4 loads each; n / 4096 blocks of 256 threads, 4 loads; of 512
 * threads, 2 loads; n / 2048 blocks of 512 threads, 1 load; n / 8192 of
 * 1024 threads, 2 loads; 264 of 512 threads, 2 loads) and
 * bench/ceilings.cu's read-only stream as it is.
 * Its output on an H200: det_timeline_h200.txt.
 *
 * Not part of the library or its build. It includes det_tails.cu (beside
 * it) for the loop and its helpers. On a GPU of compute capability 9.0, in
 * this folder:
 *   nvcc -std=c++17 -arch=sm_90 -O3 -o det_timeline det_timeline.cu && ./det_timeline
 */
#define main det_tails_main
#include "det_tails.cu"
#undef main
/* gk_ceiling_read_stream: the bench's read-only stream, its kernel and its
 * grid (at 2^20 and 2^22 the same grid as here). */
#include "../../bench/ceilings.cu"

namespace {

constexpr int kRec = 8; /* timestamps per block */
enum { kStart, kReduced, kStored, kPolling, kSeen, kEnd, kPolls, kSlotSeen };

__device__ __forceinline__ unsigned long long gtime()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t)::"memory");
    return t;
}
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
/* The loads that wait for a slot: relaxed .gpu (strong: the PTX memory
 * model's way to read what another SM wrote), or, for comparison, a weak
 * load that skips the L1 (ld.global.cg). */
template <bool Weak> __device__ __forceinline__ ulonglong2 poll_load(const ulonglong2 *p)
{
    if (!Weak) return ld_relaxed2(p);
    ulonglong2 v;
    asm volatile("ld.global.cg.v2.u64 {%0, %1}, [%2];" : "=l"(v.x), "=l"(v.y) : "l"(p) : "memory");
    return v;
}
__device__ __forceinline__ bool tagged2(ulonglong2 v, unsigned a, unsigned b)
{
    return (unsigned)(v.x >> 32) == a && (unsigned)(v.y >> 32) == b && (unsigned)v.x == (unsigned)v.y;
}

__global__ void k_timer_step(unsigned long long *step)
{
    unsigned long long best = ~0ull, last = gtime();
    for (int i = 0; i < 100000; ++i) {
        const unsigned long long t = gtime();
        if (t != last && t - last < best) best = t - last;
        last = t;
    }
    *step = best;
}

__global__ void k_empty_tl(unsigned long long *tl)
{
    const unsigned long long t0 = gtime();
    if (threadIdx.x == 0) tl[blockIdx.x * kRec + kStart] = t0;
}

/* The bench's read-only stream (bench/ceilings.cu) orders the loads the
 * other way: load u of thread t of block b is word (b * B + t) + u * (the
 * grid's threads), so the grid's first loads cover the first quarter of the
 * array, and so on. Variant 11's loop (thread_part) gives each block a run
 * of B * U words. */
template <int NT, int UU> __device__ __forceinline__ float thread_part_spread(const float4 *in, size_t nvec)
{
    float acc = 0.f;
    const size_t stride = (size_t)gridDim.x * NT;
    size_t i = (size_t)blockIdx.x * NT + threadIdx.x;
    for (; i + (UU - 1) * stride < nvec; i += UU * stride) {
        float4 x[UU];
#pragma unroll
        for (int u = 0; u < UU; ++u) x[u] = __ldg(in + i + u * stride);
#pragma unroll
        for (int u = 0; u < UU; ++u) acc += (x[u].x + x[u].y) + (x[u].z + x[u].w);
    }
    for (; i < nvec; i += stride) {
        float4 x = __ldg(in + i);
        acc += (x.x + x.y) + (x.z + x.w);
    }
    return acc;
}
template <bool Spread> __device__ __forceinline__ float part(const float4 *in, size_t nvec)
{
    return Spread ? thread_part_spread<B, U>(in, nvec) : thread_part<B, U>(in, nvec);
}

/* The stream with each warp's shuffle tree but no block barrier (events
 * only): what the tree's barrier costs beside det_tails.cu's k_stream. */
__global__ void __launch_bounds__(B) k_stream_warps(const float4 *in, size_t nvec, float *out)
{
    const float r = warp_sum(thread_part<B, U>(in, nvec));
    if (threadIdx.x % 32 == 0 && r == 1.2345e-30f) *out = r; /* never true here */
}

/* The stream with its tree at other shapes of the grid (events only):
 * NT threads per block, UU 16-byte loads in flight per thread. */
template <int NT, int UU>
__global__ void __launch_bounds__(NT) k_stream_shape(const float4 *in, size_t nvec, float *out)
{
    const float r = block_sum<NT>(thread_part<NT, UU>(in, nvec));
    if (threadIdx.x == 0 && r == 1.2345e-30f) *out = r; /* never true here */
}

template <bool Spread>
__global__ void __launch_bounds__(B) k_stream_tl(const float4 *in, size_t nvec, float *out, unsigned long long *tl)
{
    const unsigned long long t0 = gtime();
    float r = block_sum<B>(part<Spread>(in, nvec));
    if (threadIdx.x == 0) {
        tl[blockIdx.x * kRec + kStart] = t0;
        tl[blockIdx.x * kRec + kReduced] = gtime();
        if (r == 1.2345e-30f) *out = r; /* keeps the loads; never true here */
    }
}

/* What every block of a tagged-slot sum does first: its slot's line
 * prefetched into L2, its share read and added, its start and the moment
 * it holds its result recorded; every block but the last then stores its
 * slot (tags a and b beside two copies of the result) and is done (true).
 * The last block's result r is valid in its thread 0. */
template <bool Spread, int Stride>
__device__ __forceinline__ bool produce(const float4 *in, size_t nvec, ulonglong2 *slots, unsigned a, unsigned b,
                                        unsigned long long *tl, float *r)
{
    const unsigned long long t0 = gtime();
    const unsigned G = gridDim.x;
    ulonglong2 *mine = slots + (size_t)blockIdx.x * Stride;
    if (threadIdx.x == 0 && blockIdx.x + 1 < G) asm volatile("prefetch.global.L2 [%0];" ::"l"(mine));
    *r = block_sum<B>(part<Spread>(in, nvec));
    unsigned long long *rec = tl + (size_t)blockIdx.x * kRec;
    if (threadIdx.x == 0) {
        rec[kStart] = t0;
        rec[kReduced] = gtime();
    }
    if (blockIdx.x == G - 1) return false;
    if (threadIdx.x == 0) {
        const unsigned long long bits = __float_as_uint(*r);
        st_relaxed2(mine, make_ulonglong2(((unsigned long long)a << 32) | bits, ((unsigned long long)b << 32) | bits));
        rec[kStored] = gtime();
    }
    return true;
}

/* Variant 12's end; tags a and b (a != b) come from the host. */
template <bool Spread, int Stride = 1, bool Weak = false, unsigned SleepNs = 0>
__global__ void __launch_bounds__(B) k_tagged_tl(const float4 *in, size_t nvec, float *out, ulonglong2 *slots,
                                                unsigned a, unsigned b, unsigned long long *tl)
{
    float r;
    if (produce<Spread, Stride>(in, nvec, slots, a, b, tl, &r)) return;
    const unsigned G = gridDim.x;
    unsigned long long *rec = tl + (size_t)blockIdx.x * kRec;
    __shared__ float s_r;
    if (threadIdx.x == 0) s_r = r;
    __syncthreads();
    if constexpr (SleepNs != 0) { /* wait on the global timer before the first load of a slot */
        const unsigned long long t1 = gtime();
        while (gtime() - t1 < SleepNs) {
        }
    }
    if (threadIdx.x == 0) rec[kPolling] = gtime();
    float p = 0.f;
    unsigned polls = 0;
    for (unsigned b0 = 0; b0 < G; b0 += 2 * B) {
        const unsigned s[2] = {b0 + threadIdx.x, b0 + B + threadIdx.x};
        ulonglong2 got[2];
#pragma unroll
        for (int j = 0; j < 2; ++j)
            if (s[j] + 1 < G) got[j] = poll_load<Weak>(slots + (size_t)s[j] * Stride);
        for (;;) {
            bool waiting = false;
#pragma unroll
            for (int j = 0; j < 2; ++j)
                if (s[j] + 1 < G && !tagged2(got[j], a, b)) {
                    got[j] = poll_load<Weak>(slots + (size_t)s[j] * Stride);
                    waiting = true;
                }
            if (!waiting) break;
            ++polls;
        }
        const unsigned long long seen = gtime();
#pragma unroll
        for (int j = 0; j < 2; ++j)
            if (s[j] + 1 < G) tl[(size_t)s[j] * kRec + kSlotSeen] = seen;
#pragma unroll
        for (int j = 0; j < 2; ++j)
            if (s[j] + 1 < G) st_relaxed2(slots + (size_t)s[j] * Stride, make_ulonglong2(0ull, 0ull));
#pragma unroll
        for (int j = 0; j < 2; ++j) p += s[j] + 1 < G ? __uint_as_float((unsigned)got[j].x) : s[j] + 1 == G ? s_r : 0.f;
    }
    /* the most reloads any thread needed */
    __shared__ unsigned s_polls;
    if (threadIdx.x == 0) s_polls = 0;
    __syncthreads();
    atomicMax(&s_polls, polls);
    __syncthreads();
    if (threadIdx.x == 0) rec[kSeen] = gtime();
    p = block_sum<B>(p);
    if (threadIdx.x == 0) {
        *out = p;
        rec[kEnd] = gtime();
        rec[kPolls] = s_polls;
    }
}

/* Tagged slots without the producers' block tree (events only): each warp
 * of every block but the last stores its own shuffle tree's result in a
 * slot of its own (16 per block), so no block waits at a barrier before
 * its slots go out; the last block waits for 16 times as many slots, four
 * per thread in flight, and adds its own warps' results last. */
__global__ void __launch_bounds__(B) k_warp_slots(const float4 *in, size_t nvec, float *out, ulonglong2 *slots,
                                                 unsigned a, unsigned b)
{
    constexpr unsigned W = B / 32;
    const unsigned G = gridDim.x, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0 && warp % 8 == 0 && blockIdx.x + 1 < G)
        asm volatile("prefetch.global.L2 [%0];" ::"l"(slots + (size_t)blockIdx.x * W + warp));
    const float w = warp_sum(thread_part<B, U>(in, nvec));
    if (blockIdx.x + 1 < G) {
        if (lane == 0) {
            const unsigned long long bits = __float_as_uint(w);
            st_relaxed2(slots + (size_t)blockIdx.x * W + warp,
                        make_ulonglong2(((unsigned long long)a << 32) | bits, ((unsigned long long)b << 32) | bits));
        }
        return;
    }
    __shared__ float s_w[W];
    if (lane == 0) s_w[warp] = w;
    const unsigned ns = (G - 1) * W; /* at most 4 * B here */
    float p = 0.f;
    ulonglong2 got[4];
#pragma unroll
    for (int j = 0; j < 4; ++j)
        if (threadIdx.x + j * B < ns) got[j] = ld_relaxed2(slots + threadIdx.x + j * B);
    for (;;) {
        bool waiting = false;
#pragma unroll
        for (int j = 0; j < 4; ++j)
            if (threadIdx.x + j * B < ns && !tagged2(got[j], a, b)) {
                got[j] = ld_relaxed2(slots + threadIdx.x + j * B);
                waiting = true;
            }
        if (!waiting) break;
    }
#pragma unroll
    for (int j = 0; j < 4; ++j)
        if (threadIdx.x + j * B < ns) {
            st_relaxed2(slots + threadIdx.x + j * B, make_ulonglong2(0ull, 0ull));
            p += __uint_as_float((unsigned)got[j].x);
        }
    __syncthreads(); /* s_w written */
    if (threadIdx.x < W) p += s_w[threadIdx.x];
    p = block_sum<B>(p);
    if (threadIdx.x == 0) *out = p;
}

/* The same end with the waiting spread over more threads: warps 1-15 poll
 * (where there are fewer slots than pollers, several threads poll each
 * slot, their first loads Stagger cycles apart), the first to see a slot
 * tagged parks it in shared memory, and warp 0 alone waits on shared
 * memory and adds, with no barrier after the polling. */
template <unsigned Stagger>
__global__ void __launch_bounds__(B) k_spread_tl(const float4 *in, size_t nvec, float *out, ulonglong2 *slots,
                                                unsigned a, unsigned b, unsigned long long *tl)
{
    __shared__ unsigned long long s_ent[2 * B];
    const unsigned G = gridDim.x;
    if (blockIdx.x == G - 1) s_ent[threadIdx.x] = s_ent[threadIdx.x + B] = 0ull;
    float r; /* produce's barrier (block_sum's) also orders the zeroing */
    if (produce<false, 1>(in, nvec, slots, a, b, tl, &r)) return;
    unsigned long long *rec = tl + (size_t)blockIdx.x * kRec;
    const unsigned ns = G - 1; /* at most 2 * B here */
    volatile unsigned long long *ent = s_ent;
    if (threadIdx.x >= 32) {
        const unsigned p = threadIdx.x - 32, np = B - 32;
        if (ns == 0) return;
        if (ns <= np) {
            const unsigned q = np / ns; /* pollers per slot */
            if (p >= q * ns) return;
            const unsigned slot = p % ns, phase = p / ns;
            if (phase) {
                const long long c0 = clock64();
                while (clock64() - c0 < (long long)(phase * Stagger / q))
                    if (ent[slot]) return;
            }
            while (!ent[slot]) {
                const ulonglong2 v = ld_relaxed2(slots + slot);
                if (tagged2(v, a, b)) ent[slot] = (1ull << 32) | (unsigned)v.x;
            }
        } else {
            for (unsigned slot = p; slot < ns; slot += np)
                while (!ent[slot]) {
                    const ulonglong2 v = ld_relaxed2(slots + slot);
                    if (tagged2(v, a, b)) ent[slot] = (1ull << 32) | (unsigned)v.x;
                }
        }
        return;
    }
    /* warp 0: r is in lane 0 */
    if (threadIdx.x == 0) rec[kPolling] = gtime();
    float x = 0.f;
    for (unsigned slot = threadIdx.x; slot < ns; slot += 32) {
        unsigned long long v;
        while (!(v = ent[slot])) {
        }
        x += __uint_as_float((unsigned)v);
        st_relaxed2(slots + slot, make_ulonglong2(0ull, 0ull));
    }
    if (threadIdx.x == 0) rec[kSeen] = gtime();
    x = warp_sum(x);
    if (threadIdx.x == 0) {
        *out = x + r;
        rec[kEnd] = gtime();
        rec[kPolls] = 0;
    }
}

/* Variant 12's end with K loads of each slot in flight at once: thread t
 * waits for slot t alone (at most B slots), issuing its K loads about Gap
 * cycles apart and reissuing each as soon as it returns without the tags,
 * so that a load of the slot reaches the L2 every Gap / K cycles or so
 * instead of once per round trip. */
template <int K, int Gap, int Stride = 1>
__global__ void __launch_bounds__(B) k_inflight_tl(const float4 *in, size_t nvec, float *out, ulonglong2 *slots,
                                                  unsigned a, unsigned b, unsigned long long *tl)
{
    float r;
    if (produce<false, Stride>(in, nvec, slots, a, b, tl, &r)) return;
    const unsigned G = gridDim.x;
    unsigned long long *rec = tl + (size_t)blockIdx.x * kRec;
    __shared__ float s_r;
    if (threadIdx.x == 0) s_r = r;
    __syncthreads();
    if (threadIdx.x == 0) rec[kPolling] = gtime();
    float p = 0.f;
    unsigned polls = 0;
    const unsigned slot = threadIdx.x;
    if (slot + 1 < G) {
        /* v[k] starts untagged (zero), so the first pass issues the K loads
         * Gap cycles apart without waiting; from then on each check waits
         * for the load issued K steps before, and the loads stay staggered. */
        ulonglong2 v[K];
#pragma unroll
        for (int k = 0; k < K; ++k) v[k] = make_ulonglong2(0ull, 0ull);
        ulonglong2 got;
        for (bool done = false; !done;) {
#pragma unroll
            for (int k = 0; k < K; ++k) {
                if (!done && tagged2(v[k], a, b)) {
                    got = v[k];
                    done = true;
                }
                if (!done) {
                    v[k] = ld_relaxed2(slots + (size_t)slot * Stride);
                    ++polls;
                    const long long c0 = clock64();
                    while (clock64() - c0 < Gap) {
                    }
                }
            }
        }
        tl[(size_t)slot * kRec + kSlotSeen] = gtime();
        st_relaxed2(slots + (size_t)slot * Stride, make_ulonglong2(0ull, 0ull));
        p = __uint_as_float((unsigned)got.x);
    } else if (slot + 1 == G) {
        p = s_r;
    }
    __shared__ unsigned s_polls;
    if (threadIdx.x == 0) s_polls = 0;
    __syncthreads();
    atomicMax(&s_polls, polls);
    __syncthreads();
    if (threadIdx.x == 0) rec[kSeen] = gtime();
    p = block_sum<B>(p);
    if (threadIdx.x == 0) {
        *out = p;
        rec[kEnd] = gtime();
        rec[kPolls] = s_polls;
    }
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

} // namespace

int main()
{
    int dev = 0, sms = 0, per_sm = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, dev));
    int rt = 0, drv = 0;
    CK(cudaRuntimeGetVersion(&rt));
    CK(cudaDriverGetVersion(&drv));
    printf("%s, %d SMs, CUDA runtime %d, driver %d\n", prop.name, sms, rt, drv);
    const size_t flush_bytes = 2 * (size_t)prop.l2CacheSize;
    void *flush;
    CK(cudaMalloc(&flush, flush_bytes));
    const size_t nmax = (size_t)1 << 24;
    float *d_in, *d_out;
    ulonglong2 *slots;
    unsigned long long *d_tl;
    CK(cudaMalloc(&d_in, nmax * 4));
    CK(cudaMalloc(&d_out, 4));
    CK(cudaMalloc(&slots, 8 * 4096 * sizeof(ulonglong2)));
    CK(cudaMemset(slots, 0, 8 * 4096 * sizeof(ulonglong2)));
    CK(cudaMalloc(&d_tl, 4096 * kRec * 8));
    std::vector<float> h(nmax);
    uint32_t s = 12345;
    for (auto &x : h) {
        s = s * 1664525u + 1013904223u;
        x = (float)((s >> 8) * (1.0 / 16777216.0)) - 0.3f;
    }
    CK(cudaMemcpy(d_in, h.data(), nmax * 4, cudaMemcpyHostToDevice));
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_tagged_tl<false>, B, 0));
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));

    /* The timer's step: the smallest non-zero difference between two
     * reads in a row on one thread. */
    {
        unsigned long long *d_step, h_step = 0;
        CK(cudaMalloc(&d_step, 8));
        k_timer_step<<<1, 1, 0, st>>>(d_step);
        CK(cudaStreamSynchronize(st));
        CK(cudaMemcpy(&h_step, d_step, 8, cudaMemcpyDeviceToHost));
        printf("global timer step: %llu ns\n", h_step);
        CK(cudaFree(d_step));
    }

    const int kCalls = 300, kWarm = 10;
    for (int lg : {20, 22}) {
        const size_t n = (size_t)1 << lg, nvec = n / 4;
        const float4 *in4 = (const float4 *)d_in;
        double ref = 0.0, sum_abs = 0.0;
        for (size_t i = 0; i < n; ++i) {
            ref += h[i];
            sum_abs += std::fabs(h[i]);
        }
        size_t g = (nvec + B * U - 1) / (B * U);
        g = std::min(g, (size_t)sms * per_sm);
        const unsigned G = (unsigned)g;
        struct Row {
            const char *name;
            int kind; /* 0 empty, 1 stream, 2 tagged */
        };
        for (Row row : {Row{"empty kernel", 0}, Row{"read-only stream", 1}, Row{"tagged slots (variant 12's end)", 2},
                        Row{"spread waiting, no stagger", 3}, Row{"spread waiting, stagger 256 cycles", 4},
                        Row{"spread waiting, stagger 768 cycles", 5}, Row{"2 loads in flight, 400 cycles apart", 6},
                        Row{"4 loads in flight, 200 cycles apart", 7}, Row{"8 loads in flight, 100 cycles apart", 8},
                        Row{"the bench's read-only stream as it is (events only)", 9},
                        Row{"read-only stream, the bench's order of loads", 10},
                        Row{"tagged slots, the bench's order of loads", 11},
                        Row{"tagged slots, 128 bytes apart", 12},
                        Row{"tagged slots, 128 bytes apart, the bench's order of loads", 13},
                        Row{"2 loads in flight, 400 cycles apart, slots 128 bytes apart", 14},
                        Row{"tagged slots, weak loads (ld.global.cg) waiting", 15},
                        Row{"tagged slots, weak loads waiting, 128 bytes apart", 16},
                        Row{"tagged slots, the last block idle 128 ns before it loads them", 17},
                        Row{"tagged slots, the last block idle 256 ns before it loads them", 18},
                        Row{"tagged slots, the last block idle 384 ns before it loads them", 19},
                        Row{"read-only stream with its tree, no timestamps (events only)", 20},
                        Row{"read-only stream, warps' trees only, no barrier (events only)", 21},
                        Row{"stream with its tree, 132 blocks of 512, 4 loads each (events only)", 22},
                        Row{"stream with its tree, 256 blocks of 256, 4 loads each (events only)", 23},
                        Row{"stream with its tree, 256 blocks of 512, 2 loads each (events only)", 24},
                        Row{"stream with its tree, 512 blocks of 512, 1 load each (events only)", 25},
                        Row{"stream with its tree, 128 blocks of 1024, 2 loads each (events only)", 26},
                        Row{"stream with its tree, 264 blocks of 512, 2 loads each (events only)", 27},
                        Row{"tagged slots, one per warp, no block tree before them (events only)", 28}}) {
            const bool tagged_end = row.kind >= 2 && row.kind != 9 && row.kind != 10 && row.kind < 20;
            double worst = 0.0;
            std::vector<double> lat_med, lat_last;
            std::vector<double> ev, start_span, red_min, red_med, red_max, stored_max, c_start, c_red, c_poll,
                c_seen, c_end, polls;
            for (int call = 0; call < kWarm + kCalls; ++call) {
                CK(cudaMemsetAsync(flush, call & 0xff, flush_bytes, st));
                CK(cudaMemsetAsync(d_tl, 0, (size_t)G * kRec * 8, st));
                if (((row.kind >= 6 && row.kind <= 8) || row.kind == 14) && G - 1 > (unsigned)B) break;
                if (row.kind == 28 && (G - 1) * (B / 32) > 4u * B) break;
                /* a new pair of tags per call, never zero, a != b */
                const unsigned a = 0x9e3779b9u * (unsigned)(call + 1) | 1u, b = a ^ 0x80000000u;
                CK(cudaEventRecord(e0, st));
                if (row.kind == 0) k_empty_tl<<<G, B, 0, st>>>(d_tl);
                if (row.kind == 1) k_stream_tl<false><<<G, B, 0, st>>>(in4, nvec, d_out, d_tl);
                if (row.kind == 2) k_tagged_tl<false><<<G, B, 0, st>>>(in4, nvec, d_out, slots, a, b, d_tl);
                if (row.kind == 3) k_spread_tl<0><<<G, B, 0, st>>>(in4, nvec, d_out, slots, a, b, d_tl);
                if (row.kind == 4) k_spread_tl<256><<<G, B, 0, st>>>(in4, nvec, d_out, slots, a, b, d_tl);
                if (row.kind == 5) k_spread_tl<768><<<G, B, 0, st>>>(in4, nvec, d_out, slots, a, b, d_tl);
                if (row.kind == 6) k_inflight_tl<2, 400><<<G, B, 0, st>>>(in4, nvec, d_out, slots, a, b, d_tl);
                if (row.kind == 7) k_inflight_tl<4, 200><<<G, B, 0, st>>>(in4, nvec, d_out, slots, a, b, d_tl);
                if (row.kind == 9) CK(gk_ceiling_read_stream(d_in, n * 4, (unsigned *)d_out, st));
                if (row.kind == 10) k_stream_tl<true><<<G, B, 0, st>>>(in4, nvec, d_out, d_tl);
                if (row.kind == 11) k_tagged_tl<true><<<G, B, 0, st>>>(in4, nvec, d_out, slots, a, b, d_tl);
                if (row.kind == 12) k_tagged_tl<false, 8><<<G, B, 0, st>>>(in4, nvec, d_out, slots, a, b, d_tl);
                if (row.kind == 13) k_tagged_tl<true, 8><<<G, B, 0, st>>>(in4, nvec, d_out, slots, a, b, d_tl);
                if (row.kind == 14) k_inflight_tl<2, 400, 8><<<G, B, 0, st>>>(in4, nvec, d_out, slots, a, b, d_tl);
                if (row.kind == 15) k_tagged_tl<false, 1, true><<<G, B, 0, st>>>(in4, nvec, d_out, slots, a, b, d_tl);
                if (row.kind == 16) k_tagged_tl<false, 8, true><<<G, B, 0, st>>>(in4, nvec, d_out, slots, a, b, d_tl);
                if (row.kind == 17) k_tagged_tl<false, 1, false, 128><<<G, B, 0, st>>>(in4, nvec, d_out, slots, a, b, d_tl);
                if (row.kind == 18) k_tagged_tl<false, 1, false, 256><<<G, B, 0, st>>>(in4, nvec, d_out, slots, a, b, d_tl);
                if (row.kind == 19) k_tagged_tl<false, 1, false, 384><<<G, B, 0, st>>>(in4, nvec, d_out, slots, a, b, d_tl);
                if (row.kind == 20) k_stream<<<G, B, 0, st>>>(in4, nvec, d_out);
                if (row.kind == 21) k_stream_warps<<<G, B, 0, st>>>(in4, nvec, d_out);
                if (row.kind == 22) k_stream_shape<512, 4><<<132, 512, 0, st>>>(in4, nvec, d_out);
                if (row.kind == 23) k_stream_shape<256, 4><<<(unsigned)(nvec / 1024), 256, 0, st>>>(in4, nvec, d_out);
                if (row.kind == 24) k_stream_shape<512, 2><<<(unsigned)(nvec / 1024), 512, 0, st>>>(in4, nvec, d_out);
                if (row.kind == 25) k_stream_shape<512, 1><<<(unsigned)(nvec / 512), 512, 0, st>>>(in4, nvec, d_out);
                if (row.kind == 26) k_stream_shape<1024, 2><<<(unsigned)(nvec / 2048), 1024, 0, st>>>(in4, nvec, d_out);
                if (row.kind == 27) k_stream_shape<512, 2><<<264, 512, 0, st>>>(in4, nvec, d_out);
                if (row.kind == 28) k_warp_slots<<<G, B, 0, st>>>(in4, nvec, d_out, slots, a, b);
                if (row.kind == 8) k_inflight_tl<8, 100><<<G, B, 0, st>>>(in4, nvec, d_out, slots, a, b, d_tl);
                CK(cudaEventRecord(e1, st));
                CK(cudaStreamSynchronize(st));
                if (tagged_end || row.kind == 28) {
                    float got = 0.f;
                    CK(cudaMemcpy(&got, d_out, 4, cudaMemcpyDeviceToHost));
                    worst = std::max(worst, std::fabs(got - ref) / sum_abs);
                }
                if (call < kWarm) continue;
                float ms = 0.f;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                ev.push_back(ms * 1e3);
                if (row.kind == 9 || row.kind >= 20) continue;
                std::vector<unsigned long long> tl((size_t)G * kRec);
                CK(cudaMemcpy(tl.data(), d_tl, tl.size() * 8, cudaMemcpyDeviceToHost));
                unsigned long long t0 = ~0ull, t1 = 0;
                for (unsigned i = 0; i < G; ++i) {
                    t0 = std::min(t0, tl[i * kRec + kStart]);
                    t1 = std::max(t1, tl[i * kRec + kStart]);
                }
                start_span.push_back((double)(t1 - t0));
                if (row.kind == 0) continue;
                const unsigned producers = tagged_end ? G - 1 : G;
                std::vector<double> red;
                double smax = 0;
                for (unsigned i = 0; i < producers; ++i) {
                    red.push_back((double)(tl[i * kRec + kReduced] - t0));
                    if (tagged_end) smax = std::max(smax, (double)(tl[i * kRec + kStored] - t0));
                }
                std::sort(red.begin(), red.end());
                red_min.push_back(red.front());
                red_med.push_back(red[red.size() / 2]);
                red_max.push_back(red.back());
                if (!tagged_end) continue;
                stored_max.push_back(smax);
                const unsigned long long *c = &tl[(size_t)(G - 1) * kRec];
                c_start.push_back((double)(c[kStart] - t0));
                c_red.push_back((double)(c[kReduced] - t0));
                c_poll.push_back((double)(c[kPolling] - t0));
                c_seen.push_back((double)(c[kSeen] - t0));
                c_end.push_back((double)(c[kEnd] - t0));
                polls.push_back((double)c[kPolls]);
                if (row.kind == 2 || row.kind >= 6) { /* these record when each slot was seen */
                    std::vector<double> lat;
                    for (unsigned i = 0; i + 1 < G; ++i)
                        lat.push_back((double)tl[i * kRec + kSlotSeen] - (double)tl[i * kRec + kStored]);
                    std::sort(lat.begin(), lat.end());
                    lat_med.push_back(lat[lat.size() / 2]);
                    /* the slot stored last: how long until the last block saw it */
                    unsigned last = 0;
                    for (unsigned i = 0; i + 1 < G; ++i)
                        if (tl[i * kRec + kStored] > tl[last * kRec + kStored]) last = i;
                    lat_last.push_back((double)tl[last * kRec + kSlotSeen] - (double)tl[last * kRec + kStored]);
                }
            }
            printf("\nn = 2^%d, %u blocks of %d threads: %s\n", lg, G, B, row.name);
            if (ev.empty()) {
                printf("  not run: more slots than this form waits for\n");
                continue;
            }
            printf("  call (CUDA events, L2 flushed)        %7.2f us\n", median(ev));
            if (!start_span.empty()) printf("  block starts spread over              %7.0f ns\n", median(start_span));
            if (row.kind == 28 && !ev.empty()) printf("  worst |sum - exact| / sum |x| over the calls: %.2e\n", worst);
            if (row.kind == 0 || row.kind == 9 || row.kind >= 20) continue;
            printf("  %s reduced: first / median / last %5.0f / %5.0f / %5.0f ns\n",
                   tagged_end ? "other blocks" : "blocks      ", median(red_min), median(red_med), median(red_max));
            if (!tagged_end) continue;
            printf("  other blocks' last slot store issued  %7.0f ns\n", median(stored_max));
            printf("  last block: start %.0f, reduced %.0f, polling %.0f, all seen %.0f, end %.0f ns\n",
                   median(c_start), median(c_red), median(c_poll), median(c_seen), median(c_end));
            printf("  worst |sum - exact| / sum |x| over the calls: %.2e\n", worst);
            if (!lat_last.empty())
                printf("  a slot seen after its store was issued: median slot %.0f ns, the slot stored last %.0f ns\n",
                       median(lat_med), median(lat_last));
            printf("  last block: most reloads of a slot by one thread (median over calls) %.0f\n", median(polls));
        }
    }
    return 0;
}
