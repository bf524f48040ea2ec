/* gk/dtype.h: the element types the modules take, shared by all of them.
 *
 * One enum for the library, so that a caller who passes GK_F32 to reduce
 * passes the same value to any other module. Each module says which of these
 * types it accepts (reduce: GK_F32 and GK_I32; histogram: GK_U8 and GK_U32)
 * and rejects the others with GK_ERROR_INVALID_ARGUMENT.
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
    GK_U32 = 3  /* uint32_t */
} gk_dtype;

/* Size in bytes of one element (1 for GK_U8, 4 for the others), 0 for a
 * value that is not a gk_dtype. */
size_t gk_dtype_size(gk_dtype dtype);

/* Short name: "f32", "i32", "u8", "u32"; "?" for a value that is not a gk_dtype. */
const char *gk_dtype_name(gk_dtype dtype);

#ifdef __cplusplus
}
#endif

#endif /* GK_DTYPE_H */
