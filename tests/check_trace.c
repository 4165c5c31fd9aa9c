/* check_trace.c - the streaming trace reader: records, times, arguments,
 * and bad input with its byte offset. Expected values are read off the
 * small hand-written traces in tests/data by eye (offsets with python's
 * str.index, as noted) and off the fixtures with tests/trace-facts.py. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "check.h"
#include "gzread.h"
#include "import.h"
#include "trace.h"

static int read_trace(const char *file, struct rl_trace *t, struct rl_err *e)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", RL_TEST_DATA, file);
	memset(e, 0, sizeof(*e));
	return rl_trace_read(path, t, e);
}

START_TEST(test_records)
{
	struct rl_trace t;
	struct rl_err e;
	struct rl_trace_input in[8];
	int n;

	ck_assert_int_eq(read_trace("trace-nested.json", &t, &e), 0);
	/* 18 traceEvents items: 5 cpu_ops, 5 runtime calls, 6 GPU activities,
	 * one flow and one metadata event (ignored) */
	ck_assert_uint_eq(t.events, 18);
	ck_assert_uint_eq(t.nops, 5);
	ck_assert_uint_eq(t.nlaunches, 5);
	ck_assert_uint_eq(t.ngpu, 6);
	ck_assert_uint_eq(t.skipped.count, 0);
	ck_assert_uint_eq(t.ndevices, 1);
	ck_assert_str_eq(t.devices[0].name, "NVIDIA H200");
	ck_assert_str_eq(rl_trace_str(&t, t.ops[0].name), "aten::linear");
	ck_assert_int_eq(t.ops[0].ts_ns, 100000);
	ck_assert_int_eq(t.ops[0].dur_ns, 50000);
	ck_assert_int_eq(t.gpu[0].dur_ns, 3500);
	ck_assert_int_eq(t.gpu[1].kind, RL_GPU_MEMSET);
	ck_assert_uint_eq(t.gpu[0].corr, 7);
	/* aten::addmm: [[16], [4, 8], [8, 16], [], []] */
	n = rl_trace_op_inputs(&t, &t.ops[2], in, 8);
	ck_assert_int_eq(n, 5);
	ck_assert_str_eq(in[0].type, "c10::BFloat16");
	ck_assert_int_eq(in[0].nd, 1);
	ck_assert_uint_eq(in[0].dims[0], 16);
	ck_assert_int_eq(in[2].nd, 2);
	ck_assert_uint_eq(in[2].dims[0], 8);
	ck_assert_uint_eq(in[2].dims[1], 16);
	ck_assert_str_eq(in[3].type, "Scalar");
	ck_assert_str_eq(in[3].concrete, "1");
	ck_assert_int_eq(in[3].nd, 0);
	rl_trace_release(&t);
}
END_TEST

START_TEST(test_tensor_lists)
{
	struct rl_trace t;
	struct rl_err e;
	struct rl_trace_input in[8];
	const unsigned char *pos;
	uint64_t d[RL_TRACE_MAX_DIMS];
	int n, nd;
	size_t i, cats = 0;

	/* GPT-2's aten::cat records "Input Dims": [[[0], [1, 12, 1, 64]], []] */
	ck_assert_int_eq(read_trace("trace_gpt2_fwd_b1_s1_bf16.json.gz", &t, &e), 0);
	for (i = 0; i < t.nops; i++) {
		if (strcmp(rl_trace_str(&t, t.ops[i].name), "aten::cat") != 0)
			continue;
		cats++;
		n = rl_trace_op_inputs(&t, &t.ops[i], in, 8);
		ck_assert_int_eq(n, 2);
		ck_assert_str_eq(in[0].type, "TensorList");
		ck_assert_uint_eq(in[0].nlist, 2);
		pos = in[0].list;
		ck_assert_int_eq(rl_trace_list_next(&pos, d, &nd), 0);
		ck_assert_int_eq(nd, 1);
		ck_assert_uint_eq(d[0], 0);
		ck_assert_int_eq(rl_trace_list_next(&pos, d, &nd), 0);
		ck_assert_int_eq(nd, 4);
		ck_assert_uint_eq(d[1], 12);
		ck_assert_uint_eq(d[3], 64);
		ck_assert_str_eq(in[1].concrete, "-2");
	}
	ck_assert_uint_eq(cats, 24); /* 2 per layer, 12 layers */
	/* trace-facts.py: 247 kernels, 574.583 us, 1195 cpu_ops */
	ck_assert_uint_eq(t.ngpu, 247);
	ck_assert_uint_eq(t.nops, 1195);
	{
		int64_t sum = 0;

		for (i = 0; i < t.ngpu; i++)
			sum += t.gpu[i].dur_ns;
		ck_assert_int_eq(sum, 574583);
	}
	rl_trace_release(&t);
}
END_TEST

