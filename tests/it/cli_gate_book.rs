//! The recipes of the book's CI page (docs/src/ci.md), checked: each YAML
//! read (by the strict subset reader below: block mappings and lists,
//! plain and quoted scalars; anything else, a flow collection, a tab, a
//! repeated key, a plain scalar with `: ` or ` #` in it, is refused rather
//! than guessed), its shape checked, and its `findings` command lines run
//! against a demo server with the CI's variables set; the shell recipe
//! run as written; the walk-through's steps run in order.

use crate::cli_gate::Served;
use serde_json::Value;

const CI_PAGE: &str = include_str!("../../docs/src/ci.md");

/// The block after `<!-- ci-recipe: NAME -->` on the CI page.
fn recipe(name: &str, lang: &str) -> String {
    let marker = format!("<!-- ci-recipe: {name} -->\n```{lang}\n");
    let start = CI_PAGE
        .find(&marker)
        .unwrap_or_else(|| panic!("docs/src/ci.md has no {lang} recipe {name}"))
        + marker.len();
    let end = CI_PAGE[start..].find("```").unwrap() + start;
    CI_PAGE[start..end].to_owned()
}

#[derive(Debug, Clone, PartialEq)]
enum Yaml {
    Map(Vec<(String, Yaml)>),
    List(Vec<Yaml>),
    Str(String),
}

impl Yaml {
    fn get(&self, key: &str) -> &Yaml {
        match self {
            Yaml::Map(entries) => entries
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v)
                .unwrap_or_else(|| panic!("no key {key} in {self:?}")),
            _ => panic!("not a mapping, looking for {key}: {self:?}"),
        }
    }

    fn list(&self) -> &[Yaml] {
        match self {
            Yaml::List(items) => items,
            _ => panic!("not a list: {self:?}"),
        }
    }

    fn str(&self) -> &str {
        match self {
            Yaml::Str(s) => s,
            _ => panic!("not a scalar: {self:?}"),
        }
    }

    /// Every scalar under this node.
    fn scalars(&self) -> Vec<&str> {
        match self {
            Yaml::Str(s) => vec![s],
            Yaml::List(items) => items.iter().flat_map(Yaml::scalars).collect(),
            Yaml::Map(entries) => entries.iter().flat_map(|(_, v)| v.scalars()).collect(),
        }
    }
}

/// A line: its indentation, its text, its number.
type Line = (usize, String, usize);

fn parse_yaml(text: &str) -> Result<Yaml, String> {
    let mut lines: Vec<Line> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let content = raw.trim_start_matches(' ');
        if content.starts_with('\t') {
            return Err(format!("line {}: a tab in the indentation", n + 1));
        }
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        lines.push((
            raw.len() - content.len(),
            content.trim_end().to_owned(),
            n + 1,
        ));
    }
    let mut at = 0;
    let doc = block(&mut lines, &mut at, 0)?;
    match lines.get(at) {
        Some((_, _, n)) => Err(format!("line {n}: indentation that closes nothing")),
        None => Ok(doc),
    }
}

fn block(lines: &mut Vec<Line>, at: &mut usize, indent: usize) -> Result<Yaml, String> {
    let (first, text, n) = lines.get(*at).cloned().ok_or("an empty block")?;
    if first != indent {
        return Err(format!("line {n}: indented {first}, expected {indent}"));
    }
    if text == "-" || text.starts_with("- ") {
        list(lines, at, indent)
    } else {
        map(lines, at, indent)
    }
}

fn list(lines: &mut Vec<Line>, at: &mut usize, indent: usize) -> Result<Yaml, String> {
    let mut items = Vec::new();
    while let Some((i, text, n)) = lines.get(*at).cloned() {
        if i < indent {
            break;
        }
        if i > indent || !(text == "-" || text.starts_with("- ")) {
            return Err(format!("line {n}: expected a list item at {indent}"));
        }
        let rest = text[1..].trim_start().to_owned();
        if rest.is_empty() {
            *at += 1;
            let deeper = lines.get(*at).map_or(0, |l| l.0);
            if deeper <= indent {
                return Err(format!("line {n}: an empty list item"));
            }
            items.push(block(lines, at, deeper)?);
        } else if key_value(&rest).is_some() {
            // `- key: value`: a mapping whose first key sits after the dash.
            let inner = indent + (text.len() - rest.len());
            lines[*at] = (inner, rest, n);
            items.push(map(lines, at, inner)?);
        } else {
            items.push(scalar(&rest, n)?);
            *at += 1;
        }
    }
    Ok(Yaml::List(items))
}

