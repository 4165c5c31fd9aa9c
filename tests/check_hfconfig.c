/* check_hfconfig.c - the config.json reader (hfconfig.c) and the step
 * builder (modelops.c). Values from the published architecture numbers. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <yajl/yajl_tree.h>

#include "check.h"
#include "hfconfig.h"
#include "json.h"
#include "modelops.h"

/* parses TEXT named "c.json"; the status */
static int parse(const char *text, struct rl_hfconfig *c, struct rl_err *e)
{
	return rl_hfconfig_parse(text, "c.json", c, e);
}

START_TEST(test_example_8b)
{
	struct rl_hfconfig c;
	struct rl_err e;

	ck_assert_int_eq(rl_hfconfig_read(RL_EXAMPLES "/llama3-8b.json", &c, &e), 0);
	ck_assert_str_eq(c.model_type, "llama");
	ck_assert_uint_eq(c.hidden, 4096);
	ck_assert_uint_eq(c.intermediate, 14336);
	ck_assert_uint_eq(c.heads, 32);
	ck_assert_uint_eq(c.kv_heads, 8);
	ck_assert_uint_eq(c.layers, 32);
	ck_assert_uint_eq(c.vocab, 128256);
	ck_assert_uint_eq(c.head_dim, 128); /* 4096 / 32 */
	ck_assert_int_eq(c.tie_embeddings, 0);
	ck_assert_int_eq(c.attention_bias, 0);
}
END_TEST

START_TEST(test_mixtral)
{
	struct rl_hfconfig c;
	struct rl_err e;

	ck_assert_int_eq(rl_hfconfig_read(RL_EXAMPLES "/mixtral-8x7b.json", &c, &e), 0);
	ck_assert_str_eq(c.model_type, "mixtral");
	ck_assert_int_eq(c.family, RL_HF_LLAMA);
	ck_assert_uint_eq(c.hidden, 4096);
	ck_assert_uint_eq(c.intermediate, 14336);
	ck_assert_uint_eq(c.kv_heads, 8);
	ck_assert_uint_eq(c.experts, 8);
	ck_assert_uint_eq(c.experts_per_tok, 2);
	/* 8 (1 - 0.75^1) = 2; 8 (1 - 0.75^2) = 3.5; 8 (1 - 0.75^64) = 8 - 8.1e-8 */
	ck_assert_double_eq_tol(rl_modelops_experts_touched(8, 2, 1), 2.0, 1e-12);
	ck_assert_double_eq_tol(rl_modelops_experts_touched(8, 2, 2), 3.5, 1e-12);
	ck_assert_double_eq_tol(rl_modelops_experts_touched(8, 2, 64), 8.0, 1e-6);
	/* llama has no experts */
	ck_assert_int_eq(rl_hfconfig_read(RL_EXAMPLES "/llama3-8b.json", &c, &e), 0);
	ck_assert_uint_eq(c.experts, 0);
}
END_TEST

START_TEST(test_defaults)
{
	struct rl_hfconfig c;
	struct rl_err e;

	/* Llama-2-7B's numbers, without num_key_value_heads or head_dim */
	ck_assert_int_eq(parse("{\"model_type\":\"llama\",\"hidden_size\":4096,"
	                       "\"intermediate_size\":11008,\"num_attention_heads\":32,"
	                       "\"num_hidden_layers\":32,\"vocab_size\":32000,"
	                       "\"head_dim\":null}",
	                       &c, &e),
	                 0);
	ck_assert_uint_eq(c.kv_heads, 32);
	ck_assert_uint_eq(c.head_dim, 128);
	/* qwen2: a bias on q, k, v; head_dim given */
	ck_assert_int_eq(parse("{\"model_type\":\"qwen2\",\"hidden_size\":3584,"
	                       "\"intermediate_size\":18944,\"num_attention_heads\":28,"
	                       "\"num_key_value_heads\":4,\"num_hidden_layers\":28,"
	                       "\"vocab_size\":152064,\"tie_word_embeddings\":false}",
	                       &c, &e),
	                 0);
	ck_assert_int_eq(c.attention_bias, 1);
	ck_assert_uint_eq(c.head_dim, 128); /* 3584 / 28 */
	ck_assert_int_eq(parse("{\"model_type\":\"mistral\",\"hidden_size\":4096,"
	                       "\"intermediate_size\":14336,\"num_attention_heads\":32,"
	                       "\"num_key_value_heads\":8,\"num_hidden_layers\":32,"
	                       "\"vocab_size\":32000,\"head_dim\":64}",
	                       &c, &e),
	                 0);
	ck_assert_uint_eq(c.head_dim, 64);
	ck_assert_int_eq(c.attention_bias, 0);
}
END_TEST

/* the row named NAME */
static const struct rl_modelops_row *row(const struct rl_modelops_row *r, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (strcmp(r[i].name, name) == 0)
			return &r[i];
	return NULL;
}

