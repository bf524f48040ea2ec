/* Element types: see gk/dtype.h. */
#include "gk/dtype.h"

#include <stdint.h>

size_t gk_dtype_size(gk_dtype dtype)
{
    switch (dtype) {
    case GK_F32: return sizeof(float);
    case GK_I32: return sizeof(int32_t);
    case GK_U8: return sizeof(uint8_t);
    case GK_U32: return sizeof(uint32_t);
    default: return 0;
    }
}

const char *gk_dtype_name(gk_dtype dtype)
{
    switch (dtype) {
    case GK_F32: return "f32";
    case GK_I32: return "i32";
    case GK_U8: return "u8";
    case GK_U32: return "u32";
    default: return "?";
    }
}
