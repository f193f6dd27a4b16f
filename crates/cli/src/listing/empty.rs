//! An empty listing said on stderr: a CI gate reads "nothing matched" as
//! clean, and a code-scanning upload of an empty SARIF closes every open
//! alert of its category, so an empty answer must never pass unremarked.
//! Where the findings asked for exist but are left out because their
//! repository is archived (List issues leaves archived projects out unless
//! `includeArchived` is set), that is said too.

use findings_client::Client;
use findings_export::Format;
use findings_model::{ListIssuesFilter, ListIssuesRequest};

/// Says on stderr that `request` matched nothing, and why when it can
/// tell (one more request of one item, only when nothing matched and a
/// repository is named).
pub async fn say_empty(client: &Client, request: &ListIssuesRequest, format: Format) {
    let filter = request.filter.clone().unwrap_or_default();
    // Asked only where a repository is named: "my repository is clean"
    // is the gate an archived repository fools.
    let archived = if filter.include_archived == Some(true) || filter.repository_names.is_empty() {
        false
    } else {
        let probe = ListIssuesRequest {
            limit: Some(1),
            cursor: None,
            filter: Some(ListIssuesFilter {
                include_archived: Some(true),
                ..filter
            }),
            ..request.clone()
        };
        // Only a hint: when it cannot be had, the plain note stands.
        client
            .list_issues(&probe)
            .await
            .is_ok_and(|page| !page.issues.is_empty())
    };
    let why = if archived {
        "nothing matched: the findings these filters match are all in archived repositories, \
         which are left out (--filter includeArchived=true lists them)"
    } else {
        "nothing matched these filters"
    };
    eprintln!("findings: {why}");
    if format == Format::Sarif {
        eprintln!(
            "findings: the SARIF holds no results: uploaded to code scanning, it closes every open alert of its category"
        );
    }
}
