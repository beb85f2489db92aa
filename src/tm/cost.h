/* cost.h - the bill of materials of a cluster and what a training job on
 * it costs, for every kind.
 *
 * A bill of materials is lines of parts (systems, MemoryX servers, GPU
 * nodes, switches): each a count, and for one part its wall power, its
 * mean time between failures that stop the job and its capital price.
 * The job's failure rate is the sum of count / MTBF over the lines (parts
 * fail independently and any failure stops the job).
 *
 * Cost of a job that holds the cluster for wall_s seconds:
 *  - capital: each line's count x price, spread evenly over the years of
 *    the site (site.h), for wall_s: sum(count x price) x wall_s / years;
 *  - or rental, when a price per unit-hour is given (--price): units x
 *    wall hours x that price, in place of the capital part;
 *  - energy: the cluster's energy (its power over wall_s) x PUE x the
 *    price of a kWh.
 * A part whose price is 0 is not costed; a job with no price at all has
 * no cost (-1).
 *
 * Pure arithmetic and text, no I/O; SI units (seconds, W, J). */
#ifndef CP_COST_H
#define CP_COST_H

#include <stddef.h>

#include "../desc/site.h"

/* Bytes of a currency code a result keeps, with its NUL ("USD"). */
#define COST_CURRENCY_MAX 16

/* Most lines a kind's bill of materials has. */
#define COST_MAX_LINES 6

struct bom_line {
    const char *name; /* "systems", "memoryx", "nodes", "switches"        */
    double count;
    double power_W;   /* one part, wall power                              */
    double mtbf_s;    /* one part; 0: not counted as failing               */
    double price;     /* one part, capital, in the currency; 0: not costed */
};

struct cost_result {
    double capital;    /* amortised capital over the wall time (or rental) */
    double energy;     /* the energy's price, PUE included                 */
    double total;      /* capital + energy; -1 when nothing is priced       */
    double line[COST_MAX_LINES]; /* each line's share of capital (0 under rental) */
    int rental;        /* the capital part is the rental price             */
};

/* The failure rate of the lines, per second. */
double cost_failure_rate(const struct bom_line *b, size_t n);

/* The cost of holding the n lines b for wall_s seconds drawing energy_J,
 * at site s; rental_units x hours x rental_price replaces the capital
 * part when rental_price >= 0 (NAN or < 0: none).  Into o. */
void cost_eval(const struct bom_line *b, size_t n, double wall_s, double energy_J,
               const struct site_spec *s, double rental_units, double rental_price,
               struct cost_result *o);

/* v in currency for people, four significant digits with k, M or B:
 * "$31.42M" for USD, "EUR" and the like after the number ("31.42 M
 * EUR"), the plain number when currency is empty.  Returns buf. */
const char *cost_format(double v, const char *currency, char *buf, size_t n);

/* A money amount as a user writes it ("$10M", "10M USD", "2.5e6", "EUR
 * 400k", "1.5B"): into *v in units of the currency; the currency it names
 * (a symbol or a code; "" when none) into cur (at least 8 bytes).  0 on
 * success, -1 with why filled when text is not an amount. */
int cost_parse(const char *text, double *v, char *cur, size_t ncur, char *why, size_t nwhy);

/* Whether the currency a user named (cur, from cost_parse) is currency
 * (a code such as "USD"): the empty one always is; "$" is USD, "EUR" and
 * "€" EUR, ... */
int cost_currency_is(const char *cur, const char *currency);

#endif
