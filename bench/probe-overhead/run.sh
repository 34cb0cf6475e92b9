#!/usr/bin/env bash
# Probe overhead benchmark (not a test): cacheproof-probe vs sysstat's collector
# (/usr/lib/sysstat/sadc -S DISK), sampling the same devices (all of /proc/diskstats) for the
# same duration, at 1 s and at 100 ms. Prints CPU seconds per 1,000 samples and peak RSS
# (VmHWM) for both, and their ratio. Target: probe CPU/sample <= sadc, probe RSS < 10 MiB.
#
# Usage: bench/probe-overhead/run.sh [SECONDS_PER_RUN]   (default 30; needs sysstat installed)
# sadc takes whole seconds only (its interval is an integer), so at 100 ms the probe is compared
# with sadc's cost per sample at its fastest rate, 1 s; the script says so in its output.
set -euo pipefail
D="${1:-30}"
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
P="${PROBE:-$repo/native/target/release/cacheproof-probe}"
SADC="${SADC:-/usr/lib/sysstat/sadc}"
[ -x "$P" ] || { echo "build the probe first: (cd native && cargo build --release)"; exit 2; }
[ -x "$SADC" ] || { echo "sadc not found: apt-get install -y sysstat"; exit 2; }
TCK=$(getconf CLK_TCK)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# CPU time in seconds: /proc/PID/schedstat's first field (ns on CPU, precise) when the kernel
# has schedstats, else utime+stime from /proc/PID/stat (CLK_TCK resolution).
cpu_s() {
  if [ -r "/proc/$1/schedstat" ]; then awk '{ print $1 / 1e9 }' "/proc/$1/schedstat"
  else awk -v t="$TCK" '{ sub(/^.*\) /, ""); print ($12 + $13) / t }' "/proc/$1/stat"; fi
}
hwm_kb() { awk '/^VmHWM/ { print $2 }' "/proc/$1/status"; }

# run_probe INTERVAL -> "cpu_s samples hwm_kb"
run_probe() {
  local cap="$work/p-$1.capture"
  "$P" record --out "$cap" --all --interval "$1" >/dev/null 2>&1 &
  local pid=$!
  sleep "$D"
  local cpu hwm n
  cpu=$(cpu_s "$pid"); hwm=$(hwm_kb "$pid")
  kill -STOP "$pid"
  n=$(sqlite3 "$cap" "select count(*) from samples")
  kill -CONT "$pid"; "$P" stop "$cap" >/dev/null; wait "$pid" || true
  echo "$cpu $n $hwm"
}

# run_sadc -> "cpu_s samples hwm_kb" (interval 1 s, its minimum)
run_sadc() {
  local out="$work/sa-$RANDOM"
  "$SADC" -S DISK 1 100000 "$out" &
  local pid=$!
  sleep "$D"
  local cpu hwm
  cpu=$(cpu_s "$pid"); hwm=$(hwm_kb "$pid")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  # sadc takes one sample at start and one per second after it.
  echo "$cpu $((D + 1)) $hwm"
}

printf "devices in /proc/diskstats: %s; %s s per run; CLK_TCK %s\n" "$(wc -l </proc/diskstats)" "$D" "$TCK"
read -r s_cpu s_n s_hwm < <(run_sadc)
printf "%-28s %10s %8s %16s %10s\n" "collector" "cpu_s" "samples" "cpu_s/1000smp" "peak_RSS"
row() { printf "%-28s %10.3f %8d %16.4f %8.1fMiB\n" "$1" "$2" "$3" "$(echo "$2 $3" | awk '{print $1/$2*1000}')" "$(echo "$4" | awk '{print $1/1024}')"; }
row "sadc -S DISK @1s" "$s_cpu" "$s_n" "$s_hwm"
for iv in 1s 100ms; do
  read -r p_cpu p_n p_hwm < <(run_probe "$iv")
  row "cacheproof-probe @$iv" "$p_cpu" "$p_n" "$p_hwm"
  awk -v pc="$p_cpu" -v pn="$p_n" -v sc="$s_cpu" -v sn="$s_n" -v ph="$p_hwm" -v sh="$s_hwm" -v iv="$iv" 'BEGIN {
    pp = pc / pn; sp = sc / sn;
    if (sp > 0) r = sprintf("%.2f", pp / sp); else r = "n/a (sadc used < 1 tick)";
    printf "  ratio probe/sadc @%s: CPU per sample %s, peak RSS %.2f%s\n", iv, r, ph / sh,
      (iv == "100ms" ? "  (sadc cannot sample faster than 1 s: compared with its per-sample cost at 1 s)" : "")
  }'
done
