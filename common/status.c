/* gk_status_string / gk_status_format: see gk/status.h. */
#include "gk/status.h"

#include <stdio.h>

#include <cuda_runtime_api.h>

static const char *const gk_code_text[GK_CODE_COUNT] = {
    [GK_SUCCESS] = "GK_SUCCESS: no error",
    [GK_ERROR_NULL_POINTER] = "GK_ERROR_NULL_POINTER: a required pointer argument is NULL",
    [GK_ERROR_INVALID_ARGUMENT] = "GK_ERROR_INVALID_ARGUMENT: an argument the call cannot take",
    [GK_ERROR_UNKNOWN_VARIANT] = "GK_ERROR_UNKNOWN_VARIANT: no variant with that id",
    [GK_ERROR_UNSUPPORTED] = "GK_ERROR_UNSUPPORTED: the variant does not support this type or operation",
    [GK_ERROR_WORKSPACE_TOO_SMALL] = "GK_ERROR_WORKSPACE_TOO_SMALL: the workspace is smaller than the call needs",
    [GK_ERROR_CUDA] = "GK_ERROR_CUDA: a CUDA runtime call or kernel launch failed",
    [GK_ERROR_NO_DEVICE] = "GK_ERROR_NO_DEVICE: no CUDA-capable GPU is visible",
    [GK_ERROR_VERIFY_FAILED] = "GK_ERROR_VERIFY_FAILED: a result does not match its reference",
};

const char *gk_status_string(gk_code code)
{
    if ((int)code < 0 || code >= GK_CODE_COUNT || gk_code_text[code] == NULL)
        return "GK_ERROR_?: unknown status code";
    return gk_code_text[code];
}

const char *gk_status_file(gk_status s)
{
    const char *f = s.file;
    if (f == NULL) return "?";
    /* The library is built with paths relative to its source root. An
     * absolute path (another build, or a status made by the caller's code)
     * would name one machine's directories: keep only the file name. */
    int absolute = f[0] == '/' || f[0] == '\\' || (f[0] != '\0' && f[1] == ':');
    if (!absolute) return f;
    const char *base = f;
    for (const char *p = f; *p; ++p)
        if (*p == '/' || *p == '\\') base = p + 1;
    return base;
}

int gk_status_format(gk_status s, char *buf, size_t size)
{
    const char *text = gk_status_string(s.code);
    const char *file = gk_status_file(s);
    if (s.code == GK_SUCCESS) return snprintf(buf, size, "%s", text);
    if (s.cuda_error != 0) {
        cudaError_t e = (cudaError_t)s.cuda_error;
        return snprintf(buf, size, "%s: %s returned %s (%s) at %s:%d", text,
                        s.what ? s.what : "?", cudaGetErrorName(e), cudaGetErrorString(e),
                        file, s.line);
    }
    return snprintf(buf, size, "%s: %s (at %s:%d)", text, s.what ? s.what : "?", file, s.line);
}
