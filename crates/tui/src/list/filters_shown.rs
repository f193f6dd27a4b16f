//! The server-side filters of the Issues list as the screen shows them:
//! `field=values` as `:filter` takes them, and as many as fit a width,
//! then `+N more`, never nothing.

use findings_model::ListSelection;
use findings_requests::filter_spec::{self, LIST_FILTER};
use unicode_width::UnicodeWidthStr;

/// The filters in force as `field=value` strings, values as typed (a
/// list's joined by commas), made safe for the terminal.
pub fn summary(selection: &ListSelection) -> Vec<String> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (field, value) in filter_spec::pairs_of(LIST_FILTER, selection) {
        match out.last_mut() {
            Some((last, values)) if *last == field => {
                values.push(',');
                values.push_str(&value);
            }
            _ => out.push((field, value)),
        }
    }
    out.into_iter()
        .map(|(k, v)| findings_base::text::one_line(&format!("{k}={v}")).into_owned())
        .collect()
}

/// As many of `items` as fit in `width` cells, then `+N more`. When not
/// even the first fits whole, it is cut (`…`); when nothing of it fits,
/// `N filters` stands for them all.
pub fn fit(items: &[String], width: usize) -> String {
    let n = items.len();
    let more = |k: usize| {
        if k < n {
            format!(" +{} more", n - k)
        } else {
            String::new()
        }
    };
    for k in (1..=n).rev() {
        let text = format!("{}{}", items[..k].join(" "), more(k));
        if text.width() <= width {
            return text;
        }
    }
    let Some(first) = items.first() else {
        return String::new();
    };
    let tail = more(1);
    // Room for a few letters of the first and the count of the others.
    if width >= tail.width() + 6 {
        let cut = findings_export::fit(first, width - tail.width());
        return format!("{}{tail}", cut.trim_end());
    }
    if n == 1 {
        "1 filter".to_owned()
    } else {
        format!("{n} filters")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use findings_model::{AggregateState, IssueType, Severity};

    #[test]
    fn the_filters_read_as_typed_and_what_does_not_fit_is_counted() {
        let mut s = ListSelection {
            issue_types: vec![IssueType::Sca],
            ..Default::default()
        };
        s.filter.severities = vec![Severity::Critical, Severity::High];
        s.filter.aggregate_issue_states = vec![AggregateState::Open];
        let all = summary(&s);
        assert_eq!(
            all,
            [
                "issueTypes=sca",
                "severities=critical,high",
                "aggregateIssueStates=open"
            ]
        );
        assert_eq!(
            fit(&all, 80),
            "issueTypes=sca severities=critical,high aggregateIssueStates=open"
        );
        assert_eq!(
            fit(&all, 50),
            "issueTypes=sca severities=critical,high +1 more"
        );
        assert_eq!(fit(&all, 24), "issueTypes=sca +2 more");
        assert_eq!(fit(&all, 16), "issueTy… +2 more");
        assert_eq!(fit(&all, 8), "3 filters");
        assert_eq!(fit(&[], 8), "");
    }
}
