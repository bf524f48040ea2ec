/* The modules that gk_bench runs: one line each. */
#include "bench.h"

extern const gk_bench_module gk_reduce_bench_module;

const gk_bench_module *const gk_bench_modules[] = {
    &gk_reduce_bench_module,
};
const size_t gk_bench_module_count = sizeof gk_bench_modules / sizeof gk_bench_modules[0];
