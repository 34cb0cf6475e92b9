//! The counters' sums of `import prometheus --fleet-summary` (promsum.rs), node_exporter's and
//! windows_exporter's (promwin.rs): the counters at `--to` minus at `--from` (the intervals'
//! increases telescope: the counters at two moments), and, for the hosts whose group's counters went back
//! in the range (a reset, counted by promgrid.rs), the intervals' increases added one by one by
//! the server, the reset intervals left out as an import leaves them out.

use std::collections::BTreeMap;

use super::promfetch::PromOpts;
use super::promq::{points_at, Q};
use super::promql;
use super::promsum::{g, pieces, sel, HostSums, COUNTERS};
use crate::error::Result;

/// The sums of the six counters over the range, host by host: the differences between the
/// counters at `--to` and at `--from` (the intervals' increases telescope to it: two queries of
/// the counters at one moment each, [`points_at`], no subquery), over the devices
/// [`super::promsum::group`] counts — the whole disks by `linux_role`, else the stacked
/// devices; a Windows host's disks, else its volumes — and the host's devices (every one it has
/// at `--to`, `_Total` aside). A host with both ends has `range / step` intervals.
pub(super) fn telescoped(
    q: &mut Q,
    o: &PromOpts,
    hosts: &mut BTreeMap<String, HostSums>,
) -> Result<()> {
    let names: Vec<&str> = COUNTERS.iter().map(|c| c.1).collect();
    let six: Vec<usize> = (0..COUNTERS.len()).collect();
    let all = format!(
        "{} or {}",
        sel(&names.join("|"), o, ("=~", ".+")),
        super::promwin::all(&six, o)
    );
    // (instance, device, counter) → (value, layer: "backing", "front" or another role)
    type Key = (String, String, usize);
    let step = o.step_ms.unwrap_or(60_000);
    let at = |q: &mut Q, t: i64| -> Result<BTreeMap<Key, (f64, &'static str)>> {
        let ((result, stats), n) = points_at(q.c, &all, t, step)?;
        q.count(n, stats);
        let mut m = BTreeMap::new();
        for (metric, v) in result {
            let l = |k: &str| metric.get(k).cloned().unwrap_or_default();
            let node = COUNTERS.iter().position(|c| c.1 == l("__name__"));
            let (dev, role, i) = match node {
                Some(i) => (l("device"), crate::linux_role(&l("device")).0, i),
                None => match super::promwin::device(&metric) {
                    Some(w) => w,
                    None => continue,
                },
            };
            m.insert((l("instance"), dev, i), (v, role));
        }
        Ok(m)
    };
    let (end, start) = (at(q, o.end_ms)?, at(q, o.start_ms)?);
    // (host, role) → each counter's increase; a device needs both ends
    let mut by: BTreeMap<(String, &str), [f64; 6]> = BTreeMap::new();
    let mut devices: BTreeMap<String, std::collections::BTreeSet<String>> = BTreeMap::new();
    for (key, (v1, role)) in &end {
        let (inst, dev, i) = key;
        devices.entry(inst.clone()).or_default().insert(dev.clone());
        let Some((v0, _)) = start.get(key) else {
            continue;
        };
        if *role == "backing" || *role == "front" {
            by.entry((inst.clone(), role)).or_default()[*i] += (v1 - v0) * COUNTERS[*i].2;
        }
    }
    for (inst, d) in devices {
        hosts.entry(inst).or_default().devices = d.len() as u64;
    }
    let n = ((o.end_ms - o.start_ms) / step) as u64;
    for ((inst, role), v) in &by {
        if *role == "front" && by.contains_key(&(inst.clone(), "backing")) {
            continue;
        }
        let h = hosts.entry(inst.clone()).or_default();
        h.ok_intervals = n;
        [
            h.reads,
            h.writes,
            h.read_bytes,
            h.write_bytes,
            h.read_time_ms,
            h.write_time_ms,
        ] = *v;
    }
    Ok(())
}

/// For the hosts whose I/O counters went back in the range (a reset: their reset intervals are
/// counted, promgrid.rs), replace the telescoped sums by `sum_over_time` of the intervals'
/// increases (reset intervals give nothing: [`super::promsum::group`]), a day a piece.
pub(super) fn exact_where_reset(
    q: &mut Q,
    o: &PromOpts,
    hosts: &mut BTreeMap<String, HostSums>,
) -> Result<()> {
    let step = o.step_ms.unwrap_or(60_000);
    let s = step / 1000;
    let reset: Vec<String> = hosts
        .iter()
        .filter(|(_, h)| h.reset_intervals > 0)
        .map(|(k, _)| k.clone())
        .collect();
    if reset.is_empty() {
        return Ok(());
    }
    let mut only = o.clone();
    only.matchers.push(promql::Matcher {
        label: "instance".into(),
        op: "=~",
        value: reset
            .iter()
            .map(|h| regex_escape(h))
            .collect::<Vec<_>>()
            .join("|"),
    });
    for h in &reset {
        if let Some(x) = hosts.get_mut(h) {
            (
                x.reads,
                x.writes,
                x.read_bytes,
                x.write_bytes,
                x.read_time_ms,
                x.write_time_ms,
            ) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
            x.ok_intervals = 0;
        }
    }
    let ok = format!(
        "({} and {})",
        g("reads", &only, step),
        g("writes", &only, step)
    );
    let mut jobs = Vec::new();
    for (end, len) in pieces(o) {
        // the window 1 ms short of the piece: Prometheus before 3.0 closes a subquery's window at
        // its start ([t − len, t]: the interval ending there is the piece before's), Prometheus 3
        // and VictoriaMetrics do not ((t − len, t]); both then hold the piece's own intervals
        let r = format!("[{}ms:{s}s])", len - 1);
        jobs.push((format!("count_over_time({ok}{r}"), end));
        for (name, _, _) in COUNTERS.iter() {
            jobs.push((format!("sum_over_time({}{r}", g(name, &only, step)), end));
        }
    }
    // per piece: the intervals counted, then each counter's sum
    for (k, answer) in q.instants(&jobs)?.into_iter().enumerate() {
        let Some(c) = (k % (COUNTERS.len() + 1)).checked_sub(1) else {
            for (h, v) in answer {
                hosts.entry(h).or_default().ok_intervals += v as u64;
            }
            continue;
        };
        for (h, v) in answer {
            let x = hosts.entry(h).or_default();
            match COUNTERS[c].0 {
                "reads" => x.reads += v,
                "writes" => x.writes += v,
                "readBytes" => x.read_bytes += v,
                "writeBytes" => x.write_bytes += v,
                "readTimeMs" => x.read_time_ms += v,
                _ => x.write_time_ms += v,
            }
        }
    }
    Ok(())
}

/// A host name as an RE2 literal.
fn regex_escape(s: &str) -> String {
    s.chars()
        .flat_map(|c| {
            let special = "\\.+*?()|[]{}^$".contains(c);
            special
                .then_some('\\')
                .into_iter()
                .chain(std::iter::once(c))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn host_names_are_regex_literals() {
        assert_eq!(super::regex_escape("web.1:9100"), "web\\.1:9100");
    }
}
