/* probe.c - deriving a device entry from an attribute set (see probe.h). */
#include "config.h"

#include "probe.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sets V to the number written as TEXT, with a source made from FMT.
 * Returns 0 or RL_ERR_NOMEM. */
static int set_textv(struct rl_hwval *v, const char *text, const char *fmt, va_list ap)
{
	char src[1024];

	vsnprintf(src, sizeof(src), fmt, ap);
	v->present = 1;
	v->value = strtod(text, NULL); /* what the file will say, exactly */
	v->text = strdup(text);
	v->source = strdup(src);
	return v->text == NULL || v->source == NULL ? RL_ERR_NOMEM : 0;
}

static int set_text(struct rl_hwval *v, const char *text, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int set_text(struct rl_hwval *v, const char *text, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = set_textv(v, text, fmt, ap);
	va_end(ap);
	return rc;
}

/* As set_text, X written with four significant digits. */
static int set_value(struct rl_hwval *v, double x, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int set_value(struct rl_hwval *v, double x, const char *fmt, ...)
{
	char text[32];
	va_list ap;
	int rc;

	snprintf(text, sizeof(text), "%.4g", x);
	va_start(ap, fmt);
	rc = set_textv(v, text, fmt, ap);
	va_end(ap);
	return rc;
}

/* "NVIDIA H100 80GB HBM3" -> "h100-80gb-hbm3-probe". */
static char *make_id(const char *name)
{
	/* room for the longer ending: "gpu-probe" when no letter survives */
	char *id = malloc(strlen(name) + sizeof("gpu-probe"));
	const char *p = name;
	size_t n = 0;

	if (id == NULL)
		return NULL;
	if (strncmp(p, "NVIDIA ", 7) == 0)
		p += 7;
	for (; *p != '\0'; p++) {
		if (isalnum((unsigned char)*p))
			id[n++] = (char)tolower((unsigned char)*p);
		else if (n > 0 && id[n - 1] != '-')
			id[n++] = '-';
	}
	if (n > 0 && id[n - 1] == '-')
		n--;
	strcpy(id + n, n > 0 ? "-probe" : "gpu-probe");
	return id;
}

int rl_probe_derive(const struct rl_gpu *g, const struct rl_device *like,
                    struct rl_device *out, const struct rl_arch **archp, int *assumedp,
                    struct rl_err *err)
{
	const struct rl_arch *a;
	struct rl_hwval *num = out->num;
	double boost_mhz = g->clock_khz / 1e3, tensor_mhz, mem_clock_mhz;
	int assumed, rc = 0, p;
	char cc[24];

	memset(out, 0, sizeof(*out));
	a = rl_arch_find(g->cc_major, g->cc_minor, g->name, &assumed);
	if (archp != NULL)
		*archp = a;
	if (assumedp != NULL)
		*assumedp = assumed;
	if (a == NULL)
		return rl_err_set(err, RL_ERR_UNSUPPORTED,
		                  "%s: compute capability %d.%d predates Volta (7.0), the oldest "
		                  "architecture with a rate table", g->name, g->cc_major, g->cc_minor);
	tensor_mhz = boost_mhz * a->tensor_clock_ratio;
	mem_clock_mhz = g->memory_clock_khz / 1e3;

	out->id = make_id(g->name);
	out->name = strdup(g->name);
	out->vendor = strdup("nvidia");
	out->arch = strdup(a->arch);
	if (out->id == NULL || out->name == NULL || out->vendor == NULL || out->arch == NULL)
		rc = RL_ERR_NOMEM;

	snprintf(cc, sizeof(cc), "%d.%d", g->cc_major, g->cc_minor);
	rc |= set_text(&num[RL_HW_COMPUTE_CAPABILITY], cc,
	               "probe: cudaDevAttrComputeCapabilityMajor.Minor = %s", cc);
	rc |= set_value(&num[RL_HW_SM_COUNT], g->sm_count,
	                "probe: cudaDevAttrMultiProcessorCount = %d", g->sm_count);
	rc |= set_value(&num[RL_HW_BOOST_CLOCK_MHZ], boost_mhz,
	                "probe: cudaDevAttrClockRate = %d kHz (the maximum SM clock)", g->clock_khz);
	if (a->tensor_clock_ratio != 1.0)
		rc |= set_value(&num[RL_HW_TENSOR_CLOCK_MHZ], tensor_mhz,
		                "derived: %.0f MHz boost x %.4f (%s)", boost_mhz,
		                a->tensor_clock_ratio, a->tensor_clock_source);
	else
		rc |= set_value(&num[RL_HW_TENSOR_CLOCK_MHZ], tensor_mhz,
		                "derived: the boost clock (%s tensor figures assume it)", a->chip);
	rc |= set_value(&num[RL_HW_MEMORY_GIB], (double)g->total_mem_bytes / (1024.0 * 1024 * 1024),
	                "probe: cudaDeviceProp.totalGlobalMem = %llu B, usable memory (datasheets "
	                "count the driver's reservation too)",
	                (unsigned long long)g->total_mem_bytes);
	if (g->memory_clock_khz > 0 && g->bus_width_bits > 0)
		rc |= set_value(&num[RL_HW_MEM_BANDWIDTH_GBS],
		                2.0 * mem_clock_mhz * 1e6 * (g->bus_width_bits / 8.0) / 1e9,
		                "derived: 2 x %d kHz (cudaDevAttrMemoryClockRate) x %d bit "
		                "(cudaDevAttrGlobalMemoryBusWidth) / 8",
		                g->memory_clock_khz, g->bus_width_bits);
	if (g->l2_bytes > 0)
		rc |= set_value(&num[RL_HW_L2_MIB], g->l2_bytes / (1024.0 * 1024.0),
		                "probe: cudaDevAttrL2CacheSize = %d B", g->l2_bytes);
	for (p = 0; p < RL_PIPE_COUNT; p++) {
		unsigned rate = a->flop_per_clk_sm[p];
		/* FP64 tensor math runs at the boost clock (H100 whitepaper:
		 * 66.9 TFLOPS = 132 x 256 x 1980 MHz); other tensor pipes at the
		 * tensor clock. */
		double mhz = rl_pipe_is_tensor((enum rl_pipe)p) && p != RL_PIPE_FP64_TENSOR
		                     ? tensor_mhz : boost_mhz;

		if (rate == 0)
			continue;
		rc |= set_value(&num[p], g->sm_count * (double)rate * mhz * 1e6 / 1e12,
		                "derived: %d SMs x %u FLOP/clk/SM x %.0f MHz (%s rate: %s)",
		                g->sm_count, rate, mhz, a->chip, a->cite);
	}
	if (like != NULL && like->num[RL_HW_MIN_KERNEL_US].present)
		rc |= set_value(&num[RL_HW_MIN_KERNEL_US], like->num[RL_HW_MIN_KERNEL_US].value,
		                "hwdb %s (a device query cannot see it): %s", like->id,
		                like->num[RL_HW_MIN_KERNEL_US].source);
	else
		rc |= set_value(&num[RL_HW_MIN_KERNEL_US], a->min_kernel_us, "%s",
		                a->min_kernel_source);
	if (rc != 0) {
		rl_device_release(out);
		return rl_err_set(err, RL_ERR_NOMEM, "out of memory");
	}
	return 0;
}