START_TEST(test_gpt2)
{
	struct rl_hfconfig c;
	struct rl_modelops_opts o = {.phase = RL_PHASE_DECODE,
	                             .batch = 2,
	                             .seq = 512,
	                             .context = 1024,
	                             .dtype = RL_BF16,
	                             .weight_dtype = RL_BF16,
	                             .kv_dtype = RL_BF16,
	                             .expert_imbalance = 1.0};
	struct rl_modelops_row r[RL_MODELOPS_MAX];
	const struct rl_modelops_row *x;
	struct rl_err e;
	int n;

	/* GPT-2 small: n_embd 768, 12 heads of 64, 12 layers, n_inner absent
	 * (4 x 768 = 3072) */
	ck_assert_int_eq(rl_hfconfig_read(RL_EXAMPLES "/gpt2.json", &c, &e), 0);
	ck_assert_str_eq(c.model_type, "gpt2");
	ck_assert_int_eq(c.family, RL_HF_GPT2);
	ck_assert_uint_eq(c.hidden, 768);
	ck_assert_uint_eq(c.heads, 12);
	ck_assert_uint_eq(c.kv_heads, 12);
	ck_assert_uint_eq(c.head_dim, 64);
	ck_assert_uint_eq(c.layers, 12);
	ck_assert_uint_eq(c.intermediate, 3072);
	ck_assert_uint_eq(c.vocab, 50257);
	ck_assert_uint_eq(c.positions, 1024);
	ck_assert_int_eq(c.tie_embeddings, 1);
	ck_assert_int_eq(parse("{\"model_type\":\"gpt2\",\"n_embd\":64,\"n_head\":4,"
	                       "\"n_layer\":2,\"vocab_size\":9,\"n_positions\":8,"
	                       "\"n_inner\":100}",
	                       &c, &e),
	                 0);
	ck_assert_uint_eq(c.intermediate, 100);
	ck_assert_uint_eq(c.head_dim, 16);

	ck_assert_int_eq(rl_hfconfig_read(RL_EXAMPLES "/gpt2.json", &c, &e), 0);
	n = rl_modelops_build(&c, &o, r, &e);
	/* embed, pos_embed, 14 per layer, ln_f, lm_head */
	ck_assert_int_eq(n, 18);
	x = row(r, n, "c_attn");
	ck_assert_str_eq(x->shape, "2x2304x768");
	ck_assert_uint_eq(x->count, 12);
	ck_assert_int_eq(x->weights, 1);
	x = row(r, n, "attention");
	ck_assert_str_eq(x->shape, "2x12x1x1024x64");
	ck_assert_uint_eq(x->kv_heads, 0); /* MHA: the column's default */
	ck_assert_int_eq(x->kv, 1);
	x = row(r, n, "gelu");
	ck_assert_str_eq(x->shape, "2x3072");
	ck_assert_uint_eq(x->fpe, 14);
	ck_assert_uint_eq(x->inputs, 1);
	ck_assert_str_eq(row(r, n, "c_fc")->shape, "2x3072x768");
	ck_assert_str_eq(row(r, n, "mlp_proj")->shape, "2x768x3072");
	ck_assert_str_eq(row(r, n, "attn_proj")->shape, "2x768x768");
	ck_assert_str_eq(row(r, n, "lm_head")->shape, "2x50257x768");
	ck_assert_uint_eq(row(r, n, "ln_f")->count, 1);
	o.phase = RL_PHASE_PREFILL;
	n = rl_modelops_build(&c, &o, r, &e);
	x = row(r, n, "attention");
	ck_assert_str_eq(x->shape, "2x12x512x64");
	ck_assert_int_eq(x->causal, 1);
	ck_assert_str_eq(row(r, n, "pos_embed")->shape, "1024x768");
	ck_assert_str_eq(row(r, n, "lm_head")->shape, "2x50257x768");
}
END_TEST

