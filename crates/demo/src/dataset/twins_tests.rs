//! Twins across refs: what a gate comparing a change's ref with the
//! primary one can rely on in the demo data.

use super::*;
use crate::materialize::Parts;
use std::collections::HashSet;
use std::sync::OnceLock;

fn anchor() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 1, 0, 0, 0).unwrap()
}

/// The default data set (`findings demo serve`: default seed and size).
fn default_set() -> &'static Dataset {
    static SET: OnceLock<Dataset> = OnceLock::new();
    SET.get_or_init(|| {
        Dataset::generate(
            crate::DEFAULT_FINDINGS,
            crate::DEFAULT_SEED,
            anchor(),
            "1234",
        )
    })
}

/// The default seed at 100,000 findings.
fn hundred_k() -> &'static Dataset {
    static SET: OnceLock<Dataset> = OnceLock::new();
    SET.get_or_init(|| Dataset::generate(100_000, crate::DEFAULT_SEED, anchor(), "1234"))
}

fn status(ds: &Dataset, i: usize) -> IssueStatus {
    IssueStatus::ALL[ds.rows[i].status as usize].clone()
}

/// Open on its ref, fixed or removed where it came from.
fn reopened(ds: &Dataset, twin: usize, origin: usize) -> bool {
    status(ds, twin) == IssueStatus::Unresolved
        && matches!(
            status(ds, origin),
            IssueStatus::Fixed | IssueStatus::Removed
        )
}

/// Of the findings `among` on ref `slot` of repository `repo`: how many,
/// how many new (their match id not on the primary ref), twins, reopened.
fn ref_figures(ds: &Dataset, repo: u8, slot: u8, among: &[usize]) -> [usize; 4] {
    let primary: HashSet<usize> = (0..ds.rows.len())
        .filter(|&i| ds.rows[i].repo == repo && ds.rows[i].ref_slot == 0)
        .map(|i| ds.match_identity(i))
        .collect();
    let on_ref: Vec<usize> = among
        .iter()
        .copied()
        .filter(|&i| ds.rows[i].repo == repo && ds.rows[i].ref_slot == slot)
        .collect();
    let new = on_ref
        .iter()
        .filter(|&&i| !primary.contains(&ds.match_identity(i)))
        .count();
    let twins: Vec<(usize, usize)> = on_ref
        .iter()
        .filter_map(|&i| ds.twin_origin(i).map(|o| (i, o)))
        .collect();
    let reopened = twins.iter().filter(|&&(t, o)| reopened(ds, t, o)).count();
    [on_ref.len(), new, twins.len(), reopened]
}

#[test]
fn a_twin_is_its_origin_on_the_primary_ref() {
    let ds = hundred_k();
    let feature = ds.rows.iter().filter(|r| r.ref_slot != 0).count();
    assert!(
        ds.twins.len() * 10 > feature * 3,
        "{} of {feature}",
        ds.twins.len()
    );
    for (k, &(twin, origin)) in ds.twins.iter().enumerate() {
        let (t, o) = (&ds.rows[twin as usize], &ds.rows[origin as usize]);
        assert_ne!(t.ref_slot, 0, "{twin}");
        assert_eq!(
            o.ref_slot, 0,
            "{twin}: its origin {origin} is on the primary ref"
        );
        assert_eq!((t.repo, t.kind, t.rule), (o.repo, o.kind, o.rule), "{twin}");
        assert_eq!(ds.file_path(t), ds.file_path(o), "{twin}");
        assert_eq!(t.line, o.line, "{twin}");
        assert_eq!(
            ds.match_based_id(twin as usize),
            ds.match_based_id(origin as usize)
        );
        // The wire says so too (a sample: the whole finding is dear).
        if k % 200 == 0 {
            let (tw, or) = (
                ds.issue(twin as usize, Parts::default()),
                ds.issue(origin as usize, Parts::default()),
            );
            assert_eq!(tw.match_based_id, or.match_based_id);
            assert_eq!(tw.syntactic_id, or.syntactic_id);
            assert_eq!((&tw.file_path, tw.line), (&or.file_path, or.line));
            assert_eq!(tw.rule_id, or.rule_id);
            assert_eq!(tw.repository, or.repository);
            assert_ne!(tw.ref_, or.ref_);
        }
    }
}

