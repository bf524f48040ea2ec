/* det_tags.cu: det_tails.cu's ends against ends that need no zeroed counter.
 *
 * det_tails.cu times the ways to end a deterministic f32 sum; every one
 * with a ticket counter needs it at 0 before the call, and the workspace
 * comes uninitialised. This program puts beside CUB, the stream, variant
 * 11's RED and variant 12's former ticket (a 4-byte cudaMemsetAsync, then a
 * release-acquire ticket, one warp adding):
 *   ticket, no zeroing         the same ticket with the counter left at 0 by
 *                              the call before (what the memset costs; not
 *                              a correct end on an uninitialised workspace)
 *   writevalue + ticket        the counter zeroed by cuStreamWriteValue32
 *                              (the driver's stream memory operation,
 *                              reached through cudaGetDriverEntryPointByVersion)
 *                              instead of the memset; "lookup+": the entry
 *                              point looked up at every call
 *   tag, last block waits      no counter: every block but the last stores
 *                              (tag, result) in one 64-bit word, and warp 0
 *                              of the last block loads the slots until each
 *                              holds this call's tag (a new tag per call)
 * and, for scale, an empty kernel with and without a memset or a stream
 * write before it. Timing as gk_bench's: the L2 flushed before each call,
 * CUDA events around the call alone, the median of 300 calls after 10; each
 * list runs twice. Each line also says whether two runs gave the same bits,
 * and the error against a double sum.
 *
 * Not part of the library or its build. On a GPU of compute capability 9.0:
 *   nvcc -std=c++17 -arch=sm_90 -O3 -o det_tags det_tags.cu && ./det_tags
 */
#include <cuda.h>
#include <cooperative_groups.h>
#include <cub/cub.cuh>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

namespace cg = cooperative_groups;

#define CK(x)                                                                                        \
    do {                                                                                             \
        cudaError_t e_ = (x);                                                                        \
        if (e_ != cudaSuccess) {                                                                     \
            printf("error: %s at line %d: %s\n", #x, __LINE__, cudaGetErrorString(e_));              \
            exit(1);                                                                                 \
        }                                                                                            \
    } while (0)

__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}
/* Valid in every lane of warp 0. */
template <int NT> __device__ __forceinline__ float block_sum(float v)
{
    __shared__ float s[32];
    v = warp_sum(v);
    const int w = threadIdx.x / 32, l = threadIdx.x % 32;
    if (l == 0) s[w] = v;
    __syncthreads();
    v = 0.f;
    if (w == 0) v = warp_sum(l < NT / 32 ? s[l] : 0.f);
    return v;
}
/* Variant 12's tail: one warp adds the block results in a fixed order,
 * lane l taking slots l, l + 32, ... with eight loads in flight, then the
 * shuffle tree. Valid in every lane. */
__device__ __forceinline__ float slots_sum(const float *slots, unsigned nslots)
{
    float p = 0.f;
    for (unsigned b = threadIdx.x % 32; b < nslots; b += 8 * 32) {
        float x[8];
#pragma unroll
        for (unsigned j = 0; j < 8; ++j) x[j] = b + 32 * j < nslots ? __ldcg(slots + b + 32 * j) : 0.f;
#pragma unroll
        for (unsigned j = 0; j < 8; ++j) p += x[j];
    }
    return warp_sum(p);
}
/* Variant 11's loop: this thread's part of the grid-stride sum. */
template <int NT, int U> __device__ __forceinline__ float thread_part(const float4 *in, size_t nvec)
{
    float acc = 0.f;
    const size_t per = (size_t)NT * U, stride = (size_t)gridDim.x * per;
    size_t v = blockIdx.x * per + threadIdx.x;
    for (; v + (U - 1) * NT < nvec; v += stride) {
        float4 x[U];
#pragma unroll
        for (int u = 0; u < U; ++u) x[u] = __ldg(in + v + u * NT);
#pragma unroll
        for (int u = 0; u < U; ++u) acc += (x[u].x + x[u].y) + (x[u].z + x[u].w);
    }
#pragma unroll
    for (int u = 0; u < U; ++u)
        if (v + u * NT < nvec) {
            float4 x = __ldg(in + v + u * NT);
            acc += (x.x + x.y) + (x.z + x.w);
        }
    return acc;
}

