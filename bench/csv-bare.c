/* csv-bare.c - libcsv's bare parse of a file, the yardstick of issue 11's csv
 * goal (classify within 3x of it): read in 64 KiB chunks, count fields and
 * rows, nothing else. Built and timed by bench/bench-classify.sh. */
#include <csv.h>
#include <stdio.h>

static size_t fields, rows;

static void on_field(void *s, size_t n, void *u)
{
	(void)s, (void)n, (void)u;
	fields++;
}

static void on_row(int c, void *u)
{
	(void)c, (void)u;
	rows++;
}

int main(int argc, char **argv)
{
	static char buf[1 << 16];
	struct csv_parser p;
	size_t n;
	FILE *f;

	if (argc != 2 || (f = fopen(argv[1], "rb")) == NULL) {
		fprintf(stderr, "usage: csv-bare FILE.csv\n");
		return 2;
	}
	if (csv_init(&p, CSV_APPEND_NULL) != 0)
		return 1;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (csv_parse(&p, buf, n, on_field, on_row, NULL) != n)
			return 1;
	csv_fini(&p, on_field, on_row, NULL);
	csv_free(&p);
	fclose(f);
	printf("%zu fields, %zu rows\n", fields, rows);
	return 0;
}