/// `key: value` or `key:`: the key and what follows.
fn key_value(text: &str) -> Option<(String, String)> {
    let (key, value) = if let Some(key) = text.strip_suffix(':') {
        (key, "")
    } else {
        let (key, value) = text.split_once(": ")?;
        (key, value)
    };
    let plain_key = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c));
    plain_key.then(|| (key.to_owned(), value.trim().to_owned()))
}

fn map(lines: &mut Vec<Line>, at: &mut usize, indent: usize) -> Result<Yaml, String> {
    let mut entries: Vec<(String, Yaml)> = Vec::new();
    while let Some((i, text, n)) = lines.get(*at).cloned() {
        if i < indent {
            break;
        }
        let (key, value) = key_value(&text)
            .filter(|_| i == indent)
            .ok_or_else(|| format!("line {n}: expected `key: value` at {indent}: {text}"))?;
        if entries.iter().any(|(k, _)| *k == key) {
            return Err(format!("line {n}: the key {key} again"));
        }
        *at += 1;
        let node = if value.is_empty() {
            match lines.get(*at).cloned() {
                Some((deeper, _, _)) if deeper > indent => block(lines, at, deeper)?,
                // A list may sit at its key's own indentation.
                Some((same, t, _)) if same == indent && (t == "-" || t.starts_with("- ")) => {
                    list(lines, at, indent)?
                }
                _ => Yaml::Str(String::new()),
            }
        } else {
            scalar(&value, n)?
        };
        entries.push((key, node));
    }
    Ok(Yaml::Map(entries))
}

fn scalar(text: &str, n: usize) -> Result<Yaml, String> {
    if let Some(inner) = text.strip_prefix('"') {
        let inner = inner
            .strip_suffix('"')
            .ok_or(format!("line {n}: an unclosed quote"))?;
        if inner.contains(['"', '\\']) {
            return Err(format!("line {n}: escapes are not in the subset"));
        }
        return Ok(Yaml::Str(inner.to_owned()));
    }
    if let Some(inner) = text.strip_prefix('\'') {
        let inner = inner
            .strip_suffix('\'')
            .ok_or(format!("line {n}: an unclosed quote"))?;
        return Ok(Yaml::Str(inner.replace("''", "'")));
    }
    if text.starts_with(['{', '[', '&', '*', '!', '|', '>', '%', '@', '`', '?', ',']) {
        return Err(format!("line {n}: {text:?} is not in the subset"));
    }
    if text.contains(": ") || text.contains(" #") || text.ends_with(':') {
        return Err(format!(
            "line {n}: a plain scalar with `: ` or ` #`: {text:?}"
        ));
    }
    Ok(Yaml::Str(text.to_owned()))
}

#[test]
fn the_subset_reader_refuses_what_it_does_not_read() {
    let ok = parse_yaml("a:\n  - b: 1\n    c: x y\n  - z\nd: \"q\"\n").unwrap();
    assert_eq!(ok.get("a").list()[0].get("c").str(), "x y");
    assert_eq!(ok.get("a").list()[1].str(), "z");
    for bad in [
        "a: [1, 2]\n",
        "a: {b: 1}\n",
        "a:\n\t- b\n",
        "a: 1\na: 2\n",
        "a:\n  b: 1\n c: 2\n",
        "a: b: c\n",
        "a: x #y\n",
    ] {
        assert!(
            parse_yaml(bad).is_err(),
            "{bad:?} read as {:?}",
            parse_yaml(bad)
        );
    }
}

