#!/usr/bin/env bash
# Records samples/lab/lab-sample.capture on the loop-device lab (root, fio).
# Baseline 90 s with direct I/O (cache off) -> lab switch on (page cache) + mark switch ->
# warm-up 15 s -> measure 90 s, sampled every 1 s, with `lab workload` running throughout.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
P="${PROBE:-$repo/native/target/release/cacheproof-probe}"
OUT="${OUT:-/tmp/lab-sample.capture}"
rm -f "$OUT" "$OUT"-wal "$OUT"-shm "$OUT".lock "$OUT".log
"$P" lab up
"$P" lab switch off   # a lab left up by an earlier run may still have the cache on
front=$("$P" lab status --json | python3 -c 'import json,sys;print(json.load(sys.stdin)["frontDevice"].split("/")[-1])')
backing=$("$P" lab status --json | python3 -c 'import json,sys;print(json.load(sys.stdin)["backingDevice"].split("/")[-1])')
"$P" lab workload --seconds 215 --hot-mb 64 --read-iops 800 --write-iops 100 >/tmp/lab-sample-fio.txt &
wl=$!
sleep 1
"$P" record --out "$OUT" --devices "$front,$backing" --interval 1s \
  --plan baseline=90s,warmup=15s,measure=90s --switch manual --detach
until "$P" status "$OUT" --json | grep -q '"phase": "switch"'; do sleep 0.5; done
"$P" lab switch on
"$P" mark "$OUT" switch --note "lab switch on: losetup --direct-io=off $front"
until "$P" status "$OUT" --json | grep -q '"state": "done"'; do sleep 1; done
wait "$wl" || true
"$P" status "$OUT"
sqlite3 "$OUT" "PRAGMA journal_mode=DELETE; VACUUM;" >/dev/null
cp "$OUT" "$repo/samples/lab/lab-sample.capture"
"$P" lab switch off
"$P" lab down
echo "wrote $repo/samples/lab/lab-sample.capture"
