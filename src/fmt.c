/* fmt.c - fast number formatting (see fmt.h). */
#include "config.h"

#include "fmt.h"

#include "op.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const double pow10_tab[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static const char two_digits[] = "00010203040506070809101112131415161718192021222324"
                                 "25262728293031323334353637383940414243444546474849"
                                 "50515253545556575859606162636465666768697071727374"
                                 "75767778798081828384858687888990919293949596979899";

/* The number of decimal digits of U. */
static inline size_t digits_u64(uint64_t u)
{
	size_t n = 1;

	while (u >= 10000) {
		u /= 10000;
		n += 4;
	}
	return n + (u >= 10) + (u >= 100) + (u >= 1000);
}

/* Writes U in decimal, two digits per division, from its last digit back
 * into place; returns the length. */
static size_t put_u64(char *buf, uint64_t u)
{
	size_t n = digits_u64(u), i = n;

	buf[n] = '\0';
	while (u >= 100) {
		i -= 2;
		memcpy(buf + i, two_digits + 2 * (u % 100), 2);
		u /= 100;
	}
	if (u >= 10)
		memcpy(buf, two_digits + 2 * u, 2);
	else
		buf[0] = (char)('0' + u);
	return n;
}

/* What snprintf wrote into a buffer of CAP bytes: its return value, less
 * what it cut (a value of 300 digits in a 32-byte buffer). */
static size_t clamped(int n, size_t cap)
{
	if (n < 0)
		return 0;
	return (size_t)n < cap ? (size_t)n : cap - 1;
}

size_t rl_fmt_u64(char *buf, unsigned long long u)
{
	return put_u64(buf, u);
}

size_t rl_fmt_fixed(char *buf, double v, int decimals)
{
	size_t n = 0;
	uint64_t scaled, ip, fp, scale;
	int i;

	if (!isfinite(v) || decimals < 0 || decimals > 6 ||
	    fabs(v) * pow10_tab[decimals] >= 1e12)
		return clamped(snprintf(buf, 32, "%.*f", decimals < 0 ? 0 : decimals, v), 32);
	if (v < 0) {
		buf[n++] = '-';
		v = -v;
	}
	scale = (uint64_t)pow10_tab[decimals];
	scaled = (uint64_t)llround(v * (double)scale);
	ip = scaled / scale;
	fp = scaled % scale;
	n += put_u64(buf + n, ip);
	if (decimals > 0) {
		buf[n++] = '.';
		for (i = decimals - 1; i >= 0; i--) {
			buf[n + (size_t)i] = (char)('0' + fp % 10);
			fp /= 10;
		}
		n += (size_t)decimals;
		buf[n] = '\0';
	}
	return n;
}

/* round(v / 10^(e - 5)): six digits when 10^e <= v < 10^(e+1). Scaling by an
 * exact power of ten rounds once. */
static inline uint64_t scale6(double v, int e)
{
	int k = e - 5;

	/* x + 0.5 truncated is llround for 0 <= x < 2^52, without the call */
	if (k >= 0 && k <= 22)
		return (uint64_t)(v / pow10_tab[k] + 0.5);
	if (k < 0 && k >= -22)
		return (uint64_t)(v * pow10_tab[-k] + 0.5);
	return (uint64_t)llround(v / pow(10, k));
}

