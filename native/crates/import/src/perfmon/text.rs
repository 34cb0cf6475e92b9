//! Reading the PDH-CSV / PDH-TSV text: delimited lines with PDH quoting, counter paths, and the
//! time zone of the header's first cell.

/// Split one delimited line with PDH quoting ("" is a quote inside a quoted field).
/// Err((column, message)) for an unterminated quote.
pub fn split_fields(
    line: &str,
    delim: char,
) -> std::result::Result<Vec<String>, (usize, &'static str)> {
    let mut out = Vec::new();
    let n = split_fields_into(line, delim, &mut out)?;
    out.truncate(n);
    Ok(out)
}

/// [`split_fields`] into reused buffers: the fields go to `out[..n]` (each String cleared and
/// refilled, so rows are split without allocating once the buffers have grown), and `n` is
/// returned. Built on [`split_ranges`], with `""` inside a quoted field turned into one quote.
pub fn split_fields_into(
    line: &str,
    delim: char,
    out: &mut Vec<String>,
) -> std::result::Result<usize, (usize, &'static str)> {
    let mut r = Vec::new();
    let n = split_ranges(line, delim, &mut r)?;
    for (k, &(a, b)) in r[..n].iter().enumerate() {
        if k == out.len() {
            out.push(String::new());
        }
        let cur = &mut out[k];
        cur.clear();
        let f = &line[a..b];
        if f.contains("\"\"") && quoted_at(line, a) {
            cur.push_str(&f.replace("\"\"", "\""));
        } else {
            cur.push_str(f);
        }
    }
    Ok(n)
}

/// Whether the field whose text starts at byte `a` was quoted (its opening quote just before).
fn quoted_at(line: &str, a: usize) -> bool {
    a > 0 && line.as_bytes()[a - 1] == b'"'
}

/// Split one delimited line into the byte ranges of its fields, without copying: `out[..n]`
/// (reused), `n` returned. A field that starts with a quote (after blanks) is quoted: its range
/// is what lies between the quotes (`""` inside stays doubled: [`split_fields_into`] undoes it),
/// and what follows its closing quote up to the delimiter is dropped; any other field is kept as
/// written. `delim` is ASCII (`,`, `;` or a tab). Err((column, message)) for an unterminated quote.
pub fn split_ranges(
    line: &str,
    delim: char,
    out: &mut Vec<(usize, usize)>,
) -> std::result::Result<usize, (usize, &'static str)> {
    let d = delim as u8;
    let b = line.as_bytes();
    let len = b.len();
    let mut n = 0usize;
    let mut i = 0usize;
    loop {
        let start = i;
        let to_delim = |i: usize| memchr::memchr(d, &b[i..]).map_or(len, |k| i + k);
        i = memchr::memchr2(d, b'"', &b[i..]).map_or(len, |k| i + k);
        let range;
        if i < len && b[i] == b'"' && line[start..i].trim().is_empty() {
            i += 1;
            let a = i;
            loop {
                match memchr::memchr(b'"', &b[i..]) {
                    None => {
                        return Err((n + 1, "a quoted value is not closed (the line is cut off?)"))
                    }
                    Some(k) => i += k,
                }
                if i + 1 < len && b[i + 1] == b'"' {
                    i += 2;
                    continue;
                }
                break;
            }
            range = (a, i);
            i = to_delim(i + 1);
        } else {
            i = to_delim(i);
            range = (start, i);
        }
        if n == out.len() {
            out.push(range);
        } else {
            out[n] = range;
        }
        n += 1;
        if i >= len {
            return Ok(n);
        }
        i += 1;
    }
}

/// A parsed counter path `\\HOST\Object(Instance)\Counter`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CounterPath {
    pub host: String,
    pub object: String,
    pub instance: Option<String>,
    pub counter: String,
}

/// Parse a counter path; instances may hold commas, spaces, parentheses and `#n` suffixes.
pub fn parse_path(s: &str) -> Option<CounterPath> {
    let s = s.trim();
    let (host, rest) = if let Some(r) = s.strip_prefix("\\\\") {
        let i = r.find('\\')?;
        (r[..i].to_string(), &r[i + 1..])
    } else {
        (String::new(), s.strip_prefix('\\')?)
    };
    // The counter follows the last backslash outside parentheses.
    let mut depth = 0i32;
    let mut split = None;
    for (i, c) in rest.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            '\\' if depth <= 0 => split = Some(i),
            _ => {}
        }
    }
    let i = split?;
    let (obj, counter) = (&rest[..i], &rest[i + 1..]);
    if counter.is_empty() || obj.is_empty() {
        return None;
    }
    let (object, instance) = match (obj.find('('), obj.ends_with(')')) {
        (Some(p), true) => (
            obj[..p].to_string(),
            Some(obj[p + 1..obj.len() - 1].to_string()),
        ),
        _ => (obj.to_string(), None),
    };
    Some(CounterPath {
        host,
        object,
        instance,
        counter: counter.to_string(),
    })
}

/// The time zone part of the first header cell: `(PDH-CSV 4.0) (Zone name)(bias)` where bias
/// = UTC − local in minutes. Returns (zone name, bias) — either may be missing (typeperf
/// writes no zone; some logs cut the zone name off).
pub fn parse_tz(cell: &str) -> (Option<String>, Option<i64>) {
    let Some(i) = cell.find(')') else {
        return (None, None);
    };
    let rest = cell[i + 1..].trim();
    if rest.is_empty() {
        return (None, None);
    }
    let mut bias = None;
    let mut name_part = rest;
    if rest.ends_with(')') {
        if let Some(j) = rest.rfind('(') {
            if let Ok(b) = rest[j + 1..rest.len() - 1].trim().parse::<i64>() {
                bias = Some(b);
                name_part = &rest[..j];
            }
        }
    }
    let name = name_part.trim();
    let name = name.strip_prefix('(').unwrap_or(name);
    let name = name.strip_suffix(')').unwrap_or(name).trim();
    ((!name.is_empty()).then(|| name.to_string()), bias)
}
