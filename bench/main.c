/* gk_bench: the one benchmark runner of gpukernels.
 *
 * For every module (bench.h), size and case: run once and verify against the
 * CPU reference, then time with CUDA events (warm-up, L2 flushed before each
 * sample, median of many), turn the median into GB/s (or TFLOP/s) from the
 * work the module declares and into % of the device's theoretical peak, and
 * compare with variant 1 and with the reference library timed in the same
 * run. Prints a table (or CSV) on stdout, progress on stderr, and JSON on
 * request. See `gk_bench --help`.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "bench.h"
#include "cli.h"
#include "gk/cuda_check.h"
#include "gk/device.h"
#include "gk/timing.h"

enum { ROW_OK = 0, ROW_NA = 1, ROW_FAILED = 2 };

typedef struct row {
    const gk_bench_module *m;
    size_t size;
    char params[48];
    gk_bench_case c;
    int state;
    char why[160];
    gk_timing t;
    gk_bench_work w;
    double gbps, tflops, pct_peak, speedup_first, vs_reference;
} row;

static row *rows;
static size_t nrows, cap_rows;

static row *new_row(void)
{
    if (nrows == cap_rows) {
        cap_rows = cap_rows ? 2 * cap_rows : 64;
        rows = (row *)realloc(rows, cap_rows * sizeof *rows);
        if (rows == NULL) {
            fprintf(stderr, "gk_bench: out of host memory\n");
            exit(1);
        }
    }
    memset(&rows[nrows], 0, sizeof rows[nrows]);
    return &rows[nrows++];
}

static int selected_variant(const gk_bench_cli *cli, const gk_bench_case *c)
{
    if (c->is_reference) return !cli->no_reference;
    if (cli->num_variants == 0) return 1;
    for (int i = 0; i < cli->num_variants; ++i)
        if (cli->variants[i] == c->id) return 1;
    return 0;
}

static void list_modules(void)
{
    for (size_t m = 0; m < gk_bench_module_count; ++m) {
        const gk_bench_module *mod = gk_bench_modules[m];
        printf("module %s (size: %s; default sizes:", mod->name, mod->size_meaning);
        for (size_t s = 0; s < mod->num_default_sizes; ++s) {
            char b[32];
            gk_format_size(mod->default_sizes[s], b, sizeof b);
            printf(" %s", b);
        }
        printf(")\n");
        for (size_t i = 0; i < mod->num_cases(); ++i) {
            gk_bench_case c = mod->case_at(i);
            if (c.is_reference) printf("  ref %-26s %s\n", c.name, c.idea);
            else printf("  %3d %-26s %s\n", c.id, c.name, c.idea);
        }
    }
}

static void fail_status(const char *what, gk_status s)
{
    char buf[512];
    gk_status_format(s, buf, sizeof buf);
    fprintf(stderr, "gk_bench: %s: %s\n", what, buf);
}

/* The derived columns of the rows of one (module, size, params) group. */
static void derive(size_t first, size_t last, const gk_device_info *dev)
{
    double t_first = NAN, t_ref = NAN;
    for (size_t i = first; i < last; ++i) {
        row *r = &rows[i];
        if (r->state != ROW_OK) continue;
        if (r->c.is_reference) t_ref = r->t.median_ms;
        else if (r->c.id == 1) t_first = r->t.median_ms;
    }
    for (size_t i = first; i < last; ++i) {
        row *r = &rows[i];
        if (r->state != ROW_OK) continue;
        double s = r->t.median_ms * 1e-3;
        r->gbps = (r->w.bytes_read + r->w.bytes_written) / s * 1e-9;
        r->tflops = r->w.flops / s * 1e-12;
        if (strcmp(r->m->bound, "compute") == 0)
            r->pct_peak = dev->peak_fp32_flops > 0 ? 100.0 * r->w.flops / s / dev->peak_fp32_flops : NAN;
        else
            r->pct_peak = 100.0 * (r->w.bytes_read + r->w.bytes_written) / s / dev->peak_dram_bytes_per_s;
        r->speedup_first = t_first / r->t.median_ms;
        r->vs_reference = t_ref / r->t.median_ms;
    }
}

static void print_num(double v, const char *fmt, int width)
{
    if (isnan(v)) printf("%*s", width, "-");
    else printf(fmt, width, v);
}

