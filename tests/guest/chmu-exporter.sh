# chmu-exporter: a known workload (units 7 and 3 of the first 2 MiB region
# touched 300 and 100 times, unit 600 of the second 50 times; threshold 1,
# so every access lands in an entry whatever the epochs) seen through
# /metrics and through a real Prometheus scraping it every second: after a
# second run of the workload, the region counters rose by exactly its
# counts and the entry counter by the driver's entries (PromQL's @). The
# text format passes promtool check metrics; OpenMetrics when asked for;
# bad input exits 1 or 2 with one line; the per-node gauge of the latest
# posting (always-on mode: three units posted once each); the region cap
# counts what it drops; concurrent scrapes while a client stalls and
# another sends garbage, flat memory over 200 scrapes, unbind, rebind and
# region destruction under the daemon, SIGHUP, and SIGTERM ending it with
# status 0.
. tests/lib.sh
hmu_setup
eval "$(chmu-region create -m mem0 --devdax)"
PROM=$CHMU_CACHE/prometheus/usr/bin
[ -x "$PROM/prometheus" ] || fail "no prometheus at $PROM: run 'make deps'"
t=$(mktemp -d)
pids=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null || true; done
	wait 2>/dev/null || true
	echo 0 >"$HMU/enable" 2>/dev/null || true
	chmu-region destroy all >/dev/null 2>&1 || true
	rm -rf "$t"
}
trap cleanup EXIT
URL=http://127.0.0.1:9849/metrics

