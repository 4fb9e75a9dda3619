// SPDX-License-Identifier: GPL-2.0
/* Unit tests of chmu-exporter's exposition formats and negotiation. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "../../tools/lib/metrics.h"

static struct mx_labels inst_labels(void)
{
	struct mx_labels l;

	mx_labels_init(&l);
	mx_label(&l, "memdev", "mem%d", 0);
	mx_label(&l, "chmu", "%d", 0);
	mx_label(&l, "inst", "%d", 1);
	return l;
}

static void render(struct mx_buf *b)
{
	struct mx_labels l = inst_labels(), e;
	/* counts 1 (b0), 2 and 3 (b1), 100 (b6), 5000 (b12) */
	uint64_t hist[64] = { [0] = 1, [1] = 2, [6] = 1, [12] = 1 };

	mx_family(b, "chmu_hotlist_entries", MX_COUNTER,
		  "Hotlist entries drained.");
	mx_sample_u64(b, &l, 5);
	mx_family(b, "chmu_epoch_hot_units", MX_GAUGE, "Hot units\nper node.");
	e = l;
	mx_label(&e, "node", "%d", 1);
	mx_sample(b, &e, 3);
	mx_sample(b, NULL, 0.25);
	mx_family(b, "chmu_entry_count", MX_HISTOGRAM, "Counts of entries.");
	mx_histogram_log2(b, &l, hist, 64, 4, 1 + 2 + 3 + 100 + 5000);
	mx_family(b, "chmu_exporter_build", MX_INFO, "Build \"info\".");
	mx_labels_init(&e);
	mx_label(&e, "version", "a\"b\\c");
	mx_sample(b, &e, 0);
	mx_finish(b);
}

static void test_prometheus(void)
{
	static const char want[] =
		"# HELP chmu_hotlist_entries_total Hotlist entries drained.\n"
		"# TYPE chmu_hotlist_entries_total counter\n"
		"chmu_hotlist_entries_total{memdev=\"mem0\",chmu=\"0\",inst=\"1\"} 5\n"
		"# HELP chmu_epoch_hot_units Hot units\\nper node.\n"
		"# TYPE chmu_epoch_hot_units gauge\n"
		"chmu_epoch_hot_units{memdev=\"mem0\",chmu=\"0\",inst=\"1\",node=\"1\"} 3\n"
		"chmu_epoch_hot_units 0.25\n"
		"# HELP chmu_entry_count Counts of entries.\n"
		"# TYPE chmu_entry_count histogram\n"
		"chmu_entry_count_bucket{memdev=\"mem0\",chmu=\"0\",inst=\"1\",le=\"1\"} 1\n"
		"chmu_entry_count_bucket{memdev=\"mem0\",chmu=\"0\",inst=\"1\",le=\"3\"} 3\n"
		"chmu_entry_count_bucket{memdev=\"mem0\",chmu=\"0\",inst=\"1\",le=\"7\"} 3\n"
		"chmu_entry_count_bucket{memdev=\"mem0\",chmu=\"0\",inst=\"1\",le=\"15\"} 3\n"
		"chmu_entry_count_bucket{memdev=\"mem0\",chmu=\"0\",inst=\"1\",le=\"+Inf\"} 5\n"
		"chmu_entry_count_sum{memdev=\"mem0\",chmu=\"0\",inst=\"1\"} 5106\n"
		"chmu_entry_count_count{memdev=\"mem0\",chmu=\"0\",inst=\"1\"} 5\n"
		"# HELP chmu_exporter_build_info Build \"info\".\n"
		"# TYPE chmu_exporter_build_info gauge\n"
		"chmu_exporter_build_info{version=\"a\\\"b\\\\c\"} 1\n";
	struct mx_buf b;

	mx_init(&b, MX_PROMETHEUS);
	render(&b);
	CHECK(!b.oom);
	CHECK(b.data && !strcmp(b.data, want));
	if (b.data && strcmp(b.data, want))
		fprintf(stderr, "got:\n%s", b.data);
	mx_free(&b);
}

