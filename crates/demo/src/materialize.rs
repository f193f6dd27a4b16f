//! Building the wire `Issue` of a demo row, with exactly the parts a request
//! asked for.

use super::catalog::SecretRule;
use super::dataset::*;
use super::rng::Rng;
use super::snippets::{dependency_snippet, retarget_diff};
use chrono::{TimeZone, Utc};
use findings_model::*;

/// Which optional parts to build.
#[derive(Debug, Clone, Copy, Default)]
pub struct Parts {
    pub remediation: bool,
    pub activity_history: bool,
    pub is_archived: bool,
    pub first_detected_at: bool,
    /// The fields the published contract gives only to the single-issue
    /// fetch, `IssuesService_GetIssue` (snippets, dataflow trace, related
    /// issues ...).
    pub single_issue: bool,
}

impl Parts {
    /// Leaves out of a stored finding what a request did not ask for, as
    /// the server would.
    pub fn strip(self, issue: &mut Issue) {
        let whole = self.single_issue;
        if !self.remediation && !whole {
            issue.remediation = None;
        }
        if !self.activity_history && !whole {
            issue.activity_history.clear();
        }
        if !self.first_detected_at && !whole {
            issue.first_detected_at = None;
        }
        if !self.is_archived {
            issue.is_archived = None;
        }
    }
}

fn ts(secs: i64) -> Timestamp {
    Utc.timestamp_opt(secs, 0).single().unwrap_or_default()
}

impl Dataset {
    /// Finding `index` as it is now.
    pub fn issue(&self, index: usize, parts: Parts) -> Issue {
        self.issue_with(&self.changes(), index, parts)
    }

    /// Finding `index` as `changes` leave it.
    pub fn issue_with(&self, changes: &Changes, index: usize, parts: Parts) -> Issue {
        if let Some(offline) = &self.offline {
            let mut issue = offline.item(index).issue.unwrap_or_default();
            parts.strip(&mut issue);
            return issue;
        }
        // The generated row makes its history; the row as it is now, its
        // states.
        let base = &self.rows[index];
        let row = &changes.row(index, base);
        let change = changes.findings.get(&index);
        let repo_meta = self.repo(row);
        let id = finding_id(index);
        // The detail stream's draws come in this order: the commit, the end
        // line, autotriage, the SCA then the secrets attributes.
        let mut r = Rng::for_item(self.seed, stream::DETAIL, index as u64);
        let commit = r.hex(40);
        let path = self.file_path(row).to_owned();
        let scm_type = ScmType::from_wire(&repo_meta.scm_type);
        let host = host_of(&scm_type);
        let ref_name = self.ref_name(row).to_owned();
        let line = i64::from(row.line);
        let end_line = self.end_line(row, line, &mut r);
        let line_url = format!(
            "https://{host}/{}/blob/{commit}/{path}#L{line}",
            repo_meta.name
        );
        let match_based_id = self.match_based_id(index);
        let advisory = self.advisory(row);
        let secret = self.secret_rule(row);

        let codeowners = self.codeowners(row);

        let mut autotriage = autotriage(row, &id, &path, &match_based_id, &mut r);
        if let (Some(at), Some(feedback)) = (&mut autotriage, changes.acted.feedback.get(&index)) {
            at.feedback = Some(feedback.clone());
        }

        let sca_attributes =
            advisory.map(|a| self.sca_attributes(row, a, &mut r, host, &repo_meta.name, &commit));
        let secrets_attributes = secret.map(|s| secrets_attributes(row, s, &mut r));

        let mut issue = Issue {
            id: Some(id.clone()),
            created_at: Some(ts(row.created)),
            ref_: Some(ref_name.clone()),
            syntactic_id: Some(self.syntactic_id(index)),
            match_based_id: Some(match_based_id.clone()),
            status: Some(IssueStatus::ALL[row.status as usize].clone()),
            repository: Some(self.wire_repository(row, scm_type)),
            first_seen_scan: Some(scan(9_000_000 + index * 3, "push", &ref_name)),
            last_seen_scan: Some(scan(last_scan_id(index), "schedule", &ref_name)),
            triage_state: Some(TriageState::ALL[row.triage as usize].clone()),
            triage_reason: row
                .triage_reason
                .map(|k| TriageReason::ALL[k as usize].clone()),
            relevant_since: Some(ts(row.relevant_since)),
            aggregate_state: Some(AggregateState::ALL[row.aggregate as usize].clone()),
            note: match change {
                Some(c) => c.note.clone(),
                None => Dataset::generated_note(row),
            },
            external_ticket: row.ticket.then(|| match changes.acted.tickets.get(&index) {
                Some(Some(linked)) => linked.wire(),
                _ => external_ticket(index, &id),
            }),
            is_blocking: Some(row.blocking),
            autotriage,
            ai_tags: row.sensitivity.map(|k| ai_tags(index, &id, &path, k)),
            line_of_code_url: Some(line_url),
            file_path: Some(path.clone()),
            line: Some(line),
            end_line: Some(end_line),
            column: Some(i64::from(1 + row.line % 17)),
            end_column: Some(i64::from(20 + row.line % 40)),
            severity: Some(Severity::ALL[row.severity as usize].clone()),
            confidence: Some(Confidence::ALL[row.confidence as usize].clone()),
            ticket_attempts: self.ticket_attempts(index, base, row),
            sast_attributes: matches!(row.kind, Kind::Code | Kind::AiCode)
                .then(SastAttributes::default),
            sca_attributes,
            secrets_attributes,
            codeowners,
            // Only for a request asking for exception request info, which
            // the published List issues request cannot: never (docs/src/api.md).
            exception_request: None,
            triage_permission: Some(Dataset::triage_permission(index, row)),
            ..self.rule_fields(row, index)
        };

        if parts.remediation {
            issue.remediation = Some(self.remediation(row, &id, &match_based_id));
        }
        if parts.activity_history {
            issue.activity_history = self.activity_now(changes, index);
        }
        if parts.is_archived {
            issue.is_archived = Some(repo_meta.archived);
        }
        if parts.first_detected_at {
            issue.first_detected_at = Some(ts(row.first_detected));
        }
        if parts.single_issue {
            self.add_fix_pr_link(&mut issue, changes, index, row, host);
            self.add_single_issue_fields(&mut issue, index, &commit, host);
            issue.activity_history = self.activity_now(changes, index);
        }
        issue
    }

