/* long_rows.cu: what holds a block per row below the read-only stream when
 * there are few long rows (256 rows of 2^20 floats), timed side by side.
 *
 * Variant 15 (reduce/kernels/15_rows_segments.cu) gives each long row a block
 * of 256 threads, four 16-byte loads in flight per thread. With 256 rows that
 * is 256 blocks, fewer than two per SM. This program times, on the same
 * data (2^28 floats, f32 sums, one result per row):
 *   stream          a grid of resident blocks reads all of it (no rows)
 *   block/row       variant 15's long-row form: block r reads row r
 *   block/row pad   the same with the rows 64 floats apart (ld = cols + 64):
 *                   if the rows' equal offsets in 4 MiB strides crowd some
 *                   DRAM channels, padding spreads them
 *   block/row rot   block r starts its row at a rotated place (r * 4 KiB
 *                   apart, wrapping round): the same spreading, no padding
 *   1024/row        a block of 1024 threads per row (4x the loads in flight)
 *   split S         each row cut into S slices, a block per slice (S x 256
 *                   blocks), the slices' sums stored, a second kernel (a warp
 *                   per row) adds them in slice order
 * and, at 65536 rows of 4096, the block per row, the split form's rule (no
 * split: enough rows), and CUB's DeviceSegmentedReduce::Sum at both shapes.
 * Timing as gk_bench's: the L2 flushed (a 2 x L2 memset) before each call,
 * CUDA events around the call alone, the median of 100 calls after 10.
 * Each line also gives the largest error of a row against a double sum.
 *
 * Not part of the library or its build. On a GPU of compute capability 9.0:
 *   nvcc -std=c++17 -arch=sm_90 -O3 -o long_rows long_rows.cu && ./long_rows
 */
#include <cub/cub.cuh>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>

