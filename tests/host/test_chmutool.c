// SPDX-License-Identifier: GPL-2.0
/* Unit tests of the toolkit's shared argument parsing and output helpers. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "../../tools/lib/chmutool.h"

static void test_parse(void)
{
	int m, c, i;
	uint64_t sz;

	CHECK(chmu_parse_memdev("mem0", &m) == 0 && m == 0);
	CHECK(chmu_parse_memdev("mem12", &m) == 0 && m == 12);
	CHECK(chmu_parse_memdev("mem", &m) == -EINVAL);
	CHECK(chmu_parse_memdev("0", &m) == -EINVAL);
	CHECK(chmu_parse_memdev("mem1x", &m) == -EINVAL);
	CHECK(chmu_parse_instance("0.0", &c, &i) == 0 && c == 0 && i == 0);
	CHECK(chmu_parse_instance("1.3", &c, &i) == 0 && c == 1 && i == 3);
	CHECK(chmu_parse_instance("1", &c, &i) == -EINVAL);
	CHECK(chmu_parse_instance("1.", &c, &i) == -EINVAL);
	CHECK(chmu_parse_instance(".1", &c, &i) == -EINVAL);
	CHECK(chmu_parse_instance("1.2.3", &c, &i) == -EINVAL);
	CHECK(chmu_parse_instance("256.0", &c, &i) == -EINVAL);
	CHECK(chmu_parse_size("256M", &sz) == 0 && sz == 256ULL << 20);
	CHECK(chmu_parse_size("4k", &sz) == 0 && sz == 4096);
	CHECK(chmu_parse_size("x", &sz) == -EINVAL);
}

/*
 * Numbers on the command line are decimal: a leading zero is not octal
 * ("010" is ten, as a user means it), "0x" is not hex; no blanks or signs
 * strtol would skip or take.
 */
static void test_parse_decimal(void)
{
	long long v;
	uint64_t sz;
	double d;

	CHECK(chmu_parse_num("010", &v) == 0 && v == 10);
	CHECK(chmu_parse_num("09", &v) == 0 && v == 9);
	CHECK(chmu_parse_num("0", &v) == 0 && v == 0);
	CHECK(chmu_parse_num("-1", &v) == 0 && v == -1);
	CHECK(chmu_parse_num("0x10", &v) == -EINVAL);
	CHECK(chmu_parse_num(" 5", &v) == -EINVAL);
	CHECK(chmu_parse_num("+5", &v) == -EINVAL);
	CHECK(chmu_parse_num("5 ", &v) == -EINVAL);
	CHECK(chmu_parse_num("", &v) == -EINVAL);
	CHECK(chmu_parse_num("-", &v) == -EINVAL);
	CHECK(chmu_parse_num("99999999999999999999", &v) == -EINVAL);
	CHECK(chmu_parse_size("010K", &sz) == 0 && sz == 10240);
	CHECK(chmu_parse_size("0100", &sz) == 0 && sz == 100);
	CHECK(chmu_parse_size("0x1000", &sz) == -EINVAL);
	CHECK(chmu_parse_secs("010", &d) == 0 && d == 10);
	CHECK(chmu_parse_secs("1.5", &d) == 0 && d == 1.5);
	CHECK(chmu_parse_secs("0.001", &d) == 0 && d == 0.001);
	CHECK(chmu_parse_secs("2.", &d) == 0 && d == 2);
	CHECK(chmu_parse_secs("-1", &d) == 0 && d == -1);
	CHECK(chmu_parse_secs("0x10", &d) == -EINVAL);
	CHECK(chmu_parse_secs("1e3", &d) == -EINVAL);
	CHECK(chmu_parse_secs("inf", &d) == -EINVAL);
	CHECK(chmu_parse_secs("nan", &d) == -EINVAL);
	CHECK(chmu_parse_secs(".5", &d) == -EINVAL);
	CHECK(chmu_parse_secs(" 1", &d) == -EINVAL);
}

static void test_select(void)
{
	struct chmu_inst v[4] = {};
	int k;

	v[0].memdev = 0; v[0].chmu = 0; v[0].inst = 0;
	v[1].memdev = 0; v[1].chmu = 0; v[1].inst = 1;
	v[2].memdev = 0; v[2].chmu = 1; v[2].inst = 0;
	v[3].memdev = 1; v[3].chmu = 0; v[3].inst = 0;
	k = chmu_select(v, 4, -1, -1, -1);
	CHECK(k == 4);
	k = chmu_select(v, 4, 0, 0, 1);
	CHECK(k == 1 && v[0].inst == 1);
	v[0].memdev = 0; v[0].chmu = 0; v[0].inst = 0;
	v[1].memdev = 1;
	k = chmu_select(v, 4, 1, -1, -1);
	CHECK(k == 2);
	CHECK(CHMU_INST_ID(1, 2, 3) == 0x10203);
	CHECK(CHMU_ID_MEMDEV(0x10203) == 1 && CHMU_ID_CHMU(0x10203) == 2 &&
	      CHMU_ID_INST(0x10203) == 3);
}