START_TEST(test_encoders)
{
	struct rl_hfconfig c;
	struct rl_modelops_opts o = {.phase = RL_PHASE_PREFILL,
	                             .batch = 4,
	                             .seq = 128,
	                             .context = 128,
	                             .dtype = RL_BF16,
	                             .weight_dtype = RL_BF16,
	                             .kv_dtype = RL_BF16,
	                             .expert_imbalance = 1.0};
	struct rl_modelops_row r[RL_MODELOPS_MAX];
	const struct rl_modelops_row *x;
	struct rl_err e;
	int n;

	/* BERT-base: 768, 12 heads of 64, 12 layers, 3072, vocab 30522 */
	ck_assert_int_eq(rl_hfconfig_read(RL_EXAMPLES "/bert-base.json", &c, &e), 0);
	ck_assert_int_eq(c.family, RL_HF_BERT);
	ck_assert_int_eq(c.encoder, 1);
	ck_assert_uint_eq(c.hidden, 768);
	ck_assert_uint_eq(c.head_dim, 64);
	ck_assert_uint_eq(c.intermediate, 3072);
	ck_assert_uint_eq(c.vocab, 30522);
	n = rl_modelops_build(&c, &o, r, &e);
	/* embed, embed_add, embed_norm, 14 per layer, pooler, pooler_tanh */
	ck_assert_int_eq(n, 19);
	x = row(r, n, "attention");
	ck_assert_str_eq(x->shape, "4x12x128x64");
	ck_assert_int_eq(x->causal, 0);
	ck_assert_str_eq(row(r, n, "qkv")->shape, "512x2304x768");
	ck_assert_uint_eq(row(r, n, "embed_add")->inputs, 3);
	ck_assert_str_eq(row(r, n, "pooler")->shape, "4x768x768");
	ck_assert_uint_eq(row(r, n, "ffn_norm")->count, 12);
	ck_assert_uint_eq(row(r, n, "gelu")->fpe, 14);
	o.phase = RL_PHASE_DECODE;
	ck_assert_int_eq(rl_modelops_build(&c, &o, r, &e), RL_ERR_ARG);
	ck_assert_str_eq(e.msg, "model_type bert is an encoder: --phase decode does not apply "
	                        "(prefill only)");

	/* ViT-B/16: (224 / 16)^2 + 1 = 197 tokens */
	ck_assert_int_eq(rl_hfconfig_read(RL_EXAMPLES "/vit-b16.json", &c, &e), 0);
	ck_assert_int_eq(c.family, RL_HF_VIT);
	ck_assert_uint_eq(c.tokens, 197);
	ck_assert_uint_eq(c.channels, 3);
	o.phase = RL_PHASE_PREFILL;
	o.batch = 2;
	n = rl_modelops_build(&c, &o, r, &e);
	/* patch_embed, pos_embed, 14 per layer, ln_f, pooler, pooler_tanh */
	ck_assert_int_eq(n, 19);
	x = row(r, n, "patch_embed");
	ck_assert_str_eq(x->kind, "conv2d");
	ck_assert_str_eq(x->shape, "2x3x224x224");
	ck_assert_str_eq(x->kernel, "768x16x16");
	ck_assert_uint_eq(x->stride, 16);
	ck_assert_str_eq(row(r, n, "pos_embed")->shape, "394x768");
	ck_assert_str_eq(row(r, n, "attention")->shape, "2x12x197x64");
	ck_assert_str_eq(row(r, n, "ffn_in")->shape, "394x3072x768");
	ck_assert_ptr_nonnull(row(r, n, "ln_1"));
	ck_assert_ptr_null(row(r, n, "attn_norm"));
	/* num_channels absent: 3 */
	ck_assert_int_eq(parse("{\"model_type\":\"vit\",\"hidden_size\":64,"
	                       "\"num_attention_heads\":4,\"num_hidden_layers\":1,"
	                       "\"intermediate_size\":8,\"image_size\":32,\"patch_size\":8}",
	                       &c, &e),
	                 0);
	ck_assert_uint_eq(c.channels, 3);
	ck_assert_uint_eq(c.tokens, 17);
}
END_TEST