#[test]
fn distinct_findings_never_share_a_match_id() {
    let ds = hundred_k();
    let mut by_id: HashMap<String, Vec<usize>> = HashMap::new();
    for i in 0..ds.rows.len() {
        by_id.entry(ds.match_based_id(i)).or_default().push(i);
    }
    for (id, group) in by_id.into_iter().filter(|(_, g)| g.len() > 1) {
        // One finding on several refs: an origin on the primary ref and
        // its twins, each on a ref of its own.
        let origins: Vec<usize> = group
            .iter()
            .copied()
            .filter(|&i| ds.twin_origin(i).is_none())
            .collect();
        assert_eq!(origins.len(), 1, "{id}: {group:?}");
        assert_eq!(ds.rows[origins[0]].ref_slot, 0, "{id}: {group:?}");
        let mut refs = HashSet::new();
        for &i in &group {
            assert!(refs.insert(ds.rows[i].ref_slot), "{id}: {group:?}");
            assert_eq!(ds.match_identity(i), origins[0], "{id}: {group:?}");
        }
    }
}

#[test]
fn a_feature_ref_has_new_twinned_and_reopened_findings() {
    // What a gate's test can count on (docs/src/demo-server.md names one
    // such ref, tests/it/demo_refs.rs checks its figures over HTTP).
    for ds in [default_set(), hundred_k()] {
        let all: Vec<usize> = (0..ds.rows.len()).collect();
        let complete = ds.catalog.repositories.iter().enumerate().any(|(k, repo)| {
            (1..=repo.other_refs.len()).any(|slot| {
                let [on_ref, new, twins, reopened] = ref_figures(
                    ds,
                    u8::try_from(k).unwrap(),
                    u8::try_from(slot).unwrap(),
                    &all,
                );
                assert_eq!(on_ref, new + twins);
                new > 0 && twins > 0 && reopened > 0
            })
        });
        assert!(complete, "{} findings", ds.rows.len());
    }
}

#[test]
fn the_days_later_bring_new_and_reopened_findings_to_feature_refs() {
    let generated = 20_000;
    let ds = Dataset::generate_moved_on(generated, crate::DEFAULT_SEED, anchor(), "1234", 14);
    let later: Vec<usize> = (generated..ds.rows.len()).collect();
    let (mut new, mut twins, mut reopened_later) = (0, 0, 0);
    for &i in later.iter().filter(|&&i| ds.rows[i].ref_slot != 0) {
        match ds.twin_origin(i) {
            Some(o) => {
                twins += 1;
                assert_eq!(ds.rows[o].ref_slot, 0);
                assert_eq!(ds.match_based_id(i), ds.match_based_id(o));
                reopened_later += usize::from(reopened(&ds, i, o));
            }
            None => new += 1,
        }
    }
    assert!(
        new > 0 && twins > 0 && reopened_later > 0,
        "{new} {twins} {reopened_later}"
    );
    // The same seed and days, the same twins.
    let again = Dataset::generate_moved_on(generated, crate::DEFAULT_SEED, anchor(), "1234", 14);
    assert_eq!(ds.twins, again.twins);
}

#[test]
fn two_builds_twin_alike() {
    let a = Dataset::generate(20_000, crate::DEFAULT_SEED, anchor(), "1234");
    let b = Dataset::generate(20_000, crate::DEFAULT_SEED, anchor(), "1234");
    assert!(!a.twins.is_empty());
    assert_eq!(a.twins, b.twins);
    let place =
        |ds: &Dataset| -> Vec<(u8, u32)> { ds.rows.iter().map(|r| (r.path, r.line)).collect() };
    assert_eq!(place(&a), place(&b));
    assert!((0..a.rows.len()).all(|i| a.match_based_id(i) == b.match_based_id(i)));
    // Another seed, other twins.
    let c = Dataset::generate(20_000, 2, anchor(), "1234");
    assert_ne!(a.twins, c.twins);
}

#[test]
fn only_the_twins_place_moves() {
    // As drawn before twins existed: every row's draws but a twin's file
    // and line, so the demo's figures stay.
    let ds = Dataset::generate(20_000, crate::DEFAULT_SEED, anchor(), "1234");
    for (i, row) in ds.rows.iter().enumerate() {
        let drawn = ds.generate_row(i);
        let facts = |r: &Row| {
            (
                r.kind,
                r.rule,
                r.repo,
                r.ref_slot,
                r.severity,
                r.confidence,
                r.status,
                r.triage,
                r.aggregate,
                r.created,
                r.transitive,
                r.blocking,
            )
        };
        assert_eq!(facts(row), facts(&drawn), "{i}");
        if ds.twin_origin(i).is_none() {
            assert_eq!((row.path, row.line), (drawn.path, drawn.line), "{i}");
        }
    }
}
