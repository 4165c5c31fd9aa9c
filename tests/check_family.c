/* check_family.c - the family table (family.c, family_*.c): lookup, the
 * names in messages, the table's own consistency, and the weight count of
 * each block (modelops.c's rl_modelops_weights) against hand-worked sums
 * and the parameter counts the model cards publish. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "family.h"
#include "formulas.h"
#include "hfconfig.h"
#include "impl.h"
#include "modelops.h"
#include "num.h"
#include "op.h"
#include "parallel.h"

static void read_example(const char *name, struct rl_hfconfig *c)
{
	char path[256];
	struct rl_err e;

	snprintf(path, sizeof(path), "%s/%s.json", RL_EXAMPLES, name);
	ck_assert_msg(rl_hfconfig_read(path, c, &e) == 0, "%s: %s", name, e.msg);
}

START_TEST(test_find)
{
	ck_assert_str_eq(rl_family_find("llama")->name, "llama");
	ck_assert_str_eq(rl_family_find("mistral")->name, "llama");
	ck_assert_str_eq(rl_family_find("qwen2")->name, "qwen2");
	ck_assert_str_eq(rl_family_find("mixtral")->name, "mixtral");
	ck_assert_str_eq(rl_family_find("gpt2")->name, "gpt2");
	ck_assert_str_eq(rl_family_find("bert")->name, "bert");
	ck_assert_str_eq(rl_family_find("vit")->name, "vit");
	ck_assert_str_eq(rl_family_find("qwen3")->name, "qwen3");
	ck_assert_ptr_null(rl_family_find("gpt_neox"));
	ck_assert_ptr_null(rl_family_find(""));
	ck_assert_ptr_null(rl_family_find("Llama")); /* model_type is case-sensitive */
}
END_TEST

START_TEST(test_of)
{
	struct rl_hfconfig c;

	/* a config built by hand: by model_type, else by the coarse tag */
	memset(&c, 0, sizeof(c));
	c.family = RL_HF_GPT2;
	ck_assert_str_eq(rl_family_of(&c)->name, "gpt2");
	strcpy(c.model_type, "mixtral");
	ck_assert_str_eq(rl_family_of(&c)->name, "mixtral");
	/* read: the reader's family */
	read_example("vit-b16", &c);
	ck_assert_ptr_eq(rl_family_of(&c), rl_family_find("vit"));
	ck_assert_int_eq(c.encoder, 1);
	read_example("gpt2", &c);
	ck_assert_int_eq(c.encoder, 0);
	ck_assert_int_eq(c.family, RL_HF_GPT2);
}
END_TEST

START_TEST(test_names)
{
	char buf[256];

	ck_assert_int_eq(rl_family_names(buf, sizeof(buf), 0, 0), 8);
	ck_assert_str_eq(buf, "llama, mistral, mixtral, qwen2, qwen3, gpt2, bert or vit");
	ck_assert_int_eq(rl_family_names(buf, sizeof(buf), RL_FAMILY_EP, 0), 1);
	ck_assert_str_eq(buf, "mixtral");
	ck_assert_int_eq(rl_family_names(buf, sizeof(buf), 0, RL_FAMILY_DECODE), 2);
	ck_assert_str_eq(buf, "bert or vit");
	ck_assert_int_eq(rl_family_names(buf, sizeof(buf), RL_FAMILY_EP, RL_FAMILY_TRAIN), 0);
	ck_assert_str_eq(buf, "");
	/* truncated, still terminated, still counting */
	ck_assert_int_eq(rl_family_names(buf, 8, 0, 0), 8);
	ck_assert_str_eq(buf, "llama, ");
}
END_TEST

/* Every row: a name, its model_types (unique across the table, each
 * fitting rl_hfconfig.model_type), keys, a reader, a block with a name
 * for every role it builds, decode implying a decoder block. */
