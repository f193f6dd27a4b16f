//! The demo data agrees with itself: what a finding says in one field, its
//! other fields do not contradict.

use super::*;
use crate::materialize::Parts;

const ALL: Parts = Parts {
    remediation: true,
    activity_history: true,
    is_archived: true,
    first_detected_at: true,
    single_issue: true,
};

fn dataset(findings: usize) -> Dataset {
    let anchor = Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap();
    Dataset::generate(findings, crate::DEFAULT_SEED, anchor, "1234")
}

/// Every RFC 3339 string in a JSON value, with where it is.
fn timestamps(v: &serde_json::Value, at: &str, out: &mut Vec<(String, DateTime<Utc>)>) {
    match v {
        serde_json::Value::String(s) => {
            if let Ok(t) = DateTime::parse_from_rfc3339(s) {
                out.push((at.to_owned(), t.to_utc()));
            }
        }
        serde_json::Value::Array(items) => {
            for (k, item) in items.iter().enumerate() {
                timestamps(item, &format!("{at}[{k}]"), out);
            }
        }
        serde_json::Value::Object(map) => {
            for (k, item) in map {
                timestamps(item, &format!("{at}.{k}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn no_timestamp_lies_after_the_anchor() {
    // Enough rows for the rare ones made in the last minutes before the
    // anchor; the cheap facts of each, the whole finding of the risky ones.
    let ds = dataset(40_000);
    let mut found = Vec::new();
    for (i, row) in ds.rows.iter().enumerate() {
        for t in [
            row.created,
            row.relevant_since,
            row.first_detected,
            row.last_activity,
        ] {
            found.push((format!("row {i}"), ts(t)));
        }
        let risky = row.ticket_failed || row.created > ds.now() - DAY;
        if i < 500 || risky {
            let issue = serde_json::to_value(ds.issue(i, ALL)).unwrap();
            timestamps(&issue, &finding_id(i), &mut found);
        }
    }
    for a in &ds.agentic {
        timestamps(
            &serde_json::to_value(&a.issue).unwrap(),
            "agentic",
            &mut found,
        );
    }
    for c in &ds.scm_configs {
        timestamps(&serde_json::to_value(c).unwrap(), "scm", &mut found);
    }
    let late: Vec<_> = found.iter().filter(|(_, t)| *t > ds.anchor).collect();
    assert!(
        late.is_empty(),
        "{} of {} after the anchor: {:?}",
        late.len(),
        found.len(),
        &late[..late.len().min(10)]
    );
}

#[test]
fn files_and_packages_fit_their_repository() {
    let ds = dataset(3_000);
    for (repo, info) in ds.catalog.repositories.iter().zip(&ds.repos) {
        assert!(
            !info.code_rules.is_empty() && !info.secret_rules.is_empty(),
            "{}",
            repo.name
        );
        assert!(!info.advisories.is_empty(), "{}", repo.name);
    }
    let mut jvm = 0;
    for (i, row) in ds.rows.iter().enumerate() {
        let repo = ds.repo(row);
        let issue = ds.issue(i, Parts::default());
        let path = issue.file_path.clone().unwrap_or_default();
        // A JVM package names its repository: com/acme/ledger/ only in
        // acme/ledger-core.
        if let Some(rest) = path.split("com/acme/").nth(1) {
            jvm += 1;
            let package = rest.split('/').next().unwrap_or_default();
            assert!(
                repo.path_hints.iter().any(|h| h == package),
                "{} holds {path}",
                repo.name
            );
        }
        // No file names another repository.
        for other in ds
            .catalog
            .repositories
            .iter()
            .filter(|o| o.name != repo.name)
        {
            for hint in &other.path_hints {
                assert!(
                    !path.to_lowercase().split('/').any(|part| part == hint),
                    "{} holds {path}, a file of {}",
                    repo.name,
                    other.name
                );
            }
        }
        // A source file is in one of the repository's languages.
        let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
        let language = [
            ("py", "python"),
            ("java", "java"),
            ("kt", "kotlin"),
            ("go", "go"),
            ("rb", "ruby"),
            ("php", "php"),
            ("cs", "csharp"),
            ("rs", "rust"),
            ("tsx", "typescript"),
        ]
        .iter()
        .find(|(e, _)| *e == ext);
        if let Some((_, language)) = language {
            assert!(
                repo.languages.iter().any(|l| l == language),
                "{} holds {path}",
                repo.name
            );
        }
        // A package of the repository's ecosystems.
        if let Some(eco) = issue
            .sca_attributes
            .as_ref()
            .and_then(|s| s.found_dependency.as_ref())
            .and_then(|d| d.ecosystem.as_deref())
        {
            assert!(
                lookup::ecosystem_fits(repo, eco),
                "{} ({:?}) has a {eco} dependency",
                repo.name,
                repo.languages
            );
        }
    }
    assert!(jvm > 50, "{jvm}");
}

/// The line of a finding in a file, as its link ends (`…#L135`).
fn link_line(url: &str) -> i64 {
    url.rsplit_once("#L")
        .and_then(|(_, l)| l.parse().ok())
        .unwrap_or(-1)
}

#[test]
fn lines_links_snippets_and_hunks_agree() {
    let ds = dataset(2_000);
    let (mut lockfiles, mut hunks) = (0, 0);
    for (i, row) in ds.rows.iter().enumerate() {
        let issue = ds.issue(i, ALL);
        let (line, end) = (issue.line.unwrap(), issue.end_line.unwrap());
        assert!(1 <= line && line <= end, "{i}: {line}..{end}");
        assert_eq!(link_line(issue.line_of_code_url.as_deref().unwrap()), line);
        let path = issue.file_path.clone().unwrap();
        let snippet = issue.code_snippet.clone().unwrap_or_default();
        if let Some(d) = issue
            .sca_attributes
            .as_ref()
            .and_then(|s| s.found_dependency.as_ref())
        {
            // A finding in the lockfile: its line is where the link points.
            if d.file_path.as_deref() == Some(path.as_str()) {
                lockfiles += 1;
                assert_eq!(
                    link_line(d.lockfile_line_url.as_deref().unwrap()),
                    line,
                    "{i}"
                );
            }
            // The snippet is in the syntax of the file it is from.
            let version = d.version.as_deref().unwrap();
            assert!(snippet.contains(version), "{path}: {snippet}");
            let first = snippet.chars().next().unwrap();
            if path.ends_with(".xml") || path.ends_with(".csproj") {
                assert_eq!(first, '<', "{path}: {snippet}");
            } else if path.ends_with(".json") || path.ends_with("composer.lock") {
                assert_eq!(first, '"', "{path}: {snippet}");
            } else {
                assert!(!snippet.starts_with(['"', '<']), "{path}: {snippet}");
            }
        }
        if let Some(cr) = ds.code_rule(row) {
            // The sink is on the finding's line of the snippet.
            let start = line - i64::try_from(cr.sink_line()).unwrap();
            let lines: Vec<&str> = snippet.lines().collect();
            let method = cr.sink_call.rsplit(['.', '#', ':']).next().unwrap();
            let at = lines[usize::try_from(line - start).unwrap()];
            assert!(at.contains(method), "{i}: {} not on {at:?}", cr.sink_call);
            assert!(
                end < start + i64::try_from(lines.len()).unwrap(),
                "{i}: {line}..{end}"
            );
            // The autofix's hunk covers the finding's lines.
            let diff = issue.remediation.as_ref().and_then(|r| r.autofix.as_ref());
            let diff = diff.and_then(|a| a.fix_diff.as_deref()).unwrap();
            let header = diff.lines().find(|l| l.starts_with("@@ -")).unwrap();
            let old = header[4..].split(' ').next().unwrap();
            let (from, count) = old.split_once(',').unwrap();
            let (from, count): (i64, i64) = (from.parse().unwrap(), count.parse().unwrap());
            hunks += 1;
            assert!(
                from <= line && end < from + count,
                "{i}: {header} for {line}..{end}"
            );
        }
    }
    assert!(lockfiles > 50 && hunks > 300, "{lockfiles} {hunks}");
}

#[test]
fn days_later_moves_the_data_on_the_same_way_for_the_same_seed() {
    use findings_model::AggregateState;
    let anchor = Utc.with_ymd_and_hms(2026, 11, 15, 0, 0, 0).unwrap();
    let base = Dataset::generate(2000, crate::DEFAULT_SEED, anchor, "1234");
    let later = || Dataset::generate_moved_on(2000, crate::DEFAULT_SEED, anchor, "1234", 14);
    let (a, b) = (later(), later());
    // New findings, found within the fortnight before the anchor.
    assert_eq!(a.rows.len(), 2000 + 14 * 10);
    assert!(
        a.rows[2000..]
            .iter()
            .all(|r| r.created > anchor.timestamp() - 14 * DAY && r.created < anchor.timestamp())
    );
    // The generated findings are those of the same anchor less 14 days:
    // only what the days changed differs.
    let early = Dataset::generate(
        2000,
        crate::DEFAULT_SEED,
        anchor - chrono::Duration::days(14),
        "1234",
    );
    assert_eq!(early.rows[7].created, a.rows[7].created);
    let state = |ds: &Dataset, i: usize| AggregateState::ALL[ds.row(i).aggregate as usize].clone();
    let (mut fixed, mut reopened, mut ignored) = (0, 0, 0);
    for i in 0..2000 {
        assert_eq!(state(&a, i), state(&b, i), "deterministic");
        let (was, now) = (state(&early, i), state(&a, i));
        if was == now {
            continue;
        }
        match now {
            AggregateState::Fixed => fixed += 1,
            AggregateState::Open => reopened += 1,
            AggregateState::IgnoredApp => ignored += 1,
            _ => {}
        }
    }
    assert!(
        fixed > 0 && reopened > 0 && ignored > 0,
        "{fixed} {reopened} {ignored}"
    );
    // Without days, as generated.
    assert_eq!(base.rows.len(), 2000);
}
