/* 2D variant 5 (id 12): register tiling for small masks. 16-byte loads of
 * the input patch, 4 x 4 outputs per thread, the inputs of a patch row
 * reused from registers.
 *
 * The idea. With a small mask a 2D convolution is a stream: k = m_r m_c
 * FMAs per output (9 at 3 x 3, 49 at 7 x 7) against 4 bytes read and 4
 * written, k / 4 FLOP/B, left of the roofline's knee (about 18 FLOP/B on an
 * H100, k = 72). The time should be the time to move the bytes, so the
 * kernel must (a) move them in wide, coalesced accesses, (b) fetch each
 * input from DRAM about once, and (c) spend few issue slots per output so
 * that even 7 x 7 (49 FMAs per 8 bytes) keeps up with DRAM. Variant 3 did
 * (b) for its 16 x 16 tiles but spent 6.5 instructions per FMA, one shared
 * load each, and 4-byte accesses.
 *
 * What changed, counted (mask m_r x m_c, both <= 16):
 *   1. A larger tile: 32 rows x 128 columns of output per block of 32 x 8
 *      threads, thread (tx, ty) the 4 x 4 outputs at rows 4 ty .. 4 ty + 3
 *      and columns 4 tx .. 4 tx + 3. Its patch of (31 + m_r) x (127 + m_c)
 *      inputs, at 3 x 3 34 x 130 = 1.08 loads per output, at 7 x 7 38 x 134
 *      = 1.24 (the halo cells come again for the neighbours, from L2 when a
 *      neighbour loaded them first; the blocks of one tile row run side by
 *      side, so the column halo mostly does).
 *   2. 16-byte loads. A patch row starts anywhere on in's 16-byte grid
 *      (any x, any in_stride), so each row is loaded as the aligned 16-byte
 *      vectors that cover it (s = the row start's offset in its vector, 0
 *      to 3, per row): one LDG.128 per vector that lies wholly inside the
 *      image row, element by element (ghost cells 0) for the vectors that
 *      cross its two ends; nothing outside [0, cols) is read, neither the
 *      padding between rows. The 4 values go to shared memory shifted by s,
 *      so the patch in shared memory starts at its first input whatever the
 *      alignment.
 *   3. Registers instead of one shared load per FMA. For each patch row
 *      (4 + m_r - 1 of them per thread), the taps are walked in groups of
 *      4: the thread loads the 7 inputs its 4 columns need for 4 taps, and
 *      for each of its up to 4 output rows j that this patch row feeds (mask
 *      row a = row - j) one 16-byte broadcast of 4 taps and 16 FFMAs: 7 +
 *      4 shared loads for up to 64 FFMAs. The last m_c % 4 taps of a row go
 *      one at a time (4 loads, 1 tap and 4 FFMA per output row), so no tap
 *      beyond the mask is multiplied (a zero tap times an Inf input would
 *      be NaN).
 *   4. Bank conflicts: thread tx's inputs start at word 4 tx of a row, a
 *      4-word stride that would put lanes tx and tx + 8 on one bank (4-way).
 *      The patch rows are stored padded, logical column k at word k + k / 4,
 *      so the stride is 5 words, odd: the 32 lanes of a warp (one thread
 *      row, blockDim.x = 32) hit 32 banks. The mask rows are padded to a
 *      multiple of 4 with zeros (read only as the 16-byte groups of step 3,
 *      never multiplied beyond the mask) and read as broadcasts.
 *   5. 16-byte stores: each thread's 4 outputs of a row go out as one
 *      STG.128 when they lie inside the image and their address is 16-byte
 *      aligned (out and out_stride multiples of 4 floats: the usual case),
 *      else one by one; the padding between rows is never written.
 *
 * Instructions (cuobjdump -sass, CUDA 13.0, sm_90; ptxas -v: 40 registers,
 * no spills, so 6 blocks of 256 threads per SM by registers): the loop over
 * groups of 4 taps is 100 instructions, 64 FFMA (64%), 11 LDS (7 window, 4
 * LDS.128 of taps) and 25 for the addresses, the row tests and the loop;
 * the one-at-a-time loop, unrolled by 4, 143 instructions for 64 FFMA
 * (45%): a 3 x 3 mask runs only this one. The fill loop, unrolled by 2, is
 * 193 instructions per 2 vectors counted with both paths (the element by
 * element one included), most of them the signed 64-bit column tests.
 *
 * Shared memory per block: the mask (m_r x ceil4(m_c) floats, at most 1 KB)
 * and the patch, (31 + m_r) rows of (127 + m_c) + (126 + m_c) / 4 + 1 words:
 * 3 x 3: 34 x 163 x 4 = 22 KB; 16 x 16: 47 x 179 x 4 = 33.6 KB; under 48 KB.
 *
 * Bound by: DRAM at 3 x 3 to 7 x 7 if the instruction count above leaves
 * room, which the bench against the device copy decides; the fill is one
 * 16-byte load per thread and trip of its loop with a barrier after it, and
 * no load of the next tile is in flight while a tile is computed (the 1D
 * streaming variant 6 does that; this one does not). Measured on an H100
 * at 8192 x 8192 (conv/README.md, the 2D table): 54% of the device copy's
 * speed at 3 x 3 and 32% at 7 x 7, where variant 6 (id 13) is faster: not
 * DRAM bound at either.
 *
 * Limits: mask sides <= 16 (the table's max_width). Any image: 64-bit
 * positions, a flat list of tiles in launches of at most 2^30 blocks; any
 * strides; in and out need only their 4-byte alignment (unaligned rows take
 * the element-by-element paths). No workspace, no host synchronisation.
 *
 * Sources: Kirk, Hwu & El Hajj, "Programming Massively Parallel
 * Processors", 4th ed., chapter 7 and the thread-coarsening sections; CUDA
 * C++ Programming Guide, "Device Memory Accesses" (vector sizes and
 * alignment), "Shared Memory" (banks).
 *
 * Build alone: nvcc -arch=sm_90 -c conv2d_05_register_tiled.cu, next to
 * common.cuh.
 */
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>

