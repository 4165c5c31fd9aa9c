/* num.c - strict number parsing (see num.h). */
#include "config.h"

#include "num.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int rl_parse_u64(const char *s, uint64_t *out, struct rl_err *err)
{
	uint64_t v = 0;
	const char *p;

	if (*s == '\0')
		return rl_err_set(err, RL_ERR_PARSE, "empty number");
	for (p = s; *p != '\0'; p++) {
		unsigned d;

		if (*p < '0' || *p > '9')
			return rl_err_set(err, RL_ERR_PARSE,
			                  "'%s' is not a non-negative integer", s);
		d = (unsigned)(*p - '0');
		if (v > (UINT64_MAX - d) / 10)
			return rl_err_set(err, RL_ERR_RANGE,
			                  "'%s' is too large (maximum 18446744073709551615)", s);
		v = v * 10 + d;
	}
	*out = v;
	return 0;
}

int rl_parse_nonneg(const char *s, double *out, struct rl_err *err)
{
	const char *p = s;
	char *end;
	double v;
	int digits = 0;

	if (*s == '\0')
		return rl_err_set(err, RL_ERR_PARSE, "empty number");
	if (s[0] == '-' && ((s[1] >= '0' && s[1] <= '9') || s[1] == '.'))
		return rl_err_set(err, RL_ERR_RANGE, "'%s' is negative", s);
	/* Allow only the characters of a plain decimal number, so that strtod
	 * never sees hex, "nan", "inf" or locale-dependent forms. */
	if (*p == '+')
		p++;
	for (; *p != '\0'; p++) {
		if (*p >= '0' && *p <= '9')
			digits++;
		else if (*p == '-' && p > s && (p[-1] == 'e' || p[-1] == 'E'))
			;
		else if (*p != '.' && *p != 'e' && *p != 'E' && *p != '+')
			break;
	}
	if (*p != '\0' || digits == 0)
		return rl_err_set(err, RL_ERR_PARSE, "'%s' is not a number", s);
	errno = 0;
	v = strtod(s, &end);
	if (*end != '\0' || end == s)
		return rl_err_set(err, RL_ERR_PARSE, "'%s' is not a number", s);
	if (errno == ERANGE && isinf(v))
		return rl_err_set(err, RL_ERR_RANGE, "'%s' is too large", s);
	if (!isfinite(v))
		return rl_err_set(err, RL_ERR_RANGE, "'%s' is not finite", s);
	*out = v;
	return 0;
}

int rl_mul_u64(uint64_t a, uint64_t b, uint64_t *out)
{
	if (a != 0 && b > UINT64_MAX / a)
		return RL_ERR_RANGE;
	*out = a * b;
	return 0;
}

/* rl_parse_dims for every input: the messages of each way it can fail. */
static int parse_dims_checked(const char *s, uint64_t *dims, int max, int *n, struct rl_err *err)
{
	char buf[32];
	const char *p = s;
	int k = 0;

	if (*s == '\0')
		return rl_err_set(err, RL_ERR_PARSE, "empty shape");
	for (;;) {
		const char *x = strchr(p, 'x');
		size_t len = x ? (size_t)(x - p) : strlen(p);
		struct rl_err e;
		int rc;

		if (k == max)
			return rl_err_set(err, RL_ERR_PARSE,
			                  "shape '%s' has more than %d dimensions", s, max);
		if (len == 0 || len >= sizeof(buf))
			return rl_err_set(err, RL_ERR_PARSE,
			                  "shape '%s' is not dimensions joined by 'x' (e.g. 8192x4096)", s);
		memcpy(buf, p, len);
		buf[len] = '\0';
		rc = rl_parse_u64(buf, &dims[k], &e);
		if (rc == RL_ERR_RANGE)
			return rl_err_set(err, rc, "shape '%s': dimension %s is too large", s, buf);
		if (rc < 0)
			return rl_err_set(err, RL_ERR_PARSE,
			                  "shape '%s' is not dimensions joined by 'x' (e.g. 8192x4096)", s);
		if (dims[k] == 0)
			return rl_err_set(err, RL_ERR_RANGE, "shape '%s' has a zero dimension", s);
		k++;
		if (x == NULL)
			break;
		p = x + 1;
	}
	*n = k;
	return 0;
}

int rl_parse_dims(const char *s, uint64_t *dims, int max, int *n, struct rl_err *err)
{
	const char *p = s;
	int k = 0;

	/* The common case in one pass, digits and 'x' only (a million-op list
	 * spends its parse here); anything else, an empty or a zero dimension, a
	 * value near 2^64 or too many dimensions is left to the checked parse,
	 * which gives each its message. */
	for (;;) {
		uint64_t v = 0;
		const char *start = p;

		while (*p >= '0' && *p <= '9' && p - start < 19)
			v = v * 10 + (uint64_t)(*p++ - '0');
		if (p == start || v == 0 || k == max || (*p != 'x' && *p != '\0'))
			return parse_dims_checked(s, dims, max, n, err);
		dims[k++] = v;
		if (*p == '\0')
			break;
		p++;
	}
	*n = k;
	return 0;
}