START_TEST(test_errors)
{
	static const struct {
		const char *text, *msg;
	} cases[] = {
	    {"[1]", "c.json: expected an object (a config.json)"},
	    {"{\"hidden_size\":8}", "c.json: key 'model_type' is missing"},
	    {"{\"model_type\":7}", "c.json: key 'model_type': expected a string"},
	    {"{\"model_type\":\"gpt_neox\"}", "c.json: key 'model_type': unsupported model "
	                                      "type 'gpt_neox' (expected llama, mistral, mixtral, "
	                                      "qwen2, qwen3, qwen2_moe, qwen3_moe, gemma2, "
	                                      "gemma3_text, gemma3, phi3, olmo2, granite, falcon, "
	                                      "deepseek_v2, deepseek_v3, gpt_oss, gpt2, bert or "
	                                      "vit)"},
	    {"{\"model_type\":\"mixtral\",\"hidden_size\":4096,\"intermediate_size\":14336,"
	     "\"num_attention_heads\":32,\"num_hidden_layers\":32,\"vocab_size\":32000,"
	     "\"num_experts_per_tok\":2}",
	     "c.json: key 'num_local_experts' is missing"},
	    {"{\"model_type\":\"mixtral\",\"hidden_size\":4096,\"intermediate_size\":14336,"
	     "\"num_attention_heads\":32,\"num_hidden_layers\":32,\"vocab_size\":32000,"
	     "\"num_local_experts\":8}",
	     "c.json: key 'num_experts_per_tok' is missing"},
	    {"{\"model_type\":\"mixtral\",\"hidden_size\":4096,\"intermediate_size\":14336,"
	     "\"num_attention_heads\":32,\"num_hidden_layers\":32,\"vocab_size\":32000,"
	     "\"num_local_experts\":8,\"num_experts_per_tok\":9}",
	     "c.json: key 'num_experts_per_tok': 9 is more than num_local_experts 8"},
	    {"{\"model_type\":\"gpt2\",\"n_embd\":768}", "c.json: key 'n_head' is missing"},
	    {"{\"model_type\":\"bert\",\"hidden_size\":768,\"num_attention_heads\":12,"
	     "\"num_hidden_layers\":12,\"intermediate_size\":3072}",
	     "c.json: key 'vocab_size' is missing"},
	    {"{\"model_type\":\"vit\",\"hidden_size\":768,\"num_attention_heads\":12,"
	     "\"num_hidden_layers\":12,\"intermediate_size\":3072,\"image_size\":224}",
	     "c.json: key 'patch_size' is missing"},
	    {"{\"model_type\":\"vit\",\"hidden_size\":768,\"num_attention_heads\":12,"
	     "\"num_hidden_layers\":12,\"intermediate_size\":3072,\"image_size\":225,"
	     "\"patch_size\":16}",
	     "c.json: key 'patch_size': 16 does not divide image_size 225"},
	    /* 4096 patches a side: 4096^2 + 1 tokens pass 2^24 */
	    {"{\"model_type\":\"vit\",\"hidden_size\":8,\"num_attention_heads\":1,"
	     "\"num_hidden_layers\":1,\"intermediate_size\":8,\"image_size\":4096,"
	     "\"patch_size\":1}",
	     "c.json: key 'image_size': (image_size / patch_size)^2 + 1 tokens pass 16777216"},
	    {"{\"model_type\":\"bert\",\"hidden_size\":770,\"num_attention_heads\":12,"
	     "\"num_hidden_layers\":12,\"intermediate_size\":3072,\"vocab_size\":9}",
	     "c.json: key 'num_attention_heads': 12 does not divide the hidden size 770"},
	    /* the layers that differ: layer_types, mlp_only_layers, the patterns */
	    {"{\"model_type\":\"gemma2\",\"hidden_size\":64,\"intermediate_size\":128,"
	     "\"num_attention_heads\":4,\"num_hidden_layers\":2,\"vocab_size\":100,"
	     "\"sliding_window\":16,\"layer_types\":[\"full_attention\"]}",
	     "c.json: key 'layer_types': expected an array of 2 strings (one a layer)"},
	    {"{\"model_type\":\"gemma2\",\"hidden_size\":64,\"intermediate_size\":128,"
	     "\"num_attention_heads\":4,\"num_hidden_layers\":2,\"vocab_size\":100,"
	     "\"sliding_window\":16,\"layer_types\":[\"full_attention\",\"local\"]}",
	     "c.json: key 'layer_types': element 1: expected \"sliding_attention\" or "
	     "\"full_attention\""},
	    {"{\"model_type\":\"gemma2\",\"hidden_size\":64,\"intermediate_size\":128,"
	     "\"num_attention_heads\":4,\"num_hidden_layers\":2,\"vocab_size\":100,"
	     "\"sliding_window\":16,\"attn_logit_softcapping\":-1}",
	     "c.json: key 'attn_logit_softcapping': expected a positive number"},
	    {"{\"model_type\":\"gemma2\",\"hidden_size\":64,\"intermediate_size\":128,"
	     "\"num_attention_heads\":4,\"num_hidden_layers\":1025,\"vocab_size\":100,"
	     "\"sliding_window\":16}",
	     "c.json: key 'sliding_window': layers that differ need at most 1024 of them "
	     "(num_hidden_layers is 1025)"},
	    {"{\"model_type\":\"gemma3\",\"text_config\":7}",
	     "c.json: key 'text_config': expected an object"},
	    {"{\"model_type\":\"qwen2_moe\",\"hidden_size\":64,\"intermediate_size\":128,"
	     "\"num_attention_heads\":4,\"num_hidden_layers\":4,\"vocab_size\":100,"
	     "\"num_experts\":8,\"num_experts_per_tok\":2,\"moe_intermediate_size\":32,\"mlp_only_layers\":[4]}",
	     "c.json: key 'mlp_only_layers': element 0: expected a layer index from 0 to 3"},
	    {"{\"model_type\":\"qwen2_moe\",\"hidden_size\":64,\"intermediate_size\":128,"
	     "\"num_attention_heads\":4,\"num_hidden_layers\":4,\"vocab_size\":100,"
	     "\"num_experts\":8,\"num_experts_per_tok\":2,\"moe_intermediate_size\":32,\"mlp_only_layers\":7}",
	     "c.json: key 'mlp_only_layers': expected an array of layer indices"},
	    {"{\"model_type\":\"qwen2_moe\",\"hidden_size\":64,\"intermediate_size\":128,"
	     "\"num_attention_heads\":4,\"num_hidden_layers\":4,\"vocab_size\":100,"
	     "\"num_experts\":8,\"num_experts_per_tok\":2,\"moe_intermediate_size\":32}",
	     "c.json: key 'shared_expert_intermediate_size' is missing"},
	    {"{\"model_type\":\"qwen3_moe\",\"hidden_size\":64,\"intermediate_size\":128,"
	     "\"num_attention_heads\":4,\"num_hidden_layers\":4,\"vocab_size\":100,"
	     "\"num_experts\":8,\"num_experts_per_tok\":9}",
	     "c.json: key 'num_experts_per_tok': 9 is more than num_experts 8"},
	    {"{\"model_type\":\"falcon\",\"hidden_size\":64,\"num_attention_heads\":4,"
	     "\"num_hidden_layers\":2,\"vocab_size\":100,\"new_decoder_architecture\":true,"
	     "\"num_kv_heads\":3}",
	     "c.json: key 'num_kv_heads': 3 does not divide num_attention_heads 4"},
	    {"{\"model_type\":\"gpt2\",\"n_embd\":768,\"n_head\":12,\"n_layer\":12,"
	     "\"vocab_size\":50257}",
	     "c.json: key 'n_positions' is missing"},
	    {"{\"model_type\":\"gpt2\",\"n_embd\":768,\"n_head\":12,\"n_layer\":12,"
	     "\"vocab_size\":50257,\"n_positions\":1024,\"n_inner\":1.5}",
	     "c.json: key 'n_inner': expected an integer from 1 to 16777216"},
	    {"{\"model_type\":\"gpt2\",\"n_embd\":770,\"n_head\":12,\"n_layer\":12,"
	     "\"vocab_size\":50257,\"n_positions\":1024}",
	     "c.json: key 'n_head': 12 does not divide the hidden size 770"},
	    {"{\"model_type\":\"gpt2\",\"n_embd\":8388608,\"n_head\":1,\"n_layer\":1,"
	     "\"vocab_size\":2,\"n_positions\":2}",
	     "c.json: key 'n_inner' is missing and 4 x n_embd passes 16777216"},
	    {"{\"model_type\":\"llama\"}", "c.json: key 'hidden_size' is missing"},
	    {"{\"model_type\":\"llama\",\"hidden_size\":4096.5}",
	     "c.json: key 'hidden_size': expected an integer from 1 to 16777216"},
	    {"{\"model_type\":\"llama\",\"hidden_size\":0}",
	     "c.json: key 'hidden_size': expected an integer from 1 to 16777216"},
	    {"{\"model_type\":\"llama\",\"hidden_size\":16777217}",
	     "c.json: key 'hidden_size': expected an integer from 1 to 16777216"},
	    {"{\"model_type\":\"llama\",\"hidden_size\":64,\"intermediate_size\":8,"
	     "\"num_attention_heads\":8,\"num_key_value_heads\":3,\"num_hidden_layers\":1,"
	     "\"vocab_size\":9}",
	     "c.json: key 'num_key_value_heads': 3 does not divide num_attention_heads 8"},
	    {"{\"model_type\":\"llama\",\"hidden_size\":60,\"intermediate_size\":8,"
	     "\"num_attention_heads\":8,\"num_hidden_layers\":1,\"vocab_size\":9}",
	     "c.json: key 'head_dim' is missing and num_attention_heads 8 does not divide "
	     "hidden_size 60"},
	    {"{\"model_type\":\"llama\",\"hidden_size\":64,\"intermediate_size\":8,"
	     "\"num_attention_heads\":8,\"num_hidden_layers\":1,\"vocab_size\":9,"
	     "\"tie_word_embeddings\":1}",
	     "c.json: key 'tie_word_embeddings': expected true or false"},
	};
	struct rl_hfconfig c;
	struct rl_err e;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_int_eq(parse(cases[i].text, &c, &e), RL_ERR_PARSE);
		ck_assert_str_eq(e.msg, cases[i].msg);
	}
	ck_assert_int_eq(parse("{\"model_type\":", &c, &e), RL_ERR_PARSE);
	ck_assert(strncmp(e.msg, "c.json: not JSON (", 18) == 0);
}
END_TEST

