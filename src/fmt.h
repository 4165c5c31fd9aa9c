/* fmt.h - fast number formatting for the writers.
 *
 * printf's exact decimal conversion dominated the time of writing a million
 * rows. These produce the same text as printf's "%.0f" (integers), "%.6g"
 * and "%.2f" for the values a report holds, by scaling to a 64-bit integer;
 * what does not fit (huge or tiny values) goes to printf. The "%.2f" form
 * may differ from printf in the last digit near a decimal tie (double
 * rounding); nothing downstream depends on it.
 */
#ifndef RL_FMT_H
#define RL_FMT_H

#include <stddef.h>

/* Writes V like "%.6g" (integers below 1e15 in full, like "%.0f"), or "inf",
 * into BUF (at least 32 bytes). Returns the length. */
size_t rl_fmt_num(char *buf, double v);

/* Writes V like "%.*f" with DECIMALS (0 to 6) places into BUF (at least 32
 * bytes); values with more than 12 significant digits fall back to printf.
 * Returns the length. */
size_t rl_fmt_fixed(char *buf, double v, int decimals);

/* Writes U in decimal into BUF (at least 21 bytes). Returns the length. */
size_t rl_fmt_u64(char *buf, unsigned long long u);

/* Microseconds as the tables print them: like "%.2f" below a second
 * (1e6 us), "%.3e" from there, cut to fit BUF of LEN bytes. Any double,
 * NaN and infinities included, fits a 32-byte buffer whole when it is
 * finite and below 1e12 or not below 1e6. Returns the length written. */
size_t rl_fmt_us(char *buf, size_t len, double us);

/* V with a decimal SI prefix (k, M, G, T, P, E: V divided by 1000 while
 * |V| >= 1000) and UNIT, its number like "%.*g" with DIGITS significant
 * digits: "12.3 GB", "989.4 TFLOP/s". Cut to fit BUF of LEN bytes. Returns
 * the length written. */
size_t rl_fmt_si(char *buf, size_t len, double v, int digits, const char *unit);

/* A runtime's host cost for a header line into BUF (LEN bytes): "6.60 us"
 * per launch when every op kind pays HOST_US (KIND_US NULL or all equal),
 * else the range over the kinds, "6.60-18.80 us". KIND_US: RL_KIND_COUNT
 * values (op.h). Returns what snprintf does. */
int rl_fmt_host(char *buf, size_t len, double host_us, const double *kind_us);

#endif