static void test_settings(void)
{
	struct chmu_settings s;

	chmu_settings_init(&s);
	CHECK(!chmu_settings_given(&s));
	s.threshold = 5;
	CHECK(chmu_settings_given(&s));
	chmu_settings_init(&s);
	s.mode = "epoch";
	CHECK(chmu_settings_given(&s));
}

static void test_output(void)
{
	char *buf = NULL, sz[32];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct timespec ts;
	double before;
	double when;

	chmu_json_begin_at(f, "alert", 1764790802.123456);
	chmu_json_str(f, "instance", "mem0.0.0");
	chmu_json_str(f, "note", "a \"quoted\" \\ line\n");
	chmu_json_u64(f, "dpa", 4096);
	chmu_json_i64(f, "nid", -1);
	chmu_json_end(f);
	fclose(f);
	CHECK(!strcmp(buf, "{\"version\":1,\"type\":\"alert\",\"time\":1764790802.123456,"
		      "\"instance\":\"mem0.0.0\","
		      "\"note\":\"a \\\"quoted\\\" \\\\ line\\u000a\",\"dpa\":4096,\"nid\":-1}\n"));
	free(buf);
	/* every record has the time it was written */
	buf = NULL;
	f = open_memstream(&buf, &len);
	/*
	 * The clock the records use: time() reads the coarse one, which at a
	 * second's turn can be a second ahead of it (this check failed so)
	 */
	clock_gettime(CLOCK_REALTIME, &ts);
	before = ts.tv_sec + ts.tv_nsec / 1e9;
	chmu_json_begin(f, "summary");
	chmu_json_end(f);
	fclose(f);
	clock_gettime(CLOCK_REALTIME, &ts);
	CHECK(sscanf(buf, "{\"version\":1,\"type\":\"summary\",\"time\":%lf}", &when) == 1);
	/* printed to the microsecond: rounded to it either way */
	CHECK(when >= before - 1e-6 && when <= ts.tv_sec + ts.tv_nsec / 1e9 + 1e-6);
	free(buf);
	CHECK(!strcmp(chmu_fmt_size(256ULL << 20, sz, sizeof(sz)), "256 MiB"));
	CHECK(!strcmp(chmu_fmt_size(4096, sz, sizeof(sz)), "4 KiB"));
	CHECK(!strcmp(chmu_fmt_size(1000, sz, sizeof(sz)), "1000 B"));
	CHECK(!strcmp(chmu_fmt_size(3ULL << 30, sz, sizeof(sz)), "3 GiB"));
}

static void put(const char *dir, const char *attr, const char *val)
{
	char p[700];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, attr);
	f = fopen(p, "w");
	if (f) {
		fputs(val, f);
		fclose(f);
	}
}

static int is(const char *dir, const char *attr, const char *val)
{
	char p[700], buf[64] = "";
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, attr);
	f = fopen(p, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return !strcmp(buf, val);
}

/*
 * --enable writes the configuration it was given, then enable; restoring
 * disables and puts every value it wrote back, also when enabling failed
 * half way (an instance directory stands in for sysfs).
 */
static void test_enable_restore(void)
{
	char dir[] = "/tmp/chmu-test-XXXXXX", why[256], p[700];
	struct chmu_settings s;
	struct chmu_inst in;

	CHECK(mkdtemp(dir) != NULL);
	put(dir, "hotlist_size", "1024\n");
	put(dir, "modes", "epoch always-on\n");
	put(dir, "mode", "epoch\n");
	put(dir, "threshold", "3\n");
	put(dir, "epoch_us", "100000\n");
	put(dir, "unit_shift", "12\n");
	put(dir, "enable", "0\n");
	memset(&in, 0, sizeof(in));
	snprintf(in.path, sizeof(in.path), "%s", dir);
	chmu_settings_init(&in.restore);
	CHECK(chmu_inst_read(&in) == 0);

	chmu_settings_init(&s);
	s.threshold = 7;
	s.mode = "always-on";
	CHECK(chmu_inst_enable(&in, &s, why, sizeof(why)) == 0);
	CHECK(is(dir, "threshold", "7") && is(dir, "mode", "always-on") && is(dir, "enable", "1"));
	CHECK(is(dir, "epoch_us", "100000\n") || is(dir, "epoch_us", "100000"));
	chmu_inst_restore(&in);
	CHECK(is(dir, "enable", "0") && is(dir, "threshold", "3") && is(dir, "mode", "epoch"));
	CHECK(is(dir, "unit_shift", "12"));

	/* enable refused (here: not writable): the settings go back too */
	CHECK(chmu_inst_read(&in) == 0);
	snprintf(p, sizeof(p), "%s/enable", dir);
	unlink(p);
	CHECK(mkdir(p, 0755) == 0);
	CHECK(chmu_inst_enable(&in, &s, why, sizeof(why)) != 0);
	CHECK(strstr(why, "enable refused") != NULL);
	CHECK(is(dir, "threshold", "3") && is(dir, "mode", "epoch"));
	rmdir(p);

	/*
	 * Enabled, then the instance cannot be read back (gone meanwhile):
	 * a reason, and the instance disabled with its settings put back
	 */
	put(dir, "enable", "0\n");
	snprintf(in.name, sizeof(in.name), "mem9.0.0");
	CHECK(chmu_inst_read(&in) == 0);
	snprintf(p, sizeof(p), "%s/hotlist_size", dir);
	unlink(p);
	CHECK(mkdir(p, 0755) == 0);	/* unreadable from now on */
	memset(why, 'x', sizeof(why));
	why[sizeof(why) - 1] = '\0';
	CHECK(chmu_inst_enable(&in, &s, why, sizeof(why)) == -ENODEV);
	CHECK(!strcmp(why, "mem9.0.0: cannot read it back after enabling it: No such device"));
	CHECK(is(dir, "enable", "0") && is(dir, "threshold", "3") && is(dir, "mode", "epoch"));
	CHECK(!in.we_enabled);
	rmdir(p);
	snprintf(p, sizeof(p), "rm -rf %s", dir);
	CHECK(system(p) == 0);
}

