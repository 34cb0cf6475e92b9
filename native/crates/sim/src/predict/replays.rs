//! Running `predict`'s replays on the machine's cores, and its progress lines.

/// Runs `job` on every item on up to `threads` threads (0: one per core), largest items first
/// (by their size, the second field), each thread taking the next item when it finishes one;
/// the results in the items' order. Progress goes from 60 % to 100 % as items finish.
pub(super) fn run_replays<T: Send>(
    items: &[(usize, u64)],
    threads: usize,
    progress: &mut Progress,
    job: impl Fn((usize, u64)) -> T + Sync,
) -> Vec<T> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = if threads == 0 { cores } else { threads }.clamp(1, items.len().max(1));
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(items[i].1));
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<T>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&i) = order.get(n) else { break };
                    let r = job(items[i]);
                    out.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(r);
                    done.fetch_add(1, Ordering::Relaxed);
                })
            })
            .collect();
        // until every thread has ended (a panic ends one early; the scope then passes it on)
        while !workers.iter().all(|w| w.is_finished()) {
            let d = done.load(Ordering::Relaxed);
            progress.at(
                0.6 + 0.4 * d as f64 / items.len().max(1) as f64,
                "other policies",
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    });
    out.into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every replay ran"))
        .collect()
}

/// Progress on stderr, about once a second: `predict: 45 % (lru)`.
pub(super) struct Progress {
    on: bool,
    last: Option<std::time::Instant>,
}
impl Progress {
    pub fn new(on: bool) -> Progress {
        Progress { on, last: None }
    }
    pub fn at(&mut self, share: f64, stage: &str) {
        if !self.on {
            return;
        }
        let due = self.last.is_none_or(|t| t.elapsed().as_secs_f64() >= 1.0);
        if due || share >= 1.0 {
            self.last = Some(std::time::Instant::now());
            eprintln!(
                "predict: {:.0} % ({stage})",
                (share * 100.0).clamp(0.0, 100.0)
            );
        }
    }
}