/// The `findings` command lines of `node`.
fn findings_lines(node: &Yaml) -> Vec<String> {
    node.scalars()
        .into_iter()
        .filter(|s| s.starts_with("findings "))
        .map(str::to_owned)
        .collect()
}

/// Runs `line` with `sh` in the served folder, `findings` on the PATH, the
/// server's settings and `vars` in the environment.
fn run_line(served: &Served, line: &str, vars: &[(&str, &str)]) -> std::process::Output {
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_findings"))
        .parent()
        .unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut sh = std::process::Command::new("sh");
    sh.arg("-c").arg(line).env("PATH", path);
    for var in crate::cli_gate::CI_VARIABLES.iter().chain(&[
        "FINDINGS_PROFILE",
        "FINDINGS_CONFIG",
        "FINDINGS_FORMAT",
        "CI",
    ]) {
        sh.env_remove(var);
    }
    sh.env("XDG_CONFIG_HOME", crate::common::empty_config_home())
        .env("XDG_STATE_HOME", served.dir.path().join(".state"))
        .envs(served.settings())
        .current_dir(served.dir.path())
        .envs(vars.iter().copied());
    sh.output().unwrap()
}

/// What the gate says alone, as JSON, for `repository` and `reference`.
fn alone(served: &Served, repository: &str, reference: &str) -> (i32, Value) {
    let out = served
        .gate(&["--repository", repository, "--ref", reference, "--json"])
        .output()
        .unwrap();
    let v = serde_json::from_slice(&out.stdout).unwrap();
    (out.status.code().unwrap(), v)
}

#[test]
fn the_github_actions_recipe_reads_and_its_gate_runs_on_the_pull_requests_branch() {
    let yaml = parse_yaml(&recipe("gate-github", "yaml")).expect("the recipe is YAML");
    assert!(matches!(yaml.get("on").get("pull_request"), Yaml::Str(_)));
    let job = yaml.get("jobs").get("gate");
    assert!(
        job.get("env")
            .get("FINDINGS_TOKEN")
            .str()
            .contains("secrets.")
    );
    let steps = job.get("steps").list();
    let lines = findings_lines(job);
    assert_eq!(lines.len(), 1, "{lines:?}");
    // Each file the gate writes is the one a later step reads.
    let line = &lines[0];
    let upload = steps
        .iter()
        .find(|s| matches!(s, Yaml::Map(e) if e.iter().any(|(k, v)| k == "uses" && v.str().contains("upload-sarif"))))
        .expect("an upload step");
    let sarif = upload.get("with").get("sarif_file").str();
    assert!(line.contains(&format!("--sarif {sarif}")), "{line}");
    assert!(line.contains("--summary gate.md"));
    let served = Served::start(2_000);
    let vars = [
        ("GITHUB_REPOSITORY", "acme/payments-api"),
        ("GITHUB_HEAD_REF", "feature/checkout-v2"),
        ("GITHUB_REF_NAME", "12/merge"),
        ("CI", "true"),
    ];
    let out = run_line(&served, line, &vars);
    let (code, verdict) = alone(&served, "acme/payments-api", "feature/checkout-v2");
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = std::fs::read_to_string(served.dir.path().join("gate.md")).unwrap();
    assert!(summary.starts_with(&format!(
        "### findings gate: {}",
        verdict["verdict"].as_str().unwrap()
    )));
    for file in ["gate.xml", "gate.sarif"] {
        assert!(served.dir.path().join(file).exists(), "{file}");
    }
}

