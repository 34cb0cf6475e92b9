#![allow(clippy::unwrap_used)]
use super::rows::PARALLEL_ROWS;
use super::*;
use proptest::prelude::*;

/// The splitter as first written, one char at a time (the reference the byte splitter keeps).
fn reference(line: &str, delim: char) -> std::result::Result<Vec<String>, (usize, &'static str)> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = line.chars().peekable();
    let (mut quoted, mut in_q) = (false, false);
    loop {
        let Some(c) = chars.next() else {
            if in_q {
                return Err((
                    out.len() + 1,
                    "a quoted value is not closed (the line is cut off?)",
                ));
            }
            out.push(std::mem::take(&mut cur));
            return Ok(out);
        };
        if in_q {
            if c == '"' {
                if chars.peek() == Some(&'"') {
                    cur.push('"');
                    chars.next();
                } else {
                    in_q = false;
                }
            } else {
                cur.push(c);
            }
        } else if c == '"' && !quoted && cur.trim().is_empty() {
            cur.clear();
            in_q = true;
            quoted = true;
        } else if c == delim {
            out.push(std::mem::take(&mut cur));
            quoted = false;
        } else if !quoted {
            cur.push(c);
        }
    }
}

/// A log of `n` rows at 1 s (two counters of one disk), and the rows changed by `edit`.
fn big_log(n: usize, edit: impl Fn(usize, String) -> String) -> String {
    let mut t = String::from("\"(PDH-CSV 4.0) (UTC)(0)\",\"\\\\H\\PhysicalDisk(0 C:)\\Disk Reads/sec\",\"\\\\H\\PhysicalDisk(0 C:)\\Avg. Disk sec/Read\"\r\n");
    for i in 0..n {
        let row = format!(
            "\"01/02/2024 {:02}:{:02}:{:02}.000\",\"{}.5\",\"0.00{}\"",
            i / 3600,
            (i / 60) % 60,
            i % 60,
            i % 100,
            1 + i % 9
        );
        t.push_str(&edit(i, row));
        t.push_str("\r\n");
    }
    t
}

#[test]
#[allow(clippy::too_many_lines)] // a test: tests are exempt
fn two_threads_read_a_large_log_as_one_pass_does() {
    let n = PARALLEL_ROWS + 1001;
    let mid = n / 2; // the first row of the second half
    type Edit = Box<dyn Fn(usize, String) -> String>;
    let cases: Vec<(&str, Edit)> = vec![
        ("as written", Box::new(|_, r| r)),
        (
            "the first row of the second half goes back",
            Box::new(move |i, r| {
                if i == mid {
                    r.replacen(
                        &format!("{:02}:{:02}:{:02}", i / 3600, (i / 60) % 60, i % 60),
                        "00:00:00",
                        1,
                    )
                } else {
                    r
                }
            }),
        ),
        (
            "a bad number in the second half",
            Box::new(move |i, r| {
                if i == mid + 50 {
                    r.replace(".5\"", ".5x\"")
                } else {
                    r
                }
            }),
        ),
        (
            "bad numbers in both halves: the first wins",
            Box::new(move |i, r| {
                if i == 10 || i == mid + 5 {
                    r.replace(".5\"", ".5x\"")
                } else {
                    r
                }
            }),
        ),
        (
            "a cut line in the second half",
            Box::new(move |i, r| if i == mid + 7 { r[..20].to_string() } else { r }),
        ),
        (
            "the last row of the first half has a bad time",
            Box::new(move |i, r| {
                if i == mid - 1 {
                    r.replacen("01/02", "13/45", 1)
                } else {
                    r
                }
            }),
        ),
    ];
    for (what, edit) in cases {
        let text = big_log(n, edit);
        let o = ParseOpts::default();
        let par = parse("f", &text, &o, false);
        // the same rows read in one pass
        let all = lines(&text);
        let data: Vec<(usize, &str)> = all
            .iter()
            .enumerate()
            .skip(1)
            .map(|(i, l)| (i + 1, *l))
            .collect();
        let hp = parse("f", &big_log(3, |_, r| r), &o, false).unwrap();
        assert_eq!(hp.devices.len(), 1);
        let rows = Rows {
            file: "f",
            delim: ',',
            ncols: 3,
            order: DateOrder::MonthFirst,
            off: 0,
            mapped: Vec::new(),
            ndev: 1,
        };
        let seq = rows.chunk(&data, None);
        match (par, seq) {
            (Ok(p), Ok(s)) => {
                assert_eq!(p.samples.len(), n, "{what}");
                assert_eq!(
                    p.samples
                        .iter()
                        .map(|x| (x.utc_ms, x.line))
                        .collect::<Vec<_>>(),
                    s.iter().map(|x| (x.utc_ms, x.line)).collect::<Vec<_>>(),
                    "{what}"
                );
                assert_eq!(
                    p.samples[mid].rates[0].unwrap().reads_per_s,
                    Some((mid % 100) as f64 + 0.5)
                );
            }
            (Err(p), Err(s)) => {
                let (p, s) = (p.to_string(), s.to_string());
                // the numbers are not read in the one-pass reference (no mapped columns): compare where it stops
                if what.contains("bad number") {
                    let line = if what.contains("both") { 12 } else { mid + 52 };
                    assert!(
                        p.starts_with(&format!("f, line {line}, column 2: ")),
                        "{what}: {p}"
                    );
                } else {
                    assert_eq!(p, s, "{what}");
                }
            }
            (Err(p), Ok(_)) if what.contains("bad number") => {
                let p = p.to_string();
                let line = if what.contains("both") { 12 } else { mid + 52 };
                assert!(
                    p.starts_with(&format!("f, line {line}, column 2: ")),
                    "{what}: {p}"
                );
            }
            (p, s) => panic!(
                "{what}: parallel {:?} vs one pass {:?}",
                p.map(|x| x.samples.len()),
                s.map(|x| x.len())
            ),
        }
    }
}

#[test]
fn worked_examples() {
    let s = |l: &str| split_fields(l, ',').unwrap();
    assert_eq!(s(r#""a","b""c",d"#), vec!["a", "b\"c", "d"]);
    assert_eq!(s(r#"  "x" tail,y,"#), vec!["x", "y", ""]);
    assert_eq!(
        s(r#"a"b,"Processor(2,10)""#),
        vec!["a\"b", "Processor(2,10)"]
    );
    assert_eq!(s(""), vec![""]);
    assert_eq!(
        split_fields(r#""a","b"#, ','),
        Err((2, "a quoted value is not closed (the line is cut off?)"))
    );
    // the buffers are reused: fewer fields than last time leave the rest untouched but not counted
    let mut buf = Vec::new();
    assert_eq!(split_fields_into("1,2,3", ',', &mut buf), Ok(3));
    assert_eq!(split_fields_into("\"é\"\t4", '\t', &mut buf), Ok(2));
    assert_eq!(&buf[..2], &["é".to_string(), "4".to_string()]);
}

proptest! {
    #[test]
    fn the_byte_splitter_gives_what_the_char_splitter_gave(line in "[a-c é\",;\t]{0,40}", d in prop::sample::select(vec![',', ';', '\t'])) {
        let mut buf = vec![String::from("stale")];
        let got = split_fields_into(&line, d, &mut buf).map(|n| buf[..n].to_vec());
        prop_assert_eq!(got, reference(&line, d));
    }
}
