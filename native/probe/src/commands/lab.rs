//! `lab up|down|status|switch|workload`: the loop-device lab (docs/probe.md § lab).

use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::usage;
use crate::lab;

#[derive(Debug, Args)]
pub struct LabArgs {
    #[command(subcommand)]
    pub verb: LabCmd,
}

/// The lab's folder (default: $CACHEPROOF_LAB_DIR, else the lab's own default).
#[derive(Debug, Args)]
pub struct DirArg {
    /// The lab's folder
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum LabCmd {
    /// Make the lab: a loop device over a file system, mounted (root)
    Up {
        #[command(flatten)]
        dir: DirArg,
        /// The backing file's size in MiB
        #[arg(long, value_name = "N", default_value_t = 256)]
        size_mb: u64,
    },
    /// Remove the lab (root)
    Down {
        #[command(flatten)]
        dir: DirArg,
    },
    /// Whether the lab is up, and its devices
    Status {
        #[command(flatten)]
        dir: DirArg,
        /// The state as JSON
        #[arg(long)]
        json: bool,
    },
    /// Switch the lab's cache on (page cache) or off (direct I/O) (root)
    Switch {
        #[arg(value_name = "on|off", value_parser = ["on", "off"])]
        to: String,
        #[command(flatten)]
        dir: DirArg,
    },
    /// Run fio on the lab (root, fio)
    Workload {
        #[command(flatten)]
        dir: DirArg,
        /// How long, in seconds (N > 0)
        #[arg(long, value_name = "N")]
        seconds: Option<u64>,
        /// The hot set's size in MiB
        #[arg(long, value_name = "N", default_value_t = 64)]
        hot_mb: u64,
        /// Reads per second
        #[arg(long, value_name = "N", default_value_t = 800)]
        read_iops: u64,
        /// Writes per second
        #[arg(long, value_name = "N", default_value_t = 100)]
        write_iops: u64,
        /// Reads only
        #[arg(long)]
        read_only: bool,
        /// Write fio's JSON report there
        #[arg(long, value_name = "FILE")]
        json_out: Option<PathBuf>,
    },
}

fn lab_dir(d: &DirArg) -> PathBuf {
    d.dir
        .clone()
        .or_else(|| std::env::var_os("CACHEPROOF_LAB_DIR").map(PathBuf::from))
        .unwrap_or_else(|| PathBuf::from(lab::DEFAULT_DIR))
}

pub fn run(a: &LabArgs) -> anyhow::Result<()> {
    match &a.verb {
        LabCmd::Up { dir, size_mb } => {
            let st = lab::up(&lab_dir(dir), *size_mb)?;
            println!(
                "lab up: front {} (cache off: direct I/O), backing {}, mounted at {}",
                st.front_device.as_deref().unwrap_or("?"),
                st.backing_device.as_deref().unwrap_or("?"),
                st.mount.as_deref().unwrap_or("?")
            );
        }
        LabCmd::Down { dir } => {
            let dir = lab_dir(dir);
            lab::down(&dir)?;
            println!("lab down: {} removed", dir.display());
        }
        LabCmd::Status { dir, json } => {
            let dir = lab_dir(dir);
            let s = lab::status(&dir);
            if *json {
                println!("{}", serde_json::to_string_pretty(&s)?);
            } else if s.up {
                println!(
                    "lab up: front {} (cache {}), backing {}, mounted at {}",
                    s.front_device.as_deref().unwrap_or("?"),
                    s.cache.as_deref().unwrap_or("?"),
                    s.backing_device.as_deref().unwrap_or("?"),
                    s.mount.as_deref().unwrap_or("?")
                );
            } else {
                println!("lab down ({})", dir.display());
            }
        }
        LabCmd::Switch { to, dir } => {
            let on = to == "on";
            lab::switch(&lab_dir(dir), on)?;
            println!(
                "lab cache {}",
                if on {
                    "on (page cache, --direct-io=off)"
                } else {
                    "off (direct I/O, --direct-io=on)"
                }
            );
        }
        LabCmd::Workload {
            dir,
            seconds,
            hot_mb,
            read_iops,
            write_iops,
            read_only,
            json_out,
        } => {
            let seconds = seconds.unwrap_or(0);
            if seconds == 0 {
                return Err(usage("lab workload needs --seconds N (N > 0)"));
            }
            lab::workload(
                &lab_dir(dir),
                &lab::Workload {
                    seconds,
                    hot_mb: *hot_mb,
                    read_iops: *read_iops,
                    write_iops: *write_iops,
                    read_only: *read_only,
                    json_out: json_out.clone(),
                },
            )?;
        }
    }
    Ok(())
}
