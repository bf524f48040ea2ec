/* bench.h: how a module joins the one benchmark runner, gk_bench.
 *
 * A module describes itself with one gk_bench_module (the nccl-tests model: a
 * struct of functions per operation, one common runner for the command line,
 * checking, timing and printing). The runner knows nothing about a module's
 * problem: it never parses, prints or computes with a shape, and it never
 * names a module. What it gets from the module:
 *
 *   - Its shape: the module parses and prints its own size strings ("4096",
 *     "4097x3001x2049", "2^28:4096") into an opaque gk_bench_shape.
 *   - Its parameters: named options with allowed values and defaults
 *     (dtype=f32, op=sum); `--param key=v1,v2` on the command line, each
 *     list swept.
 *   - Its cases: the variants, from the module's own table, then the
 *     comparison cases, each with a role: REFERENCE (the library a user would
 *     pick instead: CUB, cuBLAS in fp32, cuBLAS in TF32) or CEILING (the
 *     physical limit measured in the same run: a read-only stream, a device
 *     copy). Each variant names the reference it is compared with (by key),
 *     so a TF32 variant is compared with cuBLAS in TF32.
 *   - Its work per call (bytes that must move, FLOPs), and, per case, which
 *     peak the "% of peak" column uses (DRAM bandwidth, fp32, TF32 or BF16
 *     tensor FLOP/s; gk/device.h says where each comes from); optionally a
 *     second peak for every case of the module, in a column of its own.
 *
 * The runner verifies each case once, times it (gk/timing.h: CUDA events,
 * warm-up, L2 flushed, median),
 * and derives GB/s, TFLOP/s, % of the peak (and of the module's second
 * peak), the ratio to the case's reference, % of the module's ceiling and
 * the speed-up over a baseline case
 * (--vs, default variant 1). A new module is its own bench file and one line
 * in modules.c.
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

/* A problem size, opaque to the runner: the module's axes, in its order. */
#define GK_BENCH_MAX_AXES 4
typedef struct gk_bench_shape {
    size_t v[GK_BENCH_MAX_AXES];
    int count;
} gk_bench_shape;

typedef struct gk_bench_work {
    double bytes_read;    /* the fewest bytes one call must read from device memory */
    double bytes_written; /* ... and write */
    double flops;         /* arithmetic operations of one call */
} gk_bench_work;

/* The peak a case's "% of peak" column is taken against, and a module's
 * optional second peak (gk_bench_module.second_peak). */
typedef enum gk_bench_peak {
    GK_PEAK_NONE = 0, /* no peak: no % column (the second peak of most modules) */
    GK_PEAK_DRAM,     /* bytes read + written per second */
    GK_PEAK_FP32,     /* fp32 FMA pipes, FLOP/s */
    GK_PEAK_TF32,     /* dense tensor cores in TF32, FLOP/s */
    GK_PEAK_BF16,     /* dense tensor cores in BF16, FLOP/s */
    GK_PEAK_FP8,      /* dense tensor cores with FP8 inputs (e4m3, e5m2), FLOP/s */
    GK_PEAK_COUNT
} gk_bench_peak;
/* For a bench file that must build with and without the FP8 peak. */
#define GK_BENCH_HAS_FP8_PEAK 1

typedef enum gk_bench_role {
    GK_ROLE_VARIANT = 0, /* a row of the module's table */
    GK_ROLE_REFERENCE,   /* a library a user would pick instead */
    GK_ROLE_CEILING      /* the physical limit, measured in the same run */
} gk_bench_role;

typedef struct gk_bench_case {
    int id;                /* the variant id (> 0); 0 for a comparison case */
    const char *key;       /* comparison cases: a short unique key ("cub", "cublas_tf32") */
    const char *name;      /* "vectorized_single_pass", "cub::DeviceReduce" */
    const char *idea;      /* one line */
    gk_bench_role role;
    const char *precision; /* what it computes in: "fp32", "tf32", "i32", ... */
    gk_bench_peak peak;    /* which peak its % column uses */
    const char *reference; /* variants: the key of the reference it is compared with (NULL: none) */
} gk_bench_case;

/* A module parameter: `--param key=value` (or the shorthands --dtype, --op).
 * Most parameters take a closed list of values; one that takes an open set
 * (conv's mask width: any positive integer) names a test of a value in
 * `accepts` and says in `values` what it takes, in words. */
typedef struct gk_bench_param_decl {
    const char *key;     /* "dtype" */
    const char *values;  /* the allowed values, comma-separated: "f32,i32" (open: what is taken, in words) */
    const char *deflt;   /* the default, one value or a comma-separated list to sweep */
    const char *help;    /* one line */
    int (*accepts)(const char *value); /* NULL: a closed list, `values`; else non-zero for a value taken */
} gk_bench_param_decl;

/* The parameter values of one run of a module: one value per declared key, in
 * the module's order. */
#define GK_BENCH_MAX_PARAMS 8
typedef struct gk_bench_params {
    const char *value[GK_BENCH_MAX_PARAMS];
    uint64_t seed; /* for the random inputs */
} gk_bench_params;

