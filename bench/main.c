/* gk_bench: the one benchmark runner of gpukernels.
 *
 * For every module (bench.h), parameter set, size and case: run once and
 * verify against the module's check, then time with CUDA events (warm-up, L2
 * flushed before each sample, median of many), turn the median into GB/s and
 * TFLOP/s from the work the module declares, into % of the peak the case
 * names, and compare with the case's reference, the module's ceiling and a
 * baseline, all timed in the same run. Prints a table (or CSV) on stdout,
 * progress on stderr, and JSON on request. See `gk_bench --help`.
 *
 * Everything about a problem's shape belongs to its module: the runner passes
 * the size strings to the module's parser and prints what its formatter
 * gives back. A sweep (--sizes sweep:N[:LO..HI[:SEED]], cli.h) is the one
 * size the runner reads: it draws N shapes' sides and writes each shape as
 * its sides joined by 'x', the spelling of every module whose axes are
 * names joined by " x " (gemm's "m x n x k"), for the module to parse.
 */
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
#include "results.h"

int gk_bench_param_index(const gk_bench_module *m, const char *key)
{
    for (size_t i = 0; i < m->num_params; ++i)
        if (strcmp(m->params[i].key, key) == 0) return (int)i;
    return -1;
}

/* What one module runs: its shapes and, per parameter, the values to sweep. */
typedef struct plan {
    const gk_bench_module *m;
    gk_bench_shape shapes[GK_CLI_MAX_SIZES];
    int num_shapes;
    char values[GK_BENCH_MAX_PARAMS][GK_CLI_MAX_LIST][GK_CLI_ITEM];
    int num_values[GK_BENCH_MAX_PARAMS];
} plan;

static int in_list(const char *value, const char *list)
{
    char items[GK_CLI_MAX_LIST][GK_CLI_ITEM];
    int n = gk_split_list(list, items, GK_CLI_MAX_LIST);
    for (int i = 0; i < n; ++i)
        if (strcmp(items[i], value) == 0) return 1;
    return 0;
}

/* One size string of module m into p->shapes[p->num_shapes++]: 0, or 2 with a
 * message on stderr (`sweep`: the sweep it was drawn from, or NULL). */
static int add_shape(plan *p, const char *size, const char *sweep)
{
    const gk_bench_module *m = p->m;
    char err[256] = "";
    if (p->num_shapes >= GK_CLI_MAX_SIZES) {
        fprintf(stderr, "gk_bench: --sizes: more than %d shapes for module %s\n", GK_CLI_MAX_SIZES, m->name);
        return 2;
    }
    if (m->parse_size(size, &p->shapes[p->num_shapes], err, sizeof err) != 0) {
        fprintf(stderr, "gk_bench: --sizes: module %s cannot take '%s'%s%s%s: %s\n  (%s takes %s)\n", m->name, size,
                sweep ? " (drawn by '" : "", sweep ? sweep : "", sweep ? "')" : "", err, m->name, m->size_help);
        return 2;
    }
    ++p->num_shapes;
    return 0;
}

/* A sweep (cli.h) for module m: its shapes drawn, written as the module's
 * size strings (the sides joined by 'x') and parsed by the module, after it
 * has taken the smallest and the largest (every side LO, every side HI).
 * 0, or 2 with a message on stderr. */
static int add_sweep(plan *p, const char *spelling)
{
    const gk_bench_module *m = p->m;
    gk_sweep sw;
    char err[256] = "", size[GK_CLI_ITEM];
    if (gk_parse_sweep(spelling, &sw, err, sizeof err) != 0) { /* gk_bench_parse checked it: not reached */
        fprintf(stderr, "gk_bench: --sizes: %s\n", err);
        return 2;
    }
    const int axes = gk_sweep_axes(m->axes, GK_BENCH_MAX_AXES);
    if (axes == 0) {
        fprintf(stderr,
                "gk_bench: --sizes: module %s cannot take '%s': a sweep draws the sides of sizes written as "
                "their axes joined by 'x', and %s's sizes are %s\n",
                m->name, spelling, m->name, m->axes);
        return 2;
    }
    if (p->num_shapes + sw.count > GK_CLI_MAX_SIZES) {
        fprintf(stderr, "gk_bench: --sizes: '%s' makes more than %d shapes for module %s\n", spelling,
                GK_CLI_MAX_SIZES, m->name);
        return 2;
    }
    size_t edge[GK_BENCH_MAX_AXES];
    for (int e = 0; e < 2; ++e) {
        gk_bench_shape probe;
        for (int a = 0; a < axes; ++a) edge[a] = e ? sw.hi : sw.lo;
        if (gk_sweep_format(edge, axes, size, sizeof size) != 0) {
            fprintf(stderr, "gk_bench: --sizes: '%s': its largest shape takes more than %d characters to write\n",
                    spelling, GK_CLI_ITEM - 1);
            return 2;
        }
        if (m->parse_size(size, &probe, err, sizeof err) != 0) {
            fprintf(stderr, "gk_bench: --sizes: module %s cannot take '%s': its %s shape, %s: %s\n  (%s takes %s)\n",
                    m->name, spelling, e ? "largest" : "smallest", size, err, m->name, m->size_help);
            return 2;
        }
    }
    size_t *sides = (size_t *)malloc((size_t)sw.count * (size_t)axes * sizeof *sides);
    if (sides == NULL) {
        fprintf(stderr, "gk_bench: out of host memory\n");
        return 2;
    }
    gk_sweep_sides(&sw, axes, sides);
    int rc = 0;
    for (int i = 0; i < sw.count && rc == 0; ++i) {
        /* No side is above HI: each shape fits where the largest did. */
        gk_sweep_format(sides + (size_t)i * (size_t)axes, axes, size, sizeof size);
        rc = add_shape(p, size, spelling);
    }
    free(sides);
    return rc;
}

