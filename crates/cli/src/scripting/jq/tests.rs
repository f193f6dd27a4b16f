use super::*;

fn start(code: &str) -> Result<Jq, String> {
    Jq::start(code, crate::scripting::shape::FINDING, None)
}

/// The results (as JSON) of `code` over `input`, run as a command runs
/// it: on the expression's thread.
fn outputs(code: &str, input: &str) -> Result<Vec<String>, String> {
    outputs_on(start(code)?, input)
}

fn outputs_on(jq: Jq, input: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    jq.run(
        input.as_bytes().to_vec(),
        || false,
        |v| {
            out.push(String::from_utf8(v.json).unwrap());
            Ok(())
        },
    )
    .map_err(|(e, _)| match e {
        RunError::Jq(m) => m,
        RunError::Io(e) => e.to_string(),
        RunError::Interrupted => "interrupted".into(),
    })?;
    Ok(out)
}

#[test]
fn the_standard_library_is_there() {
    let item = r#"{"id":"7","severity":"SEVERITY_HIGH","filePath":"src/app.py","line":3,"createdAt":"2026-01-02T03:04:05Z"}"#;
    for (code, want) in [
        (".id", vec![r#""7""#]),
        ("select(.severity == \"SEVERITY_HIGH\") | .line", vec!["3"]),
        ("select(.severity == \"SEVERITY_LOW\")", vec![]),
        (
            "[.filePath | test(\"^src/\"), ascii_upcase]",
            vec![r#"[true,"SRC/APP.PY"]"#],
        ),
        (
            ".filePath | sub(\"\\\\.py$\"; \".rs\")",
            vec![r#""src/app.rs""#],
        ),
        (".createdAt | fromdateiso8601", vec!["1767323045"]),
        ("\"\\(.id):\\(.line)\" | @base64", vec![r#""Nzoz""#]),
        ("keys | length", vec!["5"]),
        (
            "[.line, 4] | map(. * 2) | add | sqrt",
            vec!["3.7416573867739413"],
        ),
        ("tojson | fromjson | .id", vec![r#""7""#]),
    ] {
        assert_eq!(outputs(code, item).unwrap(), want, "{code}");
    }
}

#[test]
fn a_bad_expression_says_what_and_where() {
    let e = start(".[").unwrap_err();
    assert_eq!(
        e,
        "expected closing bracket, found end of input at column 3"
    );
    let e = start(".a | | .b").unwrap_err();
    assert!(
        e.starts_with("expected term, found \"|\" at column 6"),
        "{e}"
    );
    let e = start(".a | nosuchfilter(1)").unwrap_err();
    assert_eq!(e, "undefined filter nosuchfilter/1 at column 6");
    let e = start("$nope").unwrap_err();
    assert!(e.contains("undefined variable"), "{e}");
    let e = start("include \"x\"; .").unwrap_err();
    assert!(e.contains("module loading not supported"), "{e}");
    // No input beyond the item.
    assert!(start("input").is_err());
}

#[test]
fn a_failing_run_says_why_and_halt_does_not_end_the_process() {
    assert_eq!(
        outputs("error(\"no \\(.id)\")", r#"{"id":"7"}"#).unwrap_err(),
        "no 7"
    );
    let e = outputs(".id | .x", r#"{"id":"7"}"#).unwrap_err();
    assert!(e.contains("cannot index"), "{e}");
    assert_eq!(outputs("halt", "{}").unwrap_err(), "halt with exit code 0");
    // Results before the error were given.
    let jq = start("1, error(\"x\")").unwrap();
    let mut seen = 0;
    assert!(
        jq.run(
            b"null".to_vec(),
            || false,
            |_| {
                seen += 1;
                Ok(())
            }
        )
        .is_err()
    );
    assert_eq!(seen, 1);
}

/// A deep recursion, or a value too deep to parse, is an error the
/// run returns, never a stack overflow (which aborts the process).
#[test]
fn deep_recursion_and_deep_values_are_errors_never_an_abort() {
    // On a stack of 32 MB rather than 256: the same checks, used up an
    // eighth as deep (the closure's recursion took 13 s at 256).
    let small = |code: &str| {
        let jq = Jq::start_with_stack(code, crate::scripting::shape::FINDING, None, 32 << 20);
        outputs_on(jq?, "{}")
    };
    for code in ["def f: f; f", "def f: 1 + f; f", "def f(g): g | f(g); f(.)"] {
        let e = small(code).unwrap_err();
        assert!(e.contains("recursion too deep"), "{code}: {e}");
    }
    // Caught by try, as any error: the run goes on.
    assert_eq!(
        outputs("def f: 1 + f; try f catch \"deep\"", "{}").unwrap(),
        [r#""deep""#]
    );
    let deep = format!("{}{}", "[".repeat(200_000), "]".repeat(200_000));
    let item = serde_json::json!({ "message": deep }).to_string();
    let e = outputs(".message | fromjson", &item).unwrap_err();
    assert!(e.contains("deeper than 10000"), "{e}");
    assert_eq!(
        outputs(".message | try fromjson catch \"no\"", &item).unwrap(),
        [r#""no""#]
    );
    // A value the expression builds deeper is not written, by tojson
    // or as a result.
    for code in [
        "reduce range(100000) as $i (null; [.]) | tojson",
        "reduce range(100000) as $i (null; {a: .})",
    ] {
        let e = outputs(code, "{}").unwrap_err();
        assert!(e.contains("deeper than 10000"), "{code}: {e}");
    }
    // Within the limit, fromjson parses as before; a recursion that
    // ends is no error.
    let fine = format!("{}1{}", "[".repeat(1000), "]".repeat(1000));
    let item = serde_json::json!({ "message": fine }).to_string();
    assert_eq!(
        outputs("[.message | fromjson | .. | numbers]", &item).unwrap(),
        ["[1]"]
    );
    assert_eq!(
        outputs("def f: if . < 100 then . + 1 | f else . end; 0 | f", "{}").unwrap(),
        ["100"]
    );
    // A definition still works in path expressions and updates.
    assert_eq!(
        outputs("def a: .a; {a: 1} | a |= . + 1 | [path(a)], .", "{}").unwrap(),
        [r#"[["a"]]"#, r#"{"a":2}"#]
    );
}

/// `env` and `$ENV` are jq's (one object, the same), what they
/// withhold said in [`super::super::env`].
#[test]
fn env_and_dollar_env_are_the_environment() {
    assert_eq!(
        outputs("[env, $ENV | type], (env == $ENV)", "{}").unwrap(),
        [r#"["object","object"]"#, "true"]
    );
}

/// jq 1.7's formats, as its manual shows them; as format strings too.
#[test]
fn jqs_formats_are_there_as_jq_words_them() {
    for (code, input, want) in [
        (
            "@csv",
            r#"[1,"one","a\"b",true,null,1.5]"#,
            r#""1,\"one\",\"a\"\"b\",true,,1.5""#,
        ),
        (
            "@tsv",
            r#"["a\tb","c\nd\re\\",null,2,false]"#,
            r#""a\\tb\tc\\nd\\re\\\\\t\t2\tfalse""#,
        ),
        (
            "@sh \"echo \\(.)\"",
            r#""O'Hara's Ale""#,
            r#""echo 'O'\\''Hara'\\''s Ale'""#,
        ),
        ("@sh", r#"["a b",1,null]"#, r#""'a b' 1 null""#),
        ("@json", r#"[1,"x"]"#, r#""[1,\"x\"]""#),
        ("@text", "[1]", r#""[1]""#),
        (
            "@html",
            r#""<a href='x'>&\"</a>""#,
            r#""&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;""#,
        ),
        ("@uri", r#""ö a-_.~/""#, r#""%C3%B6%20a-_.~%2F""#),
        (
            "@base64",
            r#""This is a message""#,
            r#""VGhpcyBpcyBhIG1lc3NhZ2U=""#,
        ),
        (
            "@base64d",
            r#""VGhpcyBpcyBhIG1lc3NhZ2U=""#,
            r#""This is a message""#,
        ),
        ("@csv \"row: \\(.)\"", r#"[1,"a"]"#, r#""row: 1,\"a\"""#),
    ] {
        assert_eq!(outputs(code, input).unwrap(), [want], "{code} of {input}");
    }
    for (code, input, want) in [
        (
            "@csv",
            r#"[1,"one",[1]]"#,
            "array ([1]) is not valid in a csv row",
        ),
        (
            "@csv",
            r#"[{"a":1}]"#,
            r#"object ({"a":1}) is not valid in a csv row"#,
        ),
        (
            "@csv",
            r#""x""#,
            r#"string ("x") cannot be csv-formatted, only an array can be"#,
        ),
        ("@tsv", "[[]]", "array ([]) is not valid in a tsv row"),
        (
            "@sh",
            r#"{"a":1}"#,
            r#"object ({"a":1}) can not be escaped for shell"#,
        ),
        ("@sh", "[[1]]", "array ([1]) can not be escaped for shell"),
    ] {
        assert_eq!(outputs(code, input).unwrap_err(), want, "{code} of {input}");
    }
}
