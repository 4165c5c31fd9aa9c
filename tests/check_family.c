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
#include "memfit.h"
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

	ck_assert_int_eq(rl_family_names(buf, sizeof(buf), 0, 0), 20);
	ck_assert_str_eq(buf, "llama, mistral, mixtral, qwen2, qwen3, qwen2_moe, qwen3_moe, gemma2, "
	                      "gemma3_text, gemma3, phi3, olmo2, granite, falcon, deepseek_v2, "
	                      "deepseek_v3, gpt_oss, gpt2, bert or vit");
	ck_assert_int_eq(rl_family_names(buf, sizeof(buf), RL_FAMILY_EP, 0), 6);
	ck_assert_str_eq(buf, "mixtral, qwen2_moe, qwen3_moe, deepseek_v2, deepseek_v3 or gpt_oss");
	ck_assert_int_eq(rl_family_names(buf, sizeof(buf), 0, RL_FAMILY_DECODE), 2);
	ck_assert_str_eq(buf, "bert or vit");
	ck_assert_int_eq(rl_family_names(buf, sizeof(buf), RL_FAMILY_EP, RL_FAMILY_TRAIN), 0);
	ck_assert_str_eq(buf, "");
	/* truncated, still terminated, still counting */
	ck_assert_int_eq(rl_family_names(buf, 8, 0, 0), 20);
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
	static const char *const examples[] = {
		"gpt2",      "llama3-8b",         "mixtral-8x7b",  "qwen2-7b",  "qwen3-8b",
		"bert-base", "vit-b16",           "gemma2-9b",     "gemma3-1b", "phi3-mini",
		"olmo2-7b",  "qwen1.5-moe-a2.7b", "qwen3-30b-a3b", "granite3-8b", "falcon-7b",
		"deepseek-v2-lite", "gpt-oss-20b"};
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
				ck_assert_msg(rows_weights(r, n) ==
				                      rl_modelops_weights(&c) + rl_modelops_mtp_weights(&c),
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
	struct rl_parallel lay = {1, 2, 1, 1, 0, 0, 0, 0, 0, 0};
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
	lay = (struct rl_parallel){2, 1, 2, 1, 0, 0, 0, 0, 0, 0};
	ck_assert_int_eq(rl_parallel_check_model(&lay, &c, &e), 0);
	f.layouts = RL_FAMILY_PP;
	ck_assert_int_eq(rl_parallel_check_model(&lay, &c, &e), RL_ERR_ARG);
	ck_assert_str_eq(e.msg, "--tp 2: model_type test takes no tensor parallelism");
	lay.tp = 1;
	ck_assert_int_eq(rl_parallel_check_model(&lay, &c, &e), RL_ERR_ARG);
	ck_assert_str_eq(e.msg, "--dp 2: model_type test takes no data parallelism");
	/* the experts, not the layouts, decide --ep (the messages name the
	 * families with RL_FAMILY_EP) */
	lay = (struct rl_parallel){1, 1, 2, 2, 0, 0, 0, 0, 0, 0};
	f.layouts = RL_FAMILY_DP | RL_FAMILY_EP;
	ck_assert_int_eq(rl_parallel_check_model(&lay, &c, &e), RL_ERR_ARG);
	ck_assert_str_eq(e.msg, "--ep 2: model_type test has no experts (expert parallelism is "
	                        "for MoE models: mixtral, qwen2_moe, qwen3_moe, deepseek_v2, deepseek_v3 or "
	                        "gpt_oss)");
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
		struct rl_parallel lay = {4, 1, 1, 1, 0, 0, 0, 0, 0, 0};
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
	          {"vit", "vit-b16"},     {"qwen2_moe", "qwen1.5-moe-a2.7b"},
	          {"qwen3_moe", "qwen3-30b-a3b"}, {"gemma2", "gemma2-9b"},
	          {"gemma3", "gemma3-1b"}, {"phi3", "phi3-mini"}, {"olmo2", "olmo2-7b"},
	          {"granite", "granite3-8b"}, {"falcon", "falcon-7b"},
	          {"deepseek", "deepseek-v2-lite"}, {"deepseek_v3", "deepseek-v3"},
	          {"gpt_oss", "gpt-oss-20b"}};
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

/* ---- issue 24's families: each example's rows worked by hand ---- */

/* Every hand-worked weight count below is also transformers' own: the
 * model built from the example on the meta device, sum(p.numel()) over its
 * parameters (bench/families/measure.py, transformers 5.17.0:
 * docs/measurements/h200-issue24-2026-12-03). Where the model card gives
 * only a rounded count (OLMo 2 "7B", Granite "8.1B", Falcon "7B"), the test
 * holds the weights to that rounding. */

/* IM: transformers eager, hwdb/hf-transformers.impl (release it). */
static void load_hf(struct rl_impl *im)
{
	char path[256];
	struct rl_err e;

	snprintf(path, sizeof(path), "%s/hf-transformers.impl", RL_TEST_HWDB);
	ck_assert_msg(rl_impl_load(path, im, &e) == 0, "%s", e.msg);
}

struct want_row {
	const char *name, *kind, *shape;
	uint64_t count;
};

/* ROWS (N) are exactly WANT (NW), in order. */
static void rows_are(const struct rl_modelops_row *r, int n, const struct want_row *want,
                     size_t nw, const char *what)
{
	size_t i;

	ck_assert_msg(n == (int)nw, "%s: %d rows, want %zu", what, n, nw);
	for (i = 0; i < nw; i++) {
		ck_assert_msg(strcmp(r[i].name, want[i].name) == 0, "%s: row %zu is %s, want %s",
		              what, i, r[i].name, want[i].name);
		ck_assert_str_eq(r[i].kind, want[i].kind);
		ck_assert_msg(strcmp(r[i].shape, want[i].shape) == 0, "%s: %s's shape %s, want %s",
		              what, r[i].name, r[i].shape, want[i].shape);
		ck_assert_msg(r[i].count == want[i].count, "%s: %s's count %llu, want %llu", what,
		              r[i].name, (unsigned long long)r[i].count,
		              (unsigned long long)want[i].count);
	}
}

/* The row called NAME of ROWS (N), or NULL. */
static const struct rl_modelops_row *row_named(const struct rl_modelops_row *r, int n,
                                               const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(r[i].name, name) == 0)
			return &r[i];
	return NULL;
}

/* The KV cache the attention rows of ROWS (N) hold, bytes (bf16): the
 * memory fit's share of them (memfit.c), count times each. */
static double kv_bytes_of(const struct rl_modelops_row *r, int n)
{
	double kv = 0, w, k, a;
	int i;

	for (i = 0; i < n; i++) {
		struct rl_op op;
		struct rl_err e;

		if (strcmp(r[i].kind, "attention") != 0)
			continue;
		rl_op_init(&op);
		op.kind = RL_KIND_ATTENTION;
		ck_assert_int_eq(rl_parse_dims(r[i].shape, op.dims, RL_MAX_DIMS, &op.ndims, &e), 0);
		op.has |= RL_HAS_SHAPE;
		op.dtype = RL_BF16;
		op.causal = r[i].causal;
		op.kv_heads = r[i].kv_heads;
		op.window = r[i].window;
		op.v_head_dim = r[i].v_head_dim;
		op.kv_shared = r[i].kv_shared;
		ck_assert_int_eq(rl_memfit_op_bytes(&op, &w, &k, &a, &e), 0);
		kv += (double)r[i].count * k;
	}
	return kv;
}

static struct rl_modelops_opts step(enum rl_modelops_phase phase, uint64_t batch, uint64_t len)
{
	struct rl_modelops_opts o = {.phase = phase,
	                             .batch = batch,
	                             .seq = len,
	                             .context = len,
	                             .dtype = RL_BF16,
	                             .weight_dtype = RL_BF16,
	                             .kv_dtype = RL_BF16,
	                             .expert_imbalance = 1.0};
	return o;
}

/* gemma2: examples/gemma2-9b.json is google/gemma-2-9b's config.json
 * (huggingface.co/google/gemma-2-9b): hidden 3584, intermediate 14336, 16
 * heads and 8 KV heads of head_dim 256, 42 layers, vocab 256000, a window
 * of 4096 keys on the even layers, soft-capping 50 and 30, tied. */
