/* module.h: the host code that every module's table (NAME/variants.c) and
 * entry point (NAME/NAME.c) share, written once. Internal: not installed;
 * those files include it as "../common/module.h".
 *
 *   GK_TABLE_LOOKUPS      the four lookups of a table of variants
 *   gk_misaligned         is a pointer off an alignment
 *   gk_workspace_round    the size a workspace query returns
 *   GK_WORKSPACE_QUERY    phase one of the two-phase workspace protocol
 *   GK_WORKSPACE_CHECK    phase two's checks of the workspace
 *
 * The two workspace checks are macros so that a failing status names the
 * module's own file and line (GK_FAIL records where it is written).
 */
#ifndef GK_MODULE_H
#define GK_MODULE_H

#include <stddef.h>
#include <stdint.h>

#include "gk/status.h"

/* Defines the lookups of `table`, a static array of rows that each start
 * with `info` (the public description, type info_type, which has an `id`):
 *   size_t PREFIX_variant_count(void)               the number of rows
 *   const info_type *PREFIX_variant_at(size_t i)    row i's description; NULL past the end
 *   const row_type *PREFIX_row_find(int id)         the row of variant `id`; NULL when none
 *   const info_type *PREFIX_find_variant(int id)    its description; NULL when none
 * as gk/NAME.h and NAME/variants.h declare them. */
#define GK_TABLE_LOOKUPS(prefix, row_type, info_type, table)                                                   \
    size_t prefix##_variant_count(void) { return sizeof table / sizeof table[0]; }                            \
                                                                                                              \
    const info_type *prefix##_variant_at(size_t index)                                                        \
    {                                                                                                         \
        return index < prefix##_variant_count() ? &table[index].info : NULL;                                  \
    }                                                                                                         \
                                                                                                              \
    const row_type *prefix##_row_find(int id)                                                                 \
    {                                                                                                         \
        for (size_t i = 0; i < prefix##_variant_count(); ++i)                                                 \
            if (table[i].info.id == id) return &table[i];                                                     \
        return NULL;                                                                                          \
    }                                                                                                         \
                                                                                                              \
    const info_type *prefix##_find_variant(int id)                                                            \
    {                                                                                                         \
        const row_type *r = prefix##_row_find(id);                                                            \
        return r ? &r->info : NULL;                                                                           \
    }

/* Non-zero when p is not a multiple of `alignment` bytes (NULL is aligned). */
static inline int gk_misaligned(const void *p, size_t alignment) { return ((uintptr_t)p % alignment) != 0; }

/* What a workspace query returns for a variant that needs `bytes`: rounded
 * up to a whole 256-byte granule and never 0, so that allocating exactly
 * this size gives a non-NULL workspace. */
static inline size_t gk_workspace_round(size_t bytes)
{
    size_t need = (bytes + 255) / 256 * 256;
    return need == 0 ? 256 : need;
}

/* Phase one: with workspace NULL, store `need` in *workspace_bytes and
 * return success from the enclosing function; nothing else is done. */
#define GK_WORKSPACE_QUERY(need, workspace, workspace_bytes)                                                   \
    do {                                                                                                      \
        if ((workspace) == NULL) {                                                                            \
            *(workspace_bytes) = (need);                                                                      \
            return gk_success();                                                                              \
        }                                                                                                     \
    } while (0)

/* Phase two: return GK_ERROR_WORKSPACE_TOO_SMALL from the enclosing function
 * when *workspace_bytes is below `need`, GK_ERROR_INVALID_ARGUMENT when the
 * workspace is not 16-byte aligned. */
#define GK_WORKSPACE_CHECK(need, workspace, workspace_bytes)                                                   \
    do {                                                                                                      \
        if (*(workspace_bytes) < (need))                                                                      \
            return GK_FAIL(GK_ERROR_WORKSPACE_TOO_SMALL, "*workspace_bytes is below the size the query returned"); \
        if (gk_misaligned((workspace), 16))                                                                   \
            return GK_FAIL(GK_ERROR_INVALID_ARGUMENT, "workspace is not 16-byte aligned");                    \
    } while (0)

#endif /* GK_MODULE_H */