constexpr int B = 512, U = 4;

/* Programmatic dependent launch (PTX griddepcontrol, sm_90): a kernel
 * launched with cudaLaunchAttributeProgrammaticStreamSerialization may start
 * before the kernel ahead of it in the stream ends (once every block of that
 * one has run launch_dependents, or ended); its griddepcontrol.wait returns
 * when that kernel has completed and its writes are visible. */
__device__ __forceinline__ void pdl_trigger() { asm volatile("griddepcontrol.launch_dependents;" ::: "memory"); }
__device__ __forceinline__ void pdl_wait() { asm volatile("griddepcontrol.wait;" ::: "memory"); }

__global__ void __launch_bounds__(B) k_stream(const float4 *in, size_t nvec, float *out)
{
    float r = block_sum<B>(thread_part<B, U>(in, nvec));
    if (threadIdx.x == 0 && r == 1.2345e-30f) *out = r; /* keeps the loads; never true here */
}
__global__ void __launch_bounds__(B) k_atomic(const float4 *in, size_t nvec, float *out)
{
    float r = block_sum<B>(thread_part<B, U>(in, nvec));
    if (threadIdx.x == 0) atomicAdd(out, r);
}
__global__ void __launch_bounds__(B) k_ticket_fence(const float4 *in, size_t nvec, float *out, float *slots,
                                                    unsigned *cnt)
{
    float r = block_sum<B>(thread_part<B, U>(in, nvec));
    __shared__ bool last;
    if (threadIdx.x == 0) {
        slots[blockIdx.x] = r;
        __threadfence();
        last = atomicAdd(cnt, 1u) == gridDim.x - 1;
    }
    __syncthreads();
    if (!last) return;
    __threadfence();
    float p = 0.f;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += B) p += __ldcg(slots + b);
    p = block_sum<B>(p);
    if (threadIdx.x == 0) {
        *out = p;
        *cnt = 0;
    }
}
/* Pdl (pdl-zero-ticket): launched as a programmatic dependent launch
 * behind k_zero, whose write of the counter it waits for before its
 * ticket (pdl_wait, below). */
template <bool Pdl>
__global__ void __launch_bounds__(B) k_ticket_acq_rel(const float4 *in, size_t nvec, float *out, float *slots,
                                                      unsigned *cnt)
{
    float r = block_sum<B>(thread_part<B, U>(in, nvec));
    if (threadIdx.x >= 32) return;
    unsigned t = 0;
    if (threadIdx.x == 0) {
        slots[blockIdx.x] = r;
        if (Pdl) pdl_wait();
        asm volatile("atom.add.acq_rel.gpu.global.u32 %0, [%1], %2;" : "=r"(t) : "l"(cnt), "r"(1u) : "memory");
    }
    t = __shfl_sync(0xffffffffu, t, 0);
    if (t != gridDim.x - 1) return;
    __syncwarp();
    float p = slots_sum(slots, gridDim.x);
    if (threadIdx.x == 0) {
        *out = p;
        *cnt = 0;
    }
}
__global__ void __launch_bounds__(B) k_coop(const float4 *in, size_t nvec, float *out, float *slots)
{
    float r = block_sum<B>(thread_part<B, U>(in, nvec));
    if (threadIdx.x == 0) slots[blockIdx.x] = r;
    cg::this_grid().sync();
    if (blockIdx.x != 0 || threadIdx.x >= 32) return;
    float p = 0.f;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += 32) p += __ldcg(slots + b);
    p = warp_sum(p);
    if (threadIdx.x == 0) *out = p;
}
__global__ void __launch_bounds__(1024, 1) k_cluster(const float4 *in, size_t nvec, float *out)
{
    __shared__ float mine;
    float r = block_sum<1024>(thread_part<1024, 8>(in, nvec));
    cg::cluster_group cl = cg::this_cluster();
    if (threadIdx.x == 0) mine = r;
    cl.sync(); /* every block's result is in its shared memory */
    if (blockIdx.x == 0 && threadIdx.x < 32) {
        float p = threadIdx.x < cl.num_blocks() ? *cl.map_shared_rank(&mine, threadIdx.x) : 0.f;
        p = warp_sum(p);
        if (threadIdx.x == 0) *out = p;
    }
    cl.sync(); /* no block leaves while block 0 may still read its shared memory */
}

