//! What a triage sets on each finding, its note included, and the requests
//! that set it: findings that get the same state, reason and note go in one
//! request, so a finding keeps its own note unless the user chose to
//! replace it (the published `note` is a proto3 string: omitted reads as
//! empty, which may clear it; `docs/DECISIONS` §Triage notes).
//!
//! The TUI's triage and undo and `findings triage` all plan here.

use super::{Decision, Target};
use findings_model::*;
use std::collections::HashMap;

/// A finding's triage state, reason and note: what a triage sets, what was
/// there before it, and what its undo puts back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    pub state: TriageState,
    pub reason: Option<TriageReason>,
    /// `None`: no note.
    pub note: Option<String>,
}

/// What a triage does to the notes findings already have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Notes {
    /// A finding with a note keeps it; the note typed (if any) goes to
    /// those without one.
    #[default]
    Keep,
    /// Every finding gets the note typed (none typed: their notes are
    /// removed). Chosen explicitly; the review counts the notes replaced.
    Replace,
}

impl Setting {
    /// A finding's setting as `target` has it (`None`: not a finding, or
    /// its note was not read).
    pub fn of(target: &Target) -> Option<Setting> {
        let super::Before::Finding(state, reason) = &target.before else {
            return None;
        };
        if !target.note_read {
            return None;
        }
        let state = state.clone().unwrap_or(TriageState::Untriaged);
        Some(Setting {
            reason: reason
                .clone()
                .filter(|_| super::takes_reason(state.as_wire())),
            state,
            note: target.note.clone().filter(|n| !n.is_empty()),
        })
    }

    /// "ignored (false positive)".
    pub fn describe(&self) -> String {
        match &self.reason {
            Some(r) => format!("{} ({})", self.state.label(), r.label()),
            None => self.state.label().to_owned(),
        }
    }

    /// "ignored (false positive), note "dup of SEC-1"" or ", no note".
    pub fn describe_with_note(&self) -> String {
        match &self.note {
            Some(n) => format!(
                "{}, note {:?}",
                self.describe(),
                findings_base::text::truncate(&findings_base::text::one_line(n), 40)
            ),
            None => format!("{}, no note", self.describe()),
        }
    }

    /// The request's `params`. `clears`: some finding of the request has a
    /// note this one removes, so an empty note is sent as `""` (read as
    /// "no note" whether an omitted note keeps or clears).
    pub fn params(&self, clears: bool) -> UpdateFindingParams {
        UpdateFindingParams {
            triage_state: Some(self.state.clone()),
            triage_reason: self.reason.clone(),
            note: match &self.note {
                Some(n) => Some(n.clone()),
                None if clears => Some(String::new()),
                None => None,
            },
        }
    }

    /// Whether the state and reason are `other`'s (the note aside).
    pub fn same_state(&self, other: &Setting) -> bool {
        self.state == other.state && self.reason == other.reason
    }
}

/// What `decision` (a finding's) sets on a finding that is `now`, with
/// `notes`: the decision's state and reason, and the note by `notes`.
pub fn planned(decision: &Decision, now: &Setting, notes: Notes) -> Option<Setting> {
    let Decision::Finding {
        state,
        reason,
        note,
    } = decision
    else {
        return None;
    };
    let typed = note.clone().filter(|n| !n.is_empty());
    let note = match notes {
        Notes::Keep => now.note.clone().or(typed),
        Notes::Replace => typed,
    };
    Some(Setting {
        state: state.clone(),
        reason: reason.clone(),
        note,
    })
}

/// One finding of a plan: as it is now, and what it is to get.
#[derive(Debug, Clone, Copy)]
pub struct Planned<'a> {
    pub id: &'a str,
    /// Of an archived project: List issues and the triage's filter reach
    /// those only with `includeArchived` (and then only those), so they go
    /// in requests of their own.
    pub archived: bool,
    pub now: &'a Setting,
    pub to: &'a Setting,
}

/// One request's worth: the findings that get `setting`, whether they are
/// archived projects', and whether it removes a note one of them has.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    pub setting: Setting,
    pub ids: Vec<String>,
    pub archived: bool,
    pub clears: bool,
}

impl Group {
    /// The request: its findings by id get its setting.
    pub fn request(&self) -> UpdateFindingsRequest {
        let mut request =
            UpdateFindingsRequest::for_ids(self.ids.clone(), self.setting.params(self.clears));
        if let Some(filter) = request.filter.as_mut().filter(|_| self.archived) {
            filter.include_archived = Some(true);
        }
        request
    }
}