START_TEST(test_gemma2)
{
	static const struct want_row decode[] = {
		/* a decode step of batch 2 over 8192 keys: T = 2 */
		{"embed", "copy", "2x3584", 1},
		{"attn_norm", "layernorm", "2x3584", 42},
		/* N = (16 + 2 x 8) x 256 = 8192 */
		{"qkv_proj", "matmul", "2x8192x3584", 42},
		/* the 21 odd layers attend to every key, the 21 even ones to
		 * the last 4096 (the window column) */
		{"attention", "attention", "2x16x1x8192x256", 21},
		{"sliding_attention", "attention", "2x16x1x8192x256", 21},
		/* K = 16 x 256 = 4096, not the hidden size */
		{"o_proj", "matmul", "2x3584x4096", 42},
		{"post_attn_norm", "layernorm", "2x3584", 42},
		{"attn_residual", "pointwise", "2x3584", 42},
		{"mlp_norm", "layernorm", "2x3584", 42},
		{"gate_up", "matmul", "2x28672x3584", 42},
		{"gelu_tanh", "pointwise", "2x14336", 42},
		{"mul", "pointwise", "2x14336", 42},
		{"down_proj", "matmul", "2x3584x14336", 42},
		{"post_mlp_norm", "layernorm", "2x3584", 42},
		{"mlp_residual", "pointwise", "2x3584", 42},
		{"final_norm", "layernorm", "2x3584", 1},
		{"lm_head", "matmul", "2x256000x3584", 1},
		{"logit_softcap", "pointwise", "2x256000", 1},
	};
	struct rl_modelops_opts o = step(RL_PHASE_DECODE, 2, 8192);
	struct rl_modelops_row r[RL_MODELOPS_MAX];
	const struct rl_modelops_row *x;
	struct rl_hfconfig c;
	struct rl_err e;
	double w;
	int n;

	read_example("gemma2-9b", &c);
	ck_assert_str_eq(rl_family_of(&c)->name, "gemma2");
	ck_assert_uint_eq(c.head_dim, 256);
	ck_assert_uint_eq(c.window, 4096);
	ck_assert_int_eq(c.tie_embeddings, 1); /* not in the config: Gemma's default */
	ck_assert_double_eq(c.softcap_attn, 50.0);
	ck_assert_double_eq(c.softcap_logits, 30.0);
	/* Gemma2Config's layer_types: layer 0 slides, layer 1 does not, ... */
	ck_assert_uint_eq(rl_hfconfig_layers(&c, RL_LAYER_SLIDING, 0, 42), 21);
	ck_assert_uint_eq(rl_hfconfig_layers(&c, RL_LAYER_SLIDING, 0, 1), 1);
	ck_assert_uint_eq(rl_hfconfig_layers(&c, RL_LAYER_SLIDING, 1, 2), 0);
	n = rl_modelops_build(&c, &o, r, &e);
	rows_are(r, n, decode, ARRAY_SIZE(decode), "gemma2 decode");
	ck_assert_uint_eq(r[3].window, 0);
	ck_assert_uint_eq(r[4].window, 4096);
	ck_assert_uint_eq(r[4].kv_heads, 8);
	ck_assert_uint_eq(r[10].fpe, 14);
	ck_assert_uint_eq(r[17].fpe, 3);
	/* the four norms a layer hold 4 x 3584 each, the final one 3584; the
	 * token table is the tied lm_head's B */
	ck_assert_uint_eq(r[1].params + r[6].params + r[8].params + r[13].params, 42 * 4 * 3584);
	ck_assert_uint_eq(r[0].params, 0);

	/* transformers eager (hf-transformers.impl): each cache's cat, on the
	 * 21 full layers over the 8192 keys, on the 21 sliding ones over their
	 * window of 4096 (the "sliding" call of the cache's kernels, a strided
	 * cat); sdpa's repeat_kv to the 16 query heads only where a mask goes
	 * to SDPA: the sliding layers', whose window of 4096 cuts the 8192 keys
	 * (a full layer's causal mask is skipped: enable_gqa) */
	{
		struct rl_impl im;
		int i, full = 0, slide = 0;

		load_hf(&im);
		o.impl = &im;
		n = rl_modelops_build(&c, &o, r, &e);
		ck_assert_msg(n > 0, "%s", e.msg);
		for (i = 0; i < n; i++) {
			if (strcmp(r[i].name, "k_cat") == 0 && strcmp(r[i].shape, "2x8x8192x256") == 0 &&
			    r[i].count == 21)
				full++;
			if (strcmp(r[i].name, "k_cat") == 0 && strcmp(r[i].shape, "2x8x4096x256") == 0 &&
			    r[i].count == 21)
				slide++;
			if (strcmp(r[i].name, "k_repeat") == 0 && strcmp(r[i].shape, "2x16x8192x256") == 0)
				full += 10; /* none: the full layers' mask is skipped */
			if (strcmp(r[i].name, "k_repeat") == 0 && strcmp(r[i].shape, "2x16x4096x256") == 0 &&
			    r[i].count == 21)
				slide++;
			if (strcmp(r[i].name, "k_cat") == 0 && strcmp(r[i].shape, "2x8x4096x256") == 0)
				ck_assert_uint_eq(r[i].strided, 2);
		}
		ck_assert_int_eq(full, 1);
		ck_assert_int_eq(slide, 2);
		/* Gemma's norm: (1 + w) in fp32 on the H weights, 4 norms a layer */
		ck_assert_str_eq(row_named(r, n, "g_w_one")->shape, "3584");
		ck_assert_uint_eq(row_named(r, n, "g_w_one")->count, 42);
		ck_assert_str_eq(row_named(r, n, "embed_scale")->shape, "2x3584");
		rl_impl_release(&im);
		o.impl = NULL;
	}

	/* prefill of 4096 tokens, two sequences: T = 8192, every sliding
	 * row's window 4096 = the prompt: no key is out of reach */
	o = step(RL_PHASE_PREFILL, 2, 4096);
	n = rl_modelops_build(&c, &o, r, &e);
	ck_assert_int_eq(n, (int)ARRAY_SIZE(decode));
	ck_assert_str_eq(r[2].shape, "8192x8192x3584");
	ck_assert_str_eq(r[3].shape, "2x16x4096x256");
	ck_assert_str_eq(r[4].shape, "2x16x4096x256");
	ck_assert_int_eq(r[4].causal, 1);
	ck_assert_uint_eq(r[4].window, 4096);
	x = row_named(r, n, "logit_softcap");
	ck_assert_str_eq(x->shape, "2x256000"); /* the last token of each */

	/* pipeline parallel 4: the last stage has layers 31 to 41 (ceil(42 /
	 * 4) = 11), of which 32, 34, ..., 40 slide: 5, and 6 attend fully;
	 * the batch of 2 runs as 2 micro-batches (one per stage at most), each
	 * row twice */
	{
		static const struct rl_net net = {"net", 450, 0, 15, 0, 8, 1};
		struct rl_parallel lay = {1, 4, 1, 1, 0, 0, 0, 0, 0, 0};
		struct rl_parallel_place p;

		o = step(RL_PHASE_DECODE, 2, 8192);
		ck_assert_int_eq(rl_parallel_place(&lay, 2, c.layers, 0, &net, &p, &e), 0);
		o.par = &p;
		n = rl_modelops_build(&c, &o, r, &e);
		ck_assert_msg(n > 0, "%s", e.msg);
		ck_assert_uint_eq(p.stage_layers, 11);
		ck_assert_uint_eq(p.lay.microbatches, 2);
		ck_assert_uint_eq(row_named(r, n, "attention")->count, 6 * 2);
		ck_assert_uint_eq(row_named(r, n, "sliding_attention")->count, 5 * 2);
	}

	/* weights: the table 256000 x 3584 = 917504000 (tied: once); a layer:
	 * 4 RMSNorms 14336, qkv 3584 x 8192 = 29360128, o 4096 x 3584 =
	 * 14680064, 3 x 3584 x 14336 = 154140672: 198195200, x 42 =
	 * 8324198400; the final norm 3584: 9241705984, the "9.24B" of the
	 * Gemma 2 report (Gemma Team 2024, arXiv:2408.00118, table 1: 9B,
	 * embedding 917,504,000, non-embedding 8,324,201,984) */
	w = rl_modelops_weights(&c);
	ck_assert_double_eq(w, 9241705984.0);
	ck_assert_double_eq_tol(w, 9.24e9, 0.005 * 9.24e9);
}
END_TEST

/* phi3: examples/phi3-mini.json is microsoft/Phi-3-mini-4k-instruct's
 * config.json: hidden 3072, intermediate 8192, 32 heads, 32 layers, vocab
 * 32064, untied, a window of 2047 keys on every layer. */
