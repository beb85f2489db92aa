/* fuzz_gcli.c - libFuzzer harness for the command line on GPUs: compare,
 * validate and the commands run with a GPU system.  It is fuzz_cli.c with
 * FUZZ_GPU_ONLY (see the header there): inputs that run neither on GPUs
 * nor validate are dropped, and claims too.
 *
 * Seeds: tests/fuzz/fuzz_gcli/ (one argument a line: the GPU systems,
 * compare and validate, with issue 30's inputs).  Built and run by
 * `make fuzz` and `make fuzz-smoke`. */
#define FUZZ_GPU_ONLY 1
#include "fuzz_cli.c"