/* Everything the command line says about module m, checked before any GPU is
 * touched: 0, or 2 with a message on stderr. */
static int make_plan(const gk_bench_cli *cli, const gk_bench_module *m, plan *p)
{
    memset(p, 0, sizeof *p);
    p->m = m;
    char items[GK_CLI_MAX_SIZES][GK_CLI_ITEM];
    int n;
    if (cli->sizes != NULL) {
        n = gk_split_list(cli->sizes, items, GK_CLI_MAX_SIZES);
    } else {
        n = m->num_default_sizes <= GK_CLI_MAX_SIZES ? (int)m->num_default_sizes : GK_CLI_MAX_SIZES;
        for (int i = 0; i < n; ++i) snprintf(items[i], GK_CLI_ITEM, "%s", m->default_sizes[i]);
    }
    for (int i = 0; i < n; ++i) {
        int rc = gk_is_sweep(items[i]) ? add_sweep(p, items[i]) : add_shape(p, items[i], NULL);
        if (rc != 0) return rc;
    }
    if (m->num_params > GK_BENCH_MAX_PARAMS) {
        fprintf(stderr, "gk_bench: module %s declares too many parameters\n", m->name);
        return 2;
    }
    for (size_t k = 0; k < m->num_params; ++k) {
        const gk_bench_param_decl *d = &m->params[k];
        const char *list = d->deflt;
        size_t klen = strlen(d->key);
        for (int i = 0; i < cli->num_params; ++i)
            if (strncmp(cli->params[i], d->key, klen) == 0 && cli->params[i][klen] == '=') list = cli->params[i] + klen + 1;
        int nv = gk_split_list(list, p->values[k], GK_CLI_MAX_LIST);
        if (nv < 0) {
            fprintf(stderr, "gk_bench: --param %s: '%s' is not a list of values\n", d->key, list);
            return 2;
        }
        for (int v = 0; v < nv; ++v)
            if (d->accepts != NULL ? !d->accepts(p->values[k][v]) : !in_list(p->values[k][v], d->values)) {
                fprintf(stderr, "gk_bench: --param %s=%s: module %s takes %s = %s\n", d->key, p->values[k][v], m->name,
                        d->key, d->values);
                return 2;
            }
        p->num_values[k] = nv;
    }
    return 0;
}

/* Is every --param key declared by at least one of the selected modules? */
static int check_param_keys(const gk_bench_cli *cli)
{
    for (int i = 0; i < cli->num_params; ++i) {
        char key[GK_CLI_ITEM];
        size_t len = strcspn(cli->params[i], "=");
        snprintf(key, sizeof key, "%.*s", (int)(len < sizeof key ? len : sizeof key - 1), cli->params[i]);
        int known = 0;
        for (size_t m = 0; m < gk_bench_module_count; ++m) {
            const gk_bench_module *mod = gk_bench_modules[m];
            if (cli->module != NULL && strcmp(cli->module, mod->name) != 0) continue;
            known |= gk_bench_param_index(mod, key) >= 0;
        }
        if (!known) {
            fprintf(stderr, "gk_bench: --param %s: no selected module has a parameter '%s' (see --list)\n",
                    cli->params[i], key);
            return 2;
        }
    }
    return 0;
}

static int selected_case(const gk_bench_cli *cli, const gk_bench_case *c)
{
    if (c->role != GK_ROLE_VARIANT) return !cli->no_reference;
    if (cli->num_variants == 0) return 1;
    for (int i = 0; i < cli->num_variants; ++i)
        if (cli->variants[i] == c->id) return 1;
    return 0;
}

