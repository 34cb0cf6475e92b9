//! `import prometheus` over https with credentials, against Debian's real Prometheus started
//! with `--web.config.file` (TLS with a certificate signed by a CA made in the test with
//! `openssl`, and basic auth with a bcrypt hash), scraping the real windows_exporter scrape
//! played back on loopback (tests/common/prom.rs):
//! - no `--ca-file`: exit 13, the certificate is not signed by a trusted CA (what to do named);
//!   another CA in `--ca-file`: the same, naming the file; a file that is not PEM: exit 2;
//! - the right CA but no credentials: exit 13, HTTP 401 and the options that give them;
//! - `--user` with `--password-file`, or with the password in `CACHEPROOF_PROMETHEUS_PASSWORD`:
//!   the import, with the counters' increase; a wrong password: exit 13 naming the user;
//! - `--insecure`: the import without the CA; `http://` to the TLS port: exit 13, use https.
//!
//! Prometheus has no bearer-token auth: a loopback server that answers 401 checks that the
//! token (from `--bearer-token-file` or `CACHEPROOF_PROMETHEUS_TOKEN`) is sent as
//! `Authorization: Bearer …` and that the refusal is one sentence.
//! Needs `prometheus` and `openssl` (outside CI a missing one is a counted SKIP).
#![allow(clippy::too_many_lines)] // a test crate: issue 38 holds product code to 80-line functions, not tests
#![allow(clippy::unwrap_used)]

mod common;

use std::path::Path;
use std::process::{Command, Output};
use std::time::Duration;

use common::prom::{now_s, playback, range_args, start_prometheus, Server};
use common::{has, one_sentence, poll, skip, TempDir, BIN};

const FIXTURE: &str = include_str!("fixtures/windows_exporter/netdata-v0.20.0-logical-disk.prom");

