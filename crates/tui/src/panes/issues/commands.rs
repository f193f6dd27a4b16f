//! The pane's `:` commands: `:sort`, `:filter`, `:clear`, `:view` (and
//! `:save`, in `saving.rs`), `:load all`, `:since`, `:over-target`, `:mark-shown`, and
//! what Tab completes after them.

use super::IssuesPane;
use crate::pane::Cx;
use findings_model::*;
use findings_requests::filter_spec::{self, LIST_FILTER};

/// The sort by the AGE column, as `:sort` names it.
pub(super) const AGE: &str = "age";

/// " (did you mean X?)" when a known name is near `typed`, else nothing.
fn hint(known: &[&str], typed: &str) -> String {
    filter_spec::did_you_mean(known, typed)
        .map(|d| format!(" ({d})"))
        .unwrap_or_default()
}

/// The commands, as help lists them.
pub(super) const COMMANDS: &[&str] = &[
    "sort FIELD [asc|desc]",
    "filter FIELD=VALUES|FIELD+=VALUES",
    "clear",
    "view NAME",
    "save NAME",
    "load all",
    "since",
    "over-target",
    "mark-shown",
];

impl IssuesPane {
    /// Runs `:name args`; `None` for a command not the pane's.
    pub(super) fn run_command(
        &mut self,
        name: &str,
        args: &[&str],
        cx: &mut Cx,
    ) -> Option<Result<(), String>> {
        Some(match name {
            "sort" => self.set_sort(args, cx),
            "filter" => self.set_filter(&args.join(" "), cx),
            "clear" => {
                self.clear_filters(cx);
                Ok(())
            }
            "view" => self.view_command(args.first().copied(), cx),
            "save" => self.save_view(args, cx.outbox),
            "load" if args == ["all"] => {
                if self.list.complete {
                    cx.outbox.status("every finding is loaded");
                }
                self.load_all(false, cx);
                Ok(())
            }
            "load" => Err("usage: :load all".to_owned()),
            "since" if args.is_empty() => {
                self.show_since(cx);
                Ok(())
            }
            "since" => Err("usage: :since (what changed since the last visit)".to_owned()),
            "over-target" if args.is_empty() => {
                self.toggle_over_target(cx);
                Ok(())
            }
            "over-target" => Err("usage: :over-target (again: every finding)".to_owned()),
            "mark-shown" if args.is_empty() => {
                if let Some(why) = self.refuse_while_searching(":mark-shown") {
                    return Some(Err(why));
                }
                cx.outbox.status(self.marked.mark_shown(&self.list));
                Ok(())
            }
            "mark-shown" => Err("usage: :mark-shown (marks every row shown)".to_owned()),
            _ => return None,
        })
    }

    /// `:view NAME`: a saved view's sort and filters; `:view` alone lists
    /// them.
    pub(super) fn view_command(&mut self, name: Option<&str>, cx: &mut Cx) -> Result<(), String> {
        let names = || {
            let list: Vec<&str> = self.views.iter().map(|v| v.name.as_str()).collect();
            if list.is_empty() {
                "none (add [views.NAME] to the config file)".to_owned()
            } else {
                list.join(", ")
            }
        };
        let Some(name) = name else {
            // Not a mistake: the way to see them.
            cx.outbox
                .status(format!("saved views: {} (:view NAME applies one)", names()));
            return Ok(());
        };
        let Some(view) = self.views.iter().find(|v| v.name == name).cloned() else {
            let saved: Vec<&str> = self.views.iter().map(|v| v.name.as_str()).collect();
            return Err(format!(
                "no saved view {:?}{}; saved views: {}",
                findings_base::text::one_line(name),
                hint(&saved, name),
                names()
            ));
        };
        // Checked before anything is dropped.
        IssuesPane::default().apply_view(&view)?;
        self.change_selection(super::narrow::Pending::View(view), cx);
        Ok(())
    }

