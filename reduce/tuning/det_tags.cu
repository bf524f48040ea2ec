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
 * Not part of the library or its build. It includes det_tails.cu (beside
 * it) for the loop and the ends the two share. On a GPU of compute
 * capability 9.0, in this folder:
 *   nvcc -std=c++17 -arch=sm_90 -O3 -o det_tags det_tags.cu && ./det_tags
 */
#include <cuda.h>

#include <chrono>

/* det_tails.cu's kernels, helpers and includes (CK, block_sum, thread_part,
 * k_stream, k_atomic, k_ticket_acq_rel, k_empty, B, U), without its main. */
#define main det_tails_main
#include "det_tails.cu"
#undef main

/* ---- The ends that need no counter at 0 ---------------------------------- */
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
