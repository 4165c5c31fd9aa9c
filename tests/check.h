/* check.h - the Check suites of the library, one per module, and shared
 * fixtures. Expected values in the suites are worked out by hand or taken
 * from datasheets, never copied from the code's output. */
#ifndef RL_TEST_CHECK_H
#define RL_TEST_CHECK_H

#include <check.h>
#include <stdio.h>

#include "hwdb.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

Suite *suite_num(void);
Suite *suite_err(void);
Suite *suite_json(void);
Suite *suite_bench(void);
Suite *suite_formulas(void);
Suite *suite_hwdb(void);
Suite *suite_model(void);
Suite *suite_oplist(void);
Suite *suite_oplist_write(void);
Suite *suite_modelstep(void);
Suite *suite_report(void);
Suite *suite_column(void);
Suite *suite_probe(void);
Suite *suite_timeline(void);
Suite *suite_fusion(void);
Suite *suite_symbols(void);
Suite *suite_trace(void);
Suite *suite_import(void);
Suite *suite_inductor(void);
Suite *suite_chart(void);
Suite *suite_l2(void);
Suite *suite_fmt(void);
Suite *suite_html(void);
Suite *suite_pipeline(void);
Suite *suite_synth(void);
Suite *suite_hfconfig(void);
Suite *suite_family(void);
Suite *suite_impl(void);
Suite *suite_expected(void);
Suite *suite_memfit(void);
Suite *suite_train(void);
Suite *suite_collective(void);
Suite *suite_kind(void);
Suite *suite_hwsystem(void);
Suite *suite_sweep(void);
Suite *suite_parallel(void);
Suite *suite_collbench(void);
Suite *suite_outfile(void);
Suite *suite_generate(void);
Suite *suite_dtype(void);
Suite *suite_op(void);
Suite *suite_kvfile(void);
Suite *suite_archtab(void);
Suite *suite_scale(void);
Suite *suite_step(void);
Suite *suite_hostfit(void);
Suite *suite_summary(void);
Suite *suite_effprof(void);
Suite *suite_whatif_report(void);
Suite *suite_generate_report(void);
Suite *suite_kind_report(void);
Suite *suite_modelprobe(void);

/* Loads RL_TEST_HWDB/ID.device into *D or fails the test. */
void test_load_device(const char *id, struct rl_device *d);

/* The host overhead of RL_TEST_HWDB/NAME.runtime, or fails the test. */
double test_runtime_overhead(const char *name);

/* A read-only stream over TEXT (fmemopen); fails the test on error. */
FILE *test_stream(const char *text);

/* Sets *OP to an op named "op" of kind K and dtype T with the N dims D, every
 * optional column at its default. */
void test_op_shape(struct rl_op *op, enum rl_kind k, enum rl_dtype t, int n, const uint64_t *d);

#endif
