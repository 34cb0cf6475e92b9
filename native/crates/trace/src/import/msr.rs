//! MSR Cambridge (SNIA IOTTA) CSV: `Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime`.

use super::{columns, num, Rec, State, Trace};
use crate::request::Op;

pub(super) fn msr_line(tr: &mut Trace, st: &mut State, n: u64, text: &str) {
    let c: Vec<&str> = text.split(',').collect();
    if n == 1
        && c.first()
            .is_some_and(|x| x.trim().eq_ignore_ascii_case("Timestamp"))
    {
        return;
    }
    tr.records += 1;
    if !columns(
        tr,
        n,
        c.len(),
        7,
        "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime",
    ) {
        return;
    }
    let Ok(t) = num::<u64>(tr, n, "Timestamp", c[0]) else {
        return;
    };
    let Ok(disk) = num::<i64>(tr, n, "DiskNumber", c[2]) else {
        return;
    };
    let op = match c[3].trim().to_ascii_lowercase().as_str() {
        "read" => Op::Read,
        "write" => Op::Write,
        other => {
            tr.skip(
                n,
                "Type",
                format!("unknown type '{other}' (Read or Write)"),
                "unknown opcode",
            );
            return;
        }
    };
    let Ok(off) = num::<i128>(tr, n, "Offset", c[4]) else {
        return;
    };
    let Ok(size) = num::<i128>(tr, n, "Size", c[5]) else {
        return;
    };
    let Ok(resp) = num::<i64>(tr, n, "ResponseTime", c[6]) else {
        return;
    };
    let dev = format!("{}_{}", c[1].trim(), disk);
    st.push(
        tr,
        Rec {
            line: n,
            t: t as f64,
            t_int: Some(i128::from(t)),
            dev: &dev,
            offset: off,
            bytes: size,
            op,
            op_text: c[3].trim(),
            complete_ns: Some(resp.saturating_mul(100)),
        },
    );
}