    /// The last line of the finding: a few after its first, within the
    /// snippet for a code finding (which ends where the sink's line says).
    fn end_line(&self, row: &Row, line: i64, r: &mut Rng) -> i64 {
        let end_line = line + r.range(0, 3);
        match self.code_rule(row) {
            Some(cr) => end_line
                .min(line + crate::wire_int(cr.last_line()) - 1 - crate::wire_int(cr.sink_line())),
            None => end_line,
        }
    }

    /// The match id of generated finding `index`: its own, shared only by
    /// its twins on other refs ([`Dataset::match_identity`]).
    pub fn match_based_id(&self, index: usize) -> String {
        let identity = self.match_identity(index) as u64;
        format!(
            "mb-{}",
            Rng::for_item(self.seed, stream::MATCH_ID, identity).hex(24)
        )
    }

    /// The syntactic id: twins are the same code, so they share it too.
    pub fn syntactic_id(&self, index: usize) -> String {
        let identity = self.match_identity(index) as u64;
        Rng::for_item(self.seed, stream::SYNTACTIC_ID, identity).hex(32)
    }

    /// The finding's repository as the wire names it.
    fn wire_repository(&self, row: &Row, scm_type: ScmType) -> Repository {
        let repo_meta = self.repo(row);
        let repo_info = &self.repos[row.repo as usize];
        Repository {
            name: Some(repo_meta.name.clone()),
            id: Some(repo_info.id.clone()),
            scm_type: Some(scm_type),
            primary_ref: Some(PrimaryRef {
                id: Some(repo_info.primary_ref_id.clone()),
                ref_: Some(repo_meta.primary_ref.clone()),
            }),
        }
    }

