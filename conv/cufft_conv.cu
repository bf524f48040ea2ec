/* cufft_conv.cu: convolution through cuFFT, the conv module's reference in
 * the tests and the bench (see cufft_conv.h). Never used by the library. */
#include <cuda_runtime.h>
#include <cufft.h>
#include <stdlib.h>

#include "conv_ref.h"
#include "cufft_conv.h"
#include "gk/cuda_check.h"

struct gk_cufft_conv {
    size_t n, width, L;
    cufftHandle r2c, c2r;
    int have_r2c, have_c2r;
    float *x; /* L + 2 floats: the padded input, then its spectrum, then y */
    float *h; /* L + 2 floats: the reversed, padded mask, then its spectrum */
};

struct gk_cufft_conv2d {
    size_t rows, cols, mask_rows, mask_cols;
    size_t ny, nx, pitch; /* the transform is ny x nx; a real row of x and h is pitch = 2 (nx / 2 + 1) floats */
    cufftHandle r2c, c2r;
    int have_r2c, have_c2r;
    float *x; /* ny pitch floats: the padded image, then its spectrum, then Y */
    float *h; /* ny pitch floats: the reversed, padded mask, then its spectrum */
};

namespace {

constexpr int kThreads = 256;

/* What both destroy functions free: the plans that were made, the buffers. */
void release(int have_r2c, cufftHandle r2c, int have_c2r, cufftHandle c2r, float *x, float *h)
{
    if (have_r2c) cufftDestroy(r2c);
    if (have_c2r) cufftDestroy(c2r);
    cudaFree(x);
    cudaFree(h);
}

/* Blocks for a grid-stride loop over `count` items: enough to fill the GPU,
 * never more than the grid allows. */
unsigned grid_for(size_t count)
{
    size_t blocks = (count + kThreads - 1) / kThreads;
    const size_t cap = (size_t)1 << 16;
    return (unsigned)(blocks < 1 ? 1 : blocks > cap ? cap : blocks);
}

/* h[k] = mask[width - 1 - k] for k < width, 0 up to L. */
__global__ void reverse_pad(const float *__restrict__ mask, size_t width, float *__restrict__ h, size_t L)
{
    for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < L; k += (size_t)gridDim.x * blockDim.x)
        h[k] = k < width ? mask[width - 1 - k] : 0.0f;
}

/* x[k] = x[k] * h[k] * scale over the L/2 + 1 complex coefficients. */
__global__ void multiply(cufftComplex *__restrict__ x, const cufftComplex *__restrict__ h, size_t count, float scale)
{
    for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < count; k += (size_t)gridDim.x * blockDim.x) {
        cufftComplex a = x[k], b = h[k];
        cufftComplex p;
        p.x = (a.x * b.x - a.y * b.y) * scale;
        p.y = (a.x * b.y + a.y * b.x) * scale;
        x[k] = p;
    }
}

/* out[i] = y[i + shift], shift = width - 1 - r. */
__global__ void gather(const float *__restrict__ y, size_t shift, float *__restrict__ out, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = y[i + shift];
}

gk_status cufft_status(cufftResult r, const char *what)
{
    return r == CUFFT_SUCCESS ? gk_success() : GK_FAIL(GK_ERROR_CUDA, what);
}

/* ---- 2D ---- */

/* Blocks for the 2D loops below: x over a row of `width` items (grid-stride),
 * y over `height` rows (grid-stride), neither above what a grid allows. */
dim3 grid_2d(size_t width, size_t height)
{
    size_t bx = (width + kThreads - 1) / kThreads, by = height;
    const size_t cap_x = 1024, cap_y = 65535;
    return dim3((unsigned)(bx < 1 ? 1 : bx > cap_x ? cap_x : bx), (unsigned)(by < 1 ? 1 : by > cap_y ? cap_y : by));
}

/* Both padded real arrays of one call, row r of ny, column c of pitch:
 *   x[r][c] = in[r][c] inside the rows x cols image, else 0;
 *   h[r][c] = mask[mr - 1 - r][mc - 1 - c] inside the mr x mc corner, else 0.
 * Every float of both arrays is written (the two columns past nx included,
 * which the R2C transform does not read), because the previous call left
 * Y and a spectrum in them. A block walks rows, so no index is divided. */
