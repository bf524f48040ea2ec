/* gk/cuda_check.h: the one way host code turns a CUDA runtime call into a
 * gk_status.
 *
 *   GK_CUDA_TRY(cudaMemsetAsync(p, 0, bytes, stream));
 *
 * evaluates the call once; if it does not return cudaSuccess, the enclosing
 * function returns a GK_ERROR_CUDA status holding the error, the text of the
 * call, the file and the line. GK_CUDA_STATUS(call) gives that status as a
 * value instead of returning it. After a kernel launch, GK_CUDA_TRY(
 * cudaGetLastError()) catches a launch that failed (bad configuration, no
 * kernel image for this GPU). Neither prints anything.
 */
#ifndef GK_CUDA_CHECK_H
#define GK_CUDA_CHECK_H

#include <cuda_runtime_api.h>

#include "gk/status.h"

#define GK_CUDA_STATUS(call)                                                    \
    gk_cuda_status_((call), #call, __FILE__, __LINE__)

#define GK_CUDA_TRY(call)                                                       \
    do {                                                                        \
        gk_status gk_cuda_s_ = GK_CUDA_STATUS(call);                            \
        if (gk_cuda_s_.code != GK_SUCCESS) return gk_cuda_s_;                   \
    } while (0)

static inline gk_status gk_cuda_status_(cudaError_t err, const char *call, const char *file,
                                        int line)
{
    if (err == cudaSuccess) return gk_success();
    /* "no device" is its own code: programs report it differently (a skip in
     * the tests, a clear message and exit code in the bench). */
    if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver)
        return gk_status_make(GK_ERROR_NO_DEVICE, (int)err, call, file, line);
    return gk_status_make(GK_ERROR_CUDA, (int)err, call, file, line);
}

#endif /* GK_CUDA_CHECK_H */
