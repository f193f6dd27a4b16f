//! Text the demo shows as file contents: an autofix diff moved to the
//! finding's file and lines, and a dependency as its manifest or lockfile
//! writes it.

/// Points a catalog diff at the finding: its `--- a/` and `+++ b/` headers
/// at its file, its hunks `offset` lines down (the catalog's snippet starts
/// at line 1; the finding's, `offset` lines further).
pub fn retarget_diff(diff: &str, path: &str, offset: i64) -> String {
    diff.lines()
        .map(|line| {
            if line.starts_with("--- a/") {
                format!("--- a/{path}")
            } else if line.starts_with("+++ b/") {
                format!("+++ b/{path}")
            } else if let Some(rest) = line.strip_prefix("@@ ") {
                shift_hunk(rest, offset).unwrap_or_else(|| line.to_owned())
            } else {
                line.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `-a,b +c,d @@ …` with `a` and `c` moved `offset` lines down.
fn shift_hunk(rest: &str, offset: i64) -> Option<String> {
    let (ranges, tail) = rest.split_once(" @@")?;
    let (old, new) = ranges.split_once(' ')?;
    let shift = |range: &str, sign: char| -> Option<String> {
        let range = range.strip_prefix(sign)?;
        let (start, count) = match range.split_once(',') {
            Some((s, c)) => (s, Some(c)),
            None => (range, None),
        };
        let start = start.parse::<i64>().ok()? + offset;
        Some(match count {
            Some(c) => format!("{sign}{start},{c}"),
            None => format!("{sign}{start}"),
        })
    };
    Some(format!(
        "@@ {} {} @@{tail}",
        shift(old, '-')?,
        shift(new, '+')?
    ))
}

/// How the manifest or lockfile `file` names `package` at `version`, in
/// that file's own syntax.
pub fn dependency_snippet(file: &str, package: &str, version: &str) -> String {
    let name = file.rsplit('/').next().unwrap_or(file);
    let (group, artifact) = package.split_once(':').unwrap_or(("", package));
    match name {
        "package.json" | "composer.json" => format!("\"{package}\": \"{version}\""),
        "package-lock.json" => {
            format!("\"node_modules/{package}\": {{\n  \"version\": \"{version}\",")
        }
        "composer.lock" => format!("\"name\": \"{package}\",\n\"version\": \"{version}\","),
        "packages.lock.json" => {
            format!(
                "\"{package}\": {{\n  \"type\": \"Transitive\",\n  \"resolved\": \"{version}\","
            )
        }
        "requirements.in" | "requirements.txt" => format!("{package}=={version}"),
        "pyproject.toml" | "Cargo.toml" => format!("{package} = \"{version}\""),
        "poetry.lock" | "Cargo.lock" => {
            format!("[[package]]\nname = \"{package}\"\nversion = \"{version}\"")
        }
        "pom.xml" => format!(
            "<dependency>\n  <groupId>{group}</groupId>\n  <artifactId>{artifact}</artifactId>\n  <version>{version}</version>\n</dependency>"
        ),
        "maven_dep_tree.txt" => format!("[INFO] +- {group}:{artifact}:jar:{version}:compile"),
        "build.gradle.kts" => format!("implementation(\"{package}:{version}\")"),
        "gradle.lockfile" => format!("{package}:{version}=compileClasspath,runtimeClasspath"),
        "go.mod" => format!("require {package} {version}"),
        "go.sum" => format!("{package} {version}/go.mod"),
        "Gemfile" => format!("gem \"{package}\", \"{version}\""),
        "Gemfile.lock" => format!("    {package} ({version})"),
        _ if name.ends_with(".csproj") => {
            format!("<PackageReference Include=\"{package}\" Version=\"{version}\" />")
        }
        _ => format!("{package} {version}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_moves_to_the_finding_file_and_lines() {
        let diff = "--- a/x.py\n+++ b/x.py\n@@ -1,4 +1,5 @@ def f():\n a\n-b\n+c\n@@ -9 +10 @@\n d";
        assert_eq!(
            retarget_diff(diff, "src/y.py", 13),
            "--- a/src/y.py\n+++ b/src/y.py\n@@ -14,4 +14,5 @@ def f():\n a\n-b\n+c\n@@ -22 +23 @@\n d"
        );
        // What is not a hunk header is left as it is.
        assert_eq!(retarget_diff("@@ nonsense", "p", 3), "@@ nonsense");
    }

    #[test]
    fn a_dependency_is_written_in_its_file_syntax() {
        let pom = dependency_snippet("pom.xml", "org.yaml:snakeyaml", "1.33");
        assert!(
            pom.starts_with("<dependency>") && pom.contains("<artifactId>snakeyaml</artifactId>")
        );
        assert_eq!(
            dependency_snippet("package.json", "axios", "1.5.1"),
            "\"axios\": \"1.5.1\""
        );
        assert_eq!(
            dependency_snippet("requirements.txt", "pyyaml", "5.3.1"),
            "pyyaml==5.3.1"
        );
        assert_eq!(
            dependency_snippet("Gemfile.lock", "rack", "2.2.8"),
            "    rack (2.2.8)"
        );
        assert_eq!(
            dependency_snippet("src/A/A.csproj", "SharpZipLib", "1.3.2"),
            "<PackageReference Include=\"SharpZipLib\" Version=\"1.3.2\" />"
        );
    }
}