static void test_openmetrics(void)
{
	static const char want[] =
		"# HELP chmu_hotlist_entries Hotlist entries drained.\n"
		"# TYPE chmu_hotlist_entries counter\n"
		"chmu_hotlist_entries_total{memdev=\"mem0\",chmu=\"0\",inst=\"1\"} 5\n";
	static const char bucket[] =
		"chmu_entry_count_bucket{memdev=\"mem0\",chmu=\"0\",inst=\"1\",le=\"3.0\"} 3\n";
	static const char info[] =
		"# HELP chmu_exporter_build Build \\\"info\\\".\n"
		"# TYPE chmu_exporter_build info\n"
		"chmu_exporter_build_info{version=\"a\\\"b\\\\c\"} 1\n# EOF\n";
	struct mx_buf b;

	mx_init(&b, MX_OPENMETRICS);
	render(&b);
	CHECK(!b.oom);
	CHECK(!strncmp(b.data, want, strlen(want)));
	CHECK(strstr(b.data, bucket));
	CHECK(strstr(b.data, info));
	/* ends with the EOF marker, once */
	CHECK(strlen(b.data) > 6 && !strcmp(b.data + strlen(b.data) - 6, "# EOF\n"));
	CHECK(strstr(b.data, "# EOF") == b.data + strlen(b.data) - 6);
	if (b.data && strncmp(b.data, want, strlen(want)))
		fprintf(stderr, "got:\n%s", b.data);
	mx_free(&b);
}

static void test_negotiate(void)
{
	CHECK(mx_negotiate(NULL) == MX_PROMETHEUS);
	CHECK(mx_negotiate("") == MX_PROMETHEUS);
	CHECK(mx_negotiate("*/*") == MX_PROMETHEUS);
	CHECK(mx_negotiate("text/plain;version=0.0.4") == MX_PROMETHEUS);
	/* what Prometheus 2.42 sends */
	CHECK(mx_negotiate("application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1") == MX_OPENMETRICS);
	CHECK(mx_negotiate("text/plain, Application/OpenMetrics-Text; version=1.0.0") == MX_OPENMETRICS);
	CHECK(mx_negotiate("application/openmetrics-text; q=0") == MX_PROMETHEUS);
	CHECK(mx_negotiate("application/openmetrics-textual") == MX_PROMETHEUS);
	/* quality decides, whatever the order; Q= in any case */
	CHECK(mx_negotiate("text/plain;q=1, application/openmetrics-text;q=0.1") == MX_PROMETHEUS);
	CHECK(mx_negotiate("text/plain;q=0.2, application/openmetrics-text;Q=0.9") == MX_OPENMETRICS);
	CHECK(mx_negotiate("*/*;q=0.8, application/openmetrics-text; version=1.0.0; q=0.5") == MX_PROMETHEUS);
	CHECK(mx_negotiate("application/openmetrics-text;version=1.0.0;q=0.5,text/*;q=0.5") == MX_OPENMETRICS);
	CHECK(mx_negotiate("application/json") == MX_PROMETHEUS);
}

static void test_large(void)
{
	struct mx_buf b;
	struct mx_labels l;
	int i;

	/* many series grow the buffer without loss */
	mx_init(&b, MX_PROMETHEUS);
	mx_family(&b, "chmu_region_counts", MX_COUNTER, "x");
	for (i = 0; i < 5000; i++) {
		mx_labels_init(&l);
		mx_label(&l, "dpa", "0x%llx", (unsigned long long)i << 21);
		mx_sample_u64(&b, &l, i);
	}
	CHECK(!b.oom);
	CHECK(strstr(b.data, "chmu_region_counts_total{dpa=\"0x7d000000\"} 1000\n"));
	CHECK(b.len == strlen(b.data));
	mx_free(&b);
	/* a value beyond 2^53 and a fraction keep their digits */
	mx_init(&b, MX_PROMETHEUS);
	mx_family(&b, "g", MX_GAUGE, "x");
	mx_sample(&b, NULL, 1e300);
	mx_sample(&b, NULL, 0.1);
	mx_sample_u64(&b, NULL, 18446744073709551615ULL);
	CHECK(strstr(b.data, "g 1.0000000000000001e+300\n"));
	CHECK(strstr(b.data, "g 0.10000000000000001\n"));
	CHECK(strstr(b.data, "g 18446744073709551615\n"));
	mx_free(&b);
}

