/* claim_load.c - the GPU descriptions a claim that compares with GPUs is
 * given (claim.h): the claim's own, by the name in its gpu column, and
 * every one on the search path.  Reads description files through the
 * catalog; no terminal I/O. */
#include "claim.h"

cp_status claim_gpu_load(const struct cat_dirs *d, const struct claim *cl, const char *origin,
                         const char *const *sets, size_t nsets, struct gpuhw_desc *g, int *in_row,
                         struct cp_error *err)
{
    struct cat_entry e;
    struct cp_error why = {0};
    *in_row = 0;
    if (cat_resolve(d, cl->gpu, CAT_HW, &e, &why) != CP_OK)
        return cp_fail(err, CP_EINPUT, "%s:%d: gpu '%s': %s", origin, cl->line, cl->gpu, why.msg);
    if (gpuhw_kind_of(e.text) != GPUHW_GPU) {
        cat_entry_free(&e);
        return cp_fail(err, CP_EINPUT,
                       "%s:%d: gpu '%s': a weight-streaming system; the gpu column takes a GPU "
                       "system (list hw shows each system's model)",
                       origin, cl->line, cl->gpu);
    }
    cp_status st = gpuhw_load(e.text, e.origin, sets, nsets, g, NULL, err);
    cat_entry_free(&e);
    *in_row = st != CP_OK;
    return st;
}

cp_status claim_gpu_all(const struct cat_dirs *d, const char *const *sets, size_t nsets,
                        struct gpuhw_desc *out, size_t max, size_t *n, struct cp_error *err)
{
    struct cat_list l;
    *n = 0;
    cp_status st = cat_list(d, CAT_HW, &l, err);
    if (st != CP_OK)
        return st;
    for (size_t i = 0; i < l.n && st == CP_OK && *n < max; i++) {
        struct cat_entry e;
        if ((st = cat_open(&l.items[i], &e, err)) != CP_OK)
            break;
        if (gpuhw_kind_of(e.text) == GPUHW_GPU &&
            (st = gpuhw_load(e.text, e.origin, sets, nsets, &out[*n], NULL, err)) == CP_OK)
            ++*n;
        cat_entry_free(&e);
    }
    cat_list_free(&l);
    return st;
}
