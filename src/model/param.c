/* param.c - numeric hardware keys as model parameters (see param.h). */
#include "param.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Whether schema key k is a parameter: a number outside [chip], whose
 * figures the model does not use. */
static int is_param(size_t k)
{
    return hw_schema.keys[k].type == DESC_NUM &&
           strcmp(hw_schema.keys[k].section, HW_CHIP_SECTION) != 0;
}

int param_find(const char *name)
{
    const char *dot = strchr(name, '.');
    if (!dot)
        return -1;
    char sec[64];
    snprintf(sec, sizeof sec, "%.*s", (int)(dot - name), name);
    int k = desc_find(&hw_schema, sec, dot + 1);
    return k >= 0 && is_param((size_t)k) ? k : -1;
}

size_t param_count(void)
{
    size_t n = 0;
    for (size_t i = 0; i < hw_schema.nkeys; i++)
        n += is_param(i);
    return n;
}

int param_key(size_t i)
{
    for (size_t k = 0; k < hw_schema.nkeys; k++)
        if (is_param(k) && i-- == 0)
            return (int)k;
    return -1;
}

const char *param_name(int key, char *buf, size_t n)
{
    snprintf(buf, n, "%s.%s", hw_schema.keys[key].section, hw_schema.keys[key].name);
    return buf;
}

double *param_ptr(struct hw_desc *hw, int key)
{
    return (double *)((char *)hw + hw_schema.keys[key].off);
}

double param_get(const struct hw_desc *hw, int key)
{
    return *(const double *)((const char *)hw + hw_schema.keys[key].off);
}

int param_valid(const struct hw_desc *hw, int key, double v)
{
    char why[128];
    if (desc_number_check(&hw_schema.keys[key], v, why, sizeof why) != 0)
        return 0;
    struct hw_desc t = *hw;
    *param_ptr(&t, key) = v;
    const char *sec, *name;
    return hw_inconsistency(&t, &sec, &name) == NULL;
}

void param_eval(const struct cluster *base, const struct hw_desc *hw, struct train_result *r)
{
    struct cluster c = *base;
    c.hw = hw;
    if (!c.overlap_set)
        c.overlap = hw->mx.boundary_overlap;
    train_eval(&c, r);
}