    /// The fix pull request's number and link. "Available in the GetIssue
    /// RPC and in list responses that opt into it": no published list
    /// request can opt in, so only the single issue has them.
    fn add_fix_pr_link(
        &self,
        issue: &mut Issue,
        changes: &Changes,
        index: usize,
        row: &Row,
        host: &str,
    ) {
        // An in-flight request has no pull request yet.
        let fix_pr_id = match changes.acted.fixes.get(&index) {
            Some(fix) => (fix.state != FixPr::Requested).then(|| fix.pr_number.to_string()),
            None => row
                .fix_pr
                .filter(|pr| *pr != FixPr::Requested)
                .map(|_| (3100 + index % 9000).to_string()),
        };
        let repo = &self.repo(row).name;
        issue.click_to_fix_pr_url = fix_pr_id
            .as_ref()
            .map(|pr| format!("https://{host}/{repo}/pull/{pr}"));
        issue.click_to_fix_pr_id = fix_pr_id;
    }

    /// The activity of finding `index` as `changes` leave it: generated,
    /// then triage's, then the actions', in date order.
    fn activity_now(&self, changes: &Changes, index: usize) -> Vec<ActivityEvent> {
        let mut events = self.activity(index, changes.findings.get(&index));
        if let Some(acted) = changes.acted.events.get(&index) {
            events.extend(acted.iter().cloned());
            events.sort_by_key(|e| e.date);
        }
        events
    }

    /// The team that owns the finding's code, with its members.
    fn codeowners(&self, row: &Row) -> Vec<Codeowner> {
        let team = &self.catalog.people.teams[row.team as usize];
        vec![Codeowner {
            id: Some(format!("team-{}", u32::from(row.team) + 1)),
            name: Some(team.name.clone()),
            is_team: Some(true),
            members: team
                .members
                .iter()
                .map(|login| Codeowner {
                    id: Some(format!("user-{login}")),
                    name: Some(login.clone()),
                    is_team: Some(false),
                    members: vec![],
                })
                .collect(),
        }]
    }

    /// The ticket attempt that failed, dated by the finding's activity.
    fn ticket_attempts(&self, index: usize, base: &Row, row: &Row) -> Vec<TicketAttempt> {
        if row.ticket_failed {
            // When the activity says the attempt was made.
            let attempted = self
                .timeline(index, base)
                .iter()
                .find(|e| *e.history_type() == HistoryType::TicketAttempted)
                .map_or(row.created, |e| e.date);
            vec![TicketAttempt {
                attempted_at: Some(ts(attempted)),
                response_message: Some(
                    "400 Bad Request: field 'component' is required by the SEC project".into(),
                ),
            }]
        } else {
            vec![]
        }
    }

    /// The note a generated finding carries: one of its triage.
    pub fn generated_note(row: &Row) -> Option<String> {
        row.triage_reason
            .map(|_| "Reviewed with the owning team during triage.".into())
    }

