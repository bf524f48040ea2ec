/* conv/kernels/common.cuh: the host-side plumbing that the conv kernel files
 * share, written once.
 *
 * Every kernel file of this folder includes this header (#include
 * "common.cuh", which nvcc finds next to the file) and nothing else of the
 * library: to use one variant in your own project, copy its file and this
 * header; the CUDA toolkit is all the two need (`nvcc -arch=sm_90 -c
 * 03_tiled_halo.cu` in a folder that holds both). No step of the ladder is
 * about what is here; it is what the files would otherwise each repeat:
 *   - ceil_div, and launch_chunks: the launches of variants 1-5, one block
 *     per tile, cut into at most kChunk = 2^31 outputs each (so that a
 *     grid's block count stays far below gridDim.x's 2^31 - 1), queued in
 *     order on the caller's stream, each launch error checked;
 *   - the mask as a kernel parameter, variants 2-5: Mask<C>, the by-value
 *     struct that the driver places in each launch's constant bank (variant
 *     2's header says why a parameter and not a __constant__ array),
 *     fetch_mask, the host copy it is built from, and with_param_mask, what
 *     the entry points of those variants do: check the width and build the
 *     smallest of three capacities (32, 512 or 4096 floats) that holds it;
 *   - the set-up of the resident grids of variants 6 and 7: allow_smem, the
 *     opt-in above 48 KB of dynamic shared memory, always to the device's
 *     maximum (so that calls from several host threads cannot race), and
 *     resident_grid, the blocks the GPU holds at once.
 *   - launch_blocks: the launches of the 2D and depthwise kernels, `count`
 *     blocks of work (tiles, rows) cut into launches of at most 2^30
 *     blocks, each told the index of its first block;
 *   - epilogue: the bias and activation of the depthwise kernels, device
 *     code, because the three depthwise variants must apply exactly the
 *     same fp32 operations (conv/conv_ref.h derives the bound of this code,
 *     not of a rewrite of it per file);
 *   - copy_async: one cp.async of 4 or 16 bytes from global to shared
 *     memory, with the zero fill of a copy that reads nothing, the device
 *     code that the streaming kernels (2D variant 12, depthwise variant 16)
 *     both use; their headers teach what they do with it.
 * Every other device helper a step teaches with stays in its own file.
 *
 * Everything is in an anonymous namespace, so that all the kernel files of
 * one library can include it without clashing at link time (each gets its
 * own copy), and a template that a file does not use costs it nothing.
 */
#ifndef GK_CONV_KERNELS_COMMON_CUH
#define GK_CONV_KERNELS_COMMON_CUH

#include <cuda_runtime.h>
#include <stddef.h>

#include <type_traits>

namespace {

constexpr size_t ceil_div(size_t x, size_t y) { return (x + y - 1) / y; }

/* ---- Launches of at most kChunk outputs (variants 1-5). --------------- */

constexpr size_t kChunk = (size_t)1 << 31; /* outputs per launch: grid sizes stay far below 2^31 - 1 */

/* Queues kernel over outputs [0, n) as launches of at most kChunk outputs,
 * in order on stream: the launch that starts at output `first` gets
 * ceil(len / per_block) blocks of `threads` threads and smem bytes of
 * dynamic shared memory, and the arguments args..., first. Each launch's
 * error is checked before the next is queued. per_block (the tile) divides
 * kChunk, so no tile straddles two launches. */
template <typename K, typename... A>
cudaError_t launch_chunks(K kernel, size_t n, unsigned per_block, unsigned threads, size_t smem, cudaStream_t stream,
                          const A &...args)
{
    for (size_t first = 0; first < n; first += kChunk) {
        const size_t len = n - first < kChunk ? n - first : kChunk;
        kernel<<<(unsigned)ceil_div(len, per_block), threads, smem, stream>>>(args..., first);
        const cudaError_t e = cudaGetLastError();
        if (e) return e;
    }
    return cudaSuccess;
}

/* ---- The mask as a kernel parameter (variants 2-5). ------------------- */

constexpr unsigned kMaskMax = 4096; /* GK_CONV_PARAM_MASK_MAX: 16 KB of parameters */
template <unsigned C> struct Mask {
    float v[C];
};

/* Copies width taps of the device mask into host memory (zero after them)
 * and waits for the copy: queued on the caller's stream, it sees whatever
 * the caller queued before this call. */
inline cudaError_t fetch_mask(const float *mask, size_t width, float *host, unsigned capacity, cudaStream_t stream)
{
    cudaError_t e = cudaMemcpyAsync(host, mask, width * sizeof(float), cudaMemcpyDeviceToHost, stream);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
    for (size_t j = width; j < capacity; ++j) host[j] = 0.0f;
    return e;
}

/* The host copy in a Mask<C>, then launch(m, C), C as a compile-time
 * constant (std::integral_constant). */
template <unsigned C, typename F>
cudaError_t with_mask_copy(const float *mask, size_t width, cudaStream_t stream, F launch)
{
    Mask<C> m; /* the host copy that travels with each launch */
    const cudaError_t e = fetch_mask(mask, width, m.v, C, stream);
    return e ? e : launch(m, std::integral_constant<unsigned, C>());
}

/* What the entry points of variants 2-5 do: width above kMaskMax is
 * cudaErrorInvalidValue (a second line of defence after gk_conv1d's check),
 * n = 0 does nothing; otherwise the mask is copied into the smallest of the
 * three capacities that holds it, so that a small mask makes a 128-byte or
 * 2 KB parameter block, not 16 KB, and launch(m, C) launches the kernel
 * compiled for that capacity C. */
template <typename F>
cudaError_t with_param_mask(const float *mask, size_t n, size_t width, cudaStream_t stream, F launch)
{
    if (width == 0 || width > kMaskMax) return cudaErrorInvalidValue;
    if (n == 0) return cudaSuccess;
    if (width <= 32) return with_mask_copy<32>(mask, width, stream, launch);
    if (width <= 512) return with_mask_copy<512>(mask, width, stream, launch);
    return with_mask_copy<kMaskMax>(mask, width, stream, launch);
}

/* ---- Resident grids (variants 6 and 7). ------------------------------- */

constexpr size_t kSmemNoOptin = 48 * 1024; /* dynamic shared memory a launch may use without the attribute */

/* Lets `kernel` launch with smem bytes of dynamic shared memory. Above 48 KB
 * a kernel must opt in (cudaFuncAttributeMaxDynamicSharedMemorySize), and
 * this sets the limit to the device's maximum (232448 bytes on sm_90, 65536
 * on sm_75), never to this call's smem: the attribute belongs to the kernel,
 * not to the call, so a value that depended on the call would let a host
 * thread lower it under another thread's launch. The same value for every
 * call cannot race. cudaErrorInvalidValue when smem is above the maximum. */
template <typename K> cudaError_t allow_smem(K kernel, size_t smem)
{
    if (smem <= kSmemNoOptin) return cudaSuccess;
    int dev = 0, optin = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
    if (e) return e;
    if (smem > (size_t)optin) return cudaErrorInvalidValue;
    return cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, optin);
}

