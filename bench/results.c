/* gk_bench's results: see results.h. */
#include "results.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

gk_bench_row *gk_bench_results_add(gk_bench_results *r)
{
    if (r->count == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 64;
        gk_bench_row *rows = (gk_bench_row *)realloc(r->rows, cap * sizeof *rows);
        if (rows == NULL) return NULL;
        r->rows = rows;
        r->cap = cap;
    }
    gk_bench_row *row = &r->rows[r->count++];
    memset(row, 0, sizeof *row);
    return row;
}

void gk_bench_results_free(gk_bench_results *r)
{
    free(r->rows);
    memset(r, 0, sizeof *r);
}

void gk_bench_peaks(const gk_device_info *dev, double peaks[GK_PEAK_COUNT])
{
    peaks[GK_PEAK_NONE] = 0.0;
    peaks[GK_PEAK_DRAM] = dev->peak_dram_bytes_per_s;
    peaks[GK_PEAK_FP32] = dev->peak_fp32_flops;
    peaks[GK_PEAK_TF32] = dev->peak_tf32_flops;
    peaks[GK_PEAK_BF16] = dev->peak_bf16_flops;
    peaks[GK_PEAK_FP8] = dev->peak_fp8_flops;
}

const char *gk_bench_peak_name(gk_bench_peak p)
{
    switch (p) {
    case GK_PEAK_DRAM: return "DRAM";
    case GK_PEAK_FP32: return "fp32";
    case GK_PEAK_TF32: return "TF32";
    case GK_PEAK_BF16: return "BF16";
    case GK_PEAK_FP8: return "FP8";
    case GK_PEAK_NONE: return "none";
    default: return "?";
    }
}

const char *gk_bench_role_name(gk_bench_role r)
{
    switch (r) {
    case GK_ROLE_VARIANT: return "variant";
    case GK_ROLE_REFERENCE: return "reference";
    case GK_ROLE_CEILING: return "ceiling";
    default: return "?";
    }
}

/* Does the case match a baseline given as a variant id or a key? */
static int is_baseline(const gk_bench_case *c, const char *baseline)
{
    if (baseline == NULL || *baseline == '\0') return 0;
    char *end;
    long id = strtol(baseline, &end, 10);
    if (*end == '\0') return c->role == GK_ROLE_VARIANT && c->id == id;
    return c->role != GK_ROLE_VARIANT && c->key != NULL && strcmp(c->key, baseline) == 0;
}

/* The row's rate as a % of peak p: bytes per second against DRAM, FLOPs per
 * second against the rest; NAN for GK_PEAK_NONE or a peak not known. */
static double pct_of(const gk_bench_row *r, gk_bench_peak p, const double peaks[GK_PEAK_COUNT], double seconds)
{
    double peak = (unsigned)p < GK_PEAK_COUNT ? peaks[p] : 0.0;
    if (p == GK_PEAK_NONE || !(peak > 0)) return NAN;
    double rate = p == GK_PEAK_DRAM ? (r->w.bytes_read + r->w.bytes_written) / seconds : r->w.flops / seconds;
    return 100.0 * rate / peak;
}

static gk_bench_peak second_peak(const gk_bench_row *r) { return r->m != NULL ? r->m->second_peak : GK_PEAK_NONE; }

