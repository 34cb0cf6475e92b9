//! CacheProof native probe library: the command line, the recording's status and the loop-device
//! lab, over the workspace's crates (native/README.md), re-exported here under the module names
//! the probe always had (`cacheproof_probe::capture::…`).

pub use cacheproof_adapters as adapters;
pub use cacheproof_capture as capture;
pub use cacheproof_core::{
    clock, delta, diskstats, error, fstypes, hist, plan, request, shards, signals, sysfs,
};
pub use cacheproof_import as import;
pub use cacheproof_recorder as recorder;
pub use cacheproof_sim as sim;
pub use cacheproof_trace as trace;

pub mod commands;
pub mod lab;
pub mod lab_hold;
pub mod status;
#[doc(hidden)]
pub use cacheproof_core::testenv;

pub use error::{ProbeError, Result};
