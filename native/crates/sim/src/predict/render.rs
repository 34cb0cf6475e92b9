//! `predict`'s text rendering.

use super::PredictionJson;

/// Text rendering.
pub fn render(j: &PredictionJson) -> String {
    let mib = |b: u64| b as f64 / 1048576.0;
    let mut s = format!(
        "{}: a {:.1} MiB {} cache ({}-byte blocks, writes bypass) in front of {} over the {} window ({} reads, {} writes counted after a {:.0} s warm-up) would serve {:.1} % of reads: {:.1} % of I/Os saved\n",
        j.capture,
        mib(j.cache_bytes),
        j.policy.to_uppercase(),
        j.block_bytes,
        j.devices.join(", "),
        j.window,
        j.reads,
        j.writes_count,
        j.warmup_s,
        j.read_hit_ratio * 100.0,
        j.ios_saved_percent
    );
    if let Some(ps) = j.backing_ios.per_second {
        s += &format!(
            "  backing I/O: {:.0} of {:.0} ({:.1}/s ± {:.1}/s over {:.0} s)\n",
            j.backing_ios.total,
            j.front_ios.total,
            ps,
            j.backing_ios.per_second_uncertainty.unwrap_or(0.0),
            j.front_ios.seconds
        );
    }
    if let (Some(r), Some(c)) = (&j.response_time, &j.cache_device) {
        s += &format!(
            "  response time: {:.1} µs ± {:.1} µs (hits at {} µs on {}; {:.1} µs without the cache)\n",
            r.predicted_us,
            r.uncertainty_us,
            r.hit_us,
            c.label.as_deref().unwrap_or("the typed latency"),
            r.baseline_us
        );
    }
    for p in j.policies.iter().skip(1) {
        s += &format!(
            "  {} ({}): {:.1} % of reads, {:.1} % of I/Os saved\n",
            p.policy,
            p.method,
            p.read_hit_ratio * 100.0,
            p.ios_saved_percent
        );
    }
    for a in &j.size_answers {
        s += &match a.bytes {
            Some(b) => format!(
                "  {:.0} % of reads: {:.1} MiB\n",
                a.read_hit_percent,
                mib(b)
            ),
            None => format!(
                "  {:.0} % of reads: no size (too many first references)\n",
                a.read_hit_percent
            ),
        };
    }
    for n in &j.notes {
        s += &format!("note: {n}\n");
    }
    s
}
