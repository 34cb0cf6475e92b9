//! CacheProof native probe library: diskstats parsing, interval computation, the capture
//! writer, the recorder, block tracing, device inventory and the loop-device lab.

pub mod adapters;
pub mod capture;
pub mod clock;
pub mod commands;
pub mod delta;
pub mod diskstats;
pub mod error;
pub mod fstypes;
pub mod hist;
pub mod import;
pub mod lab;
pub mod lab_hold;
pub mod plan;
pub mod recorder;
pub mod request;
pub mod shards;
pub mod signals;
#[path = "../../crates/sim/src/lib.rs"]
pub mod sim;
pub mod status;
pub mod sysfs;
#[doc(hidden)]
pub mod testenv;
pub mod trace;

pub use error::{ProbeError, Result};