START_TEST(test_table)
{
	struct rl_hfconfig c;
	size_t i, j, i2, j2;

	ck_assert_ptr_nonnull(rl_families[0]);
	for (i = 0; rl_families[i] != NULL; i++) {
		const struct rl_family *f = rl_families[i];

		ck_assert_ptr_nonnull(f->name);
		ck_assert_ptr_nonnull(f->model_types[0]);
		ck_assert_ptr_nonnull(f->keys[0]);
		ck_assert_ptr_nonnull(f->read);
		ck_assert_ptr_nonnull(f->block);
		ck_assert_ptr_nonnull(f->sizes.hidden);
		ck_assert_ptr_nonnull(f->sizes.layers);
		ck_assert(f->layouts & RL_FAMILY_TP);
		for (j = 0; f->model_types[j] != NULL; j++) {
			struct rl_block k;

			ck_assert_uint_lt(strlen(f->model_types[j]), sizeof(c.model_type));
			for (i2 = 0; rl_families[i2] != NULL; i2++)
				for (j2 = 0; rl_families[i2]->model_types[j2] != NULL; j2++)
					if (i2 != i || j2 != j)
						ck_assert_str_ne(rl_families[i2]->model_types[j2],
						                 f->model_types[j]);
			memset(&c, 0, sizeof(c));
			strcpy(c.model_type, f->model_types[j]);
			rl_family_block(&c, &k);
			ck_assert_ptr_nonnull(k.names);
			ck_assert_ptr_nonnull(k.names->norm1);
			ck_assert_ptr_nonnull(k.names->qkv);
			ck_assert_ptr_nonnull(k.names->o_proj);
			ck_assert_ptr_nonnull(k.names->norm2);
			ck_assert_ptr_nonnull(k.names->mlp_residual);
			ck_assert_ptr_nonnull(k.names->qkv_bias); /* attention_bias may set it */
			if (k.mlp != RL_MLP_MOE) {
				ck_assert_ptr_nonnull(k.names->up);
				ck_assert_ptr_nonnull(k.names->act);
				ck_assert_ptr_nonnull(k.names->down);
				ck_assert_ptr_nonnull(k.names->mlp_allreduce);
			}
			if (k.o_bias)
				ck_assert_ptr_nonnull(k.names->o_bias);
			if (k.mlp_bias) {
				ck_assert_ptr_nonnull(k.names->up_bias);
				ck_assert_ptr_nonnull(k.names->down_bias);
			}
			if (k.norm == RL_NORM_PRE)
				ck_assert_ptr_nonnull(k.names->final_norm);
			ck_assert_int_eq(!!(f->phases & RL_FAMILY_DECODE), k.decoder);
			ck_assert_int_eq(k.head == RL_HEAD_LM, k.decoder);
		}
	}
}
END_TEST

/* Weights, summed by hand from each config.json, then against the
 * published count (within 0.5 %). */
