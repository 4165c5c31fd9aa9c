/* validate.c - the model against the GPU, op by op (see validate.h). */
#include "config.h"

#include "validate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "formulas.h"

/* The built-in set. Sizes on an H200 (4.8 TB/s, 67 FP32 TFLOPS) in the
 * comments; each group says what it checks. docs/validate.md has the list. */
static const char builtin[] =
	"name,kind,dtype,shape,inputs,flops_per_element,fma\n"
	"# fp32 multiply chains over 1 GiB in and out, across the knee (r = 56 on an H200)\n"
	"mul1-fp32,pointwise,fp32,268435456,1,1,0\n"
	"mul4-fp32,pointwise,fp32,268435456,1,4,0\n"
	"mul16-fp32,pointwise,fp32,268435456,1,16,0\n"
	"mul256-fp32,pointwise,fp32,268435456,1,256,0\n"
	"mul1024-fp32,pointwise,fp32,268435456,1,1024,0\n"
	"fma512-fp32,pointwise,fp32,268435456,1,512,1\n"
	"# the same in bf16, fp16 (packed) and fp64\n"
	"mul1-bf16,pointwise,bf16,536870912,1,1,0\n"
	"mul512-bf16,pointwise,bf16,536870912,1,512,0\n"
	"mul1-fp16,pointwise,fp16,536870912,1,1,0\n"
	"mul512-fp16,pointwise,fp16,536870912,1,512,0\n"
	"mul1-fp64,pointwise,fp64,134217728,1,1,0\n"
	"fma256-fp64,pointwise,fp64,134217728,1,256,1\n"
	"# a two-input add from one element to 3 GiB\n"
	"add-1,pointwise,fp32,1,2,1,0\n"
	"add-1k,pointwise,fp32,1024,2,1,0\n"
	"add-64k,pointwise,fp32,65536,2,1,0\n"
	"add-1m,pointwise,fp32,1048576,2,1,0\n"
	"add-16m,pointwise,fp32,16777216,2,1,0\n"
	"add-64m,pointwise,fp32,67108864,2,1,0\n"
	"add-256m,pointwise,fp32,268435456,2,1,0\n"
	"# an unfused chain of two multiplies, and the same fused into one kernel\n"
	"chain-a,pointwise,bf16,268435456,1,1,0\n"
	"chain-b,pointwise,bf16,268435456,1,1,0\n"
	"chain-fused,pointwise,bf16,268435456,1,2,0\n"
	"# copies\n"
	"copy-4k,copy,fp32,4096,,,\n"
	"copy-64m,copy,bf16,67108864,,,\n"
	"copy-1g,copy,fp32,268435456,,,\n"
	"# reductions over the last dim: long rows, one row, short rows\n"
	"sum-rows,reduction,fp32,16384x16384,,,\n"
	"sum-all,reduction,fp32,268435456,,,\n"
	"sum-short,reduction,fp32,4194304x64,,,\n"
	"sum-rows-bf16,reduction,bf16,32768x16384,,,\n"
	"# normalisations\n"
	"softmax-bf16,softmax,bf16,32768x8192,,,\n"
	"softmax-fp32,softmax,fp32,65536x1024,,,\n"
	"layernorm-bf16,layernorm,bf16,65536x4096,,,\n"
	"# matrix products (cuBLASLt): large, skinny (decode), batched, small\n"
	"mm-bf16-8k,matmul,bf16,8192x8192x8192,,,\n"
	"mm-bf16-4k,matmul,bf16,4096x4096x4096,,,\n"
	"mm-fp16-16kx4kx8k,matmul,fp16,16384x4096x8192,,,\n"
	"mm-bf16-decode,matmul,bf16,16x8192x8192,,,\n"
	"mm-bf16-gemv,matmul,bf16,1x16384x16384,,,\n"
	"mm-bf16-batched,matmul,bf16,32x1024x1024x1024,,,\n"
	"mm-tf32-8k,matmul,tf32,8192x8192x8192,,,\n"
	"mm-fp8-8k,matmul,fp8e4m3,8192x8192x8192,,,\n"
	"mm-int8-8k,matmul,int8,8192x8192x8192,,,\n"
	"mm-fp64-4k,matmul,fp64,4096x4096x4096,,,\n"
	"mm-fp32-4k,matmul,fp32,4096x4096x4096,,,\n"
	"mm-bf16-256,matmul,bf16,256x256x256,,,\n";

