//! The one JSON decoder (`findings_base::json`) on the model's pages:
//! here, where both are in reach.

use crate::list::ListIssuesResponse;
use findings_base::json::decode;
use serde_json::json;

/// Every leaf of the sample findings given a value of the wrong type,
/// and every object's fields taken away one at a time: where the typed
/// read fails, the path named is serde_path_to_error's.
#[test]
fn the_path_named_is_serde_path_to_errors() {
    let samples: serde_json::Value =
        serde_json::from_str(include_str!("../../../assets/pack-samples.json")).unwrap();
    let page = json!({ "issues": samples, "nextPageToken": "n" });
    let mut variants = Vec::new();
    fn walk(v: &serde_json::Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        match v {
            serde_json::Value::Object(m) => {
                out.push(at.clone());
                for (k, v) in m {
                    at.push(k.clone());
                    walk(v, at, out);
                    at.pop();
                }
            }
            serde_json::Value::Array(a) => {
                for (i, v) in a.iter().enumerate() {
                    at.push(i.to_string());
                    walk(v, at, out);
                    at.pop();
                }
            }
            _ => out.push(at.clone()),
        }
    }
    walk(&page, &mut Vec::new(), &mut variants);
    let mut compared = 0;
    for at in variants {
        let mut broken = page.clone();
        let target = at.iter().fold(&mut broken, |v, k| match v {
            serde_json::Value::Array(a) => &mut a[k.parse::<usize>().unwrap()],
            v => &mut v[k.as_str()],
        });
        *target = match target {
            serde_json::Value::Object(_) => json!({}),
            serde_json::Value::String(_) => json!(12345),
            _ => json!("wrong"),
        };
        for text in [
            serde_json::to_string(&broken).unwrap(),
            serde_json::to_string_pretty(&broken).unwrap(),
        ] {
            let ours = decode::<ListIssuesResponse>(text.as_bytes());
            let mut de = serde_json::Deserializer::from_str(&text);
            let theirs: Result<ListIssuesResponse, _> = serde_path_to_error::deserialize(&mut de);
            match (ours, theirs) {
                (Err(ours), Err(theirs)) => {
                    assert_eq!(ours.path, theirs.path().to_string(), "{at:?}");
                    compared += 1;
                }
                (Ok(_), Ok(_)) => {}
                (ours, theirs) => panic!("{at:?}: {:?} vs {:?}", ours.err(), theirs.err()),
            }
        }
    }
    assert!(compared > 100, "only {compared} failures compared");
}

/// Ticketing ids are written as the int32 numbers the schema types them,
/// a negative one a server echoes back included; what is no int32 stays
/// the string it is (for the server to refuse).
#[test]
fn ticket_ids_are_written_as_int32_numbers() {
    let failed = crate::TicketFailed {
        issue_ids: vec!["100595".into(), "-5".into(), "-0".into(), "abc".into()],
        error: None,
    };
    assert_eq!(
        serde_json::to_value(&failed).unwrap(),
        json!({"issueIds": [100595, -5, "-0", "abc"]})
    );
}
