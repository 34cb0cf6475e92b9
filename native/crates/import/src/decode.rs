//! Bytes to text: BOM, UTF-16 without BOM, UTF-8, and the legacy Windows code pages
//! (cp1251, cp1252, cp932) by a documented guess, or the encoding the user names.

use encoding_rs::{Encoding, SHIFT_JIS, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1251, WINDOWS_1252};

/// Decoded text and the encoding it was read with (as named in docs/import.md).
#[derive(Debug, Clone)]
pub struct Decoded {
    pub text: String,
    pub encoding: &'static str,
    /// How the encoding was chosen: `bom`, `given`, `detected`.
    pub how: &'static str,
}

/// The encoding_rs encoding of a user-given name, or None.
pub fn by_name(name: &str) -> Option<(&'static Encoding, &'static str)> {
    let n = name.trim().to_ascii_lowercase().replace('_', "-");
    Some(match n.as_str() {
        "utf-8" | "utf8" => (UTF_8, "utf-8"),
        "utf-16le" | "utf16le" | "utf-16" | "ucs-2" => (UTF_16LE, "utf-16le"),
        "utf-16be" | "utf16be" => (UTF_16BE, "utf-16be"),
        "cp1251" | "windows-1251" => (WINDOWS_1251, "cp1251"),
        "cp1252" | "windows-1252" | "latin1" | "iso-8859-1" => (WINDOWS_1252, "cp1252"),
        "cp932" | "windows-31j" | "shift-jis" | "sjis" => (SHIFT_JIS, "cp932"),
        _ => return None,
    })
}

/// Whether the bytes look like a binary file (a PerfMon .blg, an sa file): NULs that do
/// not follow the pattern of UTF-16 text.
pub fn looks_binary(b: &[u8]) -> bool {
    let head = &b[..b.len().min(4096)];
    if head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]) {
        return false;
    }
    if utf16_guess(head).is_some() {
        return false;
    }
    head.iter().filter(|&&c| c == 0).count() > 0
        || head
            .iter()
            .filter(|&&c| c < 0x09 || (c > 0x0d && c < 0x20 && c != 0x1b))
            .count()
            > head.len() / 20
}

fn utf16_guess(b: &[u8]) -> Option<bool> {
    if b.len() < 4 {
        return None;
    }
    // the head tells: UTF-16 text has its NULs from the first line on (the whole of a large log
    // would take longer to count than to parse)
    let b = &b[..b.len().min(UTF16_HEAD) & !1];
    let pairs = b.len() / 2;
    let even0 = (0..pairs).filter(|i| b[2 * i] == 0).count();
    let odd0 = (0..pairs).filter(|i| b[2 * i + 1] == 0).count();
    if odd0 * 10 >= pairs * 4 && even0 * 10 < pairs {
        Some(true) // little endian: ASCII then 0
    } else if even0 * 10 >= pairs * 4 && odd0 * 10 < pairs {
        Some(false)
    } else {
        None
    }
}

/// Bytes of a file's head that decide whether it is UTF-16 without a BOM.
const UTF16_HEAD: usize = 1 << 16;