START_TEST(test_phi3)
{
	static const struct want_row decode[] = {
		{"embed", "copy", "1x3072", 1},
		{"attn_norm", "layernorm", "1x3072", 32},
		{"qkv_proj", "matmul", "1x9216x3072", 32},
		/* every layer's window: 2047 of the 4000 keys */
		{"sliding_attention", "attention", "1x32x1x4000x96", 32},
		{"o_proj", "matmul", "1x3072x3072", 32},
		{"attn_residual", "pointwise", "1x3072", 32},
		{"mlp_norm", "layernorm", "1x3072", 32},
		{"gate_up_proj", "matmul", "1x16384x3072", 32},
		{"silu", "pointwise", "1x8192", 32},
		{"mul", "pointwise", "1x8192", 32},
		{"down_proj", "matmul", "1x3072x8192", 32},
		{"mlp_residual", "pointwise", "1x3072", 32},
		{"final_norm", "layernorm", "1x3072", 1},
		{"lm_head", "matmul", "1x32064x3072", 1},
	};
	struct rl_modelops_opts o = step(RL_PHASE_DECODE, 1, 4000);
	struct rl_modelops_row r[RL_MODELOPS_MAX];
	struct rl_hfconfig c;
	struct rl_err e;
	double w;
	int n;

	read_example("phi3-mini", &c);
	ck_assert_str_eq(rl_family_of(&c)->name, "phi3");
	ck_assert_uint_eq(c.window, 2047);
	ck_assert_uint_eq(rl_hfconfig_layers(&c, RL_LAYER_SLIDING, 0, 32), 32);
	n = rl_modelops_build(&c, &o, r, &e);
	rows_are(r, n, decode, ARRAY_SIZE(decode), "phi3 decode");
	ck_assert_uint_eq(r[3].window, 2047);
	/* the KV cache: 2047 of the 4000 tokens a layer, K and V, 32 heads of
	 * 96, 2 bytes: 32 x 2 x 2047 x 32 x 96 x 2 = 804913152 */
	ck_assert_double_eq(kv_bytes_of(r, n), 804913152.0);
	/* transformers eager (hf-transformers.impl): one qkv_proj GEMM, N =
	 * (32 + 2 x 32) x 96 = 9216; the sliding cache's cat of its window,
	 * 2047 of the 4000 keys; one gate_up_proj, N = 2 x 8192 */
	{
		struct rl_impl im;

		load_hf(&im);
		o.impl = &im;
		n = rl_modelops_build(&c, &o, r, &e);
		ck_assert_msg(n > 0, "%s", e.msg);
		ck_assert_str_eq(row_named(r, n, "qkv_proj")->shape, "1x9216x3072");
		ck_assert_str_eq(row_named(r, n, "k_cat")->shape, "1x32x2047x96");
		ck_assert_str_eq(row_named(r, n, "v_cat")->shape, "1x32x2047x96");
		ck_assert_str_eq(row_named(r, n, "gate_up_proj")->shape, "1x16384x3072");
		ck_assert_ptr_null(row_named(r, n, "q_proj"));
		/* a context inside the window: the cat of all 1000 */
		o.context = 1000;
		n = rl_modelops_build(&c, &o, r, &e);
		ck_assert_str_eq(row_named(r, n, "k_cat")->shape, "1x32x1000x96");
		rl_impl_release(&im);
		o.impl = NULL;
	}
	/* prefill of 1000 tokens: within the window, causal */
	o = step(RL_PHASE_PREFILL, 1, 1000);
	n = rl_modelops_build(&c, &o, r, &e);
	ck_assert_str_eq(r[3].shape, "1x32x1000x96");
	ck_assert_int_eq(r[3].causal, 1);
	/* weights: embed and lm_head 2 x 32064 x 3072 = 197001216; a layer:
	 * 6144, qkv 3072 x 9216 = 28311552, o 9437184, 3 x 3072 x 8192 =
	 * 75497472: 113252352, x 32; 3072: 3821079552, the "3.82B params" of
	 * the model's page (huggingface.co/microsoft/Phi-3-mini-4k-instruct,
	 * its safetensors' count; "3.8B parameters" in the card's text) */
	w = rl_modelops_weights(&c);
	ck_assert_double_eq(w, 3821079552.0);
	ck_assert_double_eq_tol(w, 3.82e9, 0.005 * 3.82e9);
}
END_TEST

/* qwen3_moe: examples/qwen3-30b-a3b.json is Qwen/Qwen3-30B-A3B's
 * config.json: hidden 2048, 48 layers, 32 heads and 4 KV heads of 128,
 * 128 experts of moe_intermediate_size 768, 8 a token, vocab 151936. */
START_TEST(test_qwen3_moe)
{
	static const struct want_row decode[] = {
		/* batch 4 over 4096 keys: T = 4, T k = 32 routed tokens */
		{"embed", "copy", "4x2048", 1},
		{"attn_norm", "layernorm", "4x2048", 48},
		/* N = (32 + 2 x 4) x 128 = 5120 */
		{"qkv_proj", "matmul", "4x5120x2048", 48},
		{"q_norm", "layernorm", "4x32x128", 48},
		{"k_norm", "layernorm", "4x4x128", 48},
		{"attention", "attention", "4x32x1x4096x128", 48},
		{"o_proj", "matmul", "4x2048x4096", 48},
		{"attn_residual", "pointwise", "4x2048", 48},
		{"mlp_norm", "layernorm", "4x2048", 48},
		{"router", "matmul", "4x128x2048", 48},
		{"topk", "reduction", "4x128", 48},
		{"gather", "copy", "4x8x2048", 48},
		/* E' = 128 (1 - (1 - 8/128)^4) = 29.12: 29 experts of M =
		 * ceil(32 / 29) = 2 tokens, 48 x 29 = 1392 GEMMs; N = 2 x 768 */
		{"expert_gate_up", "matmul", "2x1536x2048", 1392},
		{"expert_silu", "pointwise", "32x768", 48},
		{"expert_mul", "pointwise", "32x768", 48},
		{"expert_down", "matmul", "2x2048x768", 1392},
		{"combine_weight", "pointwise", "4x8x2048", 48},
		{"combine_sum", "reduction", "4x2048x8", 48},
		{"mlp_residual", "pointwise", "4x2048", 48},
		{"final_norm", "layernorm", "4x2048", 1},
		{"lm_head", "matmul", "4x151936x2048", 1},
	};
	struct rl_modelops_opts o = step(RL_PHASE_DECODE, 4, 4096);
	struct rl_modelops_row r[RL_MODELOPS_MAX];
	struct rl_hfconfig c;
	struct rl_err e;
	double w;
	int n;

	read_example("qwen3-30b-a3b", &c);
	ck_assert_str_eq(rl_family_of(&c)->name, "qwen3_moe");
	ck_assert_uint_eq(c.experts, 128);
	ck_assert_uint_eq(c.experts_per_tok, 8);
	ck_assert_uint_eq(c.expert_intermediate, 768);
	ck_assert_uint_eq(c.intermediate, 6144);
	ck_assert_int_eq(c.norm_topk, 1);
	ck_assert_uint_eq(c.shared_intermediate, 0);
	ck_assert_uint_eq(rl_hfconfig_layers(&c, RL_LAYER_DENSE, 0, 48), 0);
	n = rl_modelops_build(&c, &o, r, &e);
	rows_are(r, n, decode, ARRAY_SIZE(decode), "qwen3_moe decode");
	ck_assert_uint_eq(r[12].weight_count, 48 * 128); /* every expert resident */
	/* prefill, one sequence of 2048: T k = 16384 routed tokens touch all
	 * 128 experts, 128 each */
	o = step(RL_PHASE_PREFILL, 1, 2048);
	n = rl_modelops_build(&c, &o, r, &e);
	ck_assert_str_eq(row_named(r, n, "expert_gate_up")->shape, "128x1536x2048");
	ck_assert_uint_eq(row_named(r, n, "expert_gate_up")->count, 48 * 128);
	ck_assert_str_eq(row_named(r, n, "attention")->shape, "1x32x2048x128");
	/* transformers eager (hf-transformers.impl): mixtral's grouped expert
	 * GEMMs, of the experts' own intermediate, 768: 2 x 768 = 1536; the
	 * 29 touched experts of 2 tokens each as one grouped GEMM */
	{
		struct rl_impl im;

		load_hf(&im);
		o = step(RL_PHASE_DECODE, 4, 4096);
		o.impl = &im;
		n = rl_modelops_build(&c, &o, r, &e);
		ck_assert_msg(n > 0, "%s", e.msg);
		ck_assert_str_eq(row_named(r, n, "gate_up")->shape, "29x2x1536x2048");
		ck_assert_str_eq(row_named(r, n, "down")->shape, "29x2x2048x768");
		ck_assert_str_eq(row_named(r, n, "act")->shape, "32x768");
		rl_impl_release(&im);
		o.impl = NULL;
	}
	/* mlp_only_layers: the named layers get the dense MLP of
	 * intermediate_size (6144) */
	c.layered = 0;
	rl_hfconfig_mark(&c, 0, RL_LAYER_DENSE);
	rl_hfconfig_mark(&c, 47, RL_LAYER_DENSE);
	o = step(RL_PHASE_DECODE, 4, 4096);
	n = rl_modelops_build(&c, &o, r, &e);
	ck_assert_uint_eq(row_named(r, n, "router")->count, 46);
	ck_assert_uint_eq(row_named(r, n, "expert_gate_up")->weight_count, 46 * 128);
	ck_assert_str_eq(row_named(r, n, "gate_up")->shape, "4x12288x2048");
	ck_assert_uint_eq(row_named(r, n, "gate_up")->count, 2);
	ck_assert_uint_eq(row_named(r, n, "mlp_residual")->count, 48);
	/* weights: embed and lm_head 2 x 151936 x 2048 = 622329856; a layer:
	 * 4096, qkv 2048 x 5120 = 10485760, q/k norms 256, o 4096 x 2048 =
	 * 8388608, 128 experts x 3 x 2048 x 768 = 603979776, the router 128 x
	 * 2048 = 262144: 623120640, x 48; 2048: 30532122624, the "30.5B in
	 * total" of the model card (huggingface.co/Qwen/Qwen3-30B-A3B) */
	read_example("qwen3-30b-a3b", &c);
	w = rl_modelops_weights(&c);
	ck_assert_double_eq(w, 30532122624.0);
	ck_assert_double_eq_tol(w, 30.5e9, 0.005 * 30.5e9);
}
END_TEST