size_t rl_fmt_num(char *buf, double v)
{
	size_t n = 0, k;
	uint64_t digits;
	int e, neg = v < 0;
	char d[16]; /* six digits, then room for the fixed-size copies below */

	if (isinf(v))
		return (size_t)snprintf(buf, 32, "%sinf", v < 0 ? "-" : "");
	if (!isfinite(v))
		return (size_t)snprintf(buf, 32, "nan");
	if (neg) {
		buf[n++] = '-';
		v = -v;
	}
	if (v < 1e15 && (double)(uint64_t)v == v)
		return n + put_u64(buf + n, (uint64_t)v);
	if (v == 0) {
		buf[n++] = '0';
		buf[n] = '\0';
		return n;
	}
	/* six significant digits: v = digits x 10^(e - 5), 100000 <= digits < 1e6 */
	if (v < 1e-20 || v >= 1e21)
		return n + (size_t)snprintf(buf + n, 32, "%.6g", v);
	/* floor(log10(v)) within one, from the binary exponent (log10(2) ~
	 * 1233 / 4096); scale6 corrects an off-by-one */
	{
		uint64_t bits;

		/* frexp's exponent without the call: v is normal here */
		memcpy(&bits, &v, sizeof(bits));
		e = (int)((bits >> 52) & 0x7FF) - 1022;
	}
	e = ((e - 1) * 1233) >> 12;
	digits = scale6(v, e);
	if (digits >= 1000000) /* log10 was low, or rounding carried: 999999.5 */
		digits = scale6(v, ++e);
	else if (digits < 100000) /* log10 was high */
		digits = scale6(v, --e);
	/* the six digits, two at a time */
	memcpy(d, two_digits + 2 * (digits / 10000), 2);
	memcpy(d + 2, two_digits + 2 * (digits / 100 % 100), 2);
	memcpy(d + 4, two_digits + 2 * (digits % 100), 2);
	memset(d + 6, '0', sizeof(d) - 6);
	/* %g: fixed notation when -4 <= e < 6, trailing zeros dropped */
	k = 6;
	while (k > 1 && d[k - 1] == '0')
		k--;
	if (e >= -4 && e < 6) {
		if (e >= 0) {
			/* 8-byte copies of constant size (one store each) that run past
			 * the digits wanted; BUF has 32 bytes and n < 2, e < 6 */
			memcpy(buf + n, d, 8);
			n += (size_t)e + 1;
			if (k > (size_t)e + 1) {
				buf[n++] = '.';
				memcpy(buf + n, d + e + 1, 8);
				n += k - (size_t)e - 1;
			}
		} else {
			buf[n++] = '0';
			buf[n++] = '.';
			memset(buf + n, '0', (size_t)(-e - 1));
			n += (size_t)(-e - 1);
			memcpy(buf + n, d, k);
			n += k;
		}
		buf[n] = '\0';
		return n;
	}
	buf[n++] = d[0];
	if (k > 1) {
		buf[n++] = '.';
		memcpy(buf + n, d + 1, k - 1);
		n += k - 1;
	}
	/* "e+XX" or "e-XX": |e| < 100 here */
	buf[n++] = 'e';
	buf[n++] = e < 0 ? '-' : '+';
	memcpy(buf + n, two_digits + 2 * (e < 0 ? -e : e), 2);
	n += 2;
	buf[n] = '\0';
	return n;
}

size_t rl_fmt_us(char *buf, size_t len, double us)
{
	char tmp[32];
	size_t n;

	if (len == 0)
		return 0;
	if (us < 1e6)
		n = rl_fmt_fixed(tmp, us, 2);
	else
		n = clamped(snprintf(tmp, sizeof(tmp), "%.3e", us), sizeof(tmp));
	if (n >= len)
		n = len - 1;
	memcpy(buf, tmp, n);
	buf[n] = '\0';
	return n;
}

size_t rl_fmt_si(char *buf, size_t len, double v, int digits, const char *unit)
{
	static const char *const prefix[] = {"", "k", "M", "G", "T", "P", "E"};
	int k = 0;

	if (len == 0)
		return 0;
	while (k < 6 && fabs(v) >= 1000) {
		v /= 1000;
		k++;
	}
	return clamped(snprintf(buf, len, "%.*g %s%s", digits, v, prefix[k], unit), len);
}

int rl_fmt_host(char *buf, size_t len, double host_us, const double *kind_us)
{
	double lo = host_us, hi = host_us;
	int k;

	if (kind_us != NULL) {
		lo = hi = kind_us[0];
		for (k = 1; k < RL_KIND_COUNT; k++) {
			lo = kind_us[k] < lo ? kind_us[k] : lo;
			hi = kind_us[k] > hi ? kind_us[k] : hi;
		}
	}
	if (lo == hi)
		return snprintf(buf, len, "%.2f us", lo);
	return snprintf(buf, len, "%.2f-%.2f us", lo, hi);
}
