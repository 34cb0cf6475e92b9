//! Civil dates and times of the imported formats to UTC epoch milliseconds.

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (i64::from(m) + 9) % 12;
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// A local date: (year, month, day).
pub type Ymd = (i64, u32, u32);

fn valid(y: i64, m: u32, d: u32) -> Option<Ymd> {
    ((1970..=2200).contains(&y) && (1..=12).contains(&m) && (1..=31).contains(&d))
        .then_some((y, m, d))
}

fn year(s: &str) -> Option<i64> {
    let y: i64 = s.parse().ok()?;
    Some(if s.len() <= 2 { 2000 + y } else { y })
}

/// Order of the day and month in a slashed date.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateOrder {
    MonthFirst,
    DayFirst,
}

/// Parse `MM/DD/YYYY` (or `DD/MM/YYYY` with `DayFirst`), `DD.MM.YYYY`, `YYYY-MM-DD`,
/// `YYYY/MM/DD`; two-digit years are 20YY.
pub fn parse_date(s: &str, order: DateOrder) -> Option<Ymd> {
    let s = s.trim();
    let sep = s.chars().find(|c| matches!(c, '/' | '.' | '-'))?;
    let p: Vec<&str> = s.split(sep).collect();
    if p.len() != 3
        || p.iter()
            .any(|x| x.is_empty() || !x.bytes().all(|c| c.is_ascii_digit()))
    {
        return None;
    }
    if p[0].len() == 4 {
        return valid(p[0].parse().ok()?, p[1].parse().ok()?, p[2].parse().ok()?);
    }
    let a: u32 = p[0].parse().ok()?;
    let b: u32 = p[1].parse().ok()?;
    let y = year(p[2])?;
    if sep == '.' || (sep == '/' && order == DateOrder::DayFirst) || sep == '-' {
        valid(y, b, a)
    } else {
        valid(y, a, b)
    }
}

/// Whether a slashed date can only be day-first (its first number is above 12).
pub fn must_be_day_first(s: &str) -> bool {
    let mut it = s.trim().split('/');
    let a: u32 = it.next().and_then(|x| x.parse().ok()).unwrap_or(0);
    let b: u32 = it.next().and_then(|x| x.parse().ok()).unwrap_or(0);
    a > 12 && b <= 12 && it.next().is_some_and(|y| y.len() != 4 || !y.is_empty())
}

/// Parse `HH:MM[:SS[.fff]]` with an optional ` AM`/` PM`: milliseconds since midnight.
pub fn parse_time(s: &str) -> Option<i64> {
    let s = s.trim();
    let (t, ampm) = match s.rsplit_once(' ') {
        Some((t, ap)) if ap.eq_ignore_ascii_case("am") || ap.eq_ignore_ascii_case("pm") => {
            (t.trim(), Some(ap.eq_ignore_ascii_case("pm")))
        }
        _ => (s, None),
    };
    let p: Vec<&str> = t.split(':').collect();
    if p.len() < 2 || p.len() > 3 {
        return None;
    }
    let h: i64 = p[0].parse().ok()?;
    let m: i64 = p[1].parse().ok()?;
    let (sec, ms) = match p.get(2) {
        Some(x) => {
            let (a, b) = x.split_once(['.', ',']).unwrap_or((x, ""));
            let sec: i64 = a.parse().ok()?;
            let frac = format!("{:0<3}", b.get(..b.len().min(3))?);
            let ms: i64 = if b.is_empty() { 0 } else { frac.parse().ok()? };
            (sec, ms)
        }
        None => (0, 0),
    };
    if !(0..=59).contains(&m) || !(0..=60).contains(&sec) {
        return None;
    }
    let h = match ampm {
        Some(pm) => {
            if !(1..=12).contains(&h) {
                return None;
            }
            (h % 12) + if pm { 12 } else { 0 }
        }
        None => {
            if !(0..=23).contains(&h) {
                return None;
            }
            h
        }
    };
    Some(((h * 60 + m) * 60 + sec) * 1000 + ms)
}

/// Local date + ms since midnight to UTC ms, for a source whose clock is `offset_min` ahead of UTC.
pub fn to_utc_ms(d: Ymd, ms_of_day: i64, offset_min: i64) -> i64 {
    days_from_civil(d.0, d.1, d.2) * 86_400_000 + ms_of_day - offset_min * 60_000
}

/// Parse an ISO 8601 time `YYYY-MM-DD[T ]HH:MM:SS[.fff][Z|±HH[:]MM]`: (UTC ms, offset minutes if given).
pub fn parse_iso(s: &str) -> Option<(i64, Option<i64>)> {
    let s = s.trim();
    if s.len() < 16 {
        return None;
    }
    let (d, rest) = (s.get(..10)?, s.get(11..)?);
    let sep = s.as_bytes().get(10)?;
    if *sep != b'T' && *sep != b' ' {
        return None;
    }
    let date = parse_date(d, DateOrder::MonthFirst)?;
    let (t, off) = if let Some(t) = rest.strip_suffix('Z') {
        (t, Some(0))
    } else if let Some(i) = rest.rfind(['+', '-']) {
        let (t, o) = rest.split_at(i);
        let sign = if o.starts_with('-') { -1 } else { 1 };
        let digits: String = o[1..].chars().filter(|c| c.is_ascii_digit()).collect();
        if digits.len() != 4 {
            return None;
        }
        let hh: i64 = digits[..2].parse().ok()?;
        let mm: i64 = digits[2..].parse().ok()?;
        (t, Some(sign * (hh * 60 + mm)))
    } else {
        (rest, None)
    };
    let ms = parse_time(t)?;
    Some((to_utc_ms(date, ms, off.unwrap_or(0)), off))
}

/// Parse a `--switch-at`/`--start` time: epoch seconds, or ISO 8601 (UTC when no offset given).
pub fn parse_user_time(s: &str) -> Option<i64> {
    if let Ok(x) = s.trim().parse::<f64>() {
        return Some((x * 1000.0).round() as i64);
    }
    parse_iso(s).map(|x| x.0)
}

/// Format UTC ms as `YYYY-MM-DDTHH:MM:SS.fffZ` (the probe's one ISO formatter).
pub use crate::clock::iso_utc as iso;