#include "common.cuh" /* ceil_div, launch_blocks */

namespace {

constexpr unsigned kTx = 32, kTy = 8;        /* threads: one warp per thread row */
constexpr unsigned kC = 4, kR = 4;           /* outputs per thread: 4 columns x 4 rows */
constexpr unsigned kTw = kTx * kC;           /* tile width: 128 */
constexpr unsigned kTh = kTy * kR;           /* tile height: 32 */
constexpr unsigned kMaxSide = 16;            /* the table's max_width */
constexpr unsigned kThreads = kTx * kTy;

__host__ __device__ inline unsigned phys(unsigned k) { return k + k / 4; } /* padded column */
__host__ __device__ inline unsigned patch_pitch(unsigned mask_cols) { return phys(kTw + mask_cols - 2) + 1; }
__host__ __device__ inline unsigned mask_pitch(unsigned mask_cols) { return (mask_cols + 3) / 4 * 4; }

__global__ void __launch_bounds__(kThreads)
    conv2d_register_tiled(const float *__restrict__ in, size_t rows, size_t cols, size_t in_stride,
                          const float *__restrict__ mask, unsigned mask_rows, unsigned mask_cols,
                          float *__restrict__ out, size_t out_stride, size_t col_tiles, size_t first)
{
    extern __shared__ float4 smem4[];
    const unsigned mp = mask_pitch(mask_cols), pp = patch_pitch(mask_cols);
    float *msk = reinterpret_cast<float *>(smem4);  /* msk[a mp + b], zero for b >= mask_cols */
    float *patch = msk + mask_rows * mp;           /* a multiple of 4 floats in: 16-byte aligned */
    const unsigned tid = threadIdx.y * kTx + threadIdx.x;
    const size_t t = first + blockIdx.x;
    const size_t y0 = (t / col_tiles) * kTh, x0 = (t % col_tiles) * kTw;
    const unsigned span_r = kTh + mask_rows - 1, span_c = kTw + mask_cols - 1;
    const long long q0 = (long long)x0 - (long long)(mask_cols / 2); /* the patch's first column */

    for (unsigned k = tid; k < mask_rows * mp; k += kThreads) {
        const unsigned a = k / mp, b = k % mp;
        msk[k] = b < mask_cols ? __ldg(mask + a * mask_cols + b) : 0.0f;
    }
    /* The fill: row i of the patch is image row p = y0 - ry + i, columns q0
     * .. q0 + span_c - 1, loaded as the 16-byte vectors of in's grid that
     * cover it. nv vectors per row suffice for any shift s <= 3. */
    const unsigned nv = (span_c + 3 + 3) / 4;
    for (unsigned i = threadIdx.y; i < span_r; i += kTy) { /* one warp per patch row: p, row and s are uniform */
        const size_t p = y0 + i - mask_rows / 2; /* wraps past 0 to above rows: a ghost row */
        const float *row = in + (p < rows ? p : 0) * in_stride;
        /* s: where column q0 sits in its 16-byte vector, from the address. */
        const unsigned s = (unsigned)(((uintptr_t)row / sizeof(float) + (uintptr_t)q0) & 3);
        float *dst = patch + i * pp;
        for (unsigned v = threadIdx.x; v < nv; v += kTx) {
            const long long qs = q0 - (long long)s + 4ll * v; /* this vector's first column, 16-byte aligned */
            float val[4] = {0.0f, 0.0f, 0.0f, 0.0f};
            if (p < rows) {
                if (qs >= 0 && qs + 3 < (long long)cols) {
                    const float4 x = __ldg(reinterpret_cast<const float4 *>(row + qs)); /* LDG.128 */
                    val[0] = x.x, val[1] = x.y, val[2] = x.z, val[3] = x.w;
                } else {
#pragma unroll
                    for (unsigned e = 0; e < 4; ++e) {
                        const long long q = qs + e;
                        if (q >= 0 && q < (long long)cols) val[e] = __ldg(row + q);
                    }
                }
            }
#pragma unroll
            for (unsigned e = 0; e < 4; ++e) {
                const long long kk = 4ll * v + e - s; /* the patch column of element e */
                if (kk >= 0 && kk < (long long)span_c) dst[phys((unsigned)kk)] = val[e];
            }
        }
    }
    __syncthreads(); /* the mask and the whole patch are in shared memory before anyone reads them */

    const unsigned tx = threadIdx.x, ty = threadIdx.y;
    float acc[kR][kC];
#pragma unroll
    for (unsigned j = 0; j < kR; ++j)
#pragma unroll
        for (unsigned c = 0; c < kC; ++c) acc[j][c] = 0.0f;

    for (unsigned r = 0; r < kR + mask_rows - 1; ++r) { /* patch row kR ty + r feeds output rows j = r - a */
        const float *src = patch + (kR * ty + r) * pp;
        unsigned b = 0;
        for (; b + 4 <= mask_cols; b += 4) {
            /* phys(4 tx + b + q) = 5 tx + 5 b / 4 + q + q / 4 for b a multiple of 4: constant offsets. */
            const float *g = src + 5 * tx + b + b / 4;
            float w[7];
#pragma unroll
            for (unsigned q = 0; q < 7; ++q) w[q] = g[q + q / 4]; /* lane stride 5 words: no conflict */
#pragma unroll
            for (unsigned j = 0; j < kR; ++j) {
                const unsigned a = r - j; /* wraps above mask_rows when r < j */
                if (a < mask_rows) {       /* the same in every lane of the warp: no divergence */
                    const float4 m = reinterpret_cast<const float4 *>(msk + a * mp + b)[0]; /* a broadcast */
#pragma unroll
                    for (unsigned c = 0; c < kC; ++c) {
                        acc[j][c] += w[c] * m.x;
                        acc[j][c] += w[c + 1] * m.y;
                        acc[j][c] += w[c + 2] * m.z;
                        acc[j][c] += w[c + 3] * m.w;
                    }
                }
            }
        }
        for (; b < mask_cols; ++b) { /* the last mask_cols % 4 taps, one at a time */
            float w[kC];
#pragma unroll
            for (unsigned c = 0; c < kC; ++c) w[c] = src[phys(kC * tx + b + c)];
#pragma unroll
            for (unsigned j = 0; j < kR; ++j) {
                const unsigned a = r - j;
                if (a < mask_rows) {
                    const float m = msk[a * mp + b];
#pragma unroll
                    for (unsigned c = 0; c < kC; ++c) acc[j][c] += w[c] * m;
                }
            }
        }
    }

#pragma unroll
    for (unsigned j = 0; j < kR; ++j) {
        const size_t y = y0 + kR * ty + j, x = x0 + kC * tx;
        if (y >= rows || x >= cols) continue;
        float *o = out + y * out_stride + x;
        if (x + 3 < cols && ((uintptr_t)o & 15) == 0) {
            *reinterpret_cast<float4 *>(o) = make_float4(acc[j][0], acc[j][1], acc[j][2], acc[j][3]); /* STG.128 */
        } else {
#pragma unroll
            for (unsigned c = 0; c < kC; ++c)
                if (x + c < cols) o[c] = acc[j][c];
        }
    }
}

} // namespace

extern "C" size_t gk_conv2d_05_register_tiled_workspace(size_t, size_t, size_t, size_t) { return 0; /* none */ }

extern "C" cudaError_t gk_conv2d_05_register_tiled_run(const float *in, size_t rows, size_t cols, size_t in_stride,
                                                       const float *mask, size_t mask_rows, size_t mask_cols,
                                                       float *out, size_t out_stride, void * /* workspace: none */,
                                                       cudaStream_t stream)
{
    if (mask_rows > kMaxSide || mask_cols > kMaxSide) return cudaErrorInvalidValue;
    const unsigned mr = (unsigned)mask_rows, mc = (unsigned)mask_cols;
    const size_t smem = ((size_t)mr * mask_pitch(mc) + (size_t)(kTh + mr - 1) * patch_pitch(mc)) * sizeof(float);
    const size_t col_tiles = ceil_div(cols, kTw), tiles = ceil_div(rows, kTh) * col_tiles;
    return launch_blocks(conv2d_register_tiled, tiles, dim3(kTx, kTy), smem, stream, in, rows, cols, in_stride, mask,
                         mr, mc, out, out_stride, col_tiles);
}
