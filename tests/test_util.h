/* test_util.h: what several test programs share besides check.h and
 * gpu_test.h, written once.
 *
 *   EXPECT, REJECT         a call's status (the CPU tests' argument checks)
 *   gk_test_kernel_files   a module's tables against its kernels/ folder
 *   gk_test_args           the command line of the GPU tests
 *   gk_test_start          their start: the GPU and --variant's row
 *   gk_test_ok             a status that fails a check
 *   gk_test_require        a status that must be success, else the end
 *   gk_test_xmalloc        malloc that cannot return NULL
 *   gk_test_ensure_device  a device buffer that grows on demand
 *
 * Programs, not the library, so printing and exiting are fine here. The
 * functions are static inline, so a program that uses a few of them compiles
 * without warnings about the others.
 */
#ifndef GK_TEST_UTIL_H
#define GK_TEST_UTIL_H

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "check.h"
#include "gk/cuda_check.h"

/* ---- Argument checks ---------------------------------------------------- */

/* CHECK that `call` returns a status with code want_code, and that a failing
 * status says why and where (its what and file are set). */
#define EXPECT(call, want_code)                                                                                \
    do {                                                                                                      \
        gk_status s_ = (call);                                                                                \
        CHECK(s_.code == (want_code), "%s: got %s (%s)", gk_status_string(want_code), gk_status_string(s_.code), \
              s_.what ? s_.what : "");                                                                        \
        if (s_.code != GK_SUCCESS) CHECK(s_.what != NULL && s_.file != NULL, "a failing status says why and where"); \
    } while (0)

/* EXPECT for a call that must be rejected before it writes anything: the
 * call passes &bytes (a size_t of the caller's) as its workspace_bytes,
 * which holds GK_TEST_SENTINEL before the call and must still hold it after. */
#define GK_TEST_SENTINEL ((size_t)12345)
#define REJECT(call, code)                                                                                     \
    do {                                                                                                      \
        bytes = GK_TEST_SENTINEL;                                                                             \
        EXPECT(call, code);                                                                                   \
        CHECK(bytes == GK_TEST_SENTINEL, "nothing written on rejection (%zu)", bytes);                       \
    } while (0)

/* ---- A module's tables against its kernels/ folder ----------------------- */

/* One table of variants, as gk_test_kernel_files sees it. */
typedef struct gk_test_table {
    const char *prefix;             /* what its file names start with: "" (NN_name.cu) or "bf16_" */
    const char *(*name_of)(int id); /* the name of row `id`; NULL when the table has no such row */
    size_t count;                   /* its rows */
} gk_test_table;

/* CHECK that every kernel file in `dir` (a name of 7 or more characters
 * ending in .cu) is PREFIXNN_name.cu for row NN of the table whose prefix is
 * the longest one that starts the name, and that each table has as many
 * files as rows. */
static inline void gk_test_kernel_files(const char *dir, const gk_test_table *tables, int ntables)
{
    enum { MAX_TABLES = 8 };
    int files[MAX_TABLES] = {0};
    CHECK(ntables >= 1 && ntables <= MAX_TABLES, "%d tables", ntables);
    if (ntables < 1 || ntables > MAX_TABLES) return;
    DIR *d = opendir(dir);
    CHECK(d != NULL, "open %s", dir);
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        size_t len = strlen(e->d_name);
        if (len < 7 || strcmp(e->d_name + len - 3, ".cu") != 0) continue;
        int t = -1; /* the table with the longest prefix that starts the name */
        for (int k = 0; k < ntables; ++k) {
            size_t pl = strlen(tables[k].prefix);
            if (strncmp(e->d_name, tables[k].prefix, pl) == 0 && (t < 0 || pl > strlen(tables[t].prefix))) t = k;
        }
        const char *prefix = t < 0 ? "" : tables[t].prefix;
        int id = atoi(e->d_name + strlen(prefix));
        const char *name = t < 0 ? NULL : tables[t].name_of(id);
        char want[128] = "";
        if (name) snprintf(want, sizeof want, "%s%02d_%s.cu", prefix, id, name);
        CHECK(name != NULL && strcmp(want, e->d_name) == 0, "kernel file %s matches its row (%s)", e->d_name, want);
        if (t >= 0) ++files[t];
    }
    if (d) closedir(d);
    for (int k = 0; k < ntables; ++k)
        CHECK(files[k] == (int)tables[k].count, "%d kernel files %sNN_*.cu for %zu rows", files[k], tables[k].prefix,
              tables[k].count);
}

