/* 2D variant 6 (id 13): register blocking for large masks. 4 x 8 outputs
 * per thread, taps in groups of 8 from registers, the mask taken in chunks
 * of 16 x 32 taps so that any mask fits.
 *
 * The idea. With a large mask the convolution is arithmetic: 2k FLOPs per
 * output against 8 bytes of DRAM traffic, 480 FLOP/B at 31 x 31, far right
 * of the roofline's knee. The limit is the FMA pipes (128 FMAs per clock
 * per SM on sm_90): nearly every issued instruction must be an FFMA with
 * its operands in registers. Variant 5 streams masks up to 9 x 9 with 4
 * columns x m_r rows of sums per thread; this one takes any mask and
 * raises the reuse of each input and tap read from shared memory:
 *   1. 8 columns x 4 rows = 32 accumulators per thread,
 *      a tile of 32 rows x 256 columns per block of 32 x 8 threads. For one
 *      patch row and a group of 8 taps a thread loads the 15 inputs its 8
 *      columns need, and for each output row the row feeds, 2 broadcasts
 *      (LDS.128) of the 8 taps and 64 FFMAs: 15 + 4 x 2 = 23 shared loads for
 *      up to 256 FFMAs.
 *   2. The mask in chunks of kA = 16 rows x kB = 32 columns. Each chunk has
 *      its own patch, (32 + 16 - 1) rows x (256 + 32 - 1) columns, filled
 *      into shared memory between two barriers, and adds into the same 32
 *      accumulators; a mask of any size is ceil(m_r / 16) x ceil(m_c / 32)
 *      chunks. At 31 x 31: 2 x 1 chunks; per chunk and thread up to 32
 *      outputs x 16 x 31 taps = 15872 FFMAs against a fill of 47 x 295 / 256
 *      = 54 loads and stores: the fill is a few percent of the issue slots.
 *      The chunk's height sets the reuse of a patch row: a thread walks
 *      4 + kA - 1 patch rows, and the first and last 3 feed fewer than its 4
 *      output rows, so 4 kA of the 4 (4 + kA - 1) row-uses do work: 64 of 76
 *      (84%) with kA = 16, 32 of 44 (73%) with kA = 8, the height this file
 *      used before (3.5697 ms at 31 x 31 on an H100: conv2d.json in
 *      conv/tuning/forms-h100/ at commit 13c75b3).
 *   3. The last group of a chunk's row may be partial (31 = 3 x 8 + 7): it
 *      runs with a test per tap, the same in every lane, so no tap beyond
 *      the mask is multiplied (a zero tap times an Inf input would be NaN);
 *      the patch is filled with zeros 8 columns past its span so that the
 *      window loads of that group read initialised words.
 *   4. Bank conflicts: thread tx's 15 inputs start at word 8 tx, a stride of
 *      8 words that would put 4 lanes on one bank; the patch rows are
 *      stored with one pad word after every 8 (column k at k + k / 8): the
 *      lane stride becomes 9 words, odd, conflict-free.
 *   5. The fill is 4-byte and coalesced (a warp per patch row, 32
 *      consecutive columns per warp load): at these masks it is not the
 *      limit, and its few instructions per input matter more than width.
 *
 * Counted (cuobjdump -sass, CUDA 13.0, sm_90; ptxas -v: 72 registers, no
 * spills, so 3 blocks of 256 threads per SM): the loop over groups of 8
 * taps holds both the full and the partial group's code, 662 instructions
 * in all with 512 FFMA (256 each), 31 LDS (15 window loads, 2 x 8 LDS.128
 * broadcasts) and about 80 tests and branches, most of them the partial
 * group's per-tap tests. A full group that feeds 4 output rows issues its
 * 15 window loads, 8 broadcasts, 256 FFMA and about 20 others: close to
 * 85% FFMA; the first and last 3 patch rows of a chunk feed fewer rows.
 *
 * Shared memory per block: the chunk's taps (16 x 32 floats, 2 KB) and the
 * patch, 47 rows x 332 words: 64,464 bytes in all (3 blocks: 193 KB of an
 * SM's 228), above the 48 KB that needs no opt-in, so the launch opts in
 * (allow_smem: to the device's maximum, the same for every call, so calls
 * from several threads cannot race on the attribute).
 *
 * Bound by: FMA issue inside the group loop, less the partial groups, the
 * fills and barriers of each chunk, and the edge rows of each chunk (a patch
 * row near the top or bottom of a thread's window feeds fewer than 4
 * output rows). Measured on an H100 at 8192 x 8192 (conv/README.md, the
 * 2D table): 60.6% of the fp32 peak at 31 x 31, 47.0% at 15 x 15.
 *
 * Limits: any mask, any image: 64-bit positions, a flat list of tiles in
 * launches of at most 2^30 blocks; any strides; pointers need only their
 * 4-byte alignment. No workspace, no host synchronisation.
 *
 * Sources: Kirk, Hwu & El Hajj, "Programming Massively Parallel
 * Processors", 4th ed., chapter 7 and the thread-coarsening sections; the
 * register blocking of the fast SGEMM kernels (siboehm/SGEMM_CUDA, kernel 5);
 * CUDA C++ Programming Guide, "Shared Memory" (banks, 128-bit accesses).
 *
 * Build alone: nvcc -arch=sm_90 -c conv2d_06_register_blocked.cu, next to
 * common.cuh.
 */
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "common.cuh" /* ceil_div, launch_blocks, allow_smem */