    fn sca_attributes(
        &self,
        row: &Row,
        a: &super::catalog::ScaAdvisory,
        r: &mut Rng,
        host: &str,
        repo: &str,
        commit: &str,
    ) -> ScaAttributes {
        let reachability = row
            .reachability
            .map(|k| Reachability::ALL[k as usize].clone());
        let direct = a.parents.first().filter(|_| row.transitive);
        let drawn = r.range(10, 4000);
        // A finding in the lockfile is at the line the link points at.
        let lock_line = if row.transitive {
            i64::from(row.line)
        } else {
            drawn
        };
        let dependency = Dependency {
            package: Some(a.package.clone()),
            version: Some(a.vulnerable_version.clone()),
            transitivity: Some(
                if row.transitive {
                    "TRANSITIVE"
                } else {
                    "DIRECT"
                }
                .into(),
            ),
            lockfile_line_url: Some(format!(
                "https://{host}/{repo}/blob/{commit}/{}#L{lock_line}",
                a.lockfile
            )),
            file_path: Some(a.lockfile.clone()),
            ecosystem: Some(a.ecosystem.clone()),
            manifest_file_path: Some(a.manifest_file.clone()),
        };
        let fix = PackageVersion {
            package: Some(a.package.clone()),
            version: Some(a.fixed_version.clone()),
        };
        let conditional = reachability == Some(Reachability::ConditionallyReachable);
        let match_kind = match_kind(row.transitive, reachability.as_ref());
        ScaAttributes {
            severity: Some(Severity::from_wire(&a.severity)),
            vuln_database_identifier: Some(a.vuln_id.clone()),
            reachability,
            reachable_condition: conditional.then(|| a.reachable_condition.clone()),
            cwes: a.cwes.clone(),
            found_dependency: Some(dependency.clone()),
            fix_recommendations: vec![fix.clone()],
            best_fix: Some(fix),
            epss_score: a.has_cve.then(|| {
                let score = (r.unit().powi(3) * 0.97 * 10_000.0).round() / 10_000.0;
                EpssScore {
                    score: Some(score),
                    percentile: Some(((0.5 + score / 2.0) * 1000.0).round() / 1000.0),
                    updated_at: Some(ts(self.anchor.timestamp() - 86_400)),
                    categorization: Some(
                        if score > 0.1 {
                            "EPSS_PROBABILITY_HIGH"
                        } else if score > 0.01 {
                            "EPSS_PROBABILITY_MEDIUM"
                        } else if score > 0.0 {
                            "EPSS_PROBABILITY_LOW"
                        } else {
                            "EPSS_PROBABILITY_NONE"
                        }
                        .into(),
                    ),
                }
            }),
            rule_publish_date: Some(ts(row.created - r.range(5, 200) * 86_400)),
            sca_rule_kind: Some(ScaRuleKind::from_wire(&a.sca_rule_kind)),
            sca_match_info: Some(ScaMatchInfo {
                match_kind: Some(match_kind.into()),
                analyzed_packages: vec![dependency.clone()],
                transitive_matches: direct
                    .map(|p| TransitiveMatch {
                        dependency: Some(Dependency {
                            package: p.package.clone().into(),
                            version: p.version.clone().into(),
                            transitivity: Some("DIRECT".into()),
                            ecosystem: Some(a.ecosystem.clone()),
                            ..Dependency::default()
                        }),
                        path: Some(a.manifest_file.clone()),
                        line: Some(r.range(5, 80)),
                    })
                    .into_iter()
                    .collect(),
            }),
            introduced_by: direct
                .map(|p| PackageVersion {
                    package: Some(p.package.clone()),
                    version: Some(p.version.clone()),
                })
                .into_iter()
                .collect(),
        }
    }

    fn remediation(&self, row: &Row, id: &str, match_based_id: &str) -> Remediation {
        let (autofix, guidance) = if let Some(cr) = self.code_rule(row) {
            (
                Some(Autofix {
                    id: Some(format!("afx-{id}")),
                    fix_code: Some(cr.fix_code.clone()),
                    fix_diff: Some(retarget_diff(
                        &cr.fix_diff,
                        self.file_path(row),
                        i64::from(row.line) - crate::wire_int(cr.sink_line()) - 1,
                    )),
                    explanation: Some(cr.explanation.clone()),
                    url: Some(format!("https://findings.example.com/autofix/{id}")),
                }),
                Guidance {
                    id: Some(format!("gd-{id}")),
                    summary: Some(cr.guidance_summary.clone()),
                    guidance_text: Some(cr.guidance_text.clone()),
                    memory_ids_used: row.memory_referenced.map(memory_id).into_iter().collect(),
                },
            )
        } else if let Some(a) = self.advisory(row) {
            (
                None,
                Guidance {
                    id: Some(format!("gd-{id}")),
                    summary: Some(format!(
                        "Upgrade {} to {} or later",
                        a.package, a.fixed_version
                    )),
                    guidance_text: Some(format!(
                        "1. Update {} from {} to {} in {}.\n2. Regenerate {} and run the test suite.\n3. If the dependency is transitive, upgrade the direct dependency that pulls it in, or pin the fixed version with an override.",
                        a.package,
                        a.vulnerable_version,
                        a.fixed_version,
                        a.manifest_file,
                        a.lockfile
                    )),
                    memory_ids_used: vec![],
                },
            )
        } else {
            let s = self
                .secret_rule(row)
                .map_or("secret", |s| s.secret_type.as_str());
            (
                None,
                Guidance {
                    id: Some(format!("gd-{id}")),
                    summary: Some(format!("Revoke and rotate the exposed {s}")),
                    guidance_text: Some(format!(
                        "1. Revoke the {s} at its issuer now: it is in the repository history and must be treated as public.\n2. Issue a new credential and store it in the secrets manager, read at runtime.\n3. Remove the value from the code; rewriting history does not make a leaked secret safe again."
                    )),
                    memory_ids_used: vec![],
                },
            )
        };
        Remediation {
            issue_id: Some(id.to_owned()),
            match_based_id: Some(match_based_id.to_owned()),
            autofix,
            guidance: Some(guidance),
        }
    }