/* gemma3: examples/gemma3-1b.json is google/gemma-3-1b-it's config.json
 * (gemma3_text): hidden 1152, intermediate 6912, 4 heads and 1 KV head of
 * 256, 26 layers, a window of 512 on five layers of six, vocab 262144. */
START_TEST(test_gemma3)
{
	static const struct want_row decode[] = {
		{"embed", "copy", "2x1152", 1},
		{"attn_norm", "layernorm", "2x1152", 26},
		/* N = (4 + 2 x 1) x 256 = 1536 */
		{"qkv_proj", "matmul", "2x1536x1152", 26},
		{"q_norm", "layernorm", "2x4x256", 26},
		{"k_norm", "layernorm", "2x1x256", 26},
		/* layers 5, 11, 17 and 23 are global; the 22 others slide */
		{"attention", "attention", "2x4x1x1024x256", 4},
		{"sliding_attention", "attention", "2x4x1x1024x256", 22},
		{"o_proj", "matmul", "2x1152x1024", 26},
		{"post_attn_norm", "layernorm", "2x1152", 26},
		{"attn_residual", "pointwise", "2x1152", 26},
		{"mlp_norm", "layernorm", "2x1152", 26},
		{"gate_up", "matmul", "2x13824x1152", 26},
		{"gelu_tanh", "pointwise", "2x6912", 26},
		{"mul", "pointwise", "2x6912", 26},
		{"down_proj", "matmul", "2x1152x6912", 26},
		{"post_mlp_norm", "layernorm", "2x1152", 26},
		{"mlp_residual", "pointwise", "2x1152", 26},
		{"final_norm", "layernorm", "2x1152", 1},
		{"lm_head", "matmul", "2x262144x1152", 1},
	};
	struct rl_modelops_opts o = step(RL_PHASE_DECODE, 2, 1024);
	struct rl_modelops_row r[RL_MODELOPS_MAX];
	struct rl_hfconfig c, m;
	struct rl_err e;
	double w;
	int n;

	read_example("gemma3-1b", &c);
	ck_assert_str_eq(rl_family_of(&c)->name, "gemma3");
	ck_assert_uint_eq(c.window, 512);
	ck_assert_double_eq(c.softcap_attn, 0); /* null */
	ck_assert_double_eq(c.softcap_logits, 0);
	n = rl_modelops_build(&c, &o, r, &e);
	rows_are(r, n, decode, ARRAY_SIZE(decode), "gemma3 decode");
	ck_assert_uint_eq(r[6].window, 512);
	/* the cache: 4 global layers of 1024 tokens, 22 of 512; K and V, one
	 * head of 256, 2 sequences, 2 bytes: (4 x 1024 + 22 x 512) x 2 x 2 x
	 * 256 x 2 = 31457280 */
	ck_assert_double_eq(kv_bytes_of(r, n), 31457280.0);
	/* prefill of 2048: the sliding rows' queries see at most 512 keys */
	o = step(RL_PHASE_PREFILL, 1, 2048);
	n = rl_modelops_build(&c, &o, r, &e);
	ck_assert_str_eq(r[6].shape, "1x4x2048x256");
	ck_assert_int_eq(r[6].causal, 1);
	ck_assert_uint_eq(r[6].window, 512);
	/* weights: the table 262144 x 1152 = 301989888 (tied); a layer: 4
	 * norms 4608, qkv 1152 x 1536 = 1769472, q/k norms 512, o 1024 x 1152
	 * = 1179648, 3 x 1152 x 6912 = 23887872: 26842112, x 26 = 697894912;
	 * the final norm 1152: 999885952. The Gemma 3 report (Gemma Team 2025,
	 * arXiv:2503.19786, table 1), 1B: 302M embedding, 698M non-embedding
	 * parameters */
	w = rl_modelops_weights(&c);
	ck_assert_double_eq(w, 999885952.0);
	ck_assert_double_eq_tol(w - 301989888.0, 698e6, 0.005 * 698e6);
	ck_assert_double_eq_tol(w, 1000e6, 0.005 * 1000e6);

	/* a multimodal config (model_type gemma3) is read from its
	 * text_config; layer_types, when given, decides */
	ck_assert_int_eq(rl_hfconfig_parse("{\"model_type\":\"gemma3\",\"vision_config\":{},"
	                                   "\"text_config\":{\"hidden_size\":64,"
	                                   "\"intermediate_size\":128,\"num_attention_heads\":2,"
	                                   "\"num_key_value_heads\":1,\"head_dim\":32,"
	                                   "\"num_hidden_layers\":3,\"vocab_size\":100,"
	                                   "\"sliding_window\":8,\"layer_types\":["
	                                   "\"full_attention\",\"sliding_attention\","
	                                   "\"full_attention\"]}}",
	                                   "c.json", &m, &e),
	                 0);
	ck_assert_uint_eq(m.hidden, 64);
	ck_assert_uint_eq(rl_hfconfig_layers(&m, RL_LAYER_SLIDING, 0, 3), 1);
	ck_assert_uint_eq(rl_hfconfig_layers(&m, RL_LAYER_SLIDING, 1, 2), 1);
}
END_TEST

/* olmo2: examples/olmo2-7b.json is allenai/OLMo-2-1124-7B's config.json:
 * hidden 4096, intermediate 11008, 32 heads (no GQA), 32 layers, vocab
 * 100352, untied. */
START_TEST(test_olmo2)
{
	static const struct want_row decode[] = {
		{"embed", "copy", "2x4096", 1},
		/* no norm before attention */
		{"qkv_proj", "matmul", "2x12288x4096", 32},
		/* over all 32 heads of 128 at once */
		{"q_norm", "layernorm", "2x4096", 32},
		{"k_norm", "layernorm", "2x4096", 32},
		{"attention", "attention", "2x32x1x1024x128", 32},
		{"o_proj", "matmul", "2x4096x4096", 32},
		{"post_attn_norm", "layernorm", "2x4096", 32},
		{"attn_residual", "pointwise", "2x4096", 32},
		{"gate_up", "matmul", "2x22016x4096", 32},
		{"silu", "pointwise", "2x11008", 32},
		{"mul", "pointwise", "2x11008", 32},
		{"down_proj", "matmul", "2x4096x11008", 32},
		{"post_mlp_norm", "layernorm", "2x4096", 32},
		{"mlp_residual", "pointwise", "2x4096", 32},
		{"final_norm", "layernorm", "2x4096", 1},
		{"lm_head", "matmul", "2x100352x4096", 1},
	};
	struct rl_modelops_opts o = step(RL_PHASE_DECODE, 2, 1024);
	struct rl_modelops_row r[RL_MODELOPS_MAX];
	struct rl_hfconfig c;
	struct rl_err e;
	double w;
	int n;

	read_example("olmo2-7b", &c);
	ck_assert_str_eq(rl_family_of(&c)->name, "olmo2");
	n = rl_modelops_build(&c, &o, r, &e);
	rows_are(r, n, decode, ARRAY_SIZE(decode), "olmo2 decode");
	/* q_norm's and k_norm's weights: 4096 each a layer */
	ck_assert_uint_eq(r[2].params + r[3].params, 32 * 2 * 4096);
	/* prefill: T = 1 x 512 */
	o = step(RL_PHASE_PREFILL, 1, 512);
	n = rl_modelops_build(&c, &o, r, &e);
	ck_assert_str_eq(r[2].shape, "512x4096");
	ck_assert_str_eq(r[4].shape, "1x32x512x128");
	/* tensor parallel 2: the heads gathered before the norms (16 + 16
	 * heads a GPU, all-gathered: 32 x 128 each a GPU's share x 2) */
	{
		static const struct rl_net net = {"net", 450, 0, 15, 0, 8, 1};
		struct rl_parallel lay = {2, 1, 1, 1, 0, 0, 0, 0, 0, 0};
		struct rl_parallel_place p;

		o = step(RL_PHASE_DECODE, 2, 1024);
		ck_assert_int_eq(rl_parallel_place(&lay, 2, c.layers, 0, &net, &p, &e), 0);
		o.par = &p;
		n = rl_modelops_build(&c, &o, r, &e);
		ck_assert_msg(n > 0, "%s", e.msg);
		ck_assert_str_eq(row_named(r, n, "qk_allgather")->shape, "2x4096");
		ck_assert_str_eq(row_named(r, n, "q_norm")->shape, "2x4096");
		ck_assert_str_eq(row_named(r, n, "qkv_proj")->shape, "2x6144x4096");
	}
	/* weights: embed and lm_head 2 x 100352 x 4096 = 822083584; a layer:
	 * qkv 4096 x 12288 = 50331648, q/k norms 8192, o 16777216, the two
	 * post norms 8192, 3 x 4096 x 11008 = 135266304: 202391552, x 32 =
	 * 6476529664; the final norm 4096: 7298617344 */
	w = rl_modelops_weights(&c);
	ck_assert_double_eq(w, 7298617344.0);
	/* the card (huggingface.co/allenai/OLMo-2-1124-7B): "OLMo 2-7B" */
	ck_assert_double_eq_tol(w, 7e9, 0.5e9);
}
END_TEST