namespace {

constexpr unsigned kTx = 32, kTy = 8;             /* threads: one warp per thread row */
constexpr unsigned kC = 8, kR = 4;                /* outputs per thread: 8 columns x 4 rows */
constexpr unsigned kTw = kTx * kC, kTh = kTy * kR; /* tile: 32 rows x 256 columns */
constexpr unsigned kA = 16, kB = 32;              /* mask chunk: 16 rows x 32 columns */
constexpr unsigned kThreads = kTx * kTy;
constexpr unsigned kSpanR = kTh + kA - 1;          /* patch rows: 47 */
constexpr unsigned kFillC = kTw + kB - 1 + kC;     /* patch columns filled (zeros past the span): 295 */

__host__ __device__ constexpr unsigned phys(unsigned k) { return k + k / 8; } /* padded column */
constexpr unsigned kPitch = (phys(kFillC - 1) + 1 + 3) & ~3u;                /* words per patch row: 332 */
constexpr size_t kSmem = (kA * kB + kSpanR * kPitch) * sizeof(float);      /* 64464 bytes */

/* One group of 8 taps b .. b + 7 of chunk row a for the thread's patch row
 * `src` and output row j: 2 broadcasts and 64 FFMAs (fewer when kPartial,
 * which tests each tap against the chunk's width kb). */
template <bool kPartial>
__device__ __forceinline__ void group(float (&acc)[kC], const float (&w)[kC + 7], const float *m, unsigned b,
                                      unsigned kb)
{
    const float4 m0 = reinterpret_cast<const float4 *>(m)[0], m1 = reinterpret_cast<const float4 *>(m)[1];
    const float t[8] = {m0.x, m0.y, m0.z, m0.w, m1.x, m1.y, m1.z, m1.w};
#pragma unroll
    for (unsigned u = 0; u < 8; ++u) {
        if (kPartial && b + u >= kb) break; /* the same in every lane */
#pragma unroll
        for (unsigned c = 0; c < kC; ++c) acc[c] += w[c + u] * t[u];
    }
}

__global__ void __launch_bounds__(kThreads)
    conv2d_register_blocked(const float *__restrict__ in, size_t rows, size_t cols, size_t in_stride,
                            const float *__restrict__ mask, size_t mask_rows, size_t mask_cols,
                            float *__restrict__ out, size_t out_stride, size_t col_tiles, size_t first)
{
    extern __shared__ float4 smem4[];
    float *msk = reinterpret_cast<float *>(smem4); /* msk[a kB + b]: the chunk's taps, 0 past them */
    float *patch = msk + kA * kB;                  /* 16-byte aligned: kA kB is a multiple of 4 */
    const unsigned tx = threadIdx.x, ty = threadIdx.y, tid = ty * kTx + tx;
    const size_t t = first + blockIdx.x;
    const size_t y0 = (t / col_tiles) * kTh, x0 = (t % col_tiles) * kTw;
    const size_t ry = mask_rows / 2, rx = mask_cols / 2;

    float acc[kR][kC];
#pragma unroll
    for (unsigned j = 0; j < kR; ++j)
#pragma unroll
        for (unsigned c = 0; c < kC; ++c) acc[j][c] = 0.0f;

    for (size_t a0 = 0; a0 < mask_rows; a0 += kA) {
        const unsigned ka = (unsigned)(mask_rows - a0 < kA ? mask_rows - a0 : kA);
        for (size_t b0 = 0; b0 < mask_cols; b0 += kB) {
            const unsigned kb = (unsigned)(mask_cols - b0 < kB ? mask_cols - b0 : kB);
            __syncthreads(); /* everyone is done with the previous chunk's taps and patch before they are replaced */
            for (unsigned k = tid; k < kA * kB; k += kThreads) {
                const unsigned a = k / kB, b = k % kB;
                msk[k] = a < ka && b < kb ? __ldg(mask + (a0 + a) * mask_cols + b0 + b) : 0.0f;
            }
            /* Patch row i: image row y0 - ry + a0 + i; column k: x0 - rx + b0 + k.
             * Unsigned wraps put the positions before the image above rows / cols. */
            for (unsigned i = ty; i < kTh + ka - 1; i += kTy) {
                const size_t p = y0 + a0 + i - ry;
                const float *row = in + (p < rows ? p : 0) * in_stride;
                float *dst = patch + i * kPitch;
                for (unsigned k = tx; k < kFillC; k += kTx) {
                    const size_t q = x0 + b0 + k - rx;
                    dst[phys(k)] = p < rows && q < cols && k < kTw + kb - 1 ? __ldg(row + q) : 0.0f;
                }
            }
            __syncthreads(); /* the chunk's taps and patch are complete before anyone reads them */

            for (unsigned r = 0; r < kR + ka - 1; ++r) { /* patch row kR ty + r feeds output rows j = r - a */
                const float *src = patch + (kR * ty + r) * kPitch + 9 * tx; /* phys(8 tx) = 9 tx */
                for (unsigned b = 0; b < kb; b += 8) {
                    /* phys(8 tx + b + q) = 9 tx + 9 b / 8 + q + q / 8 for b a multiple of 8. */
                    const float *g = src + b + b / 8;
                    float w[kC + 7];
#pragma unroll
                    for (unsigned q = 0; q < kC + 7; ++q) w[q] = g[q + q / 8]; /* lane stride 9 words: no conflict */
                    const bool partial = b + 8 > kb;
#pragma unroll
                    for (unsigned j = 0; j < kR; ++j) {
                        const unsigned a = r - j; /* wraps above ka when r < j */
                        if (a >= ka) continue;    /* the same in every lane of the warp */
                        if (partial) group<true>(acc[j], w, msk + a * kB + b, b, kb);
                        else group<false>(acc[j], w, msk + a * kB + b, b, kb);
                    }
                }
            }
        }
    }

#pragma unroll
    for (unsigned j = 0; j < kR; ++j) {
        const size_t y = y0 + kR * ty + j, x = x0 + kC * tx;
        if (y >= rows || x >= cols) continue;
        float *o = out + y * out_stride + x;
        if (x + kC - 1 < cols && ((uintptr_t)o & 15) == 0) { /* two STG.128 */
            reinterpret_cast<float4 *>(o)[0] = make_float4(acc[j][0], acc[j][1], acc[j][2], acc[j][3]);
            reinterpret_cast<float4 *>(o)[1] = make_float4(acc[j][4], acc[j][5], acc[j][6], acc[j][7]);
        } else {
#pragma unroll
            for (unsigned c = 0; c < kC; ++c)
                if (x + c < cols) o[c] = acc[j][c];
        }
    }
}

} // namespace

extern "C" size_t gk_conv2d_06_register_blocked_workspace(size_t, size_t, size_t, size_t) { return 0; /* none */ }

extern "C" cudaError_t gk_conv2d_06_register_blocked_run(const float *in, size_t rows, size_t cols, size_t in_stride,
                                                         const float *mask, size_t mask_rows, size_t mask_cols,
                                                         float *out, size_t out_stride, void * /* workspace: none */,
                                                         cudaStream_t stream)
{
    const cudaError_t e = allow_smem(conv2d_register_blocked, kSmem);
    if (e) return e;
    const size_t col_tiles = ceil_div(cols, kTw), tiles = ceil_div(rows, kTh) * col_tiles;
    return launch_blocks(conv2d_register_blocked, tiles, dim3(kTx, kTy), kSmem, stream, in, rows, cols, in_stride,
                         mask, mask_rows, mask_cols, out, out_stride, col_tiles);
}
