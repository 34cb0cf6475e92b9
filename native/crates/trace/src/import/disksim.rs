//! DiskSim ASCII input (`arrival_ms devno blkno size_blocks flags`) and the MSN file-server
//! trace as converted for the replayer (`time_ms dev lba sectors 1|0`), which reads alike.

use super::{columns, num, Kind, Rec, State, Trace};
use crate::request::Op;

pub(super) fn disksim_line(tr: &mut Trace, st: &mut State, n: u64, text: &str, kind: Kind) {
    let c: Vec<&str> = text.split_whitespace().collect();
    tr.records += 1;
    if !columns(
        tr,
        n,
        c.len(),
        5,
        if kind == Kind::Msn {
            "time devno lba sectors type"
        } else {
            "arrival devno blkno size flags"
        },
    ) {
        return;
    }
    let tcol = if kind == Kind::Msn { "time" } else { "arrival" };
    let Ok(t) = num::<f64>(tr, n, tcol, c[0]) else {
        return;
    };
    let Ok(dev) = num::<u32>(tr, n, "devno", c[1]) else {
        return;
    };
    let Ok(blk) = num::<i128>(tr, n, if kind == Kind::Msn { "lba" } else { "blkno" }, c[2]) else {
        return;
    };
    let Ok(size) = num::<i128>(
        tr,
        n,
        if kind == Kind::Msn { "sectors" } else { "size" },
        c[3],
    ) else {
        return;
    };
    let op = if kind == Kind::Msn {
        match c[4] {
            "1" => Op::Read,
            "0" => Op::Write,
            other => {
                tr.skip(
                    n,
                    "type",
                    format!("type '{other}' is neither 1 (read) nor 0 (write)"),
                    "unknown opcode",
                );
                return;
            }
        }
    } else {
        let Ok(flags) = num::<u32>(tr, n, "flags", c[4]) else {
            return;
        };
        if flags & 1 == 1 {
            Op::Read
        } else {
            Op::Write
        }
    };
    let dev = format!("dev{dev}");
    st.push(
        tr,
        Rec {
            line: n,
            t,
            t_int: None,
            dev: &dev,
            offset: blk * 512,
            bytes: size * 512,
            op,
            op_text: c[4],
            complete_ns: None,
        },
    );
}
