/* Variant 2: the mask in the constant bank, passed by value.
 *
 * The idea (PMPP, 4th ed., chapter 7, constant memory and caching): every
 * thread of the grid reads the same mask, in the same order, and nobody
 * writes it during the kernel. That is the access pattern the constant
 * cache is built for: when all lanes of a warp read the same constant-bank
 * address, one fetch is broadcast to the 32 lanes (CUDA C++ Programming
 * Guide, "Constant Memory"), and it does not compete with the input's
 * loads for L1. (Where the compiler sees that the index is the same in
 * every lane it can go further and load the tap into a uniform register,
 * ULDC, that the FFMA reads as an operand, with no load per lane: variant
 * 3's inner loop gets that. This kernel does not: see the count below.)
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
 * (LDC R, c[0x0][R + 0x210] in the SASS) instead of making the compiler
 * copy the whole array into each thread's local memory, which it otherwise
 * does here for the 32-float capacity (ptxas: a 128-byte stack frame).
 *
 * The cost, paid on the host: the mask arrives as a device pointer, so
 * the call first copies it to a host array with cudaMemcpyAsync on the
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
 * variant 1, and w reads of the mask that leave the global path. The SASS
 * (cuobjdump -sass, CUDA 13.0, sm_90, the same for the three capacities)
 * unrolls the tap loop by 16 and reads each tap with its own LDC, register
 * indexed and predicated: @!P LDC R, c[0x0][R + 0x210], issued only when the
 * tap's input is inside [0, n), its result an ordinary register operand of
 * the FFMA. The index sits in an ordinary per-lane register, not a uniform
 * one (the loop counter here also feeds the per-lane 64-bit position
 * i + j - r): no ULDC. All lanes read the same address, so the constant
 * cache serves the warp with one fetch, and the L1 sees one request per FMA
 * instead of variant 1's two. But the instruction stream does not shrink:
 * 156 instructions per 16 taps, 9.75 per tap, exactly variant 1's 39 per 4.
 * Per tap: the input's LDG, the tap's LDC, the FFMA, 2 ISETP for the 64-bit
 * bounds test, an IADD3 and an IMAD.X for the 64-bit position, and 2.75 more
 * for the 32-bit offsets j + u, the addresses and the loop. The LDC has
 * taken the place of variant 1's LDG of the tap one for one: 2 loads and
 * about 10 issue slots per FMA, as before. DRAM bytes and arithmetic
 * intensity are those of variant 1: w / 4 FLOP/B at best, the knee of an
 * H200's roofline at w = 56.
 *
 * Bound by: instruction issue, as variant 1: 16 FFMAs in 156 instructions
 * allow at most 16 / 156 of the fp32 peak, 6.9 TFLOP/s on an H200; not DRAM
 * at any width the bench measured. Variant 3 removes the w global loads and
 * the bounds tests per output.
 * Measured (H200, CUDA 13.0, 2026-11-23, conv/bench-h200.json): no gain over
 * variant 1, 0.84x to 1.04x its speed over the cases, as the count says.
 * Where the issue slots bind, at large widths, the two are level: 0.97x at
 * w = 127, n = 2^28 (5.4 against 5.6 TFLOP/s, both under the 6.9 of the
 * count), 0.96x at w = 1023, n = 2^24. The tap that variant 1 loads through
 * L1 is one address for the whole warp, one sector and an L1 hit, so moving
 * it to the constant cache saves an L1 request but no issue slot. What
 * variant 2 adds is on the host: the mask's copy and the wait, inside the
 * timed interval, about 0.015 ms per call, which shows at n = 2^24 and
 * widths 3 and 7 (0.84x and 0.87x; 0.0149 and 0.0152 ms more) and disappears
 * in the 1.1 to 1.5 ms of n = 2^28 (1.04x and 1.02x). At most 46.2% of a
 * device copy's speed (w = 3, n = 2^28).
 *
 * Resources: no shared memory; ptxas -v (CUDA 13.0, sm_90) reports 32
 * registers per thread for each capacity: 8 blocks of 256 threads per SM,
 * full occupancy.
 *
 * Limits: width <= 4096 (GK_CONV_PARAM_MASK_MAX; the launcher returns
 * cudaErrorInvalidValue above it, a second line of defence after
 * gk_conv1d's check). Any n: 64-bit positions, launches of at most 2^31
 * outputs. Pointers need only their 4-byte alignment. No workspace.
 *
 * Sources: Kirk, Hwu & El Hajj, "Programming Massively Parallel
 * Processors", 4th ed., chapter 7 (constant memory and caching); CUDA C++
 * Programming Guide, "Constant Memory", "Function Parameters" (the 32764
 * byte limit, __grid_constant__).
 *
 * Build alone: nvcc -arch=sm_90 -c 02_constant_mask.cu, next to common.cuh
 * (this folder's shared plumbing: Mask<C> and its host copy, the choice of
 * capacity, the launches); the two files and the CUDA toolkit are all it
 * needs.
 */
#include <cuda_runtime.h>
#include <stddef.h>

#include "common.cuh" /* Mask<C>, with_param_mask (the host copy), launch_chunks */

namespace {

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

} // namespace

extern "C" size_t gk_conv_02_constant_mask_workspace(size_t, size_t) { return 0; /* none */ }

extern "C" cudaError_t gk_conv_02_constant_mask_run(const float *in, size_t n, const float *mask, size_t width,
                                                    float *out, void * /* workspace: none */, cudaStream_t stream)
{
    /* m: the host copy of the mask in the smallest Mask<C> that holds it,
     * C = 32, 512 or 4096; it travels with each launch. */
    return with_param_mask(mask, n, width, stream, [&](const auto &m, auto C) {
        return launch_chunks(conv_constant<C>, n, kBlock, kBlock, 0, stream, in, n, m, (unsigned)width, out);
    });
}