START_TEST(test_bigint_utf8)
{
	/* integers beyond 64 bits in places the reader does not need, invalid
	 * UTF-8 in a name, a type and a concrete input: read, names cleaned */
	struct rl_trace t;
	struct rl_err e;
	struct rl_trace_input in[4];

	ck_assert_int_eq(read_trace("trace-bigint-utf8.json", &t, &e), 0);
	ck_assert_uint_eq(t.nops, 1);
	ck_assert_uint_eq(t.ngpu, 1);
	ck_assert_uint_eq(t.nlaunches, 1);
	ck_assert_str_eq(rl_trace_str(&t, t.ops[0].name), "aten::my?op");
	ck_assert_int_eq(rl_trace_op_inputs(&t, &t.ops[0], in, 4), 1);
	ck_assert_uint_eq(in[0].dims[0], 1024);
	ck_assert_int_eq(t.gpu[0].dur_ns, 2500);
	rl_trace_release(&t);
}
END_TEST

START_TEST(test_missing_fields)
{
	struct rl_trace t;
	struct rl_err e;

	/* a cpu_op without dur, a kernel without correlation, one without ts:
	 * skipped and counted; the first starts at byte 18 (str.index) */
	ck_assert_int_eq(read_trace("trace-missing-fields.json", &t, &e), 0);
	ck_assert_uint_eq(t.skipped.count, 3);
	ck_assert_str_eq(t.skipped.first, "byte 18: cpu_op event without 'dur'");
	ck_assert_uint_eq(t.nops, 1);
	ck_assert_uint_eq(t.ngpu, 1);
	rl_trace_release(&t);
}
END_TEST

static const struct {
	const char *file;
	int code;
	const char *msg; /* the message after "PATH: " */
} bad[] = {
	/* 1500 bytes of trace-nested.json */
	{"trace-truncated.json", RL_ERR_PARSE, "byte 1500: the JSON ends early"},
	/* the second item, 42, starts at byte 30 */
	{"trace-not-events.json", RL_ERR_PARSE, "byte 30: traceEvents item 2 is not an object"},
	/* a file of 59 bytes without traceEvents */
	{"trace-not-a-trace.json", RL_ERR_PARSE, "byte 59: not a PyTorch profiler trace"},
	/* half of the gzip stream of trace-nested.json: data ends early */
	{"trace-truncated.json.gz", RL_ERR_PARSE, "truncated gzip data"},
	{"no-such-trace.json", RL_ERR_IO, "No such file or directory"},
};

START_TEST(test_errors)
{
	struct rl_trace t;
	struct rl_err e;
	int i = _i;

	ck_assert_int_eq(read_trace(bad[i].file, &t, &e), bad[i].code);
	ck_assert_msg(strstr(e.msg, bad[i].msg) != NULL, "%s: got '%s'", bad[i].file, e.msg);
	ck_assert_msg(strstr(e.msg, bad[i].file) != NULL, "no file name in '%s'", e.msg);
	rl_trace_release(&t);
}
END_TEST