void gk_bench_derive(gk_bench_row *rows, size_t count, const double peaks[GK_PEAK_COUNT], const char *baseline)
{
    double t_base = NAN, t_ceiling = NAN;
    for (size_t i = 0; i < count; ++i) {
        const gk_bench_row *r = &rows[i];
        if (r->state != GK_ROW_OK) continue;
        if (is_baseline(&r->c, baseline)) t_base = r->t.median_ms;
        if (r->c.role == GK_ROLE_CEILING && isnan(t_ceiling)) t_ceiling = r->t.median_ms;
    }
    for (size_t i = 0; i < count; ++i) {
        gk_bench_row *r = &rows[i];
        r->gbps = r->tflops = r->pct_peak = r->pct_second_peak = r->vs_reference = r->pct_ceiling = r->vs_baseline =
            NAN;
        r->reference_name = NULL;
        /* The reference this case is compared with, found by key in the group. */
        const gk_bench_row *ref = NULL;
        for (size_t j = 0; r->c.reference != NULL && j < count; ++j)
            if (rows[j].c.role == GK_ROLE_REFERENCE && rows[j].c.key != NULL &&
                strcmp(rows[j].c.key, r->c.reference) == 0)
                ref = &rows[j];
        if (ref != NULL) r->reference_name = ref->c.name;
        if (r->state != GK_ROW_OK || !(r->t.median_ms > 0)) continue;
        double s = r->t.median_ms * 1e-3;
        double bytes = r->w.bytes_read + r->w.bytes_written;
        r->gbps = bytes / s * 1e-9;
        r->tflops = r->w.flops / s * 1e-12;
        r->pct_peak = pct_of(r, r->c.peak, peaks, s);
        r->pct_second_peak = pct_of(r, second_peak(r), peaks, s);
        if (ref != NULL && ref->state == GK_ROW_OK) r->vs_reference = ref->t.median_ms / r->t.median_ms;
        r->pct_ceiling = 100.0 * t_ceiling / r->t.median_ms;
        r->vs_baseline = t_base / r->t.median_ms;
    }
}

static void print_num(FILE *f, double v, const char *fmt, int width)
{
    if (isnan(v)) fprintf(f, "%*s", width, "-");
    else fprintf(f, fmt, width, v);
}

static const char *state_name(gk_row_state s)
{
    return s == GK_ROW_OK ? "ok" : s == GK_ROW_NA ? "n/a" : s == GK_ROW_SKIPPED ? "skipped" : "failed";
}

static void print_peak(FILE *f, const char *name, double v, double scale, const char *unit)
{
    if (v > 0) fprintf(f, "%s %.1f %s", name, v * scale, unit);
    else fprintf(f, "%s n/a", name);
}

