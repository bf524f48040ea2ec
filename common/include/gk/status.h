/* gk/status.h: what every gpukernels call returns.
 *
 * A gk_status is a small value, returned by every library call: a code, and,
 * when something failed, the failing CUDA error, the call or check that failed
 * and where. It is built from string literals only, so returning it allocates
 * nothing and the library keeps no state: no errno-style global, no printing.
 * The program decides what to do with it (gk_status_format writes the whole
 * story into a buffer it owns).
 */
#ifndef GK_STATUS_H
#define GK_STATUS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum gk_code {
    GK_SUCCESS = 0,
    GK_ERROR_NULL_POINTER,          /* a required pointer argument is NULL        */
    GK_ERROR_INVALID_ARGUMENT,      /* a size, type or option the call cannot take */
    GK_ERROR_UNKNOWN_VARIANT,       /* no variant with that id in the module table */
    GK_ERROR_UNSUPPORTED,           /* the variant exists but not for this type/op */
    GK_ERROR_WORKSPACE_TOO_SMALL,   /* *workspace_bytes is below what the call needs */
    GK_ERROR_CUDA,                  /* a CUDA runtime call or a launch failed      */
    GK_ERROR_NO_DEVICE,             /* no CUDA-capable GPU is visible              */
    GK_ERROR_VERIFY_FAILED,         /* a result did not match its reference (tests, bench) */
    GK_CODE_COUNT                   /* number of codes, not a code */
} gk_code;

typedef struct gk_status {
    gk_code code;
    int cuda_error;        /* the cudaError_t value for GK_ERROR_CUDA, else 0        */
    const char *what;      /* string literal: the failing call, or why the argument is bad */
    const char *file;      /* where the status was made (NULL for success)           */
    int line;
} gk_status;

/* Short, stable name and meaning of a code: "GK_ERROR_NULL_POINTER: a required
 * pointer argument is NULL". Never NULL, also for codes out of range. */
const char *gk_status_string(gk_code code);

/* The whole story of a status in buf (always NUL-terminated when size > 0):
 * "GK_ERROR_CUDA: cudaMalloc(&p, bytes) failed with cudaErrorMemoryAllocation
 * (out of memory) at common/x.c:42", the file as gk_status_file gives it.
 * Returns the number of characters the full text needs, like snprintf. */
int gk_status_format(gk_status s, char *buf, size_t size);

/* Where the status was made, as gk_status_format prints it: the path from the
 * library's source root ("reduce/reduce.c"), the same on every machine; an
 * absolute path is cut to its file name. "?" for success. */
const char *gk_status_file(gk_status s);

static inline int gk_ok(gk_status s) { return s.code == GK_SUCCESS; }

/* Constructors used by the library and the programs; the macros below fill in
 * the place. */
static inline gk_status gk_status_make(gk_code code, int cuda_error, const char *what,
                                       const char *file, int line)
{
    gk_status s;
    s.code = code;
    s.cuda_error = cuda_error;
    s.what = what;
    s.file = file;
    s.line = line;
    return s;
}

static inline gk_status gk_success(void) { return gk_status_make(GK_SUCCESS, 0, NULL, NULL, 0); }

/* A failing status that remembers where it was made. `what` must be a string
 * literal (or otherwise outlive the status). */
#define GK_FAIL(code, what) gk_status_make((code), 0, (what), __FILE__, __LINE__)

/* Return early from a function that returns gk_status when a nested call fails. */
#define GK_TRY(expr)                                                            \
    do {                                                                        \
        gk_status gk_try_s_ = (expr);                                           \
        if (gk_try_s_.code != GK_SUCCESS) return gk_try_s_;                     \
    } while (0)

#ifdef __cplusplus
}
#endif

#endif /* GK_STATUS_H */
