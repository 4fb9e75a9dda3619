// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF tools' runtime with a tool that does not include
 * chmuowner.bpf.h (issue 47, defect 5): its owner handles stay zeroed,
 * and preparing attribution must neither dereference them nor pretend to
 * attribute: off, it succeeds with no names; asked for, it refuses with
 * a reason.
 */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "../../tools/lib/chmubpf.h"

int main(void)
{
	struct chmu_owner_bpf none;
	struct owner_names *names = (struct owner_names *)&none;
	bool drain = false;

	memset(&none, 0, sizeof(none));
	CHECK(chmu_owner_prepare("tool", &none, false, &drain, &names));
	CHECK(!names && !drain);
	names = (struct owner_names *)&none;
	CHECK(!chmu_owner_prepare("tool", &none, true, &drain, &names));
	CHECK(!names && !drain);
	return check_report("test_runtime");
}