/* pdl-tail: the blocks store their results and end; a second kernel of one
 * warp, launched early, waits for them and adds the slots in order. */
template <bool EarlyTrigger>
__global__ void __launch_bounds__(B) k_slots(const float4 *in, size_t nvec, float *slots)
{
    if (EarlyTrigger) pdl_trigger();
    float r = block_sum<B>(thread_part<B, U>(in, nvec));
    if (threadIdx.x == 0) slots[blockIdx.x] = r;
}
__global__ void __launch_bounds__(32) k_tail(const float *slots, unsigned nslots, float *out)
{
    pdl_wait();
    float p = slots_sum(slots, nslots);
    if (threadIdx.x == 0) *out = p;
}
/* pdl-zero: a one-thread kernel zeroes the ticket counter and lets the sum
 * start at once; the sum waits for it only before taking its ticket. */
__global__ void k_zero(unsigned *cnt)
{
    pdl_trigger();
    *cnt = 0;
}
template <typename... P, typename... A> static void launch_pdl(void (*k)(P...), dim3 g, dim3 b, cudaStream_t st, A... a)
{
    cudaLaunchConfig_t c = {};
    c.gridDim = g;
    c.blockDim = b;
    c.stream = st;
    cudaLaunchAttribute at[1];
    at[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    at[0].val.programmaticStreamSerializationAllowed = 1;
    c.attrs = at;
    c.numAttrs = 1;
    CK(cudaLaunchKernelEx(&c, k, a...));
}
__global__ void k_empty(float *out)
{
    if (threadIdx.x == 1000) *out = 0.f;
}


/* --- new ends --- */
__device__ __forceinline__ void st_relaxed64(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.relaxed.gpu.global.b64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ unsigned long long ld_relaxed64(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.relaxed.gpu.global.b64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}
/* tag: every block but the last stores (tag, result) in one 64-bit word;
 * the last block's warp 0 waits until every slot holds this call's tag. */
__global__ void __launch_bounds__(B) k_tag(const float4 *in, size_t nvec, float *out, unsigned long long *slots,
                                           unsigned tag)
{
    float r = block_sum<B>(thread_part<B, U>(in, nvec));
    const unsigned G = gridDim.x;
    if (blockIdx.x != G - 1) {
        if (threadIdx.x == 0) st_relaxed64(slots + blockIdx.x, ((unsigned long long)tag << 32) | __float_as_uint(r));
        return;
    }
    if (threadIdx.x >= 32) return;
    const unsigned lane = threadIdx.x;
    float p = 0.f;
    for (unsigned b0 = 0; b0 < G; b0 += 8 * 32) {
        unsigned long long v[8];
#pragma unroll
        for (unsigned j = 0; j < 8; ++j) {
            unsigned i = b0 + lane + 32 * j;
            v[j] = i < G - 1 ? ld_relaxed64(slots + i) : (((unsigned long long)tag << 32) | (i == G - 1 ? __float_as_uint(r) : 0u));
        }
        for (;;) {
            bool ok = true;
#pragma unroll
            for (unsigned j = 0; j < 8; ++j) {
                unsigned i = b0 + lane + 32 * j;
                if ((unsigned)(v[j] >> 32) != tag) {
                    ok = false;
                    v[j] = ld_relaxed64(slots + i);
                }
            }
            if (ok) break;
        }
#pragma unroll
        for (unsigned j = 0; j < 8; ++j) p += __uint_as_float((unsigned)v[j]);
    }
    p = warp_sum(p);
    if (lane == 0) *out = p;
}
typedef CUresult (*WriteValue32)(CUstream, CUdeviceptr, cuuint32_t, unsigned int);

int main()
{
    int dev = 0, sms = 0;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    cudaDeviceProp prop;
    CK(cudaGetDeviceProperties(&prop, dev));
    int rt = 0, drv = 0;
    CK(cudaRuntimeGetVersion(&rt));
    CK(cudaDriverGetVersion(&drv));
    printf("%s, %d SMs, CUDA runtime %d, driver %d\n", prop.name, sms, rt, drv);
    WriteValue32 wv = nullptr;
    cudaDriverEntryPointQueryResult q;
    CK(cudaGetDriverEntryPointByVersion("cuStreamWriteValue32", (void **)&wv, 12000, cudaEnableDefault, &q));
    printf("cuStreamWriteValue32 %p (query %d)\n", (void *)wv, (int)q);
    {   /* host cost of the lookup */
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < 1000; ++i) {
            void *f;
            CK(cudaGetDriverEntryPointByVersion("cuStreamWriteValue32", &f, 12000, cudaEnableDefault, &q));
        }
        auto t1 = std::chrono::steady_clock::now();
        printf("lookup: %.3f us each\n", std::chrono::duration<double, std::micro>(t1 - t0).count() / 1000);
    }
    const size_t flush_bytes = 2 * (size_t)prop.l2CacheSize;
    void *flush;
    CK(cudaMalloc(&flush, flush_bytes));
    const size_t nmax = (size_t)1 << 24;
    float *d_in, *d_out;
    unsigned char *ws;
    CK(cudaMalloc(&d_in, nmax * 4));
    CK(cudaMalloc(&d_out, 4));
    CK(cudaMalloc(&ws, 256 + 8 * 4096));
    CK(cudaMemset(ws, 0, 256 + 8 * 4096));
    std::vector<float> h(nmax);
    uint32_t s = 12345;
    for (auto &x : h) {
        s = s * 1664525u + 1013904223u;
        x = (float)((s >> 8) * (1.0 / 16777216.0)) - 0.3f;
    }
    CK(cudaMemcpy(d_in, h.data(), nmax * 4, cudaMemcpyHostToDevice));
    unsigned *cnt = (unsigned *)ws;
    float *slots = (float *)(ws + 256);
    unsigned long long *slots64 = (unsigned long long *)(ws + 256);
    void *cub_tmp = nullptr;
    size_t cub_bytes = 0;
    CK(cub::DeviceReduce::Sum(cub_tmp, cub_bytes, d_in, d_out, (int)nmax));
    CK(cudaMalloc(&cub_tmp, cub_bytes));
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_ticket_acq_rel<false>, B, 0));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    unsigned tag = 0x1234;
    for (int lg : {20, 22, 24}) {
        const size_t n = (size_t)1 << lg, nvec = n / 4;
        const float4 *in4 = (const float4 *)d_in;
        double ref = 0;
        for (size_t i = 0; i < n; ++i) ref += h[i];
        size_t g = (nvec + B * U - 1) / (B * U);
        g = std::min(g, (size_t)sms * per_sm);
        const unsigned G = (unsigned)g;
        struct Way {
            const char *name;
            std::function<void()> run;
        };
        std::vector<Way> ways = {
            {"cub::DeviceReduce::Sum", [&] { CK(cub::DeviceReduce::Sum(cub_tmp, cub_bytes, d_in, d_out, (int)n, st)); }},
            {"stream (reads only)", [&] { k_stream<<<G, B, 0, st>>>(in4, nvec, d_out); }},
            {"atomic", [&] {
                 CK(cudaMemsetAsync(d_out, 0, 4, st));
                 k_atomic<<<G, B, 0, st>>>(in4, nvec, d_out);
             }},
            {"ticket-acq-rel", [&] {
                 CK(cudaMemsetAsync(cnt, 0, 4, st));
                 k_ticket_acq_rel<false><<<G, B, 0, st>>>(in4, nvec, d_out, slots, cnt);
             }},
            {"ticket, no zeroing", [&] { k_ticket_acq_rel<false><<<G, B, 0, st>>>(in4, nvec, d_out, slots, cnt); }},
            {"writevalue + ticket", [&] {
                 if (wv((CUstream)st, (CUdeviceptr)cnt, 0, 0) != CUDA_SUCCESS) { printf("wv failed\n"); exit(1); }
                 k_ticket_acq_rel<false><<<G, B, 0, st>>>(in4, nvec, d_out, slots, cnt);
             }},
            {"lookup+writevalue+ticket", [&] {
                 WriteValue32 f = nullptr;
                 cudaDriverEntryPointQueryResult qq;
                 CK(cudaGetDriverEntryPointByVersion("cuStreamWriteValue32", (void **)&f, 12000, cudaEnableDefault, &qq));
                 if (f((CUstream)st, (CUdeviceptr)cnt, 0, 0) != CUDA_SUCCESS) { printf("wv failed\n"); exit(1); }
                 k_ticket_acq_rel<false><<<G, B, 0, st>>>(in4, nvec, d_out, slots, cnt);
             }},
            {"tag, last block waits", [&] {
                 ++tag;
                 k_tag<<<G, B, 0, st>>>(in4, nvec, d_out, slots64, tag);
             }},
            {"empty kernel", [&] { k_empty<<<1, 32, 0, st>>>(d_out); }},
            {"memset + empty kernel", [&] {
                 CK(cudaMemsetAsync(cnt, 0, 4, st));
                 k_empty<<<1, 32, 0, st>>>(d_out);
             }},
            {"writevalue + empty kernel", [&] {
                 if (wv((CUstream)st, (CUdeviceptr)cnt, 0, 0) != CUDA_SUCCESS) { printf("wv failed\n"); exit(1); }
                 k_empty<<<1, 32, 0, st>>>(d_out);
             }},
        };
        printf("n = 2^%d: grid %u blocks, double sum %.9g\n", lg, G, ref);
        for (int rep = 0; rep < 2; ++rep)
        for (auto &w : ways) {
            for (int i = 0; i < 10; ++i) w.run();
            CK(cudaStreamSynchronize(st));
            float r1, r2;
            CK(cudaMemcpy(&r1, d_out, 4, cudaMemcpyDeviceToHost));
            std::vector<float> t;
            for (int i = 0; i < 300; ++i) {
                CK(cudaMemsetAsync(flush, 0x5a, flush_bytes, st));
                CK(cudaEventRecord(e0, st));
                w.run();
                CK(cudaEventRecord(e1, st));
                CK(cudaEventSynchronize(e1));
                float ms;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                t.push_back(ms);
            }
            CK(cudaMemcpy(&r2, d_out, 4, cudaMemcpyDeviceToHost));
            std::sort(t.begin(), t.end());
            const bool is_sum = strstr(w.name, "empty") == nullptr && strstr(w.name, "stream") == nullptr;
            printf("  %-26s median %7.2f us (10%%..90%%: %7.2f..%7.2f)", w.name, 1000 * t[150], 1000 * t[30],
                   1000 * t[270]);
            if (is_sum)
                printf("  sum %.9g, error %.3g, %s", r2, fabs(r2 - ref),
                       memcmp(&r1, &r2, 4) == 0 ? "same bits in two runs" : "other bits in two runs");
            printf("\n");
        }
    }
    return 0;
}
