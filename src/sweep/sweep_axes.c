/* sweep_axes.c - the values of a sweep's axes: comma lists, and the
 * options one combo (model x system x --set axes) loads with (see
 * sweep_int.h).  Apart from cmd_sweep.c, which reads the axes, so that
 * each kind of system's file uses these without calling back into it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/xalloc.h"
#include "sweep_int.h"

char **sweep_split(const char *arg, size_t *n)
{
    char *copy = xstrdup(arg), *save = NULL, **v = NULL;
    *n = 0;
    for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        v = xrealloc(v, (*n + 1) * sizeof *v);
        v[(*n)++] = xstrdup(t);
    }
    free(copy);
    return v;
}

void sweep_free_list(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void sweep_combo_opts(const struct sweep *sw, size_t q, struct cli_opts *o2, const char **axis_text)
{
    *o2 = *sw->o;
    o2->model = sw->model[q / (sw->nsystem * sw->nset)];
    o2->system = sw->system[q / sw->nset % sw->nsystem];
    o2->nsets = 0;
    for (size_t i = 0; i < sw->nfixed; i++)
        o2->sets[o2->nsets++] = sw->fixed[i];
    size_t a = q % sw->nset;
    for (size_t i = sw->naxis; i-- > 0;) {
        o2->sets[o2->nsets++] = sw->axis[i].val[a % sw->axis[i].n];
        axis_text[i] = sw->axis[i].text[a % sw->axis[i].n];
        a /= sw->axis[i].n;
    }
}
