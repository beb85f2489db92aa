/* step_text.c - the names of a step's resources and links, and a
 * placement's label (the words for step.h's figures; sweep writes them for
 * every row, so without snprintf on the common paths). */
#include "step.h"

#include <stdio.h>
#include <string.h>

const char *const step_res_name[STEP_NRES] = {"compute", "stream_in", "stream_out",
                                              "update",  "latency",   "overhead"};

const char *const step_link_key[STEP_NLINKS] = {"system.io_bandwidth", "swarmx.link_bandwidth",
                                                "memoryx.server_network",
                                                "swarmx.reduce_bandwidth"};

const char *step_link_names(unsigned bind, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < STEP_NLINKS; i++) {
        if (!(bind & (1u << i)))
            continue;
        /* memcpy, not snprintf: sweep writes this for every row */
        size_t k = strlen(step_link_key[i]) + (len > 0);
        if (k >= n - len)
            break;
        if (len)
            buf[len] = ';';
        memcpy(buf + len + (len > 0), step_link_key[i], k - (len > 0) + 1);
        len += k;
    }
    return buf;
}

const char *step_act_label(const struct step_result *r, char *buf, size_t n)
{
    /* without snprintf on the common paths: sweep labels every row */
    const char *name = act_mode_name[r->act];
    size_t len = strlen(name);
    if (n == 0)
        return buf;
    if (r->act != ACT_RECOMPUTE || !(r->act_k >= 1 && r->act_k < 1e9)) {
        if (r->act == ACT_RECOMPUTE)
            snprintf(buf, n, "recompute:%.0f", r->act_k);
        else if (len < n)
            memcpy(buf, name, len + 1);
        else
            buf[0] = '\0';
        return buf;
    }
    char digits[16], *p = digits + sizeof digits;
    unsigned long k = (unsigned long)(r->act_k + 0.5);
    *--p = '\0';
    do
        *--p = (char)('0' + k % 10);
    while (k /= 10);
    size_t nd = (size_t)(digits + sizeof digits - 1 - p);
    if (len + 1 + nd < n) {
        memcpy(buf, name, len);
        buf[len] = ':';
        memcpy(buf + len + 1, p, nd + 1);
    } else {
        buf[0] = '\0';
    }
    return buf;
}
