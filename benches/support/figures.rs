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