START_TEST(test_garbled_offset)
{
	struct rl_trace t;
	struct rl_err e;
	const char *at;
	long off;

	/* a missing comma before "name", which spans bytes 46 to 51 */
	ck_assert_int_eq(read_trace("trace-garbled.json", &t, &e), RL_ERR_PARSE);
	at = strstr(e.msg, ": byte ");
	ck_assert_ptr_nonnull(at);
	off = strtol(at + 7, NULL, 10);
	ck_assert_int_ge(off, 46);
	ck_assert_int_le(off, 52);
	ck_assert_ptr_nonnull(strstr(e.msg, "not valid JSON"));
	rl_trace_release(&t);
}
END_TEST

/* One relu on thread 1 (100-150 us), its launch call at 110 us with
 * correlation 7, and the kernel that call launched, at TS us for 2 us. */
static void small_trace(char *buf, size_t n, const char *ts)
{
	snprintf(buf, n,
	         "{\"traceEvents\": [\n"
	         "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::relu\", \"pid\": 1, "
	         "\"tid\": 1, \"ts\": 100, \"dur\": 50, \"args\": {\"Input Dims\": [[4, 8]], "
	         "\"Input type\": [\"float\"]}},\n"
	         "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
	         "\"pid\": 1, \"tid\": 1, \"ts\": 110, \"dur\": 5, \"args\": {\"correlation\": 7}},\n"
	         "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"relu_kernel\", \"pid\": 0, "
	         "\"tid\": 7, \"ts\": %s, \"dur\": 2, \"args\": {\"correlation\": 7}}\n"
	         "]}\n",
	         ts);
}