START_TEST(test_weights)
{
	struct rl_hfconfig c;

	/* GPT-2 small: wte 50257 x 768 = 38597376, wpe 1024 x 768 = 786432;
	 * a layer: 2 LayerNorms 4 x 768, c_attn 768 x 2304 + 2304, attn
	 * c_proj 768 x 768 + 768, c_fc 768 x 3072 + 3072, mlp c_proj 3072 x
	 * 768 + 768 = 7087872, x 12; ln_f 1536; lm_head tied: 124439808, the
	 * "124M" of the model card (huggingface.co/openai-community/gpt2) */
	read_example("gpt2", &c);
	ck_assert_double_eq(rl_modelops_weights(&c), 124439808.0);
	/* Llama-3-8B: embed and lm_head 2 x 128256 x 4096 = 1050673152; a
	 * layer: 2 RMSNorms 8192, qkv 4096 x (32 + 16) x 128 = 25165824, o
	 * 4096 x 4096 = 16777216, gate_up and down 3 x 4096 x 14336 =
	 * 176160768: 218112000, x 32; the final norm 4096: 8030261248, the
	 * 8.03 billion of huggingface.co/meta-llama/Meta-Llama-3-8B */
	read_example("llama3-8b", &c);
	ck_assert_double_eq(rl_modelops_weights(&c), 8030261248.0);
	ck_assert_double_eq_tol(rl_modelops_weights(&c), 8.03e9, 0.005 * 8.03e9);
	/* Mixtral-8x7B: embed and lm_head 2 x 32000 x 4096 = 262144000; a
	 * layer: 8192, qkv 25165824, o 16777216, 8 experts x 3 x 4096 x 14336
	 * = 1409286144, router 4096 x 8 = 32768: 1451270144, x 32; 4096:
	 * 46702792704, "46.7B total parameters" (mistral.ai/news/mixtral-of-
	 * experts) */
	read_example("mixtral-8x7b", &c);
	ck_assert_double_eq(rl_modelops_weights(&c), 46702792704.0);
	ck_assert_double_eq_tol(rl_modelops_weights(&c), 46.7e9, 0.005 * 46.7e9);
	/* Qwen2-7B (Qwen2.5-7B's numbers): embed and lm_head 2 x 152064 x
	 * 3584 = 1089994752; a layer: 7168, qkv 3584 x (28 + 8) x 128 =
	 * 16515072 and its bias 4608, o 3584 x 3584 = 12845056, 3 x 3584 x
	 * 18944 = 203685888: 233057792, x 28; 3584: 7615616512, the "7.61B"
	 * of huggingface.co/Qwen/Qwen2.5-7B */
	read_example("qwen2-7b", &c);
	ck_assert_double_eq(rl_modelops_weights(&c), 7615616512.0);
	ck_assert_double_eq_tol(rl_modelops_weights(&c), 7.61e9, 0.005 * 7.61e9);
	/* ViT-B/16: patch filter 768 x 3 x 16 x 16 + 768, class token 768,
	 * positions 197 x 768 = 742656; a layer 7087872 (gpt2's), x 12; ln_f
	 * 1536; pooler 768 x 768 + 768: 86389248, the 86M of Dosovitskiy et
	 * al. 2021, table 1 */
	read_example("vit-b16", &c);
	ck_assert_double_eq(rl_modelops_weights(&c), 86389248.0);
	ck_assert_double_eq_tol(rl_modelops_weights(&c), 86e6, 0.005 * 86e6);
	/* BERT-base: word, position and token-type tables (30522 + 512 + 2) x
	 * 768 = 23837184 and their LayerNorm 1536; a layer 7087872, x 12; the
	 * pooler 768 x 768 + 768: 109482240, the "110M" of Devlin et al. 2019,
	 * section 3 */
	read_example("bert-base", &c);
	ck_assert_double_eq(rl_modelops_weights(&c), 109482240.0);
	ck_assert_double_eq_tol(rl_modelops_weights(&c), 110e6, 0.005 * 110e6);
}
END_TEST

/* The weights the rows of step O hold: each weighted matmul's B (B x K x N)
 * times its weight_count (else count), each conv2d's filter, and every
 * row's params. */
static double rows_weights(const struct rl_modelops_row *r, int n)
{
	double w = 0;
	int i;

	for (i = 0; i < n; i++) {
		uint64_t d[RL_MAX_DIMS], k[3];
		int nd, nk;
		struct rl_err e;
		double sets = (double)(r[i].weight_count ? r[i].weight_count : r[i].count);

		w += (double)r[i].params;
		ck_assert_int_eq(rl_parse_dims(r[i].shape, d, RL_MAX_DIMS, &nd, &e), 0);
		if (strcmp(r[i].kind, "matmul") == 0 && r[i].weights)
			w += sets * (nd == 4 ? (double)d[0] : 1.0) * (double)d[nd - 1] * (double)d[nd - 2];
		if (strcmp(r[i].kind, "conv2d") == 0) {
			ck_assert_int_eq(rl_parse_dims(r[i].kernel, k, 3, &nk, &e), 0);
			w += sets * (double)k[0] * (double)d[1] * (double)k[1] * (double)k[2];
		}
	}
	return w;
}