/* granite: examples/granite3-8b.json is ibm-granite/granite-3.3-8b-instruct's
 * config.json: hidden 4096, intermediate 12800, 32 heads and 8 KV heads,
 * 40 layers, vocab 49159, tied, residual_multiplier 0.22. */
START_TEST(test_granite)
{
	static const struct want_row decode[] = {
		{"embed", "copy", "2x4096", 1},
		{"attn_norm", "layernorm", "2x4096", 40},
		{"qkv_proj", "matmul", "2x6144x4096", 40},
		{"attention", "attention", "2x32x1x1024x128", 40},
		{"o_proj", "matmul", "2x4096x4096", 40},
		{"attn_residual", "pointwise", "2x4096", 40},
		{"mlp_norm", "layernorm", "2x4096", 40},
		{"gate_up", "matmul", "2x25600x4096", 40},
		{"silu", "pointwise", "2x12800", 40},
		{"mul", "pointwise", "2x12800", 40},
		{"down_proj", "matmul", "2x4096x12800", 40},
		{"mlp_residual", "pointwise", "2x4096", 40},
		{"final_norm", "layernorm", "2x4096", 1},
		{"lm_head", "matmul", "2x49159x4096", 1},
	};
	struct rl_modelops_opts o = step(RL_PHASE_DECODE, 2, 1024);
	struct rl_modelops_row r[RL_MODELOPS_MAX];
	struct rl_hfconfig c;
	struct rl_err e;
	double w;
	int n;

	read_example("granite3-8b", &c);
	ck_assert_str_eq(rl_family_of(&c)->name, "granite");
	ck_assert_double_eq(c.embed_mult, 12.0);
	ck_assert_double_eq(c.residual_mult, 0.22);
	ck_assert_double_eq(c.logits_div, 16.0);
	n = rl_modelops_build(&c, &o, r, &e);
	rows_are(r, n, decode, ARRAY_SIZE(decode), "granite decode");
	/* x + m y: a multiply and an add an element */
	ck_assert_uint_eq(r[5].fpe, 2);
	ck_assert_uint_eq(r[11].fpe, 2);
	o = step(RL_PHASE_PREFILL, 1, 512);
	n = rl_modelops_build(&c, &o, r, &e);
	ck_assert_str_eq(r[2].shape, "512x6144x4096");
	ck_assert_str_eq(r[13].shape, "1x49159x4096");
	/* weights: the table 49159 x 4096 = 201355264 (tied); a layer: 8192,
	 * qkv 4096 x 6144 = 25165824, o 16777216, 3 x 4096 x 12800 =
	 * 157286400: 199237632, x 40 = 7969505280; 4096: 8170864640 */
	w = rl_modelops_weights(&c);
	ck_assert_double_eq(w, 8170864640.0);
	/* the card's "# Parameters 8.1B" (huggingface.co/ibm-granite/
	 * granite-3.3-8b-instruct): 8.17 rounded down */
	ck_assert_double_eq_tol(w, 8.15e9, 0.05e9);
}
END_TEST

/* falcon: examples/falcon-7b.json is tiiuae/falcon-7b's config.json:
 * hidden 4544, 71 heads of 64 over one KV head (multi_query), 32 layers,
 * vocab 65024, attention and the MLP side by side (parallel_attn), no
 * bias, the lm_head tied. */
START_TEST(test_falcon)
{
	static const struct want_row decode[] = {
		{"embed", "copy", "2x4544", 1},
		/* one LayerNorm feeds attention and the MLP */
		{"input_layernorm", "layernorm", "2x4544", 32},
		/* N = (71 + 2 x 1) x 64 = 4672 */
		{"query_key_value", "matmul", "2x4672x4544", 32},
		{"attention", "attention", "2x71x1x1024x64", 32},
		{"dense", "matmul", "2x4544x4544", 32},
		/* 4 x 4544 = 18176 */
		{"dense_h_to_4h", "matmul", "2x18176x4544", 32},
		{"gelu", "pointwise", "2x18176", 32},
		{"dense_4h_to_h", "matmul", "2x4544x18176", 32},
		/* x + attention + MLP: one add of three inputs */
		{"mlp_residual", "pointwise", "2x4544", 32},
		{"ln_f", "layernorm", "2x4544", 1},
		{"lm_head", "matmul", "2x65024x4544", 1},
	};
	struct rl_modelops_opts o = step(RL_PHASE_DECODE, 2, 1024);
	struct rl_modelops_row r[RL_MODELOPS_MAX];
	struct rl_hfconfig c;
	struct rl_err e;
	double w;
	int n;

	read_example("falcon-7b", &c);
	ck_assert_str_eq(rl_family_of(&c)->name, "falcon");
	ck_assert_uint_eq(c.kv_heads, 1);
	ck_assert_uint_eq(c.head_dim, 64);
	ck_assert_uint_eq(c.intermediate, 18176);
	ck_assert_int_eq(c.parallel, 1);
	ck_assert_int_eq(c.shared_norm, 1);
	n = rl_modelops_build(&c, &o, r, &e);
	rows_are(r, n, decode, ARRAY_SIZE(decode), "falcon decode");
	ck_assert_uint_eq(r[3].kv_heads, 1);
	ck_assert_uint_eq(r[8].inputs, 3);
	/* one norm a layer: LayerNorm's weight and bias, 2 x 4544 */
	ck_assert_uint_eq(r[1].params, 32 * 2 * 4544);
	o = step(RL_PHASE_PREFILL, 1, 2048);
	n = rl_modelops_build(&c, &o, r, &e);
	ck_assert_str_eq(r[2].shape, "2048x4672x4544");
	ck_assert_str_eq(r[3].shape, "1x71x2048x64");
	/* tensor parallel 2 (71 heads do not split: refused), so the
	 * parallel block's one all-reduce is seen on a 2-head model */
	ck_assert_int_eq(rl_hfconfig_parse("{\"model_type\":\"falcon\",\"hidden_size\":256,"
	                                   "\"num_attention_heads\":4,\"num_hidden_layers\":2,"
	                                   "\"vocab_size\":1000,\"new_decoder_architecture\":true,"
	                                   "\"num_kv_heads\":2}",
	                                   "c.json", &c, &e),
	                 0);
	ck_assert_int_eq(c.shared_norm, 0); /* ln_attn and ln_mlp */
	{
		static const struct rl_net net = {"net", 450, 0, 15, 0, 8, 1};
		struct rl_parallel lay = {2, 1, 1, 1, 0, 0, 0, 0, 0, 0};
		struct rl_parallel_place p;
		int i, ar = 0;

		o = step(RL_PHASE_DECODE, 2, 1024);
		ck_assert_int_eq(rl_parallel_place(&lay, 2, c.layers, 0, &net, &p, &e), 0);
		o.par = &p;
		n = rl_modelops_build(&c, &o, r, &e);
		ck_assert_msg(n > 0, "%s", e.msg);
		for (i = 0; i < n; i++)
			ar += strcmp(r[i].kind, "allreduce") == 0;
		ck_assert_int_eq(ar, 1);
		ck_assert_ptr_nonnull(row_named(r, n, "ln_attn"));
		ck_assert_ptr_nonnull(row_named(r, n, "ln_mlp"));
		ck_assert_ptr_null(row_named(r, n, "attn_allreduce"));
		/* (4 / 2 + 2 x 1) x 64 */
		ck_assert_str_eq(row_named(r, n, "query_key_value")->shape, "2x256x256");
	}
	/* weights: the table 65024 x 4544 = 295469056 (tied); a layer: 9088,
	 * query_key_value 4544 x 4672 = 21229568, dense 4544 x 4544 =
	 * 20647936, 2 x 4544 x 18176 = 165183488: 207070080, x 32 =
	 * 6626242560; ln_f 9088: 6921720704 */
	read_example("falcon-7b", &c);
	w = rl_modelops_weights(&c);
	ck_assert_double_eq(w, 6921720704.0);
	/* the card (huggingface.co/tiiuae/falcon-7b): "a 7B parameters causal
	 * decoder-only model" */
	ck_assert_double_eq_tol(w, 7e9, 0.5e9);
}
END_TEST

