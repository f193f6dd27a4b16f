#!/usr/bin/env python3
"""Validates SARIF files against the official SARIF 2.1.0 JSON schema.

Not part of `cargo test` (it needs Python, `jsonschema`, and the schema from
npm). Usage:

    pip install jsonschema rfc3987        # rfc3987: checks "format": "uri"
    findings issues --all --format sarif > findings.sarif
    python3 tests/sarif/validate.py findings.sarif

The schema is `sarif-2.1.0.json` as shipped in the npm package
`@microsoft/sarif-multitool-linux` (the SARIF SDK's Multitool, which bundles
the schema it validates with). It is taken, in order, from `--schema PATH`,
`$SARIF_SCHEMA`, a cached copy in `~/.cache/findings/sarif-2.1.0.json`, or
fetched once with `npm pack` and cached.

Besides the schema, a few rules of the SARIF specification that a JSON
schema cannot express are checked: each `ruleIndex` points at the rule of
the result's `ruleId`, rule ids are unique, and regions end after they start.
Exit code 0 when every file is valid, 1 otherwise, 2 on a usage problem.
"""

import argparse
import hashlib
import json
import os
import pathlib
import subprocess
import sys
import tarfile
import tempfile

NPM_PACKAGE = "@microsoft/sarif-multitool-linux@5.7.0"
SCHEMA_IN_PACKAGE = "package/sarif-2.1.0.json"
CACHE = pathlib.Path.home() / ".cache" / "findings" / "sarif-2.1.0.json"


def fetch_schema() -> pathlib.Path:
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        out = subprocess.run(
            ["npm", "pack", NPM_PACKAGE, "--silent", "--pack-destination", tmp],
            check=True,
            capture_output=True,
            text=True,
        )
        tgz = pathlib.Path(tmp) / out.stdout.strip().splitlines()[-1]
        with tarfile.open(tgz) as tar:
            member = tar.extractfile(SCHEMA_IN_PACKAGE)
            if member is None:
                raise SystemExit(f"{SCHEMA_IN_PACKAGE} is not in {NPM_PACKAGE}")
            CACHE.write_bytes(member.read())
    return CACHE


def schema_path(arg: str | None) -> pathlib.Path:
    if arg:
        return pathlib.Path(arg)
    if os.environ.get("SARIF_SCHEMA"):
        return pathlib.Path(os.environ["SARIF_SCHEMA"])
    if CACHE.exists():
        return CACHE
    return fetch_schema()


def spec_checks(log: dict) -> list[str]:
    """SARIF rules the JSON schema cannot state."""
    problems = []
    for r, run in enumerate(log.get("runs", [])):
        rules = run.get("tool", {}).get("driver", {}).get("rules", [])
        ids = [rule.get("id") for rule in rules]
        if len(ids) != len(set(ids)):
            problems.append(f"runs[{r}]: rule ids are not unique")
        for k, res in enumerate(run.get("results", [])):
            where = f"runs[{r}].results[{k}]"
            index = res.get("ruleIndex")
            if index is not None:
                if not 0 <= index < len(rules):
                    problems.append(f"{where}: ruleIndex {index} out of range")
                elif res.get("ruleId") not in (None, rules[index].get("id")):
                    problems.append(f"{where}: ruleIndex points at another rule")
            for loc in res.get("locations", []):
                region = loc.get("physicalLocation", {}).get("region")
                if not region:
                    continue
                start, end = region.get("startLine"), region.get("endLine")
                if start is None:
                    problems.append(f"{where}: region without startLine")
                elif end is not None and end < start:
                    problems.append(f"{where}: endLine before startLine")
                sc, ec = region.get("startColumn"), region.get("endColumn")
                if (end in (None, start)) and sc is not None and ec is not None and ec < sc:
                    problems.append(f"{where}: endColumn before startColumn")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="SARIF files ('-' for stdin)")
    parser.add_argument("--schema", help="path of sarif-2.1.0.json")
    args = parser.parse_args()
    try:
        import importlib.metadata

        import jsonschema
    except ImportError:
        print("validate.py: pip install jsonschema rfc3987", file=sys.stderr)
        return 2
    path = schema_path(args.schema)
    schema_bytes = path.read_bytes()
    schema = json.loads(schema_bytes)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
    checked_formats = sorted({"uri", "uri-reference", "date-time"} & set(cls.FORMAT_CHECKER.checkers))
    print(
        f"schema: {path} (sha256 {hashlib.sha256(schema_bytes).hexdigest()[:16]}…), "
        f"validator: jsonschema {importlib.metadata.version('jsonschema')} {cls.__name__}, "
        f"formats checked: {', '.join(checked_formats) or 'none'}"
    )
    failed = False
    for name in args.files:
        text = sys.stdin.read() if name == "-" else pathlib.Path(name).read_text(encoding="utf-8")
        log = json.loads(text)
        errors = sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path))
        problems = [f"{'/'.join(map(str, e.absolute_path)) or '(root)'}: {e.message}" for e in errors]
        problems += spec_checks(log)
        runs = log.get("runs", [])
        results = sum(len(run.get("results", [])) for run in runs)
        rules = sum(len(run.get("tool", {}).get("driver", {}).get("rules", [])) for run in runs)
        if problems:
            failed = True
            print(f"INVALID {name}: {len(problems)} problem(s)")
            for p in problems[:50]:
                print(f"  {p}")
        else:
            print(f"VALID {name}: {len(runs)} run(s), {rules} rule(s), {results} result(s)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
