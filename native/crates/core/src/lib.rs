//! The probe's base crate: what every room of the probe uses and none of them owns — errors, the
//! clock, /proc/diskstats and its deltas, sysfs, the recording plan, and the shared types
//! (a block request, the SHARDS hash and rate, latency histograms, the stop signals, the
//! filesystem types no volume list keeps). It uses no other crate of the workspace.

pub mod clock;
pub mod delta;
pub mod diskstats;
pub mod error;
pub mod fstypes;
pub mod hist;
pub mod plan;
pub mod request;
pub mod shards;
pub mod signals;
pub mod sysfs;
#[doc(hidden)]
pub mod testenv;

pub use error::{ProbeError, Result};