static void print_table(const gk_device_info *dev, const gk_bench_cli *cli, const char *date)
{
    printf("\ngpukernels bench  %s  %s (sm_%d%d, %d SMs, L2 %d MiB), peak DRAM %.0f GB/s, peak fp32 %.1f TFLOP/s\n",
           date, dev->name, dev->cc_major, dev->cc_minor, dev->sm_count, dev->l2_bytes >> 20,
           dev->peak_dram_bytes_per_s * 1e-9, dev->peak_fp32_flops * 1e-12);
    printf("CUDA runtime %d.%d, driver %d.%d; %s L2; median of >= %d timed calls after %d warm-up\n",
           dev->runtime_version / 1000, dev->runtime_version % 1000 / 10, dev->driver_version / 1000,
           dev->driver_version % 1000 / 10, cli->hot ? "hot" : "cold (flushed)", cli->min_iters, cli->warmup);
    char prev[128] = "", group[128];
    for (size_t i = 0; i < nrows; ++i) {
        row *r = &rows[i];
        char sz[32];
        gk_format_size(r->size, sz, sizeof sz);
        snprintf(group, sizeof group, "%s %s n=%s", r->m->name, r->params, sz);
        if (strcmp(group, prev) != 0) {
            printf("\n%s\n", group);
            printf("  %3s  %-26s %11s %11s %9s %7s %8s %8s\n", "id", "variant", "median ms", "min ms", "GB/s",
                   "%peak", "vs v1", "vs ref");
            snprintf(prev, sizeof prev, "%s", group);
        }
        if (r->c.is_reference) printf("  %3s  %-26s", "ref", r->c.name);
        else printf("  %3d  %-26s", r->c.id, r->c.name);
        if (r->state == ROW_NA) {
            printf(" n/a (%s)\n", r->why);
            continue;
        }
        if (r->state == ROW_FAILED) {
            printf(" FAILED: %s\n", r->why);
            continue;
        }
        printf(" %11.4f %11.4f", r->t.median_ms, r->t.min_ms);
        print_num(r->gbps, " %*.1f", 9);
        print_num(r->pct_peak, " %*.1f", 7);
        print_num(r->speedup_first, " %*.2fx", 7);
        print_num(r->vs_reference, " %*.2fx", 7);
        printf("\n");
    }
    printf("\nvs v1: speed-up over variant 1; vs ref: reference time / this time (> 1: faster than the reference)\n");
}

static void print_csv(void)
{
    printf("module,params,size,id,name,is_reference,status,median_ms,min_ms,max_ms,iters,gbps,tflops,pct_peak,"
           "speedup_vs_first,vs_reference\n");
    for (size_t i = 0; i < nrows; ++i) {
        row *r = &rows[i];
        printf("%s,%s,%zu,%d,%s,%d,%s", r->m->name, r->params, r->size, r->c.id, r->c.name, r->c.is_reference,
               r->state == ROW_OK ? "ok" : r->state == ROW_NA ? "n/a" : "failed");
        if (r->state == ROW_OK)
            printf(",%.6f,%.6f,%.6f,%d,%.3f,%.6f,%.3f,%.4f,%.4f\n", r->t.median_ms, r->t.min_ms, r->t.max_ms,
                   r->t.iters, r->gbps, r->tflops, r->pct_peak, r->speedup_first, r->vs_reference);
        else printf(",,,,,,,,,\n");
    }
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; ++s) {
        if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", *s);
        else fputc(*s, f);
    }
    fputc('"', f);
}

static void json_num(FILE *f, double v)
{
    if (isnan(v) || isinf(v)) fprintf(f, "null");
    else fprintf(f, "%.9g", v);
}