__global__ void pad_inputs(const float *__restrict__ in, size_t rows, size_t cols, size_t in_stride,
                           const float *__restrict__ mask, size_t mr, size_t mc, float *__restrict__ x,
                           float *__restrict__ h, size_t ny, size_t pitch)
{
    for (size_t r = blockIdx.y; r < ny; r += gridDim.y) {
        float *xr = x + r * pitch, *hr = h + r * pitch;
        const float *inr = r < rows ? in + r * in_stride : NULL;
        const float *mkr = r < mr ? mask + (mr - 1 - r) * mc : NULL;
        for (size_t c = (size_t)blockIdx.x * blockDim.x + threadIdx.x; c < pitch; c += (size_t)gridDim.x * blockDim.x) {
            xr[c] = inr != NULL && c < cols ? inr[c] : 0.0f;
            hr[c] = mkr != NULL && c < mc ? mkr[mc - 1 - c] : 0.0f;
        }
    }
}

/* out[y][c] = Y[y + sy][c + sx] for the rows x cols outputs; the padding of
 * out between cols and its stride is not touched. */
__global__ void crop(const float *__restrict__ Y, size_t pitch, size_t sy, size_t sx, float *__restrict__ out,
                     size_t rows, size_t cols, size_t out_stride)
{
    for (size_t y = blockIdx.y; y < rows; y += gridDim.y) {
        const float *src = Y + (y + sy) * pitch + sx;
        float *dst = out + y * out_stride;
        for (size_t c = (size_t)blockIdx.x * blockDim.x + threadIdx.x; c < cols; c += (size_t)gridDim.x * blockDim.x)
            dst[c] = src[c];
    }
}

/* A failure that means "not enough device memory" (a cudaMalloc, or cuFFT's
 * own work area) becomes GK_ERROR_UNSUPPORTED: the reference does not run at
 * this size on this device, which a bench shows as n/a. cudaGetLastError
 * clears the error that a failed allocation leaves behind, so that the next
 * launch check does not report it. */
gk_status out_of_memory(void)
{
    (void)cudaGetLastError();
    return GK_FAIL(GK_ERROR_UNSUPPORTED, "cuFFT 2D reference: the padded buffers or cuFFT's work area do not fit in "
                                         "device memory");
}

gk_status alloc_2d(float **p, size_t floats)
{
    cudaError_t e = cudaMalloc((void **)p, floats * sizeof(float));
    if (e == cudaErrorMemoryAllocation) return out_of_memory();
    return GK_CUDA_STATUS(e);
}

/* A rank-2 plan of `type` for the padded in-place layout: real rows of
 * pitch floats, complex rows of nx / 2 + 1. */
gk_status plan_2d(cufftHandle plan, size_t ny, size_t nx, size_t pitch, cufftType type)
{
    long long n[2] = {(long long)ny, (long long)nx};
    long long real_embed[2] = {(long long)ny, (long long)pitch};
    long long cplx_embed[2] = {(long long)ny, (long long)(nx / 2 + 1)};
    long long real_dist = (long long)(ny * pitch), cplx_dist = (long long)(ny * (nx / 2 + 1));
    int r2c = type == CUFFT_R2C;
    size_t work = 0;
    cufftResult r = cufftMakePlanMany64(plan, 2, n, r2c ? real_embed : cplx_embed, 1, r2c ? real_dist : cplx_dist,
                                        r2c ? cplx_embed : real_embed, 1, r2c ? cplx_dist : real_dist, type, 1, &work);
    if (r == CUFFT_ALLOC_FAILED) return out_of_memory();
    return cufft_status(r, r2c ? "cufftMakePlanMany64 (2D R2C) failed" : "cufftMakePlanMany64 (2D C2R) failed");
}

} // namespace

