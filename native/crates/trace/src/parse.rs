//! One line of `trace_pipe` → an [`Event`] (the kernel facts are in the module above).

/// One block event as the kernel printed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// (major, minor).
    pub dev: (u32, u32),
    /// The trace clock (CLOCK_MONOTONIC with `trace_clock` = `mono`), ns.
    pub ts_ns: u64,
    pub rwbs: String,
    /// `block_rq_issue` only: the request's bytes.
    pub bytes: Option<u64>,
    pub sector: u64,
    pub nr_sector: u32,
    /// `block_rq_complete` only.
    pub error: Option<i32>,
}

/// What one line of `trace_pipe` says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Line {
    Issue(Event),
    Complete(Event),
    /// `CPU:N [LOST M EVENTS]`.
    Lost {
        cpu: u32,
        events: u64,
    },
    /// Anything else: counted and reported, never fatal.
    Garbage,
}

/// `12345.678901` (seconds) → ns.
fn parse_ts(s: &str) -> Option<u64> {
    let (secs, frac) = s.split_once('.').unwrap_or((s, ""));
    if secs.is_empty()
        || !secs.bytes().all(|b| b.is_ascii_digit())
        || frac.len() > 9
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let secs: u64 = secs.parse().ok()?;
    let mut ns: u64 = 0;
    for i in 0..9 {
        ns = ns * 10 + frac.as_bytes().get(i).map_or(0, |b| u64::from(b - b'0'));
    }
    secs.checked_mul(1_000_000_000)?.checked_add(ns)
}

