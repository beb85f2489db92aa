/* cmd_report.c - `report`: a folder of CSV tables, gnuplot scripts, the
 * figures they render and an index.md, written into a temporary folder
 * beside DIR and renamed into place only when complete (report_folder.c,
 * which checks -o first; what --force may replace is judged here).  The
 * tables come from the same producers as the commands (est.h, produce.h;
 * models.csv from report_models.c, compare.csv from report_compare.c); the
 * folder records its command line and the resolved descriptions
 * (report_record.c).  The explorer's `r` calls cmd_report() with
 * options it fills itself: what is recorded is rebuilt from those options. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "config.h"
#include "../face/est.h"
#include "../cli/produce.h"
#include "../grid/grid.h"
#include "report_compare.h"
#include "report_decide.h"
#include "report_folder.h"
#include "report_models.h"
#include "report_record.h"
#include "report_unc.h"

#define REPORT_DEFAULT_DIR "report"
/* Room for a recorded command line: the explorer passes every hardware key. */
#define REPORT_CMD_MAX 16384

/* Cluster sizes of the breakdown figure, besides the generation's maximum
 * and the report's own N. */
static const double sizes[] = {1, 16, 64};
/* Sparsities of the sparsity figure. */
static const double sparsities[] = {0, 0.25, 0.5, 0.75, 0.8, 0.85, 0.9, 0.95, 0.98, 0.99};

struct figure {
    const char *name, *title, *data, *about;
};
static const struct figure figures[] = {
    {"scaling", "Weak and strong scaling", "scaling-weak.csv, scaling-strong.csv, estimate.csv",
     "Speedup and efficiency against the number of systems, with the ideal line, from one "
     "system to the generation's largest cluster; a dotted line marks this report's N, crosses "
     "the infeasible points."},
    {"models", "Time-to-train against model size", "models.csv",
     "Every model description, log-log, each on the cluster of the report's system that trains "
     "it fastest: the N from 1 to the generation's max_systems with the least time to train (the "
     "smallest such N), with MemoryX, activation servers and SwarmX sized for that run.  Left: "
     "each model on its own training-token count, which differs from model to model; right: "
     "every model on the same token count.  One point per model, not joined, labelled with the "
     "model and its N; the right axis marks durations from 1 day to 10^4 years; a model with no "
     "feasible N is left out and named under the panel."},
    {"breakdown", "Time to train and step time by resource", "breakdown.csv",
     "Left: the time to train at each cluster size on a log axis, labelled in readable units "
     "with the step time.  Right: the share of the step each resource sets the pace for (the "
     "parts sum to the step time), per cluster size."},
    {"sparsity", "Speedup against sparsity", "sparsity.csv, estimate.csv",
     "Step-time speedup over dense at the report's cluster size, against the ideal 1 / (1 - s), "
     "and the time to train; infeasible points are red crosses."},
    {"capacity", "MemoryX capacity ladder", "capacity.csv",
     "The system's MemoryX tiers against the model's state."},
    {"validation", "The model against measured runs", "validation.csv",
     "Every measured run of hw/measurements.csv: the model's throughput or speedup against the "
     "measurement, log-log, with y = x and a 10 % band; open marks are the leave-one-out "
     "predictions (the fitted constants refitted without the point)."},
    {"crosscheck", "Analytic model against the simulator", "crosscheck.csv",
     "Step time of every crosscheck configuration, simulated against analytic, with y = x."},
    {"compare", "Time-to-train against power: weight streaming and GPUs", "compare.csv, names.csv",
     "The same job, the report's model at its global batch and training tokens, on "
     "weight-streaming clusters and on GPU clusters: time-to-train in days against the "
     "cluster's power in kW, log-log, each point labelled with its systems or GPUs.  At equal "
     "power the lower curve trains faster; at equal time the curve further left draws less "
     "power.  Infeasible weight-streaming sizes are crosses."},
};
#define NFIGURES (sizeof figures / sizeof figures[0])

static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* The tables a report writes, beside the figures' scripts and images,
 * index.md and the hw/ and models/ folders (what --force may replace). */
static const char *const tables[] = {"estimate.csv",       "names.csv",    "scaling-weak.csv",
                                     "scaling-strong.csv", "models.csv",   "breakdown.csv",
                                     "sparsity.csv",       "capacity.csv", "validation.csv",
                                     "crosscheck.csv",     "claims.csv",   "compare.csv",
                                     "uncertainty.csv",    "decision.csv"};