/// `(id, now, to)` grouped by `to`, in the order each setting first comes;
/// a finding already `to` (note included) is left out: nothing to send.
pub fn grouped<'a>(plan: impl IntoIterator<Item = Planned<'a>>) -> Vec<Group> {
    grouping(plan, true)
}

/// [`grouped`], keeping the findings already `to` (`findings triage` sends
/// every id named, and its answer counts them).
pub fn grouped_all<'a>(plan: impl IntoIterator<Item = Planned<'a>>) -> Vec<Group> {
    grouping(plan, false)
}

/// What puts findings in one request: archived or not, state, reason, note.
type GroupKey<'a> = (bool, &'a str, Option<&'a str>, Option<&'a str>);

fn grouping<'a>(plan: impl IntoIterator<Item = Planned<'a>>, skip_unchanged: bool) -> Vec<Group> {
    let mut groups: Vec<Group> = Vec::new();
    let mut at: HashMap<GroupKey, usize> = HashMap::new();
    for Planned {
        id,
        archived,
        now,
        to,
    } in plan
    {
        if skip_unchanged && now == to {
            continue;
        }
        let key = (
            archived,
            to.state.as_wire(),
            to.reason.as_ref().map(|r| r.as_wire()),
            to.note.as_deref(),
        );
        let clears = to.note.is_none() && now.note.is_some();
        if let Some(&i) = at.get(&key) {
            groups[i].ids.push(id.to_owned());
            groups[i].clears |= clears;
        } else {
            at.insert(key, groups.len());
            groups.push(Group {
                setting: to.clone(),
                ids: vec![id.to_owned()],
                archived,
                clears,
            });
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(state: TriageState, note: Option<&str>) -> Setting {
        Setting {
            state,
            reason: None,
            note: note.map(str::to_owned),
        }
    }

    #[test]
    fn keeping_notes_groups_by_each_findings_own_and_skips_what_is_already_so() {
        let d = Decision::parse(crate::triage::Kind::Finding, "reviewing", None, None).unwrap();
        let nows = [
            ("1", s(TriageState::Untriaged, Some("teammate's"))),
            ("2", s(TriageState::Untriaged, None)),
            ("3", s(TriageState::Untriaged, Some("teammate's"))),
            ("4", s(TriageState::Reviewing, Some("other"))),
        ];
        let tos: Vec<Setting> = nows
            .iter()
            .map(|(_, now)| planned(&d, now, Notes::Keep).unwrap())
            .collect();
        let groups = grouped(nows.iter().zip(&tos).map(|((id, now), to)| Planned {
            id,
            archived: false,
            now,
            to,
        }));
        assert_eq!(groups.len(), 2, "{groups:?}");
        assert_eq!(groups[0].ids, ["1", "3"]);
        assert_eq!(groups[0].setting.note.as_deref(), Some("teammate's"));
        assert_eq!(groups[1].ids, ["2"]);
        assert!(!groups.iter().any(|g| g.clears), "nothing removed");
        // Finding 4 is reviewing with its note already: not sent.
        assert!(!groups.iter().any(|g| g.ids.contains(&"4".to_owned())));
    }

    #[test]
    fn replacing_is_explicit_and_an_empty_note_is_sent_as_such() {
        let d = Decision::parse(crate::triage::Kind::Finding, "reviewing", None, None).unwrap();
        let now = s(TriageState::Ignored, Some("teammate's"));
        let to = planned(&d, &now, Notes::Replace).unwrap();
        assert_eq!(to.note, None);
        let groups = grouped([Planned {
            id: "1",
            archived: false,
            now: &now,
            to: &to,
        }]);
        assert!(groups[0].clears);
        let params = serde_json::to_value(groups[0].setting.params(groups[0].clears)).unwrap();
        assert_eq!(
            params,
            serde_json::json!({"triageState": "FINDING_TRIAGE_STATE_REVIEWING", "note": ""})
        );
        // Nothing to remove: no note field at all.
        let plain = s(TriageState::Untriaged, None);
        let to = planned(&d, &plain, Notes::Replace).unwrap();
        let params = serde_json::to_value(to.params(false)).unwrap();
        assert_eq!(
            params,
            serde_json::json!({"triageState": "FINDING_TRIAGE_STATE_REVIEWING"})
        );
    }
}