fn parse_dev(s: &str) -> Option<(u32, u32)> {
    let (a, b) = s.split_once(',')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

fn parse_lost(s: &str) -> Option<Line> {
    // CPU:1 [LOST 123 EVENTS]
    let rest = s.trim().strip_prefix("CPU:")?;
    let (cpu, rest) = rest.split_once(' ')?;
    let n = rest
        .trim()
        .strip_prefix("[LOST ")?
        .strip_suffix(" EVENTS]")?;
    Some(Line::Lost {
        cpu: cpu.parse().ok()?,
        events: n.trim().parse().ok()?,
    })
}

/// The payload after `block_rq_issue: ` / `block_rq_complete: `.
fn parse_payload(ts_ns: u64, payload: &str, issue: bool) -> Option<Event> {
    let mut t = payload.split_whitespace();
    let dev = parse_dev(t.next()?)?;
    let rwbs = t.next()?;
    if rwbs.is_empty() || rwbs.len() > 16 || !rwbs.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    let bytes = if issue {
        Some(t.next()?.parse::<u64>().ok()?)
    } else {
        None
    };
    // (cmd): empty on current kernels; a passthrough command printed in hex on old ones, which
    // may hold spaces.
    let mut tok = t.next()?;
    if !tok.starts_with('(') {
        return None;
    }
    while !tok.ends_with(')') {
        tok = t.next()?;
    }
    let sector: u64 = t.next()?.parse().ok()?;
    if t.next()? != "+" {
        return None;
    }
    let nr_sector: u32 = t.next()?.parse().ok()?;
    // Then the ioprio (6.10+) and the bracketed comm (issue) or error (complete).
    let rest: Vec<&str> = t.collect();
    let error = if issue {
        if !rest.iter().any(|x| x.starts_with('[')) {
            return None;
        }
        None
    } else {
        let last = rest.last()?;
        let e = last.strip_prefix('[')?.strip_suffix(']')?;
        if rest.len() > 2 {
            return None;
        }
        Some(e.parse::<i32>().ok()?)
    };
    Some(Event {
        dev,
        ts_ns,
        rwbs: rwbs.to_string(),
        bytes,
        sector,
        nr_sector,
        error,
    })
}

/// Parse one line of `trace_pipe`: `None` for an empty line, `Line::Garbage` for anything not
/// understood (never a panic).
pub fn parse_line(line: &str) -> Option<Line> {
    let l = line.trim_end();
    if l.trim().is_empty() {
        return None;
    }
    for (marker, issue) in [
        (": block_rq_issue: ", true),
        (": block_rq_complete: ", false),
    ] {
        if let Some(i) = l.find(marker) {
            // The task name before the timestamp may hold spaces: the timestamp is the last
            // word before the event name.
            let ts = l[..i].split_whitespace().last().and_then(parse_ts);
            let ev = ts.and_then(|ts| parse_payload(ts, &l[i + marker.len()..], issue));
            return Some(match ev {
                Some(e) if issue => Line::Issue(e),
                Some(e) => Line::Complete(e),
                None => Line::Garbage,
            });
        }
    }
    if l.trim_start().starts_with("CPU:") {
        return Some(parse_lost(l).unwrap_or(Line::Garbage));
    }
    Some(Line::Garbage)
}

/// The operation of a request from its rwbs: `R` read, `W` write (and zone append, which
/// carries data), `D` discard (and secure erase), `F` flush only (a flush request, or a
/// pre-flush without data), `N` other.
pub fn op_of(rwbs: &str, nr_sector: u32) -> char {
    let b = rwbs.as_bytes();
    let preflush =
        b.len() >= 2 && b[0] == b'F' && matches!(b[1], b'R' | b'W' | b'D' | b'F' | b'N' | b'Z');
    let i = usize::from(preflush);
    match b.get(i) {
        Some(b'R') => 'R',
        Some(b'W') if preflush && nr_sector == 0 => 'F',
        Some(b'W') => 'W',
        Some(b'D') => 'D',
        Some(b'F') => 'F',
        Some(b'Z') if b.get(i + 1) == Some(&b'A') => 'W',
        _ => 'N',
    }
}

#[cfg(test)]
pub(super) mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    pub(crate) const ISSUE: &str = "             fio-1234    [001] ..... 12345.678901: block_rq_issue: 7,0 R 262144 () 123456 + 512 none,0,0 [fio]";
    pub(crate) const COMPLETE: &str =
        "          <idle>-0       [000] ..s1. 12345.679001: block_rq_complete: 7,0 R () 123456 + 512 none,0,0 [0]";

    fn ev(line: &str) -> Event {
        match parse_line(line) {
            Some(Line::Issue(e)) | Some(Line::Complete(e)) => e,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn issue_line() {
        assert_eq!(
            parse_line(ISSUE),
            Some(Line::Issue(Event {
                dev: (7, 0),
                ts_ns: 12_345_678_901_000,
                rwbs: "R".into(),
                bytes: Some(262_144),
                sector: 123_456,
                nr_sector: 512,
                error: None,
            }))
        );
    }

    #[test]
    fn complete_line() {
        assert_eq!(
            parse_line(COMPLETE),
            Some(Line::Complete(Event {
                dev: (7, 0),
                ts_ns: 12_345_679_001_000,
                rwbs: "R".into(),
                bytes: None,
                sector: 123_456,
                nr_sector: 512,
                error: Some(0),
            }))
        );
    }

    #[test]
    fn without_the_ioprio_part_of_older_kernels() {
        let i = ev("  kworker/u8:2-events-99  [003] d..1.  8.000001: block_rq_issue: 259,1 WS 4096 () 2048 + 8 [kworker/u8:2]");
        assert_eq!(
            (i.dev, i.rwbs.as_str(), i.bytes, i.sector, i.nr_sector),
            ((259, 1), "WS", Some(4096), 2048, 8)
        );
        assert_eq!(i.ts_ns, 8_000_001_000);
        let c = ev("<idle>-0 [000] d.h1. 8.000101: block_rq_complete: 259,1 WS () 2048 + 8 [-5]");
        assert_eq!((c.error, c.sector, c.nr_sector), (Some(-5), 2048, 8));
        // Older still: no flags column, three decimals.
        let c = ev("<idle>-0 [000] 8.123: block_rq_complete: 8,16 D () 0 + 2048 [0]");
        assert_eq!((c.ts_ns, c.rwbs.as_str()), (8_123_000_000, "D"));
    }

    #[test]
    fn task_names_with_spaces_and_hex_commands() {
        let i = ev("   Web Content-4242  [001] ..... 100.000000: block_rq_issue: 8,0 RA 131072 () 10 + 256 be,0,4 [Web Content]");
        assert_eq!((i.rwbs.as_str(), i.nr_sector), ("RA", 256));
        let i = ev("sg_inq-77 [000] ..... 5.5: block_rq_issue: 8,0 N 36 (12 00 00 00 24 00) 0 + 0 none,0,0 [sg_inq]");
        assert_eq!(
            (i.bytes, i.nr_sector, i.ts_ns),
            (Some(36), 0, 5_500_000_000)
        );
    }

    #[test]
    fn lost_line() {
        assert_eq!(
            parse_line("CPU:1 [LOST 123 EVENTS]"),
            Some(Line::Lost {
                cpu: 1,
                events: 123
            })
        );
        assert_eq!(parse_line("CPU:x [LOST 1 EVENTS]"), Some(Line::Garbage));
    }

    #[test]
    fn garbage_is_reported_never_a_panic() {
        assert_eq!(parse_line(""), None);
        assert_eq!(parse_line("   \n"), None);
        for g in [
            "hello",
            "# tracer: nop",
            ": block_rq_issue: ",
            "x 1.0: block_rq_issue: 7,0",
            "x 1.0: block_rq_issue: 7,0 R",
            "x 1.0: block_rq_issue: 7,0 R 4096 () 8 + ",
            "x 1.0: block_rq_issue: 7,0 R 4096 () 8 + 8",
            "x 1.0: block_rq_issue: 7,0 R 4096 (unclosed 8 + 8 [x]",
            "x 1.0: block_rq_issue: 7;0 R 4096 () 8 + 8 [x]",
            "x 1.0: block_rq_issue: 7,0 R -1 () 8 + 8 [x]",
            "x 1.0: block_rq_complete: 7,0 R () 8 + 8 none,0,0 [zero]",
            "x 1.0: block_rq_complete: 7,0 R () 8 - 8 [0]",
            "x 1.0: block_rq_complete: 7,0 R () 99999999999999999999999 + 8 [0]",
            "x abc: block_rq_complete: 7,0 R () 8 + 8 [0]",
            "x 1.0123456789: block_rq_complete: 7,0 R () 8 + 8 [0]",
            "x 99999999999999999999.0: block_rq_complete: 7,0 R () 8 + 8 [0]",
            "x 1.0: block_rq_insert: 7,0 R 4096 () 8 + 8 [x]",
            "\u{0}\u{1}\u{fffd}",
        ] {
            assert_eq!(parse_line(g), Some(Line::Garbage), "{g:?}");
        }
        // Every prefix and a few byte mutations of real lines: never a panic.
        for l in [ISSUE, COMPLETE, "CPU:1 [LOST 123 EVENTS]"] {
            for n in 0..=l.len() {
                if l.is_char_boundary(n) {
                    let _ = parse_line(&l[..n]);
                }
            }
            let b = l.as_bytes();
            for i in 0..b.len() {
                let mut m = b.to_vec();
                m[i] = b'9';
                let _ = parse_line(&String::from_utf8_lossy(&m));
                m[i] = b' ';
                let _ = parse_line(&String::from_utf8_lossy(&m));
            }
        }
    }

    #[test]
    fn operations_from_rwbs() {
        assert_eq!(op_of("R", 8), 'R');
        assert_eq!(op_of("RA", 8), 'R');
        assert_eq!(op_of("RSM", 8), 'R');
        assert_eq!(op_of("W", 8), 'W');
        assert_eq!(op_of("WS", 8), 'W');
        assert_eq!(op_of("WFS", 8), 'W'); // FUA write
        assert_eq!(op_of("FWS", 8), 'W'); // pre-flush + data: the data write
        assert_eq!(op_of("FWS", 0), 'F'); // pre-flush without data
        assert_eq!(op_of("FF", 0), 'F'); // the flush machinery's flush request
        assert_eq!(op_of("F", 0), 'F');
        assert_eq!(op_of("FS", 0), 'F');
        assert_eq!(op_of("D", 2048), 'D');
        assert_eq!(op_of("DE", 2048), 'D');
        assert_eq!(op_of("ZA", 8), 'W');
        assert_eq!(op_of("ZR", 0), 'N');
        assert_eq!(op_of("N", 0), 'N');
        assert_eq!(op_of("", 0), 'N');
    }
}
