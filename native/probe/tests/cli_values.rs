//! `cacheproof-probe COMMAND --help` lists the allowed values of every enumerated flag and
//! argument. The commands are taken from the probe's own `--help` (and a command's verbs from
//! its `--help`), so a new command is covered without a change here.
#![allow(clippy::unwrap_used)]

mod common;

use std::process::Command;

use cacheproof_probe::commands::Cli;
use clap::CommandFactory;
use common::BIN;

fn help(path: &[String]) -> String {
    let o = Command::new(BIN).args(path).arg("--help").output().unwrap();
    assert_eq!(o.status.code(), Some(0), "{path:?} --help");
    String::from_utf8(o.stdout).unwrap()
}

/// The names in a help's `Commands:` section (clap's own `help` left out).
fn commands_in(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(str::to_string)
        .collect()
}

/// Every command path the probe's help leads to, with its help text: the leaves (a command
/// with verbs, as `lab`, is walked into).
fn leaves() -> Vec<(Vec<String>, String)> {
    let mut out = Vec::new();
    let mut todo: Vec<Vec<String>> = commands_in(&help(&[]))
        .into_iter()
        .map(|c| vec![c])
        .collect();
    while let Some(path) = todo.pop() {
        let text = help(&path);
        let verbs = commands_in(&text);
        if verbs.is_empty() {
            out.push((path, text));
        } else {
            todo.extend(verbs.into_iter().map(|v| {
                let mut p = path.clone();
                p.push(v);
                p
            }));
        }
    }
    out
}

fn declared<'a>(root: &'a clap::Command, path: &[String]) -> &'a clap::Command {
    path.iter().fold(root, |c, name| {
        c.find_subcommand(name)
            .unwrap_or_else(|| panic!("{path:?}: the help names a command clap does not declare"))
    })
}

/// The values a help text lists for a flag or argument: `[possible values: a, b]` in the entry
/// that starts with `name` (`--policy <LIST>`, `<KIND>`, `[KIND]`): its first line and, when clap
/// puts the help below the name (a long entry), the lines up to the next entry.
fn listed(help: &str, name: &str) -> Option<Vec<String>> {
    let starts = |t: &str| {
        t.starts_with(&format!("{name} "))
            || t == name
            || t.starts_with(&format!("<{name}>"))
            || t.starts_with(&format!("[{name}]"))
    };
    let is_entry = |t: &str| t.starts_with('-') || t.starts_with('<') || t.starts_with('[');
    let mut lines = help.lines().map(str::trim_start);
    let first = lines.find(|t| starts(t))?;
    let entry = std::iter::once(first)
        .chain(lines.take_while(|t| !t.is_empty() && !is_entry(t)))
        .collect::<Vec<_>>()
        .join(" ");
    let (_, rest) = entry.split_once("[possible values: ")?;
    let (values, _) = rest.split_once(']')?;
    Some(values.split(", ").map(str::to_string).collect())
}

#[test]
fn every_enumerated_option_lists_its_values() {
    let root = Cli::command();
    let leaves = leaves();
    let top: Vec<String> = root
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    let mut from_help: Vec<String> = leaves.iter().map(|(p, _)| p[0].clone()).collect();
    from_help.dedup();
    for c in &top {
        assert!(from_help.contains(c), "{c} is not in the probe's --help");
    }
    let mut enumerated = Vec::new();
    for (path, text) in &leaves {
        for a in declared(&root, path).get_arguments() {
            let values: Vec<String> = a
                .get_possible_values()
                .iter()
                .filter(|v| !v.is_hide_set())
                .map(|v| v.get_name().to_string())
                .collect();
            // (a flag that takes no value, --json, has clap's true/false: not a choice)
            if values.is_empty() || a.is_hide_set() || !a.get_action().takes_values() {
                continue;
            }
            let name = match a.get_long() {
                Some(l) => format!("--{l}"),
                None => a
                    .get_value_names()
                    .and_then(|n| n.first())
                    .map(|n| n.to_string())
                    .unwrap_or_else(|| a.get_id().to_string().to_uppercase()),
            };
            assert_eq!(
                listed(text, &name),
                Some(values),
                "{path:?}: {name}'s allowed values are not listed in its help:\n{text}"
            );
            enumerated.push(format!("{} {name}", path.join(" ")));
        }
    }
    // The options whose values are a closed set are declared as such (a String would list none).
    for want in [
        "import KIND",
        "import --encoding",
        "import-trace KIND",
        "simulate --kind",
        "simulate --policy",
        "simulate --writes",
        "predict --policy",
        "mark KIND",
        "engine describe ADAPTER",
        "engine plan ADAPTER",
        "engine stats ADAPTER",
        "engine enable ADAPTER",
        "engine disable ADAPTER",
        "lab switch on|off",
        "record --switch",
    ] {
        assert!(
            enumerated.iter().any(|e| e == want),
            "{want} lists no allowed values; enumerated: {enumerated:?}"
        );
    }
}

/// A value outside the set is refused naming the flag, the value and the allowed values (exit 2).
#[test]
fn a_value_outside_the_set_is_named() {
    for (args, want) in [
        (
            vec!["simulate", "x", "--curve", "--writes", "sometimes"],
            "invalid value 'sometimes' for '--writes <MODE>'",
        ),
        (
            vec!["import", "perfmon", "x.csv", "--encoding", "ebcdic"],
            "invalid value 'ebcdic' for '--encoding <E>'",
        ),
        (
            vec!["engine", "plan", "nosuchengine"],
            "invalid value 'nosuchengine' for '<ADAPTER>'",
        ),
        (
            vec!["record", "--out", "x.capture", "--switch", "nosuch:x.json"],
            "invalid value 'nosuch:x.json' for '--switch <manual|ADAPTER[:CONFIG]>'",
        ),
    ] {
        let o = Command::new(BIN).args(&args).output().unwrap();
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = common::one_sentence(&o);
        assert!(e.contains(want) && e.contains("one of"), "{args:?}: {e}");
    }
}

/// `record --devices` and `--switch` are typed too: an empty list, an empty config and a config
/// for `manual` are refused by clap (exit 2, naming the flag), and nothing is created.
#[test]
fn record_devices_and_switch_are_checked_by_clap() {
    let dir = std::env::temp_dir().join(format!("cp-cli-values-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cap = dir.join("x.capture");
    let c = cap.to_str().unwrap();
    for (flag, value, want) in [
        ("--devices", " , ", "no device name in it"),
        ("--switch", "command:", "has no configuration file"),
        (
            "--switch",
            "manual:x.json",
            "manual takes no configuration file",
        ),
    ] {
        let o = Command::new(BIN)
            .args(["record", "--out", c, flag, value])
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{flag} {value}");
        let e = common::one_sentence(&o);
        assert!(
            e.contains(&format!("for '{flag} <")) && e.contains(want),
            "{flag} {value}: {e}"
        );
        assert!(!cap.exists(), "{flag} {value} created the capture");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
