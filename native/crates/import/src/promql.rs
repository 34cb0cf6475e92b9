//! The host selector of `import prometheus --hosts SELECTOR`: a PromQL label matcher set
//! (`{job="node",instance=~"db.*"}`), checked here so that a mistake is one sentence naming the
//! column, before any query is sent (docs/import.md, "prometheus").
//!
//! Grammar (the PromQL one, without a metric name): `{` matcher (`,` matcher)* `,`? `}`, where a
//! matcher is `label op string`, `label` is `[a-zA-Z_][a-zA-Z0-9_]*`, `op` one of `=`, `!=`, `=~`,
//! `!~`, and `string` is quoted with `"` or `'` (backslash escapes) or with backquotes (raw).
//! The braces may be left out. Regular expressions are checked by the server (RE2): its refusal
//! comes back as the query's error.

/// One label matcher.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matcher {
    pub label: String,
    /// `=`, `!=`, `=~` or `!~`.
    pub op: &'static str,
    pub value: String,
}

const EXAMPLE: &str = "e.g. '{job=\"node\",instance=~\"db.*\"}'";

fn err(col: usize, what: impl AsRef<str>) -> String {
    format!(
        "column {col}: {} (a PromQL label matcher set, {EXAMPLE})",
        what.as_ref()
    )
}

/// Parse a selector into matchers; the error is a sentence naming the column (1-based).
pub fn parse_selector(s: &str) -> Result<Vec<Matcher>, String> {
    let mut r = Reader {
        c: s.chars().collect(),
        i: 0,
    };
    r.skip();
    r.no_metric_name()?;
    let braced = r.i < r.c.len() && r.c[r.i] == '{';
    if braced {
        r.i += 1;
    }
    let mut out = Vec::new();
    loop {
        r.skip();
        if r.end(braced)? {
            break;
        }
        let l0 = r.i;
        let label = r.label()?;
        let op = r.op(&label)?;
        let value = r.value(&label, op)?;
        if label == "__name__" {
            return Err(err(
                l0 + 1,
                "the metric names (__name__) are chosen by the import: select hosts by their labels (job, instance, …)",
            ));
        }
        out.push(Matcher { label, op, value });
        r.skip();
        match r.c.get(r.i) {
            Some(',') => r.i += 1,
            Some('}') | None => {}
            Some(x) => {
                return Err(err(
                    r.i + 1,
                    format!("expected ',' or '}}' after a matcher, found '{x}'"),
                ))
            }
        }
    }
    Ok(out)
}

/// A selector's characters and the index of the next one to read.
struct Reader {
    c: Vec<char>,
    i: usize,
}

impl Reader {
    /// Skip white space.
    fn skip(&mut self) {
        while self.i < self.c.len() && self.c[self.i].is_whitespace() {
            self.i += 1;
        }
    }

    /// Refuse a metric name before the braces.
    fn no_metric_name(&self) -> Result<(), String> {
        let (c, i) = (&self.c, self.i);
        if !(i < c.len() && (c[i].is_ascii_alphabetic() || c[i] == '_' || c[i] == ':')) {
            return Ok(());
        }
        let mut j = i;
        while j < c.len() && (c[j].is_ascii_alphanumeric() || c[j] == '_' || c[j] == ':') {
            j += 1;
        }
        let mut k = j;
        while k < c.len() && c[k].is_whitespace() {
            k += 1;
        }
        if k < c.len() && c[k] == '{' {
            return Err(err(
                i + 1,
                format!(
                    "'{}' is a metric name: give only the label matchers in braces, the import chooses the metrics",
                    c[i..j].iter().collect::<String>()
                ),
            ));
        }
        Ok(())
    }

    /// Whether the selector ends here (the closing brace of a `braced` one, with nothing after
    /// it, or the end of an unbraced one).
    fn end(&mut self, braced: bool) -> Result<bool, String> {
        if self.i >= self.c.len() {
            if braced {
                return Err(err(self.i + 1, "the selector is not closed by '}'"));
            }
            return Ok(true);
        }
        if self.c[self.i] != '}' {
            return Ok(false);
        }
        if !braced {
            return Err(err(
                self.i + 1,
                "a '}' without the '{' that opens the selector",
            ));
        }
        self.i += 1;
        self.skip();
        if self.i < self.c.len() {
            return Err(err(
                self.i + 1,
                format!(
                    "'{}' after the closing '}}'",
                    self.c[self.i..].iter().collect::<String>()
                ),
            ));
        }
        Ok(true)
    }

    /// A label name.
    fn label(&mut self) -> Result<String, String> {
        let (c, l0) = (&self.c, self.i);
        if !(c[l0].is_ascii_alphabetic() || c[l0] == '_') {
            return Err(err(
                l0 + 1,
                format!(
                    "expected a label name (letters, digits and _), found '{}'",
                    c[l0]
                ),
            ));
        }
        let mut i = l0;
        while i < c.len() && (c[i].is_ascii_alphanumeric() || c[i] == '_') {
            i += 1;
        }
        self.i = i;
        Ok(c[l0..i].iter().collect())
    }