void gk_bench_print_table(FILE *f, const gk_bench_run_info *info, const gk_bench_row *rows, size_t count)
{
    const gk_device_info *dev = info->dev;
    fprintf(f, "\ngpukernels bench  %s  %s (sm_%d%d, %d SMs, L2 %d MiB)\n", info->date, dev->name, dev->cc_major,
            dev->cc_minor, dev->sm_count, dev->l2_bytes >> 20);
    fprintf(f, "peaks: ");
    print_peak(f, "DRAM", dev->peak_dram_bytes_per_s, 1e-9, "GB/s");
    fprintf(f, ", ");
    print_peak(f, "fp32", dev->peak_fp32_flops, 1e-12, "TFLOP/s");
    fprintf(f, ", ");
    print_peak(f, "TF32", dev->peak_tf32_flops, 1e-12, "TFLOP/s");
    fprintf(f, ", ");
    print_peak(f, "BF16", dev->peak_bf16_flops, 1e-12, "TFLOP/s");
    fprintf(f, ", ");
    print_peak(f, "FP8", dev->peak_fp8_flops, 1e-12, "TFLOP/s");
    fprintf(f, " (dense; from the attributes, gk/device.h)\n");
    fprintf(f, "CUDA runtime %d.%d, driver %d.%d; %s L2; median of >= %d timed calls after %d warm-up\n",
            dev->runtime_version / 1000, dev->runtime_version % 1000 / 10, dev->driver_version / 1000,
            dev->driver_version % 1000 / 10, info->hot ? "hot" : "cold (flushed)", info->min_iters, info->warmup);
    char prev[192] = "", group[192];
    int any_second = 0;
    for (size_t i = 0; i < count; ++i) {
        const gk_bench_row *r = &rows[i];
        gk_bench_peak second = second_peak(r);
        snprintf(group, sizeof group, "%s %s %s=%s", r->m->name, r->params, r->m->axes, r->size);
        if (strcmp(group, prev) != 0) {
            char second_title[24] = "";
            if (second != GK_PEAK_NONE) {
                char t[8];
                snprintf(t, sizeof t, "%%%.5s", gk_bench_peak_name(second));
                snprintf(second_title, sizeof second_title, " %7s", t);
                any_second = 1;
            }
            fprintf(f, "\n%s\n", group);
            fprintf(f, "  %4s  %-28s %-5s %10s %10s %9s %8s %7s %-4s%s %8s %8s %7s\n", "id", "case", "prec",
                    "median ms", "min ms", "GB/s", "TFLOP/s", "%peak", "of", second_title, "vs ref", "vs base",
                    "%ceil");
            snprintf(prev, sizeof prev, "%s", group);
        }
        if (r->c.role == GK_ROLE_VARIANT) fprintf(f, "  %4d", r->c.id);
        else fprintf(f, "  %4s", r->c.role == GK_ROLE_REFERENCE ? "ref" : "ceil");
        fprintf(f, "  %-28s %-5s", r->c.name, r->c.precision ? r->c.precision : "");
        if (r->state != GK_ROW_OK) {
            fprintf(f, " %s (%s)\n", r->state == GK_ROW_FAILED ? "FAILED" : state_name(r->state), r->why);
            continue;
        }
        fprintf(f, " %10.4f %10.4f", r->t.median_ms, r->t.min_ms);
        print_num(f, r->gbps, " %*.1f", 9);
        print_num(f, r->tflops, " %*.2f", 8);
        print_num(f, r->pct_peak, " %*.1f", 7);
        fprintf(f, " %-4s", gk_bench_peak_name(r->c.peak));
        if (second != GK_PEAK_NONE) print_num(f, r->pct_second_peak, " %*.1f", 7);
        print_num(f, r->vs_reference, " %*.2fx", 7);
        print_num(f, r->vs_baseline, " %*.2fx", 7);
        print_num(f, r->pct_ceiling, " %*.1f", 7);
        fprintf(f, "\n");
    }
    fprintf(f, "\n%%peak: of the peak named in 'of'%s; vs ref: the time of the variant's reference (its module names "
               "it: CUB, cuBLAS fp32, cuBLAS TF32, cuFFT) over this time, > 1 is faster; vs base: speed-up over %s%s; "
               "%%ceil: the ceiling's time over this time (the memory limit measured in the same run)\n",
            any_second ? " (and a column such as %fp32: of the module's second peak, for every case)" : "",
            info->baseline && strspn(info->baseline, "0123456789") == strlen(info->baseline) ? "variant " : "",
            info->baseline ? info->baseline : "-");
}

static void csv_num(FILE *f, double v, const char *fmt)
{
    fputc(',', f);
    if (!isnan(v) && !isinf(v)) fprintf(f, fmt, v);
}

void gk_bench_print_csv(FILE *f, const gk_bench_row *rows, size_t count)
{
    fprintf(f, "module,params,size,id,key,name,role,precision,peak,reference,status,median_ms,min_ms,max_ms,iters,"
               "gbps,tflops,pct_peak,vs_reference,vs_baseline,pct_ceiling,second_peak,pct_second_peak\n");
    for (size_t i = 0; i < count; ++i) {
        const gk_bench_row *r = &rows[i];
        fprintf(f, "%s,%s,%s,%d,%s,%s,%s,%s,%s,%s,%s", r->m->name, r->params, r->size, r->c.id, r->c.key ? r->c.key : "",
                r->c.name, gk_bench_role_name(r->c.role), r->c.precision ? r->c.precision : "",
                gk_bench_peak_name(r->c.peak), r->c.reference ? r->c.reference : "", state_name(r->state));
        if (r->state == GK_ROW_OK) {
            fprintf(f, ",%.6f,%.6f,%.6f,%d", r->t.median_ms, r->t.min_ms, r->t.max_ms, r->t.iters);
            csv_num(f, r->gbps, "%.3f");
            csv_num(f, r->tflops, "%.6f");
            csv_num(f, r->pct_peak, "%.3f");
            csv_num(f, r->vs_reference, "%.4f");
            csv_num(f, r->vs_baseline, "%.4f");
            csv_num(f, r->pct_ceiling, "%.3f");
        } else {
            fprintf(f, ",,,,,,,,,,");
        }
        /* The second peak last, so that the columns before it keep their
         * places (scripts/tune.sh reads them by position). */
        gk_bench_peak second = second_peak(r);
        fprintf(f, ",%s", second != GK_PEAK_NONE ? gk_bench_peak_name(second) : "");
        if (r->state == GK_ROW_OK) csv_num(f, r->pct_second_peak, "%.3f");
        else fputc(',', f);
        fputc('\n', f);
    }
}