/* Writes N bytes of DATA to a new temporary file; its name goes to PATH. */
static void temp_file(char *path, const void *data, size_t n)
{
	int fd;

	strcpy(path, "/tmp/roofline-trace-XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, data, n), (ssize_t)n);
	close(fd);
}

/* Appends DATA as one gzip member to PATH. */
static void append_gzip(const char *path, const char *data)
{
	gzFile g = gzopen(path, "ab");

	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(gzwrite(g, data, (unsigned)strlen(data)), (int)strlen(data));
	ck_assert_int_eq(gzclose(g), Z_OK);
}

static long file_size(const char *path)
{
	struct stat st;

	ck_assert_int_eq(stat(path, &st), 0);
	return (long)st.st_size;
}

/* A UTF-8 byte-order mark is skipped, as the op list reader does, and byte
 * offsets still count from the start of the file (issue 11, 12). */
START_TEST(test_bom)
{
	static const char bad_item[] = "\xEF\xBB\xBF{\"traceEvents\": [42]}";
	char text[2048], path[32];
	struct rl_trace t;
	struct rl_err e;

	text[0] = '\xEF', text[1] = '\xBB', text[2] = '\xBF';
	small_trace(text + 3, sizeof(text) - 3, "120");
	temp_file(path, text, strlen(text));
	ck_assert_msg(rl_trace_read(path, &t, &e) == 0, "%s", e.msg);
	unlink(path);
	ck_assert_uint_eq(t.nops, 1);
	ck_assert_uint_eq(t.nlaunches, 1);
	ck_assert_uint_eq(t.ngpu, 1);
	ck_assert_int_eq(t.gpu[0].ts_ns, 120000);
	rl_trace_release(&t);

	/* 3 bytes of mark, then 42 at index 17 of the JSON */
	temp_file(path, bad_item, sizeof(bad_item) - 1);
	ck_assert_int_eq(rl_trace_read(path, &t, &e), RL_ERR_PARSE);
	unlink(path);
	ck_assert_msg(strstr(e.msg, ": byte 20: traceEvents item 1 is not an object") != NULL, "%s",
	              e.msg);
	rl_trace_release(&t);
}
END_TEST

/* The top-level scalars and the scalar members of a top-level object are
 * kept (rl_trace_meta); arrays and deeper objects are not; the profiler's
 * "overhead" events are kept as spans. */
START_TEST(test_meta_overheads)
{
	static const char text[] =
	    "{\"schemaVersion\": 1, \"cuda_runtime_version\": 13000, \"traceName\": \"x.json\",\n"
	    " \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": 3, \"pg_config\": [{\"a\": 1}],\n"
	    "   \"deep\": {\"x\": 1}},\n"
	    " \"INFO\": [1, 2], \"with_flops\": true,\n"
	    " \"traceEvents\": [\n"
	    "{\"ph\": \"X\", \"cat\": \"overhead\", \"name\": \"Activity Buffer Request\", "
	    "\"pid\": -1, \"tid\": 0, \"ts\": 100.5, \"dur\": 30.25},\n"
	    "{\"ph\": \"X\", \"cat\": \"overhead\", \"pid\": -1, \"tid\": 0, \"ts\": 1, \"dur\": 2}\n"
	    "]}\n";
	char path[32];
	struct rl_trace t;
	struct rl_err e;

	temp_file(path, text, sizeof(text) - 1);
	ck_assert_msg(rl_trace_read(path, &t, &e) == 0, "%s", e.msg);
	unlink(path);
	ck_assert_str_eq(rl_trace_meta(&t, "schemaVersion"), "1");
	ck_assert_str_eq(rl_trace_meta(&t, "cuda_runtime_version"), "13000");
	ck_assert_str_eq(rl_trace_meta(&t, "traceName"), "x.json");
	ck_assert_str_eq(rl_trace_meta(&t, "distributedInfo.backend"), "nccl");
	ck_assert_str_eq(rl_trace_meta(&t, "distributedInfo.rank"), "3");
	ck_assert_str_eq(rl_trace_meta(&t, "with_flops"), "true");
	ck_assert_ptr_null(rl_trace_meta(&t, "distributedInfo.pg_config"));
	ck_assert_ptr_null(rl_trace_meta(&t, "distributedInfo.deep"));
	ck_assert_ptr_null(rl_trace_meta(&t, "distributedInfo.deep.x"));
	ck_assert_ptr_null(rl_trace_meta(&t, "INFO"));
	ck_assert_ptr_null(rl_trace_meta(&t, "distributedInfo"));
	ck_assert_uint_eq(t.nmeta, 6);
	/* the nameless overhead event is dropped, as a nameless mark is */
	ck_assert_uint_eq(t.noverheads, 1);
	ck_assert_int_eq(t.overheads[0].ts_ns, 100500);
	ck_assert_int_eq(t.overheads[0].dur_ns, 30250);
	ck_assert_str_eq(rl_trace_str(&t, t.overheads[0].name), "Activity Buffer Request");
	ck_assert_uint_eq(t.nmarks, 0);
	rl_trace_release(&t);
}
END_TEST

/* Nesting counts skipped containers too, up to RL_JSON_MAX_DEPTH (64) as
 * the tree readers do: 63 arrays in a member beside the events (64 levels
 * with the top object) read; 10 million, gzipped, are refused at the 64th
 * '[' (the 65th level) without growing yajl's stack (issue 21). */
START_TEST(test_deep_nesting)
{
	static const char head[] = "{\"traceEvents\": [], \"x\": ";
	size_t big = 10000000, i;
	char text[4096], path[32], *deep;
	struct rl_trace t;
	struct rl_err e;
	int n;

	n = snprintf(text, sizeof(text), "{\"x\": ");
	for (i = 0; i < 63; i++)
		text[n++] = '[';
	for (i = 0; i < 63; i++)
		text[n++] = ']';
	text[n++] = ',';
	small_trace(text + n, sizeof(text) - (size_t)n, "120");
	memmove(text + n, text + n + 1, strlen(text + n)); /* small_trace's '{' */
	temp_file(path, text, strlen(text));
	ck_assert_msg(rl_trace_read(path, &t, &e) == 0, "%s", e.msg);
	unlink(path);
	ck_assert_uint_eq(t.nops, 1);
	rl_trace_release(&t);

	deep = malloc(sizeof(head) + big);
	ck_assert_ptr_nonnull(deep);
	memcpy(deep, head, sizeof(head) - 1);
	memset(deep + sizeof(head) - 1, '[', big);
	deep[sizeof(head) - 1 + big] = '\0';
	temp_file(path, "", 0);
	append_gzip(path, deep);
	free(deep);
	ck_assert_int_eq(rl_trace_read(path, &t, &e), RL_ERR_PARSE);
	unlink(path);
	/* the head is 25 bytes: the 64th '[' is byte 25 + 63 */
	ck_assert_msg(strstr(e.msg, ": byte 88: nesting deeper than 64 levels") != NULL, "%s", e.msg);
	rl_trace_release(&t);
}
END_TEST

/* A string of 1 MiB reads; one byte more is refused where it goes past the
 * cap (yajl lexes a token spanning chunks again from its start with each
 * chunk: a 300 MB string took over ten minutes, issue 21). A number of
 * 2 MB is a token over the cap too. */
START_TEST(test_long_token)
{
	static const char head[] = "{\"traceEvents\": [], \"x\": \"";
	size_t cap = 1u << 20, n = sizeof(head) - 1;
	char *text = malloc(n + 2 * cap + 8), path[32];
	struct rl_trace t;
	struct rl_err e = {0, ""};

	ck_assert_ptr_nonnull(text);
	memcpy(text, head, n);
	memset(text + n, 'a', cap);
	strcpy(text + n + cap, "\"}");
	temp_file(path, "", 0);
	append_gzip(path, text);
	/* read whole, it is a trace without kernels: any error but the cap's */
	rl_trace_read(path, &t, &e);
	ck_assert_msg(strstr(e.msg, "longer than") == NULL, "%s", e.msg);
	rl_trace_release(&t);
	unlink(path);

	strcpy(text + n + cap, "a\"}");
	temp_file(path, "", 0);
	append_gzip(path, text);
	ck_assert_int_eq(rl_trace_read(path, &t, &e), RL_ERR_PARSE);
	rl_trace_release(&t);
	unlink(path);
	/* the head is 26 bytes: the string's 1,048,577th byte is byte 26 + 1048576 */
	ck_assert_msg(strstr(e.msg, ": byte 1048602: a string longer than 1048576 bytes") != NULL,
	              "%s", e.msg);

	n = (size_t)sprintf(text, "{\"traceEvents\": [], \"x\": ");
	memset(text + n, '7', 2 * cap);
	strcpy(text + n + 2 * cap, "}");
	temp_file(path, text, strlen(text));
	ck_assert_int_eq(rl_trace_read(path, &t, &e), RL_ERR_PARSE);
	rl_trace_release(&t);
	unlink(path);
	ck_assert_msg(strstr(e.msg, "a token longer than 1048576 bytes") != NULL, "%s", e.msg);
	free(text);
}
END_TEST

/* A gzip stream that inflates more than 200 times past its first 64 MiB
 * is refused: 80 MiB of blanks compress about 1000 times. rl_gz_read alone,
 * so that the test does not wait for yajl to lex the blanks. */
START_TEST(test_gzip_ratio)
{
	size_t big = 80u << 20;
	char *blanks = malloc(big + 1), path[32], buf[1 << 16];
	struct rl_err e;
	rl_gz *gz;
	long got;
	unsigned long long total = 0;

	ck_assert_ptr_nonnull(blanks);
	memset(blanks, ' ', big);
	blanks[big] = '\0';
	temp_file(path, "", 0);
	append_gzip(path, blanks);
	free(blanks);
	ck_assert_int_eq(rl_gz_open(path, &gz, &e), 0);
	while ((got = rl_gz_read(gz, buf, sizeof(buf), &e)) > 0)
		total += (unsigned long long)got;
	rl_gz_close(gz);
	unlink(path);
	ck_assert_int_eq(got, RL_ERR_PARSE);
	ck_assert_msg(strstr(e.msg, "times as many (a trace inflates 8 to 17 times: not a trace)") !=
	                  NULL,
	              "%s", e.msg);
	/* stopped within a read of the 64 MiB floor */
	ck_assert_uint_le(total, (64u << 20) + sizeof(buf));
}
END_TEST

/* gzip members one after another are one stream (gzip(1) reads them so);
 * anything else after the last member is a damaged file (issue 11, 12). */
START_TEST(test_gzip_members)
{
	char text[2048], path[32];
	size_t half;
	struct rl_trace t;
	struct rl_err e;
	long size;

	/* the trace in two members, split in the middle of the text */
	small_trace(text, sizeof(text), "120");
	half = strlen(text) / 2;
	temp_file(path, "", 0);
	text[half] = '\0';
	append_gzip(path, text);
	small_trace(text, sizeof(text), "120");
	append_gzip(path, text + half);
	ck_assert_msg(rl_trace_read(path, &t, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(t.nops, 1);
	ck_assert_uint_eq(t.ngpu, 1);
	ck_assert_uint_eq(t.bytes, strlen(text));
	rl_trace_release(&t);

	/* now garbage after the two members, which end at byte SIZE */
	size = file_size(path);
	{
		FILE *f = fopen(path, "ab");

		ck_assert_ptr_nonnull(f);
		fputs("garbage\n", f);
		fclose(f);
	}
	ck_assert_int_eq(rl_trace_read(path, &t, &e), RL_ERR_PARSE);
	{
		char want[128];

		snprintf(want, sizeof(want), ": byte %ld of the file: data after the end of the gzip stream",
		         size);
		ck_assert_msg(strstr(e.msg, want) != NULL, "'%s' lacks '%s'", e.msg, want);
		ck_assert_ptr_nonnull(strstr(e.msg, path));
	}
	rl_trace_release(&t);

	/* a single zero byte of padding is no gzip member either */
	ck_assert_int_eq(truncate(path, size), 0);
	{
		FILE *f = fopen(path, "ab");

		ck_assert_ptr_nonnull(f);
		fputc(0, f);
		fclose(f);
	}
	ck_assert_int_eq(rl_trace_read(path, &t, &e), RL_ERR_PARSE);
	ck_assert_ptr_nonnull(strstr(e.msg, "data after the end of the gzip stream"));
	rl_trace_release(&t);
	unlink(path);
}
END_TEST

/* Times are kept below 2^62 ns (4611686018427387.904 us) so that no sum of
 * a start and a duration overflows; a kernel beyond is skipped, and when
 * every kernel is, the import says how many and why (issue 11, 12). */
START_TEST(test_absurd_times)
{
	static const struct {
		const char *ts;
		int kept;
	} times[] = {
		{"4611686018427387.903", 1}, /* 2^62 - 1 ns */
		{"-4611686018427387.903", 1},
		{"4611686018427387.904", 0}, /* 2^62 ns */
		{"99999999999999999999", 0},
		{"1e30", 0},
		{"1e400", 0},
		{"4.6e15", 1},
		{"4.7e15", 0},
	};
	char text[2048], path[32];
	struct rl_trace t;
	struct rl_import imp;
	struct rl_err e;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(times); i++) {
		small_trace(text, sizeof(text), times[i].ts);
		temp_file(path, text, strlen(text));
		ck_assert_msg(rl_trace_read(path, &t, &e) == 0, "%s", e.msg);
		unlink(path);
		ck_assert_msg(t.ngpu == (size_t)times[i].kept, "ts %s", times[i].ts);
		ck_assert_uint_eq(t.skipped.gpu, !times[i].kept);
		ck_assert_uint_eq(t.skipped.count, !times[i].kept);
		if (times[i].kept) {
			ck_assert_int_eq(rl_import_trace(&t, &imp, &e), 0);
		} else {
			char want[256];

			/* the kernel event starts at byte 304 (python str.index) */
			snprintf(want, sizeof(want),
			         ": no GPU kernels left in the trace: 1 GPU activity skipped (the first at "
			         "byte 304: kernel event: 'ts' out of range: '%s'",
			         times[i].ts);
			ck_assert_int_eq(rl_import_trace(&t, &imp, &e), RL_ERR_PARSE);
			ck_assert_msg(strstr(e.msg, want) != NULL, "'%s' lacks '%s'", e.msg, want);
		}
		rl_import_release(&imp);
		rl_trace_release(&t);
	}
}
END_TEST

/* c10d's record_param_comms metadata and the kernels' names, read off
 * trace-nccl.json by eye: its cpu_ops in file order are c10d::allgather_ (0),
 * record_param_comms (1), the engine's evaluate_function (2),
 * c10d::allreduce_ (3), record_param_comms (4), c10d::alltoall_base_ (5),
 * record_param_comms (6), record_param_comms without arguments (7),
 * c10d::allreduce_ (8), record_param_comms (9), aten::add (10). */
START_TEST(test_comm_records)
{
	struct rl_trace t;
	struct rl_err e;
	const struct rl_trace_comm *c;

	ck_assert_int_eq(read_trace("trace-nccl.json", &t, &e), 0);
	ck_assert_uint_eq(t.nops, 11);
	ck_assert_uint_eq(t.ncomms, 4); /* op 7 has no "Collective name" */
	c = rl_trace_op_comm(&t, 1);
	ck_assert_ptr_nonnull(c);
	ck_assert_str_eq(rl_trace_str(&t, c->name), "_allgather_base");
	ck_assert_uint_ne(c->dtype, 0);
	ck_assert_str_eq(rl_trace_str(&t, c->dtype - 1), "BFloat16");
	ck_assert_int_eq(c->in_nelems, 1048576);
	ck_assert_int_eq(c->out_nelems, 4194304);
	ck_assert_int_eq(c->group_size, 4);
	c = rl_trace_op_comm(&t, 4);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(c->in_nelems, 25000000);
	ck_assert_int_eq(c->group_size, 8);
	ck_assert_str_eq(rl_trace_str(&t, rl_trace_op_comm(&t, 6)->name), "all_to_all");
	ck_assert_int_eq(rl_trace_op_comm(&t, 9)->group_size, 1);
	ck_assert_ptr_null(rl_trace_op_comm(&t, 0));
	ck_assert_ptr_null(rl_trace_op_comm(&t, 7));
	ck_assert_ptr_null(rl_trace_op_comm(&t, 10));
	ck_assert_ptr_null(rl_trace_op_comm(&t, 11));
	/* the GPU activities' names, kernels and the memcpy alike */
	ck_assert_uint_eq(t.ngpu, 8);
	ck_assert_str_eq(rl_trace_str(&t, t.gpu[0].name),
	                 "ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)");
	ck_assert_str_eq(rl_trace_str(&t, t.gpu[1].name), "Memcpy DtoD (Device -> Device)");
	/* the records on kernels: the allgather's (without dtype and group)
	 * and the broadcast's, the sixth GPU activity */
	ck_assert_uint_eq(t.nkernel_comms, 2);
	c = rl_trace_gpu_comm(&t, 0);
	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(c->in_nelems, 1048576);
	ck_assert_int_eq(c->group_size, -1);
	ck_assert_uint_eq(c->dtype, 0);
	ck_assert_ptr_null(rl_trace_gpu_comm(&t, 1));
	c = rl_trace_gpu_comm(&t, 5);
	ck_assert_ptr_nonnull(c);
	ck_assert_str_eq(rl_trace_str(&t, c->name), "broadcast");
	ck_assert_int_eq(c->in_nelems, 4096);
	ck_assert_int_eq(c->group_size, 8);
	rl_trace_release(&t);
}
END_TEST

Suite *suite_trace(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_records);
	tcase_add_test(tc, test_tensor_lists);
	tcase_add_test(tc, test_bigint_utf8);
	tcase_add_test(tc, test_comm_records);
	suite_add_tcase(s, tc);
	tc = tcase_create("errors");
	tcase_add_test(tc, test_missing_fields);
	tcase_add_loop_test(tc, test_errors, 0, ARRAY_SIZE(bad));
	tcase_add_test(tc, test_garbled_offset);
	tcase_add_test(tc, test_bom);
	tcase_add_test(tc, test_deep_nesting);
	tcase_add_test(tc, test_long_token);
	tcase_add_test(tc, test_gzip_ratio);
	tcase_add_test(tc, test_gzip_members);
	tcase_add_test(tc, test_absurd_times);
	tcase_add_test(tc, test_meta_overheads);
	suite_add_tcase(s, tc);
	return s;
}
