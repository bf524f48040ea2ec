/* results.h: gk_bench's rows of results, the columns derived from them, and
 * the table, CSV and JSON they are written as. Pure host code with no GPU
 * call, so the CPU tests can build rows by hand and check what comes out.
 */
#ifndef GK_BENCH_RESULTS_H
#define GK_BENCH_RESULTS_H

#include <stddef.h>
#include <stdio.h>

#include "bench.h"
#include "gk/device.h"
#include "gk/timing.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gk_row_state { GK_ROW_OK = 0, GK_ROW_NA, GK_ROW_SKIPPED, GK_ROW_FAILED } gk_row_state;

typedef struct gk_bench_row {
    const gk_bench_module *m;
    gk_bench_shape shape;
    char size[64];   /* the shape as the module prints it */
    char params[64]; /* the module's describe(): "f32 sum" */
    gk_bench_case c;
    gk_row_state state;
    char why[256];   /* n/a, skipped or failed: why */
    gk_timing t;
    gk_bench_work w;
    /* Derived by gk_bench_derive; NAN where there is nothing to compare with. */
    double gbps, tflops;
    double pct_peak;     /* of the peak the case names */
    double pct_second_peak; /* of the module's second peak (NAN when it has none) */
    double vs_reference; /* the reference's time / this time (> 1: faster) */
    double pct_ceiling;  /* the ceiling's time / this time, in % */
    double vs_baseline;  /* the baseline's time / this time */
    const char *reference_name;
} gk_bench_row;

typedef struct gk_bench_results {
    gk_bench_row *rows;
    size_t count, cap;
} gk_bench_results;

/* A zeroed row at the end; NULL when out of host memory. */
gk_bench_row *gk_bench_results_add(gk_bench_results *r);
void gk_bench_results_free(gk_bench_results *r);

/* Peaks per second by gk_bench_peak (bytes/s for DRAM, FLOP/s for the rest;
 * 0 = unknown, and always 0 for GK_PEAK_NONE), from the device's attributes. */
void gk_bench_peaks(const gk_device_info *dev, double peaks[GK_PEAK_COUNT]);
const char *gk_bench_peak_name(gk_bench_peak p);  /* "DRAM", "fp32", "TF32", "BF16"; "none" */
const char *gk_bench_role_name(gk_bench_role r);  /* "variant", "reference", "ceiling" */

/* Fill the derived columns of rows[0..count), which hold the cases of ONE
 * group (one module, one shape, one set of params). baseline: a variant id
 * ("1") or a comparison case's key ("cub"). */
void gk_bench_derive(gk_bench_row *rows, size_t count, const double peaks[GK_PEAK_COUNT], const char *baseline);

/* What the outputs say about the run besides the rows. */
typedef struct gk_bench_run_info {
    const gk_device_info *dev;
    const char *date;     /* "2026-11-23 14:05 UTC" */
    int hot, warmup, min_iters, max_iters;
    double seconds;
    const char *baseline; /* as given to --vs */
} gk_bench_run_info;

void gk_bench_print_table(FILE *f, const gk_bench_run_info *info, const gk_bench_row *rows, size_t count);
void gk_bench_print_csv(FILE *f, const gk_bench_row *rows, size_t count);
/* The JSON document (format "gpukernels-bench-2"): the device and its peaks,
 * the timing, each module that has rows (its axes, metric, second peak or
 * null, parameters and cases with their roles), then the rows (each with
 * pct_second_peak: null for a module without a second peak). info->dev may be NULL (--list): no
 * device, no timing. modules[0..num_modules) are described. */
void gk_bench_write_json(FILE *f, const gk_bench_run_info *info, const gk_bench_module *const *modules,
                         size_t num_modules, const gk_bench_row *rows, size_t count);

#ifdef __cplusplus
}
#endif

#endif /* GK_BENCH_RESULTS_H */