static void list_modules(void)
{
    for (size_t m = 0; m < gk_bench_module_count; ++m) {
        const gk_bench_module *mod = gk_bench_modules[m];
        printf("module %s (size: %s; default sizes:", mod->name, mod->size_help);
        for (size_t s = 0; s < mod->num_default_sizes; ++s) printf(" %s", mod->default_sizes[s]);
        printf(")\n");
        if (mod->second_peak != GK_PEAK_NONE)
            printf("  every case also as %% of the %s peak\n", gk_bench_peak_name(mod->second_peak));
        for (size_t p = 0; p < mod->num_params; ++p)
            printf("  --param %s=%s  (%s%s; default %s)\n", mod->params[p].key, mod->params[p].deflt,
                   mod->params[p].accepts != NULL ? "a list, each " : "one or more of ", mod->params[p].values,
                   mod->params[p].deflt);
        for (size_t i = 0; i < mod->num_cases(); ++i) {
            gk_bench_case c = mod->case_at(i);
            if (c.role == GK_ROLE_VARIANT)
                printf("  %4d %-28s %-5s %s (vs %s)\n", c.id, c.name, c.precision, c.idea,
                       c.reference ? c.reference : "-");
            else
                printf("  %4s %-28s %-5s %s [%s, key %s]\n", c.role == GK_ROLE_REFERENCE ? "ref" : "ceil", c.name,
                       c.precision, c.idea, gk_bench_role_name(c.role), c.key);
        }
    }
}

static void fail_status(const char *what, gk_status s)
{
    char buf[512];
    gk_status_format(s, buf, sizeof buf);
    fprintf(stderr, "gk_bench: %s: %s\n", what, buf);
}

static gk_bench_results results;

static gk_bench_row *new_row(void)
{
    gk_bench_row *r = gk_bench_results_add(&results);
    if (r == NULL) {
        fprintf(stderr, "gk_bench: out of host memory\n");
        exit(1);
    }
    return r;
}

/* The module's teardown() of a state from run_group, then the state itself. */
static void free_state(const gk_bench_module *mod, void *state)
{
    if (state == NULL) return;
    mod->teardown(state);
    free(state);
}

/* Run every selected case of module p->m at one shape and one parameter set.
 * Returns the number of failures; *fatal is set on a sticky CUDA error. */
