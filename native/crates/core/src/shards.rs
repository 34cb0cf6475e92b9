//! The SHARDS spatial sampling hash and rate (Waldspurger et al., FAST '15), shared by the
//! simulator, the tracer's sampling and the capture that stores its rate changes.

/// splitmix64: the spatial hash SHARDS samples on.
#[inline]
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Modulus P of the sampling hash: a key is sampled when `mix(key) mod P < T`, rate R = T/P.
pub const SHARDS_P: u64 = 1 << 24;

/// The threshold of a rate R (0 < R ≤ 1).
pub fn threshold_of(rate: f64) -> u64 {
    ((rate * SHARDS_P as f64).round() as u64).clamp(1, SHARDS_P)
}

/// The rate of a threshold.
pub fn rate_of(threshold: u64) -> f64 {
    threshold as f64 / SHARDS_P as f64
}

/// One change of the sampling rate (`trace_sample_rates`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RateChange {
    pub utc_ms: i64,
    pub rate_before: f64,
    pub rate_after: f64,
    pub threshold_before: u64,
    pub threshold_after: u64,
    pub traced_s: f64,
    pub seen: u64,
    pub stored: u64,
    pub reason: String,
}
