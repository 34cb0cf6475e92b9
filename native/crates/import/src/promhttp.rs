//! The HTTP client of `import prometheus`: `http://` or `https://` (rustls, with the system's
//! trusted CAs, plus `--ca-file`, or no check with `--insecure`), basic auth or a bearer token
//! whose secret comes from a file or an environment variable, never from the command line
//! (docs/import.md, "prometheus"). Every failure is one sentence naming the URL and the query.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{CertificateError, DigitallySignedStruct, SignatureScheme};
use rustls_pki_types::pem::PemObject;

use crate::error::{ProbeError, Result};

/// The environment variable read for the basic-auth password when `--password-file` is not given.
pub const PASSWORD_ENV: &str = "CACHEPROOF_PROMETHEUS_PASSWORD";
/// The environment variable read for the bearer token when `--bearer-token-file` is not given.
pub const TOKEN_ENV: &str = "CACHEPROOF_PROMETHEUS_TOKEN";

/// Credentials sent with every request.
#[derive(Clone, Default, PartialEq, Eq)]
pub enum Auth {
    #[default]
    None,
    Basic {
        user: String,
        password: String,
        /// Where the password came from (`--password-file F`, `$CACHEPROOF_PROMETHEUS_PASSWORD`).
        from: String,
    },
    Bearer {
        token: String,
        from: String,
    },
}

impl std::fmt::Debug for Auth {
    // never prints a secret
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.describe())
    }
}

impl Auth {
    /// In words, without the secret.
    pub fn describe(&self) -> String {
        match self {
            Auth::None => "no credentials".into(),
            Auth::Basic { user, from, .. } => {
                format!("basic auth as '{user}' (password from {from})")
            }
            Auth::Bearer { from, .. } => format!("a bearer token (from {from})"),
        }
    }
}

/// How to reach the server.
#[derive(Debug, Clone, Default)]
pub struct HttpOpts {
    /// `--ca-file`: PEM certificates trusted besides the system's.
    pub ca_file: Option<PathBuf>,
    /// `--insecure`: do not check the server's certificate.
    pub insecure: bool,
    pub auth: Auth,
}

/// A secret read from a file (trailing newline removed); the error names the flag and the file.
pub fn read_secret(flag: &str, path: &Path) -> Result<String> {
    let s = std::fs::read_to_string(path).map_err(|e| {
        ProbeError::Usage(format!("{flag} {}: cannot be read: {e}", path.display()))
    })?;
    let s = s.trim_end_matches(['\n', '\r']).to_string();
    if s.is_empty() {
        return Err(ProbeError::Usage(format!(
            "{flag} {}: the file is empty",
            path.display()
        )));
    }
    Ok(s)
}

/// The certificates of a PEM file; the error is a sentence naming `--ca-file` and the file.
fn pem_certs(path: &Path) -> Result<Vec<CertificateDer<'static>>> {
    let bad = |why: String| ProbeError::Usage(format!("--ca-file {}: {why}", path.display()));
    let bytes = std::fs::read(path).map_err(|e| bad(format!("cannot be read: {e}")))?;
    let mut out = Vec::new();
    for c in CertificateDer::pem_slice_iter(&bytes) {
        out.push(c.map_err(|e| bad(format!("is not a readable PEM certificate file ({e})")))?);
    }
    if out.is_empty() {
        return Err(bad(
            "holds no certificate (a PEM file with -----BEGIN CERTIFICATE----- blocks is needed)"
                .into(),
        ));
    }
    Ok(out)
}

/// Accepts any certificate (`--insecure`); signatures are still checked, so the connection is
/// encrypted, only not authenticated.
#[derive(Debug)]
struct NoCheck(Arc<CryptoProvider>);

impl ServerCertVerifier for NoCheck {
    fn verify_server_cert(
        &self,
        _end: &CertificateDer<'_>,
        _inter: &[CertificateDer<'_>],
        _name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }
    fn verify_tls12_signature(
        &self,
        m: &[u8],
        c: &CertificateDer<'_>,
        d: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(m, c, d, &self.0.signature_verification_algorithms)
    }
    fn verify_tls13_signature(
        &self,
        m: &[u8],
        c: &CertificateDer<'_>,
        d: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(m, c, d, &self.0.signature_verification_algorithms)
    }
    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}

fn tls_config(o: &HttpOpts) -> Result<Arc<rustls::ClientConfig>> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let builder = rustls::ClientConfig::builder_with_provider(provider.clone())
        .with_safe_default_protocol_versions()
        .map_err(|e| ProbeError::Usage(format!("TLS cannot be set up: {e}")))?;
    if o.insecure {
        return Ok(Arc::new(
            builder
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(NoCheck(provider)))
                .with_no_client_auth(),
        ));
    }
    let mut roots = rustls::RootCertStore::empty();
    for c in rustls_native_certs::load_native_certs().certs {
        let _ = roots.add(c);
    }
    if let Some(f) = &o.ca_file {
        for c in pem_certs(f)? {
            roots.add(c).map_err(|e| {
                ProbeError::Usage(format!(
                    "--ca-file {}: a certificate cannot be used as a CA ({e})",
                    f.display()
                ))
            })?;
        }
    }
    Ok(Arc::new(
        builder.with_root_certificates(roots).with_no_client_auth(),
    ))
}

