// SPDX-License-Identifier: GPL-2.0
/*
 * chmu-tierstat: the verdict of paired tiering blocks (docs/bench.md,
 * "Tiering verdicts").
 *
 *   chmu-tierstat order ARMS BLOCK
 *       ARMS (comma-separated names) in the order block BLOCK (from 0)
 *       runs them: a Williams design (tools/lib/tierstat.h).
 *   chmu-tierstat paired [-j] CONTRAST... < RESULTS
 *       RESULTS has "BLOCK ARM KEY VALUE" lines ('#' starts a comment),
 *       e.g. "3 promoter regret 0.012". For each CONTRAST (A-B: arm A
 *       less arm B) and each KEY both arms have in a block: the number
 *       of blocks, the median of the paired differences, their min and
 *       max, the sign count (A above B, below, equal) and the one-sided
 *       sign test's p of that many blocks below, and above (a tie counts
 *       against either). -j: one JSON object a line.
 *   chmu-tierstat model SHARE [RATIO...]
 *       the throughput, relative to all-DRAM, of a run with SHARE of its
 *       accesses to a tier RATIO times slower (default 2 and 3: CXL's
 *       band), when every access costs its latency.
 */
#include <argp.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/tierstat.h"

const char *argp_program_version = "chmu-tierstat 0.1";

#define MAX_ARGS 64
#define NAME_MAX_LEN 64

static struct env {
	int json;
	const char *cmd;
	char *args[MAX_ARGS];
	int nr_args;
} env;

static const struct argp_option opts[] = {
	{ "json", 'j', NULL, 0, "paired: one JSON object a line", 0 },
	{ 0 },
};

static const char doc[] =
	"The verdict of paired tiering blocks.\v"
	"COMMAND is one of:\n"
	"  order ARMS BLOCK        the arms in block BLOCK's order (Williams design)\n"
	"  paired CONTRAST... <RESULTS  median, [min, max] and sign count of the\n"
	"                          paired differences per contrast (A-B) and key;\n"
	"                          RESULTS: \"BLOCK ARM KEY VALUE\" lines\n"
	"  model SHARE [RATIO...]  throughput relative to all-DRAM with SHARE of\n"
	"                          the accesses RATIO times slower (default 2 3)\n"
	"Examples:\n"
	"  chmu-tierstat order none,promoter,numab,damon 1\n"
	"  chmu-tierstat paired promoter-numab promoter-damon <blocks.txt\n"
	"  chmu-tierstat model 0.18";

static error_t parse_arg(int key, char *arg, struct argp_state *state)
{
	switch (key) {
	case 'j':
		env.json = 1;
		break;
	case ARGP_KEY_ARG:
		if (!env.cmd) {
			if (strcmp(arg, "order") && strcmp(arg, "paired") && strcmp(arg, "model"))
				argp_error(state, "unknown command '%s' (order, paired or model)", arg);
			env.cmd = arg;
			break;
		}
		if (env.nr_args == MAX_ARGS)
			argp_error(state, "more than %d arguments", MAX_ARGS);
		env.args[env.nr_args++] = arg;
		break;
	case ARGP_KEY_END:
		if (!env.cmd)
			argp_error(state, "no COMMAND given");
		if (!strcmp(env.cmd, "order") && env.nr_args != 2)
			argp_error(state, "order takes ARMS and BLOCK");
		if (!strcmp(env.cmd, "paired") && !env.nr_args)
			argp_error(state, "paired needs a CONTRAST (ARM-ARM)");
		if (!strcmp(env.cmd, "model") && !env.nr_args)
			argp_error(state, "model needs a SHARE");
		if (env.json && strcmp(env.cmd, "paired"))
			argp_error(state, "-j is for paired");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static int parse_num(const char *s, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || *end || end == s || !isfinite(*v) ? -EINVAL : 0;
}

static int do_order(void)
{
	char *names[64], *save = NULL, *tok;
	unsigned int order[64], k = 0, i;
	double block;

	for (tok = strtok_r(env.args[0], ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (k == 64) {
			fprintf(stderr, "chmu-tierstat: more than 64 arms\n");
			return 1;
		}
		names[k++] = tok;
	}
	if (parse_num(env.args[1], &block) || block < 0 || block != floor(block) ||
	    block > 1e9) {
		fprintf(stderr, "chmu-tierstat: invalid block '%s' (0, 1, ...)\n", env.args[1]);
		return 1;
	}
	if (!k || tier_williams(k, (unsigned int)block, order)) {
		fprintf(stderr, "chmu-tierstat: no arms in '%s'\n", env.args[0]);
		return 1;
	}
	for (i = 0; i < k; i++)
		printf("%s%s", i ? " " : "", names[order[i]]);
	printf("\n");
	return 0;
}

struct result {
	long block;
	char arm[NAME_MAX_LEN], key[NAME_MAX_LEN];
	double value;
};

static int read_results(FILE *f, struct result **out, size_t *n)
{
	struct result *v = NULL, r;
	size_t cap = 0, line = 0;
	char buf[512], *hash;
	double block;
	char bs[64];
	char extra;

	*n = 0;
	while (fgets(buf, sizeof(buf), f)) {
		char vs[64];

		line++;
		hash = strchr(buf, '#');
		if (hash)
			*hash = '\0';
		if (strspn(buf, " \t\r\n") == strlen(buf))
			continue;
		if (sscanf(buf, "%63s %63s %63s %63s %c", bs, r.arm, r.key, vs, &extra) != 4 ||
		    parse_num(bs, &block) || block != floor(block) || parse_num(vs, &r.value)) {
			fprintf(stderr, "chmu-tierstat: line %zu: not \"BLOCK ARM KEY VALUE\"\n", line);
			free(v);
			return -EINVAL;
		}
		r.block = (long)block;
		if (*n == cap) {
			struct result *nv;

			cap = cap ? 2 * cap : 64;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(v);
				return -ENOMEM;
			}
			v = nv;
		}
		v[(*n)++] = r;
	}
	*out = v;
	return 0;
}

/* @arm's @key in @block, or NULL */
static const struct result *find(const struct result *v, size_t n, long block,
				 const char *arm, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].block == block && !strcmp(v[i].arm, arm) && !strcmp(v[i].key, key))
			return &v[i];
	return NULL;
}