extern "C" gk_status gk_cufft_conv_create(gk_cufft_conv **plan, size_t n, size_t width)
{
    *plan = NULL;
    if (n == 0 || width == 0) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "cuFFT reference: n and width must be >= 1");
    gk_cufft_conv *p = (gk_cufft_conv *)calloc(1, sizeof *p);
    if (p == NULL) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
    p->n = n;
    p->width = width;
    p->L = gk_conv_fft_length(n, width);
    long long L = (long long)p->L;
    size_t work = 0;
    gk_status st = GK_CUDA_STATUS(cudaMalloc((void **)&p->x, (p->L + 2) * sizeof(float)));
    if (gk_ok(st)) st = GK_CUDA_STATUS(cudaMalloc((void **)&p->h, (p->L + 2) * sizeof(float)));
    if (gk_ok(st)) st = cufft_status(cufftCreate(&p->r2c), "cufftCreate (R2C) failed");
    if (gk_ok(st)) p->have_r2c = 1;
    if (gk_ok(st))
        st = cufft_status(cufftMakePlanMany64(p->r2c, 1, &L, NULL, 1, 0, NULL, 1, 0, CUFFT_R2C, 1, &work),
                          "cufftMakePlanMany64 (R2C) failed");
    if (gk_ok(st)) st = cufft_status(cufftCreate(&p->c2r), "cufftCreate (C2R) failed");
    if (gk_ok(st)) p->have_c2r = 1;
    if (gk_ok(st))
        st = cufft_status(cufftMakePlanMany64(p->c2r, 1, &L, NULL, 1, 0, NULL, 1, 0, CUFFT_C2R, 1, &work),
                          "cufftMakePlanMany64 (C2R) failed");
    if (!gk_ok(st)) {
        gk_cufft_conv_destroy(p);
        return st;
    }
    *plan = p;
    return gk_success();
}

extern "C" gk_status gk_cufft_conv_run(gk_cufft_conv *p, const float *in, const float *mask, float *out,
                                       cudaStream_t stream)
{
    size_t n = p->n, w = p->width, L = p->L, half = L / 2 + 1;
    GK_CUDA_TRY(cudaMemcpyAsync(p->x, in, n * sizeof(float), cudaMemcpyDeviceToDevice, stream));
    GK_CUDA_TRY(cudaMemsetAsync(p->x + n, 0, (L + 2 - n) * sizeof(float), stream));
    reverse_pad<<<grid_for(L), kThreads, 0, stream>>>(mask, w, p->h, L);
    GK_CUDA_TRY(cudaGetLastError());
    GK_TRY(cufft_status(cufftSetStream(p->r2c, stream), "cufftSetStream failed"));
    GK_TRY(cufft_status(cufftSetStream(p->c2r, stream), "cufftSetStream failed"));
    GK_TRY(cufft_status(cufftExecR2C(p->r2c, p->x, (cufftComplex *)p->x), "cufftExecR2C (input) failed"));
    GK_TRY(cufft_status(cufftExecR2C(p->r2c, p->h, (cufftComplex *)p->h), "cufftExecR2C (mask) failed"));
    /* 1/L rounded once to float: one of the two roundings the tolerance
     * gives the scaling. */
    float scale = (float)(1.0 / (double)L);
    multiply<<<grid_for(half), kThreads, 0, stream>>>((cufftComplex *)p->x, (const cufftComplex *)p->h, half, scale);
    GK_CUDA_TRY(cudaGetLastError());
    GK_TRY(cufft_status(cufftExecC2R(p->c2r, (cufftComplex *)p->x, p->x), "cufftExecC2R failed"));
    gather<<<grid_for(n), kThreads, 0, stream>>>(p->x, w - 1 - w / 2, out, n);
    GK_CUDA_TRY(cudaGetLastError());
    return gk_success();
}

extern "C" size_t gk_cufft_conv_length(const gk_cufft_conv *p) { return p->L; }

extern "C" void gk_cufft_conv_destroy(gk_cufft_conv *p)
{
    if (p == NULL) return;
    release(p->have_r2c, p->r2c, p->have_c2r, p->c2r, p->x, p->h);
    free(p);
}

/* ---- 2D ------------------------------------------------------------------ */

