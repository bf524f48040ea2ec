/* cub_reference.h: cub::DeviceReduce behind a C call (tests and bench only).
 * dtype 0 = float, 1 = int32; op 0 = sum, 1 = max, 2 = min. With temp == NULL
 * it stores the temporary storage it needs in *temp_bytes (CUB's query). */
#ifndef GK_CUB_REFERENCE_H
#define GK_CUB_REFERENCE_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t gk_cub_reduce(const void *in, size_t n, int dtype, int op, void *out, void *temp,
                          size_t *temp_bytes, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