/* ---- The GPU tests ------------------------------------------------------- */

/* One option of a GPU test's command line besides --variant and --seed:
 * "NAME" sets *flag to 1, or, where value is set instead, "NAME V" stores V
 * in *value. */
typedef struct gk_test_option {
    const char *name;
    int *flag;
    const char **value;
} gk_test_option;

/* A GPU test's command line: --variant ID into *variant, --seed S into *seed
 * (which keeps its value when there is none), and the options in opts[0..n).
 * 0 on success; for anything else, prints `usage` and returns 2. */
static inline int gk_test_args(int argc, char **argv, const gk_test_option *opts, int n, const char *usage,
                               int *variant, uint64_t *seed)
{
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
        int known = 0;
        if (strcmp(a, "--variant") == 0 && val) *variant = atoi(val), ++i, known = 1;
        else if (strcmp(a, "--seed") == 0 && val) *seed = strtoull(val, NULL, 10), ++i, known = 1;
        for (int k = 0; k < n && !known; ++k) {
            if (strcmp(a, opts[k].name) != 0) continue;
            if (opts[k].flag) *opts[k].flag = 1, known = 1;
            else if (val) *opts[k].value = val, ++i, known = 1;
            break;
        }
        if (!known) {
            printf("usage: %s\n", usage);
            return 2;
        }
    }
    return 0;
}

/* A new seed every run: the wall clock mixed with the address of a local
 * (which changes from run to run where the OS randomises the stack). */
static inline uint64_t gk_test_new_seed(void)
{
    int local = 0;
    return (uint64_t)time(NULL) ^ ((uint64_t)(uintptr_t)&local << 16);
}

/* The rest of a GPU test's start, after its command line: `open_rc` is what
 * gk_test_open_gpu (gpu_test.h) returned, `found` whether --variant's id
 * (variant; 0 when none was given) is a row of the table. Returns 0 to go
 * on, GK_TEST_SKIP without a GPU, or 2 after printing "no variant N". */
static inline int gk_test_start(int open_rc, int variant, int found)
{
    if (open_rc != 0) return GK_TEST_SKIP;
    if (variant != 0 && !found) {
        printf("no variant %d\n", variant);
        return 2;
    }
    return 0;
}

/* 1 when s is a success; else 0 after printing "  label: what failed:
 * status", for a check that fails while the program goes on. */
static inline int gk_test_ok(gk_status s, const char *label, const char *what)
{
    if (gk_ok(s)) return 1;
    char e[512];
    gk_status_format(s, e, sizeof e);
    printf("  %s: %s failed: %s\n", label, what, e);
    return 0;
}

/* The end of the program unless s is a success: "FATAL label: status" (or
 * "FATAL status" without a label). A CUDA error is sticky: nothing after it
 * can be trusted. */
static inline void gk_test_require(gk_status s, const char *label)
{
    if (gk_ok(s)) return;
    char e[512];
    gk_status_format(s, e, sizeof e);
    if (label) printf("FATAL %s: %s\n", label, e);
    else printf("FATAL %s\n", e);
    exit(1);
}

/* malloc(bytes), or 1 byte for 0; out of host memory ends the program. */
static inline void *gk_test_xmalloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (p == NULL) {
        printf("FATAL out of host memory (%zu bytes)\n", bytes);
        exit(1);
    }
    return p;
}

/* Make the device buffer *p, of *cap bytes, at least `bytes` long: freed and
 * allocated again (contents not kept) when it is shorter. */
static inline void gk_test_ensure_device(void **p, size_t *cap, size_t bytes)
{
    if (bytes <= *cap) return;
    if (*p) gk_test_require(GK_CUDA_STATUS(cudaFree(*p)), NULL);
    *p = NULL;
    gk_test_require(GK_CUDA_STATUS(cudaMalloc(p, bytes)), NULL);
    *cap = bytes;
}

#endif