/* qwen2_moe: examples/qwen1.5-moe-a2.7b.json is Qwen/Qwen1.5-MoE-A2.7B(-Chat)'s
 * config.json: hidden 2048, 24 layers, 16 heads, 60 experts of 1408, 4 a
 * token, a shared expert of 5632, vocab 151936, untied. */
START_TEST(test_qwen2_moe)
{
	static const struct want_row decode[] = {
		/* batch 2: T = 2, T k = 8 routed tokens */
		{"embed", "copy", "2x2048", 1},
		{"attn_norm", "layernorm", "2x2048", 24},
		{"qkv_proj", "matmul", "2x6144x2048", 24},
		{"qkv_bias", "pointwise", "2x6144", 24},
		{"attention", "attention", "2x16x1x1024x128", 24},
		{"o_proj", "matmul", "2x2048x2048", 24},
		{"attn_residual", "pointwise", "2x2048", 24},
		{"mlp_norm", "layernorm", "2x2048", 24},
		{"router", "matmul", "2x60x2048", 24},
		{"topk", "reduction", "2x60", 24},
		{"gather", "copy", "2x4x2048", 24},
		/* E' = 60 (1 - (1 - 4/60)^2) = 7.73: 8 experts of one token */
		{"expert_gate_up", "matmul", "1x2816x2048", 192},
		{"expert_silu", "pointwise", "8x1408", 24},
		{"expert_mul", "pointwise", "8x1408", 24},
		{"expert_down", "matmul", "1x2048x1408", 192},
		/* the shared expert over both tokens, and its gate */
		{"shared_gate_up", "matmul", "2x11264x2048", 24},
		{"shared_silu", "pointwise", "2x5632", 24},
		{"shared_mul", "pointwise", "2x5632", 24},
		{"shared_down", "matmul", "2x2048x5632", 24},
		{"shared_gate", "matmul", "2x1x2048", 24},
		{"shared_scale", "pointwise", "2x2048", 24},
		{"combine_weight", "pointwise", "2x4x2048", 24},
		/* the 4 routed outputs and the shared one */
		{"combine_sum", "reduction", "2x2048x5", 24},
		{"mlp_residual", "pointwise", "2x2048", 24},
		{"final_norm", "layernorm", "2x2048", 1},
		{"lm_head", "matmul", "2x151936x2048", 1},
	};
	struct rl_modelops_opts o = step(RL_PHASE_DECODE, 2, 1024);
	struct rl_modelops_row r[RL_MODELOPS_MAX];
	struct rl_hfconfig c;
	struct rl_err e;
	double w;
	int n;

	read_example("qwen1.5-moe-a2.7b", &c);
	ck_assert_str_eq(rl_family_of(&c)->name, "qwen2_moe");
	ck_assert_uint_eq(c.shared_intermediate, 5632);
	ck_assert_int_eq(c.shared_gate, 1);
	ck_assert_int_eq(c.attention_bias, 1);
	n = rl_modelops_build(&c, &o, r, &e);
	rows_are(r, n, decode, ARRAY_SIZE(decode), "qwen2_moe decode");
	ck_assert_uint_eq(r[11].weight_count, 24 * 60);
	o = step(RL_PHASE_PREFILL, 1, 1024);
	n = rl_modelops_build(&c, &o, r, &e);
	/* 4096 routed tokens touch all 60 experts: ceil(4096 / 60) = 69 */
	ck_assert_str_eq(row_named(r, n, "expert_gate_up")->shape, "69x2816x2048");
	ck_assert_str_eq(row_named(r, n, "shared_gate_up")->shape, "1024x11264x2048");
	/* decoder_sparse_step 2: the odd layers (i + 1 even) are MoE layers,
	 * the even ones dense */
	ck_assert_int_eq(rl_hfconfig_parse("{\"model_type\":\"qwen2_moe\",\"hidden_size\":64,"
	                                   "\"intermediate_size\":128,\"num_attention_heads\":4,"
	                                   "\"num_hidden_layers\":6,\"vocab_size\":100,"
	                                   "\"num_experts\":8,\"num_experts_per_tok\":2,"
	                                   "\"moe_intermediate_size\":32,"
	                                   "\"shared_expert_intermediate_size\":64,"
	                                   "\"decoder_sparse_step\":2,\"mlp_only_layers\":[1]}",
	                                   "c.json", &c, &e),
	                 0);
	/* layers 1, 3, 5 sparse by the step, 1 dense by mlp_only_layers */
	ck_assert_uint_eq(rl_hfconfig_layers(&c, RL_LAYER_DENSE, 0, 6), 4);
	/* its weights: embed and lm_head 2 x 100 x 64 = 12800; a layer:
	 * norms 128, qkv 64 x 192 = 12288 and its bias 192, o 4096: 16704, x
	 * 6; 4 dense MLPs 3 x 64 x 128 = 24576 each; 2 MoE layers of 8 x (3 x
	 * 64 x 32 + 64) = 49664, the shared 3 x 64 x 64 = 12288 and its gate
	 * 64: 62016 each; the final norm 64 */
	ck_assert_double_eq(rl_modelops_weights(&c),
	                    12800.0 + 6 * 16704.0 + 4 * 24576.0 + 2 * 62016.0 + 64.0);
	/* Qwen1.5-MoE-A2.7B: embed and lm_head 2 x 151936 x 2048 = 622329856;
	 * a layer: 4096, qkv 2048 x 6144 = 12582912 and its bias 6144, o
	 * 4194304, 60 experts x 3 x 2048 x 1408 = 519045120, the router 60 x
	 * 2048 = 122880, the shared expert 3 x 2048 x 5632 = 34603008 and its
	 * gate 2048: 570560512, x 24 = 13693452288; 2048: 14315784192, the
	 * "14.3B" of the model card (huggingface.co/Qwen/Qwen1.5-MoE-A2.7B) */
	read_example("qwen1.5-moe-a2.7b", &c);
	w = rl_modelops_weights(&c);
	ck_assert_double_eq(w, 14315784192.0);
	ck_assert_double_eq_tol(w, 14.3e9, 0.005 * 14.3e9);
}
END_TEST

/* deepseek_v2: examples/deepseek-v2-lite.json is deepseek-ai/DeepSeek-V2-
 * Lite's config.json: hidden 2048, 27 layers (the first dense, of 10944),
 * 16 heads, no q_lora_rank, kv_lora_rank 512, qk_nope 128, qk_rope 64, v
 * 128, 64 routed experts of 1408 (6 a token) and 2 shared, vocab 102400. */
