/* cudaload.c - the GPU entry points of the library: forwarders to the CUDA
 * plugin, loaded with dlopen on the first call (cudaload.h, cuda_plugin.h).
 *
 * This file defines, besides rl_cudaload_*, the GPU functions cuda.h,
 * gpubench.h and synth.h declare (synth.c has the host ones), so that their
 * callers (cmd_bench.c, cmd_probe.c, cli.c) are the same in every build. The
 * plugin defines the same names for its own use; the two never meet in one
 * binary.
 */
#include "config.h"

#include "cudaload.h"

#include <limits.h>
#include <string.h>

#include "cuda.h"
#include "gpubench.h"
#include "synth.h"

#ifdef RL_HAVE_CUDA
#include <dlfcn.h>
#endif

static char plugin_path[PATH_MAX];
static const struct rl_cuda_plugin *plugin;
static struct rl_err load_err; /* code != 0: the load failed, and why */

void rl_cudaload_set_path(const char *path)
{
	size_t n = path != NULL ? strlen(path) : 0;

	rl_err_clear(&load_err);
	plugin_path[0] = '\0';
	if (n >= sizeof(plugin_path))
		rl_err_set(
		    &load_err, RL_ERR_UNSUPPORTED,
		    "cannot load the CUDA parts: a plugin path of %zu bytes (the longest is %zu)",
		    n, sizeof(plugin_path) - 1);
	else if (path != NULL)
		memcpy(plugin_path, path, n + 1);
}

#ifdef RL_HAVE_CUDA

int rl_cuda_built(void)
{
	return 1;
}

/* Loads the plugin once. The handle is never closed: cudart registers exit
 * handlers and the table's functions may be in use until exit, so unloading
 * would gain nothing and risk a call into unmapped code. */
static int load(struct rl_err *err)
{
	const struct rl_cuda_plugin *p;
	rl_cuda_plugin_fn *entry;
	void *h;
	const char *why;

	if (plugin != NULL)
		return 0;
	if (load_err.code != 0) {
		*err = load_err;
		return err->code;
	}
	if (plugin_path[0] == '\0')
		return rl_err_set(
		    err, RL_ERR_UNSUPPORTED,
		    "cannot load the CUDA parts: no plugin path given (the program "
		    "calls rl_cudaload_set_path; roofline reads ROOFLINE_CUDA_PLUGIN)");
	/* RTLD_NOW: a missing library or symbol fails here, with dlerror's
	 * reason, not in the middle of a benchmark. RTLD_LOCAL: cudart's and
	 * cuBLASLt's symbols stay out of the global namespace. */
	h = dlopen(plugin_path, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		/* dlerror names the plugin when the plugin itself is missing, only
		 * the library when one it needs is ("libcublasLt.so.13: cannot
		 * open shared object file"): then say whose. */
		why = dlerror();
		if (why == NULL)
			why = "unknown error";
		rl_err_set(&load_err, RL_ERR_UNSUPPORTED,
		           "cannot load the CUDA parts (%s%s%s); the GPU commands need the CUDA %d "
		           "libraries (cuBLASLt) and an NVIDIA driver; recorded runs work "
		           "without them (--from FILE, probe --attrs FILE)",
		           strstr(why, plugin_path) != NULL ? "" : plugin_path,
		           strstr(why, plugin_path) != NULL ? "" : ": ", why, RL_CUDA_MAJOR);
		goto fail;
	}
	/* POSIX allows this conversion for dlsym's result (XSH dlsym, rationale);
	 * the union keeps -Wpedantic quiet about object to function pointers. */
	{
		union {
			void *obj;
			rl_cuda_plugin_fn *fn;
		} u;

		u.obj = dlsym(h, RL_CUDA_PLUGIN_SYMBOL);
		entry = u.fn;
	}
	if (entry == NULL) {
		rl_err_set(&load_err, RL_ERR_UNSUPPORTED,
		           "cannot load the CUDA parts: %s has no %s (not a roofline CUDA plugin?)",
		           plugin_path, RL_CUDA_PLUGIN_SYMBOL);
		goto fail;
	}
	p = entry();
	if (p == NULL || p->abi != RL_CUDA_PLUGIN_ABI || p->size != sizeof(*p)) {
		rl_err_set(&load_err, RL_ERR_UNSUPPORTED,
		           "cannot load the CUDA parts: %s is from another build of roofline "
		           "(plugin ABI %d, this program needs %d); set ROOFLINE_CUDA_PLUGIN to "
		           "the plugin built with this program",
		           plugin_path, p != NULL ? p->abi : -1, RL_CUDA_PLUGIN_ABI);
		goto fail;
	}
	plugin = p;
	return 0;
fail:
	if (h != NULL)
		dlclose(h);
	*err = load_err;
	return err->code;
}