/* Every weight of the model is held by some row of its step (the memory
 * fit's weights are rl_modelops_weights, the published counts above),
 * whichever stack's kernels the step is: the fused rows, transformers
 * eager's (the embedding, norms and biases on its kernels, Mixtral's
 * untouched experts on the grouped GEMMs' params) and torch.compile's (the
 * embedding fused into the first norm), at decode and prefill, and every
 * micro-batch holding them once. */
START_TEST(test_weights_held)
{
	static const char *const examples[] = {"gpt2", "llama3-8b", "mixtral-8x7b", "qwen2-7b",
	                                       "qwen3-8b", "bert-base", "vit-b16"};
	static const char *const impls[] = {NULL, "hf-transformers.impl", "torch-compile.impl"};
	struct rl_modelops_row r[RL_MODELOPS_MAX];
	size_t i, j;

	for (j = 0; j < ARRAY_SIZE(impls); j++) {
		struct rl_impl im;
		struct rl_err e;
		char path[256];

		if (impls[j] != NULL) {
			snprintf(path, sizeof(path), "%s/%s", RL_TEST_HWDB, impls[j]);
			ck_assert_msg(rl_impl_load(path, &im, &e) == 0, "%s", e.msg);
		}
		for (i = 0; i < ARRAY_SIZE(examples); i++) {
			struct rl_modelops_opts o = {.phase = RL_PHASE_PREFILL,
			                             .batch = 4,
			                             .seq = 128,
			                             .context = 256,
			                             .dtype = RL_BF16,
			                             .weight_dtype = RL_BF16,
			                             .kv_dtype = RL_BF16,
			                             .expert_imbalance = 1.0,
			                             .impl = impls[j] != NULL ? &im : NULL};
			struct rl_hfconfig c;
			int n, p;

			read_example(examples[i], &c);
			for (p = 0; p < 2; p++) {
				if (p == 1 && c.encoder)
					break;
				o.phase = p ? RL_PHASE_DECODE : RL_PHASE_PREFILL;
				if (c.tokens)
					o.seq = c.tokens;
				n = rl_modelops_build(&c, &o, r, &e);
				ck_assert_msg(n > 0, "%s %s: %s", examples[i], impls[j], e.msg);
				ck_assert_msg(rows_weights(r, n) == rl_modelops_weights(&c),
				              "%s, %s, phase %d: rows hold %.0f, the model %.0f",
				              examples[i], impls[j] ? impls[j] : "fused", p,
				              rows_weights(r, n), rl_modelops_weights(&c));
			}
		}
		if (impls[j] != NULL)
			rl_impl_release(&im);
	}
}
END_TEST

/* A family's layouts: a degree it does not take is refused before the
 * sizes are checked (a family of the test's own, through rl_hfconfig.fam). */
START_TEST(test_layouts)
{
	static const char *const types[] = {"test", NULL};
	struct rl_family f = *rl_family_find("llama");
	struct rl_parallel lay = {1, 2, 1, 1, 0, 0};
	struct rl_hfconfig c;
	struct rl_err e;

	f.model_types = types;
	f.layouts = RL_FAMILY_TP | RL_FAMILY_DP;
	read_example("llama3-8b", &c);
	ck_assert_int_eq(rl_parallel_check_model(&lay, &c, &e), 0);
	c.fam = &f;
	strcpy(c.model_type, "test");
	ck_assert_int_eq(rl_parallel_check_model(&lay, &c, &e), RL_ERR_ARG);
	ck_assert_str_eq(e.msg, "--pp 2: model_type test takes no pipeline parallelism");
	lay = (struct rl_parallel){2, 1, 2, 1, 0, 0};
	ck_assert_int_eq(rl_parallel_check_model(&lay, &c, &e), 0);
	f.layouts = RL_FAMILY_PP;
	ck_assert_int_eq(rl_parallel_check_model(&lay, &c, &e), RL_ERR_ARG);
	ck_assert_str_eq(e.msg, "--tp 2: model_type test takes no tensor parallelism");
	lay.tp = 1;
	ck_assert_int_eq(rl_parallel_check_model(&lay, &c, &e), RL_ERR_ARG);
	ck_assert_str_eq(e.msg, "--dp 2: model_type test takes no data parallelism");
	/* the experts, not the layouts, decide --ep (the messages name the
	 * families with RL_FAMILY_EP) */
	lay = (struct rl_parallel){1, 1, 2, 2, 0, 0};
	f.layouts = RL_FAMILY_DP | RL_FAMILY_EP;
	ck_assert_int_eq(rl_parallel_check_model(&lay, &c, &e), RL_ERR_ARG);
	ck_assert_str_eq(e.msg, "--ep 2: model_type test has no experts (expert parallelism is "
	                        "for MoE models: mixtral)");
}
END_TEST