/* Measured values are never printed in exponent form. */
static void test_fmt_num(void)
{
	char b[64];

	CHECK(!strcmp(chmu_fmt_num(1234567, b, sizeof(b)), "1234567"));
	CHECK(!strcmp(chmu_fmt_num(4294967295.0, b, sizeof(b)), "4294967295"));
	CHECK(!strcmp(chmu_fmt_num(1e15, b, sizeof(b)), "1000000000000000"));
	CHECK(!strcmp(chmu_fmt_num(2500000.25, b, sizeof(b)), "2500000.25"));
	CHECK(!strcmp(chmu_fmt_num(0.5, b, sizeof(b)), "0.5"));
	CHECK(!strcmp(chmu_fmt_num(1.0 / 3, b, sizeof(b)), "0.333333"));
	CHECK(!strcmp(chmu_fmt_num(100, b, sizeof(b)), "100"));
	CHECK(!strcmp(chmu_fmt_num(0, b, sizeof(b)), "0"));
	CHECK(!strcmp(chmu_fmt_num(-0.0, b, sizeof(b)), "0"));
	CHECK(!strcmp(chmu_fmt_num(-2.5, b, sizeof(b)), "-2.5"));
}

static volatile sig_atomic_t stopped;

static void on_stop(int sig)
{
	(void)sig;
	stopped = 1;
}

/*
 * A signal that ends the run and arrives between the check and the sleep
 * (here: before the call, while blocked outside the sleep as the tools
 * keep it) ends the sleep at once, not after it. 20 s are not slept.
 */
static void test_sleep_signal(void)
{
	struct sigaction sa = { .sa_handler = on_stop };
	sigset_t block, wait;
	uint64_t t0;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&block);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &wait);
	sigdelset(&wait, SIGTERM);
	/* a short sleep with no signal: slept, not stopped */
	t0 = chmu_now_ns();
	CHECK(!chmu_sleep_until(t0 + 1000000, &wait, &stopped));
	CHECK(chmu_now_ns() >= t0 + 1000000);
	/* the signal comes after the last check: pending, delivered in the sleep */
	kill(getpid(), SIGTERM);
	t0 = chmu_now_ns();
	CHECK(chmu_sleep_until(t0 + 20000000000ULL, &wait, &stopped));
	CHECK(stopped && chmu_now_ns() - t0 < 10000000000ULL);
	/* it came before: no sleep at all */
	t0 = chmu_now_ns();
	CHECK(chmu_sleep_until(t0 + 20000000000ULL, &wait, &stopped));
	CHECK(chmu_now_ns() - t0 < 10000000000ULL);
	sigprocmask(SIG_UNBLOCK, &block, NULL);
	signal(SIGTERM, SIG_DFL);
}

static void test_fmt_clock(void)
{
	char buf[16];

	setenv("TZ", "UTC", 1);
	tzset();
	CHECK(!strcmp(chmu_fmt_clock(3661, buf, sizeof(buf)), "01:01:01"));
	setenv("TZ", "UTC-2", 1);	/* two hours east of UTC */
	tzset();
	CHECK(!strcmp(chmu_fmt_clock(3661, buf, sizeof(buf)), "03:01:01"));
	CHECK(!strcmp(chmu_fmt_clock(3661, buf, 4), "--:"));	/* too small: cut, terminated */
	unsetenv("TZ");
	tzset();
}

int main(void)
{
	test_parse();
	test_parse_decimal();
	test_select();
	test_settings();
	test_output();
	test_fmt_num();
	test_fmt_clock();
	test_enable_restore();
	test_sleep_signal();
	return check_report("test_chmutool");
}
