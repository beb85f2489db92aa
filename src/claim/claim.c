/* claim.c - the words of the claims (claim.h): the kinds', figures' and
 * verdicts' names, and a speedup or fraction for people.  The table of
 * claim types is claim_types.c's. */
#include "claim.h"

#include <math.h>
#include <stdio.h>

const char *const claim_figure_name[CLAIM_NFIGURES] = {
    "",        "cores", "on_chip_memory", "memory_bandwidth", "fabric_bandwidth", "die_area",
    "memoryx", "chips", "nodes"};

const char *const claim_verdict_name[3] = {"holds", "conditional", "does not hold"};
const char *const claim_verdict_text[3] = {"holds", "holds only under stated conditions",
                                           "does not hold"};

char *claim_format_speedup(double x, char *buf, size_t n)
{
    if (fabs(x) < 99.95)
        snprintf(buf, n, "%#.3gx", x); /* '#' keeps the zeros of "6.70" */
    else if (fabs(x) < 1e4)
        snprintf(buf, n, "%.0fx", x);
    else
        snprintf(buf, n, "%.3gx", x);
    return buf;
}

char *claim_format_percent(double f, char *buf, size_t n)
{
    snprintf(buf, n, "%.1f%%", 100 * f);
    return buf;
}