/* 1 if name is a file a report writes at the top of its folder. */
static int report_file(const char *name)
{
    if (strcmp(name, "index.md") == 0)
        return 1;
    for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++)
        if (strcmp(name, tables[i]) == 0)
            return 1;
    const char *dot = strrchr(name, '.');
    if (!dot || (strcmp(dot, ".gp") != 0 && strcmp(dot, ".png") != 0 && strcmp(dot, ".svg") != 0))
        return 0;
    for (size_t i = 0; i < NFIGURES; i++)
        if (strlen(figures[i].name) == (size_t)(dot - name) &&
            strncmp(name, figures[i].name, (size_t)(dot - name)) == 0)
            return 1;
    return 0;
}

/* name for a message: control bytes as '?', cut to fit. */
static void shown_name(const char *name, char *buf, size_t n)
{
    size_t k = 0;
    for (; *name && k + 1 < n; name++)
        buf[k++] = (unsigned char)*name < ' ' || *name == 0x7f ? '?' : *name;
    buf[k] = '\0';
}

static int only_ours(DIR *d, const char *sub, char *why, size_t n);

/* only_ours() on the folder sub (hw or models) of the folder d. */
static int only_ours_in(DIR *d, const char *sub, char *why, size_t n)
{
    int fd = openat(dirfd(d), sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
    DIR *s = fd >= 0 ? fdopendir(fd) : NULL;
    if (!s) {
        if (fd >= 0)
            close(fd);
        return snprintf(why, n, "%s/ cannot be read", sub), 0;
    }
    int ok = only_ours(s, sub, why, n);
    closedir(s);
    return ok;
}

/* 1 if every entry of the folder d is one a report writes, else 0 with the
 * reason in why: at the top (sub NULL) the files of report_file() and the
 * folders hw/ and models/, in those (sub their name) .ini files.  Symbolic
 * links, other folders and files of other names are the user's. */
static int only_ours(DIR *d, const char *sub, char *why, size_t n)
{
    int ok = 1;
    char name[256];
    for (struct dirent *e; ok && (e = readdir(d));) {
        const char *nm = e->d_name, *dot = strrchr(nm, '.');
        struct stat st;
        if (strcmp(nm, ".") == 0 || strcmp(nm, "..") == 0 ||
            fstatat(dirfd(d), nm, &st, AT_SYMLINK_NOFOLLOW) != 0) /* or gone meanwhile */
            continue;
        if (S_ISREG(st.st_mode) && (sub ? dot && strcmp(dot, ".ini") == 0 : report_file(nm)))
            continue;
        if (!sub && S_ISDIR(st.st_mode) && (strcmp(nm, "hw") == 0 || strcmp(nm, "models") == 0)) {
            ok = only_ours_in(d, nm, why, n);
            continue;
        }
        shown_name(nm, name, sizeof name);
        snprintf(why, n, "it holds %s%s%s%s, which a report does not write", sub ? sub : "",
                 sub ? "/" : "", name, S_ISDIR(st.st_mode) ? "/" : "");
        ok = 0;
    }
    return ok;
}

/* 1 if dir/index.md was written by cerebras-plan: a "Written by
 * cerebras-plan" line among its first lines, as index_head() writes. */
static int our_index(const char *dir)
{
    char path[REPORT_PATH_MAX + 16], line[512];
    snprintf(path, sizeof path, "%s/index.md", dir);
    FILE *f = fopen(path, "r");
    int ours = 0;
    for (int i = 0; f && i < 4 && !ours && fgets(line, sizeof line, f); i++)
        ours = strncmp(line, "Written by cerebras-plan ", 25) == 0;
    if (f)
        fclose(f);
    return ours;
}

/* report_holds_fn: a folder --force may replace holds index.md as a report
 * writes it and otherwise only what only_ours() allows. */
static int holds_report(const char *dir, char *why, size_t n)
{
    DIR *d = opendir(dir);
    if (!d)
        return snprintf(why, n, "it cannot be read: %s", strerror(errno)), 0;
    int ok = only_ours(d, NULL, why, n);
    closedir(d);
    if (ok && !our_index(dir))
        return snprintf(why, n, "no index.md written by cerebras-plan"), 0;
    return ok;
}

static int write_table(const char *dir, const char *name, const struct out_table *t)
{
    char path[REPORT_PATH_MAX + 128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return cli_error("report: %s: %s", path, strerror(errno));
    out_csv.write(f, t);
    return report_close(f, path);
}

static int write_text(const char *dir, const char *name, const char *text)
{
    char path[REPORT_PATH_MAX + 128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f)
        return cli_error("report: %s: %s", path, strerror(errno));
    fputs(text, f);
    return report_close(f, path);
}

/* The cluster sizes of the breakdown figure: sizes[] up to
 * the maximum, the maximum, and n; sorted, distinct.  Returns the count. */
static size_t cluster_sizes(double max, double n, double *out)
{
    size_t k = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (sizes[i] < max)
            out[k++] = sizes[i];
    out[k++] = max;
    int have = 0;
    for (size_t i = 0; i < k; i++)
        have |= out[i] == n;
    if (!have)
        out[k++] = n;
    for (size_t i = 1; i < k; i++) /* insertion sort */
        for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
            double x = out[j];
            out[j] = out[j - 1], out[j - 1] = x;
        }
    return k;
}

/* "1,2,4,...,max" for the scaling figure. */
static void power_list(double max, char *buf, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (double p = 1; p < max && len < n; p *= 2)
        len += (size_t)snprintf(buf + len, n - len, "%g,", p);
    if (len < n)
        snprintf(buf + len, n - len, "%g", max);
}

/* The estimate's rows for s at the cluster sizes ns[0..k). */
static int estimate_rows(const struct scenario *s, const double *ns, size_t k, struct out_table *t)
{
    out_init(t, est_ncols, est_header);
    struct grid g = {.base = &s->c, .ns = ns, .nn = k, .mode = SCALE_STRONG};
    for (size_t i = 0; i < k; i++) {
        struct cluster c;
        struct train_result r;
        grid_eval(&g, i, &c, &r);
        est_row(t, s, &c, &r);
    }
    return -1;
}

static const char *const sp_header[] = {"sparsity",        "step_time_s", "speedup",
                                        "time_to_train_s", "bottleneck",  "feasible"};

static int sparsity_table(const struct scenario *s, struct out_table *t)
{
    out_init(t, sizeof sp_header / sizeof sp_header[0], sp_header);
    double dense = 0;
    struct grid g = {.base = &s->c, .sp = sparsities, .nsp = sizeof sparsities / sizeof sparsities[0],
                     .ns = &s->c.systems, .nn = 1, .mode = SCALE_STRONG};
    for (size_t i = 0; i < grid_size(&g); i++) {
        struct cluster c;
        struct train_result r;
        grid_eval(&g, i, &c, &r);
        if (i == 0)
            dense = r.step.step_s;
        char b[4][48];
        out_row(t, (const char *[]){unit_format_exact(c.sparsity, b[0], sizeof b[0]),
                                    unit_format_exact(r.step.step_s, b[1], sizeof b[1]),
                                    unit_format_exact(dense / r.step.step_s, b[2], sizeof b[2]),
                                    unit_format_exact(r.time_s, b[3], sizeof b[3]),
                                    step_res_name[r.step.bottleneck], r.feasible ? "1" : "0"});
    }
    return -1;
}

/* names.csv: the display names (the name keys) of the report's model,
 * system and GPU beside the names they were given by, for the figures'
 * titles. */
static int names_table(const struct scenario *s, const struct report_cmp *x, struct out_table *t)
{
    static const char *const header[] = {"model",       "model_name", "system",
                                         "system_name", "gpu",        "gpu_name"};
    out_init(t, 6, header);
    out_row(t,
            (const char *[]){s->model, s->wl.name, s->system, s->hw.wse.name, x->gpu, x->g.name});
    return -1;
}

/* Copy reports/NAME.gp (search path, else built in) into dir. */
static int copy_script(const struct cli_opts *o, const char *dir, const char *name)
{
    char file[64];
    snprintf(file, sizeof file, "%s.gp", name);
    struct cat_entry e;
    struct cp_error err = {0};
    if (cat_find_data(&o->dirs, "reports", file, &e, &err) != CP_OK)
        return cli_error("report: %s", err.msg);
    int rc = write_text(dir, file, e.text);
    cat_entry_free(&e);
    return rc;
}

/* Run gnuplot on NAME.gp in dir.  -1 rendered; -3 gnuplot is not installed;
 * else an exit code after a message (its stderr is passed on). */
static int render(const char *dir, const char *name, const char *fmt)
{
    char script[64], opt[32], log[REPORT_PATH_MAX + 128];
    snprintf(script, sizeof script, "%s.gp", name);
    snprintf(opt, sizeof opt, "fmt='%s'", fmt);
    snprintf(log, sizeof log, "%s/.%s.log", dir, name);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return cli_error("report: cannot start gnuplot: %s", strerror(errno));
    if (pid == 0) {
        if (chdir(dir) != 0 || !freopen(log + strlen(dir) + 1, "w", stderr) ||
            !freopen("/dev/null", "w", stdout))
            _exit(126);
        execlp("gnuplot", "gnuplot", "-e", opt, script, (char *)NULL);
        _exit(errno == ENOENT ? 127 : 126);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return cli_error("report: waiting for gnuplot: %s", strerror(errno));
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
    FILE *f = fopen(log, "r");
    int warned = 0;
    if (f) {
        char line[512];
        while (fgets(line, sizeof line, f)) {
            fprintf(stderr, "cerebras-plan: report: gnuplot %s: %s", script, line);
            warned = 1;
        }
        fclose(f);
    }
    remove(log);
    if (code == 127)
        return -3;
    if (code != 0 || warned)
        return cli_error("report: gnuplot failed on %s (exit %d)", script, code);
    return -1;
}

static void md_escape(const char *in, char *out, size_t n)
{
    size_t k = 0;
    for (; *in && k + 2 < n; in++) {
        if (*in == '|')
            out[k++] = '\\';
        out[k++] = *in;
    }
    out[k] = '\0';
}

/* What index.md says about the run besides the tables: the command that
 * made it and the one that remakes it from the recorded descriptions. */
struct report_run {
    const struct cli_opts *given; /* the options as given (with the GPU's --set) */
    const struct scenario *s;
    const struct train_result *r;
    struct report_cmp *cmp;
    const char *fmt;
    int rendered;
    char cmd[REPORT_CMD_MAX], again[REPORT_CMD_MAX];
    char hw[CAT_NAME_MAX + 16], model[CAT_NAME_MAX + 16];
};

static void index_head(FILE *f, const struct report_run *run)
{
    const struct scenario *s = run->s;
    fprintf(f, "# %s on %s: training plan\n\n", s->wl.name, s->hw.wse.name);
    fprintf(f, "Written by cerebras-plan %s with\n\n    %s\n\n", CP_VERSION, run->cmd);
    report_decide_index(f, s, run->cmp);
    fprintf(f, "## The report's cluster\n\n");
    fprintf(f,
            "Every number comes from the analytic weight-streaming model (cerebras-plan(1),\n"
            "MODEL), the comparison's GPU side from the GPU model (GPU MODEL), and the\n"
            "descriptions they name; the tables are CSV in SI base units beside this\n"
            "file.  The hardware, the model and the GPU as this report resolved them\n"
            "(files, overlay and --set applied) are `%s`, `%s` and\n"
            "`%s`; from this folder\n\n    %s\n\n"
            "makes the same tables from them.  The claims, the validation and the\n"
            "cross-check use the descriptions as found on the search path, without this\n"
            "report's options.\n\n",
            run->hw, run->model, run->cmp->file, run->again);
}

static void index_numbers(FILE *f, const struct report_run *run)
{
    const struct scenario *s = run->s;
    const struct train_result *r = run->r;
    const struct cluster *c = &s->c;
    char a[64], b[64], w[256];
    fprintf(f, "| quantity | value |\n|---|---|\n");
    fprintf(f,
            "| cluster | %g x %s, MemoryX %s (%g servers, %s), %g activation servers per "
            "system, %g SwarmX nodes |\n",
            c->systems, s->hw.wse.name, s->tier, r->step.mx_servers,
            unit_format(r->memoryx_bytes, UNIT_BYTES, a, sizeof a), r->step.act_servers,
            r->swx_nodes);
    fprintf(f, "| sparsity | %g |\n", c->sparsity);
    fprintf(f, "| global batch | %g sequences x %g tokens |\n", c->global_seqs, s->wl.seq_len);
    fprintf(f, "| step time | %s (bottleneck: %s) |\n",
            unit_format(r->step.step_s, UNIT_TIME, a, sizeof a), step_res_name[r->step.bottleneck]);
    fprintf(f, "| time to train | %s for %s tokens |\n", out_duration(r->time_s, a, sizeof a),
            unit_format(r->tokens, UNIT_COUNT, b, sizeof b));
    fprintf(f, "| throughput | %s tokens/s |\n",
            unit_format(r->tokens_per_s, UNIT_COUNT, a, sizeof a));
    fprintf(f, "| energy | %s at %s |\n", out_energy(r->energy_J, a, sizeof a),
            unit_format(r->power_W, UNIT_POWER, b, sizeof b));
    fprintf(f, "| feasible | %s%s%s |\n\n", r->feasible ? "yes" : "no",
            r->warnings ? "; warnings: " : "", train_warn_names(r->warnings, w, sizeof w));
}

static void index_figures(FILE *f, const struct report_run *run)
{
    for (size_t i = 0; i < NFIGURES; i++) {
        const struct figure *g = &figures[i];
        fprintf(f, "## %s\n\n", g->title);
        if (run->rendered)
            fprintf(f, "![%s](%s.%s)\n\n", g->title, g->name, run->fmt);
        fprintf(f, "%s", g->about);
        if (strcmp(g->name, "models") == 0)
            fprintf(f,
                    "  Here N runs from 1 to %g systems of %s, and the right panel is at "
                    "%g billion tokens; models.csv gives each model's N, MemoryX servers, "
                    "activation servers per system and SwarmX nodes at its own tokens "
                    "(systems, memoryx_servers, act_servers, swarmx_nodes) and at the fixed "
                    "count (the same names with fixed_ in front).",
                    run->s->hw.wse.max_systems, run->s->hw.wse.name, REPORT_FIXED_TOKENS / 1e9);
        if (strcmp(g->name, "compare") == 0)
            report_cmp_index(f, run->s, run->cmp);
        fprintf(f, "  Data: %s; script: `%s.gp`.\n\n", g->data, g->name);
    }
}

/* The claims as `claims` words them (claims is its table for people). */
static void index_claims(FILE *f, const struct out_table *claims)
{
    fprintf(f, "## Claims\n\nThe vendor's headline claims run as scenarios, as `cerebras-plan "
               "claims` prints them (claims.csv has the exact figures):\n\n"
               "| id | claim | predicted | verdict | why |\n|---|---|---|---|---|\n");
    for (size_t i = 0; i < claims->nrows; i++) {
        const char *const *row = (const char *const *)&claims->cells[i * claims->ncols];
        char text[512], why[2048];
        md_escape(row[1], text, sizeof text);
        md_escape(row[9], why, sizeof why);
        fprintf(f, "| %s | %s | %s | %s | %s |\n", row[0], text, row[7], row[8], why);
    }
}

static int write_index(const char *dir, const struct report_run *run,
                       const struct out_table *claims)
{
    char path[REPORT_PATH_MAX + 128];
    snprintf(path, sizeof path, "%s/index.md", dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return cli_error("report: %s: %s", path, strerror(errno));
    index_head(f, run);
    index_numbers(f, run);
    report_unc_index(f, run->s, run->cmp);
    index_figures(f, run);
    index_claims(f, claims);
    fprintf(f,
            "\n## Files\n\n- `estimate.csv`: the scenario above, the columns of "
            "`estimate --csv`.\n"
            "- `names.csv`: the names of the model, the system and the GPU (their `name` keys), "
            "for the figures' titles.\n"
            "- `%s`, `%s`, `%s`: the hardware, the model and the GPU as resolved.\n"
            "- `*.csv`: the data of each figure; `*.gp`: the gnuplot script that draws it\n"
            "  from the CSV alone: `gnuplot -e \"fmt='svg'\" scaling.gp` (or `png`).\n",
            run->hw, run->model, run->cmp->file);
    if (!run->rendered)
        fprintf(f, "\nThe figures were not rendered (gnuplot is not installed); run the "
                   "scripts above to draw them.\n");
    return report_close(f, path);
}

/* The options of the sections that do not depend on the scenario (claims,
 * validation, cross-check): the search path, and --max-events for the
 * cross-check. */
static struct cli_opts plain_opts(const struct cli_opts *o)
{
    return (struct cli_opts){
        .csv = o->csv, .data_dir = o->data_dir, .dirs = o->dirs, .max_events = o->max_events};
}

/* The tables of the scenario and the comparison x, into tmp. */
static int scenario_tables(struct cli_opts *o, struct scenario *s, struct report_cmp *x,
                           const char *tmp)
{
    struct out_table t = {0};
    double ns[8];
    size_t k = cluster_sizes(s->hw.wse.max_systems, s->c.systems, ns);
    estimate_rows(s, &s->c.systems, 1, &t);
    int rc = write_table(tmp, "estimate.csv", &t);
    out_free(&t);
    if (rc < 0 && (rc = names_table(s, x, &t)) < 0)
        rc = write_table(tmp, "names.csv", &t);
    out_free(&t);
    char list[512];
    power_list(s->hw.wse.max_systems, list, sizeof list);
    const enum scaling modes[2] = {SCALE_WEAK, SCALE_STRONG};
    const char *names[2] = {"scaling-weak.csv", "scaling-strong.csv"};
    for (int i = 0; i < 2 && rc < 0; i++) {
        int all;
        if ((rc = scale_table(o, s, modes[i], list, NULL, &t, &all)) < 0)
            rc = write_table(tmp, names[i], &t);
        out_free(&t);
    }
    if (rc < 0 && (rc = report_models_table(o, s, &t)) < 0)
        rc = write_table(tmp, "models.csv", &t);
    out_free(&t);
    if (rc < 0 && (rc = estimate_rows(s, ns, k, &t)) < 0)
        rc = write_table(tmp, "breakdown.csv", &t);
    out_free(&t);
    if (rc < 0 && (rc = sparsity_table(s, &t)) < 0)
        rc = write_table(tmp, "sparsity.csv", &t);
    out_free(&t);
    if (rc < 0 && (rc = report_cmp_table(s, x, &t)) < 0)
        rc = write_table(tmp, "compare.csv", &t);
    out_free(&t);
    if (rc < 0 && (rc = report_unc_table(s, x, &t)) < 0)
        rc = write_table(tmp, "uncertainty.csv", &t);
    out_free(&t);
    if (rc < 0 && (rc = report_decide_table(o, s, x, &t)) < 0)
        rc = write_table(tmp, "decision.csv", &t);
    out_free(&t);
    if (rc < 0) {
        int fits;
        char where[1024], vendor[1024];
        struct cli_opts co = *o; /* the same names or files, which resolve alike */
        co.model = o->model ? o->model : SCENARIO_DEFAULT_MODEL;
        co.system = o->system ? o->system : SCENARIO_DEFAULT_SYSTEM;
        if ((rc = capacity_table(&co, &t, &fits, where, vendor, sizeof where)) < 0)
            rc = write_table(tmp, "capacity.csv", &t);
        out_free(&t);
    }
    return rc;
}

/* The figures: their scripts, then gnuplot on each.  *rendered is 0 when
 * gnuplot is not installed. */
static int draw(const struct cli_opts *o, const char *tmp, const char *fmt, int *rendered)
{
    int rc = -1;
    *rendered = 1;
    for (size_t i = 0; i < NFIGURES && rc < 0 && !interrupted; i++)
        rc = copy_script(o, tmp, figures[i].name);
    for (size_t i = 0; i < NFIGURES && rc < 0 && *rendered && !interrupted; i++) {
        rc = render(tmp, figures[i].name, fmt);
        if (rc == -3) {
            *rendered = 0, rc = -1;
            fprintf(stderr, "cerebras-plan: report: gnuplot is not installed; the figures are "
                            "not rendered (run the *.gp scripts in the folder to draw them)\n");
        }
    }
    return rc;
}

/* Everything but the rename, into tmp. */
static int build(struct cli_opts *o, struct scenario *s, const char *tmp, struct report_run *run)
{
    struct out_table t = {0};
    struct train_result r;
    train_eval(&s->c, &r);
    run->s = s, run->r = &r;
    int rc = report_write_descs(tmp, run->given, s);
    if (rc < 0)
        rc = report_write_gpu(tmp, run->cmp->file, run->given, &run->cmp->g, &run->cmp->src);
    o->csv = 1;
    if (rc < 0)
        rc = scenario_tables(o, s, run->cmp, tmp);
    struct cli_opts plain = plain_opts(o);
    if (rc < 0 && !interrupted && (rc = validate_table(&plain, &t)) < 0)
        rc = write_table(tmp, "validation.csv", &t);
    out_free(&t);
    double worst, median;
    if (rc < 0 && !interrupted && (rc = crosscheck_table(&plain, &t, &worst, &median)) < 0)
        rc = write_table(tmp, "crosscheck.csv", &t);
    out_free(&t);
    char origin[CAT_ORIGIN_MAX];
    if (rc < 0 && (rc = claims_table(&plain, NULL, &t, origin, sizeof origin)) < 0)
        rc = write_table(tmp, "claims.csv", &t);
    out_free(&t);
    if (rc < 0)
        rc = draw(o, tmp, run->fmt, &run->rendered);
    plain.csv = 0; /* the claims again, worded as `claims` prints them */
    if (rc < 0 && !interrupted && (rc = claims_table(&plain, NULL, &t, origin, sizeof origin)) < 0)
        rc = write_index(tmp, run, &t);
    out_free(&t);
    if (rc < 0 && interrupted)
        rc = cli_error("report: interrupted; no report written");
    return rc;
}

/* "../NAME-again": where the command in index.md writes its copy. */
static void again_dir(const char *dir, char *buf, size_t n)
{
    const char *base = strrchr(dir, '/');
    snprintf(buf, n, "../%s-again", base ? base + 1 : dir);
}

/* Every signal whose default ends the process and that a terminal, a
 * scheduler or a limit sends: while they are caught the build stops between
 * tables and the half-built folder is removed. */
static const int caught[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT, SIGALRM,
                             SIGUSR1, SIGUSR2, SIGPIPE, SIGXCPU, SIGXFSZ};
#define NCAUGHT (sizeof caught / sizeof caught[0])

/* Build the report into a temporary folder beside f's and put it in
 * place, with the signals above caught.  -1 or an exit code. */
static int build_in_place(struct cli_opts *o, struct scenario *s, struct report_folder *f,
                          struct report_run *run)
{
    struct sigaction sa = {.sa_handler = on_signal}, old[NCAUGHT];
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NCAUGHT; i++)
        sigaction(caught[i], &sa, &old[i]);
    int rc = report_folder_begin(f);
    if (rc < 0)
        rc = build(o, s, f->tmp, run);
    char said[REPORT_PATH_MAX + 512];
    snprintf(said, sizeof said,
             "report written to %s/ (index.md, %zu figures as %s, their CSV data and gnuplot "
             "scripts, the hardware, model and GPU as %s, %s and %s)\n",
             f->shown, NFIGURES, run->fmt, run->hw, run->model, run->cmp->file);
    if (rc < 0)
        rc = report_folder_commit(f, said);
    report_folder_abort(f);
    for (size_t i = 0; i < NCAUGHT; i++)
        sigaction(caught[i], &old[i], NULL);
    return rc;
}

int cmd_report(struct cli_opts *o)
{
    static struct report_run run;
    static struct report_folder f;
    run.fmt = o->format ? o->format : "png";
    if (strcmp(run.fmt, "png") != 0 && strcmp(run.fmt, "svg") != 0)
        return cli_error("--format '%s': png or svg", run.fmt);
    int rc =
        report_folder_check(&f, o->output ? o->output : REPORT_DEFAULT_DIR, o->force, holds_report);
    if (rc >= 0)
        return rc;

    static struct scenario s;
    static struct cli_opts ws; /* o less the GPU's --set keys */
    static struct report_cmp x;
    const char *gsets[CLI_MAX_SETS];
    size_t ng;
    if ((rc = cmpo_load_ws(o, "report", &ws, &s, gsets, &ng)) >= 0)
        return rc;
    if (!o->nsys)
        s.c.systems = s.hw.wse.max_systems;
    struct cp_error err = {0};
    if (cluster_check(&s.c, &err) != CP_OK)
        return cli_error("%s", err.msg);
    if ((rc = report_cmp_load(o, gsets, ng, &s, &x)) >= 0 || (rc = report_decide_opts(o, &x)) >= 0)
        return rc;
    run.given = o;
    run.cmp = &x;
    char again[REPORT_PATH_MAX + 16];
    again_dir(f.shown, again, sizeof again);
    report_cmdline(o, &s, REPORT_CMD_GIVEN, NULL, NULL, run.cmd, sizeof run.cmd);
    report_cmdline(o, &s, REPORT_CMD_FILES, again, x.file, run.again, sizeof run.again);
    report_desc_paths(&s, run.hw, run.model, sizeof run.hw);
    rc = build_in_place(&ws, &s, &f, &run);
    return rc < 0 ? EXIT_OK : rc;
}