static void test_listen(void)
{
	char h[64];
	unsigned int port;

	CHECK(!mx_parse_listen("127.0.0.1:9", "127.0.0.1", 9849, h, sizeof(h), &port) &&
	      !strcmp(h, "127.0.0.1") && port == 9);
	CHECK(!mx_parse_listen("0.0.0.0", "127.0.0.1", 9849, h, sizeof(h), &port) &&
	      !strcmp(h, "0.0.0.0") && port == 9849);
	CHECK(!mx_parse_listen(":8080", "127.0.0.1", 9849, h, sizeof(h), &port) &&
	      !strcmp(h, "127.0.0.1") && port == 8080);
	CHECK(!mx_parse_listen("[::1]:9100", "127.0.0.1", 9849, h, sizeof(h), &port) &&
	      !strcmp(h, "::1") && port == 9100);
	CHECK(!mx_parse_listen("[::]", "127.0.0.1", 9849, h, sizeof(h), &port) &&
	      !strcmp(h, "::") && port == 9849);
	CHECK(!mx_parse_listen("localhost:65535", "x", 1, h, sizeof(h), &port) &&
	      !strcmp(h, "localhost") && port == 65535);
	CHECK(mx_parse_listen("", "x", 1, h, sizeof(h), &port) == -EINVAL);
	CHECK(mx_parse_listen("a:0", "x", 1, h, sizeof(h), &port) == -EINVAL);
	CHECK(mx_parse_listen("a:65536", "x", 1, h, sizeof(h), &port) == -EINVAL);
	CHECK(mx_parse_listen("a:", "x", 1, h, sizeof(h), &port) == -EINVAL);
	CHECK(mx_parse_listen("a:12x", "x", 1, h, sizeof(h), &port) == -EINVAL);
	CHECK(mx_parse_listen("::1:80", "x", 1, h, sizeof(h), &port) == -EINVAL);
	CHECK(mx_parse_listen("[::1", "x", 1, h, sizeof(h), &port) == -EINVAL);
	CHECK(mx_parse_listen("[]:80", "x", 1, h, sizeof(h), &port) == -EINVAL);
	CHECK(mx_parse_listen("[::1]x", "x", 1, h, sizeof(h), &port) == -EINVAL);
	CHECK(mx_parse_listen("averyveryveryveryveryveryveryveryveryveryveryveryveryverylonghostname:1",
			      "x", 1, h, sizeof(h), &port) == -EINVAL);
}

static void test_window(void)
{
	const uint64_t s = 1000000000ULL;

	/* 5 units posted in window 10 ([10 s, 11 s)) */
	CHECK(mx_window_value(10, 5, 9, 0, 10 * s + 5, s) == 0);	/* still open */
	CHECK(mx_window_value(10, 5, 9, 0, 11 * s, s) == 5);	/* just complete */
	CHECK(mx_window_value(10, 5, 9, 0, 12 * s - 1, s) == 5);
	CHECK(mx_window_value(10, 5, 9, 0, 12 * s, s) == 0);	/* a window with none */
	/* then 2 in window 11: while 11 is open, 10's 5 are the last */
	CHECK(mx_window_value(11, 2, 10, 5, 11 * s + 3, s) == 5);
	CHECK(mx_window_value(11, 2, 10, 5, 12 * s + 3, s) == 2);
	/* a gap: 13 open, previous data from 11 is not the last window */
	CHECK(mx_window_value(13, 4, 11, 2, 13 * s + 1, s) == 0);
	CHECK(mx_window_value(1, 1, 0, 0, 0, s) == 0);
	CHECK(mx_window_value(1, 1, 0, 0, 5, 0) == 0);
}

int main(void)
{
	test_window();
	test_listen();
	test_prometheus();
	test_openmetrics();
	test_negotiate();
	test_large();
	return check_report("test_metrics");
}
