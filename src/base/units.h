/* units.h - physical dimensions, parsing "number unit" strings into SI base
 * units, and formatting SI values for people.
 *
 * Inside the program every quantity is a double in an SI base unit: bytes,
 * bytes/s, FLOP, FLOP/s, seconds, watts, or a plain count.  Units exist only
 * at the edges: unit_parse() at input, unit_format() at output.
 *
 * Accepted units (case-sensitive):
 *   prefixes     k M G T P E (10^3..10^18); Ki Mi Gi Ti Pi Ei (2^10..2^60,
 *                bytes and bits only)
 *   bytes        B, b (bit = 1/8 B)             e.g. 40 GB, 48 KiB
 *   byte rate    B/s, b/s                       e.g. 150 GB/s, 100 Gb/s
 *   FLOP         FLOP                           e.g. 3.14e23 FLOP
 *   FLOP rate    FLOP/s                         e.g. 7.5 PFLOP/s
 *   time         s ms us ns min h d             e.g. 1.5 us
 *   power        W (with prefixes)              e.g. 23 kW
 *   energy       J, Wh (with prefixes)          e.g. 500 MWh, 3.6 GJ
 *   count        no unit, or a bare decimal prefix   e.g. 3e11, 300 G
 *   fraction     no unit (0..1) or %            e.g. 0.45, 45 %
 */
#ifndef CP_UNITS_H
#define CP_UNITS_H

#include <stddef.h>

/* Seconds in an hour: prices are per system-hour and energy in Wh. */
#define UNIT_HOUR_S 3600.0

typedef enum {
    UNIT_COUNT = 0,
    UNIT_FRACTION,
    UNIT_BYTES,
    UNIT_BYTE_RATE,
    UNIT_FLOP,
    UNIT_FLOP_RATE,
    UNIT_TIME,
    UNIT_POWER,
    UNIT_ENERGY,
    UNIT_NDIMS
} unit_dim;

/* Name of a dimension for messages ("byte rate"), its SI base unit symbol
 * ("B/s"; "" for counts and fractions) and an example value ("150 GB/s"). */
const char *unit_dim_name(unit_dim d);
const char *unit_base_symbol(unit_dim d);
const char *unit_example(unit_dim d);

/* Classify a unit string (already trimmed).  On success stores its dimension
 * and its factor to the SI base unit and returns 0; returns -1 if the string
 * is not a unit this program knows.  "" is a count with factor 1. */
int unit_classify(const char *u, unit_dim *dim, double *factor);

/* Parse "number [unit]" as dimension want.  On success stores the value in
 * SI base units and returns 0.  On failure returns -1 and writes a short
 * reason with a hint into why (why_n bytes): not a number, NaN or infinite,
 * unknown unit, unit of the wrong dimension, missing unit. */
int unit_parse(const char *text, unit_dim want, double *out, char *why, size_t why_n);

/* Format an SI value for people with a scaled prefix ("7.5 PFLOP/s",
 * "40 GB", "1.5 us"); counts in full below 10^7 ("2048", "95367.4"), else
 * with four significant digits ("1.746e+11").  Writes at most n bytes; returns buf. */
char *unit_format(double v, unit_dim d, char *buf, size_t n);

/* Format an SI value for machines: no prefix, no unit, the shortest
 * decimal (up to 17 significant digits) that reads back as exactly v. */
char *unit_format_exact(double v, char *buf, size_t n);

/* A duration for people: four digits in ns .. d (unit_format) below two
 * years, then years of 365.25 d ("7.116 years").  Returns buf. */
char *unit_format_duration(double seconds, char *buf, size_t n);

/* Energy for people: joules as Wh, kWh, MWh, GWh or TWh, four digits
 * ("19.18 GWh").  Returns buf. */
char *unit_format_energy(double joules, char *buf, size_t n);

#endif
