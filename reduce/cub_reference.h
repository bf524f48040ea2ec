/* cub_reference.h: CUB behind C calls (tests and bench only). With temp ==
 * NULL each stores the temporary storage it needs in *temp_bytes (CUB's
 * query) and does nothing else.
 *   gk_cub_reduce        cub::DeviceReduce, f32 / i32 (dtype 0 / 1), op 0
 *                        sum, 1 max, 2 min.
 *   gk_cub_reduce_typed  every type of gk/reduce.h (dtype = gk_dtype's
 *                        value): DeviceReduce::Sum / Max / Min, for f16 and
 *                        bf16 TransformReduce converting to f32 (the result
 *                        is an f32, as gk_reduce's); op 3 ArgMax, 4 ArgMin
 *                        (value to *out, 64-bit index to *out_index).
 *   gk_cub_segmented     cub::DeviceSegmentedReduce::Sum / Max / Min (op 0-2)
 *                        over segments [begin[s], end[s]); f16 and bf16
 *                        through a converting iterator, f32 results. */
#ifndef GK_CUB_REFERENCE_H
#define GK_CUB_REFERENCE_H

#include <stddef.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t gk_cub_reduce(const void *in, size_t n, int dtype, int op, void *out, void *temp,
                          size_t *temp_bytes, cudaStream_t stream);
cudaError_t gk_cub_reduce_typed(const void *in, size_t n, int dtype, int op, void *out, size_t *out_index,
                                void *temp, size_t *temp_bytes, cudaStream_t stream);
cudaError_t gk_cub_segmented(const void *in, size_t segments, const size_t *begin, const size_t *end, int dtype,
                             int op, void *out, void *temp, size_t *temp_bytes, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
