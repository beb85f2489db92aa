/* explore_draw.h - drawing the explorer's state with curses (stdscr). */
#ifndef CP_EXPLORE_DRAW_H
#define CP_EXPLORE_DRAW_H

#include "explore.h"

/* The smallest terminal the layout fits; smaller shows a message. */
#define XP_MIN_COLS 80
#define XP_MIN_LINES 24

enum { XP_GREEN = 1, XP_RED, XP_YELLOW, XP_CYAN };

/* Colours unless use_color is 0 (NO_COLOR) or the terminal has none. */
void xp_draw_init(int use_color);

/* The whole screen (no refresh). */
void xp_draw(const struct xp_state *x);

/* Points the chart has room for at the current width. */
int xp_chart_columns(void);

#endif