static int write_json(const char *path, const gk_device_info *dev, const gk_bench_cli *cli, const char *date)
{
    FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "gk_bench: cannot write %s\n", path);
        return 1;
    }
    fprintf(f, "{\n  \"format\": \"gpukernels-bench-1\",\n  \"date\": ");
    json_str(f, date);
    fprintf(f, ",\n  \"device\": {\"name\": ");
    json_str(f, dev->name);
    fprintf(f, ", \"cc\": \"%d.%d\", \"sm_count\": %d, \"l2_bytes\": %d, \"total_mem_bytes\": %zu, "
               "\"peak_dram_gbps\": %.3f, \"peak_fp32_tflops\": %.3f},\n",
            dev->cc_major, dev->cc_minor, dev->sm_count, dev->l2_bytes, dev->total_mem_bytes,
            dev->peak_dram_bytes_per_s * 1e-9, dev->peak_fp32_flops * 1e-12);
    fprintf(f, "  \"cuda\": {\"runtime\": \"%d.%d\", \"driver\": \"%d.%d\"},\n", dev->runtime_version / 1000,
            dev->runtime_version % 1000 / 10, dev->driver_version / 1000, dev->driver_version % 1000 / 10);
    fprintf(f, "  \"timing\": {\"l2\": \"%s\", \"warmup\": %d, \"min_iters\": %d, \"max_iters\": %d, "
               "\"seconds\": %g, \"statistic\": \"median\"},\n",
            cli->hot ? "hot" : "cold", cli->warmup, cli->min_iters, cli->max_iters, cli->seconds);
    fprintf(f, "  \"results\": [\n");
    for (size_t i = 0; i < nrows; ++i) {
        row *r = &rows[i];
        fprintf(f, "    {\"module\": ");
        json_str(f, r->m->name);
        fprintf(f, ", \"params\": ");
        json_str(f, r->params);
        fprintf(f, ", \"size\": %zu, \"id\": %d, \"name\": ", r->size, r->c.id);
        json_str(f, r->c.name);
        fprintf(f, ", \"idea\": ");
        json_str(f, r->c.idea);
        fprintf(f, ", \"is_reference\": %s, \"status\": \"%s\"", r->c.is_reference ? "true" : "false",
                r->state == ROW_OK ? "ok" : r->state == ROW_NA ? "n/a" : "failed");
        if (r->state == ROW_OK) {
            fprintf(f, ", \"median_ms\": ");
            json_num(f, r->t.median_ms);
            fprintf(f, ", \"min_ms\": ");
            json_num(f, r->t.min_ms);
            fprintf(f, ", \"max_ms\": ");
            json_num(f, r->t.max_ms);
            fprintf(f, ", \"iters\": %d, \"bytes\": ", r->t.iters);
            json_num(f, r->w.bytes_read + r->w.bytes_written);
            fprintf(f, ", \"flops\": ");
            json_num(f, r->w.flops);
            fprintf(f, ", \"gbps\": ");
            json_num(f, r->gbps);
            fprintf(f, ", \"pct_peak\": ");
            json_num(f, r->pct_peak);
            fprintf(f, ", \"speedup_vs_first\": ");
            json_num(f, r->speedup_first);
            fprintf(f, ", \"vs_reference\": ");
            json_num(f, r->vs_reference);
        } else {
            fprintf(f, ", \"why\": ");
            json_str(f, r->why);
        }
        fprintf(f, "}%s\n", i + 1 < nrows ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
    if (f != stdout) fclose(f);
    return 0;
}

int main(int argc, char **argv)
{
    gk_bench_cli cli;
    char err[256];
    if (gk_bench_parse(argc, argv, &cli, err, sizeof err) != 0) {
        fprintf(stderr, "gk_bench: %s\n", err);
        return 2;
    }
    if (cli.help) {
        fputs(gk_bench_usage, stdout);
        return 0;
    }
    if (cli.list) {
        list_modules();
        return 0;
    }
    int any_module = 0;
    for (size_t m = 0; m < gk_bench_module_count; ++m)
        any_module |= cli.module == NULL || strcmp(cli.module, gk_bench_modules[m]->name) == 0;
    if (!any_module) {
        fprintf(stderr, "gk_bench: no module named '%s' (see --list)\n", cli.module);
        return 2;
    }

    int ndev = 0;
    gk_status st = gk_device_count(&ndev);
    if (!gk_ok(st)) {
        char buf[512];
        gk_status_format(st, buf, sizeof buf);
        fprintf(stderr,
                "gk_bench: no CUDA-capable GPU is visible, and the benchmark needs one.\n"
                "  (%s)\n"
                "  The CPU part of the test suite runs without a GPU: see README.md.\n",
                buf);
        return 2;
    }
    gk_device_info dev;
    st = gk_device_query(0, &dev);
    if (!gk_ok(st)) {
        fail_status("reading the device's attributes", st);
        return 2;
    }

    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M UTC", gmtime(&now));

    gk_l2_flusher flusher = {0};
    cudaStream_t stream = NULL;
    if (!cli.hot && !gk_ok(st = gk_l2_flusher_create(&flusher, &dev))) {
        fail_status("allocating the L2 flush buffer", st);
        return 1;
    }
    if (!gk_ok(st = GK_CUDA_STATUS(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)))) {
        fail_status("creating a stream", st);
        return 1;
    }
    gk_timing_opts topts = {cli.warmup, cli.min_iters, cli.max_iters, cli.seconds};
    gk_bench_params params = {cli.dtype, cli.op, cli.seed};
    int failures = 0;

    for (size_t mi = 0; mi < gk_bench_module_count; ++mi) {
        const gk_bench_module *mod = gk_bench_modules[mi];
        if (cli.module != NULL && strcmp(cli.module, mod->name) != 0) continue;
        const size_t *sizes = cli.num_sizes ? cli.sizes : mod->default_sizes;
        size_t nsizes = cli.num_sizes ? (size_t)cli.num_sizes : mod->num_default_sizes;
        for (size_t si = 0; si < nsizes; ++si) {
            char sz[32];
            gk_format_size(sizes[si], sz, sizeof sz);
            void *state = NULL;
            if (!cli.quiet) fprintf(stderr, "[%s n=%s] generating inputs and the CPU reference...\n", mod->name, sz);
            st = mod->setup(&state, sizes[si], &params);
            if (!gk_ok(st)) {
                fail_status("setting up the inputs", st);
                if (state != NULL) mod->teardown(state);
                ++failures;
                if (st.code == GK_ERROR_INVALID_ARGUMENT) return 2;
                continue;
            }
            size_t group_first = nrows;
            for (size_t ci = 0; ci < mod->num_cases(); ++ci) {
                gk_bench_case c = mod->case_at(ci);
                if (!selected_variant(&cli, &c)) continue;
                row *r = new_row();
                r->m = mod;
                r->size = sizes[si];
                r->c = c;
                snprintf(r->params, sizeof r->params, "%s", mod->describe(state));
                if (!cli.quiet) fprintf(stderr, "[%s %s n=%s] %s ", mod->name, r->params, sz, c.name);
                st = mod->prepare(state, &c);
                if (st.code == GK_ERROR_UNSUPPORTED) {
                    r->state = ROW_NA;
                    snprintf(r->why, sizeof r->why, "%s", st.what ? st.what : "unsupported");
                    if (!cli.quiet) fprintf(stderr, "n/a\n");
                    continue;
                }
                /* Verify first: one call, synchronised, compared with the CPU reference. */
                if (gk_ok(st)) st = mod->run(state, stream);
                if (gk_ok(st)) st = GK_CUDA_STATUS(cudaStreamSynchronize(stream));
                if (gk_ok(st)) st = mod->verify(state, stderr);
                if (gk_ok(st)) st = gk_time_gpu(mod->run, state, stream, &topts, cli.hot ? NULL : &flusher, &r->t);
                if (!gk_ok(st)) {
                    r->state = ROW_FAILED;
                    gk_status_format(st, r->why, sizeof r->why);
                    ++failures;
                    if (!cli.quiet) fprintf(stderr, "FAILED\n");
                    if (st.code == GK_ERROR_CUDA) { /* a sticky error spoils the rest of the run */
                        fail_status("CUDA", st);
                        mod->teardown(state);
                        goto done;
                    }
                    continue;
                }
                r->w = mod->work(state);
                if (!cli.quiet) fprintf(stderr, "%.4f ms\n", r->t.median_ms);
            }
            mod->teardown(state);
            derive(group_first, nrows, &dev);
        }
    }
done:
    if (cli.csv) print_csv();
    else print_table(&dev, &cli, date);
    if (cli.json_path != NULL && write_json(cli.json_path, &dev, &cli, date) != 0) ++failures;
    gk_l2_flusher_destroy(&flusher);
    cudaStreamDestroy(stream);
    free(rows);
    if (failures) fprintf(stderr, "gk_bench: %d case(s) failed\n", failures);
    return failures ? 1 : 0;
}