#else /* !RL_HAVE_CUDA */

int rl_cuda_built(void)
{
	return 0;
}

static int load(struct rl_err *err)
{
	return rl_err_set(err, RL_ERR_UNSUPPORTED,
	                  "this build has no CUDA support (configure found no CUDA Toolkit; "
	                  "rebuild with ./configure --with-cuda[=PREFIX])");
}

#endif

const struct rl_cuda_plugin *rl_cudaload_get(struct rl_err *err)
{
	return load(err) < 0 ? NULL : plugin;
}

/* ---- the forwarders ---------------------------------------------------- */

int rl_cuda_device_count(int *n, struct rl_err *err)
{
	*n = 0;
	return load(err) < 0 ? err->code : plugin->device_count(n, err);
}

int rl_cuda_query(int dev, struct rl_gpu *g, struct rl_err *err)
{
	memset(g, 0, sizeof(*g));
	return load(err) < 0 ? err->code : plugin->query(dev, g, err);
}

int rl_gpubench_memory(int dev, int quick, struct rl_bench *b, struct rl_err *err)
{
	return load(err) < 0 ? err->code : plugin->bench_memory(dev, quick, b, err);
}

int rl_gpubench_pipes(int dev, int quick, struct rl_bench *b, struct rl_err *err)
{
	return load(err) < 0 ? err->code : plugin->bench_pipes(dev, quick, b, err);
}

int rl_gpubench_sweep(int dev, int quick, struct rl_bench *b, struct rl_err *err)
{
	return load(err) < 0 ? err->code : plugin->bench_sweep(dev, quick, b, err);
}

int rl_gpubench_launch(int dev, int quick, struct rl_bench *b, struct rl_err *err)
{
	return load(err) < 0 ? err->code : plugin->bench_launch(dev, quick, b, err);
}

int rl_gpubench_gemm(int dev, int quick, struct rl_bench *b, struct rl_err *err)
{
	return load(err) < 0 ? err->code : plugin->bench_gemm(dev, quick, b, err);
}

int rl_gpubench_collectives(int gpus, int quick, struct rl_bench *b, struct rl_err *err)
{
	return load(err) < 0 ? err->code : plugin->bench_collectives(gpus, quick, b, err);
}

int rl_gpubench_nccl_version(int *version, struct rl_err *err)
{
	*version = 0;
	return load(err) < 0 ? err->code : plugin->nccl_version(version, err);
}

rl_synth_ctx *rl_synth_open(int dev, struct rl_err *err)
{
	return load(err) < 0 ? NULL : plugin->synth_open(dev, err);
}

/* A context exists only if the plugin was loaded. */
void rl_synth_close(rl_synth_ctx *c)
{
	if (c != NULL && plugin != NULL)
		plugin->synth_close(c);
}

int rl_synth_run(rl_synth_ctx *c, const struct rl_synth *s, struct rl_synth_result *r,
                 struct rl_err *err)
{
	return load(err) < 0 ? err->code : plugin->synth_run(c, s, r, err);
}