extern "C" gk_status gk_cufft_conv2d_create(gk_cufft_conv2d **plan, size_t rows, size_t cols, size_t mask_rows,
                                            size_t mask_cols)
{
    *plan = NULL;
    if (rows == 0 || cols == 0 || mask_rows == 0 || mask_cols == 0)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "cuFFT 2D reference: rows, cols and the mask's sides must be >= 1");
    if (rows > GK_CONV_MAX_N || cols > GK_CONV_MAX_N || mask_rows > GK_CONV_MAX_N || mask_cols > GK_CONV_MAX_N)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "cuFFT 2D reference: a side above GK_CONV_MAX_N");
    size_t ny = gk_conv_fft_length(rows, mask_rows), nx = gk_conv_fft_length(cols, mask_cols), pitch = 2 * (nx / 2 + 1);
    if (ny > GK_CONV_MAX_N / pitch) /* ny pitch floats: more than any device holds */
        return GK_FAIL(GK_ERROR_UNSUPPORTED, "cuFFT 2D reference: padded buffers above GK_CONV_MAX_N floats");
    gk_cufft_conv2d *p = (gk_cufft_conv2d *)calloc(1, sizeof *p);
    if (p == NULL) return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
    p->rows = rows, p->cols = cols, p->mask_rows = mask_rows, p->mask_cols = mask_cols;
    p->ny = ny, p->nx = nx, p->pitch = pitch;
    gk_status st = alloc_2d(&p->x, ny * pitch);
    if (gk_ok(st)) st = alloc_2d(&p->h, ny * pitch);
    if (gk_ok(st)) st = cufft_status(cufftCreate(&p->r2c), "cufftCreate (2D R2C) failed");
    if (gk_ok(st)) p->have_r2c = 1;
    if (gk_ok(st)) st = plan_2d(p->r2c, ny, nx, pitch, CUFFT_R2C);
    if (gk_ok(st)) st = cufft_status(cufftCreate(&p->c2r), "cufftCreate (2D C2R) failed");
    if (gk_ok(st)) p->have_c2r = 1;
    if (gk_ok(st)) st = plan_2d(p->c2r, ny, nx, pitch, CUFFT_C2R);
    if (!gk_ok(st)) {
        gk_cufft_conv2d_destroy(p);
        return st;
    }
    *plan = p;
    return gk_success();
}

extern "C" gk_status gk_cufft_conv2d_run(gk_cufft_conv2d *p, const float *in, size_t in_stride, const float *mask,
                                         float *out, size_t out_stride, cudaStream_t stream)
{
    if (p == NULL || in == NULL || mask == NULL || out == NULL)
        return GK_FAIL(GK_ERROR_NULL_POINTER, "cuFFT 2D reference: a NULL plan or pointer");
    if (in_stride < p->cols || out_stride < p->cols)
        return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "cuFFT 2D reference: a row stride below cols");
    const size_t mr = p->mask_rows, mc = p->mask_cols, ny = p->ny, nx = p->nx, pitch = p->pitch;
    const size_t spectrum = ny * (nx / 2 + 1);
    /* 1. Both padded arrays, in one pass. */
    pad_inputs<<<grid_2d(pitch, ny), kThreads, 0, stream>>>(in, p->rows, p->cols, in_stride, mask, mr, mc, p->x, p->h,
                                                            ny, pitch);
    GK_CUDA_TRY(cudaGetLastError());
    /* 2. Their spectra, in place. */
    GK_TRY(cufft_status(cufftSetStream(p->r2c, stream), "cufftSetStream failed"));
    GK_TRY(cufft_status(cufftSetStream(p->c2r, stream), "cufftSetStream failed"));
    GK_TRY(cufft_status(cufftExecR2C(p->r2c, p->x, (cufftComplex *)p->x), "cufftExecR2C (2D image) failed"));
    GK_TRY(cufft_status(cufftExecR2C(p->r2c, p->h, (cufftComplex *)p->h), "cufftExecR2C (2D mask) failed"));
    /* 3. The product, scaled by 1/(ny nx) rounded once to float (the
     * tolerance's scaling term, as in 1D). */
    float scale = (float)(1.0 / ((double)ny * (double)nx));
    multiply<<<grid_for(spectrum), kThreads, 0, stream>>>((cufftComplex *)p->x, (const cufftComplex *)p->h, spectrum,
                                                          scale);
    GK_CUDA_TRY(cudaGetLastError());
    /* 4. Back to Y, in place. */
    GK_TRY(cufft_status(cufftExecC2R(p->c2r, (cufftComplex *)p->x, p->x), "cufftExecC2R (2D) failed"));
    /* 5. The window of Y that is out. */
    crop<<<grid_2d(p->cols, p->rows), kThreads, 0, stream>>>(p->x, pitch, mr - 1 - mr / 2, mc - 1 - mc / 2, out,
                                                             p->rows, p->cols, out_stride);
    GK_CUDA_TRY(cudaGetLastError());
    return gk_success();
}

extern "C" void gk_cufft_conv2d_size(const gk_cufft_conv2d *p, size_t *fft_rows, size_t *fft_cols)
{
    if (fft_rows != NULL) *fft_rows = p->ny;
    if (fft_cols != NULL) *fft_cols = p->nx;
}

extern "C" void gk_cufft_conv2d_destroy(gk_cufft_conv2d *p)
{
    if (p == NULL) return;
    release(p->have_r2c, p->r2c, p->have_c2r, p->c2r, p->x, p->h);
    free(p);
}
