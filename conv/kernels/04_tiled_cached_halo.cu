/* Variant 4: tiled, the halo cells left to the caches.
 *
 * The idea (PMPP, 4th ed., chapter 7, tiled convolution using caches for
 * halo cells): the halo cells of a tile are the inner cells of its
 * neighbours, which the neighbouring blocks are loading at about the same
 * time, so they are likely to be in L2 (and, for a neighbour on the same
 * SM, in L1) anyway. So a block copies into shared memory only its own
 * kTile = 256 inputs, one per thread, in[start .. start + 255], and reads
 * the taps that fall outside that range straight from global memory
 * through the caches. The mask stays in the constant bank as in variants 2
 * and 3 (passed by value, same host copy and wait per call).
 *
 * What changed against variant 3, counted (width w, r = w / 2):
 *   - The fill: exactly one coalesced load and one shared store per thread,
 *     no loop, and a tile size that no longer depends on w: 1 KB of static
 *     shared memory per block (variant 3: (256 + w - 1) x 4 bytes).
 *   - The taps: thread t reads tile[t - r + j] when 0 <= t - r + j < 256
 *     and global memory otherwise. Per block, 256 x w taps, of which
 *     r x (r + 1) = (w^2 - 1) / 4 fall on the halo for odd w (r^2 = w^2 / 4
 *     for even w; both while r <= 256): 12 of 1792 taps (0.7%) at w = 7,
 *     4032 of 32512 (12%) at w = 127. Per output that is 1 + (w^2 - 1) /
 *     1024 global loads (odd w): 1.05 at w = 7, 16.75 at w = 127. They are
 *     cache hits once a neighbour or an earlier tap fetched the line, so
 *     DRAM traffic stays about 8 bytes per output.
 *   - Divergence: the test "in the tile or not" differs between lanes of
 *     the warps near the tile edges (for r <= 32 the first warp while
 *     j < r and the last while j > r; more warps for wider masks), which
 *     then run both paths; the inner warps always take the shared path.
 *     The global path is an L1 hit with a longer latency than a shared
 *     read.
 *   - Whether this is faster than variant 3 is a question of the GPU:
 *     PMPP's point is that on GPUs with large L1/L2 caches the simpler fill
 *     can win for small masks; for large masks the halo share and the
 *     divergence grow. The bench table answers it for the lent GPU.
 *   - Arithmetic intensity unchanged: w / 4 FLOP/B at best, the knee of an
 *     H200's roofline at w = 56.
 *
 * Bank conflicts: tile[threadIdx.x] stores and tile[t - r + j] reads are 32
 * consecutive words for the lanes that take the shared path: conflict-free.
 *
 * Resources: 1024 bytes of static shared memory per block; ptxas -v (CUDA
 * 13.0, sm_90) reports 16 registers per thread for each capacity: 8 blocks
 * of 256 threads, 2048 threads per SM (the thread limit, not registers or
 * shared memory).
 *
 * Limits: width <= 4096 (GK_CONV_PARAM_MASK_MAX; run() returns
 * cudaErrorInvalidValue above it). The tile is 256 outputs. Any n: 64-bit
 * positions, launches of at most 2^31 outputs (a multiple of the tile).
 * Pointers need only their 4-byte alignment. No workspace.
 *
 * Sources: Kirk, Hwu & El Hajj, "Programming Massively Parallel
 * Processors", 4th ed., chapter 7 (tiled convolution using caches for halo
 * cells); CUDA C++ Programming Guide, "Shared Memory", "Constant Memory".
 *
 * Build alone: nvcc -arch=sm_90 -c 04_tiled_cached_halo.cu
 */
#include <cuda_runtime.h>
#include <stddef.h>