static int run_group(const plan *p, const gk_bench_shape *shape, const gk_bench_params *params, const gk_bench_cli *cli,
                     const gk_timing_opts *topts, const gk_l2_flusher *flusher, cudaStream_t stream,
                     const double peaks[GK_PEAK_COUNT], int *fatal)
{
    const gk_bench_module *mod = p->m;
    char sz[64];
    mod->format_size(shape, sz, sizeof sz);
    if (!cli->quiet) fprintf(stderr, "[%s %s=%s] generating inputs and the CPU reference...\n", mod->name, mod->axes, sz);
    void *state = calloc(1, mod->state_size); /* the module's state, zeroed (bench.h) */
    gk_status st = state ? mod->setup(state, shape, params) : GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "out of host memory");
    if (st.code == GK_ERROR_UNSUPPORTED) { /* a combination the module does not take, e.g. u8 with 4096 bins */
        if (!cli->quiet) fprintf(stderr, "[%s %s=%s] not run: %s\n", mod->name, mod->axes, sz, st.what ? st.what : "");
        free_state(mod, state);
        return 0;
    }
    if (!gk_ok(st)) {
        fail_status("setting up the inputs", st);
        free_state(mod, state);
        *fatal = st.code == GK_ERROR_CUDA;
        return 1;
    }
    int failures = 0;
    size_t first = results.count;
    for (size_t ci = 0; ci < mod->num_cases(); ++ci) {
        gk_bench_case c = mod->case_at(ci);
        if (!selected_case(cli, &c)) continue;
        if (mod->applies != NULL && !mod->applies(state, &c)) continue; /* not a case of these parameters */
        if (mod->in_run != NULL) mod->in_run(state, &c); /* its precision and reference in this run */
        gk_bench_row *r = new_row();
        r->m = mod;
        r->shape = *shape;
        snprintf(r->size, sizeof r->size, "%s", sz);
        r->c = c;
        snprintf(r->params, sizeof r->params, "%s", mod->describe(state));
        if (!cli->quiet) fprintf(stderr, "[%s %s %s=%s] %s ", mod->name, r->params, mod->axes, sz, c.name);
        const char *why_skip = (!cli->no_skip && mod->skip) ? mod->skip(state, &c) : NULL;
        if (why_skip != NULL) {
            r->state = GK_ROW_SKIPPED;
            snprintf(r->why, sizeof r->why, "%s", why_skip);
            if (!cli->quiet) fprintf(stderr, "skipped\n");
            continue;
        }
        st = mod->prepare(state, &c);
        if (st.code == GK_ERROR_UNSUPPORTED) {
            r->state = GK_ROW_NA;
            snprintf(r->why, sizeof r->why, "%s", st.what ? st.what : "unsupported");
            if (!cli->quiet) fprintf(stderr, "n/a\n");
            continue;
        }
        /* Verify first: one call, synchronised, checked by the module. */
        if (gk_ok(st)) st = mod->run(state, stream);
        if (gk_ok(st)) st = GK_CUDA_STATUS(cudaStreamSynchronize(stream));
        if (gk_ok(st)) st = mod->verify(state, stderr);
        if (gk_ok(st)) st = gk_time_gpu(mod->run, state, stream, topts, flusher, &r->t);
        if (!gk_ok(st)) {
            r->state = GK_ROW_FAILED;
            gk_status_format(st, r->why, sizeof r->why);
            ++failures;
            if (!cli->quiet) fprintf(stderr, "FAILED\n");
            if (st.code == GK_ERROR_CUDA) { /* a sticky error spoils the rest of the run */
                fail_status("CUDA", st);
                *fatal = 1;
                break;
            }
            continue;
        }
        r->w = mod->work(state);
        if (!cli->quiet) fprintf(stderr, "%.4f ms\n", r->t.median_ms);
    }
    free_state(mod, state);
    gk_bench_derive(&results.rows[first], results.count - first, peaks, cli->baseline);
    return failures;
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
        if (cli.json_path != NULL) { /* the modules' description, no GPU needed */
            FILE *f = strcmp(cli.json_path, "-") == 0 ? stdout : fopen(cli.json_path, "w");
            if (f == NULL) {
                fprintf(stderr, "gk_bench: cannot write %s\n", cli.json_path);
                return 1;
            }
            gk_bench_write_json(f, NULL, gk_bench_modules, gk_bench_module_count, NULL, 0);
            if (f != stdout) fclose(f);
        }
        return 0;
    }
    /* The whole command line is checked before the GPU is touched. */
    static plan plans[16];
    const gk_bench_module *selected[16];
    size_t nplans = 0;
    for (size_t m = 0; m < gk_bench_module_count && nplans < 16; ++m) {
        const gk_bench_module *mod = gk_bench_modules[m];
        if (cli.module != NULL && strcmp(cli.module, mod->name) != 0) continue;
        if (make_plan(&cli, mod, &plans[nplans]) != 0) return 2;
        selected[nplans++] = mod;
    }
    if (nplans == 0) {
        fprintf(stderr, "gk_bench: no module named '%s' (see --list)\n", cli.module);
        return 2;
    }
    if (check_param_keys(&cli) != 0) return 2;

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
    double peaks[GK_PEAK_COUNT];
    gk_bench_peaks(&dev, peaks);

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
    int failures = 0, fatal = 0;

    for (size_t pi = 0; pi < nplans && !fatal; ++pi) {
        const plan *p = &plans[pi];
        /* Every combination of the parameter values (an odometer over the
         * lists), then every shape. */
        int idx[GK_BENCH_MAX_PARAMS] = {0};
        for (;;) {
            gk_bench_params params;
            memset(&params, 0, sizeof params);
            params.seed = cli.seed;
            for (size_t k = 0; k < p->m->num_params; ++k) params.value[k] = p->values[k][idx[k]];
            for (int si = 0; si < p->num_shapes && !fatal; ++si)
                failures += run_group(p, &p->shapes[si], &params, &cli, &topts, cli.hot ? NULL : &flusher, stream,
                                      peaks, &fatal);
            size_t k = 0;
            while (k < p->m->num_params && ++idx[k] == p->num_values[k]) idx[k++] = 0;
            if (k == p->m->num_params || fatal) break;
        }
    }

    gk_bench_run_info info = {&dev, date, cli.hot, cli.warmup, cli.min_iters, cli.max_iters, cli.seconds, cli.baseline};
    if (cli.csv) gk_bench_print_csv(stdout, results.rows, results.count);
    else gk_bench_print_table(stdout, &info, results.rows, results.count);
    if (cli.json_path != NULL) {
        FILE *f = strcmp(cli.json_path, "-") == 0 ? stdout : fopen(cli.json_path, "w");
        if (f == NULL) {
            fprintf(stderr, "gk_bench: cannot write %s\n", cli.json_path);
            ++failures;
        } else {
            gk_bench_write_json(f, &info, selected, nplans, results.rows, results.count);
            if (f != stdout) fclose(f);
        }
    }
    gk_l2_flusher_destroy(&flusher);
    cudaStreamDestroy(stream);
    gk_bench_results_free(&results);
    if (failures) fprintf(stderr, "gk_bench: %d case(s) failed\n", failures);
    return failures ? 1 : 0;
}