const char *rl_validate_builtin(void)
{
	return builtin;
}

static uint64_t elements(const struct rl_op *op)
{
	uint64_t n = 1;
	int i;

	for (i = 0; i < op->ndims; i++)
		n *= op->dims[i];
	return n;
}

int rl_validate_spec(const struct rl_op *op, struct rl_synth *s, int live, struct rl_err *err)
{
	double flops, bytes;
	int rc;

	memset(s, 0, sizeof(*s));
	s->dtype = op->dtype;
	if (op->has & (RL_HAS_FLOPS | RL_HAS_BYTES))
		return rl_err_set(err, RL_ERR_UNSUPPORTED,
		                  "explicit flops or bytes: no synthetic kernel knows the work");
	if (op->launches > 1)
		return rl_err_set(err, RL_ERR_UNSUPPORTED,
		                  "launches = %llu: a synthetic op is one kernel",
		                  (unsigned long long)op->launches);
	if (op->fuse != NULL)
		return rl_err_set(err, RL_ERR_UNSUPPORTED,
		                  "fuse group '%s': write the fused kernel as one row", op->fuse);
	if (op->unit == RL_UNIT_VECTOR && op->kind == RL_KIND_MATMUL)
		return rl_err_set(err, RL_ERR_UNSUPPORTED,
		                  "unit = vector: cuBLASLt chooses the unit of a matmul");
	/* the formulas validate the shape */
	rc = rl_op_work(op, &flops, &bytes, err);
	if (rc < 0)
		return rc;
	switch (op->kind) {
	case RL_KIND_POINTWISE:
		s->kind = RL_SYNTH_POINTWISE;
		s->elems = elements(op);
		s->inputs = op->inputs;
		s->flops_per_elem = (op->has & RL_HAS_FPE) ? op->flops_per_element
		                                           : rl_default_flops_per_element(op->kind);
		s->fma = (op->has & RL_HAS_FMA) ? op->fma : 0;
		break;
	case RL_KIND_COPY:
		s->kind = RL_SYNTH_COPY;
		s->elems = elements(op);
		break;
	case RL_KIND_REDUCTION:
	case RL_KIND_SOFTMAX:
	case RL_KIND_LAYERNORM:
		s->kind = op->kind == RL_KIND_REDUCTION ? RL_SYNTH_REDUCTION
		          : op->kind == RL_KIND_SOFTMAX ? RL_SYNTH_SOFTMAX
		                                        : RL_SYNTH_LAYERNORM;
		s->cols = op->dims[op->ndims - 1];
		s->rows = elements(op) / s->cols;
		s->flops_per_elem = (op->has & RL_HAS_FPE) ? op->flops_per_element
		                                           : rl_default_flops_per_element(op->kind);
		break;
	case RL_KIND_MATMUL:
		s->kind = RL_SYNTH_MATMUL;
		s->batch = op->ndims == 4 ? op->dims[0] : 1;
		s->m = op->dims[op->ndims - 3];
		s->n = op->dims[op->ndims - 2];
		s->k = op->dims[op->ndims - 1];
		break;
	case RL_KIND_CONV2D:
	case RL_KIND_ATTENTION:
	case RL_KIND_EMBEDDING:
	case RL_KIND_ALLREDUCE:
	case RL_KIND_ALLGATHER:
	case RL_KIND_REDUCESCATTER:
	case RL_KIND_ALLTOALL:
	case RL_KIND_BROADCAST:
	case RL_KIND_SENDRECV:
	case RL_KIND_CUSTOM:
	case RL_KIND_FUSED:
		return rl_err_set(err, RL_ERR_UNSUPPORTED, "no synthetic kernel for kind '%s'",
		                  rl_kind_name(op->kind));
	}
	if (live && !rl_synth_supported(s, err))
		return RL_ERR_UNSUPPORTED;
	return 0;
}

