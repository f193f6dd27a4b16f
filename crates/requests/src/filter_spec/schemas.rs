//! The schemas: each operation's filter fields, by exact spec name.

use super::Field;
use super::FieldKind::{self, *};
use findings_model::*;

const fn f(name: &'static str, kind: FieldKind) -> Field {
    Field { name, kind }
}

/// The vocabulary of an enum: its values but `*_UNSPECIFIED` (which does not
/// filter) and those named after `except`.
macro_rules! vocab {
    ($t:ty $(, except $($skip:expr),+)?) => {{
        fn names() -> Vec<(&'static str, &'static str)> {
            let skip: &[$t] = &[$($($skip),+)?];
            <$t>::ALL
                .iter()
                .filter(|v| !v.as_wire().ends_with("_UNSPECIFIED") && !skip.contains(v))
                .map(|v| (v.as_wire(), v.label()))
                .collect()
        }
        names
    }};
}

/// List issues: the top-level type selection (`ListIssuesRequest.issueTypes`)
/// and every field of the published `IssuesFilter` but the frontend-only
/// `filterIssueTypes`; the most used first, then in published order. Builds
/// a [`ListSelection`].
pub const LIST_FILTER: &[Field] = &[
    f("issueTypes", Enums(vocab!(IssueType))),
    f("severities", Enums(vocab!(Severity, except Severity::Info))),
    f("aggregateIssueStates", Enums(vocab!(AggregateState))),
    f("repositoryNames", Strings),
    f("ids", Strings),
    f("since", Time),
    f("until", Time),
    f("repositoryIds", Strings),
    f("repositoryTags", Strings),
    f("refs", Strings),
    f("repositoryRefIds", Strings),
    f("aiVerdicts", Enums(vocab!(Verdict))),
    f("aiSensitivities", Enums(vocab!(Sensitivity))),
    f("status", Enums(vocab!(IssueStatus))),
    f("tab", Enum(vocab!(IssueTab))),
    f("teamNames", Strings),
    f("actions", Enums(vocab!(ActionMode))),
    f("policySlugs", Strings),
    f("rules", Strings),
    f("ruleIds", Strings),
    f("rulesets", Strings),
    f("categories", Strings),
    f("confidences", Enums(vocab!(Confidence))),
    f("transitivities", Enums(vocab!(Transitivity))),
    f("exposures", Enums(vocab!(Exposure))),
    f("dependencies", Strings),
    f("cves", Strings),
    f("source", Enums(vocab!(RuleSource))),
    f("reachabilities", Enums(vocab!(Reachability))),
    f("issueParentIds", Strings),
    f("validationStates", Enums(vocab!(ValidationState))),
    f("secretTypes", Strings),
    f("repoVisibilities", Enums(vocab!(RepoVisibility))),
    f("excludeHistorical", Bool),
    f("onPrimaryBranch", Bool),
    f("epssProbabilities", Enums(vocab!(EpssProbability))),
    f("triageReasons", Enums(vocab!(TriageReason))),
    f("timeFilter", Enum(vocab!(TimeFilter))),
    f("includeTicketed", Bool),
    f("backlogType", Enum(vocab!(BacklogType))),
    f("scaRuleKind", Enums(vocab!(ScaRuleKind))),
    f("aiMemoryWillFlipVerdict", Text),
    f("aiMemoryReferenced", Text),
    f("includeAiMemoryRendered", Bool),
    f("aiMemoryRendered", Text),
    f("memoryIdInScope", Text),
    f("relativeSince", Enum(vocab!(RelativeSince))),
    f(
        "repositoryDeploymentStatuses",
        Enums(vocab!(DeploymentStatus)),
    ),
    f("upgradeGuidance", Enums(vocab!(BreakingChangeType))),
    f("repositoryPublicExposures", Enums(vocab!(PublicExposure))),
    f("clickToFixPrStates", Enums(vocab!(ClickToFixPrState))),
    f("advisoryIds", Strings),
    f(
        "upgradeGuidanceFilters",
        Enums(vocab!(UpgradeGuidanceSelection)),
    ),
    f("filePaths", Strings),
    f("includeArchived", Bool),
    f("hasInFlightAutofixPr", Bool),
];

pub const REPORT_FILTERS: &[Field] = &[
    f("timePeriod.since", Time),
    f("timePeriod.until", Time),
    f("timeBucketSize", Enum(vocab!(TimeBucketSize))),
    f("findingTypes", Enums(vocab!(FindingType))),
    f("findingSeverities", Enums(vocab!(FindingSeverity))),
    f("projects", Strings),
    f("tags", Strings),
    f("confidence", Enums(vocab!(FindingConfidence))),
    f("reachability", Enums(vocab!(FindingReachability))),
    f("validity", Enums(vocab!(FindingValidity))),
    f("teams", Strings),
    f("ruleIds", Strings),
    f("aiVerdicts", Enums(vocab!(Verdict))),
    f("deploymentStatuses", Enums(vocab!(DeploymentStatus))),
    f("publicExposures", Enums(vocab!(PublicExposure))),
    f("findingCategories", Strings),
    f("projectIds", Strings),
];

/// Every field of the published `IssueFilters`.
pub const SEARCH_FILTERS: &[Field] = &[
    f("ids", Strings),
    f("titleQuery", Text),
    f("descriptionQuery", Text),
    f("reasoningQuery", Text),
    f("detectionStates", Enums(vocab!(DetectionState))),
    f("severities", Enums(vocab!(Severity))),
    f("triageStates", Enums(vocab!(AgenticTriageState))),
    f("triageReasons", Enums(vocab!(AgenticTriageReason))),
    f("actions", Strings),
    f("workflowIds", Strings),
    f("identities", Strings),
    f("triggerSources", Strings),
    f("projectIds", Strings),
    f("refIds", Strings),
    f("filePathQuery", Text),
    f("createdAt.startAt", Time),
    f("createdAt.endAt", Time),
    f("lastDetectedAt.startAt", Time),
    f("lastDetectedAt.endAt", Time),
    f("triagedAt.startAt", Time),
    f("triagedAt.endAt", Time),
    f("workflowJobIds", Strings),
];
