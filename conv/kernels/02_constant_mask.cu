/* Variant 2: the mask in the constant bank, passed by value.
 *
 * The idea (PMPP, 4th ed., chapter 7, constant memory and caching): every
 * thread of the grid reads the same mask, in the same order, and nobody
 * writes it during the kernel. That is the access pattern the constant
 * cache is built for: when all lanes of a warp read the same constant-bank
 * address, one fetch is broadcast to the 32 lanes (CUDA C++ Programming
 * Guide, "Constant Memory"), and it does not compete with the input's
 * loads for L1; with an index that is the same in every lane the value can
 * even go to a uniform register (ULDC) that the FFMAs of the whole warp
 * read directly.
 *
 * How the mask gets there without hidden global state. PMPP declares a
 * __constant__ array and fills it with cudaMemcpyToSymbol. Such a symbol is
 * one per process: two calls on two streams with two masks would overwrite
 * each other's mask while the first kernel still reads it. Here the mask
 * is a kernel parameter instead, a struct Mask<C> { float v[C]; } passed by
 * value. The driver copies a launch's parameters into the constant bank of
 * that launch (param space, c[0x0][...] in the SASS), so each launch has
 * its own copy and concurrent calls cannot disturb each other. Parameters
 * may take 32764 bytes since CUDA 12.1 on sm_70 and newer (CUDA C++
 * Programming Guide, "Function Parameters"), room for C = 4096 floats. The
 * parameter is declared __grid_constant__ (CUDA 11.7+, sm_70+): a read at
 * an index known only at run time then stays a load from the param space
 * (ULDC c[0x0][UR + ...], uniform because j is the same in every lane)
 * instead of making the compiler copy the whole array into each thread's
 * local memory, which it otherwise did here for the small capacities.
 *
 * The cost, paid on the host: the mask arrives as a device pointer, so
 * run() first copies it to a host array with cudaMemcpyAsync on the
 * caller's stream (so it sees the caller's latest mask) and waits with
 * cudaStreamSynchronize before it can launch: one device-to-host copy and
 * one wait per call, which also serialises the host with the stream, and a
 * capture of this call into a CUDA graph fails (a synchronisation is not
 * allowed while capturing). Three capacities are compiled, C = 32, 512 and
 * 4096 floats, and the smallest that holds width is launched, so a small
 * mask copies a 128-byte or 2 KB parameter block, not 16 KB. Taps from
 * width to C - 1 are zero in the copy, never read.
 *
 * Counted, per output (width w): w global loads of the input as in
 * variant 1, and the w mask reads leave the global path: each is a
 * constant-bank load (LDC, or ULDC into a uniform register that the FFMA
 * takes as an operand, as the compiler chooses), served by the constant
 * cache with one fetch for the whole warp. Requests to L1 per FMA: 1
 * instead of 2. The instruction count per tap hardly changes (about 10:
 * the 64-bit bounds test and addresses dominate), so the gain is in the
 * load path, not in issue slots. DRAM bytes and arithmetic intensity are
 * those of variant 1: w / 4 FLOP/B at best, the knee of an H200's roofline
 * at w = 56.
 *
 * Bound by: the L1/load path and instruction issue (a global load, a bounds
 * test, the addresses and the loop per FMA); not DRAM at any width the
 * bench measured. Variant 3 removes the w global loads per output.
 * Measured (H200, CUDA 13.0, 2026-11-23, conv/bench-h200.json):
 * no gain over variant 1, 0.84x to 1.04x its speed over the cases (the
 * mask's L1 hits in variant 1 cost little; the host copy and wait fall
 * inside the timed interval, about 0.015 ms per call at n = 2^24, widths 3
 * and 7); at most 46.2% of a device copy's speed (w = 3, n = 2^28).
 *
 * Resources: no shared memory; ptxas -v (CUDA 13.0, sm_90) reports 32
 * registers per thread for each capacity: 8 blocks of 256 threads per SM,
 * full occupancy.
 *
 * Limits: width <= 4096 (GK_CONV_PARAM_MASK_MAX; run() returns
 * cudaErrorInvalidValue above it, a second line of defence after
 * gk_conv1d's check). Any n: 64-bit positions, launches of at most 2^31
 * outputs. Pointers need only their 4-byte alignment. No workspace.
 *
 * Sources: Kirk, Hwu & El Hajj, "Programming Massively Parallel
 * Processors", 4th ed., chapter 7 (constant memory and caching); CUDA C++
 * Programming Guide, "Constant Memory", "Function Parameters" (the 32764
 * byte limit, __grid_constant__).
 *
 * Build alone: nvcc -arch=sm_90 -c 02_constant_mask.cu
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
constexpr unsigned kBlock = 256; /* threads per block, one output each */

template <unsigned C>
__global__ void __launch_bounds__(kBlock)
    conv_constant(const float *__restrict__ in, size_t n, const __grid_constant__ Mask<C> mask, unsigned width,
                  float *__restrict__ out, size_t first)
{
    const size_t i = first + (size_t)blockIdx.x * kBlock + threadIdx.x;
    if (i >= n) return;
    const size_t r = width / 2;
    float acc = 0.0f;
    for (unsigned j = 0; j < width; ++j) {
        const size_t p = i + j - r; /* wraps past 0 to above n: one test for both ghost sides */
        if (p < n) acc += __ldg(in + p) * mask.v[j]; /* mask.v[j]: same j in every lane, a constant-bank broadcast */
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
        conv_constant<C><<<(unsigned)ceil_div(len, kBlock), kBlock, 0, stream>>>(in, n, m, (unsigned)width, out,
                                                                                  off);
        e = cudaGetLastError();
        if (e) return e;
    }
    return cudaSuccess;
}

} // namespace

extern "C" size_t gk_conv_02_constant_mask_workspace(size_t n, size_t width)
{
    (void)n;
    (void)width;
    return 0;
}

extern "C" cudaError_t gk_conv_02_constant_mask_run(const float *in, size_t n, const float *mask, size_t width,
                                                    float *out, void *workspace, cudaStream_t stream)
{
    (void)workspace;
    if (width == 0 || width > kMaskMax) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    if (width <= 32) return run<32>(in, n, mask, width, out, stream);
    if (width <= 512) return run<512>(in, n, mask, width, out, stream);
    return run<kMaskMax>(in, n, mask, width, out, stream);
}