    fn add_single_issue_fields(&self, issue: &mut Issue, index: usize, commit: &str, host: &str) {
        let row = &self.rows[index];
        let repo = &self.repo(row).name;
        let path = self.file_path(row).to_owned();
        let line = i64::from(row.line);
        let loc = |l: i64, col: i64, len: i64| Location {
            path: Some(path.clone()),
            start: Some(Position {
                line: Some(l),
                col: Some(col),
                offset: Some(l * 40 + col),
            }),
            end: Some(Position {
                line: Some(l),
                col: Some(col + len),
                offset: Some(l * 40 + col + len),
            }),
            location_url: Some(format!("https://{host}/{repo}/blob/{commit}/{path}#L{l}")),
        };
        let snippet = if let Some(cr) = self.code_rule(row) {
            issue.dataflow_trace = Some(DataflowTrace {
                taint_source: vec![loc(
                    (line - 2).max(1),
                    9,
                    crate::wire_int(cr.source_var.len()),
                )],
                intermediate_vars: vec![loc(
                    (line - 1).max(1),
                    5,
                    crate::wire_int(cr.intermediate_var.len()),
                )],
                taint_sink: vec![loc(line, 5, crate::wire_int(cr.sink_call.len()))],
            });
            issue.rule_display_name = Some(cr.name.clone());
            issue.rule_explanation = (row.verdict == Some(0)).then(|| RuleExplanation {
                id: Some(format!("rx-{}", finding_id(index))),
                summary: Some(format!("{} flows into {} without sanitisation", cr.source_var, cr.sink_call)),
                explanation: Some(format!(
                    "Untrusted input from {} is assigned to {} and reaches {} unchanged. An attacker who controls the input controls the sink.",
                    cr.source_var, cr.intermediate_var, cr.sink_call
                )),
            });
            if row.fix_pr.is_some() {
                issue.click_to_fix_commit_msg = Some(format!("fix: {} ({})", cr.name, cr.rule_id));
            }
            if row.kind == Kind::AiCode {
                issue.ai_impact = Some("An authenticated user can read or modify records that belong to other tenants.".into());
            }
            cr.snippet.clone()
        } else if let Some(s) = self.secret_rule(row) {
            issue.rule_display_name = Some(format!("Hard-coded {}", s.secret_type));
            s.snippet.clone()
        } else if let Some(a) = self.advisory(row) {
            issue.rule_display_name = Some(format!("{} in {}", a.vuln_id, a.package));
            dependency_snippet(&path, &a.package, &a.vulnerable_version)
        } else {
            String::new()
        };
        issue.code_snippet = Some(snippet.clone());
        issue.code_snippets = vec![CodeSnippet {
            path: Some(path.clone()),
            content: Some(snippet),
        }];
        issue.commit_url = Some(format!("https://{host}/{repo}/commit/{commit}"));
        issue.ref_url = issue.commit_url.clone();
        issue.first_detected_at = Some(ts(row.first_detected));
        issue.related_issues = self.related(index);
    }
}