#define CK(x)                                                                                        \
    do {                                                                                             \
        cudaError_t e_ = (x);                                                                        \
        if (e_ != cudaSuccess) {                                                                     \
            printf("error: %s at line %d: %s\n", #x, __LINE__, cudaGetErrorString(e_));              \
            exit(1);                                                                                 \
        }                                                                                            \
    } while (0)

constexpr unsigned U = 4; /* 16-byte loads in flight per thread */

template <unsigned B> __device__ float block_sum(float v)
{
    __shared__ float part[B / 32];
#pragma unroll
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
    if (threadIdx.x % 32 == 0) part[threadIdx.x / 32] = v;
    __syncthreads();
    v = threadIdx.x < B / 32 ? part[threadIdx.x] : 0.f;
    if (threadIdx.x < 32) {
#pragma unroll
        for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    __syncthreads();
    return v;
}

/* Sum of vectors [a, b) of p, B threads, U loads in flight each. */
template <unsigned B> __device__ float sum_vecs(const float4 *p, size_t a, size_t b)
{
    float acc = 0.f;
    size_t v = a + threadIdx.x;
    for (; v + (U - 1) * B < b; v += U * B) {
        float4 x[U];
#pragma unroll
        for (unsigned u = 0; u < U; ++u) x[u] = __ldg(p + v + u * B);
#pragma unroll
        for (unsigned u = 0; u < U; ++u) acc += (x[u].x + x[u].y) + (x[u].z + x[u].w);
    }
    for (; v < b; v += B) {
        float4 x = __ldg(p + v);
        acc += (x.x + x.y) + (x.z + x.w);
    }
    return acc;
}

template <unsigned B> __global__ void __launch_bounds__(B) k_stream(const float4 *p, size_t nvec, float *out)
{
    float acc = 0.f;
    for (size_t v = (size_t)blockIdx.x * B * U + threadIdx.x; v < nvec; v += (size_t)gridDim.x * B * U) {
        float4 x[U];
#pragma unroll
        for (unsigned u = 0; u < U; ++u)
            if (v + u * B < nvec) x[u] = __ldg(p + v + u * B);
#pragma unroll
        for (unsigned u = 0; u < U; ++u)
            if (v + u * B < nvec) acc += (x[u].x + x[u].y) + (x[u].z + x[u].w);
    }
    if (acc == 123.456f) *out = acc; /* keeps the loads */
}

/* Block r: row r (rows of cvec vectors, ldvec apart), its reading started at
 * vector rot(r) and wrapped round. */
template <unsigned B, bool Rot>
__global__ void __launch_bounds__(B) k_row(const float4 *p, size_t rows, size_t cvec, size_t ldvec, float *out)
{
    for (size_t r = blockIdx.x; r < rows; r += gridDim.x) {
        const float4 *row = p + r * ldvec;
        float acc;
        if (Rot) {
            size_t start = (r * 256) % cvec; /* 4 KiB steps */
            acc = sum_vecs<B>(row, start, cvec) + sum_vecs<B>(row, 0, start);
        } else {
            acc = sum_vecs<B>(row, 0, cvec);
        }
        acc = block_sum<B>(acc);
        if (threadIdx.x == 0) out[r] = acc;
    }
}

/* Block (r, s): slice s of row r into part[r * S + s]. */
template <unsigned B>
__global__ void __launch_bounds__(B) k_slice(const float4 *p, size_t cvec, unsigned S, float *part)
{
    const size_t r = blockIdx.x / S, s = blockIdx.x % S;
    const size_t a = cvec * s / S, b = cvec * (s + 1) / S;
    float acc = block_sum<B>(sum_vecs<B>(p + r * cvec, a, b));
    if (threadIdx.x == 0) part[blockIdx.x] = acc;
}

/* A warp per row adds its S slices in order (lane l slices l, l+32, ..., then
 * the shuffle tree). */
__global__ void k_fold(const float *part, size_t rows, unsigned S, float *out)
{
    const size_t r = (size_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const unsigned lane = threadIdx.x % 32;
    if (r >= rows) return;
    float v = 0.f;
    for (unsigned s = lane; s < S; s += 32) v += part[r * S + s];
#pragma unroll
    for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
    if (lane == 0) out[r] = v;
}

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
    const size_t flush_bytes = 2 * (size_t)prop.l2CacheSize;
    void *flush;
    CK(cudaMalloc(&flush, flush_bytes));
    const size_t n = (size_t)1 << 28, pad = 64;
    const size_t nalloc = n + 256 * pad;
    float *d_in, *d_out, *d_part;
    CK(cudaMalloc(&d_in, nalloc * 4));
    CK(cudaMalloc(&d_out, 65536 * 4));
    CK(cudaMalloc(&d_part, 65536 * 4));
    std::vector<float> h(nalloc);
    uint32_t s = 12345;
    for (auto &x : h) {
        s = s * 1664525u + 1013904223u;
        x = (float)((s >> 8) * (1.0 / 16777216.0)) - 0.3f;
    }
    CK(cudaMemcpy(d_in, h.data(), nalloc * 4, cudaMemcpyHostToDevice));
    cudaStream_t st;
    CK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_stream<256>, 256, 0));
    const unsigned G = (unsigned)(sms * per_sm);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<int> offs(65537);
    int *d_offs;
    CK(cudaMalloc(&d_offs, offs.size() * 4));
    void *cub_tmp = nullptr;
    size_t cub_bytes = 0;
    CK(cub::DeviceSegmentedReduce::Sum(cub_tmp, cub_bytes, d_in, d_out, 65536, d_offs, d_offs + 1, st));
    CK(cudaMalloc(&cub_tmp, cub_bytes + (1 << 20)));
    cub_bytes += 1 << 20;
    for (size_t rows : {(size_t)256, (size_t)65536}) {
        const size_t cols = n / rows, cvec = cols / 4;
        for (size_t r = 0; r <= rows; ++r) offs[r] = (int)(r * cols);
        CK(cudaMemcpy(d_offs, offs.data(), (rows + 1) * 4, cudaMemcpyHostToDevice));
        std::vector<double> ref(rows), refp(rows);
        for (size_t r = 0; r < rows; ++r) {
            double a = 0, b = 0;
            for (size_t c = 0; c < cols; ++c) {
                a += h[r * cols + c];
                if (r * (cols + pad) + c < nalloc) b += h[r * (cols + pad) + c];
            }
            ref[r] = a;
            refp[r] = b;
        }
        const float4 *in4 = (const float4 *)d_in;
        struct Way {
            const char *name;
            bool padded;
            std::function<void()> run;
        };
        std::vector<Way> ways = {
            {"cub segmented", false, [&] {
                 size_t b = cub_bytes;
                 CK(cub::DeviceSegmentedReduce::Sum(cub_tmp, b, d_in, d_out, (int)rows, d_offs, d_offs + 1, st));
             }},
            {"stream", false, [&] { k_stream<256><<<G, 256, 0, st>>>(in4, n / 4, d_part); }},
            {"block/row", false, [&] { k_row<256, false><<<(unsigned)rows, 256, 0, st>>>(in4, rows, cvec, cvec, d_out); }},
            {"block/row pad", true,
             [&] { k_row<256, false><<<(unsigned)rows, 256, 0, st>>>(in4, rows, cvec, cvec + pad / 4, d_out); }},
            {"block/row rot", false, [&] { k_row<256, true><<<(unsigned)rows, 256, 0, st>>>(in4, rows, cvec, cvec, d_out); }},
            {"1024/row", false, [&] { k_row<1024, false><<<(unsigned)rows, 1024, 0, st>>>(in4, rows, cvec, cvec, d_out); }},
        };
        for (unsigned S : {2u, 4u, 8u, 16u}) {
            static char names[4][32];
            char *nm = names[__builtin_ctz(S) - 1];
            snprintf(nm, 32, "split %u", S);
            if (rows * S > 65536) continue;
            ways.push_back({nm, false, [&, S] {
                                k_slice<256><<<(unsigned)(rows * S), 256, 0, st>>>(in4, cvec, S, d_part);
                                k_fold<<<(unsigned)((rows + 7) / 8), 256, 0, st>>>(d_part, rows, S, d_out);
                            }});
        }
        printf("%zu rows of %zu floats (stream grid %u blocks of 256)\n", rows, cols, G);
        std::vector<float> o(rows);
        for (auto &w : ways) {
            if (w.padded && rows * (cols + pad) > nalloc) continue;
            for (int i = 0; i < 10; ++i) w.run();
            CK(cudaStreamSynchronize(st));
            std::vector<float> t;
            for (int i = 0; i < 100; ++i) {
                CK(cudaMemsetAsync(flush, 0x5a, flush_bytes, st));
                CK(cudaEventRecord(e0, st));
                w.run();
                CK(cudaEventRecord(e1, st));
                CK(cudaEventSynchronize(e1));
                float ms;
                CK(cudaEventElapsedTime(&ms, e0, e1));
                t.push_back(ms);
            }
            std::sort(t.begin(), t.end());
            printf("  %-16s median %8.4f ms (10%%..90%%: %8.4f..%8.4f)", w.name, t[50], t[10], t[90]);
            if (strcmp(w.name, "stream") != 0) {
                CK(cudaMemcpy(o.data(), d_out, rows * 4, cudaMemcpyDeviceToHost));
                double e = 0;
                for (size_t r = 0; r < rows; ++r) e = std::max(e, fabs(o[r] - (w.padded ? refp : ref)[r]));
                printf("  largest error %.3g", e);
            }
            printf("\n");
        }
    }
    return 0;
}