    /// `:sort FIELD [asc|desc]`
    pub(super) fn set_sort(&mut self, args: &[&str], cx: &mut Cx) -> Result<(), String> {
        let Some(field) = args.first() else {
            return Err("usage: :sort FIELD [asc|desc]".into());
        };
        // `age`: the AGE column, sorted here (the server cannot).
        let age = *field == AGE;
        let by = match SortBy::parse_known(field) {
            Some(by) => Some(by),
            None if age => None,
            None => {
                let mut names: Vec<&str> = SortBy::ALL.iter().map(SortBy::label).collect();
                names.push(AGE);
                return Err(format!(
                    "unknown sort field {field:?}{}; valid: {}",
                    hint(&names, field),
                    names.join(", ")
                ));
            }
        };
        let dir = match args.get(1).copied() {
            None => None,
            Some(d) => Some(
                SortDirection::parse_known(d)
                    .ok_or_else(|| format!("direction {d:?} must be asc or desc"))?,
            ),
        };
        self.sort_age = age;
        if by.is_some() {
            self.sort_by = by;
        }
        if dir.is_some() {
            self.sort_direction = dir;
        }
        self.sort_changed(cx);
        Ok(())
    }

    /// `:filter FIELD=VALUES` sets a server-side filter field (a list
    /// takes its values comma-separated), `FIELD+=VALUES` adds to a list's
    /// values, `FIELD=` clears the field.
    pub(super) fn set_filter(&mut self, arg: &str, cx: &mut Cx) -> Result<(), String> {
        let (field, values) = filter_spec::split_pair(arg).map_err(|e| e.0)?;
        let (field, add) = match field.strip_suffix('+') {
            Some(f) => (f.trim().to_owned(), true),
            None => (field, false),
        };
        let Some(kind) = LIST_FILTER.iter().find(|f| f.name == field).map(|f| f.kind) else {
            // Unknown: the error names the fields there are.
            let pair = [(field, values)];
            return filter_spec::build::<ListSelection>(LIST_FILTER, "List issues", &pair)
                .map(|_| ())
                .map_err(|e| e.0);
        };
        if add && !kind.is_list() {
            return Err(format!("{field} takes one value: :filter {field}=VALUE"));
        }
        let mut pairs = filter_spec::pairs_of(LIST_FILTER, &self.selection);
        if !add {
            pairs.retain(|(k, _)| *k != field);
        }
        // One reading of a list everywhere: `a,b`, `\,` for a comma.
        let values: Vec<String> = if kind.is_list() {
            filter_spec::split_list(&values)
        } else {
            vec![values.trim().to_owned()]
        };
        pairs.extend(
            values
                .into_iter()
                .filter(|v| !v.is_empty())
                .map(|v| (field.clone(), v)),
        );
        // Only the values given now: a view's may stand as they are.
        self.check_and_filter(pairs, Some(&field), cx)
    }

    /// Applies the filter `pairs` make (their names already checked),
    /// types added for a field of one type only; then says `said` (what
    /// the check resolved) with what the types do.
    pub(super) fn filter_by(
        &mut self,
        mut pairs: Vec<(String, String)>,
        mut said: Vec<String>,
        cx: &mut Cx,
    ) -> Result<(), String> {
        said.extend(filter_spec::scope_types(&mut pairs).map_err(|e| e.0)?);
        said.extend(filter_spec::reachability_note(&pairs));
        let selection: Option<ListSelection> =
            filter_spec::build(LIST_FILTER, "List issues", &pairs).map_err(|e| e.0)?;
        let selection = selection.unwrap_or_default();
        self.change_selection(super::narrow::Pending::Filter(selection), cx);
        // Unless a question about the loaded rows waits for its answer.
        if !said.is_empty() && self.pending.is_none() {
            cx.outbox
                .status(findings_base::text::one_line(&said.join("; ")));
        }
        Ok(())
    }

    /// `:clear` drops every filter, local and server-side.
    pub(super) fn clear_filters(&mut self, cx: &mut Cx) {
        self.selection = ListSelection::default();
        self.local_query.clear();
        self.local_input = None;
        self.reload(cx);
    }
}

/// The `names` that start with `word`.
pub(crate) fn words<'a>(names: impl IntoIterator<Item = &'a str>, word: &str) -> Vec<String> {
    names
        .into_iter()
        .filter(|n| n.starts_with(word))
        .map(str::to_owned)
        .collect()
}
