/* family_bert.c - bert: hidden_size, num_attention_heads,
 * num_hidden_layers, intermediate_size, vocab_size,
 * max_position_embeddings (default 512) and type_vocab_size (default 2,
 * BertConfig's); an encoder (prefill
 * only, attention not causal) with LayerNorm after each residual add,
 * biases on every linear, the GELU MLP and the pooler. Its first four keys
 * are vit's too (rl_family_read_encoder). */
#include "config.h"

#include "family.h"

int rl_family_read_encoder(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	int rc;

	c->attention_bias = 1;
	rc = rl_hfconfig_size(r, "hidden_size", 0, &c->hidden);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "num_attention_heads", 0, &c->heads);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "num_hidden_layers", 0, &c->layers);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "intermediate_size", 0, &c->intermediate);
	return rc;
}

static int read_bert(const struct rl_hfconfig_rd *r, struct rl_hfconfig *c)
{
	int rc = rl_family_read_encoder(r, c);

	if (rc == 0)
		rc = rl_hfconfig_size(r, "vocab_size", 0, &c->vocab);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "max_position_embeddings", 512, &c->positions);
	if (rc == 0)
		rc = rl_hfconfig_size(r, "type_vocab_size", 2, &c->token_types);
	if (rc == 0)
		rc = rl_hfconfig_mha(r, "num_attention_heads", c);
	return rc;
}

static const struct rl_block_names bert_names = {
	.norm1 = "attn_norm",
	.qkv = "qkv",
	.qkv_bias = "qkv_bias",
	.o_proj = "attn_out",
	.o_bias = "attn_out_bias",
	.norm2 = "ffn_norm",
	.up = "ffn_in",
	.up_bias = "ffn_in_bias",
	.act = "gelu",
	.down = "ffn_out",
	.mlp_allreduce = "ffn_allreduce",
	.down_bias = "ffn_out_bias",
	.mlp_residual = "ffn_residual",
};

static void bert_block(const struct rl_hfconfig *c, struct rl_block *b)
{
	(void)c;
	b->names = &bert_names;
	b->embed = RL_EMBED_TOKENS_POS_TYPE;
	b->norm = RL_NORM_POST;
	b->norm_bias = 1;
	b->qkv_bias = b->o_bias = b->mlp_bias = 1;
	b->mlp = RL_MLP_PLAIN;
	b->act_fpe = 14;
	b->head = RL_HEAD_POOLER;
}

static const char *const bert_types[] = {"bert", NULL};

static const char *const bert_keys[] = {"hidden_size",       "num_attention_heads",
                                        "num_hidden_layers", "intermediate_size",
                                        "vocab_size",        "max_position_embeddings",
                                        "type_vocab_size",   NULL};

const struct rl_family rl_family_bert = {
	.name = "bert",
	.model_types = bert_types,
	.keys = bert_keys,
	.sizes = {"hidden_size", "intermediate_size", "num_attention_heads", "num_hidden_layers"},
	.tag = RL_HF_BERT,
	.phases = RL_FAMILY_TRAIN,
	.layouts = RL_FAMILY_TP | RL_FAMILY_PP | RL_FAMILY_DP,
	.read = read_bert,
	.block = bert_block,
};
