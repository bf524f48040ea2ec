/* CPU tests of gk_bench's results (bench/results.c): the derived columns
 * (GB/s, TFLOP/s, % of the case's own peak and of the module's second peak,
 * the ratio to the case's own reference, % of the ceiling, the baseline), the
 * CSV and the JSON document, from rows built by hand for a made-up module. With a path argument the JSON is also
 * written there, for the test that reads it back (tests/CMakeLists.txt:
 * report_script). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "results.h"

static const char *const sizes[] = {"100x200"};
static int parse(const char *s, gk_bench_shape *sh, char *err, size_t n) { (void)s, (void)sh, (void)err, (void)n; return 1; }
static void format(const gk_bench_shape *sh, char *buf, size_t n) { snprintf(buf, n, "%zux%zu", sh->v[0], sh->v[1]); }

/* Two fp32 variants compared with "lib", one TF32 variant with "lib_tf32",
 * the two references and a ceiling. */
static const gk_bench_case cases[] = {
    {1, NULL, "slow", "the first rung", GK_ROLE_VARIANT, "fp32", GK_PEAK_FP32, "lib"},
    {2, NULL, "fast", "the second \"rung\"", GK_ROLE_VARIANT, "fp32", GK_PEAK_FP32, "lib"},
    {3, NULL, "tensor", "TF32 products", GK_ROLE_VARIANT, "tf32", GK_PEAK_TF32, "lib_tf32"},
    {0, "lib", "Lib fp32", "a vendor library", GK_ROLE_REFERENCE, "fp32", GK_PEAK_FP32, NULL},
    {0, "lib_tf32", "Lib tf32", "the same in TF32", GK_ROLE_REFERENCE, "tf32", GK_PEAK_TF32, NULL},
    {0, "copy", "device copy", "the memory limit", GK_ROLE_CEILING, "-", GK_PEAK_DRAM, NULL},
};
static size_t num_cases(void) { return sizeof cases / sizeof cases[0]; }
static gk_bench_case case_at(size_t i) { return cases[i]; }
/* The made-up module measures every case against DRAM bandwidth too (its
 * second peak); `plain` is the same module without one. */
static const gk_bench_module fake = {"fake", "m x n", "m x n", sizes, 1, "tflops", NULL, 0, parse, format,
                                     num_cases, case_at, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                     GK_PEAK_DRAM, NULL, 0};
static const gk_bench_module plain = {"plain", "m x n", "m x n", sizes, 1, "tflops", NULL, 0, parse, format,
                                      num_cases, case_at, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
                                      GK_PEAK_NONE, NULL, 0};

static int near(double a, double b) { return fabs(a - b) <= 1e-9 * fabs(b); }