/// Decode `b`: `given` (a name accepted by [`by_name`]) wins; else BOM; else UTF-16 by the
/// NUL pattern; else UTF-8 when valid; else cp932, cp1251 or cp1252 by the guess of
/// docs/import.md.
pub fn decode(b: &[u8], given: Option<&str>) -> std::result::Result<Decoded, String> {
    if let Some(g) = given {
        let (enc, name) = by_name(g).ok_or_else(|| {
            format!(
                "unknown --encoding '{g}': use utf-8, utf-16le, utf-16be, cp1251, cp1252 or cp932"
            )
        })?;
        let (t, _, _) = enc.decode(b);
        return Ok(Decoded {
            text: t.trim_start_matches('\u{feff}').to_string(),
            encoding: name,
            how: "given",
        });
    }
    for (bom, enc, name) in [
        (&[0xEF, 0xBB, 0xBF][..], UTF_8, "utf-8"),
        (&[0xFF, 0xFE][..], UTF_16LE, "utf-16le"),
        (&[0xFE, 0xFF][..], UTF_16BE, "utf-16be"),
    ] {
        if b.starts_with(bom) {
            let (t, _) = enc.decode_without_bom_handling(&b[bom.len()..]);
            return Ok(Decoded {
                text: t.into_owned(),
                encoding: name,
                how: "bom",
            });
        }
    }
    if let Some(le) = utf16_guess(b) {
        let (enc, name) = if le {
            (UTF_16LE, "utf-16le")
        } else {
            (UTF_16BE, "utf-16be")
        };
        let (t, _) = enc.decode_without_bom_handling(b);
        return Ok(Decoded {
            text: t.into_owned(),
            encoding: name,
            how: "detected",
        });
    }
    if let Ok(s) = std::str::from_utf8(b) {
        return Ok(Decoded {
            text: s.to_string(),
            encoding: "utf-8",
            how: "detected",
        });
    }
    // Legacy code pages. cp932 when it decodes without error into text with kana (Japanese
    // counter names have katakana; a cp1252 'ä' before an ASCII letter decodes as a lone
    // kanji) and no half-width katakana (which Cyrillic cp1251 bytes would give); else cp1251 when the
    // high bytes come in runs (words of a non-Latin script), else cp1252.
    let (sj, _, sj_err) = SHIFT_JIS.decode(b);
    if !sj_err
        && sj.chars().any(|c| ('\u{3040}'..='\u{30ff}').contains(&c))
        && !sj.chars().any(|c| ('\u{ff61}'..='\u{ff9f}').contains(&c))
    {
        return Ok(Decoded {
            text: sj.into_owned(),
            encoding: "cp932",
            how: "detected",
        });
    }
    let high = b.iter().filter(|&&c| c >= 0x80).count();
    let runs = b
        .windows(2)
        .filter(|w| w[0] >= 0x80 && w[1] >= 0x80)
        .count();
    let (enc, name) = if high > 0 && runs * 2 >= high {
        (WINDOWS_1251, "cp1251")
    } else {
        (WINDOWS_1252, "cp1252")
    };
    let (t, _, _) = enc.decode(b);
    Ok(Decoded {
        text: t.into_owned(),
        encoding: name,
        how: "detected",
    })
}

/// Decoded text that borrows the bytes when they are plain UTF-8.
#[derive(Debug, Clone)]
pub struct DecodedCow<'a> {
    pub text: std::borrow::Cow<'a, str>,
    pub encoding: &'static str,
    pub how: &'static str,
}

/// [`decode`] without a copy for plain UTF-8 (no encoding given, no BOM, not UTF-16): the text
/// is the bytes themselves, so a large log is held once, not twice.
pub fn decode_cow<'a>(
    b: &'a [u8],
    given: Option<&str>,
) -> std::result::Result<DecodedCow<'a>, String> {
    let plain = given.is_none()
        && ![
            &[0xEF, 0xBB, 0xBF][..],
            &[0xFF, 0xFE][..],
            &[0xFE, 0xFF][..],
        ]
        .iter()
        .any(|bom| b.starts_with(bom))
        && utf16_guess(b).is_none();
    if plain {
        if let Ok(text) = std::str::from_utf8(b) {
            return Ok(DecodedCow {
                text: std::borrow::Cow::Borrowed(text),
                encoding: "utf-8",
                how: "detected",
            });
        }
    }
    let d = decode(b, given)?;
    Ok(DecodedCow {
        text: std::borrow::Cow::Owned(d.text),
        encoding: d.encoding,
        how: d.how,
    })
}

/// Encode text (for tests and the localized fixtures they build).
pub fn encode(text: &str, name: &str) -> Option<Vec<u8>> {
    let (enc, n) = by_name(name)?;
    Some(match n {
        "utf-16le" => text.encode_utf16().flat_map(|u| u.to_le_bytes()).collect(),
        "utf-16be" => text.encode_utf16().flat_map(|u| u.to_be_bytes()).collect(),
        _ => enc.encode(text).0.into_owned(),
    })
}

#[cfg(test)]
mod owned_tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn decode_cow_reads_what_decode_reads() {
        let utf8 = "\"(PDH-CSV 4.0)\",\"\\\\h\\Физический диск(0 C:)\\x\"\r\n"
            .as_bytes()
            .to_vec();
        let mut bom = vec![0xEF, 0xBB, 0xBF];
        bom.extend_from_slice(&utf8);
        let cp1251 = encode("Физический диск", "cp1251").unwrap();
        let utf16 = encode("\"(PDH-CSV 4.0)\",\"a\"\r\n", "utf-16le").unwrap();
        for (b, given) in [
            (utf8.clone(), None),
            (bom, None),
            (cp1251, None),
            (utf16, None),
            (utf8, Some("cp1252")),
        ] {
            let a = decode(&b, given).unwrap();
            let o = decode_cow(&b, given).unwrap();
            assert_eq!(
                (a.text.as_str(), a.encoding, a.how),
                (&*o.text, o.encoding, o.how)
            );
        }
    }
}
