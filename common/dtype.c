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
    case GK_F64: return sizeof(double);
    case GK_F16: return sizeof(uint16_t);
    case GK_BF16: return sizeof(uint16_t);
    case GK_I64: return sizeof(int64_t);
    case GK_U16: return sizeof(uint16_t);
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
    case GK_F64: return "f64";
    case GK_F16: return "f16";
    case GK_BF16: return "bf16";
    case GK_I64: return "i64";
    case GK_U16: return "u16";
    default: return "?";
    }
}
