//! Filter fields that narrow the findings of one type only. The published
//! text scopes them ("Only applies when the provided issue_type is SCA"),
//! so a finding of another type passes them: `cves=CVE-2021-44228` alone
//! lists every code and secrets finding beside the advisory's. Given
//! without a type, such a field adds its type (as `--cve` always did);
//! given with types of which some it does not narrow, it says that those
//! pass it; given with none of its types, it is refused (it would narrow
//! nothing). The headless filters and the TUI's `:filter` and form alike.

use super::{LIST_FILTER, UsageError, enum_value, kind_of};
use findings_model::IssueType;

/// A List issues field that narrows the findings of `types` only.
#[derive(Debug, Clone, Copy)]
pub struct OneType {
    pub field: &'static str,
    pub types: &'static [IssueType],
}

const SCA: &[IssueType] = &[IssueType::Sca];
const SECRETS: &[IssueType] = &[IssueType::Secrets];
/// Code findings are the SAST type, AI code's too (the demo reads it so).
const CODE: &[IssueType] = &[IssueType::Sast, IssueType::AiSast];
const CODE_OR_SCA: &[IssueType] = &[IssueType::Sast, IssueType::AiSast, IssueType::Sca];

const fn only(field: &'static str, types: &'static [IssueType]) -> OneType {
    OneType { field, types }
}

/// Every field of the published `IssuesFilter` whose description scopes it
/// to some issue types.
pub const LIST_ONE_TYPE: &[OneType] = &[
    only("cves", SCA),
    only("advisoryIds", SCA),
    only("dependencies", SCA),
    only("reachabilities", SCA),
    only("transitivities", SCA),
    only("exposures", SCA),
    only("epssProbabilities", SCA),
    only("scaRuleKind", SCA),
    only("upgradeGuidance", SCA),
    only("upgradeGuidanceFilters", SCA),
    only("secretTypes", SECRETS),
    only("validationStates", SECRETS),
    only("repoVisibilities", SECRETS),
    only("excludeHistorical", SECRETS),
    only("actions", CODE),
    only("policySlugs", CODE),
    only("rules", CODE),
    only("rulesets", CODE),
    only("categories", CODE),
    only("confidences", CODE),
    only("source", CODE),
    only("backlogType", CODE),
    only("aiMemoryReferenced", CODE),
    only("includeAiMemoryRendered", CODE),
    only("aiMemoryRendered", CODE),
    only("memoryIdInScope", CODE),
    only("clickToFixPrStates", CODE_OR_SCA),
];

/// What the two reachability fields mean, said when one is used (the
/// same word, REACHABLE, counts differently in each): `None` without them.
pub fn reachability_note(pairs: &[(String, String)]) -> Option<String> {
    let has = |field: &str| pairs.iter().any(|(k, _)| k == field);
    match (has("exposures"), has("reachabilities")) {
        (false, false) => None,
        (true, _) => Some(
            "exposures is reachability in three words: REACHABLE is reachable at all (reachable, \
             always or conditionally), UNREACHABLE, UNKNOWN_EXPOSURE; reachabilities names each kind"
                .into(),
        ),
        (false, true) => Some(
            "reachabilities names each kind: REACHABLE alone leaves out ALWAYS_REACHABLE and \
             CONDITIONALLY_REACHABLE; exposures=REACHABLE is reachable at all"
                .into(),
        ),
    }
}

/// The types as typed, `code, ai-code`.
fn named(types: &[IssueType]) -> String {
    let names: Vec<&str> = types.iter().map(IssueType::label).collect();
    names.join(", ")
}

/// The type selection of `pairs` made to fit their one-type fields: the
/// fields' types added when no type is chosen; refused when a field's
/// types are none of those chosen. What a person should know is returned
/// to be said: the types added, or the types chosen that pass a field.
pub fn scope_types(pairs: &mut Vec<(String, String)>) -> Result<Option<String>, UsageError> {
    let given: Vec<&OneType> = LIST_ONE_TYPE
        .iter()
        .filter(|t| pairs.iter().any(|(k, _)| k == t.field))
        .collect();
    if given.is_empty() {
        return Ok(None);
    }
    let chosen = chosen_types(pairs);
    if chosen.is_empty() {
        let mut added: Vec<IssueType> = Vec::new();
        for t in &given {
            for ty in t.types {
                if !added.contains(ty) {
                    added.push(ty.clone());
                }
            }
        }
        let fields: Vec<String> = given
            .iter()
            .map(|t| format!("{} narrows {} findings only", t.field, named(t.types)))
            .collect();
        pairs.extend(
            added
                .iter()
                .map(|ty| ("issueTypes".to_owned(), ty.as_wire().to_owned())),
        );
        let (s, is) = if added.len() == 1 {
            ("", "is")
        } else {
            ("s", "are")
        };
        return Ok(Some(format!(
            "{}: the type{s} {} {is} added (findings of other types would pass it)",
            fields.join(", "),
            named(&added)
        )));
    }
    let mut said = Vec::new();
    for t in given {
        let passing: Vec<IssueType> = chosen
            .iter()
            .filter(|ty| !t.types.contains(ty))
            .cloned()
            .collect();
        if passing.len() == chosen.len() {
            return Err(UsageError(format!(
                "{} narrows {} findings only, and the types asked for are {}: it would narrow \
                 nothing; add its type or drop the field",
                t.field,
                named(t.types),
                named(&chosen)
            )));
        }
        if !passing.is_empty() {
            said.push(format!(
                "{} narrows {} findings only: the {} findings asked for pass it",
                t.field,
                named(t.types),
                named(&passing)
            ));
        }
    }
    Ok((!said.is_empty()).then(|| said.join("; ")))
}

