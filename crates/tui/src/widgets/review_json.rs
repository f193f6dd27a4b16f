//! A request's JSON body as a review shows it: arrays of strings (ids) on
//! one line, and a long one collapsed to its first ids and a count until
//! the user asks for all of them (Enter): 1,399 ids are not 1,399 lines
//! to scroll past, and the count says exactly how many are sent.

use findings_base::text::thousands_of;

/// More ids than this in one array are collapsed.
const COLLAPSE_PAST: usize = 12;
/// How many a collapsed array shows.
const SHOWN: usize = 8;

/// Pretty JSON with each array of strings on one line: `"ids": ["1", "2"]`
/// (the same JSON, read back equal).
pub fn arrays_on_one_line(pretty: &str) -> String {
    let mut out = String::with_capacity(pretty.len());
    let mut lines = pretty.lines().peekable();
    while let Some(line) = lines.next() {
        if line.trim_end().ends_with('[') {
            let mut items = Vec::new();
            while let Some(next) = lines.peek() {
                let item = next.trim();
                if item.starts_with('"') {
                    items.push(item.trim_end_matches(','));
                    lines.next();
                } else {
                    break;
                }
            }
            match lines.peek().map(|l| l.trim()) {
                Some(close) if !items.is_empty() && close.starts_with(']') => {
                    out.push_str(line.trim_end());
                    out.push_str(&items.join(", "));
                    out.push_str(close);
                    out.push('\n');
                    lines.next();
                    continue;
                }
                _ => {
                    // Not an array of strings only: as it was.
                    out.push_str(line);
                    out.push('\n');
                    for item in items {
                        out.push_str(item);
                        out.push('\n');
                    }
                    continue;
                }
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    out.pop();
    out
}

/// A line of [`arrays_on_one_line`]'s body as shown: an array of more than
/// a dozen strings as its first eight and how many more, unless
/// `expanded`. `None`: the line as it is.
pub fn collapsed(line: &str, expanded: bool) -> Option<String> {
    if expanded {
        return None;
    }
    let open = line.find(": [\"")?;
    let close = line.rfind(']')?;
    let inner = line.get(open + 3..close)?;
    let items: Vec<&str> = inner.split(", ").collect();
    if items.len() <= COLLAPSE_PAST || !items.iter().all(|i| i.starts_with('"')) {
        return None;
    }
    Some(format!(
        "{}[{}, … {} more: {} in all (Enter shows every one)]{}",
        &line[..open + 2],
        items[..SHOWN].join(", "),
        thousands_of(items.len() - SHOWN),
        thousands_of(items.len()),
        &line[close + 1..]
    ))
}

/// Whether a body has an array [`collapsed`] would shorten.
pub fn has_collapsed(body: &str) -> bool {
    body.lines().any(|l| collapsed(l, false).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_id_array_is_collapsed_with_its_count_until_expanded() {
        let ids: Vec<String> = (1..=1399).map(|i| format!("\"{i}\"")).collect();
        let line = format!("    \"ids\": [{}],", ids.join(", "));
        let shown = collapsed(&line, false).unwrap();
        assert_eq!(
            shown,
            "    \"ids\": [\"1\", \"2\", \"3\", \"4\", \"5\", \"6\", \"7\", \"8\", \
             … 1,391 more: 1,399 in all (Enter shows every one)],"
        );
        assert_eq!(collapsed(&line, true), None);
        // A short array, and a line with no array, are left as they are.
        assert_eq!(collapsed("    \"ids\": [\"1\", \"2\"]", false), None);
        assert_eq!(collapsed("  \"note\": \"a [b] c\"", false), None);
        assert!(has_collapsed(&line) && !has_collapsed("{}"));
    }

    #[test]
    fn arrays_go_on_one_line_and_read_back_equal() {
        let value = serde_json::json!({"filter": {"ids": ["1", "2", "3"]}, "n": [1, 2]});
        let pretty = serde_json::to_string_pretty(&value).unwrap();
        let one = arrays_on_one_line(&pretty);
        assert!(one.contains("\"ids\": [\"1\", \"2\", \"3\"]"), "{one}");
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&one).unwrap(),
            value
        );
    }
}