    /// The operator after `label`.
    fn op(&mut self, label: &str) -> Result<&'static str, String> {
        self.skip();
        let i = self.i;
        let op = match (self.c.get(i), self.c.get(i + 1)) {
            (Some('='), Some('~')) => "=~",
            (Some('!'), Some('~')) => "!~",
            (Some('!'), Some('=')) => "!=",
            (Some('='), _) => "=",
            (Some(x), _) => {
                return Err(err(
                    i + 1,
                    format!("expected =, !=, =~ or !~ after label '{label}', found '{x}'"),
                ))
            }
            (None, _) => {
                return Err(err(
                    i + 1,
                    format!("label '{label}' has no operator and value"),
                ))
            }
        };
        self.i += op.len();
        Ok(op)
    }

    /// The quoted value of `label` (escapes read, but a regex's kept as written).
    fn value(&mut self, label: &str, op: &str) -> Result<String, String> {
        self.skip();
        let c = &self.c;
        let mut i = self.i;
        let q = match c.get(i) {
            Some(q @ ('"' | '\'' | '`')) => *q,
            Some(x) => {
                return Err(err(
                    i + 1,
                    format!("the value of label '{label}' must be quoted (\"…\"), found '{x}'"),
                ))
            }
            None => return Err(err(i + 1, format!("label '{label}' {op} has no value"))),
        };
        let v0 = i;
        i += 1;
        let mut value = String::new();
        let mut closed = false;
        while i < c.len() {
            let ch = c[i];
            if ch == q {
                closed = true;
                i += 1;
                break;
            }
            if ch == '\\' && q != '`' {
                let Some(&e) = c.get(i + 1) else { break };
                match e {
                    'n' => value.push('\n'),
                    't' => value.push('\t'),
                    'r' => value.push('\r'),
                    '\\' | '"' | '\'' => value.push(e),
                    // RE2 escapes (\d, \.) inside a regex value are kept as written
                    other => {
                        value.push('\\');
                        value.push(other);
                    }
                }
                i += 2;
                continue;
            }
            value.push(ch);
            i += 1;
        }
        if !closed {
            return Err(err(
                v0 + 1,
                format!("the value of label '{label}' is not closed by {q}"),
            ));
        }
        self.i = i;
        Ok(value)
    }
}

/// A string as a PromQL double-quoted literal.
pub fn quote(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for ch in s.chars() {
        match ch {
            '"' => o.push_str("\\\""),
            '\n' => o.push_str("\\n"),
            '\\' => o.push_str("\\\\"),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// The matchers as PromQL, without braces (`job="node",instance=~"db.*"`).
pub fn render(ms: &[Matcher]) -> String {
    ms.iter()
        .map(|m| {
            // a regex value keeps its backslashes: RE2 reads them after the string is unquoted
            format!("{}{}{}", m.label, m.op, quote(&m.value))
        })
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn selectors_as_the_issue_writes_them() {
        let m = parse_selector(r#"{job="node",instance=~"db.*"}"#).unwrap();
        assert_eq!(
            m,
            [
                Matcher {
                    label: "job".into(),
                    op: "=",
                    value: "node".into()
                },
                Matcher {
                    label: "instance".into(),
                    op: "=~",
                    value: "db.*".into()
                }
            ]
        );
        assert_eq!(render(&m), r#"job="node",instance=~"db.*""#);
        assert!(parse_selector("{}").unwrap().is_empty());
        assert!(parse_selector("").unwrap().is_empty());
        let m = parse_selector(r#" job != 'x' , env!~`pro\d+`, "#).unwrap();
        assert_eq!(
            (m[0].op, m[1].op, m[1].value.as_str()),
            ("!=", "!~", r"pro\d+")
        );
        // a regex escape survives the round trip
        let m = parse_selector(r#"{instance=~"db\.example:9100"}"#).unwrap();
        assert_eq!(m[0].value, r"db\.example:9100");
        assert_eq!(render(&m), r#"instance=~"db\\.example:9100""#);
    }

    #[test]
    fn mistakes_are_one_sentence_with_the_column() {
        for (s, col, what) in [
            (r#"{job=node}"#, 6, "must be quoted"),
            (r#"{job="node""#, 12, "not closed by '}'"),
            (r#"{job="node}"#, 6, "not closed by \""),
            (r#"{job~"x"}"#, 5, "expected =, !=, =~ or !~"),
            (r#"{1job="x"}"#, 2, "expected a label name"),
            (r#"{__name__="up"}"#, 2, "chosen by the import"),
            (r#"node_disk_reads_total{job="x"}"#, 1, "is a metric name"),
            (r#"{job="x" env="y"}"#, 10, "expected ',' or '}'"),
            (r#"{job="x"} extra"#, 11, "after the closing"),
        ] {
            let e = parse_selector(s).unwrap_err();
            assert!(
                e.starts_with(&format!("column {col}: ")) && e.contains(what),
                "{s}: {e}"
            );
            assert_eq!(e.lines().count(), 1);
        }
    }
}
