//! `simulate`'s text rendering and its progress lines.

use std::time::Instant;

use super::cli::SimJson;

/// Text rendering of the result.
pub fn render(j: &SimJson) -> String {
    let mut s = format!(
        "{} ({}): {} requests ({} reads, {} writes) over {:.1} s; {}-byte blocks, writes {}; footprint {} blocks ({:.1} MiB)\n",
        j.input.file,
        j.input.kind,
        j.input.requests,
        j.input.read_requests,
        j.input.write_requests,
        j.input.duration_s,
        j.block_bytes,
        j.writes,
        j.footprint_blocks,
        j.footprint_bytes as f64 / 1048576.0
    );
    let pct = |x: Option<f64>| {
        x.map(|v| format!("{:.2} %", v * 100.0))
            .unwrap_or_else(|| "-".into())
    };
    for p in &j.policies {
        let est = p
            .estimator
            .map(|e| format!(", {e} estimator"))
            .unwrap_or_default();
        s += &format!("{} ({}{est}, {:.2} s)\n", p.policy, p.method, p.elapsed_s);
        s += &format!(
            "  {:>14} {:>12} {:>12} {:>12}\n",
            "size", "request hit", "byte hit", "block hit"
        );
        for z in &p.sizes {
            s += &format!(
                "  {:>10.1} MiB {:>12} {:>12} {:>12}\n",
                z.bytes as f64 / 1048576.0,
                pct(z.request_hit_ratio),
                pct(z.byte_hit_ratio),
                pct(z.block_hit_ratio)
            );
        }
    }
    for n in &j.notes {
        s += &format!("note: {n}\n");
    }
    s
}

/// Progress on stderr, about once a second.
pub(super) struct Progress {
    on: bool,
    name: &'static str,
    total: usize,
    last: Instant,
    size: u64,
}
impl Progress {
    pub(super) fn new(on: bool, name: &'static str, total: usize) -> Progress {
        Progress {
            on,
            name,
            total,
            last: Instant::now(),
            size: 0,
        }
    }
    pub(super) fn pass(&mut self, blocks: u64) {
        self.size = blocks;
    }
    pub(super) fn at(&mut self, i: usize) {
        if self.on && self.last.elapsed().as_secs_f64() >= 1.0 {
            self.last = Instant::now();
            let size = if self.size > 0 {
                format!(" at {} blocks", self.size)
            } else {
                String::new()
            };
            eprintln!(
                "simulate: {}{size}: {:.0} % ({i} of {} requests)",
                self.name,
                100.0 * i as f64 / self.total.max(1) as f64,
                self.total
            );
        }
    }
}