START_TEST(test_build)
{
	struct rl_hfconfig c;
	struct rl_modelops_opts o = {.phase = RL_PHASE_DECODE,
	                             .batch = 2,
	                             .seq = 512,
	                             .context = 2048,
	                             .dtype = RL_BF16,
	                             .weight_dtype = RL_INT4,
	                             .kv_dtype = RL_FP8E4M3,
	                             .expert_imbalance = 1.0};
	struct rl_modelops_row r[RL_MODELOPS_MAX];
	const struct rl_modelops_row *x;
	struct rl_err e;
	int n;

	ck_assert_int_eq(rl_hfconfig_read(RL_EXAMPLES "/llama3-8b.json", &c, &e), 0);
	n = rl_modelops_build(&c, &o, r, &e);
	/* embed, 11 per layer, final_norm, lm_head */
	ck_assert_int_eq(n, 14);
	x = row(r, n, "qkv_proj");
	ck_assert_str_eq(x->shape, "2x6144x4096");
	ck_assert_uint_eq(x->count, 32);
	ck_assert_int_eq(x->weights, 1);
	x = row(r, n, "attention");
	ck_assert_str_eq(x->shape, "2x32x1x2048x128");
	ck_assert_uint_eq(x->kv_heads, 8);
	ck_assert_int_eq(x->causal, 0);
	ck_assert_str_eq(row(r, n, "gate_up")->shape, "2x28672x4096");
	ck_assert_str_eq(row(r, n, "down_proj")->shape, "2x4096x14336");
	ck_assert_uint_eq(row(r, n, "mul")->inputs, 2);
	ck_assert_uint_eq(row(r, n, "lm_head")->count, 1);
	ck_assert_ptr_null(row(r, n, "qkv_bias"));

	o.phase = RL_PHASE_PREFILL;
	c.attention_bias = 1;
	n = rl_modelops_build(&c, &o, r, &e);
	ck_assert_int_eq(n, 15);
	ck_assert_str_eq(row(r, n, "qkv_bias")->shape, "1024x6144");
	x = row(r, n, "attention");
	ck_assert_str_eq(x->shape, "2x32x512x128");
	ck_assert_int_eq(x->causal, 1);
	ck_assert_str_eq(row(r, n, "lm_head")->shape, "2x128256x4096");
	ck_assert_str_eq(row(r, n, "embed")->shape, "1024x4096");

	/* a training step of int4 weights: refused by the builder, not at the
	 * generated list's first matmul (fuzz_model) */
	o.train = 1;
	ck_assert_int_eq(rl_modelops_build(&c, &o, r, &e), RL_ERR_ARG);
	ck_assert_str_eq(e.msg, "int4 weights train frozen only: a training step needs weights it "
	                        "can update");
	o.train = 0;

	o.batch = 0;
	ck_assert_int_eq(rl_modelops_build(&c, &o, r, &e), RL_ERR_RANGE);
}
END_TEST