namespace {

/* ---- Helpers. Each conv kernel file carries this block so that it compiles
 * on its own: copy one file into your project and it builds. ------------ */
constexpr size_t ceil_div(size_t x, size_t y) { return (x + y - 1) / y; }
constexpr size_t kChunk = (size_t)1 << 31; /* outputs per launch: grid sizes stay far below 2^31 - 1 */

/* ---- The mask as a kernel parameter (variants 2 to 5). ---------------- */
constexpr unsigned kMaskMax = 4096; /* GK_CONV_PARAM_MASK_MAX: 16 KB of parameters */
template <unsigned C> struct Mask {
    float v[C];
};

/* Copies width taps of the device mask into host memory (zero after them)
 * and waits for the copy: queued on the caller's stream, it sees whatever
 * the caller queued before this call. */
cudaError_t fetch_mask(const float *mask, size_t width, float *host, unsigned capacity, cudaStream_t stream)
{
    cudaError_t e = cudaMemcpyAsync(host, mask, width * sizeof(float), cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
    for (size_t j = width; j < capacity; ++j) host[j] = 0.0f;
    return e;
}

/* ---- The variant. ----------------------------------------------------- */
constexpr unsigned kTile = 256; /* threads per block = outputs per block = inputs in shared memory */

/* Block b of this launch computes outputs start .. start + 255, start =
 * first + 256 b, and holds in[start .. start + 255] in shared memory. */
template <unsigned C>
__global__ void __launch_bounds__(kTile)
    conv_tiled_cached_halo(const float *__restrict__ in, size_t n, const __grid_constant__ Mask<C> mask,
                           unsigned width, float *__restrict__ out, size_t first)
{
    __shared__ float tile[kTile]; /* tile[k] = in[start + k], 0 past the end */
    const size_t start = first + (size_t)blockIdx.x * kTile;
    const size_t i = start + threadIdx.x;
    tile[threadIdx.x] = i < n ? __ldg(in + i) : 0.0f; /* one coalesced load per thread */
    __syncthreads(); /* the tile is complete before any thread reads its neighbours' inputs */
    if (i >= n) return; /* after the barrier: every thread took part in the fill */

    /* k: tile-relative position of tap j, k = t - r + j, from -r to 255 + r. */
    const long long k0 = (long long)threadIdx.x - (long long)(width / 2);
    float acc = 0.0f;
    for (unsigned j = 0; j < width; ++j) {
        const long long k = k0 + j;
        float x;
        if (k >= 0 && k < (long long)kTile) {
            x = tile[k]; /* an inner cell: shared memory */
        } else {
            /* A halo (or ghost) cell: global memory, through L1/L2. start + k
             * in unsigned arithmetic wraps past 0 to above n for k < -start,
             * so p < n rejects the ghost cells of both ends. */
            const size_t p = start + (size_t)k;
            x = p < n ? __ldg(in + p) : 0.0f;
        }
        acc += x * mask.v[j];
    }
    out[i] = acc;
}

template <unsigned C>
cudaError_t run(const float *in, size_t n, const float *mask, size_t width, float *out, cudaStream_t stream)
{
    Mask<C> m; /* the host copy that travels with each launch */
    cudaError_t e = fetch_mask(mask, width, m.v, C, stream);
    if (e) return e;
    for (size_t off = 0; off < n; off += kChunk) {
        const size_t len = n - off < kChunk ? n - off : kChunk;
        conv_tiled_cached_halo<C><<<(unsigned)ceil_div(len, kTile), kTile, 0, stream>>>(in, n, m, (unsigned)width,
                                                                                         out, off);
        e = cudaGetLastError();
        if (e) return e;
    }
    return cudaSuccess;
}

} // namespace

extern "C" size_t gk_conv_04_tiled_cached_halo_workspace(size_t n, size_t width)
{
    (void)n;
    (void)width;
    return 0;
}

extern "C" cudaError_t gk_conv_04_tiled_cached_halo_run(const float *in, size_t n, const float *mask, size_t width,
                                                        float *out, void *workspace, cudaStream_t stream)
{
    (void)workspace;
    if (width == 0 || width > kMaskMax) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    if (width <= 32) return run<32>(in, n, mask, width, out, stream);
    if (width <= 512) return run<512>(in, n, mask, width, out, stream);
    return run<kMaskMax>(in, n, mask, width, out, stream);
}
