/* gk/dtype.h: the element types the modules take, shared by all of them.
 *
 * One enum for the library, so that a caller who passes GK_F32 to reduce
 * passes the same value to any other module. Each module's header says which
 * of these types it accepts and rejects the others with
 * GK_ERROR_INVALID_ARGUMENT. The values are stable: new types are appended.
 */
#ifndef GK_DTYPE_H
#define GK_DTYPE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gk_dtype {
    GK_F32 = 0, /* float, IEEE binary32 */
    GK_I32 = 1, /* int32_t, two's complement */
    GK_U8 = 2,  /* uint8_t: bytes (images, text) */
    GK_U32 = 3, /* uint32_t */
    GK_F64 = 4,  /* double, IEEE binary64 */
    GK_F16 = 5,  /* IEEE binary16 (CUDA's __half), stored as 2 bytes */
    GK_BF16 = 6, /* bfloat16 (CUDA's __nv_bfloat16): the top 16 bits of a binary32 */
    GK_I64 = 7,  /* int64_t, two's complement */
    GK_U16 = 8   /* uint16_t */
} gk_dtype;

/* Size in bytes of one element (1, 2, 4 or 8), 0 for a value that is not a
 * gk_dtype. */
size_t gk_dtype_size(gk_dtype dtype);

/* Short name: "f32", "i32", "u8", "u32", "f64", "f16", "bf16", "i64", "u16";
 * "?" for a value that is not a gk_dtype. */
const char *gk_dtype_name(gk_dtype dtype);

#ifdef __cplusplus
}
#endif

#endif /* GK_DTYPE_H */