typedef struct gk_bench_module {
    const char *name;          /* "reduce": what --module selects */
    const char *axes;          /* what a size is: "n", "m x n x k" (names joined by " x ": --sizes sweep:N draws such sizes) */
    const char *size_help;     /* the size strings it takes, e.g. "n: 1000, 2^20, 2^20+13, 16Mi" */
    const char *const *default_sizes; /* size strings */
    size_t num_default_sizes;
    const char *metric;        /* the chart's and the table's main column: "gbps" or "tflops" */
    const gk_bench_param_decl *params;
    size_t num_params;

    /* Parse one size string into *shape: 0 on success, else non-zero with a
     * message in err. Print a shape back as the module writes it. */
    int (*parse_size)(const char *s, gk_bench_shape *shape, char *err, size_t err_size);
    void (*format_size)(const gk_bench_shape *shape, char *buf, size_t size);

    size_t (*num_cases)(void); /* the variants in table order, then the comparison cases */
    gk_bench_case (*case_at)(size_t index);

    /* Allocate inputs for `shape`, fill them with seeded random data, compute
     * the CPU reference where the check needs one, and keep them in `state`:
     * the module's own struct of state_size bytes, which the runner
     * allocates zeroed before setup() and frees after teardown().
     * GK_ERROR_UNSUPPORTED: this shape does not go with these parameters
     * (u8 samples with 4096 bins): the runner says so and moves on. */
    gk_status (*setup)(void *state, const gk_bench_shape *shape, const gk_bench_params *params);
    /* NULL to run the case at this shape; else why it is skipped (a slow
     * variant at a large size), which the table prints as "skipped". May be
     * NULL. */
    const char *(*skip)(void *state, const gk_bench_case *c);
    /* Make `c` the case that run() calls: workspace, checks, poisoned
     * output. GK_ERROR_UNSUPPORTED: the case does not do these params (the
     * runner shows it as n/a, with the status's message). Not timed. */
    gk_status (*prepare)(void *state, const gk_bench_case *c);
    /* One call of the prepared case on `stream`: what is timed. */
    gk_status (*run)(void *state, cudaStream_t stream);
    /* Check the output of the last run() (after the runner synchronised);
     * GK_ERROR_VERIFY_FAILED with the mismatches written to `log`. */
    gk_status (*verify)(void *state, FILE *log);
    gk_bench_work (*work)(void *state);
    /* Short description of the params used, e.g. "f32 sum". */
    const char *(*describe)(void *state);
    /* Free what setup() and prepare() allocated (the state's members; the
     * runner frees the state itself). Also called after a failed setup(),
     * with the members it did not reach still zero. */
    void (*teardown)(void *state);
    /* A second peak every case is also measured against, in a column of its
     * own ("% fp32" next to the DRAM "% of peak" of a convolution, which is
     * memory bound for small masks and arithmetic bound for large ones).
     * GK_PEAK_NONE (what a module that leaves it out gets): no such column. */
    gk_bench_peak second_peak;
    /* Whether case `c` belongs to the parameters of this run at all (gemm's
     * fp32 and TF32 cases in a run with dtype=bf16, its BF16 cases with
     * dtype=f32): the cases that do not get no row, where a case that does
     * belong but cannot run shows as n/a. NULL (what a module that leaves it
     * out gets): every case belongs. Called after setup(). */
    int (*applies)(void *state, const gk_bench_case *c);
    /* The case as it runs with the parameters of this run, for a module whose
     * cases change with a parameter (gemm's variant 17 stores bf16 or fp16
     * as dtype says, and with an epilogue every gemm case is compared with
     * cuBLASLt): it may rewrite the precision, peak and reference of *c; the
     * id, key, name and role stay. Called after setup() for each case that
     * applies, before the row is made. NULL (what a module that leaves it
     * out gets): the case as case_at gives it. */
    void (*in_run)(void *state, gk_bench_case *c);
    size_t state_size; /* sizeof the module's state struct (setup) */
} gk_bench_module;

extern const gk_bench_module *const gk_bench_modules[];
extern const size_t gk_bench_module_count;

/* The index of the module's parameter `key`, or -1. */
int gk_bench_param_index(const gk_bench_module *m, const char *key);

/* ---- Helpers for a module's bench file (support.c) -------------------------- */

/* parse_size for a module whose size is one count n (reduce, conv): n from
 * `s` (gk_parse_size, cli.h) into a one-axis shape, 0 on success. A string
 * that is not a count, or a count below min, gets the message not_a_count
 * in err; one above max gets too_large; both return non-zero. */
int gk_bench_parse_count(const char *s, size_t min, size_t max, const char *not_a_count, const char *too_large,
                         gk_bench_shape *shape, char *err, size_t err_size);
/* format_size for such a shape: n as gk_format_size writes it ("2^20+13"). */
void gk_bench_format_count(const gk_bench_shape *shape, char *buf, size_t size);

/* For prepare(): make the device workspace *ws (*ws_bytes of it) at least
 * `need` bytes, allocating it again when it is smaller, then fill all of it
 * with the byte `poison` (when there is one), so that a variant that reads
 * its workspace before writing it fails its check. */
gk_status gk_bench_poisoned_workspace(void **ws, size_t *ws_bytes, size_t need, int poison);

#ifdef __cplusplus
}
#endif

#endif /* GK_BENCH_H */
