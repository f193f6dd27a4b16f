//! `findings gate` end to end, against a demo server in this process: the
//! repository and ref found, every check failing closed (never exit 0 on
//! what could not be read), a baseline saved and gated against, the
//! policy file checked, and the CI outputs read back (JUnit by an XML
//! parser, SARIF by the structure check the listings' SARIF passes).

use crate::common::{anchor, findings};
use findings_demo::faults::Faults;
use findings_demo::{DemoOptions, DemoServer};
use findings_model::IssueItem;
use serde_json::Value;
use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::process::Output;

/// The variables `findings gate` reads the repository and ref from.
pub(crate) const CI_VARIABLES: [&str; 11] = [
    "GITHUB_REPOSITORY",
    "GITHUB_HEAD_REF",
    "GITHUB_REF_NAME",
    "CI_PROJECT_PATH",
    "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME",
    "CI_COMMIT_REF_NAME",
    "BITBUCKET_REPO_FULL_NAME",
    "BITBUCKET_PR_SOURCE_BRANCH",
    "BITBUCKET_BRANCH",
    "BUILD_REPOSITORY_NAME",
    "BUILD_SOURCEBRANCH",
];

const REPO: &str = "acme/payments-api";

/// A demo server on a runtime of its own (the binary runs meanwhile), at
/// the tests' anchor.
pub(crate) struct Served {
    runtime: Option<tokio::runtime::Runtime>,
    server: Option<DemoServer>,
    /// The folder the binary runs in: no working copy, no policy file.
    pub dir: tempfile::TempDir,
}

impl Drop for Served {
    fn drop(&mut self) {
        let server = self.server.take();
        if let Some(rt) = self.runtime.take() {
            rt.block_on(async move { drop(server) });
            rt.shutdown_background();
        }
    }
}

impl Served {
    pub(crate) fn start(findings: usize) -> Served {
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let server = runtime
            .block_on(DemoServer::start_local(DemoOptions {
                findings,
                anchor: Some(anchor()),
                ..Default::default()
            }))
            .unwrap();
        Served {
            runtime: Some(runtime),
            server: Some(server),
            dir: tempfile::tempdir().unwrap(),
        }
    }

    fn demo(&self) -> &DemoServer {
        self.server.as_ref().unwrap()
    }

    /// `findings gate ARGS` against this server, in [`Served::dir`], with
    /// no CI variable set and the clock at the anchor.
    pub(crate) fn gate(&self, args: &[&str]) -> assert_cmd::Command {
        let mut cmd = findings();
        for var in CI_VARIABLES {
            cmd.env_remove(var);
        }
        cmd.current_dir(self.dir.path())
            .envs(self.settings())
            .arg("gate")
            .args(args);
        cmd
    }

    /// The server, token and clock, as the environment gives them.
    pub(crate) fn settings(&self) -> Vec<(&'static str, String)> {
        vec![
            ("FINDINGS_BASE_URL", self.demo().url()),
            ("FINDINGS_DEPLOYMENT", self.demo().deployment().to_owned()),
            ("FINDINGS_TOKEN", self.demo().token().to_owned()),
            ("FINDINGS_NOW", anchor().to_rfc3339()),
        ]
    }