/// The AI's verdict on a code finding, with feedback on some.
fn autotriage(
    row: &Row,
    id: &str,
    path: &str,
    match_based_id: &str,
    r: &mut Rng,
) -> Option<Autotriage> {
    let verdict = row.verdict.map(|v| Verdict::ALL[v as usize].clone());
    verdict.map(|verdict| {
        let reason = match verdict {
            Verdict::TruePositive => String::new(),
            Verdict::FalsePositive => format!(
                "The value reaching the sink in {path} is validated against an allow-list before use, so the reported flow is not exploitable."
            ),
            _ => "Not enough context to decide: the input source could not be resolved statically.".to_owned(),
        };
        Autotriage {
            id: Some(format!("at-{id}")),
            issue_id: Some(id.to_owned()),
            verdict: Some(verdict),
            reason: (!reason.is_empty()).then_some(reason),
            feedback: r.chance(0.2).then(|| AutotriageFeedback {
                autotriage_id: Some(format!("at-{id}")),
                rating: Some(if r.chance(0.7) { "RATING_GOOD" } else { "RATING_BAD" }.into()),
                note: Some("Checked by hand; verdict stands.".into()),
            }),
            match_based_id: Some(match_based_id.to_owned()),
            memory_ids_referenced: row.memory_referenced.map(memory_id).into_iter().collect(),
            memory_ids_rendered: row.memory_rendered.map(memory_id).into_iter().collect(),
        }
    })
}

/// What a secret finding says of the secret.
fn secrets_attributes(row: &Row, s: &SecretRule, r: &mut Rng) -> SecretsAttributes {
    SecretsAttributes {
        validation_state: row
            .validation
            .map(|v| ValidationState::ALL[v as usize].clone()),
        secret_type: Some(s.secret_type.clone()),
        historical_info: row.historical.then(|| HistoricalInfo {
            git_commit: Some(r.hex(40)),
            git_commit_timestamp: Some(ts(row.created - r.range(1, 400) * 86_400)),
            git_blob: Some(r.hex(40)),
        }),
    }
}

/// A scan that saw the finding, and what started it.
/// The scan that saw generated finding `index` last (its first is two
/// before).
pub fn last_scan_id(index: usize) -> usize {
    9_000_000 + index * 3 + 2
}

fn scan(id: usize, trigger: &str, branch: &str) -> Scan {
    Scan {
        id: Some(id.to_string()),
        meta: Some(serde_json::json!({"trigger": trigger, "branch": branch})),
    }
}

/// The ticket a finding was filed as.
fn external_ticket(index: usize, id: &str) -> ExternalTicket {
    ExternalTicket {
        url: Some(format!(
            "https://tickets.example.com/browse/SEC-{}",
            1200 + index
        )),
        external_slug: Some(format!("SEC-{}", 1200 + index)),
        id: Some(format!("tkt-{id}")),
        linked_issue_ids: vec![id.to_owned()],
    }
}

/// What the AI says of the code's sensitivity.
fn ai_tags(index: usize, id: &str, path: &str, k: u8) -> AiTags {
    AiTags {
        id: Some(format!("ait-{id}")),
        path: Some(path.to_owned()),
        tags: Some(
            [
                "authentication",
                "payments",
                "pii",
                "admin",
                "internal-tooling",
            ][index % 5]
                .into(),
        ),
        sensitivity: Some(Sensitivity::ALL[k as usize].clone()),
    }
}

/// The published match kinds join transitivity and reachability.
fn match_kind(transitive: bool, reachability: Option<&Reachability>) -> &'static str {
    let reachable = match reachability {
        Some(
            Reachability::AlwaysReachable
            | Reachability::ConditionallyReachable
            | Reachability::Reachable,
        ) => Some(true),
        Some(Reachability::Unreachable) => Some(false),
        _ => None,
    };
    match (transitive, reachable) {
        (false, Some(true)) => "SCA_MATCH_KIND_DIRECT_REACHABLE",
        (false, Some(false)) => "SCA_MATCH_KIND_DIRECT_UNREACHABLE",
        (false, None) => "SCA_MATCH_KIND_LOCKFILE_ONLY",
        (true, Some(true)) => "SCA_MATCH_KIND_TRANSITIVE_REACHABLE",
        (true, Some(false)) => "SCA_MATCH_KIND_TRANSITIVE_UNREACHABLE",
        (true, None) => "SCA_MATCH_KIND_TRANSITIVE_UNDETERMINED",
    }
}
