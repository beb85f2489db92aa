/* cmp_opts.h - the options of a comparison with a GPU cluster, shared by
 * `compare` and `report`: the weight-streaming system of -s and the GPU
 * system of --gpu, each refused by the flag's name when it is of the other
 * kind; the --set keys split between them ("gpu:section.key=value", or a
 * key of the gpu, network or fit sections, goes to the GPU); --gpu-price;
 * and the GPU layout of --precision, --tp, --pp, --cp, --vp, --mbs and
 * --fsdp, checked one by one against the job so that a refusal names the
 * flag. */
#ifndef CP_CMP_OPTS_H
#define CP_CMP_OPTS_H

#include "../desc/gpuhw.h"
#include "../plan/cmp.h"
#include "scenario_ws.h"

/* The description a --set is for: the GPU's key (set without "gpu:"), or
 * NULL for one that goes to the model or the weight-streaming system. */
const char *cmpo_gpu_set(const char *set);

/* Refuse name given to flag when its description is not of kind want (cmd
 * names the command in the message); a name that resolves to nothing is
 * left to the loader's message.  -1 or an exit code after a message. */
int cmpo_check_kind(const struct cli_opts *o, const char *cmd, const char *flag, const char *name,
                    enum gpuhw_kind want);

/* The model and weight-streaming system of -m and -s for cmd: -s (default
 * cs2) refused when it names a GPU system; ws gets o less the GPU's --set
 * keys, which go to gsets (*ng of them, pointing into o's strings), and
 * the scenario is loaded from ws into s.  -1 or an exit code. */
int cmpo_load_ws(const struct cli_opts *o, const char *cmd, struct cli_opts *ws, struct scenario *s,
                 const char **gsets, size_t *ng);

/* The GPU system name (--gpu's value, or the caller's default) with the n
 * --set keys sets into g; its origins into src (may be NULL) and its
 * catalog name into catname (may be NULL).  Refused by name when it is a
 * weight-streaming system.  -1 or an exit code. */
int cmpo_load_gpu(const struct cli_opts *o, const char *name, const char *const *sets, size_t n,
                  struct gpuhw_desc *g, struct desc_src *src, char *catname);

/* --gpu-price into *price, -1 when not given.  -1 or an exit code. */
int cmpo_gpu_price(const struct cli_opts *o, double *price);

/* --precision, --tp, --pp, --cp, --vp, --mbs and --fsdp into sp->layout,
 * checked against the job of sp->ws on sp->gpu (both set) one figure at a
 * time, so that a figure the job or the GPU refuses is named by its flag.
 * -1 or an exit code. */
int cmpo_layout(const struct cli_opts *o, struct cmp_spec *sp);

/* The fixed figures of l (parsed from o's --precision, --tp, --pp,
 * --mbs, --cp and --vp) against the job w on g, whatever the GPU count,
 * one at a time (gpu_search_fixed_check, then gscen_fixed_check), so
 * that a figure the job or the GPU refuses is named by its flag: `plan`,
 * `scale`, `compare` and `report` refuse them up front as `estimate`
 * does; then the job's figures the search lists (gpu_search_job_init: a
 * figure with too many divisors is named).  l is left as it was.  -1 or an exit code after a
 * message. */
int cmpo_fixed_check(const struct cli_opts *o, struct gpu_search_spec *l, const struct wl_desc *w,
                     const struct gpuhw_desc *g);


/* "tp 8 pp 4 dp 8 mbs 1 vp 12" SEP "bf16" SEP "recompute selective" (cp N
 * after pp when above 1, SEP "FSDP" after the figures when on) into buf;
 * returns buf. */
const char *cmpo_layout_text(const struct gpu_layout *l, const char *sep, char *buf, size_t n);

#endif