    pub(crate) fn path(&self, name: &str) -> String {
        self.dir.path().join(name).display().to_string()
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn verdict(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("a JSON verdict: {e}; stderr: {}", stderr(out)))
}

#[test]
fn usage_errors_are_said_before_anything_is_read() {
    let served = Served::start(2_000);
    for code in ["0", "1", "2"] {
        let out = served
            .gate(&["--repository", REPO, "--ref", "main", "--exit-code", code])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains("pick another"), "{}", stderr(&out));
    }
    // Nothing names a repository: not in CI, not in a working copy.
    let out = served.gate(&[]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no repository: give --repository NAME"));
    let out = served
        .gate(&[
            "--repository",
            REPO,
            "--ref",
            "main",
            "--policy",
            "nope.toml",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--policy nope.toml: no such file"));
    assert_eq!(
        served.demo().requests(),
        0,
        "nothing was asked of the server"
    );
    // No server configured in CI: refused, as every command refuses it.
    let out = served
        .gate(&["--repository", REPO, "--ref", "main"])
        .env_remove("FINDINGS_BASE_URL")
        .env_remove("FINDINGS_TOKEN")
        .env_remove("FINDINGS_DEPLOYMENT")
        .env("CI", "true")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("no server configured and CI is set"));
}

#[test]
fn a_policy_file_is_checked_key_by_key_with_the_names_it_meant() {
    let served = Served::start(2_000);
    let root = served.dir.path();
    // A working copy whose remote and branch name the repository and ref.
    std::fs::create_dir_all(root.join(".git")).unwrap();
    std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    std::fs::write(
        root.join(".git/config"),
        "[remote \"origin\"]\n\turl = git@scm.example:acme/payments-api.git\n",
    )
    .unwrap();
    std::fs::create_dir_all(root.join(".findings")).unwrap();
    let policy = root.join(".findings/gate.toml");
    for (text, says) in [
        (
            "severites = [\"high\"]\n",
            "line 1, key severites: unknown field `severites`",
        ),
        ("severities = [\"hgh\"]\n", "did you mean high?"),
        (
            "[supply_chain]\nmin_epss = 2\n",
            "key supply_chain.min_epss",
        ),
        ("[[exempt]]\nrule = \"x\"\n", "needs a reason"),
    ] {
        std::fs::write(&policy, text).unwrap();
        let out = served.gate(&[]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{text}: {}", stderr(&out));
        let said = stderr(&out);
        assert!(
            said.contains("gate policy ") && said.contains(".findings/gate.toml"),
            "{said}"
        );
        assert!(said.contains(says), "{text}: {said}");
    }
    // A good one: the repository and ref from the working copy, said.
    std::fs::write(&policy, "severities = [\"critical\"]\n").unwrap();
    let out = served.gate(&["--json"]).output().unwrap();
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(
        said.contains("repository acme/payments-api (from the git remote's URL"),
        "{said}"
    );
    assert!(
        said.contains("ref main (from the branch checked out"),
        "{said}"
    );
    assert!(
        said.contains("policy ") && said.contains(".findings/gate.toml"),
        "{said}"
    );
    assert_eq!(verdict(&out)["verdict"], "pass");
}

#[test]
fn the_ci_variables_name_the_repository_and_the_pull_requests_branch() {
    let served = Served::start(2_000);
    let out = served
        .gate(&["--json"])
        .env("GITHUB_REPOSITORY", REPO)
        .env("GITHUB_HEAD_REF", "feature/checkout-v2")
        .env("GITHUB_REF_NAME", "7/merge")
        .output()
        .unwrap();
    let said = stderr(&out);
    let flagged = served
        .gate(&[
            "--repository",
            REPO,
            "--ref",
            "feature/checkout-v2",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), flagged.status.code(), "{said}");
    assert_eq!(verdict(&out), verdict(&flagged));
    assert!(
        said.contains("(from GITHUB_REPOSITORY (GitHub Actions))"),
        "{said}"
    );
    assert!(
        said.contains("ref feature/checkout-v2 (from GITHUB_HEAD_REF"),
        "{said}"
    );
    assert!(said.contains("policy the default"), "{said}");
    let v = verdict(&out);
    assert_eq!(
        (v["ref"].as_str(), v["against"].as_str()),
        (Some("feature/checkout-v2"), Some("main"))
    );
    let out = served
        .gate(&["--json"])
        .env("CI_PROJECT_PATH", "acme/web-storefront")
        .env("CI_COMMIT_REF_NAME", "release/2026.11")
        .output()
        .unwrap();
    assert!(matches!(out.status.code(), Some(0 | 3)), "{}", stderr(&out));
    assert!(stderr(&out).contains("ref release/2026.11 (from CI_COMMIT_REF_NAME (GitLab CI))"));
    assert!(stderr(&out).contains("(from CI_PROJECT_PATH (GitLab CI))"));
}

#[test]
fn what_cannot_be_checked_never_passes() {
    let served = Served::start(2_000);
    let run = |args: &[&str]| served.gate(args).output().unwrap();
    // A repository the deployment lacks: usage, with the name it meant.
    let out = run(&["--repository", "acme/payment-api", "--ref", "main"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("did you mean acme/payments-api?"),
        "{}",
        stderr(&out)
    );
    // A ref with no scan: an error, with the ref it meant.
    let out = run(&["--repository", REPO, "--ref", "feature/checkout"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("has no scan of such a ref; did you mean feature/checkout-v2?"));
    // An archived repository is left out of every listing: never a pass.
    let out = run(&["--repository", "acme/legacy-billing", "--ref", "master"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("acme/legacy-billing is archived"));
    // No baseline yet: said, with the command that saves one.
    let missing = served.path("main.snap");
    let out = run(&[
        "--repository",
        REPO,
        "--ref",
        "main",
        "--baseline",
        &missing,
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains(&format!("findings gate --save-baseline {missing}")));
    assert!(!stderr(&out).contains("gate: pass"));
}

#[test]
fn a_failing_names_lookup_stops_the_gate_with_exit_1() {
    let served = Served::start(2_000);
    served.demo().set_faults(Faults::failing(500));
    let out = served
        .gate(&["--repository", REPO, "--ref", "main", "--json"])
        .output()
        .unwrap();
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("the deployment's names could not be fetched"),
        "{said}"
    );
    assert!(
        !said.contains("gate: pass") && out.stdout.is_empty(),
        "{said}"
    );
}

/// Every finding of `repository` on `reference` (the items as the
/// server sends them), through `findings issues`.
fn listed(served: &Served, repository: &str, reference: &str) -> Vec<Value> {
    let mut cmd = findings();
    let out = cmd
        .envs(served.settings())
        .args(["issues", "--repo", repository, "--ref", reference, "--all"])
        .args(["--format", "ndjson"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap()["issue"].clone())
        .collect()
}

/// The feature ref the demo page names: new findings, twins of the
/// primary branch's, some reopened, some fixed on the ref.
#[test]
fn against_the_primary_branch_only_what_the_change_brings_is_refused() {
    let served = Served::start(findings_demo::DEFAULT_FINDINGS);
    let (repo, feature) = ("acme/crypto-vault", "feature/hsm-rotation");
    let on_ref = listed(&served, repo, feature);
    let on_main = listed(&served, repo, "main");
    let state = |f: &Value| f["aggregateState"].as_str().unwrap_or("").to_owned();
    let closed = |f: &Value| state(f).ends_with("_FIXED") || state(f).ends_with("_REMOVED");
    let key = |f: &Value| f["matchBasedId"].as_str().unwrap().to_owned();
    let main_by_key: BTreeMap<String, &Value> = on_main.iter().map(|f| (key(f), f)).collect();
    let handled = |f: &Value| {
        [
            "_IGNORED_APP",
            "_IGNORED_CODE",
            "_PROVISIONALLY_IGNORED_APP",
        ]
        .iter()
        .any(|s| state(f).ends_with(s))
    };
    let severe = |f: &Value| {
        matches!(
            f["severity"].as_str(),
            Some("SEVERITY_CRITICAL" | "SEVERITY_HIGH")
        )
    };
    let (mut new, mut reopened, mut fixed_here, mut refused) = (0, 0, 0, HashSet::new());
    let mut fixed_ids = HashSet::new();
    for f in &on_ref {
        if closed(f) {
            fixed_ids.insert(f["id"].as_str().unwrap().to_owned());
        }
        let twin = main_by_key.get(&key(f));
        if closed(f) {
            // Fixed or removed on the ref: the change does not bring it.
            fixed_here += 1;
            continue;
        }
        let brought = match twin {
            None => {
                new += 1;
                true
            }
            Some(t) if closed(t) => {
                reopened += 1;
                true
            }
            Some(_) => false,
        };
        if brought && severe(f) && !handled(f) {
            refused.insert(f["id"].as_str().unwrap().to_owned());
        }
    }
    // As docs/src/demo-server.md names this ref: 3 reopened; and some
    // findings are fixed on the ref.
    assert_eq!(reopened, 3);
    assert!(
        new > 0 && fixed_here > 0 && !refused.is_empty(),
        "{new} {fixed_here}"
    );

    let out = served
        .gate(&["--repository", repo, "--ref", feature, "--json"])
        .output()
        .unwrap();
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{said}");
    let v = verdict(&out);
    assert_eq!(v["against"], "main");
    assert_eq!(
        (
            v["counts"]["new"].as_u64(),
            v["counts"]["reopened"].as_u64()
        ),
        (Some(new as u64), Some(3))
    );
    let got: HashSet<String> = v["refused"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(got, refused);
    assert!(got.is_disjoint(&fixed_ids));
    let line = said
        .lines()
        .find(|l| l.starts_with("gate: fail — "))
        .unwrap();
    assert!(
        line.contains(&format!("on {feature} of {repo} against main")),
        "{line}"
    );
    // The primary branch against itself brings nothing.
    let out = served
        .gate(&["--repository", repo, "--ref", "main", "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stderr(&out).contains("main is the primary branch: nothing on it is new"));
    // --exit-code N: the same refusal, exit N.
    let out = served
        .gate(&["--repository", repo, "--ref", feature, "--exit-code", "42"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(42));
}

/// Against a baseline of main saved now, a feature ref gets the verdict it
/// gets against main itself.
#[test]
fn a_baseline_of_main_saved_now_gives_the_verdict_of_main() {
    let served = Served::start(findings_demo::DEFAULT_FINDINGS);
    let (repo, feature) = ("acme/crypto-vault", "feature/hsm-rotation");
    let out = served
        .gate(&["--repository", repo, "--ref", feature, "--json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let v = verdict(&out);
    let snap = save_main_baseline(&served, repo);
    let out = served
        .gate(&[
            "--repository",
            repo,
            "--ref",
            feature,
            "--baseline",
            &snap,
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3), "{}", stderr(&out));
    let by_baseline = verdict(&out);
    assert_eq!(by_baseline["refused"], v["refused"]);
    assert_eq!(by_baseline["counts"], v["counts"]);
}

/// The second gate: old findings of the ref past their open-age target
/// (the policy refusing nothing new, so only they can fail it).
#[test]
fn old_findings_past_their_target_fail_the_second_gate() {
    let served = Served::start(findings_demo::DEFAULT_FINDINGS);
    let (repo, feature) = ("acme/crypto-vault", "feature/hsm-rotation");
    let policy = served.path("old.toml");
    let old = |max: u32| {
        std::fs::write(
            &policy,
            format!("severities = []\n[old_findings]\nmax_days_over_target = {max}\n"),
        )
        .unwrap();
        let out = served
            .gate(&[
                "--repository",
                repo,
                "--ref",
                feature,
                "--json",
                "--policy",
                &policy,
            ])
            .output()
            .unwrap();
        (out.status.code(), verdict(&out), stderr(&out))
    };
    // What the change brings (the default policy): never counted old.
    let brought = served
        .gate(&["--repository", repo, "--ref", feature, "--json"])
        .output()
        .unwrap();
    let brought: HashSet<String> = verdict(&brought)["refused"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_owned())
        .collect();
    let (code, v, said) = old(0);
    assert_eq!(code, Some(3), "{said}");
    let overdue = v["overdue"].as_array().unwrap();
    assert!(!overdue.is_empty() && v["refused"].as_array().unwrap().is_empty());
    for o in overdue {
        assert!(o["daysOverTarget"].as_i64().unwrap() > 0, "{o}");
        assert!(
            !brought.contains(o["id"].as_str().unwrap()),
            "an old finding: {o}"
        );
    }
    assert!(said.contains(&format!(
        "{} old findings more than 0 days past target",
        overdue.len()
    )));
    let (code, v, _) = old(100_000);
    assert_eq!((code, v["overdue"].as_array().unwrap().len()), (Some(0), 0));
}

/// A baseline saved on main, then edited as if main had moved on: the
/// findings of one match id left out (so they are new since), those of
/// another fixed (so they are reopened). Returns the edited file and,
/// from the findings themselves, what the gate should count.
struct Moved {
    path: String,
    new: usize,
    reopened: usize,
    refused: usize,
    /// The rule and path of a refused new finding, for an exemption.
    exempt: (String, String),
    exempted: usize,
}

fn present(i: &findings_model::Issue) -> bool {
    !matches!(
        i.aggregate_state.as_ref().map(|s| s.label()),
        Some("fixed" | "removed")
    )
}

fn refusable(i: &findings_model::Issue) -> bool {
    let severe = matches!(
        i.severity.as_ref().map(|s| s.label()),
        Some("critical" | "high")
    );
    let handled = matches!(
        i.aggregate_state.as_ref().map(|s| s.label()),
        Some("ignored" | "ignored in code" | "provisionally ignored")
    );
    present(i) && severe && !handled
}

fn moved_on(served: &Served) -> Moved {
    let full = save_main_baseline(served, REPO);
    let mut reader =
        findings_snapshot::Reader::new(findings_snapshot::open_file(Path::new(&full)).unwrap())
            .unwrap();
    let header = reader.header().clone();
    let mut items: Vec<IssueItem> = Vec::new();
    while let Some((_, item)) = reader.next_item().unwrap() {
        items.push(item);
    }
    let mut by_key: BTreeMap<String, Vec<&findings_model::Issue>> = BTreeMap::new();
    for issue in items.iter().filter_map(|i| i.issue.as_ref()) {
        let key = issue
            .match_based_id
            .clone()
            .expect("every finding has a match id");
        by_key.entry(key).or_default().push(issue);
    }
    // Two keys each with a refusable finding: one left out, one fixed.
    let mut keys = by_key
        .iter()
        .filter(|(_, issues)| issues.iter().any(|i| refusable(i)))
        .map(|(k, _)| k.clone());
    let (gone, fixed) = (keys.next().unwrap(), keys.next().unwrap());
    let count = |key: &str, what: fn(&findings_model::Issue) -> bool| {
        by_key[key].iter().filter(|i| what(i)).count()
    };
    let first_refused = by_key[&gone].iter().find(|i| refusable(i)).unwrap();
    let exempt = (
        first_refused.rule_id.clone().unwrap(),
        first_refused.file_path.clone().unwrap(),
    );
    let exempted = by_key[&gone]
        .iter()
        .filter(|i| refusable(i))
        .filter(|i| {
            i.rule_id.as_deref() == Some(&exempt.0) && i.file_path.as_deref() == Some(&exempt.1)
        })
        .count();
    let moved = Moved {
        path: served.path("moved.snap"),
        new: count(&gone, present),
        reopened: count(&fixed, present),
        refused: count(&gone, refusable) + count(&fixed, refusable),
        exempt,
        exempted,
    };
    let file = std::fs::File::create(&moved.path).unwrap();
    let mut writer = findings_snapshot::Writer::new(file, &header).unwrap();
    for item in &items {
        let issue = item.issue.as_ref().unwrap();
        let key = issue.match_based_id.as_deref().unwrap();
        if key == gone {
            continue;
        }
        let mut json = serde_json::to_value(item).unwrap();
        if key == fixed {
            json["issue"]["aggregateState"] = "AGGREGATE_ISSUE_STATE_FIXED".into();
        }
        writer.item(json.to_string().as_bytes()).unwrap();
    }
    writer.finish().unwrap();
    moved
}

#[test]
fn against_a_baseline_what_is_new_or_reopened_since_is_refused() {
    let served = Served::start(3_000);
    let moved = moved_on(&served);
    let (summary, junit, sarif) = (
        served.path("gate.md"),
        served.path("gate.xml"),
        served.path("gate.sarif"),
    );
    let out = served
        .gate(&[
            "--repository",
            REPO,
            "--ref",
            "main",
            "--baseline",
            &moved.path,
            "--json",
            "--summary",
            &summary,
            "--junit",
            &junit,
            "--sarif",
            &sarif,
        ])
        .output()
        .unwrap();
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{said}");
    let v = verdict(&out);
    assert_eq!(v["verdict"], "fail");
    assert_eq!(v["counts"]["new"], moved.new, "{v}");
    assert_eq!(v["counts"]["reopened"], moved.reopened, "{v}");
    assert_eq!(v["counts"]["refused"], moved.refused, "{v}");
    let changes: HashSet<&str> = v["refused"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["change"].as_str().unwrap())
        .collect();
    assert_eq!(changes, HashSet::from(["new", "reopened"]));
    let refused_reopened = v["refused"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["change"] == "reopened")
        .count();
    // One verdict line, naming the ref and what it was gated against.
    let line = said.lines().find(|l| l.starts_with("gate: ")).unwrap();
    assert!(
        line.starts_with(&format!(
            "gate: fail — {} findings ({} new, {} reopened) refused",
            moved.refused,
            moved.refused - refused_reopened,
            refused_reopened
        )),
        "{line}"
    );
    assert!(
        line.contains("on main of acme/payments-api against baseline moved.snap"),
        "{line}"
    );
    assert_eq!(said.lines().filter(|l| l.starts_with("gate: ")).count(), 1);

    // The summary: the verdict, then a row (linked) per refused finding.
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.starts_with("### findings gate: fail"));
    let rows = md.lines().filter(|l| l.starts_with("| [")).count();
    assert_eq!(rows, moved.refused, "{md}");
    // JUnit, read back: a case per severity the policy fails, a failure a finding.
    let xml = std::fs::read_to_string(&junit).unwrap();
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let cases: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("testcase"))
        .collect();
    assert!(cases.len() >= 2);
    let failures = doc
        .descendants()
        .filter(|n| n.has_tag_name("failure"))
        .count();
    assert_eq!(failures, moved.refused);
    let suites = doc.root_element();
    assert!(
        suites
            .attribute("failures")
            .unwrap()
            .parse::<usize>()
            .unwrap()
            > 0
    );
    // SARIF: the refused findings, as the listings' SARIF is checked.
    let doc: Value = serde_json::from_slice(&std::fs::read(&sarif).unwrap()).unwrap();
    let results = crate::cli::check_sarif_structure(&doc);
    assert_eq!(results.len(), moved.refused);

    // The baseline is a snapshot: `snapshot show` and `diff` read it.
    let full = served.path("main.snap");
    findings()
        .args(["snapshot", "show", &full])
        .assert()
        .success();
    let diff = findings()
        .args(["diff", &moved.path, &full, "--format", "ndjson"])
        .output()
        .unwrap();
    assert!(diff.status.success(), "{}", stderr(&diff));
    assert!(String::from_utf8_lossy(&diff.stdout).contains("\"category\":\"new\""));
}

#[test]
fn a_baseline_of_another_deployment_or_repository_is_refused() {
    let served = Served::start(2_000);
    let full = save_main_baseline(&served, REPO);
    // The same findings, said to be of deployment 4711.
    let mut reader =
        findings_snapshot::Reader::new(findings_snapshot::open_file(Path::new(&full)).unwrap())
            .unwrap();
    let mut header = reader.header().clone();
    header.deployment = "4711".into();
    let other = served.path("other.snap");
    let mut writer =
        findings_snapshot::Writer::new(std::fs::File::create(&other).unwrap(), &header).unwrap();
    while let Some((_, item)) = reader.next_item().unwrap() {
        writer
            .item(serde_json::to_string(&item).unwrap().as_bytes())
            .unwrap();
    }
    writer.finish().unwrap();
    let run = |args: &[&str]| served.gate(args).output().unwrap();
    let out = run(&["--repository", REPO, "--ref", "main", "--baseline", &other]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("another deployment, where every finding would be new"));
    let storefront = ["--repository", "acme/web-storefront", "--ref", "main"];
    let out = run(&[&storefront[..], &["--baseline", &full]].concat());
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("is a baseline of acme/payments-api, not of acme/web-storefront")
    );
    // One file for both: refused before anything is read.
    let both = ["--baseline", &full, "--save-baseline", &full];
    let out = run(&[&["--repository", REPO, "--ref", "main"][..], &both].concat());
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("name the same file"));
}

#[test]
fn an_exemption_exempts_until_its_last_day_then_fails_by_name() {
    let served = Served::start(3_000);
    let moved = moved_on(&served);
    let policy = served.path("gate.toml");
    let (rule, path) = &moved.exempt;
    std::fs::write(
        &policy,
        format!(
            "[[exempt]]\nrule = {rule:?}\npath = {path:?}\nreason = \"a fix is on its way\"\n\
             expires = 2026-11-15\n"
        ),
    )
    .unwrap();
    let gate = |now: &str| {
        served
            .gate(&[
                "--repository",
                REPO,
                "--ref",
                "main",
                "--baseline",
                &moved.path,
            ])
            .args(["--policy", &policy, "--json"])
            .env("FINDINGS_NOW", now)
            .output()
            .unwrap()
    };
    // In date (the anchor is 2026-11-01): those findings are exempted.
    let out = gate("2026-11-15T23:00:00Z");
    let v = verdict(&out);
    assert_eq!(v["counts"]["exempted"], moved.exempted, "{v}");
    assert_eq!(v["counts"]["refused"], moved.refused - moved.exempted);
    assert_eq!(v["exemptions"][0]["expired"], false);
    // Past its last day: it exempts nothing, and the gate fails naming it.
    let out = gate("2026-11-16T00:30:00Z");
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(3), "{said}");
    let v = verdict(&out);
    assert_eq!(v["counts"]["exempted"], 0);
    assert_eq!(v["counts"]["refused"], moved.refused);
    assert_eq!(v["exemptions"][0]["expired"], true);
    assert!(
        said.contains(&format!(
            "exemption rule {rule} in {path} expired 2026-11-15"
        )),
        "{said}"
    );
}

#[test]
fn forty_gates_at_once_each_get_the_verdict_they_get_alone() {
    let served = Served::start(3_000);
    let moved = moved_on(&served);
    let args = [
        "--repository",
        REPO,
        "--ref",
        "main",
        "--baseline",
        &moved.path,
        "--json",
    ];
    let alone = served.gate(&args).output().unwrap();
    assert_eq!(alone.status.code(), Some(3), "{}", stderr(&alone));
    let feature = [
        "--repository",
        REPO,
        "--ref",
        "feature/checkout-v2",
        "--json",
    ];
    let feature_alone = served.gate(&feature).output().unwrap();
    std::thread::scope(|s| {
        let runs: Vec<_> = (0..40)
            .map(|k| {
                let served = &served;
                let which: &[&str] = if k % 2 == 0 { &args } else { &feature };
                s.spawn(move || (k, served.gate(which).output().unwrap()))
            })
            .collect();
        for run in runs {
            let (k, out) = run.join().unwrap();
            let expected = if k % 2 == 0 { &alone } else { &feature_alone };
            assert_eq!(
                out.status.code(),
                expected.status.code(),
                "{}",
                stderr(&out)
            );
            assert_eq!(verdict(&out), verdict(expected), "gate {k}");
        }
    });
}

/// Saves a baseline of `repo`'s main branch (the gate passes, saying it
/// saved one); its path.
fn save_main_baseline(served: &Served, repo: &str) -> String {
    let path = served.path("main.snap");
    let out = served
        .gate(&[
            "--repository",
            repo,
            "--ref",
            "main",
            "--save-baseline",
            &path,
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("saved a baseline of"),
        "{}",
        stderr(&out)
    );
    path
}
