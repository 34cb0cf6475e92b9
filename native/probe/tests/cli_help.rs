//! The probe's command line against its help and its docs: `--help` on every command exits 0
//! and lists every flag clap declares for it; every flag that docs/probe.md, docs/import.md and
//! docs/simulate.md give a command exists in its parser, and every declared flag is documented.
#![allow(clippy::unwrap_used)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use cacheproof_probe::commands::Cli;
use clap::CommandFactory;
use common::BIN;

/// A command path (`["record"]`, `["lab", "up"]`) and its long flags, aliases included: the
/// visible ones, or with `hidden` the hidden ones too (`--password`, refused with a sentence).
fn leaves_with(hidden: bool) -> BTreeMap<Vec<String>, BTreeSet<String>> {
    fn walk(
        c: &clap::Command,
        path: Vec<String>,
        hidden: bool,
        out: &mut BTreeMap<Vec<String>, BTreeSet<String>>,
    ) {
        let subs: Vec<&clap::Command> = c
            .get_subcommands()
            .filter(|s| s.get_name() != "help")
            .collect();
        if subs.is_empty() {
            let mut flags = BTreeSet::new();
            for a in c.get_arguments().filter(|a| hidden || !a.is_hide_set()) {
                if matches!(a.get_id().as_str(), "help" | "version") {
                    continue;
                }
                if let Some(l) = a.get_long() {
                    flags.insert(format!("--{l}"));
                }
                for al in a.get_visible_aliases().unwrap_or_default() {
                    flags.insert(format!("--{al}"));
                }
            }
            out.insert(path, flags);
            return;
        }
        for s in subs {
            let mut p = path.clone();
            p.push(s.get_name().to_string());
            walk(s, p, hidden, out);
        }
    }
    let mut out = BTreeMap::new();
    walk(&Cli::command(), Vec::new(), hidden, &mut out);
    out
}

fn leaves() -> BTreeMap<Vec<String>, BTreeSet<String>> {
    leaves_with(false)
}

/// clap's own checks of the declaration (rules naming flags that exist, no clashing names).
#[test]
fn the_declaration_is_consistent() {
    Cli::command().debug_assert();
}

#[test]
fn every_command_has_help_listing_its_flags() {
    let leaves = leaves();
    assert!(leaves.len() >= 20, "{:?}", leaves.keys());
    let mut groups: BTreeSet<Vec<String>> = BTreeSet::new();
    for path in leaves.keys() {
        for n in 0..=path.len() {
            groups.insert(path[..n].to_vec());
        }
    }
    for path in &groups {
        let mut args = path.clone();
        args.push("--help".into());
        let o = Command::new(BIN).args(&args).output().unwrap();
        let text = String::from_utf8_lossy(&o.stdout);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(text.contains("Usage: cacheproof-probe"), "{args:?}: {text}");
        for f in leaves.get(path).into_iter().flatten() {
            assert!(
                text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                    .any(|w| w == f),
                "{args:?}: {f} is not in the help:\n{text}"
            );
        }
    }
    // A usage error is one sentence naming the flag, exit 2.
    for (args, want) in [
        (vec!["import", "--frobnicate"], "--frobnicate"),
        (
            vec!["record", "--trace-sample", "0.5", "--out", "/tmp/never"],
            "--trace",
        ),
        (
            vec!["record", "--devices", "sda", "--all", "--out", "/tmp/never"],
            "--all",
        ),
        (
            vec!["simulate", "x", "--sizes", "1GiB", "--curve"],
            "--curve",
        ),
        (
            vec!["simulate", "x", "--sample-salt", "3", "--sizes", "1GiB"],
            "--sample",
        ),
        (
            vec!["engine", "enable", "bcache", "--yes", "--dir", "x"],
            "--dir",
        ),
        (vec!["lab"], "up, down, status, switch, workload"),
    ] {
        let o = Command::new(BIN).args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = common::one_sentence(&o);
        assert!(
            e.starts_with("cacheproof-probe: ") && e.contains(want),
            "{args:?}: {e}"
        );
    }
}

/// Where docs give flags to commands: the targets (command paths; more than one for
/// `lab down|status`) and the flags.
type Mentions = Vec<(BTreeSet<Vec<String>>, BTreeSet<String>)>;

/// The `--flags` of a text: words starting with `--` (up to `=`, a space or a bracket).
fn flags_in(s: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(k) = s[i..].find("--") {
        let at = i + k;
        let before = if at == 0 { b' ' } else { b[at - 1] };
        let mut end = at + 2;
        while end < b.len()
            && (b[end].is_ascii_lowercase() || b[end].is_ascii_digit() || b[end] == b'-')
        {
            end += 1;
        }
        if matches!(before, b' ' | b'[' | b'(' | b'|' | b'`' | b'\t')
            && end > at + 2
            && b[at + 2].is_ascii_lowercase()
        {
            out.insert(s[at..end].to_string());
        }
        i = end.max(at + 2);
    }
    out
}