START_TEST(test_deepseek_v2)
{
	static const struct want_row decode[] = {
		/* the absorbed form, batch 2 over 1024 keys: T = 2 */
		{"embed", "copy", "2x2048", 1},
		{"attn_norm", "layernorm", "2x2048", 27},
		/* 16 heads of 128 + 64 */
		{"q_proj", "matmul", "2x3072x2048", 27},
		/* the latent and the shared rotary key: 512 + 64 */
		{"kv_a_proj", "matmul", "2x576x2048", 27},
		{"kv_a_norm", "layernorm", "2x512", 27},
		/* each head's q_nope (128) through W^UK to the latent (512) */
		{"q_absorb", "matmul", "16x2x512x128", 27},
		/* one KV head of 576 over the cache, V its first 512 */
		{"attention", "attention", "2x16x1x1024x576", 27},
		/* each head's latent output through W^UV to v_head_dim 128 */
		{"v_absorb", "matmul", "16x2x128x512", 27},
		{"o_proj", "matmul", "2x2048x2048", 27},
		{"attn_residual", "pointwise", "2x2048", 27},
		{"mlp_norm", "layernorm", "2x2048", 27},
		/* the 26 MoE layers: T k = 12 routed tokens touch E' = 64 (1 -
		 * (58/64)^2) = 11.44: 11 experts of ceil(12 / 11) = 2 tokens */
		{"router", "matmul", "2x64x2048", 26},
		{"topk", "reduction", "2x64", 26},
		{"gather", "copy", "2x6x2048", 26},
		{"expert_gate_up", "matmul", "2x2816x2048", 26 * 11},
		{"expert_silu", "pointwise", "12x1408", 26},
		{"expert_mul", "pointwise", "12x1408", 26},
		{"expert_down", "matmul", "2x2048x1408", 26 * 11},
		/* the 2 shared experts as one MLP of 2 x 1408 */
		{"shared_gate_up", "matmul", "2x5632x2048", 26},
		{"shared_silu", "pointwise", "2x2816", 26},
		{"shared_mul", "pointwise", "2x2816", 26},
		{"shared_down", "matmul", "2x2048x2816", 26},
		{"combine_weight", "pointwise", "2x6x2048", 26},
		{"combine_sum", "reduction", "2x2048x7", 26},
		/* layer 0's dense MLP */
		{"gate_up", "matmul", "2x21888x2048", 1},
		{"silu", "pointwise", "2x10944", 1},
		{"mul", "pointwise", "2x10944", 1},
		{"down_proj", "matmul", "2x2048x10944", 1},
		{"mlp_residual", "pointwise", "2x2048", 27},
		{"final_norm", "layernorm", "2x2048", 1},
		{"lm_head", "matmul", "2x102400x2048", 1},
	};
	struct rl_modelops_opts o = step(RL_PHASE_DECODE, 2, 1024);
	struct rl_modelops_row r[RL_MODELOPS_MAX];
	const struct rl_modelops_row *x;
	struct rl_hfconfig c;
	struct rl_err e;
	double w;
	int n;

	read_example("deepseek-v2-lite", &c);
	ck_assert_str_eq(rl_family_of(&c)->name, "deepseek");
	ck_assert_uint_eq(c.q_lora, 0);
	ck_assert_uint_eq(c.kv_lora, 512);
	ck_assert_uint_eq(c.head_dim, 192);
	ck_assert_uint_eq(c.shared_intermediate, 2816);
	ck_assert_uint_eq(rl_hfconfig_layers(&c, RL_LAYER_DENSE, 0, 27), 1);
	ck_assert_uint_eq(rl_hfconfig_layers(&c, RL_LAYER_DENSE, 0, 1), 1);
	n = rl_modelops_build(&c, &o, r, &e);
	rows_are(r, n, decode, ARRAY_SIZE(decode), "deepseek_v2 decode");
	ck_assert_uint_eq(r[6].kv_heads, 1);
	ck_assert_uint_eq(r[6].v_head_dim, 512);
	ck_assert_int_eq(r[6].kv_shared, 1);
	ck_assert_uint_eq(r[14].weight_count, 26 * 64);
	/* the latent cache: 27 layers x 2 sequences x 1024 tokens x (512 +
	 * 64) x 2 bytes = 63700992, one vector a token and layer */
	ck_assert_double_eq(kv_bytes_of(r, n), 63700992.0);

	/* naive: K and V expanded per head (kv_b_proj, N = 16 x (128 + 128))
	 * and cached so: 16 heads x (192 + 128) a token, 8.9 times the latent */
	o.mla_naive = 1;
	n = rl_modelops_build(&c, &o, r, &e);
	ck_assert_ptr_null(row_named(r, n, "q_absorb"));
	ck_assert_str_eq(row_named(r, n, "kv_b_proj")->shape, "2x4096x512");
	x = row_named(r, n, "attention");
	ck_assert_str_eq(x->shape, "2x16x1x1024x192");
	ck_assert_uint_eq(x->kv_heads, 0);
	ck_assert_uint_eq(x->v_head_dim, 128);
	ck_assert_int_eq(x->kv_shared, 0);
	ck_assert_double_eq(kv_bytes_of(r, n), 27.0 * 2 * 1024 * 16 * (192 + 128) * 2);
	/* prefill, naive: causal over the prompt */
	o = step(RL_PHASE_PREFILL, 1, 512);
	o.mla_naive = 1;
	n = rl_modelops_build(&c, &o, r, &e);
	ck_assert_str_eq(row_named(r, n, "attention")->shape, "1x16x512x192");
	ck_assert_int_eq(row_named(r, n, "attention")->causal, 1);
	ck_assert_str_eq(row_named(r, n, "kv_b_proj")->shape, "512x4096x512");

	/* weights: embed and lm_head 2 x 102400 x 2048 = 419430400; a layer's
	 * norms 4096 and attention: q_proj 2048 x 3072 = 6291456, kv_a_proj
	 * 2048 x 576 = 1179648, kv_a_norm 512, kv_b_proj 512 x 4096 =
	 * 2097152, o_proj 2048 x 2048 = 4194304: 13767168, x 27; layer 0's MLP
	 * 3 x 2048 x 10944 = 67239936; 26 MoE layers of 64 x (3 x 2048 x 1408
	 * + 2048) = 553779200 and the shared 3 x 2048 x 2816 = 17301504:
	 * 571080704 each; 2048: 15706484224, the "15.7B" total of the model
	 * card (huggingface.co/deepseek-ai/DeepSeek-V2-Lite, Model Details) */
	w = rl_modelops_weights(&c);
	ck_assert_double_eq(w, 419430400.0 + 27 * 13767168.0 + 67239936.0 + 26 * 571080704.0 +
	                           2048.0);
	ck_assert_double_eq(w, 15706484224.0);
	ck_assert_double_eq_tol(w, 15.7e9, 0.005 * 15.7e9);
	ck_assert_double_eq(rl_modelops_mtp_weights(&c), 0);
}
END_TEST

/* deepseek_v3: examples/deepseek-v3.json is deepseek-ai/DeepSeek-V3's
 * config.json: hidden 7168, 61 layers (the first 3 dense, of 18432), 128
 * heads, q_lora_rank 1536, kv_lora_rank 512, 256 routed experts of 2048 in
 * 8 groups (4 kept), 8 a token, 1 shared, vocab 129280, one MTP module. */
START_TEST(test_deepseek_v3)
{
	struct rl_modelops_opts o = step(RL_PHASE_DECODE, 4, 4096);
	struct rl_modelops_row r[RL_MODELOPS_MAX];
	struct rl_hfconfig c;
	struct rl_err e;
	double w, attn, moe, mtp;
	int n;

	read_example("deepseek-v3", &c);
	ck_assert_uint_eq(c.q_lora, 1536);
	ck_assert_uint_eq(c.groups, 8);
	ck_assert_uint_eq(c.topk_groups, 4);
	ck_assert_uint_eq(c.mtp_layers, 1);
	ck_assert_uint_eq(rl_hfconfig_layers(&c, RL_LAYER_DENSE, 0, 61), 3);
	n = rl_modelops_build(&c, &o, r, &e);
	ck_assert_msg(n > 0, "%s", e.msg);
	/* the queries through the rank 1536: 128 heads x 192 = 24576 */
	ck_assert_str_eq(row_named(r, n, "q_a_proj")->shape, "4x1536x7168");
	ck_assert_str_eq(row_named(r, n, "q_a_norm")->shape, "4x1536");
	ck_assert_str_eq(row_named(r, n, "q_b_proj")->shape, "4x24576x1536");
	ck_assert_str_eq(row_named(r, n, "q_absorb")->shape, "128x4x512x128");
	ck_assert_str_eq(row_named(r, n, "attention")->shape, "4x128x1x4096x576");
	ck_assert_str_eq(row_named(r, n, "o_proj")->shape, "4x7168x16384");
	/* group-limited routing: the 8 groups' scores, then the top 8 */
	ck_assert_str_eq(row_named(r, n, "group_topk")->shape, "4x256");
	ck_assert_uint_eq(row_named(r, n, "group_topk")->count, 58);
	ck_assert_uint_eq(row_named(r, n, "gate_up")->count, 3);
	/* tensor parallel 8: 16 heads a GPU, the latent replicated */
	{
		static const struct rl_net net = {"net", 450, 0, 15, 0, 8, 1};
		struct rl_parallel lay = {8, 1, 1, 1, 0, 0, 0, 0, 0, 0};
		struct rl_parallel_place p;

		ck_assert_int_eq(rl_parallel_place(&lay, 4, c.layers, 0, &net, &p, &e), 0);
		o.par = &p;
		n = rl_modelops_build(&c, &o, r, &e);
		ck_assert_msg(n > 0, "%s", e.msg);
		ck_assert_str_eq(row_named(r, n, "q_b_proj")->shape, "4x3072x1536");
		ck_assert_str_eq(row_named(r, n, "kv_a_proj")->shape, "4x576x7168");
		ck_assert_str_eq(row_named(r, n, "attention")->shape, "4x16x1x4096x576");
		ck_assert_str_eq(row_named(r, n, "o_proj")->shape, "4x7168x2048");
	}
	/* weights: a layer's attention: q_a_proj 7168 x 1536 = 11010048,
	 * q_a_norm 1536, q_b_proj 1536 x 24576 = 37748736, kv_a_proj 7168 x
	 * 576 = 4128768, kv_a_norm 512, kv_b_proj 512 x 32768 = 16777216,
	 * o_proj 16384 x 7168 = 117440512: 187107328, and its norms 14336;
	 * an MoE layer: 256 x (3 x 7168 x 2048 + 7168) = 11276124160 and the
	 * shared 3 x 7168 x 2048 = 44040192: 11320164352 */
	attn = 187107328.0;
	moe = 11320164352.0;
	w = rl_modelops_weights(&c);
	/* embed and lm_head 2 x 129280 x 7168 = 1853358080, 61 layers' norms
	 * and attention, 3 dense MLPs of 3 x 7168 x 18432 = 396361728, 58 MoE
	 * layers, the final norm: 671026404352, the "671B" total of
	 * huggingface.co/deepseek-ai/DeepSeek-V3 (the router's
	 * e_score_correction_bias, 256 a layer, is a buffer, not counted) */
	ck_assert_double_eq(w, 1853358080.0 + 61 * (attn + 14336.0) + 3 * 396361728.0 + 58 * moe +
	                           7168.0);
	ck_assert_double_eq_tol(w, 671e9, 0.005 * 671e9);
	/* the MTP module: enorm and hnorm 14336, eh_proj 2 x 7168 x 7168 =
	 * 102760448, one MoE layer (norms, attention, MoE) and the shared
	 * head's norm 7168: 11610067968. README_WEIGHTS.md of the same
	 * repository: "11.5B unique parameters" (to 1 %: its figure is
	 * rounded) */
	mtp = rl_modelops_mtp_weights(&c);
	ck_assert_double_eq(mtp, 14336.0 + 102760448.0 + 14336.0 + attn + moe + 7168.0);
	ck_assert_double_eq_tol(mtp, 11.5e9, 0.01 * 11.5e9);
	/* the step holds both: the memory fit's weights */
	o = step(RL_PHASE_DECODE, 4, 4096);
	n = rl_modelops_build(&c, &o, r, &e);
	ck_assert_double_eq(rows_weights(r, n), w + mtp);
}
END_TEST