static void json_str(FILE *f, const char *s)
{
    if (s == NULL) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"' || *s == '\\') fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20) fprintf(f, "\\u%04x", *s);
        else fputc(*s, f);
    }
    fputc('"', f);
}

static void json_num(FILE *f, double v)
{
    if (isnan(v) || isinf(v)) fputs("null", f);
    else fprintf(f, "%.9g", v);
}

static void json_kv_str(FILE *f, const char *key, const char *v)
{
    fprintf(f, ", \"%s\": ", key);
    json_str(f, v);
}

static void json_kv_num(FILE *f, const char *key, double v)
{
    fprintf(f, ", \"%s\": ", key);
    json_num(f, v);
}

static void json_case(FILE *f, const gk_bench_case *c)
{
    fprintf(f, "\"id\": %d", c->id);
    json_kv_str(f, "key", c->key);
    json_kv_str(f, "name", c->name);
    json_kv_str(f, "idea", c->idea);
    json_kv_str(f, "role", gk_bench_role_name(c->role));
    json_kv_str(f, "precision", c->precision);
    json_kv_str(f, "peak", gk_bench_peak_name(c->peak));
    json_kv_str(f, "reference", c->reference);
}

static void json_module(FILE *f, const gk_bench_module *m)
{
    fprintf(f, "    {\"name\": ");
    json_str(f, m->name);
    json_kv_str(f, "axes", m->axes);
    json_kv_str(f, "size_help", m->size_help);
    json_kv_str(f, "metric", m->metric);
    json_kv_str(f, "second_peak", m->second_peak != GK_PEAK_NONE ? gk_bench_peak_name(m->second_peak) : NULL);
    fprintf(f, ", \"default_sizes\": [");
    for (size_t i = 0; i < m->num_default_sizes; ++i) {
        if (i) fputs(", ", f);
        json_str(f, m->default_sizes[i]);
    }
    fprintf(f, "],\n     \"params\": [");
    for (size_t i = 0; i < m->num_params; ++i) {
        fprintf(f, "%s{\"key\": ", i ? ", " : "");
        json_str(f, m->params[i].key);
        json_kv_str(f, "values", m->params[i].values);
        json_kv_str(f, "default", m->params[i].deflt);
        fprintf(f, ", \"open\": %s}", m->params[i].accepts != NULL ? "true" : "false");
    }
    fprintf(f, "],\n     \"cases\": [\n");
    size_t n = m->num_cases();
    for (size_t i = 0; i < n; ++i) {
        gk_bench_case c = m->case_at(i);
        fprintf(f, "       {");
        json_case(f, &c);
        fprintf(f, "}%s\n", i + 1 < n ? "," : "");
    }
    fprintf(f, "     ]}");
}

