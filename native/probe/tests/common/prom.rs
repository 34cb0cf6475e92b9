//! Real Prometheus for the import tests: Debian's `prometheus` started on a free loopback port
//! with its config and storage in a temp dir (killed on drop, even when the test panics), and
//! a loopback HTTP server that plays an exporter's real text exposition back to it, its
//! counters advancing by a fixed amount at each scrape.
#![allow(dead_code, clippy::unwrap_used)]

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Kills a daemon on drop (even when the test panics).
pub struct Daemon(pub Child, pub &'static str);
impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Daemon {
    /// Panics when the daemon has exited (its log is in the test's dir).
    pub fn alive(&mut self) {
        if let Ok(Some(st)) = self.0.try_wait() {
            panic!("{} exited early ({st})", self.1);
        }
    }
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub fn now_s() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64()
}

/// Starts Prometheus on a free port scraping `jobs` (name, targets) every second; `extra`
/// arguments (e.g. `--web.config.file`). Returns the daemon and its port.
pub fn start_prometheus(
    dir: &Path,
    jobs: &[(&str, Vec<String>)],
    extra: &[String],
) -> (Daemon, u16) {
    let port = free_port();
    let mut cfg = String::from(
        "global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n",
    );
    for (job, targets) in jobs {
        let t: Vec<String> = targets.iter().map(|x| format!("'{x}'")).collect();
        cfg.push_str(&format!(
            "  - job_name: {job}\n    static_configs:\n      - targets: [{}]\n",
            t.join(", ")
        ));
    }
    let file = dir.join("prometheus.yml");
    std::fs::write(&file, cfg).unwrap();
    let mut args = vec![
        format!("--config.file={}", file.display()),
        format!("--storage.tsdb.path={}", dir.join("tsdb").display()),
        format!("--web.listen-address=127.0.0.1:{port}"),
    ];
    args.extend_from_slice(extra);
    let d = Daemon(
        Command::new("prometheus")
            .args(&args)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(dir.join("prometheus.log")).unwrap())
            .spawn()
            .unwrap(),
        "prometheus",
    );
    (d, port)
}

/// `import prometheus --url URL --from FROM --to TO --step STEP` (the rest is the test's).
pub fn range_args<'a>(url: &'a str, from: &'a str, to: &'a str, step: &'a str) -> Vec<&'a str> {
    vec![
        "import",
        "prometheus",
        "--url",
        url,
        "--from",
        from,
        "--to",
        to,
        "--step",
        step,
    ]
}

/// Instant query over plain http; the result array (empty while the server is not up).
pub fn query(port: u16, q: &str, at: Option<f64>) -> Vec<serde_json::Value> {
    let mut r = ureq::get(&format!("http://127.0.0.1:{port}/api/v1/query")).query("query", q);
    if let Some(t) = at {
        r = r.query("time", &format!("{t:.3}"));
    }
    match r.call() {
        Ok(r) => {
            let v: serde_json::Value = serde_json::from_str(&r.into_string().unwrap()).unwrap();
            v["data"]["result"].as_array().cloned().unwrap_or_default()
        }
        Err(_) => Vec::new(),
    }
}

/// The value of a one-series instant query.
pub fn value(port: u16, q: &str, at: f64) -> f64 {
    let r = query(port, q, Some(at));
    assert_eq!(r.len(), 1, "{q} at {at}: {r:?}");
    r[0]["value"][1].as_str().unwrap().parse().unwrap()
}

/// A loopback HTTP server that answers every request with `respond(request, i)` (i counts
/// the requests), until dropped.
pub struct Server {
    pub port: u16,
    pub hits: Arc<AtomicUsize>,
    /// The request heads received.
    pub requests: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
}

impl Server {
    pub fn start(
        respond: impl Fn(&str, usize) -> (u16, String, String) + Send + 'static,
    ) -> Server {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let hits = Arc::new(AtomicUsize::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let requests = Arc::new(Mutex::new(Vec::new()));
        let (h, s, rq) = (hits.clone(), stop.clone(), requests.clone());
        std::thread::spawn(move || {
            for c in l.incoming() {
                if s.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(mut c) = c else { continue };
                let _ = c.set_read_timeout(Some(Duration::from_secs(5)));
                let mut buf = Vec::new();
                let mut b = [0u8; 4096];
                while !buf.windows(4).any(|w| w == b"\r\n\r\n") {
                    match c.read(&mut b) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => buf.extend_from_slice(&b[..n]),
                    }
                }
                let head = String::from_utf8_lossy(&buf).to_string();
                rq.lock().unwrap().push(head.clone());
                let i = h.fetch_add(1, Ordering::SeqCst);
                let (code, ctype, body) = respond(&head, i);
                let _ = write!(
                    c,
                    "HTTP/1.1 {code} X\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        Server {
            port,
            hits,
            requests,
            stop,
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// The text of an exposition at the i-th scrape: every sample of a metric typed `counter`
/// plus i × `inc(metric, labels)`; gauges and comments as they are.
pub fn advance(text: &str, i: usize, inc: &dyn Fn(&str, &str) -> f64) -> String {
    let mut counters: Vec<&str> = Vec::new();
    for l in text.lines() {
        if let Some(r) = l.strip_prefix("# TYPE ") {
            let mut w = r.split_whitespace();
            if let (Some(m), Some("counter")) = (w.next(), w.next()) {
                counters.push(m);
            }
        }
    }
    let mut out = String::with_capacity(text.len() + 256);
    for l in text.lines() {
        if l.starts_with('#') || l.trim().is_empty() {
            out.push_str(l);
        } else {
            let cut = l.rfind(' ').unwrap();
            let (series, v) = (&l[..cut], l[cut + 1..].trim());
            let name = series.split('{').next().unwrap();
            let labels = series.strip_prefix(name).unwrap_or("");
            let v: f64 = v.parse().unwrap();
            if counters.contains(&name) {
                out.push_str(&format!("{series} {}", v + i as f64 * inc(name, labels)));
            } else {
                out.push_str(l);
            }
        }
        out.push('\n');
    }
    out
}

/// An exporter played back: `advance(text, scrape, inc)` at every scrape.
pub fn playback(text: String, inc: impl Fn(&str, &str) -> f64 + Send + Sync + 'static) -> Server {
    Server::start(move |_, i| {
        (
            200,
            "text/plain; version=0.0.4".into(),
            advance(&text, i, &inc),
        )
    })
}

/// Waits until Prometheus has stored `n` scrapes of `series` (a selector) made after `t`
/// (epoch seconds), checking that the daemons are alive.
pub fn wait_scrapes_after(port: u16, series: &str, t: f64, n: usize, daemons: &mut [&mut Daemon]) {
    let mut seen = Vec::new();
    super::poll(
        &format!("Prometheus to store {n} scrapes of {series} after {t}"),
        Duration::from_secs(60),
        Duration::from_millis(200),
        || {
            for d in daemons.iter_mut() {
                d.alive();
            }
            if let Some(ts) = query(port, &format!("timestamp({series})"), None)
                .first()
                .and_then(|r| r["value"][1].as_str().and_then(|s| s.parse::<f64>().ok()))
            {
                let ms = (ts * 1000.0).round() as i64;
                if ts > t && !seen.contains(&ms) {
                    seen.push(ms);
                }
            }
            if seen.len() >= n {
                Ok(())
            } else {
                Err(format!("{} of them", seen.len()))
            }
        },
    )
}