int main(int argc, char **argv)
{
    /* ms per case: the TF32 reference fails to run, variant 2 is n/a. */
    const double ms[] = {8.0, 0.0, 0.5, 2.0, 0.25, 1.0};
    const gk_row_state state[] = {GK_ROW_OK, GK_ROW_NA, GK_ROW_OK, GK_ROW_OK, GK_ROW_FAILED, GK_ROW_OK};
    gk_bench_results res = {0};
    for (size_t i = 0; i < num_cases(); ++i) {
        gk_bench_row *r = gk_bench_results_add(&res);
        CHECK(r != NULL, "row");
        r->m = &fake;
        r->shape.v[0] = 100, r->shape.v[1] = 200, r->shape.count = 2;
        format(&r->shape, r->size, sizeof r->size);
        snprintf(r->params, sizeof r->params, "fp32");
        r->c = cases[i];
        r->state = state[i];
        if (state[i] != GK_ROW_OK) snprintf(r->why, sizeof r->why, "why \"%zu\"", i);
        r->t.median_ms = r->t.min_ms = r->t.max_ms = ms[i];
        r->t.iters = 10;
        r->w.bytes_read = 4e9, r->w.bytes_written = 1e9, r->w.flops = 2e12;
    }
    /* Peaks: 10 TB/s, 4 fp32 PFLOP/s... round numbers, TF32 16, BF16 unknown. */
    double peaks[GK_PEAK_COUNT] = {[GK_PEAK_DRAM] = 10e12, [GK_PEAK_FP32] = 4e15, [GK_PEAK_TF32] = 16e15,
                                   [GK_PEAK_BF16] = 0.0};
    gk_bench_derive(res.rows, res.count, peaks, "1");
    gk_bench_row *r = res.rows;
    /* Variant 1: 2e12 FLOP in 8 ms = 250 TFLOP/s; 5e9 bytes in 8 ms = 625 GB/s. */
    CHECK(near(r[0].tflops, 250.0) && near(r[0].gbps, 625.0), "rates %g %g", r[0].tflops, r[0].gbps);
    CHECK(near(r[0].pct_peak, 100.0 * 250e12 / 4e15), "%% of its own peak (fp32): %g", r[0].pct_peak);
    CHECK(near(r[0].vs_reference, 2.0 / 8.0) && strcmp(r[0].reference_name, "Lib fp32") == 0,
          "fp32 variant against the fp32 reference: %g", r[0].vs_reference);
    CHECK(near(r[0].vs_baseline, 1.0) && near(r[2].vs_baseline, 16.0), "baseline variant 1: %g %g",
          r[0].vs_baseline, r[2].vs_baseline);
    CHECK(near(r[0].pct_ceiling, 100.0 * 1.0 / 8.0), "%% of the ceiling %g", r[0].pct_ceiling);
    CHECK(near(r[2].pct_peak, 100.0 * 4000e12 / 16e15), "TF32 variant against the TF32 peak: %g", r[2].pct_peak);
    CHECK(near(r[0].pct_second_peak, 100.0 * 625e9 / 10e12) && near(r[2].pct_second_peak, 100.0 * 10000e9 / 10e12),
          "every case also against the module's second peak (DRAM): %g %g", r[0].pct_second_peak,
          r[2].pct_second_peak);
    CHECK(isnan(r[1].pct_second_peak), "an n/a row has no second %% either");
    CHECK(isnan(r[2].vs_reference) && strcmp(r[2].reference_name, "Lib tf32") == 0,
          "its reference failed: no ratio, but the name is known");
    CHECK(isnan(r[1].tflops) && isnan(r[1].vs_reference), "an n/a row has no numbers");
    CHECK(isnan(r[3].vs_reference) && r[3].reference_name == NULL, "a reference has no reference");
    CHECK(near(r[5].pct_ceiling, 100.0) && near(r[5].pct_peak, 100.0 * 5e9 / 1e-3 / 10e12),
          "the ceiling is 100%% of itself, and its %% of peak is of DRAM: %g", r[5].pct_peak);
    gk_bench_derive(res.rows, res.count, peaks, "lib");
    CHECK(near(r[2].vs_baseline, 4.0) && near(r[0].vs_baseline, 0.25), "--vs lib: %g", r[2].vs_baseline);
    gk_bench_derive(res.rows, res.count, peaks, "7");
    CHECK(isnan(r[0].vs_baseline), "an absent baseline gives no ratio");
    double no_bf16[GK_PEAK_COUNT] = {[GK_PEAK_DRAM] = 10e12, [GK_PEAK_FP32] = 4e15};
    gk_bench_derive(res.rows, res.count, no_bf16, "1");
    CHECK(isnan(r[2].pct_peak), "an unknown peak gives n/a, not a guess");
    for (size_t i = 0; i < res.count; ++i) r[i].m = &plain;
    gk_bench_derive(res.rows, res.count, peaks, "1");
    CHECK(isnan(r[0].pct_second_peak) && near(r[0].pct_peak, 100.0 * 250e12 / 4e15),
          "a module without a second peak: no second %%, the first unchanged");
    for (size_t i = 0; i < res.count; ++i) r[i].m = &fake;
    gk_bench_derive(res.rows, res.count, peaks, "1");

    gk_device_info dev;
    memset(&dev, 0, sizeof dev);
    snprintf(dev.name, sizeof dev.name, "Test GPU");
    dev.cc_major = 9, dev.sm_count = 132, dev.runtime_version = 13000, dev.driver_version = 13000;
    dev.peak_dram_bytes_per_s = 10e12, dev.peak_fp32_flops = 4e15, dev.peak_tf32_flops = 16e15;
    gk_bench_run_info info = {&dev, "2026-11-23 12:00 UTC", 0, 3, 10, 200, 0.5, "1"};
    const gk_bench_module *mods[] = {&fake};
    FILE *tmp = tmpfile();
    CHECK(tmp != NULL, "tmpfile");
    if (tmp == NULL) return check_summary("test_bench_results");
    gk_bench_write_json(tmp, &info, mods, 1, res.rows, res.count);
    long len = ftell(tmp);
    char *buf = (char *)calloc((size_t)len + 1, 1);
    rewind(tmp);
    CHECK(buf != NULL && fread(buf, 1, (size_t)len, tmp) == (size_t)len, "read back");
    fclose(tmp);
    CHECK(strstr(buf, "\"format\": \"gpukernels-bench-2\"") != NULL, "format");
    CHECK(strstr(buf, "\"peak_bf16_tflops\": null") != NULL, "unknown peak is null");
    CHECK(strstr(buf, "\"role\": \"ceiling\"") && strstr(buf, "\"reference\": \"lib_tf32\""), "roles and references");
    CHECK(strstr(buf, "the second \\\"rung\\\"") != NULL, "strings escaped");
    CHECK(strstr(buf, "\"size\": \"100x200\", \"shape\": [100, 200]") != NULL, "size as the module prints it");
    CHECK(strstr(buf, "\"status\": \"n/a\", \"why\": \"why \\\"1\\\"\"") != NULL, "n/a with its reason");
    CHECK(strstr(buf, "\"metric\": \"tflops\", \"second_peak\": \"DRAM\"") != NULL, "the module's second peak");
    CHECK(strstr(buf, "\"pct_peak\": 6.25, \"pct_second_peak\": 6.25") != NULL,
          "a row's %% of its peak and of the second peak");
    free(buf);

    /* The table: a column of the second peak, named by it, in the group of
     * a module that has one. */
    tmp = tmpfile();
    CHECK(tmp != NULL, "tmpfile");
    if (tmp == NULL) return check_summary("test_bench_results");
    gk_bench_print_table(tmp, &info, res.rows, res.count);
    len = ftell(tmp);
    buf = (char *)calloc((size_t)len + 1, 1);
    rewind(tmp);
    CHECK(buf != NULL && fread(buf, 1, (size_t)len, tmp) == (size_t)len, "read back");
    fclose(tmp);
    CHECK(strstr(buf, " %peak of     %DRAM   vs ref") != NULL && strstr(buf, "  6.2 fp32     6.2    0.25x") != NULL &&
              strstr(buf, "second peak") != NULL,
          "table with the second peak:\n%s", buf);
    free(buf);

    /* CSV: the second peak's two columns come last, on every line, so the
     * columns before them keep their places. */
    tmp = tmpfile();
    CHECK(tmp != NULL, "tmpfile");
    if (tmp == NULL) return check_summary("test_bench_results");
    gk_bench_print_csv(tmp, res.rows, res.count);
    rewind(tmp);
    char line[1024];
    int lines = 0, commas_first = -1, same = 1;
    while (fgets(line, sizeof line, tmp) != NULL) {
        int commas = 0;
        for (const char *c = line; *c; ++c) commas += *c == ',';
        if (commas_first < 0) {
            commas_first = commas;
            CHECK(strstr(line, ",pct_ceiling,second_peak,pct_second_peak\n") != NULL, "CSV header: %s", line);
        }
        same &= commas == commas_first;
        if (lines == 1) CHECK(strstr(line, ",DRAM,6.250\n") != NULL, "CSV row: %s", line);
        if (lines == 2) CHECK(strstr(line, ",n/a,,,,,,,,,,,DRAM,\n") != NULL, "CSV n/a row: %s", line);
        ++lines;
    }
    fclose(tmp);
    CHECK(lines == 1 + (int)res.count && same, "CSV: %d lines, every one with %d commas", lines, commas_first);
    if (argc > 1) {
        FILE *f = fopen(argv[1], "w");
        CHECK(f != NULL, "open %s", argv[1]);
        if (f) {
            gk_bench_write_json(f, &info, mods, 1, res.rows, res.count);
            fclose(f);
        }
    }
    gk_bench_results_free(&res);
    return check_summary("test_bench_results");
}