void gk_bench_write_json(FILE *f, const gk_bench_run_info *info, const gk_bench_module *const *modules,
                         size_t num_modules, const gk_bench_row *rows, size_t count)
{
    fprintf(f, "{\n  \"format\": \"gpukernels-bench-2\"");
    if (info != NULL && info->dev != NULL) {
        const gk_device_info *dev = info->dev;
        fprintf(f, ",\n  \"date\": ");
        json_str(f, info->date);
        fprintf(f, ",\n  \"device\": {\"name\": ");
        json_str(f, dev->name);
        fprintf(f, ", \"cc\": \"%d.%d\", \"sm_count\": %d, \"sm_clock_mhz\": %d, \"l2_bytes\": %d, "
                   "\"total_mem_bytes\": %zu",
                dev->cc_major, dev->cc_minor, dev->sm_count, dev->sm_clock_khz / 1000, dev->l2_bytes,
                dev->total_mem_bytes);
        json_kv_num(f, "peak_dram_gbps", dev->peak_dram_bytes_per_s * 1e-9);
        json_kv_num(f, "peak_fp32_tflops", dev->peak_fp32_flops > 0 ? dev->peak_fp32_flops * 1e-12 : NAN);
        json_kv_num(f, "peak_tf32_tflops", dev->peak_tf32_flops > 0 ? dev->peak_tf32_flops * 1e-12 : NAN);
        json_kv_num(f, "peak_bf16_tflops", dev->peak_bf16_flops > 0 ? dev->peak_bf16_flops * 1e-12 : NAN);
        json_kv_num(f, "peak_fp8_tflops", dev->peak_fp8_flops > 0 ? dev->peak_fp8_flops * 1e-12 : NAN);
        fprintf(f, "},\n  \"cuda\": {\"runtime\": \"%d.%d\", \"driver\": \"%d.%d\"},\n", dev->runtime_version / 1000,
                dev->runtime_version % 1000 / 10, dev->driver_version / 1000, dev->driver_version % 1000 / 10);
        fprintf(f, "  \"timing\": {\"l2\": \"%s\", \"warmup\": %d, \"min_iters\": %d, \"max_iters\": %d, "
                   "\"seconds\": %g, \"statistic\": \"median\"}",
                info->hot ? "hot" : "cold", info->warmup, info->min_iters, info->max_iters, info->seconds);
        fprintf(f, ",\n  \"baseline\": ");
        json_str(f, info->baseline);
    }
    fprintf(f, ",\n  \"modules\": [\n");
    for (size_t i = 0; i < num_modules; ++i) {
        json_module(f, modules[i]);
        fprintf(f, "%s\n", i + 1 < num_modules ? "," : "");
    }
    fprintf(f, "  ],\n  \"results\": [\n");
    for (size_t i = 0; i < count; ++i) {
        const gk_bench_row *r = &rows[i];
        fprintf(f, "    {\"module\": ");
        json_str(f, r->m->name);
        json_kv_str(f, "params", r->params);
        json_kv_str(f, "size", r->size);
        fprintf(f, ", \"shape\": [");
        for (int a = 0; a < r->shape.count; ++a) fprintf(f, "%s%zu", a ? ", " : "", r->shape.v[a]);
        fprintf(f, "], ");
        json_case(f, &r->c);
        json_kv_str(f, "reference_name", r->reference_name);
        json_kv_str(f, "status", state_name(r->state));
        if (r->state == GK_ROW_OK) {
            json_kv_num(f, "median_ms", r->t.median_ms);
            json_kv_num(f, "min_ms", r->t.min_ms);
            json_kv_num(f, "max_ms", r->t.max_ms);
            fprintf(f, ", \"iters\": %d", r->t.iters);
            json_kv_num(f, "bytes", r->w.bytes_read + r->w.bytes_written);
            json_kv_num(f, "flops", r->w.flops);
            json_kv_num(f, "gbps", r->gbps);
            json_kv_num(f, "tflops", r->tflops);
            json_kv_num(f, "pct_peak", r->pct_peak);
            json_kv_num(f, "pct_second_peak", r->pct_second_peak);
            json_kv_num(f, "vs_reference", r->vs_reference);
            json_kv_num(f, "vs_baseline", r->vs_baseline);
            json_kv_num(f, "pct_ceiling", r->pct_ceiling);
        } else {
            json_kv_str(f, "why", r->why);
        }
        fprintf(f, "}%s\n", i + 1 < count ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
}
