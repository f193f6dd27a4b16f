//! Permissions first: what the token and the finding allow, checked
//! before anything is sent, refused with the reason (exit 1, nothing sent).

use crate::Failure;
use findings_base::text::one_line;
use findings_client::Client;
use findings_model::*;

/// Refuses `action` when the deployment's authorized actions leave it out.
/// When they cannot be had, says so and goes on: the server still refuses
/// what it must.
pub async fn authorized(client: &Client, action: FindingAction) -> Result<(), Failure> {
    match client.authorized_actions().await {
        Ok(answer) => match answer.refusal(action) {
            Some(why) => Err(refused(&why)),
            None => Ok(()),
        },
        Err(e) => {
            eprintln!(
                "findings: warning: the token's authorized actions cannot be had ({}); sending unchecked",
                one_line(&e.to_string())
            );
            Ok(())
        }
    }
}

/// Refuses `action` on `issue` when the finding says it cannot take it.
pub fn on_issue(issue: &Issue, action: FindingAction) -> Result<(), Failure> {
    match issue_refusal(issue, action) {
        Some(why) => Err(refused(&why)),
        None => Ok(()),
    }
}

pub fn refused(why: &str) -> Failure {
    Failure::Runtime(format!("{}; nothing was sent", one_line(why)))
}

/// Finding ids as given (`a,b` split, each once), each a number.
pub fn numeric_ids(given: &[String]) -> Result<Vec<String>, Failure> {
    let mut ids: Vec<String> = Vec::new();
    for given in given {
        for id in findings_requests::filter_spec::split_list(given) {
            if wire::numeric_id(&id).is_none() {
                return Err(Failure::Usage(format!(
                    "finding id {:?} is not a number",
                    one_line(&id)
                )));
            }
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    if ids.is_empty() && !given.is_empty() {
        return Err(Failure::Usage("an ID must not be empty".into()));
    }
    Ok(ids)
}