/// The issue types `pairs` choose (`*_UNSPECIFIED` and unknown values
/// chose none).
fn chosen_types(pairs: &[(String, String)]) -> Vec<IssueType> {
    let Some(super::FieldKind::Enums(names)) = kind_of(LIST_FILTER, "issueTypes") else {
        return Vec::new();
    };
    let names = names();
    let mut chosen: Vec<IssueType> = Vec::new();
    for (_, value) in pairs.iter().filter(|(k, _)| k == "issueTypes") {
        if let Some(wire) = enum_value(&names, value) {
            let ty = IssueType::from_wire(wire);
            if ty.is_known() && ty != IssueType::Unspecified && !chosen.contains(&ty) {
                chosen.push(ty);
            }
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    }

    /// Either reachability field used says what its words count.
    #[test]
    fn the_reachability_fields_say_what_reachable_counts() {
        let pair = |k: &str| vec![(k.to_owned(), "REACHABLE".to_owned())];
        assert_eq!(reachability_note(&pair("severities")), None);
        let exposures = reachability_note(&pair("exposures")).unwrap();
        assert!(exposures.contains("reachable at all"), "{exposures}");
        let kinds = reachability_note(&pair("reachabilities")).unwrap();
        assert!(kinds.contains("leaves out ALWAYS_REACHABLE"), "{kinds}");
    }

    #[test]
    fn a_one_type_field_without_a_type_adds_its_type_and_says_so() {
        let mut p = pairs(&[("cves", "CVE-2021-44228")]);
        let said = scope_types(&mut p).unwrap().unwrap();
        assert_eq!(
            said,
            "cves narrows sca findings only: the type sca is added (findings of other types would pass it)"
        );
        assert!(p.contains(&("issueTypes".into(), "ISSUE_TYPE_SCA".into())));
        // Fields of two types: both types.
        let mut p = pairs(&[("secretTypes", "AWS"), ("reachabilities", "reachable")]);
        let said = scope_types(&mut p).unwrap().unwrap();
        assert!(said.contains("the types sca, secrets are added"), "{said}");
        let mut p = pairs(&[("confidences", "high")]);
        scope_types(&mut p).unwrap();
        let types: Vec<&str> = p
            .iter()
            .filter(|(k, _)| k == "issueTypes")
            .map(|(_, v)| v.as_str())
            .collect();
        assert_eq!(types, ["ISSUE_TYPE_SAST", "ISSUE_TYPE_AI_SAST"]);
    }

    #[test]
    fn types_it_does_not_narrow_are_said_and_none_of_its_types_is_refused() {
        let mut p = pairs(&[("cves", "CVE-1"), ("issueTypes", "sca")]);
        assert_eq!(scope_types(&mut p), Ok(None));
        assert_eq!(p.len(), 2, "nothing added");
        let mut p = pairs(&[
            ("cves", "CVE-1"),
            ("issueTypes", "ISSUE_TYPE_SCA"),
            ("issueTypes", "code"),
        ]);
        let said = scope_types(&mut p).unwrap().unwrap();
        assert_eq!(
            said,
            "cves narrows sca findings only: the code findings asked for pass it"
        );
        let mut p = pairs(&[("cves", "CVE-1"), ("issueTypes", "code")]);
        let e = scope_types(&mut p).unwrap_err();
        assert!(
            e.0.starts_with(
                "cves narrows sca findings only, and the types asked for are code: it would narrow nothing"
            ),
            "{e}"
        );
        // A field of every type changes nothing.
        let mut p = pairs(&[("repositoryNames", "acme/web")]);
        assert_eq!(scope_types(&mut p), Ok(None));
        assert_eq!(p.len(), 1);
    }

    #[test]
    fn every_one_type_field_is_a_list_issues_field() {
        for t in LIST_ONE_TYPE {
            assert!(kind_of(LIST_FILTER, t.field).is_some(), "{}", t.field);
        }
    }
}
