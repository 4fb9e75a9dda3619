# The promoter when its pages go away under it: records queued for memory
# that is then offlined (the region destroyed while the queue holds them)
# are counted by reason, every page looked at is accounted for, frames
# freed while their records wait do not charge the rate cap, and the
# driver unloads with records queued while a workload holds its memory.
# The rate limit holds the records back: 2 MiB units (512 pages each) at
# 1 MiB/s take the worker two seconds a record. In the first part the
# target is the CXL node itself, so that nothing migrates (a migration's
# copy reads the old pages, which would post entries of their own): a
# record counts whole, as already on the target before the region goes,
# as finding no memory on its target after (the node has none left), and,
# once the target is node 0 again, as gone (its frames are offline). On
# the debug kernel (make test-stress) KASAN, lockdep and kmemleak must
# stay quiet.
. tests/lib.sh
hmu_setup
wl=
# a workload still holding memory would keep the region from going
trap '[ -z "$wl" ] || kill $wl 2>/dev/null; chmu_cleanup' EXIT
P=$HMU/promote

c() { cat "$P/$1"; }

# 1. The region goes while its records wait.
eval "$(chmu-region create -m mem0 --ram)"
hmu_cfg mode=always-on threshold=50 unit_shift=21 access=1 fill_threshold=0 poll_ms=100 enable=1
echo 1 >$P/rate_mbps
echo "$NODE" >$P/node
echo 1 >$P/enable
# 48 units of 2 MiB read 50 times each: one entry each, a backlog of
# about two minutes, whatever the region's removal takes. --movable: the
# pages stay in use, each record charged whole, while the region goes.
rm -f /tmp/pf.out	# the last part's held= is not this one's
chmu-workload touch --node "$NODE" --movable --no-thp --size 96M --unit-size 2M --units 0-47 \
	--count 50 --hold >/tmp/pf.out &
wl=$!
wait_for "the workload did not reach --hold" grep -q '^held=' /tmp/pf.out
hmu_cfg enable=0	# every entry drained and offered to the promoter
expect_eq "$(cat $HMU/entries)" 48 "entries"
expect_eq "$(c queued) $(c dropped) $(c skipped)" "48 0 0" "records queued, dropped, skipped"
[ "$(c pending)" -gt 0 ] || fail "no record pending: the rate limit held none back"
# The region goes with the workload's memory in use: offlining migrates
# it to node 0 (no policy keeps it on its node). Freed first, its frames
# would cost the rate cap nothing and the records would not wait (part 2).
pending=$(c pending)
chmu-region destroy "$REGION"
echo "records pending when the region went: $pending"
left=$(c pending)
[ "$left" -gt 1 ] || fail "fewer than 2 records left for after the region went"
wait_for "no record taken after the region went" attr_cmp $P/pending -lt "$left"
echo -1 >$P/node	# node 0 from now on
echo 0 >$P/rate_mbps	# no limit: the rest go at once
wait_for "queue not emptied" attr_cmp $P/pending -eq 0
echo 0 >$P/enable	# waits for a batch in flight: the counters are final
kill -USR1 $wl
wait $wl || fail "workload failed"
wl=
reasons=$PROMOTE_REASONS
for f in tried promoted $reasons batches charged; do
	echo "$f=$(c $f)"
done
failed=$(promote_failed)
expect_eq "$(c tried)" $(($(c promoted) + failed)) "pages tried = promoted + failed by reason"
expect_eq "$(c tried)" $((48 * 512)) "every page of every record looked at"
expect_eq "$(c promoted)" 0 "pages promoted (the target was their own node, then offline)"
expect_eq "$(c charged)" $(($(c tried) - $(c failed_not_lru))) "pages charged = tried but off the LRU"
[ "$(c failed_no_memory)" -ge 512 ] || fail "a record for a target without memory is not counted as no_memory"
[ "$(c failed_gone)" -ge 512 ] || fail "a record taken after the region went is not counted as gone"
echo "ok: $(c failed_no_memory) pages counted as no memory on the target, $(c failed_gone) as gone"

