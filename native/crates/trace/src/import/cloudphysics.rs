//! CloudPhysics vscsi CSV as shipped by libCacheSim: `version,time,op,size,lbn`.

use super::{columns, num, Rec, State, Trace};
use crate::request::Op;

pub(super) fn cloudphysics_line(tr: &mut Trace, st: &mut State, n: u64, text: &str) {
    let c: Vec<&str> = text.split(',').collect();
    if n == 1 && c.first().is_some_and(|x| x.trim() == "version") {
        return;
    }
    tr.records += 1;
    if !columns(tr, n, c.len(), 5, "version,time,op,size,lbn") {
        return;
    }
    let Ok(t) = num::<u64>(tr, n, "time", c[1]) else {
        return;
    };
    let code = match u8::from_str_radix(c[2].trim(), 16) {
        Ok(x) => x,
        Err(_) => {
            tr.skip(
                n,
                "op",
                format!("'{}' is not a hexadecimal SCSI opcode", c[2].trim()),
                "unknown opcode",
            );
            return;
        }
    };
    let op = match code {
        0x08 | 0x28 | 0xa8 | 0x88 => Op::Read,
        0x0a | 0x2a | 0xaa | 0x8a => Op::Write,
        _ => {
            tr.skip(
                n,
                "op",
                format!("SCSI opcode {code:#04x} is neither a READ nor a WRITE (6/10/12/16)"),
                "unknown opcode",
            );
            return;
        }
    };
    let Ok(size) = num::<i128>(tr, n, "size", c[3]) else {
        return;
    };
    let Ok(lbn) = num::<i128>(tr, n, "lbn", c[4]) else {
        return;
    };
    st.push(
        tr,
        Rec {
            line: n,
            t: t as f64,
            t_int: Some(i128::from(t)),
            dev: "vscsi",
            offset: lbn * 512,
            bytes: size,
            op,
            op_text: c[2].trim(),
            complete_ns: None,
        },
    );
}
