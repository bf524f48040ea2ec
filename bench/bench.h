/* bench.h: how a module joins the one benchmark runner, gk_bench.
 *
 * A module describes itself with one gk_bench_module (the nccl-tests model: a
 * struct of functions per operation, one common runner for the command line,
 * checking, timing and printing). Its cases are its variants, from its own
 * table, and the reference library's call, which the runner times in the
 * same run. Each call's work is declared (bytes read and written, FLOPs), and
 * the runner turns the median time into GB/s, TFLOP/s and % of the device's
 * peak. A new module is a new gk_bench_module and one line in modules.c; the
 * runner does not change.
 */
#ifndef GK_BENCH_H
#define GK_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cuda_runtime_api.h>

#include "gk/status.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gk_bench_work {
    double bytes_read;    /* the fewest bytes one call must read from device memory */
    double bytes_written; /* ... and write */
    double flops;         /* arithmetic operations of one call */
} gk_bench_work;

typedef struct gk_bench_case {
    int id;            /* the variant id, or 0 for the reference */
    const char *name;  /* "vectorized_single_pass", "cub::DeviceReduce" */
    const char *idea;  /* one line */
    int is_reference;
} gk_bench_case;

/* Options the runner passes to every module (from the command line). */
typedef struct gk_bench_params {
    const char *dtype; /* "f32", "i32", ... or NULL for the module's default */
    const char *op;    /* "sum", "max", ... or NULL for the module's default */
    uint64_t seed;     /* for the random inputs */
} gk_bench_params;

typedef struct gk_bench_module {
    const char *name;            /* "reduce": what --module selects */
    const char *size_meaning;    /* "n (elements)" */
    const size_t *default_sizes;
    size_t num_default_sizes;
    const char *bound;           /* "memory" or "compute": which peak the % column uses */

    size_t (*num_cases)(void);   /* the variants, then the reference (last) */
    gk_bench_case (*case_at)(size_t index);

    /* Allocate inputs for `size`, fill them with seeded random data, compute
     * the CPU reference. *state is the module's. */
    gk_status (*setup)(void **state, size_t size, const gk_bench_params *params);
    /* Make `c` the case that run() calls: workspace, checks, poisoned
     * output. GK_ERROR_UNSUPPORTED: the case does not do these params (the
     * runner shows it as n/a). Not timed. */
    gk_status (*prepare)(void *state, const gk_bench_case *c);
    /* One call of the prepared case on `stream`: what is timed. */
    gk_status (*run)(void *state, cudaStream_t stream);
    /* Check the output of the last run() (after the runner synchronised);
     * GK_ERROR_VERIFY_FAILED with the mismatches written to `log`. */
    gk_status (*verify)(void *state, FILE *log);
    gk_bench_work (*work)(void *state);
    /* Short description of the params used, e.g. "f32 sum". */
    const char *(*describe)(void *state);
    void (*teardown)(void *state);
} gk_bench_module;

extern const gk_bench_module *const gk_bench_modules[];
extern const size_t gk_bench_module_count;

#ifdef __cplusplus
}
#endif

#endif /* GK_BENCH_H */
