//! The binary: the command line with the TUI wired in. The two crates
//! do not depend on each other, so they compile side by side.

use findings_cli::{Frontend, Prepared, Running, Start};
use findings_tui::launch::{self, Connected, Ready};

static FRONTEND: Frontend = Frontend {
    prepare,
    plain_detail: launch::plain_detail,
};

fn main() -> std::process::ExitCode {
    findings_cli::main(&FRONTEND)
}

fn prepare(settings: &findings_config::Effective, no_color: bool) -> Prepared {
    Ok(Box::new(Checked(launch::prepare(settings, no_color)?)))
}

struct Checked(Ready);

impl findings_cli::Tui for Checked {
    fn run(self: Box<Self>, start: Start) -> Running {
        let connected = Connected {
            client: start.client,
            deployment_name: start.deployment_name,
            demo: start.demo,
            offline: start.offline,
            clock_offset: start.clock_offset,
        };
        Box::pin(launch::run(self.0, start.settings, connected))
    }
}
