// SPDX-License-Identifier: GPL-2.0
/*
 * chmu-score: how well a hot-set report matches a known ground truth.
 *
 *   chmu-score [-k K] [-u UNIT] TRUTH REPORT
 *
 * TRUTH has one "ADDR COUNT" line per unit (chmu-workload zipf --truth).
 * REPORT has "ADDR SCORE" lines (one unit each: a CHMU count) and/or
 * "START END SCORE" lines (an address range: a DAMON region's
 * nr_accesses, spread over the units it covers; repeated ranges, such as
 * several snapshots, add up). Numbers are decimal or 0x-hex; '#' starts a
 * comment. Prints key=value lines: the hot-set sizes of K (the K hottest;
 * ties in no address order, see tools/lib/score.h), how many reported
 * units tie at the boundary, hits, recall, precision, and the share of
 * all true accesses the reported and the ideal hot sets hold, and their
 * ratio (M5's access-count ratio, from the unrounded shares).
 */
#include <argp.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/memspec.h"
#include "lib/score.h"

const char *argp_program_version = "chmu-score 0.1";

static struct env {
	uint64_t k;
	uint64_t unit;
	const char *files[2];
} env = { .k = 64, .unit = 4096 };

static const struct argp_option opts[] = {
	{ "top", 'k', "K", 0, "Size of the hot set compared (default 64)", 0 },
	{ "unit-size", 'u', "SIZE", 0, "Unit size (default 4096)", 0 },
	{ 0 },
};

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'k':
		if (parse_size(arg, &env.k) || !env.k)
			argp_error(state, "invalid K '%s'", arg);
		break;
	case 'u':
		if (parse_size(arg, &env.unit) || !env.unit ||
		    (env.unit & (env.unit - 1)))
			argp_error(state, "invalid unit size '%s' (a power of two)", arg);
		break;
	case ARGP_KEY_ARG:
		if (state->arg_num >= 2)
			argp_usage(state);
		env.files[state->arg_num] = arg;
		break;
	case ARGP_KEY_END:
		if (state->arg_num != 2)
			argp_error(state, "give TRUTH and REPORT files");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

/* Read @path into @s; @ranges allows "START END SCORE" lines. 0 or 1. */
static int load(const char *path, struct score_set *s, int ranges)
{
	char line[256];
	unsigned int ln = 0;
	FILE *f = fopen(path, "r");
	int err = 0;

	if (!f) {
		fprintf(stderr, "chmu-score: %s: %s\n", path, strerror(errno));
		return 1;
	}
	while (!err && fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '#'), *tok[4], *save = NULL, *end;
		uint64_t v[3];
		double score;
		int n = 0;

		ln++;
		if (p)
			*p = 0;
		for (p = strtok_r(line, " \t\n", &save); p && n < 4;
		     p = strtok_r(NULL, " \t\n", &save))
			tok[n++] = p;
		if (!n)
			continue;
		if (n > 3 || n < 2 || (n == 3 && !ranges))
			goto bad;
		for (int i = 0; i < n - 1; i++) {
			errno = 0;
			v[i] = strtoull(tok[i], &end, 0);
			if (errno || *end || tok[i][0] == '-')
				goto bad;
		}
		errno = 0;
		score = strtod(tok[n - 1], &end);
		if (errno || *end || !(score >= 0))
			goto bad;
		if (n == 2)
			err = score_add(s, v[0], score, env.unit);
		else if (v[1] <= v[0])
			goto bad;
		else
			err = score_add_range(s, v[0], v[1], score, env.unit);
		if (err) {
			fprintf(stderr, "chmu-score: %s: %s\n", path, strerror(-err));
			err = 1;
		}
		continue;
bad:
		fprintf(stderr, "chmu-score: %s:%u: expected %s\n", path, ln,
			ranges ? "ADDR SCORE or START END SCORE (START < END)" :
				 "ADDR COUNT");
		err = 1;
	}
	if (!err && ferror(f)) {
		fprintf(stderr, "chmu-score: %s: read error\n", path);
		err = 1;
	}
	fclose(f);
	return err;
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.args_doc = "TRUTH REPORT",
		.doc = "Recall and precision of a hot-set report against a ground truth.\v"
		       "Example:\n"
		       "  chmu-workload zipf --node 1 --size 16M --accesses 4M --truth truth\n"
		       "  chmutop -b -j -s sum ... | jq ... > report\n"
		       "  chmu-score -k 64 truth report",
	};
	struct score_set truth = { 0 }, rep = { 0 };
	struct score_result r;
	int err;

	argp_err_exit_status = 1;
	if (argp_parse(&argp, argc, argv, 0, NULL, NULL))
		return 1;
	err = load(env.files[0], &truth, 0) || load(env.files[1], &rep, 1);
	if (!err && !truth.n) {
		fprintf(stderr, "chmu-score: %s: no units\n", env.files[0]);
		err = 1;
	}
	if (!err && score_compare(&truth, &rep, env.k, &r)) {
		fprintf(stderr, "chmu-score: %s\n", strerror(ENOMEM));
		err = 1;
	}
	if (!err)
		printf("k=%zu\ntruth=%zu\nreported=%zu\ntied=%zu\nhits=%zu\n"
		       "recall=%.3f\nprecision=%.3f\ncaptured=%.3f\nideal=%.3f\n"
		       "ratio=%.3f\n",
		       r.k, r.truth, r.reported, r.tied, r.hits, r.recall,
		       r.precision, r.captured, r.ideal,
		       r.ideal > 0 ? r.captured / r.ideal : 0.0);
	score_free(&truth);
	score_free(&rep);
	return err;
}
