/* The modules that gk_bench runs, in this order: one line each. A module
 * named NAME defines `const gk_bench_module gk_NAME_bench_module` in its own
 * bench file (NAME/bench_NAME.c). */
#include "bench.h"

#define GK_BENCH_MODULE_LIST(X) \
    X(reduce)                   \
    X(gemm)                     \
    X(gemm_fp8)                 \
    X(histogram)                \
    X(conv)                     \
    X(conv2d)                   \
    X(conv_depthwise)

#define GK_DECLARE(name) extern const gk_bench_module gk_##name##_bench_module;
GK_BENCH_MODULE_LIST(GK_DECLARE)
#define GK_ENTRY(name) &gk_##name##_bench_module,
const gk_bench_module *const gk_bench_modules[] = {GK_BENCH_MODULE_LIST(GK_ENTRY)};
const size_t gk_bench_module_count = sizeof gk_bench_modules / sizeof gk_bench_modules[0];