/* The family walk (docs/model.md, "Adding a family"): qwen3.
 * examples/qwen3-8b.json is Qwen/Qwen3-8B-Base's config.json on the Hugging
 * Face Hub (as mirrored in github.com/Chen-Oliver/qwen3-8b-base, config.json
 * at 1e44ee1): hidden 4096, intermediate 12288, 36 layers, 32 heads and 8
 * KV heads of head_dim 128, vocab 151936, untied, no attention bias. The
 * Qwen3-8B model card (huggingface.co/Qwen/Qwen3-8B, "Model Overview"):
 * "Number of Parameters: 8.2B", "(Non-Embedding): 6.95B". */
START_TEST(test_qwen3)
{
	static const struct {
		const char *name, *kind, *shape;
		uint64_t count;
	} want[] = {
		/* one decode step, batch 2 over a context of 1024: T = 2 tokens */
		{"embed", "copy", "2x4096", 1},
		{"attn_norm", "layernorm", "2x4096", 36},
		/* N = (32 + 2 x 8) x 128 = 6144 */
		{"qkv_proj", "matmul", "2x6144x4096", 36},
		/* T x H x D and T x Hkv x D */
		{"q_norm", "layernorm", "2x32x128", 36},
		{"k_norm", "layernorm", "2x8x128", 36},
		{"attention", "attention", "2x32x1x1024x128", 36},
		/* K = 32 x 128 = 4096 */
		{"o_proj", "matmul", "2x4096x4096", 36},
		{"attn_residual", "pointwise", "2x4096", 36},
		{"mlp_norm", "layernorm", "2x4096", 36},
		{"gate_up", "matmul", "2x24576x4096", 36},
		{"silu", "pointwise", "2x12288", 36},
		{"mul", "pointwise", "2x12288", 36},
		{"down_proj", "matmul", "2x4096x12288", 36},
		{"mlp_residual", "pointwise", "2x4096", 36},
		{"final_norm", "layernorm", "2x4096", 1},
		{"lm_head", "matmul", "2x151936x4096", 1},
	};
	struct rl_modelops_opts o = {.phase = RL_PHASE_DECODE,
	                             .batch = 2,
	                             .seq = 1024,
	                             .context = 1024,
	                             .dtype = RL_BF16,
	                             .weight_dtype = RL_BF16,
	                             .kv_dtype = RL_BF16,
	                             .expert_imbalance = 1.0};
	struct rl_modelops_row r[RL_MODELOPS_MAX];
	struct rl_hfconfig c;
	struct rl_op op;
	struct rl_err e;
	double flops, bytes, w;
	size_t i;
	int n;

	read_example("qwen3-8b", &c);
	ck_assert_str_eq(c.model_type, "qwen3");
	ck_assert_str_eq(rl_family_of(&c)->name, "qwen3");
	ck_assert_uint_eq(c.hidden, 4096);
	ck_assert_uint_eq(c.intermediate, 12288);
	ck_assert_uint_eq(c.heads, 32);
	ck_assert_uint_eq(c.kv_heads, 8);
	ck_assert_uint_eq(c.head_dim, 128);
	ck_assert_uint_eq(c.layers, 36);
	ck_assert_uint_eq(c.vocab, 151936);
	ck_assert_int_eq(c.tie_embeddings, 0);
	ck_assert_int_eq(c.attention_bias, 0);

	n = rl_modelops_build(&c, &o, r, &e);
	ck_assert_int_eq(n, (int)ARRAY_SIZE(want));
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		ck_assert_str_eq(r[i].name, want[i].name);
		ck_assert_str_eq(r[i].kind, want[i].kind);
		ck_assert_str_eq(r[i].shape, want[i].shape);
		ck_assert_uint_eq(r[i].count, want[i].count);
	}
	ck_assert_uint_eq(r[5].kv_heads, 8);
	ck_assert_int_eq(r[5].kv, 1);
	/* q_norm as the op-list reader takes it: 2 x 32 x 128 = 8192
	 * elements, 8 FLOPs each (layernorm's default) = 65536; bytes: in
	 * and out 2 x 8192 plus the weight and bias of the last dim 2 x 128,
	 * x 2 bytes = 33280 */
	rl_op_init(&op);
	ck_assert_int_eq(rl_kind_parse(r[3].kind, &op.kind), 0);
	ck_assert_int_eq(rl_parse_dims(r[3].shape, op.dims, RL_MAX_DIMS, &op.ndims, &e), 0);
	op.has |= RL_HAS_SHAPE;
	op.dtype = RL_BF16;
	ck_assert_int_eq(rl_op_work(&op, &flops, &bytes, &e), 0);
	ck_assert_double_eq(flops, 65536.0);
	ck_assert_double_eq(bytes, 33280.0);

	/* prefill of 512 tokens a sequence: T = 2 x 512 = 1024, attention
	 * causal over the prompt */
	o.phase = RL_PHASE_PREFILL;
	o.seq = 512;
	n = rl_modelops_build(&c, &o, r, &e);
	ck_assert_int_eq(n, (int)ARRAY_SIZE(want));
	ck_assert_str_eq(r[2].shape, "1024x6144x4096");
	ck_assert_str_eq(r[3].shape, "1024x32x128");
	ck_assert_str_eq(r[4].shape, "1024x8x128");
	ck_assert_str_eq(r[5].shape, "2x32x512x128");
	ck_assert_int_eq(r[5].causal, 1);
	ck_assert_str_eq(r[15].shape, "2x151936x4096"); /* the last token of each */
	o.phase = RL_PHASE_DECODE;

	/* tensor parallel 4 is a layout the rows take: 8 and 2 heads a GPU */
	{
		static const struct rl_net net = {"net", 450, 0, 15, 0, 8, 1};
		struct rl_parallel lay = {4, 1, 1, 1, 0, 0};
		struct rl_parallel_place p;
		int j;

		ck_assert_int_eq(rl_parallel_check_model(&lay, &c, &e), 0);
		ck_assert_int_eq(rl_parallel_place(&lay, 2, c.layers, 0, &net, &p, &e), 0);
		o.par = &p;
		n = rl_modelops_build(&c, &o, r, &e);
		ck_assert_int_gt(n, 0);
		for (j = 0; j < n; j++) {
			if (strcmp(r[j].name, "q_norm") == 0)
				ck_assert_str_eq(r[j].shape, "2x8x128");
			if (strcmp(r[j].name, "k_norm") == 0)
				ck_assert_str_eq(r[j].shape, "2x2x128");
			if (strcmp(r[j].name, "qkv_proj") == 0) /* (8 + 2 x 2) x 128 */
				ck_assert_str_eq(r[j].shape, "2x1536x4096");
		}
	}

	/* weights: embed and lm_head 2 x 151936 x 4096 = 1244659712; a layer:
	 * 2 RMSNorms 8192, qkv 4096 x 6144 = 25165824, q_norm and k_norm 2 x
	 * 128, o 4096 x 4096 = 16777216, 3 x 4096 x 12288 = 150994944:
	 * 192946432, x 36 = 6946071552; the final norm 4096 */
	w = rl_modelops_weights(&c);
	ck_assert_double_eq(w, 8190735360.0);
	ck_assert_double_eq_tol(w, 8.2e9, 0.005 * 8.2e9);
	ck_assert_double_eq_tol(w - 1244659712.0, 6.95e9, 0.005 * 6.95e9);
}
END_TEST