/* gpt_oss: examples/gpt-oss-20b.json is openai/gpt-oss-20b's config.json:
 * hidden 2880, 24 layers alternating a window of 128 and full attention,
 * 64 heads and 8 KV heads of 64, 32 experts of 2880 (4 a token) in
 * MXFP4, vocab 201088, untied. */
START_TEST(test_gpt_oss)
{
	static const struct want_row decode[] = {
		{"embed", "copy", "2x2880", 1},
		{"attn_norm", "layernorm", "2x2880", 24},
		/* (64 + 2 x 8) x 64 = 5120 */
		{"qkv_proj", "matmul", "2x5120x2880", 24},
		{"qkv_bias", "pointwise", "2x5120", 24},
		/* layer_types: the 12 odd layers full, the 12 even ones 128 */
		{"attention", "attention", "2x64x1x1024x64", 12},
		{"sliding_attention", "attention", "2x64x1x1024x64", 12},
		{"o_proj", "matmul", "2x2880x4096", 24},
		{"o_bias", "pointwise", "2x2880", 24},
		{"attn_residual", "pointwise", "2x2880", 24},
		{"mlp_norm", "layernorm", "2x2880", 24},
		{"router", "matmul", "2x32x2880", 24},
		{"topk", "reduction", "2x32", 24},
		{"gather", "copy", "2x4x2880", 24},
		/* T k = 8 routed tokens: E' = 32 (1 - (28/32)^2) = 7.5, 8 experts
		 * of one token */
		{"expert_gate_up", "matmul", "1x5760x2880", 24 * 8},
		{"expert_silu", "pointwise", "8x2880", 24},
		{"expert_mul", "pointwise", "8x2880", 24},
		{"expert_down", "matmul", "1x2880x2880", 24 * 8},
		{"combine_weight", "pointwise", "2x4x2880", 24},
		{"combine_sum", "reduction", "2x2880x4", 24},
		{"mlp_residual", "pointwise", "2x2880", 24},
		{"final_norm", "layernorm", "2x2880", 1},
		{"lm_head", "matmul", "2x201088x2880", 1},
	};
	struct rl_modelops_opts o = step(RL_PHASE_DECODE, 2, 1024);
	struct rl_modelops_row r[RL_MODELOPS_MAX];
	struct rl_hfconfig c;
	struct rl_err e;
	double w, bytes = 0;
	int n, i;

	read_example("gpt-oss-20b", &c);
	ck_assert_str_eq(rl_family_of(&c)->name, "gpt_oss");
	ck_assert_int_eq(c.expert_dtype, 1 + RL_MXFP4);
	ck_assert_uint_eq(c.window, 128);
	ck_assert_uint_eq(rl_hfconfig_layers(&c, RL_LAYER_SLIDING, 0, 1), 1);
	ck_assert_uint_eq(rl_hfconfig_layers(&c, RL_LAYER_SLIDING, 1, 2), 0);
	n = rl_modelops_build(&c, &o, r, &e);
	rows_are(r, n, decode, ARRAY_SIZE(decode), "gpt_oss decode");
	ck_assert_uint_eq(r[5].window, 128);
	ck_assert_str_eq(r[13].weight_dtype, "mxfp4");
	ck_assert_str_eq(r[16].weight_dtype, "mxfp4");
	ck_assert_ptr_null(r[2].weight_dtype);
	/* --weight-dtype given: every matmul its dtype */
	o.weight_dtype_given = 1;
	n = rl_modelops_build(&c, &o, r, &e);
	ck_assert_ptr_null(r[13].weight_dtype);
	/* weights: embed and lm_head 2 x 201088 x 2880 = 1158266880; a layer:
	 * 2 norms 5760, q, k, v, o and their biases 2880 x 5120 + 5120 + 4096
	 * x 2880 + 2880 = 26550080, the sinks 64; 32 experts of 2880 x 5760 +
	 * 5760 + 2880 x 2880 + 2880 = 24891840 and the router 32 x 2880 + 32
	 * = 92192: 796631072; x 24; 2880: 20914757184, the "20.9B total
	 * parameters" of the model card (arXiv:2508.10925, table 1: 20.91B) */
	w = rl_modelops_weights(&c);
	ck_assert_double_eq(w, 1158266880.0 + 24 * (5760.0 + 26550080.0 + 64.0 + 796631072.0) +
	                           2880.0);
	ck_assert_double_eq_tol(w, 20.91e9, 0.005 * 20.91e9);
	/* in memory: the expert matrices 24 x 32 x (2880 x 5760 + 2880 x 2880)
	 * = 19110297600 in MXFP4 at 17/32 bytes, the rest (1804459584) in
	 * bf16: 13761264768 bytes, the model card's 12.8 GiB checkpoint */
	o.weight_dtype_given = 0;
	n = rl_modelops_build(&c, &o, r, &e);
	for (i = 0; i < n; i++) {
		uint64_t d[RL_MAX_DIMS];
		int nd;
		double el;

		ck_assert_int_eq(rl_parse_dims(r[i].shape, d, RL_MAX_DIMS, &nd, &e), 0);
		bytes += 2.0 * (double)r[i].params;
		if (!r[i].weights)
			continue;
		el = (double)(r[i].weight_count ? r[i].weight_count : r[i].count) * (double)d[nd - 1] *
		     (double)d[nd - 2];
		bytes += el * (r[i].weight_dtype != NULL ? 17.0 / 32.0 : 2.0);
	}
	ck_assert_double_eq(bytes, 19110297600.0 * 17 / 32 + 1804459584.0 * 2);
	ck_assert_double_eq_tol(bytes / 1073741824.0, 12.8, 0.05);
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
	tcase_add_test(tc, test_gemma2);
	tcase_add_test(tc, test_gemma3);
	tcase_add_test(tc, test_phi3);
	tcase_add_test(tc, test_qwen2_moe);
	tcase_add_test(tc, test_qwen3_moe);
	tcase_add_test(tc, test_olmo2);
	tcase_add_test(tc, test_granite);
	tcase_add_test(tc, test_falcon);
	tcase_add_test(tc, test_deepseek_v2);
	tcase_add_test(tc, test_deepseek_v3);
	tcase_add_test(tc, test_gpt_oss);
	tcase_add_test(tc, test_keys_read);
	tcase_add_test(tc, test_docs);
	suite_add_tcase(s, tc);
	return s;
}