/// The command paths a command text (`lab down|status [--dir DIR]`, `record --out …`) is about,
/// or none when its first word is no command.
fn targets(text: &str, leaves: &BTreeMap<Vec<String>, BTreeSet<String>>) -> BTreeSet<Vec<String>> {
    let t = text.trim();
    let t = t
        .strip_prefix("cacheproof-probe ")
        .or_else(|| t.strip_prefix("$P "))
        .unwrap_or(t);
    let mut words = t.split_whitespace();
    let Some(first) = words.next() else {
        return BTreeSet::new();
    };
    let under: Vec<&Vec<String>> = leaves.keys().filter(|p| p[0] == first).collect();
    if under.iter().any(|p| p.len() == 1) {
        return under.into_iter().cloned().collect();
    }
    let verbs: Vec<&str> = words
        .next()
        .map(|w| w.split('|').collect())
        .unwrap_or_default();
    let named: BTreeSet<Vec<String>> = under
        .iter()
        .filter(|p| verbs.contains(&p[1].as_str()))
        .map(|p| (*p).clone())
        .collect();
    if named.is_empty() {
        under.into_iter().cloned().collect()
    } else {
        named
    }
}

/// A command line of a text cut where a shell pipe, `&&`, `;` or a comment starts.
fn command_part(s: &str) -> &str {
    let mut end = s.len();
    for cut in [" && ", "; ", " # ", " > "] {
        if let Some(i) = s.find(cut) {
            end = end.min(i);
        }
    }
    // a pipe into another program (` | head`), not an alternative (`[--devices a,b | --all]`)
    let mut from = 0;
    while let Some(i) = s[from..end].find(" | ") {
        let at = from + i;
        let next = s[at + 3..].trim_start();
        if next.starts_with(|c: char| c.is_ascii_lowercase()) {
            end = at;
            break;
        }
        from = at + 3;
    }
    &s[..end]
}

/// What a markdown file gives to which commands: command lines in code blocks, inline code
/// that starts with a command, and inline code that starts with `--` under a heading naming a
/// command (a section ends at the next heading of its level or above).
fn mentions(
    doc: &str,
    whole: Option<&str>,
    leaves: &BTreeMap<Vec<String>, BTreeSet<String>>,
) -> Mentions {
    let mut out = Vec::new();
    let mut section: Vec<(usize, BTreeSet<Vec<String>>)> = Vec::new();
    if let Some(w) = whole {
        section.push((0, targets(w, leaves)));
    }
    let mut fence = false;
    let mut block: Vec<String> = Vec::new();
    for line in doc.lines() {
        if line.trim_start().starts_with("```") {
            fence = !fence;
            continue;
        }
        if fence {
            // one command per line; an indented line or one after `\` continues it
            let cont = block.last().is_some_and(|l: &String| l.ends_with('\\'));
            if (line.starts_with(' ') || cont) && !block.is_empty() {
                let last = block.last_mut().unwrap();
                *last = format!("{} {}", last.trim_end_matches('\\'), line.trim());
            } else {
                block.push(line.to_string());
            }
            continue;
        }
        for l in block.drain(..) {
            let t = targets(command_part(&l), leaves);
            if !t.is_empty() {
                out.push((t, flags_in(command_part(&l))));
            }
        }
        let spans: Vec<&str> = line.split('`').skip(1).step_by(2).collect();
        if let Some(h) = line.strip_prefix('#') {
            let level = 1 + h.chars().take_while(|c| *c == '#').count();
            section.retain(|(l, _)| *l < level);
            let named = spans
                .iter()
                .map(|s| targets(command_part(s), leaves))
                .find(|t| !t.is_empty());
            if let Some(t) = named {
                section.push((level, t));
            }
        }
        // Under a heading naming a command, the flags a list item or a table row defines: a
        // list item's first inline code, a table row's first cell (prose elsewhere that names
        // a flag refers to it, often another command's).
        let trimmed = line.trim_start().replace("\\|", "¦");
        let defined: Vec<String> = if let Some(item) = trimmed.strip_prefix("- `") {
            item.split('`').take(1).map(str::to_string).collect()
        } else if let Some(row) = trimmed.strip_prefix('|') {
            let cell = row.split('|').next().unwrap_or_default();
            cell.split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect()
        } else {
            Vec::new()
        };
        for d in &defined {
            if d.starts_with("--") {
                if let Some((_, t)) = section.last() {
                    out.push((t.clone(), flags_in(command_part(d))));
                }
            }
        }
        for s in spans {
            let s = command_part(s);
            if s.starts_with("--") {
                continue;
            } else {
                let t = targets(s, leaves);
                if !t.is_empty() {
                    out.push((t, flags_in(s)));
                }
            }
        }
    }
    out
}

#[test]
fn docs_and_parser_name_the_same_flags() {
    let leaves = leaves();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs");
    let mut all: Mentions = Vec::new();
    for (file, whole) in [
        ("probe.md", None),
        ("import.md", Some("import")),
        ("simulate.md", None),
    ] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        all.extend(mentions(&text, whole, &leaves));
    }
    // docs → parser: a flag given to a command is one of its flags (of one of them for `a|b`)
    let declared = leaves_with(true);
    let mut wrong = Vec::new();
    for (t, flags) in &all {
        for f in flags {
            if f == "--help" || f == "--version" {
                continue;
            }
            if !t.iter().any(|p| declared[p].contains(f)) {
                wrong.push(format!("{f} given to {t:?}"));
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(
        wrong.is_empty(),
        "documented flags the parser does not have:\n{}",
        wrong.join("\n")
    );
    // parser → docs: every declared flag is documented for its command
    let mut missing = Vec::new();
    for (path, flags) in &leaves {
        for f in flags {
            if !all.iter().any(|(t, fl)| t.contains(path) && fl.contains(f)) {
                missing.push(format!("{} {f}", path.join(" ")));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "declared flags the docs do not give:\n{}",
        missing.join("\n")
    );
}