/* A family's keys list is what its reader reads: each key, given a
 * string in front of the example's own (the first of a duplicated key is
 * the one read), makes the reader fail naming it. */
START_TEST(test_keys_read)
{
	static const struct {
		const char *family, *example;
	} ex[] = {{"llama", "llama3-8b"}, {"mixtral", "mixtral-8x7b"}, {"qwen2", "qwen2-7b"},
	          {"qwen3", "qwen3-8b"},  {"gpt2", "gpt2"},            {"bert", "bert-base"},
	          {"vit", "vit-b16"}};
	size_t i, j, n;

	for (i = 0; rl_families[i] != NULL; i++) {
		const struct rl_family *f = rl_families[i];
		const char *name = NULL;
		char path[256], *text, *doc;
		struct rl_hfconfig c;
		struct rl_err e;
		FILE *fp;
		long len;

		for (j = 0; j < ARRAY_SIZE(ex); j++)
			if (strcmp(ex[j].family, f->name) == 0)
				name = ex[j].example;
		ck_assert_msg(name != NULL, "family %s: no example", f->name);
		snprintf(path, sizeof(path), "%s/%s.json", RL_EXAMPLES, name);
		fp = fopen(path, "rb");
		ck_assert_ptr_nonnull(fp);
		fseek(fp, 0, SEEK_END);
		len = ftell(fp);
		rewind(fp);
		text = calloc(1, (size_t)len + 1);
		doc = calloc(1, (size_t)len + 128);
		ck_assert_uint_eq(fread(text, 1, (size_t)len, fp), (size_t)len);
		fclose(fp);
		ck_assert_int_eq(text[0], '{');
		for (n = 0; f->keys[n] != NULL; n++) {
			char want[96];

			snprintf(doc, (size_t)len + 128, "{\"%s\": \"x\", %s", f->keys[n],
			         text + 1);
			ck_assert_int_eq(rl_hfconfig_parse(doc, "c.json", &c, &e), RL_ERR_PARSE);
			snprintf(want, sizeof(want), "c.json: key '%s': expected", f->keys[n]);
			ck_assert_msg(strncmp(e.msg, want, strlen(want)) == 0, "%s: %s", f->name,
			              e.msg);
		}
		ck_assert_uint_gt(n, 4);
		free(text);
		free(doc);
	}
}
END_TEST

