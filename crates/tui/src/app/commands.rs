//! The `:` command line: `:q` is the app's; every other command belongs to
//! a pane, and runs on the pane on show if it has it, else on the first
//! pane that does (`:filter` from the Report works on Issues).

use super::{App, Overlay};

impl App {
    pub(super) fn run_command(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        let Some(name) = words.next() else { return };
        let args: Vec<&str> = words.collect();
        match name {
            // The same guard as `q`: unsent work is never dropped unasked.
            "q" | "quit" => return self.ask_to_quit(),
            "q!" => return self.quit_now(),
            "undo-list" => return self.triage_history(),
            "messages" => return self.show_messages(),
            "triage" | "triage-all" if self.waits_for_work(&format!(":{name}")) => return,
            "triage" | "triage-all" => {
                let words = line.trim_start().trim_start_matches(name);
                if let Err(message) = self.triage_command(words, name == "triage-all") {
                    self.status = Some(message.clone());
                    self.overlay = Some(Overlay::error("Triage", message));
                }
                return;
            }
            _ => {}
        }
        let result = if let Some(pane) = self.command_target(name) {
            if pane != self.pane {
                self.switch_pane(pane);
            }
            self.with_pane(pane, |p, cx| p.command(name, &args, cx))
                .unwrap_or_else(|| Err(format!("unknown command :{name}")))
        } else {
            // Only the status line: a popup would swallow the next key
            // (`:w` then `q`).
            self.status = Some(self.unknown(name));
            return;
        };
        if let Err(message) = result {
            self.status = Some(message.clone());
            self.overlay = Some(Overlay::error("Command", message));
        }
    }

    /// The pane that runs `:name`: the pane on show if it has it, else the
    /// first that does.
    pub(super) fn command_target(&self, name: &str) -> Option<super::PaneId> {
        let has = |p: &dyn crate::pane::Pane| {
            p.commands()
                .iter()
                .any(|usage| usage.split_whitespace().next() == Some(name))
        };
        if has(self.current()) {
            Some(self.pane)
        } else {
            self.panes().find(|p| has(*p)).map(|p| p.id())
        }
    }

    /// "unknown command", with the commands there are.
    fn unknown(&self, name: &str) -> String {
        let mut known: Vec<&str> = Vec::new();
        for usage in self.panes().flat_map(|p| p.commands()) {
            let first = |u: &str| u.split_whitespace().next().map(str::to_owned);
            if !known.iter().any(|k| first(k) == first(usage)) {
                known.push(usage);
            }
        }
        known.extend([
            "triage STATE [REASON] [NOTE]",
            "triage-all STATE [REASON] [NOTE]",
            "undo-list",
            "messages",
            "q",
        ]);
        let names: Vec<String> = known
            .iter()
            .filter_map(|c| c.split_whitespace().next())
            .map(|c| format!(":{c}"))
            .collect();
        let hint = findings_requests::filter_spec::did_you_mean(&names, &format!(":{name}"))
            .map(|d| format!("{d} "))
            .unwrap_or_default();
        let known: Vec<String> = known.iter().map(|c| format!(":{c}")).collect();
        format!(
            "unknown command :{} ({hint}try {})",
            findings_base::text::one_line(name),
            known.join(", ")
        )
    }
}