/* Issue 21, item 15: a config whose step is too large is one message naming
 * the config and the keys (and options) its overflowing row is made of, not
 * an error per row of the generated op list. The products are worked out by
 * hand below each case. */
START_TEST(test_too_large)
{
	static const struct {
		const char *json;
		int prefill;
		uint64_t batch, seq;
		const char *msg;
	} cases[] = {
		/* qkv_proj K x N = 2^24 x (2^24 + 2) x 2^24 > 2^64 */
		{"{\"model_type\":\"llama\",\"hidden_size\":16777216,\"intermediate_size\":8,"
		 "\"num_attention_heads\":16777216,\"num_hidden_layers\":2,\"vocab_size\":8,"
		 "\"num_key_value_heads\":1,\"head_dim\":16777216}",
		 0, 1, 1,
		 "c.json: hidden_size 16777216, num_attention_heads 16777216 and head_dim 16777216 "
		 "make the step's qkv_proj (matmul 1x281475010265088x16777216) too large: the matmul "
		 "operand has more than 2^64 elements"},
		/* the prefill's embed: 2^24 x 2^24 tokens x hidden 2^24 */
		{"{\"model_type\":\"llama\",\"hidden_size\":16777216,\"intermediate_size\":8,"
		 "\"num_attention_heads\":1,\"num_hidden_layers\":2,\"vocab_size\":8}",
		 1, 16777216, 16777216,
		 "c.json: hidden_size 16777216, --batch 16777216 and --seq 16777216 make the step's "
		 "embed (copy 281474976710656x16777216) too large: the tensor has more than 2^64 "
		 "elements"},
		/* the decode's attention: K and V, B x Hkv x C x D = 2^24 x 2^12 x
		 * 2^12 x 2^24 = 2^72 (qkv_proj before it fits: C = M x N = 2^24 x
		 * 3 x 2^12 x 2^24 = 3 x 2^60) */
		{"{\"model_type\":\"llama\",\"hidden_size\":4096,\"intermediate_size\":8,"
		 "\"num_attention_heads\":4096,\"num_hidden_layers\":2,\"vocab_size\":8,"
		 "\"head_dim\":16777216}",
		 0, 16777216, 4096,
		 "c.json: num_attention_heads 4096, head_dim 16777216, --batch 16777216 and context "
		 "4096 make the step's attention (attention 16777216x4096x1x4096x16777216) too large: "
		 "the attention tensor has more than 2^64 elements"},
		/* gpt2's c_fc at prefill: 2^20 tokens x n_inner 2^24 x n_embd 2^24:
		 * B = K x N = 2^48 fits, A = M x K = 2^44, C = M x N = 2^44: fits; the
		 * lm_head's vocab 2^24 x n_embd 2^24 fits; 3 x 2^24 x 2^24 fits. With
		 * 2^24 x 2^24 tokens, M x K = 2^72: embed first */
		{"{\"model_type\":\"gpt2\",\"n_embd\":16777216,\"n_head\":1,\"n_layer\":1,"
		 "\"vocab_size\":8,\"n_positions\":8,\"n_inner\":8}",
		 1, 16777216, 16777216,
		 "c.json: n_embd 16777216, --batch 16777216 and --seq 16777216 make the step's "
		 "embed (copy 281474976710656x16777216) too large: the tensor has more than 2^64 "
		 "elements"},
		/* mixtral's gather at decode: B x k x H = 2^24 x 2^24 x 2^24 */
		{"{\"model_type\":\"mixtral\",\"hidden_size\":16777216,\"intermediate_size\":8,"
		 "\"num_attention_heads\":1,\"num_hidden_layers\":1,\"vocab_size\":8,"
		 "\"num_local_experts\":16777216,\"num_experts_per_tok\":16777216}",
		 0, 16777216, 1,
		 "c.json: hidden_size 16777216, num_experts_per_tok 16777216 and --batch 16777216 "
		 "make the step's gather (copy 16777216x16777216x16777216) too large: the tensor "
		 "has more than 2^64 elements"},
		/* vit's patch conv: B x C x image^2 = 2^24 x 2^24 x 2^24 (image 4096;
		 * the keys first, then the options) */
		{"{\"model_type\":\"vit\",\"hidden_size\":8,\"num_attention_heads\":1,"
		 "\"num_hidden_layers\":1,\"intermediate_size\":8,\"image_size\":4096,"
		 "\"patch_size\":4096,\"num_channels\":16777216}",
		 1, 16777216, 1,
		 "c.json: hidden_size 8, image_size 4096, patch_size 4096, num_channels 16777216 and "
		 "--batch 16777216 make the step's patch_embed (conv2d 16777216x16777216x4096x4096) too large: the "
		 "conv2d input has more than 2^64 elements"},
	};
	struct rl_modelops_row r[RL_MODELOPS_MAX];
	struct rl_hfconfig c;
	struct rl_err e;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct rl_modelops_opts o = {.phase = cases[i].prefill ? RL_PHASE_PREFILL
		                                                       : RL_PHASE_DECODE,
		                             .batch = cases[i].batch,
		                             .seq = cases[i].seq,
		                             .context = cases[i].seq,
		                             .dtype = RL_BF16,
		                             .weight_dtype = RL_BF16,
		                             .kv_dtype = RL_BF16,
		                             .expert_imbalance = 1.0};

		ck_assert_int_eq(parse(cases[i].json, &c, &e), 0);
		ck_assert_int_eq(rl_modelops_build(&c, &o, r, &e), RL_ERR_RANGE);
		ck_assert_str_eq(e.msg, cases[i].msg);
	}
}
END_TEST

