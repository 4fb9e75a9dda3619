# Our perf records CHMU AUX data: the RFC's command line against the
# emulated device gives exactly the workload's entries in the RFC's
# --dump-raw-traces layout, decoded per entry; records keep their framing
# across many interrupt drains and AUX buffer wrap-around; pipe mode
# works; unusable setups fail with a clear message.
. tests/lib.sh
hmu_setup
[ "$(command -v perf)" = "$CHMU_CACHE/perf/bin/perf" ] || fail "perf on PATH is $(command -v perf)"
eval "$(chmu-region create -m mem0 --devdax)"
trap 'chmu-region destroy all >/dev/null 2>&1' EXIT
hmu_cfg fill_threshold=0
work="chmu-workload touch --dax $DEV --size 2M"
cd /tmp

# dump_entries FILE|-: "unit:count" for each decoded entry line.
dump_entries() {
	sed -n 's/^[0-9a-f]\{16\}  unit \([0-9]*\) dpa 0x[0-9a-f]* count \([0-9]*\)$/\1:\2/p' | tr '\n' ' ' | sed 's/ $//'
}

perf record -a -e cxl_hmu_mem0.0.0/epoch_type=0,access_type=6,hotness_threshold=5,epoch_multiplier=2,epoch_scale=5,range_base=0,range_size=2,randomized_downsampling=0,downsampling_factor=0,hotness_granual=12/ \
	-o rfc.data -- sh -c "$work --units 3 --count 100 >/dev/null && $work --units 7 --count 300 >/dev/null && sleep 2.5"
perf report --dump-raw-traces -i rfc.data >rfc.txt
grep -A7 'CXL_HMU data' rfc.txt
# Both workloads in one 200 ms epoch: one batch, as in the RFC. A slower
# (debug) kernel can start the second after the epoch ended: two batches,
# one entry each, in one AUX record.
hdr="counter_width 20 unit_shift 12 mode 0 overflow 0 reason 2"
e3="0000000300000064  unit 3 dpa 0x3000 count 100"
e7="000000070000012c  unit 7 dpa 0x7000 count 300"
if grep -q 'CXL_HMU data: size 32 bytes' rfc.txt; then
	expect_eq "$(grep -A4 'CXL_HMU data' rfc.txt | tr '\n' ';')" \
		". ... CXL_HMU data: size 32 bytes;Header 0: units: 2 $hdr;Header 1 : 1;$e7;$e3;" \
		"RFC command line, raw dump (one epoch)"
	order="7:300 3:100"
else
	expect_eq "$(grep -A6 'CXL_HMU data' rfc.txt | tr '\n' ';')" \
		". ... CXL_HMU data: size 48 bytes;Header 0: units: 1 $hdr;Header 1 : 1;$e3;Header 0: units: 1 $hdr;Header 1 : 2;$e7;" \
		"RFC command line, raw dump (two epochs)"
	order="3:100 7:300"
fi
expect_eq "$(perf report -D -i rfc.data | dump_entries)" "$order" "perf report -D"

# Many fill-threshold drains (always-on, threshold 1, fill threshold 16)
# into an 8 KiB AUX area that wraps: every record's count matches the
# entries that follow it, and all 1500 entries arrive. 1500 entries are
# 12000 bytes before any header, so the area wraps however many drains
# (records, headers) the timing makes.
hmu_cfg fill_threshold=16 poll_ms=100
perf record -a -m ,8K -e cxl_hmu_mem0.0.0/epoch_type=1,access_type=6,hotness_threshold=1,hotness_granual=12/ \
	-o wrap.data -- sh -c "for r in \$(seq 10); do $work --units 0-149 >/dev/null; sleep 0.3; done; sleep 0.5" 2>wrap.err
cat wrap.err
grep -q 'lost\|gaps' wrap.err && fail "perf reported lost AUX data"
perf report --dump-raw-traces -i wrap.data >wrap.txt
awk 'function hex(s,  i, v) { v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }
	/^Header 0: units:/ { if (want != seen) bad++; want = hex($4); seen = 0; recs++; next }
	/^[0-9a-f]+  unit / { seen++ }
	END { if (want != seen) bad++; print recs, bad + 0 }' wrap.txt >framing.txt
read -r records bad <framing.txt
echo "records=$records"
expect_eq "$bad" 0 "records whose header count differs from their entries"
[ "$records" -ge 10 ] || fail "only $records records"
expect_eq "$(grep -c '^Header 0: .* reason 0$' wrap.txt | awk '$1 > 0 { print "yes" }')" yes "fill-threshold drains"
expect_eq "$(dump_entries <wrap.txt | tr ' ' '\n' | sort -t: -k1n | uniq -c | awk '{ print $1 "x" $2 }' | sort -u | tr '\n' ' ')" \
	"$(seq -f '10x%g:1' 0 149 | sort -u | tr '\n' ' ')" "each of 150 units 10 times"
# AUXTRACE events carry the running AUX offset: past 8 KiB, it wrapped.
end=0
while read -r size off; do
	[ $((off + size)) -gt $end ] && end=$((off + size))
done < <(sed -n 's/.*PERF_RECORD_AUXTRACE size: \(0x[0-9a-f]*\)  offset: \(0x[0-9a-f]*\) .*/\1 \2/p' wrap.txt)
[ "$end" -gt 8192 ] || fail "the AUX area never wrapped (data ends at $end)"
echo "ok: AUX area wrapped (data ends at $end)"
hmu_cfg fill_threshold=0

# Pipe mode.
out=$(perf record -a -o - -e cxl_hmu_mem0.0.0/access_type=6,hotness_threshold=4,epoch_scale=5,epoch_multiplier=1,hotness_granual=12/ \
	-- sh -c "$work --units 9 --count 10 >/dev/null && sleep 1.5" 2>/dev/null | perf report --dump-raw-traces -i - | dump_entries)
expect_eq "$out" "9:10" "pipe mode"

# Clear errors.
err() { # err "perf record args" TEXT
	local out
	# shellcheck disable=SC2086
	out=$(perf record -a -o x.data $1 -- true 2>&1) && fail "perf record $1 succeeded"
	grep -qF "$2" <<<"$out" || { echo "$out"; fail "perf record $1: no '$2'"; }
	echo "ok: perf record $1: $2"
}
ok=access_type=6,hotness_threshold=1
err "-e cxl_hmu_mem9.9.9/$ok/" "Unable to find PMU or event on a PMU of 'cxl_hmu_mem9.9.9'"
hmu_cfg enable=1
err "-e cxl_hmu_mem0.0.0/$ok/" "cxl_hmu_mem0.0.0 is in use: its CXL Hotness Monitoring Unit instance is enabled"
# the hint names an owner attribute that exists and says who holds it
err "-e cxl_hmu_mem0.0.0/$ok/" "/sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.0/owner)."
expect_eq "$(cat /sys/bus/cxl/devices/hmu_mem0.0/hmu_mem0.0.0/owner)" sysfs "the owner the hint points at"
hmu_cfg enable=0
err "-S -e cxl_hmu_mem0.0.0/$ok/" "cxl_hmu_mem0.0.0: snapshot mode is not supported"
err "-m ,12x -e cxl_hmu_mem0.0.0/$ok/" "Invalid argument for --mmap_pages/-m"
err "-e cxl_hmu_mem0.0.0/$ok,access_type=7/" "returned with 22 (Invalid argument) for event (cxl_hmu_mem0.0.0/"
chmu-region destroy "$REGION"