/* *blocks: a grid of the blocks of `kernel` (threads per block, smem bytes
 * of dynamic shared memory, allowed by allow_smem first) that the current
 * GPU holds at once, SMs x blocks per SM from the occupancy calculator
 * (which counts threads, registers and shared memory), but no more than
 * `tiles` and at least 1. Each block then walks tiles blockIdx.x,
 * + gridDim.x, ...: one wave. */
template <typename K>
cudaError_t resident_grid(K kernel, unsigned threads, size_t smem, size_t tiles, unsigned *blocks)
{
    int dev = 0, sms = 0, per_sm = 0;
    cudaError_t e = cudaGetDevice(&dev);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    if (e == cudaSuccess) e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, (int)threads, smem);
    const size_t resident = e == cudaSuccess && sms > 0 && per_sm > 0 ? (size_t)sms * (size_t)per_sm : 1;
    *blocks = (unsigned)(resident < tiles ? resident : tiles);
    return e;
}


/* ---- Launches of `count` blocks (the 2D and depthwise kernels). ------- */

constexpr size_t kMaxBlocks = (size_t)1 << 30; /* blocks per launch, under gridDim.x's 2^31 - 1 */

/* Queues kernel as launches of at most kMaxBlocks blocks covering blocks
 * [0, count), in order on stream; the launch that starts at block `first`
 * gets the arguments args..., first. Each launch's error is checked. */
template <typename K, typename... A>
cudaError_t launch_blocks(K kernel, size_t count, dim3 threads, size_t smem, cudaStream_t stream, const A &...args)
{
    for (size_t first = 0; first < count; first += kMaxBlocks) {
        const size_t len = count - first < kMaxBlocks ? count - first : kMaxBlocks;
        kernel<<<(unsigned)len, threads, smem, stream>>>(args..., first);
        const cudaError_t e = cudaGetLastError();
        if (e) return e;
    }
    return cudaSuccess;
}

/* ---- The depthwise epilogue. ------------------------------------------ */

constexpr int kActNone = 0, kActRelu = 1, kActSilu = 2; /* GK_CONV_ACT_NONE, _RELU, _SILU */

/* act(acc + bias), in fp32: one rounded add (skipped without a bias), then
 * ReLU as z < 0 ? 0 : z (so a NaN stays NaN, where fmaxf would drop it), or
 * SiLU as z / (1 + expf(-z)) with the accurate expf (2 ulp) and an IEEE
 * division; never the __expf intrinsic. */
__device__ __forceinline__ float epilogue(float acc, float bias, int act)
{
    const float z = acc + bias; /* bias 0.0f when there is none: exact */
    if (act == kActRelu) return z < 0.0f ? 0.0f : z;
    if (act == kActSilu) return z / (1.0f + expf(-z));
    return z;
}

/* ---- cp.async (2D variant 12, depthwise variant 16; sm_80 and newer). --- */

__device__ __forceinline__ unsigned smem_addr(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }

/* cp.async of Bytes (4 or 16) from src to dst, of which all or none are
 * read: valid = false fills dst with zeros and reads nothing (source size
 * 0; PTX ISA, "cp.async": src-size), so src then need not point at
 * readable memory. The 16-byte form bypasses L1 (.cg), the 4-byte form
 * may keep the line there (.ca, the only level the PTX allows for 4
 * bytes). */
template <int Bytes> __device__ __forceinline__ void copy_async(float *dst, const float *src, bool valid)
{
    static_assert(Bytes == 4 || Bytes == 16, "cp.async copies 4, 8 or 16 bytes; these kernels use 4 and 16");
    if constexpr (Bytes == 16)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem_addr(dst)), "l"(src),
                     "r"(valid ? 16 : 0)
                     : "memory");
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(smem_addr(dst)), "l"(src),
                     "r"(valid ? 4 : 0)
                     : "memory");
}

} // namespace

#endif /* GK_CONV_KERNELS_COMMON_CUH */