void rl_validation_release(struct rl_validation *v)
{
	free(v->csv);
	free(v->v);
	rl_oplist_release(&v->list);
	memset(v, 0, sizeof(*v));
}

int rl_validation_init(struct rl_validation *v, const char *csv, const char *name,
                       int live, struct rl_errlist *errs)
{
	FILE *f;
	size_t i;
	int rc;

	memset(v, 0, sizeof(*v));
	v->csv = strdup(csv);
	if (v->csv == NULL)
		return RL_ERR_NOMEM;
	f = fmemopen(v->csv, strlen(v->csv), "r");
	if (f == NULL)
		return RL_ERR_NOMEM;
	rc = rl_oplist_read(f, name, &v->list, errs);
	fclose(f);
	if (rc < 0)
		return rc;
	v->v = calloc(v->list.n ? v->list.n : 1, sizeof(*v->v));
	if (v->v == NULL)
		return RL_ERR_NOMEM;
	for (i = 0; i < v->list.n; i++) {
		struct rl_vop *o = &v->v[i];
		struct rl_err e;

		o->op = &v->list.ops[i];
		if (rl_validate_spec(o->op, &o->spec, live, &e) == 0)
			o->runnable = 1;
		else
			snprintf(o->why, sizeof(o->why), "%s", e.msg);
	}
	return 0;
}

void rl_validate_eval(struct rl_validation *v, const struct rl_model_ctx *ctx)
{
	size_t i;

	for (i = 0; i < v->list.n; i++) {
		struct rl_vop *o = &v->v[i];
		struct rl_err e;
		double t;

		if (!o->measured || rl_predict(o->op, ctx, &o->pred, &e) < 0) {
			o->measured = 0;
			continue;
		}
		t = o->m.wall_us;
		o->err = (o->pred.t_us - t) / t;
		/* achieved rates use the kernel's own GPU time */
		o->compute_frac = o->pred.peak_flops > 0
		                          ? o->pred.flops / (o->m.gpu_us * 1e-6) / o->pred.peak_flops
		                          : 0;
		o->memory_frac = o->pred.bandwidth > 0
		                         ? o->pred.bytes / (o->m.gpu_us * 1e-6) / o->pred.bandwidth
		                         : 0;
		if (o->m.wall_us > RL_VALIDATE_OVERHEAD_RATIO * o->m.gpu_us)
			o->empirical = RL_BOUND_OVERHEAD;
		else
			o->empirical = o->compute_frac > o->memory_frac ? RL_BOUND_COMPUTE
			                                                 : RL_BOUND_MEMORY;
	}
}

void rl_validate_summary(const struct rl_validation *v, struct rl_vsummary *s)
{
	double *all = malloc((v->list.n + 1) * sizeof(double));
	double *lng = malloc((v->list.n + 1) * sizeof(double));
	size_t i;

	memset(s, 0, sizeof(*s));
	s->n = v->list.n;
	for (i = 0; i < v->list.n; i++) {
		const struct rl_vop *o = &v->v[i];

		if (!o->runnable || !o->measured) {
			s->skipped++;
			continue;
		}
		if (o->m.check < 0)
			s->failed_checks++;
		if (all != NULL)
			all[s->measured] = fabs(o->err);
		s->measured++;
		if (o->m.wall_us >= RL_VALIDATE_LONG_US && lng != NULL)
			lng[s->n_long++] = fabs(o->err);
		s->confusion[o->pred.bound][o->empirical]++;
		s->agree += o->pred.bound == o->empirical;
	}
	if (s->measured > 0 && all != NULL) {
		s->median_err = rl_quantile(all, s->measured, 0.5);
		s->p90_err = rl_quantile(all, s->measured, 0.9);
		s->agreement = (double)s->agree / (double)s->measured;
	}
	if (s->n_long > 0 && lng != NULL) {
		s->median_err_long = rl_quantile(lng, s->n_long, 0.5);
		s->p90_err_long = rl_quantile(lng, s->n_long, 0.9);
	}
	free(all);
	free(lng);
}