static int contrast(const struct result *v, size_t n, const char *a, const char *b)
{
	double *d = malloc((n ? n : 1) * sizeof(*d));
	int shown = 0;

	if (!d)
		return -ENOMEM;
	/* each key of arm a, in the order first seen */
	for (size_t i = 0; i < n; i++) {
		struct tier_paired p;
		size_t m = 0;
		bool first = true;

		if (strcmp(v[i].arm, a))
			continue;
		for (size_t j = 0; j < i; j++)
			if (!strcmp(v[j].arm, a) && !strcmp(v[j].key, v[i].key))
				first = false;
		if (!first)
			continue;
		for (size_t j = 0; j < n; j++) {
			const struct result *o;

			if (strcmp(v[j].arm, a) || strcmp(v[j].key, v[i].key))
				continue;
			o = find(v, n, v[j].block, b, v[i].key);
			if (o)
				d[m++] = v[j].value - o->value;
		}
		if (tier_paired(d, m, &p))
			continue;
		shown++;
		if (env.json)
			printf("{\"contrast\":\"%s-%s\",\"key\":\"%s\",\"blocks\":%zu,"
			       "\"median\":%.6g,\"min\":%.6g,\"max\":%.6g,"
			       "\"above\":%u,\"below\":%u,\"equal\":%u,"
			       "\"p_below\":%.4g,\"p_above\":%.4g}\n",
			       a, b, v[i].key, p.n, p.median, p.min, p.max,
			       p.pos, p.neg, p.zero, tier_sign_p(p.neg, p.n),
			       tier_sign_p(p.pos, p.n));
		else
			printf("%s-%s %s blocks=%zu median=%.6g min=%.6g max=%.6g "
			       "above=%u below=%u equal=%u p_below=%.4g p_above=%.4g\n",
			       a, b, v[i].key, p.n, p.median, p.min, p.max, p.pos,
			       p.neg, p.zero, tier_sign_p(p.neg, p.n),
			       tier_sign_p(p.pos, p.n));
	}
	free(d);
	return shown;
}

static int do_paired(void)
{
	struct result *v = NULL;
	size_t n;
	int i, err;

	err = read_results(stdin, &v, &n);
	if (err == -ENOMEM)
		fprintf(stderr, "chmu-tierstat: %s\n", strerror(ENOMEM));
	if (err)
		return err == -ENOMEM ? 2 : 1;
	for (i = 0; i < env.nr_args; i++) {
		char a[NAME_MAX_LEN], *b = strchr(env.args[i], '-');
		int shown;

		if (!b || b == env.args[i] || !b[1] || strchr(b + 1, '-') ||
		    (size_t)(b - env.args[i]) >= sizeof(a)) {
			fprintf(stderr, "chmu-tierstat: contrast '%s' is not ARM-ARM\n", env.args[i]);
			free(v);
			return 1;
		}
		memcpy(a, env.args[i], b - env.args[i]);
		a[b - env.args[i]] = '\0';
		shown = contrast(v, n, a, b + 1);
		if (shown < 0) {
			fprintf(stderr, "chmu-tierstat: %s\n", strerror(-shown));
			free(v);
			return 2;
		}
		if (!shown) {
			fprintf(stderr, "chmu-tierstat: %s: no block has both arms\n", env.args[i]);
			free(v);
			return 1;
		}
	}
	free(v);
	return 0;
}

static int do_model(void)
{
	static const char *const band[] = { "2", "3" };
	const char *const *ratios = env.nr_args > 1 ? (const char *const *)env.args + 1 : band;
	int i, n = env.nr_args > 1 ? env.nr_args - 1 : 2;
	double share, ratio;

	if (parse_num(env.args[0], &share) || share < 0 || share > 1) {
		fprintf(stderr, "chmu-tierstat: invalid share '%s' (0 to 1)\n", env.args[0]);
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (parse_num(ratios[i], &ratio) || ratio < 1) {
			fprintf(stderr, "chmu-tierstat: invalid ratio '%s' (1 or more)\n", ratios[i]);
			return 1;
		}
		printf("ratio=%g speed=%.4f\n", ratio, tier_model_speed(share, ratio));
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct argp argp = {
		.options = opts,
		.parser = parse_arg,
		.args_doc = "COMMAND [ARG...]",
		.doc = doc,
	};

	argp_err_exit_status = 1;
	if (argp_parse(&argp, argc, argv, 0, NULL, NULL))
		return 1;
	if (!strcmp(env.cmd, "order"))
		return do_order();
	if (!strcmp(env.cmd, "paired"))
		return do_paired();
	return do_model();
}
