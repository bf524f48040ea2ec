/* Variant 1: basic. One thread per output, the mask read from global memory.
 *
 * The operation (every conv variant): out[i] = sum_{j=0}^{width-1}
 * in[i - r + j] * mask[j], r = width / 2, with in[k] = 0 for k < 0 and
 * k >= n (the "ghost" cells). This is the cross-correlation form, the mask
 * is not flipped; width may be odd or even (width 8: r = 4, taps i-4 .. i+3).
 *
 * The idea (PMPP, 4th ed., chapter 7, the basic 1D convolution kernel):
 * thread i of the grid computes out[i]. It walks the width taps, skips the
 * ones that fall on a ghost cell, and adds in[i - r + j] x mask[j] into an
 * fp32 register; one store at the end. Nothing is shared between threads:
 * every thread fetches everything it uses.
 *
 * Counted, per output (width = w):
 *   - Global loads: w of the input and w of the mask, one of each per FMA:
 *     2 loads, 8 bytes, per 2 FLOPs. Every lane of a warp reads the same
 *     mask[j] at the same time (j is the loop counter, equal across the
 *     warp), so that load is one 32-byte sector for the warp, served by L1
 *     after the first warp of the SM fetched it. The 32 lanes read
 *     in[i - r + j] for 32 consecutive i: one contiguous 128-byte run, 4
 *     sectors (5 when not 32-byte aligned), coalesced.
 *   - DRAM traffic is still close to the ideal 4 bytes read + 4 written per
 *     output: the w loads of in[k] by the w threads that need it hit L1/L2
 *     after the first. What costs is the instruction stream. nvcc unrolls
 *     the tap loop by 4, into 39 instructions per 4 taps (cuobjdump -sass,
 *     CUDA 13.0, sm_90): 8 LDG (an input and a tap per FMA), 4 FFMA, 8
 *     ISETP for the four 64-bit bounds tests, 16 IADD3 and IMAD.X for the
 *     64-bit positions and addresses, and 3 for the loop. That is 9.75
 *     instructions and two L1 requests per FMA: FFMAs take 4 of every 39
 *     issue slots, so the kernel can reach at most 4 / 39 of the fp32
 *     peak, 6.9 TFLOP/s on an H200.
 *   - Arithmetic intensity: 2w FLOPs per output against 8 DRAM bytes in the
 *     ideal case, 2w / 8 = w / 4 FLOP/B. An H200 (about 67 TFLOP/s fp32 and
 *     4.8 TB/s) has its roofline knee at about 67 / 4.8 = 14 FLOP/B, at
 *     w = 56: below that a kernel that read each byte once would be bound by
 *     DRAM, above it by the FMA units. This one reaches neither: it is
 *     bound by the issue of those 39 instructions, which the later
 *     variants thin out.
 *
 * What the next variants change: variant 2 moves the mask into the
 * constant bank (one broadcast per warp through the constant cache, no L1
 * request of its own, but not one instruction fewer); variant 3 stages the
 * input in shared memory so that each input is fetched from global memory
 * once per block instead of w times, and the bounds test leaves the loop.
 *
 * Resources: no shared memory; ptxas -v (CUDA 13.0, sm_90) reports 32
 * registers per thread (nvcc unrolls the tap loop by 4), so an SM's 65536
 * registers hold 8 blocks of 256 = 2048 threads: full occupancy.
 *
 * Limits: any width (the mask stays in global memory), any n. Positions
 * are 64-bit; each launch covers at most kChunk = 2^31 outputs (2^23 blocks
 * of 256, under gridDim.x's 2^31 - 1), launches queued in order on the
 * stream. in, mask and out need only their 4-byte float alignment. No
 * workspace, no synchronisation.
 *
 * Sources: Kirk, Hwu & El Hajj, "Programming Massively Parallel Processors",
 * 4th ed., chapter 7 (the basic 1D convolution kernel with ghost cells);
 * CUDA C++ Programming Guide, "Device Memory Accesses" (coalescing).
 *
 * Build alone: nvcc -arch=sm_90 -c 01_basic.cu, next to common.cuh (this
 * folder's shared plumbing: the launches of at most 2^31 outputs); the two
 * files and the CUDA toolkit are all it needs.
 */
#include <cuda_runtime.h>
#include <stddef.h>

#include "common.cuh" /* launch_chunks */

namespace {

constexpr unsigned kBlock = 256; /* threads per block, one output each */

/* One thread per output. This launch covers outputs first .. first +
 * gridDim.x * kBlock - 1 (those below n). */
__global__ void __launch_bounds__(kBlock)
    conv_basic(const float *__restrict__ in, size_t n, const float *__restrict__ mask, size_t width,
               float *__restrict__ out, size_t first)
{
    const size_t i = first + (size_t)blockIdx.x * kBlock + threadIdx.x;
    if (i >= n) return;
    const size_t r = width / 2;
    float acc = 0.0f;
    for (size_t j = 0; j < width; ++j) {
        /* Position of tap j. Unsigned arithmetic: when i + j < r the
         * subtraction wraps to a value near 2^64, above any n, so the one
         * test p < n rejects the ghost cells on both sides. */
        const size_t p = i + j - r;
        if (p < n) acc += __ldg(in + p) * __ldg(mask + j); /* contracted to one FFMA */
    }
    out[i] = acc;
}

} // namespace

extern "C" size_t gk_conv_01_basic_workspace(size_t, size_t) { return 0; /* none */ }

extern "C" cudaError_t gk_conv_01_basic_run(const float *in, size_t n, const float *mask, size_t width, float *out,
                                            void * /* workspace: none */, cudaStream_t stream)
{
    return launch_chunks(conv_basic, n, kBlock, kBlock, 0, stream, in, n, mask, width, out);
}
