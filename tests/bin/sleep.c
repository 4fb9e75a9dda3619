// SPDX-License-Identifier: GPL-2.0
/*
 * sleep(1) for the guest test suite: sleeps as coreutils' sleep does and,
 * when it sleeps a fixed wait (0.25 s or more) to its end, appends the
 * seconds it slept to the file named by $SLEEP_TALLY. Shorter sleeps are
 * the pauses of loops that poll for a condition, and are not counted.
 * tests/guest-suite.sh puts it first on a test's PATH and sums the file
 * into the test's fixed waits (tests/run's closing summary). It is found by name, so a test's "sleep 600 &" is
 * still one process whose command line reads "sleep 600". Arguments it
 * does not parse (--help, --version, a malformed number) go to coreutils'
 * sleep unchanged.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The shortest sleep counted as a fixed wait, in seconds */
#define FIXED_WAIT 0.25

/* One operand as coreutils reads it: a number and an optional unit. */
static int parse_interval(const char *s, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno == ERANGE || v < 0 || isnan(v))
		return -1;
	if (*end) {
		if (end[1])
			return -1;
		switch (*end) {
		case 's': break;
		case 'm': v *= 60; break;
		case 'h': v *= 3600; break;
		case 'd': v *= 86400; break;
		default: return -1;
		}
	}
	*out = v;
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void coreutils(char **argv)
{
	execv("/bin/sleep", argv);
	perror("sleep: /bin/sleep");
	exit(125);
}

int main(int argc, char **argv)
{
	double total = 0, v, t0;
	struct timespec req, rem;
	const char *tally;
	char line[64];
	int i, fd, n;

	if (argc < 2)
		coreutils(argv);
	for (i = 1; i < argc; i++) {
		if (parse_interval(argv[i], &v))
			coreutils(argv);
		total += v;
	}
	if (total > 1e9)	/* "infinity" and friends: no tally to keep */
		coreutils(argv);
	req.tv_sec = (time_t)total;
	req.tv_nsec = (long)((total - req.tv_sec) * 1e9);
	t0 = now();
	while (nanosleep(&req, &rem)) {
		if (errno != EINTR)
			return 1;
		req = rem;
	}
	tally = getenv("SLEEP_TALLY");
	if (!tally || !*tally || total < FIXED_WAIT)
		return 0;
	fd = open(tally, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return 0;	/* the accounting is best effort, the sleep is not */
	n = snprintf(line, sizeof(line), "%.6f\n", now() - t0);
	if (write(fd, line, n) != n) {
		/* a lost line only shortens the tally */
	}
	close(fd);
	return 0;
}
