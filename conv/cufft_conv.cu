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

namespace {

constexpr int kThreads = 256;

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
    if (p->have_r2c) cufftDestroy(p->r2c);
    if (p->have_c2r) cufftDestroy(p->c2r);
    cudaFree(p->x);
    cudaFree(p->h);
    free(p);
}