/* docs/model.md has a row for every family: its file and model_types. */
START_TEST(test_docs)
{
	char line[2048];
	size_t i, j;

	for (i = 0; rl_families[i] != NULL; i++) {
		const struct rl_family *f = rl_families[i];
		char file[64];
		int found = 0;
		FILE *fp = fopen(RL_EXAMPLES "/../docs/model.md", "r");

		ck_assert_ptr_nonnull(fp);
		snprintf(file, sizeof(file), "(`family_%s.c`)", f->name);
		while (fgets(line, sizeof(line), fp) != NULL) {
			if (strncmp(line, "| ", 2) != 0 || strstr(line, file) == NULL)
				continue;
			found = 1;
			for (j = 0; f->model_types[j] != NULL; j++) {
				char t[48];

				snprintf(t, sizeof(t), "`%s`", f->model_types[j]);
				ck_assert_msg(strstr(line, t) != NULL, "docs/model.md: %s", t);
			}
		}
		fclose(fp);
		ck_assert_msg(found, "docs/model.md: no row for %s", file);
	}
}
END_TEST

Suite *suite_family(void)
{
	Suite *s = suite_create("family");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_find);
	tcase_add_test(tc, test_of);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_weights);
	tcase_add_test(tc, test_weights_held);
	tcase_add_test(tc, test_layouts);
	tcase_add_test(tc, test_qwen3);
	tcase_add_test(tc, test_keys_read);
	tcase_add_test(tc, test_docs);
	suite_add_tcase(s, tc);
	return s;
}