#[test]
fn the_gitlab_recipe_reads_and_its_junit_is_the_report_the_job_keeps() {
    let yaml = parse_yaml(&recipe("gate-gitlab", "yaml")).expect("the recipe is YAML");
    let job = yaml.get("findings-gate");
    let script = job.get("script").list();
    let line = script[0].str();
    let junit = job.get("artifacts").get("reports").get("junit").str();
    assert!(line.contains(&format!("--junit {junit}")), "{line}");
    assert_eq!(job.get("artifacts").get("when").str(), "always");
    assert!(
        job.get("rules").list()[0]
            .get("if")
            .str()
            .contains("merge_request_event")
    );
    let served = Served::start(2_000);
    let vars = [
        ("CI_PROJECT_PATH", "acme/web-storefront"),
        (
            "CI_MERGE_REQUEST_SOURCE_BRANCH_NAME",
            "feature/one-click-reorder",
        ),
        ("CI_COMMIT_REF_NAME", "feature/one-click-reorder"),
        ("CI", "true"),
    ];
    let out = run_line(&served, line, &vars);
    let (code, _) = alone(&served, "acme/web-storefront", "feature/one-click-reorder");
    assert_eq!(
        out.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let xml = std::fs::read_to_string(served.dir.path().join(junit)).unwrap();
    roxmltree::Document::parse(&xml).expect("the JUnit report is XML");
}

#[test]
fn the_shell_recipe_saves_on_the_primary_branch_and_tells_a_refusal_from_an_error() {
    let script = recipe("gate-shell", "sh");
    let served = Served::start(2_000);
    let run = |branch: &str| {
        run_line(
            &served,
            &script,
            &[
                ("REPOSITORY", "acme/payments-api"),
                ("BRANCH", branch),
                ("PRIMARY_BRANCH", "main"),
                ("CI", "true"),
            ],
        )
    };
    let out = run("main");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("findings gate: passed"));
    assert!(served.dir.path().join("baseline.snap").exists());
    let out = run("feature/checkout-v2");
    let (code, _) = alone(&served, "acme/payments-api", "feature/checkout-v2");
    let said = String::from_utf8_lossy(&out.stderr);
    match code {
        0 => assert_eq!(out.status.code(), Some(0), "{said}"),
        3 => {
            assert_eq!(out.status.code(), Some(1), "{said}");
            assert!(
                said.contains("the change brings findings the policy refuses"),
                "{said}"
            );
        }
        other => panic!("the gate alone exits {other}"),
    }
    let out = run("feature/nope");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("could not decide (exit 1)"));
}

#[test]
fn the_walk_through_runs_in_order() {
    let served = Served::start(2_000);
    let page = CI_PAGE;
    let start = page.find("## A first run").unwrap();
    let end = page[start..].find("## Recipes").unwrap() + start;
    let commands: Vec<&str> = page[start..end]
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("findings gate "))
        .collect();
    assert_eq!(commands.len(), 3, "{commands:?}");
    for (k, command) in commands.iter().enumerate() {
        let out = run_line(&served, command, &[("CI", "true")]);
        let code = out.status.code().unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        // The first saves the baseline and passes; the others pass or
        // refuse, never fail to decide.
        assert!(
            if k == 0 {
                code == 0
            } else {
                code == 0 || code == 3
            },
            "{command}: {said}"
        );
        assert!(
            said.contains("gate: pass") || said.contains("gate: fail"),
            "{said}"
        );
    }
}

/// The policy the page shows is a valid policy, every key of it read.
#[test]
fn the_pages_policy_example_is_a_valid_policy() {
    let section = &CI_PAGE[CI_PAGE.find("## The policy").unwrap()..];
    let start = section.find("```toml\n").unwrap() + "```toml\n".len();
    let example = &section[start..start + section[start..].find("```").unwrap()];
    let policy = findings_config::parse_gate_policy(std::path::Path::new("gate.toml"), example)
        .unwrap_or_else(|e| panic!("{}", e.0));
    assert_eq!(policy.severities.len(), 2);
    assert!(policy.supply_chain.reachable_only);
    assert_eq!(policy.old_findings.max_days_over_target, Some(30));
    assert_eq!(policy.exempt.len(), 1);
    assert!(policy.exempt[0].expires.is_some());
    // The default the page names is the default the code has.
    assert!(CI_PAGE.contains("(default: critical, high)"));
    let default = findings_config::GatePolicy::default();
    let severities: Vec<&str> = default.severities.iter().map(|s| s.0.label()).collect();
    assert_eq!(severities, ["critical", "high"]);
}