# metric NAME{LABELS}: its value in the exporter's text output ("" if absent)
metric() {
	curl -sf "$URL" | awk -v s="$1" '$1 == s { print $2 }'
}
# scrape: one scrape into M[NAME{LABELS}] (one curl for many checks)
declare -A M
scrape() {
	local k v
	M=()
	while read -r k v; do
		[ "${k:0:1}" = "#" ] || M[$k]=$v
	done < <(curl -sf "$URL")
}
# wait_metric SERIES VALUE: until the exporter shows VALUE (30 s at most)
wait_metric() {
	local i
	for i in $(seq 300); do
		[ "$(metric "$1")" = "$2" ] && return 0
		sleep 0.1
	done
	fail "$1 is '$(metric "$1")', never $2"
}
# prom_query EXPR: the value Prometheus returns for an instant query
prom_query() {
	local re='"value":\[[^],]*,"([^"]*)"\]' body
	body=$(curl -sf --get --data-urlencode "query=$1" http://127.0.0.1:9090/api/v1/query)
	[[ $body =~ $re ]] && echo "${BASH_REMATCH[1]}"
	return 0
}
wait_prom() { # wait_prom EXPR VALUE: until Prometheus answers VALUE (60 s)
	local i
	for i in $(seq 120); do
		[ "$(prom_query "$1")" = "$2" ] && return 0
		sleep 0.5
	done
	fail "Prometheus: $1 is '$(prom_query "$1")', never $2"
}
workload() {
	chmu-workload touch --dax "$DEV" --size 4M --units 7 --count 300 >/dev/null
	chmu-workload touch --dax "$DEV" --size 4M --units 3 --count 100 >/dev/null
	chmu-workload touch --dax "$DEV" --size 4M --units 600 --count 50 >/dev/null
}
I='memdev="mem0",chmu="0",inst="0"'

# Bad input: one line, exit 1 (usage) or 2 (environment).
rc=0; out=$(chmu-exporter -l nowhere:0 2>&1) || rc=$?
expect_eq "$rc:$(head -n 1 <<<"$out")" \
	"1:chmu-exporter: -l/--listen: invalid address 'nowhere:0' (ADDR:PORT, :PORT or [V6ADDR]:PORT)" "bad address"
rc=0; out=$(chmu-exporter -g 3M 2>&1) || rc=$?
expect_eq "$rc:$(head -n 1 <<<"$out")" \
	"1:chmu-exporter: granularity must be a power of two >= 256, not '3M'" "bad granularity"
rc=0; out=$(chmu-exporter 5 2>&1) || rc=$?
expect_eq "$rc:$(head -n 1 <<<"$out")" \
	"1:chmu-exporter: unexpected argument '5' (the exporter runs until SIGTERM)" "interval refused"
rc=0; out=$(chmu-exporter -m mem7 2>&1) || rc=$?
expect_eq "$rc:$out" "2:chmu-exporter: no CHMU instance matches the -m/-i selection" "no such instance"

# The daemon, started before the instance is enabled (a fleet's boot order).
chmu-exporter 2>"$t/exp.err" &
epid=$!
pids="$pids $epid"
for i in $(seq 100); do curl -sf "$URL" >/dev/null && break; sleep 0.1; done
rc=0; out=$(chmu-exporter 2>&1) || rc=$?
expect_eq "$rc:$out" "2:chmu-exporter: cannot listen on 127.0.0.1:9849: Address already in use" "port in use"

# Prometheus in the guest, scraping every second, data in a temporary dir.
cat >"$t/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: chmu
    static_configs:
      - targets: ['127.0.0.1:9849']
EOF
"$PROM/prometheus" --config.file="$t/prometheus.yml" --storage.tsdb.path="$t/data" \
	--web.listen-address=127.0.0.1:9090 >"$t/prom.log" 2>&1 &
ppid=$!
pids="$pids $ppid"
wait_prom 'up{job="chmu"}' 1

hmu_cfg mode=epoch threshold=1 epoch_us=1000000 fill_threshold=0 unit_shift=12 enable=1
workload
wait_metric "chmu_region_counts_total{$I,dpa=\"0x0\",node=\"-1\"}" 400
wait_metric "chmu_region_counts_total{$I,dpa=\"0x200000\",node=\"-1\"}" 50
entries=$(cat "$HMU/entries")
batches=$(cat "$HMU/batches")
scrape
expect_eq "${M[chmu_hotlist_entries_total{$I}]}" "$entries" "entries = the driver's"
expect_eq "${M[chmu_hotlist_batches_total{$I}]}" "$batches" "batches = the driver's"
expect_eq "${M[chmu_hotlist_lost_entries_total{$I}]}" "$(cat "$HMU/lost")" "lost = the driver's"
expect_eq "${M[chmu_entry_count_sum{$I}]}" 450 "histogram sum = the workload's accesses"
expect_eq "${M[chmu_entry_count_count{$I}]}" "$entries" "histogram count = entries"
expect_eq "${M[chmu_entry_count_bucket{$I,le=\"+Inf\"}]}" "$entries" "+Inf bucket"
e0=${M[chmu_region_entries_total{$I,dpa=\"0x0\",node=\"-1\"}]}
e2=${M[chmu_region_entries_total{$I,dpa=\"0x200000\",node=\"-1\"}]}
expect_eq "$e0 $e2" "$((entries - e2)) $e2" "region entries add up to the entries"
expect_eq "${M[chmu_region_dropped_entries_total{$I}]}" 0 "no region dropped"
expect_eq "${M[chmu_instance_up{$I}]}" 1 "instance up"
expect_eq "${M[chmu_config_enabled{$I}]} ${M[chmu_config_threshold{$I}]} ${M[chmu_config_unit_bytes{$I}]} ${M[chmu_config_epoch_seconds{$I}]}" \
	"1 1 4096 1" "configuration gauges"
expect_eq "${M[chmu_exporter_region_bytes]} ${M[chmu_exporter_region_series]} ${M[chmu_exporter_region_series_limit]}" \
	"2097152 2 4096" "region series"

# Through Prometheus: the counters rose by exactly the workload. The
# first run's totals, ingested by T0; the workload again; the increase
# from T0 is exactly one run's counts and the driver's new entries.
wait_prom "chmu_region_counts_total{dpa=\"0x0\"}" 400
wait_prom "chmu_region_counts_total{dpa=\"0x200000\"}" 50
wait_prom "chmu_hotlist_entries_total" "$entries"
T0=$(date +%s.%N)
sleep 1.1	# T0 is in the past for every later sample
workload
wait_metric "chmu_region_counts_total{$I,dpa=\"0x0\",node=\"-1\"}" 800
wait_metric "chmu_region_counts_total{$I,dpa=\"0x200000\",node=\"-1\"}" 100
entries2=$(cat "$HMU/entries")
wait_prom "chmu_hotlist_entries_total" "$entries2"
wait_prom "chmu_region_counts_total{dpa=\"0x200000\"}" 100
wait_prom "chmu_region_counts_total{dpa=\"0x0\"}" 800
expect_eq "$(prom_query "chmu_region_counts_total{dpa=\"0x0\"} - chmu_region_counts_total{dpa=\"0x0\"} @ $T0")" 400 \
	"Prometheus: region 0x0 rose by the workload's 400"
expect_eq "$(prom_query "chmu_region_counts_total{dpa=\"0x200000\"} - chmu_region_counts_total{dpa=\"0x200000\"} @ $T0")" 50 \
	"Prometheus: region 0x200000 rose by the workload's 50"
expect_eq "$(prom_query "chmu_hotlist_entries_total - chmu_hotlist_entries_total @ $T0")" "$((entries2 - entries))" \
	"Prometheus: entries rose by the driver's"
expect_eq "$(prom_query 'sum(chmu_region_counts_total)')" 900 "Prometheus: all regions"
expect_eq "$(prom_query 'chmu_entry_count_sum')" 900 "Prometheus: histogram sum"
expect_eq "$(prom_query 'count(chmu_entry_count_bucket)')" 33 "Prometheus: 32 log2 buckets and +Inf"
kill "$ppid"	# the rest needs no Prometheus
wait "$ppid" 2>/dev/null || true

# promtool's linter on the text format (it reads no other); OpenMetrics
# when asked for.
curl -sf "$URL" >"$t/prom.txt"
"$PROM/promtool" check metrics <"$t/prom.txt" >"$t/lint" 2>&1 || { cat "$t/lint"; fail "promtool check metrics"; }
curl -sf -D "$t/hdr" -H 'Accept: application/openmetrics-text; version=1.0.0' "$URL" >"$t/om.txt"
grep -qi '^content-type: application/openmetrics-text; version=1.0.0; charset=utf-8' "$t/hdr" ||
	fail "OpenMetrics content type: $(cat "$t/hdr")"
expect_eq "$(tail -n 1 "$t/om.txt")" "# EOF" "OpenMetrics ends with # EOF"
grep -q '^# TYPE chmu_region_counts counter$' "$t/om.txt" || fail "OpenMetrics counter family"
grep -q '^# TYPE chmu_region_counts_total counter$' "$t/prom.txt" || fail "Prometheus counter family"
curl -sf -D "$t/hdr" "$URL" >/dev/null
grep -qi '^content-type: text/plain; version=0.0.4; charset=utf-8' "$t/hdr" || fail "text content type"

# HTTP: other paths and methods, concurrent scrapes, a stalled client and
# garbage do not stop the daemon.
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:9849/nope)" 404 "unknown path"
expect_eq "$(curl -s -o /dev/null -w '%{http_code}' -X POST -d x "$URL")" 405 "POST"
exec 3<>/dev/tcp/127.0.0.1/9849		# connects and says nothing
par=()
# 20 connections that send garbage (bash's /dev/tcp: no process each)
timeout 60 bash -c 'for i in $(seq 20); do
	{ printf "GARBAGE\r\n\r\n" >/dev/tcp/127.0.0.1/9849; } 2>/dev/null || true
done' &
par+=($!)
# 8 clients at once, each 5 scrapes on connections of their own
for i in 1 2 3 4 5 6 7 8; do
	args=()
	for j in 1 2 3 4 5; do args+=(-o "$t/par.$i.$j" "$URL"); done
	curl -sf -H 'Connection: close' "${args[@]}" &
	par+=($!)
done
for p in "${par[@]}"; do wait "$p"; done
# each scrape's count of samples, as "how many scrapes had it"
expect_eq "$(awk '/^chmu_/ { n[FILENAME]++ } END { for (f in n) print n[f] }' "$t"/par.* | sort | uniq -c | awk '{ print $1 }')" 40 \
	"8 clients x 5 scrapes at once, garbage meanwhile: each whole and alike"
exec 3>&-
# Memory stays bounded: 200 more scrapes after a warm-up grow nothing.
rss() { awk '/^VmRSS:/ { print $2 }' /proc/"$epid"/status; }
# scrapes N: N scrapes, each on a connection of its own, by one curl
scrapes() {
	local urls=()
	for i in $(seq "$1"); do urls+=("$URL"); done
	curl -sf -H 'Connection: close' "${urls[@]}" >/dev/null
}
scrapes 20
r0=$(rss)
scrapes 200
r1=$(rss)
echo "exporter RSS: $r0 KiB after 20 more scrapes, $r1 KiB after 220"
[ $((r1 - r0)) -lt 256 ] || fail "RSS grew from $r0 to $r1 KiB over 200 scrapes"
kill -HUP "$epid"
sleep 0.2
kill -0 "$epid" || fail "SIGHUP ended the exporter"

# Unbind under the daemon: counters stay, the instance is down; rebind.
echo hmu_mem0.0 >/sys/bus/cxl/drivers/cxl_hmu/unbind
expect_eq "$(metric "chmu_instance_up{$I}") $(metric "chmu_region_counts_total{$I,dpa=\"0x0\",node=\"-1\"}")" "0 800" "unbound: down, counters kept"
[ -z "$(metric "chmu_config_enabled{$I}")" ] || fail "configuration of an unbound instance"
echo hmu_mem0.0 >/sys/bus/cxl/drivers/cxl_hmu/bind
expect_eq "$(metric "chmu_instance_up{$I}")" 1 "rebound: up"

# The region destroyed under the daemon: scrapes go on, counters kept.
echo 0 >"$HMU/enable"
chmu-region destroy all >/dev/null
expect_eq "$(metric "chmu_region_counts_total{$I,dpa=\"0x0\",node=\"-1\"}")" 800 "region destroyed: counters kept"
eval "$(chmu-region create -m mem0 --devdax)"

# The latest posting per node: in always-on mode, threshold 5, three
# units touched 5 times each are posted once each, in one posting.
hmu_cfg mode=always-on threshold=5 fill_threshold=0 unit_shift=12 enable=1
chmu-workload touch --dax "$DEV" --size 4M --units 7,3,600 --count 5 >/dev/null
wait_metric "chmu_epoch_hot_units{$I,node=\"-1\"}" 3
wait_metric "chmu_epoch_hot_units{$I,node=\"-1\"}" 0	# two seconds without one
echo "ok: latest posting: 3 hot units on node -1, then none"
echo 0 >"$HMU/enable"

kill -TERM "$epid"
rc=0; wait "$epid" || rc=$?
expect_eq "$rc" 0 "SIGTERM ends it with status 0"
grep -q '^chmu-exporter: Terminated, [0-9]* scrapes served$' "$t/exp.err" || fail "exit line: $(cat "$t/exp.err")"

# The region cap: one series; the other region's entries counted apart.
hmu_setup
chmu-exporter --max-regions 1 -l :9850 2>/dev/null &
epid=$!
pids="$pids $epid"
URL=http://127.0.0.1:9850/metrics
for i in $(seq 100); do curl -sf "$URL" >/dev/null && break; sleep 0.1; done
hmu_cfg mode=epoch threshold=1 epoch_us=1000000 fill_threshold=0 unit_shift=12 enable=1
workload
for i in $(seq 300); do
	kept=$(curl -sf "$URL" | awk '/^chmu_region_counts_total/ { s += $2 } END { print s + 0 }')
	dropped=$(metric "chmu_region_dropped_counts_total{$I}")
	[ $((kept + ${dropped:-0})) -eq 450 ] && break
	sleep 0.1
done
expect_eq "$((kept + dropped)) $(metric chmu_exporter_region_series)" "450 1" "capped: one series, the rest counted"
case "$kept:$dropped" in 400:50 | 50:400) ;; *) fail "capped split $kept:$dropped is not one region's" ;; esac
[ "$(metric "chmu_region_dropped_entries_total{$I}")" -gt 0 ] || fail "dropped entries not counted"
kill -TERM "$epid"
wait "$epid"
echo 0 >"$HMU/enable"