/// A client of one server.
pub struct Client {
    agent: ureq::Agent,
    base: String,
    auth: Auth,
    https: bool,
    ca_file: Option<PathBuf>,
}

/// The TLS error inside a transport error, if any.
fn tls_error(e: &(dyn std::error::Error + 'static)) -> Option<rustls::Error> {
    let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(x) = cur {
        if let Some(r) = x.downcast_ref::<rustls::Error>() {
            return Some(r.clone());
        }
        if let Some(io) = x.downcast_ref::<std::io::Error>() {
            if let Some(inner) = io.get_ref() {
                if let Some(r) = inner.downcast_ref::<rustls::Error>() {
                    return Some(r.clone());
                }
            }
        }
        cur = x.source();
    }
    None
}

impl Client {
    /// A client for `base` (`http://host:9090` or `https://…`).
    pub fn new(base: &str, o: &HttpOpts) -> Result<Client> {
        let https = base.starts_with("https://");
        let mut b = ureq::AgentBuilder::new()
            .timeout_connect(Duration::from_secs(10))
            .timeout(Duration::from_secs(120));
        if https {
            b = b.tls_config(tls_config(o)?);
        }
        Ok(Client {
            agent: b.build(),
            base: base.trim_end_matches('/').to_string(),
            auth: o.auth.clone(),
            https,
            ca_file: o.ca_file.clone(),
        })
    }

    /// Why a TLS handshake failed, and what to do, in words.
    fn tls_words(&self, r: &rustls::Error) -> String {
        let fix_ca = match &self.ca_file {
            Some(f) => format!(
                "{} does not hold the CA that signed it: give the right one with --ca-file",
                f.display()
            ),
            None => "give the CA that signed it with --ca-file FILE (PEM)".into(),
        };
        match r {
            rustls::Error::InvalidCertificate(c) => match c {
                CertificateError::UnknownIssuer | CertificateError::BadSignature => format!(
                    "the server's certificate is not signed by a trusted CA ({c:?}): {fix_ca}, or skip the check with --insecure (the connection is then not authenticated)"
                ),
                CertificateError::NotValidForName
                | CertificateError::NotValidForNameContext { .. } => format!(
                    "the server's certificate is not for this host name ({c:?}): use the name the certificate was made for in the URL, or --insecure"
                ),
                CertificateError::Expired
                | CertificateError::ExpiredContext { .. }
                | CertificateError::NotValidYet
                | CertificateError::NotValidYetContext { .. } => format!(
                    "the server's certificate is out of its validity dates ({c:?}): renew it, or check this machine's clock"
                ),
                other => format!(
                    "the server's certificate was refused ({other:?}): {fix_ca}, or --insecure"
                ),
            },
            rustls::Error::InvalidMessage(_) | rustls::Error::InappropriateMessage { .. } => {
                format!("the server did not answer in TLS ({r}): is it served over http:// rather than https://?")
            }
            other => format!("the TLS handshake failed ({other})"),
        }
    }

    /// GET `path` with the query; the JSON answer (read as a stream, whatever its size) and its
    /// size in bytes. `query` names the PromQL query in the error sentence.
    pub fn get_json(&self, path: &str, q: &[(&str, String)]) -> Result<(serde_json::Value, usize)> {
        let (v, n): (Answer<serde_json::Value>, usize) = self.get(path, q)?;
        Ok((
            serde_json::json!({ "status": "success", "data": v.data }),
            n,
        ))
    }

    /// GET `path` with the query, the answer's `data` deserialized as `T` straight from the
    /// response stream (no copy of the body in memory, no size limit), and the bytes read.
    pub fn get<T: serde::de::DeserializeOwned>(
        &self,
        path: &str,
        q: &[(&str, String)],
    ) -> Result<(Answer<T>, usize)> {
        let url = format!("{}{path}", self.base);
        let query = q
            .iter()
            .find(|(k, _)| *k == "query" || *k == "match[]")
            .map(|(_, v)| v.clone())
            .unwrap_or_default();
        let base = &self.base;
        let fail = |why: String| {
            ProbeError::Unreachable(format!(
                "Prometheus at {base} could not answer the query {query} ({path}): {why}"
            ))
        };
        let mut req = self.agent.get(&url);
        for (k, v) in q {
            req = req.query(k, v);
        }
        req = match &self.auth {
            Auth::None => req,
            Auth::Basic { user, password, .. } => req.set(
                "Authorization",
                &format!("Basic {}", base64(&format!("{user}:{password}"))),
            ),
            Auth::Bearer { token, .. } => req.set("Authorization", &format!("Bearer {token}")),
        };
        let resp = match req.call() {
            Ok(r) => r,
            Err(ureq::Error::Status(code, r)) => {
                let text = r.into_string().unwrap_or_default();
                let msg = serde_json::from_str::<serde_json::Value>(&text)
                    .ok()
                    .and_then(|v| v.get("error").and_then(|e| e.as_str()).map(str::to_string))
                    .unwrap_or_else(|| text.trim().chars().take(200).collect());
                let hint = match code {
                    401 | 403 if self.auth == Auth::None => " — the server needs credentials: give --user NAME with --password-file FILE (or the environment variable CACHEPROOF_PROMETHEUS_PASSWORD), or --bearer-token-file FILE (or CACHEPROOF_PROMETHEUS_TOKEN)".to_string(),
                    401 | 403 => format!(" — the server refused {}", self.auth.describe()),
                    // Go's TLS server answers plain http with a bare 400 (its sentence is
                    // not always readable)
                    400 if !self.https
                        && (msg.is_empty() || msg.contains("HTTP request to an HTTPS server")) =>
                    {
                        " — the server may speak https on this port: use an https:// URL".to_string()
                    }
                    _ => String::new(),
                };
                let msg = if msg.is_empty() {
                    "(no message)".to_string()
                } else {
                    msg
                };
                return Err(fail(format!("HTTP {code}: {msg}{hint}")));
            }
            Err(e) => {
                let tls = match &e {
                    ureq::Error::Transport(t) => std::error::Error::source(t).and_then(tls_error),
                    ureq::Error::Status(..) => None,
                };
                let why = match tls {
                    Some(r) if self.https => self.tls_words(&r),
                    _ => format!("{e} (is the server running, and is the URL right?)"),
                };
                return Err(fail(why));
            }
        };
        let mut counted = Counted(
            std::io::BufReader::with_capacity(1 << 16, resp.into_reader()),
            0,
        );
        let a: Answer<T> = serde_json::from_reader(&mut counted).map_err(|e| {
            fail(format!(
                "the answer is not the JSON of the Prometheus HTTP API ({e}): is this a Prometheus-compatible server?"
            ))
        })?;
        if a.status != "success" {
            return Err(fail(
                a.error
                    .clone()
                    .unwrap_or_else(|| "status is not success".into()),
            ));
        }
        Ok((a, counted.1))
    }
}

/// The envelope of every Prometheus HTTP API answer.
#[derive(Debug, serde::Deserialize)]
pub struct Answer<T> {
    pub status: String,
    pub data: Option<T>,
    pub error: Option<String>,
}

/// A reader that counts the bytes it hands out (the size of a streamed answer).
struct Counted<R>(R, usize);

impl<R: std::io::Read> std::io::Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.0.read(buf)?;
        self.1 += n;
        Ok(n)
    }
}

