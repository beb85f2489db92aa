/* report_record.h - what a report folder records so that it can be made
 * again: the command line that made it, rebuilt from the options and
 * shell-quoted, and the hardware, model and GPU descriptions as the report
 * resolved them (files, overlay and --set applied), written as description
 * files that `report -m FILE -s FILE --gpu FILE` reads back to the same
 * numbers. */
#ifndef CP_REPORT_RECORD_H
#define CP_REPORT_RECORD_H

#include <stdio.h>

#include "../face/scenario_ws.h"
#include "../desc/gpuhw.h"

/* Which options report_cmdline() writes. */
enum report_cmd {
    REPORT_CMD_GIVEN, /* every option in o, as given: the command that ran  */
    REPORT_CMD_FILES, /* the scenario and GPU options only, with -m, -s and
                         --gpu naming the files report_write_descs() and
                         report_write_gpu() wrote, relative to the folder
                         (no --set, --hw-overlay, --data-dir)             */
};

/* "cerebras-plan report ..." for o (the options the report ran with, as
 * main or the explorer filled them; s the scenario they loaded), each word
 * quoted for a POSIX shell where it needs it.  REPORT_CMD_FILES ends with
 * "-o OUT", OUT given by the caller, and names the GPU by gpu_file, the
 * resolved copy report_write_gpu() wrote.  Writes at most n bytes into
 * buf, truncating; returns buf. */
char *report_cmdline(const struct cli_opts *o, const struct scenario *s, enum report_cmd which,
                     const char *out, const char *gpu_file, char *buf, size_t n);

/* The description files of s, relative to the folder:
 * "hw/SYSTEM.ini" and "models/MODEL.ini" (SYSTEM and MODEL the names the
 * report ran under, so that a rerun on the files names its rows alike). */
void report_desc_paths(const struct scenario *s, char *hw, char *model, size_t n);

/* Write the two description files of s into dir (which exists), creating
 * its hw/ and models/ folders; o gives the overrides to name in their
 * headers.  Every key is written at its resolved value, exact, in SI base
 * units, with the +- ranges of the hardware.  -1 on success, else an exit
 * code after a message. */
int report_write_descs(const char *dir, const struct cli_opts *o, const struct scenario *s);

/* Write the GPU description g (its origins in src) as dir/rel (in the
 * hw/ folder report_write_descs() made) as report_write_descs() writes
 * the hardware, naming o's --set keys for the GPU in its header.  -1 on
 * success, else an exit code after a message. */
int report_write_gpu(const char *dir, const char *rel, const struct cli_opts *o,
                     const struct gpuhw_desc *g, const struct desc_src *src);

#endif