/* Every row the builder makes, in every family, phase, training and layout,
 * is one whose sizes a too-large message can name. */
START_TEST(test_rows_named)
{
	static const char *const configs[] = {
		"llama3-8b", "qwen2-7b",  "mixtral-8x7b", "gpt2",      "bert-base",
		"vit-b16",   "qwen3-8b",  "gemma2-9b",    "gemma3-1b", "phi3-mini",
		"olmo2-7b",  "granite3-8b", "falcon-7b",  "qwen1.5-moe-a2.7b", "qwen3-30b-a3b",
		"deepseek-v2-lite", "deepseek-v3", "gpt-oss-20b"};
	static const struct rl_net net = {"net", 450, 0, 15, 0, 8, 1};
	static const struct rl_parallel lays[] = {
		{1, 1, 1, 1, 0, 0, 0, 0, 0, 0}, {2, 1, 1, 1, 0, 0, 0, 0, 0, 0}, {1, 2, 1, 1, 0, 0, 0, 0, 0, 0}, {1, 1, 1, 2, 0, 0, 0, 0, 0, 0}};
	struct rl_modelops_row r[RL_MODELOPS_MAX];
	struct rl_parallel_place p;
	struct rl_hfconfig c;
	struct rl_err e;
	char path[256];
	size_t i, l;
	int phase, train, n, j;

	for (i = 0; i < ARRAY_SIZE(configs); i++) {
		snprintf(path, sizeof(path), "%s/%s.json", RL_EXAMPLES, configs[i]);
		ck_assert_int_eq(rl_hfconfig_read(path, &c, &e), 0);
		for (l = 0; l < ARRAY_SIZE(lays); l++)
			for (phase = 0; phase < 2; phase++)
				for (train = 0; train < 2; train++) {
					struct rl_modelops_opts o = {
						.phase = phase ? RL_PHASE_PREFILL : RL_PHASE_DECODE,
						.batch = 4,
						.seq = 16,
						.context = 16,
						.dtype = RL_BF16,
						.weight_dtype = RL_BF16,
						.kv_dtype = RL_BF16,
						.train = train};

					if ((c.encoder && !phase) || (train && !phase))
						continue;
					if (l > 0) {
						if (rl_parallel_check_model(&lays[l], &c, &e) < 0)
							continue;
						ck_assert_int_eq(rl_parallel_place(&lays[l], 4, c.layers,
						                                   train, &net, &p, &e),
						                 0);
						o.par = &p;
					}
					n = rl_modelops_build(&c, &o, r, &e);
					ck_assert_int_gt(n, 0);
					for (j = 0; j < n; j++)
						ck_assert_msg(rl_modelops_row_known(r[j].name),
						              "%s: row %s", configs[i], r[j].name);
				}
	}
}
END_TEST

