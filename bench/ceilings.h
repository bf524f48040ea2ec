/* ceilings.h: the physical limits the bench measures in the same run as the
 * variants, for the modules whose work is moving bytes (bench only).
 *
 *   gk_ceiling_read_stream  reads `bytes` from `p` once, 16-byte loads, as
 *                           fast as the GPU can, and writes nothing that
 *                           matters: the most a read-only kernel (a
 *                           reduction, a histogram) can hope for.
 *   gk_ceiling_copy         a device-to-device copy of `bytes` (cudaMemcpyAsync):
 *                           the limit of a kernel that reads and writes as many
 *                           bytes (a convolution with a small mask).
 */
#ifndef GK_BENCH_CEILINGS_H
#define GK_BENCH_CEILINGS_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* p must be 16-byte aligned (cudaMalloc's are); sink is 4 bytes of device
 * memory the kernel writes only if the data XOR to a value no real input
 * gives, so the compiler must keep every load. */
cudaError_t gk_ceiling_read_stream(const void *p, size_t bytes, unsigned *sink, cudaStream_t stream);
cudaError_t gk_ceiling_copy(void *dst, const void *src, size_t bytes, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
