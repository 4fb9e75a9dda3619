# The attribution's start-up check (issue 35, defect 6): before a tool
# attributes, it runs its attribution program on memory of its own and
# stops (exit 2, one line) unless it comes out as its own cgroup's, page
# for page, in the struct page reads the layout implies: an order-0 page
# (one read), a THP whole (one read for 512 pages: the folio's order
# read right) and its second half (one read: a tail page's head found).
# The lab kernel gives THPs (always), so all three are checked here.
. tests/lib.sh
hmu_setup
eval "$(chmu-region create -m mem0 --devdax)"
trap 'hmu_cfg enable=0 2>/dev/null || true; chmu-region destroy all >/dev/null 2>&1 || true' EXIT
expect_eq "$(cat /sys/kernel/mm/transparent_hugepage/enabled)" "[always] madvise never" "THP in the lab kernel"
hmu_cfg mode=epoch threshold=5 epoch_us=1000000 fill_threshold=0 unit_shift=12 enable=1
for t in "chmuheat --by cgroup" "chmualert -c 5 --by cgroup" "chmutop -b --by cgroup"; do
	rc=0
	$t -v 1 1 >/dev/null 2>/tmp/oc.err || rc=$?
	expect_eq "$rc:$(grep 'attribution checked' /tmp/oc.err)" \
		"0:${t%% *}: attribution checked on a page, a THP and half a THP of ours: one struct page read each" "$t"
done
rc=0
timeout 20 chmu-exporter --by cgroup -v -l 127.0.0.1:9856 >/dev/null 2>/tmp/oc.err &
p=$!
wait_for "chmu-exporter did not check: $(cat /tmp/oc.err)" grep -q 'attribution checked' /tmp/oc.err
kill -TERM $p
wait $p || fail "chmu-exporter ended with $?"
expect_eq "$(grep 'attribution checked' /tmp/oc.err)" \
	"chmu-exporter: attribution checked on a page, a THP and half a THP of ours: one struct page read each" "chmu-exporter --by cgroup"
echo ok