fn sh(dir: &Path, cmd: &str) {
    let o = Command::new("sh")
        .args(["-c", cmd])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{cmd}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A CA and a server certificate it signs for 127.0.0.1 and localhost (`NAME.key`, `NAME.pem`).
fn make_ca(dir: &Path, ca: &str, leaf: Option<&str>) {
    let ec = "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
    sh(
        dir,
        &format!("openssl req -x509 {ec} -keyout {ca}.key -out {ca}.pem -days 2 -subj /CN={ca}"),
    );
    if let Some(l) = leaf {
        std::fs::write(
            dir.join(format!("{l}.ext")),
            "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n",
        )
        .unwrap();
        sh(
            dir,
            &format!("openssl req {ec} -keyout {l}.key -out {l}.csr -subj /CN=localhost"),
        );
        sh(
            dir,
            &format!("openssl x509 -req -in {l}.csr -CA {ca}.pem -CAkey {ca}.key -CAcreateserial -out {l}.pem -days 2 -extfile {l}.ext"),
        );
    }
}

/// The probe with `args` and the environment variables `env` (the inherited ones of the
/// credentials removed).
fn run(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(BIN);
    c.args(args)
        .env_remove("CACHEPROOF_PROMETHEUS_PASSWORD")
        .env_remove("CACHEPROOF_PROMETHEUS_TOKEN");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

/// A refusal: the exit code and one sentence holding each of `want`; the sentence.
fn refused(o: &Output, code: i32, want: &[&str]) -> String {
    assert_eq!(
        o.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let m = one_sentence(o);
    for w in want {
        assert!(m.contains(w), "'{w}' not in: {m}");
    }
    m
}

fn reads(cap: &Path) -> i64 {
    let c = rusqlite::Connection::open(cap).unwrap();
    c.query_row(
        "SELECT sum(reads) FROM intervals i JOIN devices d ON d.id = i.device_id WHERE d.name = 'LogicalDisk(C:)'",
        [],
        |r| r.get(0),
    )
    .unwrap()
}

#[test]
fn https_with_a_ca_made_here_and_basic_auth() {
    for t in ["prometheus", "openssl"] {
        if !has(t)
            && skip(
                "https_with_a_ca_made_here_and_basic_auth",
                &format!("'{t}' is not installed"),
            )
        {
            return;
        }
    }
    let d = TempDir::new("prom-tls");
    make_ca(&d.0, "ca", Some("server"));
    make_ca(&d.0, "other-ca", None);
    std::fs::write(d.join("not.pem"), "this is not a certificate\n").unwrap();
    let hash = bcrypt::hash("s3cret pass", 4).unwrap();
    std::fs::write(
        d.join("web.yml"),
        format!(
            "tls_server_config:\n  cert_file: {}\n  key_file: {}\nbasic_auth_users:\n  ops: '{hash}'\n",
            d.join("server.pem").display(),
            d.join("server.key").display()
        ),
    )
    .unwrap();
    std::fs::write(d.join("password"), "s3cret pass\n").unwrap();
    std::fs::write(d.join("wrong"), "guess\n").unwrap();
    let host = playback(FIXTURE.to_string(), |m, l| {
        if m == "windows_logical_disk_reads_total" && l.contains("\"C:\"") {
            10.0
        } else {
            0.0
        }
    });
    let (mut pr, pp) = start_prometheus(
        &d.0,
        &[("win", vec![format!("127.0.0.1:{}", host.port)])],
        &[format!("--web.config.file={}", d.join("web.yml").display())],
    );
    let url = format!("https://127.0.0.1:{pp}");
    let from = format!("{}", now_s().floor());
    let (ca, pw) = (d.join("ca.pem"), d.join("password"));
    let (ca, pw) = (ca.to_str().unwrap(), pw.to_str().unwrap());
    let cap = |n: &str| d.join(n).to_str().unwrap().to_string();
    let args = |to: &str, out: &str, more: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = [
            "import",
            "prometheus",
            "--url",
            &url,
            "--from",
            &from,
            "--to",
            to,
            "--step",
            "1",
            "--out",
            out,
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.extend(more.iter().map(|s| s.to_string()));
        a
    };
    // wait for the server and a few scrapes, through the probe itself (a preview)
    let to = poll(
        "Prometheus over https to serve 6 intervals since `from` (a preview through the probe)",
        Duration::from_secs(90),
        Duration::from_millis(500),
        || {
            pr.alive();
            let to = format!("{}", now_s().floor());
            let a = args(
                &to,
                "unused",
                &[
                    "--ca-file",
                    ca,
                    "--user",
                    "ops",
                    "--password-file",
                    pw,
                    "--preview",
                    "--json",
                ],
            );
            let a: Vec<&str> = a.iter().map(String::as_str).collect();
            let o = run(&a, &[]);
            if !o.status.success() {
                return Err(String::from_utf8_lossy(&o.stderr).trim().to_string());
            }
            let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
            match v["intervals"].as_u64().unwrap_or(0) {
                n if n >= 6 => Ok(to),
                n => Err(format!("{n} intervals")),
            }
        },
    );
    let go = |out: &str, more: &[&str], env: &[(&str, &str)]| {
        let a = args(&to, out, more);
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        run(&a, env)
    };

    // refusals: the system's CAs do not know the test's CA; another CA; a file that is not PEM;
    // the right CA but no credentials; a wrong password (never shown); plain http to the TLS port
    let (other, not, wrong) = (d.join("other-ca.pem"), d.join("not.pem"), d.join("wrong"));
    let (other, not, wrong) = (
        other.to_str().unwrap(),
        not.to_str().unwrap(),
        wrong.to_str().unwrap(),
    );
    let no_cap = cap("a.capture");
    for (more, code, want) in [
        (
            vec!["--user", "ops", "--password-file", pw],
            13,
            vec![
                url.as_str(),
                "not signed by a trusted CA",
                "--ca-file",
                "--insecure",
            ],
        ),
        (
            vec!["--ca-file", other, "--user", "ops", "--password-file", pw],
            13,
            vec!["other-ca.pem does not hold the CA that signed it"],
        ),
        (
            vec!["--ca-file", not],
            2,
            vec!["not.pem: holds no certificate"],
        ),
        (
            vec!["--ca-file", ca],
            13,
            vec![
                "HTTP 401",
                "--user NAME with --password-file FILE",
                "CACHEPROOF_PROMETHEUS_PASSWORD",
            ],
        ),
        (
            vec!["--ca-file", ca, "--user", "ops", "--password-file", wrong],
            13,
            vec!["HTTP 401", "refused basic auth as 'ops'"],
        ),
    ] {
        let m = refused(&go(&no_cap, &more, &[]), code, &want);
        assert!(
            !m.contains("guess") && !m.contains("s3cret"),
            "a secret in: {m}"
        );
    }
    let http = format!("http://127.0.0.1:{pp}");
    let o = run(
        &[
            "import",
            "prometheus",
            "--url",
            &http,
            "--from",
            &from,
            "--to",
            &to,
            "--step",
            "1",
            "--out",
            &no_cap,
        ],
        &[],
    );
    refused(&o, 13, &["use an https:// URL"]);
    assert!(
        !d.join("a.capture").exists(),
        "nothing written on a refusal"
    );

    // the imports: password from a file, from the environment, and --insecure
    let mut got = Vec::new();
    for (out, more, env) in [
        (
            "file.capture",
            vec!["--ca-file", ca, "--user", "ops", "--password-file", pw],
            vec![],
        ),
        (
            "env.capture",
            vec!["--ca-file", ca, "--user", "ops"],
            vec![("CACHEPROOF_PROMETHEUS_PASSWORD", "s3cret pass")],
        ),
        (
            "insecure.capture",
            vec!["--insecure", "--user", "ops", "--password-file", pw],
            vec![],
        ),
    ] {
        let o = go(&cap(out), &more, &env);
        assert!(
            o.status.success(),
            "{out}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        got.push(reads(&d.join(out)));
    }
    println!("C: reads over the range: {got:?}");
    assert!(got[0] > 0 && got[0] % 10 == 0, "{got:?}");
    assert!(
        got.iter().all(|g| *g == got[0]),
        "the same range, the same reads: {got:?}"
    );
    drop(host);
}

#[test]
fn a_bearer_token_is_sent_from_a_file_or_the_environment_never_shown() {
    let d = TempDir::new("prom-bearer");
    let s = Server::start(|_, _| {
        (
            401,
            "application/json".into(),
            r#"{"status":"error","errorType":"unauthorized","error":"bad token"}"#.into(),
        )
    });
    let url = format!("http://127.0.0.1:{}", s.port);
    std::fs::write(d.join("token"), "tok-FROM-file\n").unwrap();
    let base = range_args(&url, "2024-03-14T10:00:00Z", "2024-03-14T11:00:00Z", "15");
    let out = d.join("x.capture");
    let tf = d.join("token");
    let with = |extra: &[&str], env: &[(&str, &str)]| {
        let mut a = base.to_vec();
        a.extend(extra.iter().copied());
        a.extend(["--out", out.to_str().unwrap()]);
        run(&a, env)
    };
    let m = refused(
        &with(&["--bearer-token-file", tf.to_str().unwrap()], &[]),
        13,
        &[
            "HTTP 401: bad token",
            "refused a bearer token (from --bearer-token-file",
        ],
    );
    assert!(!m.contains("tok-FROM"), "{m}");
    refused(
        &with(&[], &[("CACHEPROOF_PROMETHEUS_TOKEN", "tok-FROM-env")]),
        13,
        &["$CACHEPROOF_PROMETHEUS_TOKEN"],
    );
    let heads = s.requests.lock().unwrap().clone();
    assert_eq!(heads.len(), 2);
    let auth = |h: &str| {
        h.lines()
            .find(|l| l.to_ascii_lowercase().starts_with("authorization:"))
            .map(|l| l.split_once(':').unwrap().1.trim().to_string())
    };
    assert_eq!(auth(&heads[0]).as_deref(), Some("Bearer tok-FROM-file"));
    assert_eq!(auth(&heads[1]).as_deref(), Some("Bearer tok-FROM-env"));
    assert!(!out.exists());
    // secrets never on the command line; a password without its user; both kinds at once
    for (extra, want) in [
        (vec!["--password", "x"], "never given on the command line"),
        (vec!["--bearer-token", "x"], "--bearer-token-file"),
        (vec!["--user", "ops"], "needs the password from --password-file FILE or the environment variable CACHEPROOF_PROMETHEUS_PASSWORD"),
        // clap's rules: --password-file requires --user, --user conflicts with --bearer-token-file
        (vec!["--password-file", "/x"], "not provided: --user"),
        (
            vec!["--user", "ops", "--bearer-token-file", "/x"],
            "'--user <NAME>' cannot be used with '--bearer-token-file",
        ),
        (vec!["--insecure"], "are for an https:// URL"),
    ] {
        refused(&with(&extra, &[]), 2, &[want]);
    }
}