# 2. Frames freed while their records wait cost the rate cap nothing:
# off the LRU, they were never candidates (the freed frames a
# migration's copy reads post are the common case). The first record, already on its
# target (the CXL node again), is charged whole and holds the rest back
# for two seconds; the workload then exits, and once the target is node
# 0 the records left find free frames (not on an LRU list). Charged,
# they would take 2 s each at 1 MiB/s; they go at once.
eval "$(chmu-region create -m mem0 --ram)"
hmu_cfg mode=always-on threshold=50 unit_shift=21 access=1 fill_threshold=0 poll_ms=100 enable=1
echo 1 >$P/rate_mbps
echo "$NODE" >$P/node
echo 1 >$P/enable
rm -f /tmp/pf.out	# the last part's held= is not this one's
chmu-workload touch --node "$NODE" --no-thp --size 96M --unit-size 2M --units 0-47 \
	--count 50 --hold >/tmp/pf.out &
wl=$!
wait_for "the workload did not reach --hold" grep -q '^held=' /tmp/pf.out
hmu_cfg enable=0
expect_eq "$(c queued) $(c dropped)" "48 0" "records queued, dropped"
[ "$(c pending)" -gt 0 ] || fail "no record pending: the rate limit held none back"
kill -USR1 $wl
wait $wl || fail "workload failed"
wl=
echo -1 >$P/node
wait_for "records of freed frames held back by the rate cap" attr_cmp $P/pending -eq 0
echo 0 >$P/enable
for f in tried promoted $reasons charged; do
	echo "$f=$(c $f)"
done
failed=$(promote_failed)
expect_eq "$(c tried)" $((48 * 512)) "every page of every record looked at"
expect_eq "$(c tried)" $(($(c promoted) + failed)) "pages tried = promoted + failed by reason"
[ "$(c failed_on_target)" -ge 512 ] || fail "the first record was not on its target"
expect_eq "$(c charged)" "$(c failed_on_target)" "pages charged to the cap: those on their target, not the freed ones"
# more than 30 records of freed frames: charged, they would have taken
# over the 60 s the queue got to empty
[ "$(c failed_not_lru)" -ge $((31 * 512)) ] ||
	fail "$(c failed_not_lru) pages of freed frames: fewer than 31 records, the test proves nothing"
chmu-region destroy "$REGION"

# 3. The driver unbinds with records queued and the workload running
# (--movable: pages a policy binds to their node would be refused, not
# charged to the rate limit, and none would wait).
eval "$(chmu-region create -m mem0 --ram)"
hmu_cfg mode=always-on threshold=50 unit_shift=21 access=1 fill_threshold=0 poll_ms=100 enable=1
echo 1 >$P/rate_mbps
echo 1 >$P/enable
rm -f /tmp/pf.out	# the last part's held= is not this one's
chmu-workload touch --node "$NODE" --movable --no-thp --size 32M --unit-size 2M --units 0-15 \
	--count 50 --hold >/tmp/pf.out &
wl=$!
wait_for "the workload did not reach --hold" grep -q '^held=' /tmp/pf.out
wait_for "no record queued" attr_cmp $P/queued -ge 16
[ "$(c pending)" -gt 0 ] || fail "no record pending at unbind"
modprobe -r cxl_hmu || fail "cxl_hmu did not unload with records queued"
[ ! -d /sys/module/cxl_hmu ] || fail "cxl_hmu still loaded"
echo "ok: unloaded with records queued"
kill -USR1 $wl
wait $wl || fail "workload failed"
wl=
chmu-region destroy "$REGION"
modprobe cxl_hmu
[ -d $HMU ] || fail "no $HMU after reloading cxl_hmu"
expect_eq "$(c enable) $(c pending)" "0 0" "promoter after reload"
echo ok
