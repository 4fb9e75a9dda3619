#!/bin/bash
# drain-goals.sh DRAIN.json: the cost goals' table rows (markdown) from
# the drain section's per-consumer medians (bench/guest-bench.sh drain):
# chmutop's drain at most 1.3x the bare drain per entry, chmuheat's at most
# 1.5x, and chmutop's CPU per entry (BPF and process) at most a third of
# the simplest bpftrace one-liner's. Ratios of the medians over the rounds.
set -euo pipefail
jq -r '
	def c(n): map(select(.consumer == n))[0];
	def f1: . * 10 | round / 10 | tostring;
	def f2: . * 100 | round / 100 | tostring;
	def yn(x): if x then "yes" else "no" end;
	def cpu: .bpf_ns_per_entry + .process_ns_per_entry;
	def drain($t; $bare; $goal):
		if $bare == null or $t == null then empty else
			($t.drain_ns_per_entry / $bare.drain_ns_per_entry) as $r |
			"| \($t.consumer) drain / bare drain <= \($goal) | \($t.drain_ns_per_entry | f1) / \($bare.drain_ns_per_entry | f1) ns = \($r | f2)x | \(yn($r <= $goal)) |"
		end;
	c("tracepoints disabled") as $bare |
	drain(c("chmutop"); $bare; 1.3),
	drain(c("chmuheat"); $bare; 1.5),
	(c("chmutop") as $t | c("bpftrace one-liner") as $b |
	 if $t == null or $b == null or ($b | cpu) <= 0 then empty else
		"| chmutop CPU / bpftrace one-liner CPU <= 1/3 | \($t | cpu | f1) / \($b | cpu | f1) ns = \(($t | cpu) / ($b | cpu) | f2) | \(yn(($t | cpu) * 3 <= ($b | cpu))) |"
	 end)' "$1"