/* The primitives the family readers take their keys with. */
START_TEST(test_primitives)
{
	yajl_val root;
	struct rl_hfconfig c;
	struct rl_hfconfig_rd r;
	struct rl_err e;
	uint64_t v = 0;
	int b = -1;

	root = rl_json_parse("{\"a\":5,\"t\":true,\"f\":false,\"n\":null,\"s\":\"x\","
	                     "\"z\":0,\"big\":16777217,\"max\":16777216,\"half\":2.5}",
	                     "t.json", &e);
	ck_assert_ptr_nonnull(root);
	r.name = "t.json";
	r.root = root;
	r.err = &e;
	ck_assert_int_eq(rl_hfconfig_size(&r, "a", 0, &v), 0);
	ck_assert_uint_eq(v, 5);
	ck_assert_int_eq(rl_hfconfig_size(&r, "max", 0, &v), 0);
	ck_assert_uint_eq(v, 16777216);
	/* absent and null: the default, or missing */
	ck_assert_int_eq(rl_hfconfig_size(&r, "q", 7, &v), 0);
	ck_assert_uint_eq(v, 7);
	ck_assert_int_eq(rl_hfconfig_size(&r, "n", 9, &v), 0);
	ck_assert_uint_eq(v, 9);
	ck_assert_int_eq(rl_hfconfig_size(&r, "q", 0, &v), RL_ERR_PARSE);
	ck_assert_str_eq(e.msg, "t.json: key 'q' is missing");
	ck_assert_int_eq(rl_hfconfig_size(&r, "n", 0, &v), RL_ERR_PARSE);
	ck_assert_str_eq(e.msg, "t.json: key 'n' is missing");
	ck_assert_int_eq(rl_hfconfig_size(&r, "s", 1, &v), RL_ERR_PARSE);
	ck_assert_str_eq(e.msg, "t.json: key 's': expected an integer from 1 to 16777216");
	ck_assert_int_eq(rl_hfconfig_size(&r, "z", 1, &v), RL_ERR_PARSE);
	ck_assert_int_eq(rl_hfconfig_size(&r, "big", 1, &v), RL_ERR_PARSE);
	ck_assert_int_eq(rl_hfconfig_size(&r, "half", 1, &v), RL_ERR_PARSE);
	ck_assert_int_eq(rl_hfconfig_bool(&r, "t", 0, &b), 0);
	ck_assert_int_eq(b, 1);
	ck_assert_int_eq(rl_hfconfig_bool(&r, "f", 1, &b), 0);
	ck_assert_int_eq(b, 0);
	ck_assert_int_eq(rl_hfconfig_bool(&r, "n", 1, &b), 0);
	ck_assert_int_eq(b, 1);
	ck_assert_int_eq(rl_hfconfig_bool(&r, "a", 0, &b), RL_ERR_PARSE);
	ck_assert_str_eq(e.msg, "t.json: key 'a': expected true or false");
	ck_assert_int_eq(rl_hfconfig_has(&r, "a"), 1);
	ck_assert_int_eq(rl_hfconfig_has(&r, "n"), 0);
	ck_assert_int_eq(rl_hfconfig_has(&r, "q"), 0);
	memset(&c, 0, sizeof(c));
	c.hidden = 64;
	c.heads = 5;
	ck_assert_int_eq(rl_hfconfig_mha(&r, "h", &c), RL_ERR_PARSE);
	ck_assert_str_eq(e.msg, "t.json: key 'h': 5 does not divide the hidden size 64");
	c.heads = 4;
	ck_assert_int_eq(rl_hfconfig_mha(&r, "h", &c), 0);
	ck_assert_uint_eq(c.head_dim, 16);
	ck_assert_uint_eq(c.kv_heads, 4);
	yajl_tree_free(root);
}
END_TEST

Suite *suite_hfconfig(void)
{
	Suite *s = suite_create("hfconfig");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_example_8b);
	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_mixtral);
	tcase_add_test(tc, test_errors);
	tcase_add_test(tc, test_build);
	tcase_add_test(tc, test_gpt2);
	tcase_add_test(tc, test_encoders);
	tcase_add_test(tc, test_too_large);
	tcase_add_test(tc, test_rows_named);
	tcase_add_test(tc, test_primitives);
	suite_add_tcase(s, tc);
	return s;
}
