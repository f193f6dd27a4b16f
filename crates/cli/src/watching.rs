//! Whether a person is watching what a command does: demo data, progress
//! lines and questions are for a person; a CI job or a pipe gets a refusal
//! where it cannot see a guess.

use std::io::IsTerminal;

/// Whether the environment says this runs in CI: `CI` set, as GitHub,
/// GitLab, CircleCI and most others set it ("", "0" and "false" say
/// otherwise).
pub(crate) fn in_ci() -> bool {
    says_ci(std::env::var_os("CI").as_deref())
}

/// Whether a value of `CI` says this runs in CI: the one reading for the
/// demo's refusal and for progress lines.
pub(crate) fn says_ci(value: Option<&std::ffi::OsStr>) -> bool {
    value
        .and_then(std::ffi::OsStr::to_str)
        .is_some_and(|v| !matches!(v.trim(), "" | "0" | "false" | "FALSE" | "False"))
}

/// Why nobody would see that a headless command's output is the demo's,
/// if so: `CI` set, or standard output not a terminal.
pub(crate) fn nobody_watching() -> Option<&'static str> {
    if in_ci() {
        Some("CI is set")
    } else if !std::io::stdout().is_terminal() {
        Some("no terminal on standard output")
    } else {
        None
    }
}
