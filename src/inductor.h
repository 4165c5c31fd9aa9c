/* inductor.h - torch.compile's programs as a profiler trace records them.
 *
 * Inductor (torch/_inductor) turns a compiled graph into Triton kernels and
 * calls to ATen's extern kernels (mm, convolution, attention). Each Triton
 * kernel's launch is a cpu_op named after the kernel,
 * "triton_{poi,red,per,tem}_fused_OPS_N" (torch/_inductor/codegen/
 * simd.py, codegen_kernel's names: poi pointwise, red a looped reduction,
 * per a persistent one, tem a template such as a GEMM; OPS the ATen ops
 * fused, joined by '_'), whose "Input Dims", "Input Strides" and "Input
 * type" are its arguments in the kernel's order (in_out_ptr*, in_ptr*,
 * out_ptr*, then the sizes xnumel, r0_numel ... as scalars), recorded by
 * torch/_inductor/runtime/triton_heuristics.py (CachingAutotuner.run under
 * record_function with the launcher's arguments). The compiled region's
 * wrappers (Dynamo's "Torch-Compiled Region: F/C", "CompiledFunction",
 * CUDA graph trees' "CUDAGraphNode.record") are cpu_ops around those
 * launches; cuda graphs replay with one cudaGraphLaunch. Pure functions, no
 * I/O.
 */
#ifndef RL_INDUCTOR_H
#define RL_INDUCTOR_H

#include "dtype.h"
#include "op.h"
#include "step.h"
#include "trace.h"

/* What a Triton kernel's name says. */
struct rl_inductor_kernel {
	enum rl_kind kind; /* pointwise, reduction, layernorm, softmax, or matmul (tem) */
	double fpe;        /* FLOPs per element of the iteration space, from the fused ops */
};

/* 1 when NAME is an Inductor kernel's ("triton_..."), 0 otherwise. */
int rl_inductor_is_kernel(const char *name);

/* Reads the Inductor kernel name NAME into *K: returns 0, or -1 with *WHY
 * (a static string) when the name is an Inductor kernel's that cannot be
 * read (a prefix other than poi, red, per, tem; no "fused"). */
int rl_inductor_kernel(const char *name, struct rl_inductor_kernel *k, const char **why);

/* Fills OP (rl_op_init'ed) for the Triton kernel NAME launched with the
 * arguments IN[0..N): its kind from the name; its shape the iteration space
 * (the product of the integer size arguments: [xnumel] for a pointwise
 * kernel, [xnumel, r0_numel] for a reduction); explicit bytes, each tensor
 * argument counted once as the elements it addresses (the dims whose stride
 * is not 0), at most the iteration space's (an embedding table is read at
 * the rows gathered), at its type's size; explicit FLOPs, the name's FLOPs
 * per element times the iteration space. A template GEMM is a matmul MxNxK
 * from its first two matrices. Returns 1, or 0 with *WHY when it becomes a
 * custom row (rl_aten_custom's bytes). FALLBACK: the dtype where none is
 * recorded. */
int rl_inductor_map(const char *name, const struct rl_trace_input *in, int n,
                    enum rl_dtype fallback, struct rl_op *op, const char **why);

/* Sets OP's vector_bytes (op.h) from the Triton launch of a pointwise
 * kernel, as its cpu_op records it (rl_trace_op_launch): KWARGS
 * "XBLOCK=512" and NUM_WARPS 8 run 512 elements over 8 x 32 threads, 2
 * each, 4 bytes of bf16 per thread access. A kernel of 2-D tiles (YBLOCK
 * over 1), one of another kind, or a launch without both figures is left
 * as it is. */
void rl_inductor_launch(const char *kwargs, unsigned num_warps, struct rl_op *op);

/* 1 when the CPU op NAME is Dynamo's region ("Torch-Compiled Region: 0/0"),
 * one call of a compiled function. */
int rl_inductor_region(const char *name);

/* 1 when the CPU op NAME wraps a compiled program's launches, none its own:
 * Dynamo's region, AOT autograd's function and its backward, CUDA graph
 * trees' recording. The import makes rows of what runs inside. */
int rl_inductor_wrapper(const char *name);

/* The host-side work of a compiled region a step pays besides its kernels'
 * launches. */
enum rl_inductor_host {
	RL_INDUCTOR_NOT_HOST,     /* any other op */
	RL_INDUCTOR_CACHE_LOOKUP, /* Dynamo's cache lookup and its guards */
	RL_INDUCTOR_PROLOGUE,     /* the bytecode before the graph, AOT's runtime wrapper */
};

/* Which host-side part of a compiled region the CPU op NAME is. */
enum rl_inductor_host rl_inductor_host_part(const char *name);

/* Adds to *C (rl_step_compiled's regions, region_us, cache_lookup_us and
 * prologue_us; the rest untouched) what T's CPU ops record of its compiled
 * regions: each region's call and host time, Dynamo's cache lookups, the
 * prologues. */
void rl_inductor_host(const struct rl_trace *t, struct rl_step_compiled *c);

/* 1 when the runtime call NAME replays a CUDA graph (cudaGraphLaunch,
 * cuGraphLaunch). */
int rl_inductor_graph_launch(const char *name);

/* What the runtime call NAME does to a stream capture. */
enum rl_inductor_capture { RL_CAPTURE_NONE, RL_CAPTURE_BEGIN, RL_CAPTURE_END };

enum rl_inductor_capture rl_inductor_capture(const char *name);

#endif