/// Standard base64 (RFC 4648) of a string, for the basic-auth header.
fn base64(s: &str) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let b = s.as_bytes();
    let mut o = String::with_capacity(b.len().div_ceil(3) * 4);
    for ch in b.chunks(3) {
        let n = (u32::from(ch[0]) << 16)
            | (u32::from(*ch.get(1).unwrap_or(&0)) << 8)
            | u32::from(*ch.get(2).unwrap_or(&0));
        for k in 0..4 {
            if k <= ch.len() {
                o.push(A[((n >> (18 - 6 * k)) & 63) as usize] as char);
            } else {
                o.push('=');
            }
        }
    }
    o
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn base64_as_rfc_4648() {
        // RFC 4648 § 10 test vectors, and RFC 7617's example
        for (i, o) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
            ("Aladdin:open sesame", "QWxhZGRpbjpvcGVuIHNlc2FtZQ=="),
        ] {
            assert_eq!(base64(i), o);
        }
    }

    #[test]
    fn secrets_never_show_in_words() {
        let a = Auth::Basic {
            user: "ops".into(),
            password: "s3cret".into(),
            from: "--password-file /run/p".into(),
        };
        assert!(!format!("{a:?}").contains("s3cret"));
        let b = Auth::Bearer {
            token: "tok123".into(),
            from: "$CACHEPROOF_PROMETHEUS_TOKEN".into(),
        };
        assert!(!b.describe().contains("tok123"));
    }
}
