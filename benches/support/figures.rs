//! Figures over runs: min / median / max.

// Each bench that includes this uses a part of it.
#![allow(dead_code)]

/// "min / median / max" of `values` with `decimals` decimals, or the one
/// value.
pub fn spread(values: &mut [f64], decimals: usize) -> String {
    values.sort_by(f64::total_cmp);
    let median = values[values.len() / 2];
    match values {
        [one] => format!("{one:.decimals$}"),
        [first, .., last] => {
            format!("{first:.decimals$} / {median:.decimals$} / {last:.decimals$}")
        }
        [] => String::new(),
    }
}

/// The median of `values`.
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// A line of this process's /proc/self/status (Linux), in bytes.
pub fn status_bytes(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
