//! Every enumeration of the contract (and of docs/src/api.md for the agentic
//! resource), as open enums: unknown values are kept, never rejected.

use crate::wire_enum;

wire_enum! {
    /// Severity of a finding. Ordered by `rank` (CRITICAL first), not by name.
    Severity {
        Critical = "SEVERITY_CRITICAL" => "critical",
        High = "SEVERITY_HIGH" => "high",
        Medium = "SEVERITY_MEDIUM" => "medium",
        Low = "SEVERITY_LOW" => "low",
        Info = "SEVERITY_INFO" => "info",
    }
}

impl Severity {
    /// 0 for the most severe; unknown values rank after INFO (docs/src/api.md §10).
    pub fn rank(&self) -> u8 {
        match self {
            Severity::Critical => 0,
            Severity::High => 1,
            Severity::Medium => 2,
            Severity::Low => 3,
            Severity::Info => 4,
            Severity::Other(_) => 5,
        }
    }
}

wire_enum! {
    Confidence {
        High = "CONFIDENCE_HIGH" => "high",
        Medium = "CONFIDENCE_MEDIUM" => "medium",
        Low = "CONFIDENCE_LOW" => "low",
    }
}

wire_enum! {
    IssueStatus {
        Unresolved = "ISSUE_STATUS_UNRESOLVED" => "unresolved",
        Fixed = "ISSUE_STATUS_FIXED" => "fixed",
        Muted = "ISSUE_STATUS_MUTED" => "muted",
        Removed = "ISSUE_STATUS_REMOVED" => "removed",
    }
}

wire_enum! {
    /// Source-control host kind, vendor-neutral as in the contract.
    ScmType {
        HostA = "SCM_TYPE_HOST_A" => "host-a",
        HostAEnterprise = "SCM_TYPE_HOST_A_ENTERPRISE" => "host-a-enterprise",
        HostB = "SCM_TYPE_HOST_B" => "host-b",
        HostBSelfManaged = "SCM_TYPE_HOST_B_SELFMANAGED" => "host-b-self-managed",
        HostC = "SCM_TYPE_HOST_C" => "host-c",
        HostCDatacenter = "SCM_TYPE_HOST_C_DATACENTER" => "host-c-datacenter",
        HostD = "SCM_TYPE_HOST_D" => "host-d",
        HostE = "SCM_TYPE_HOST_E" => "host-e",
        Unknown = "SCM_TYPE_UNKNOWN" => "unknown",
    }
}

wire_enum! {
    TriageState {
        Untriaged = "FINDING_TRIAGE_STATE_UNTRIAGED" => "untriaged",
        Ignored = "FINDING_TRIAGE_STATE_IGNORED" => "ignored",
        Reopened = "FINDING_TRIAGE_STATE_REOPENED" => "reopened",
        Reviewing = "FINDING_TRIAGE_STATE_REVIEWING" => "reviewing",
        Fixing = "FINDING_TRIAGE_STATE_FIXING" => "fixing",
        ProvisionallyIgnored = "FINDING_TRIAGE_STATE_PROVISIONALLY_IGNORED" => "provisionally ignored",
        Unknown = "FINDING_TRIAGE_STATE_UNKNOWN" => "unknown",
    }
}

wire_enum! {
    TriageReason {
        FalsePositive = "FINDING_TRIAGE_REASON_FALSE_POSITIVE" => "false positive",
        AcceptableRisk = "FINDING_TRIAGE_REASON_ACCEPTABLE_RISK" => "acceptable risk",
        NoTime = "FINDING_TRIAGE_REASON_NO_TIME" => "no time",
        Duplicate = "FINDING_TRIAGE_REASON_DUPLICATE" => "duplicate",
        NoTriageReason = "FINDING_TRIAGE_REASON_NO_TRIAGE_REASON" => "no reason",
        Unknown = "FINDING_TRIAGE_REASON_UNKNOWN" => "unknown",
    }
}

wire_enum! {
    /// Overall state of a finding (scan status, triage and external events).
    AggregateState {
        Open = "AGGREGATE_ISSUE_STATE_OPEN" => "open",
        Reviewing = "AGGREGATE_ISSUE_STATE_REVIEWING" => "reviewing",
        Fixing = "AGGREGATE_ISSUE_STATE_FIXING" => "fixing",
        Fixed = "AGGREGATE_ISSUE_STATE_FIXED" => "fixed",
        Removed = "AGGREGATE_ISSUE_STATE_REMOVED" => "removed",
        IgnoredApp = "AGGREGATE_ISSUE_STATE_IGNORED_APP" => "ignored",
        IgnoredCode = "AGGREGATE_ISSUE_STATE_IGNORED_CODE" => "ignored in code",
        ProvisionallyIgnoredApp = "AGGREGATE_ISSUE_STATE_PROVISIONALLY_IGNORED_APP" => "provisionally ignored",
        Unknown = "AGGREGATE_ISSUE_STATE_UNKNOWN" => "unknown",
    }
}

impl AggregateState {
    /// The states a finding is open in: what ages against its open-age
    /// target and what the open backlog counts.
    pub const OPEN: [AggregateState; 3] = [
        AggregateState::Open,
        AggregateState::Reviewing,
        AggregateState::Fixing,
    ];

    pub fn is_open(&self) -> bool {
        AggregateState::OPEN.contains(self)
    }
}

wire_enum! {
    Verdict {
        TruePositive = "VERDICT_TRUE_POSITIVE" => "true positive",
        FalsePositive = "VERDICT_FALSE_POSITIVE" => "false positive",
        NoVerdict = "VERDICT_NO_VERDICT" => "no verdict",
        Unspecified = "VERDICT_UNSPECIFIED" => "unspecified",
    }
}

wire_enum! {
    Sensitivity {
        High = "SENSITIVITY_HIGH_SENSITIVITY" => "high",
        Low = "SENSITIVITY_LOW_SENSITIVITY" => "low",
        Neutral = "SENSITIVITY_NEUTRAL_SENSITIVITY" => "neutral",
    }
}

wire_enum! {
    RuleOrigin {
        ProRules = "RULE_ORIGIN_PRO_RULES" => "pro",
        Community = "RULE_ORIGIN_COMMUNITY" => "community",
        Custom = "RULE_ORIGIN_CUSTOM" => "custom",
    }
}

wire_enum! {
    RuleType {
        Sast = "RULE_TYPE_SAST" => "code",
        Sca = "RULE_TYPE_SCA" => "supply chain",
        Secrets = "RULE_TYPE_SECRETS" => "secrets",
    }
}

wire_enum! {
    IssueType {
        Sast = "ISSUE_TYPE_SAST" => "code",
        Sca = "ISSUE_TYPE_SCA" => "sca",
        Secrets = "ISSUE_TYPE_SECRETS" => "secrets",
        Research = "ISSUE_TYPE_RESEARCH" => "research",
        AiSast = "ISSUE_TYPE_AI_SAST" => "ai-code",
        Unspecified = "ISSUE_TYPE_UNSPECIFIED" => "unspecified",
    }
}

wire_enum! {
    HistoryType {
        Status = "HISTORY_TYPE_STATUS" => "status",
        Triage = "HISTORY_TYPE_TRIAGE" => "triage",
        Autotriage = "HISTORY_TYPE_AUTOTRIAGE" => "autotriage",
        AutotriageFeedback = "HISTORY_TYPE_AUTOTRIAGE_FEEDBACK" => "autotriage feedback",
        AiTag = "HISTORY_TYPE_AI_TAG" => "AI tag",
        AnalysisStarted = "HISTORY_TYPE_ANALYSIS_STARTED" => "analysis started",
        ReviewCommentSilenced = "HISTORY_TYPE_REVIEW_COMMENT_SILENCED" => "review comment silenced",
        TicketCreated = "HISTORY_TYPE_TICKET_CREATED" => "ticket created",
        TicketAttempted = "HISTORY_TYPE_TICKET_ATTEMPTED" => "ticket attempted",
        GuidanceRegeneration = "HISTORY_TYPE_GUIDANCE_REGENERATION" => "guidance regenerated",
        ScmMention = "HISTORY_TYPE_SCM_MENTION" => "SCM mention",
        ClickToFixPrRequested = "HISTORY_TYPE_CLICK_TO_FIX_PR_REQUESTED" => "fix PR requested",
        ClickToFixPrOpened = "HISTORY_TYPE_CLICK_TO_FIX_PR_OPENED" => "fix PR opened",
        ClickToFixPrFailed = "HISTORY_TYPE_CLICK_TO_FIX_PR_FAILED" => "fix PR failed",
        ClickToFixPrMerged = "HISTORY_TYPE_CLICK_TO_FIX_PR_MERGED" => "fix PR merged",
        ExceptionRequestCreated = "HISTORY_TYPE_EXCEPTION_REQUEST_CREATED" => "exception requested",
        ExceptionRequestApproved = "HISTORY_TYPE_EXCEPTION_REQUEST_APPROVED" => "exception approved",
        ExceptionRequestRejected = "HISTORY_TYPE_EXCEPTION_REQUEST_REJECTED" => "exception rejected",
    }
}

wire_enum! {
    ExceptionState {
        Requested = "FINDING_EXCEPTION_REQUEST_STATE_REQUESTED" => "requested",
        Approved = "FINDING_EXCEPTION_REQUEST_STATE_APPROVED" => "approved",
        Rejected = "FINDING_EXCEPTION_REQUEST_STATE_REJECTED" => "rejected",
    }
}

wire_enum! {
    TriagePermission {
        Ignore = "TRIAGE_PERMISSION_IGNORE" => "may ignore",
        Request = "TRIAGE_PERMISSION_REQUEST" => "must request exception",
        None = "TRIAGE_PERMISSION_NONE" => "none",
    }
}

wire_enum! {
    Reachability {
        Reachable = "REACHABILITY_REACHABLE" => "reachable",
        AlwaysReachable = "REACHABILITY_ALWAYS_REACHABLE" => "always reachable",
        ConditionallyReachable = "REACHABILITY_CONDITIONALLY_REACHABLE" => "conditionally reachable",
        Unreachable = "REACHABILITY_UNREACHABLE" => "unreachable",
        Unknown = "REACHABILITY_UNKNOWN" => "unknown",
    }
}

wire_enum! {
    ScaRuleKind {
        Reachable = "SCA_RULE_KIND_REACHABLE" => "reachable",
        UpgradeOnly = "SCA_RULE_KIND_UPGRADE_ONLY" => "upgrade only",
        MaliciousDependency = "SCA_RULE_KIND_MALICIOUS_DEPENDENCY" => "malicious dependency",
        Legacy = "SCA_RULE_KIND_LEGACY" => "legacy",
    }
}

wire_enum! {
    ValidationState {
        ConfirmedValid = "VALIDATION_STATE_CONFIRMED_VALID" => "valid",
        ConfirmedInvalid = "VALIDATION_STATE_CONFIRMED_INVALID" => "invalid",
        ValidationError = "VALIDATION_STATE_VALIDATION_ERROR" => "validation error",
        NoValidator = "VALIDATION_STATE_NO_VALIDATOR" => "no validator",
    }
}

// ---- Report request ----

wire_enum! {
    ReportType {
        TotalOpen = "REPORT_TYPE_TOTAL_OPEN" => "total-open",
        TotalFixed = "REPORT_TYPE_TOTAL_FIXED" => "total-fixed",
        TotalIgnored = "REPORT_TYPE_TOTAL_IGNORED" => "total-ignored",
        TotalProvisionallyIgnored = "REPORT_TYPE_TOTAL_PROVISIONALLY_IGNORED" => "total-provisionally-ignored",
        OpenBacklog = "REPORT_TYPE_OPEN_BACKLOG" => "open-backlog",
        BacklogActivity = "REPORT_TYPE_BACKLOG_ACTIVITY" => "backlog-activity",
        Project = "REPORT_TYPE_PROJECT" => "project",
        GuardrailsActivity = "REPORT_TYPE_GUARDRAILS_ACTIVITY" => "guardrails-activity",
    }
}

wire_enum! {
    TimeBucketSize {
        Day = "TIME_BUCKET_SIZE_DAY" => "day",
        Week = "TIME_BUCKET_SIZE_WEEK" => "week",
        Month = "TIME_BUCKET_SIZE_MONTH" => "month",
    }
}

impl TimeBucketSize {
    /// The start of the bucket holding `t`, in UTC: midnight (a day), the
    /// Monday of its ISO week, the first of its month. A period starts on
    /// one, so the same question asked an hour later has the same buckets.
    pub fn floor(&self, t: super::Timestamp) -> super::Timestamp {
        use chrono::Datelike;
        let day = t.date_naive();
        let day = match self {
            TimeBucketSize::Week => {
                day - chrono::Duration::days(i64::from(day.weekday().num_days_from_monday()))
            }
            TimeBucketSize::Month => day.with_day(1).unwrap_or(day),
            _ => day,
        };
        day.and_time(chrono::NaiveTime::MIN).and_utc()
    }
}

wire_enum! {
    FindingType {
        Code = "FINDING_TYPE_CODE" => "code",
        Sca = "FINDING_TYPE_SCA" => "sca",
        Secrets = "FINDING_TYPE_SECRETS" => "secrets",
        Unspecified = "FINDING_TYPE_UNSPECIFIED" => "unspecified",
    }
}

wire_enum! {
    FindingSeverity {
        Critical = "FINDING_SEVERITY_CRITICAL" => "critical",
        High = "FINDING_SEVERITY_HIGH" => "high",
        Medium = "FINDING_SEVERITY_MEDIUM" => "medium",
        Low = "FINDING_SEVERITY_LOW" => "low",
        Unspecified = "FINDING_SEVERITY_UNSPECIFIED" => "unspecified",
    }
}

wire_enum! {
    FindingConfidence {
        High = "FINDING_CONFIDENCE_HIGH" => "high",
        Medium = "FINDING_CONFIDENCE_MEDIUM" => "medium",
        Low = "FINDING_CONFIDENCE_LOW" => "low",
        Unspecified = "FINDING_CONFIDENCE_UNSPECIFIED" => "unspecified",
    }
}

wire_enum! {
    FindingReachability {
        Reachable = "FINDING_REACHABILITY_REACHABLE" => "reachable",
        AlwaysReachable = "FINDING_REACHABILITY_ALWAYS_REACHABLE" => "always-reachable",
        ConditionallyReachable = "FINDING_REACHABILITY_CONDITIONALLY_REACHABLE" => "conditionally-reachable",
        NoReachabilityAnalysis = "FINDING_REACHABILITY_NO_REACHABILITY_ANALYSIS" => "no-analysis",
        Unreachable = "FINDING_REACHABILITY_UNREACHABLE" => "unreachable",
        Unspecified = "FINDING_REACHABILITY_UNSPECIFIED" => "unspecified",
    }
}

wire_enum! {
    FindingValidity {
        Valid = "FINDING_VALIDITY_VALID" => "valid",
        Invalid = "FINDING_VALIDITY_INVALID" => "invalid",
        Error = "FINDING_VALIDITY_ERROR" => "error",
        NoValidator = "FINDING_VALIDITY_NO_VALIDATOR" => "no-validator",
        Unspecified = "FINDING_VALIDITY_UNSPECIFIED" => "unspecified",
    }
}

wire_enum! {
    DeploymentStatus {
        Deployed = "DEPLOYMENT_STATUS_DEPLOYED" => "deployed",
        NotDeployed = "DEPLOYMENT_STATUS_NOT_DEPLOYED" => "not-deployed",
        Unknown = "DEPLOYMENT_STATUS_UNKNOWN" => "unknown",
        Unspecified = "DEPLOYMENT_STATUS_UNSPECIFIED" => "unspecified",
    }
}

wire_enum! {
    PublicExposure {
        Public = "PUBLIC_EXPOSURE_PUBLIC" => "public",
        NotPublic = "PUBLIC_EXPOSURE_NOT_PUBLIC" => "not-public",
        Unknown = "PUBLIC_EXPOSURE_UNKNOWN" => "unknown",
        Unspecified = "PUBLIC_EXPOSURE_UNSPECIFIED" => "unspecified",
    }
}

// ---- Sorting ----

wire_enum! {
    /// Sort field of List issues (sent as `sortBy`).
    SortBy {
        Severity = "SORT_BY_SEVERITY" => "severity",
        Ref = "SORT_BY_REF" => "ref",
        Repo = "SORT_BY_REPO" => "repo",
        Rule = "SORT_BY_RULE" => "rule",
        RelevantSince = "SORT_BY_RELEVANT_SINCE" => "relevant-since",
        State = "SORT_BY_STATE" => "state",
    }
}

wire_enum! {
    /// Sort field of Search issues (sent as `sortField`).
    IssueSortField {
        Severity = "ISSUE_SORT_FIELD_SEVERITY" => "severity",
        LastDetectedAt = "ISSUE_SORT_FIELD_LAST_DETECTED_AT" => "last-detected",
        CreatedAt = "ISSUE_SORT_FIELD_CREATED_AT" => "created",
        FilePath = "ISSUE_SORT_FIELD_FILE_PATH" => "file-path",
    }
}

wire_enum! {
    SortDirection {
        Asc = "SORT_DIRECTION_ASC" => "asc",
        Desc = "SORT_DIRECTION_DESC" => "desc",
    }
}

// ---- Agentic-workflow issues (docs/src/api.md, "Agentic-workflow issue enums") ----

wire_enum! {
    DetectionState {
        Detected = "DETECTION_STATE_DETECTED" => "detected",
        NotDetected = "DETECTION_STATE_NOT_DETECTED" => "not detected",
        VerifiedAbsent = "DETECTION_STATE_VERIFIED_ABSENT" => "verified absent",
        VerifiedPresent = "DETECTION_STATE_VERIFIED_PRESENT" => "verified present",
    }
}

wire_enum! {
    AgenticTriageState {
        Open = "TRIAGE_STATE_OPEN" => "open",
        Reviewing = "TRIAGE_STATE_REVIEWING" => "reviewing",
        Fixing = "TRIAGE_STATE_FIXING" => "fixing",
        Reopened = "TRIAGE_STATE_REOPENED" => "reopened",
        Ignored = "TRIAGE_STATE_IGNORED" => "ignored",
        ProvisionallyIgnored = "TRIAGE_STATE_PROVISIONALLY_IGNORED" => "provisionally ignored",
        Fixed = "TRIAGE_STATE_FIXED" => "fixed",
    }
}

wire_enum! {
    AgenticTriageReason {
        FalsePositive = "TRIAGE_REASON_FALSE_POSITIVE" => "false positive",
        AcceptableRisk = "TRIAGE_REASON_ACCEPTABLE_RISK" => "acceptable risk",
        NoTime = "TRIAGE_REASON_NO_TIME" => "no time",
    }
}

// ---- SCM ----

wire_enum! {
    HostAEntityType {
        Org = "HOST_A_ENTITY_TYPE_ORG" => "organization",
        User = "HOST_A_ENTITY_TYPE_USER" => "user",
    }
}

// ---- List issues filter (protos.issues.v1.IssuesFilter) ----
// Value sets only the filter names; `*_UNSPECIFIED` is left out (it does not
// filter).

wire_enum! {
    /// `IssuesFilter.tab`: the general status of a finding.
    IssueTab {
        Open = "ISSUE_TAB_OPEN" => "open",
        Reviewing = "ISSUE_TAB_REVIEWING" => "reviewing",
        Fixing = "ISSUE_TAB_FIXING" => "fixing",
        Ignored = "ISSUE_TAB_IGNORED" => "ignored",
        ProvisionallyIgnored = "ISSUE_TAB_PROVISIONALLY_IGNORED" => "provisionally ignored",
        Closed = "ISSUE_TAB_CLOSED" => "closed",
    }
}

wire_enum! {
    /// `IssuesFilter.actions`: the (deprecated) policy action mode.
    ActionMode {
        Monitor = "MODE_MONITOR" => "monitor",
        Comment = "MODE_COMMENT" => "comment",
        Block = "MODE_BLOCK" => "block",
        Disabled = "MODE_DISABLED" => "disabled",
    }
}

wire_enum! {
    /// Transitivity of a dependency (published names, no common prefix).
    Transitivity {
        Direct = "DIRECT" => "direct",
        Transitive = "TRANSITIVE" => "transitive",
        Unknown = "UNKNOWN_TRANSITIVITY" => "unknown",
    }
}

wire_enum! {
    /// `IssuesFilter.exposures`: supply-chain exposure (a.k.a. reachability).
    Exposure {
        Reachable = "REACHABLE" => "reachable",
        Unreachable = "UNREACHABLE" => "unreachable",
        Unknown = "UNKNOWN_EXPOSURE" => "unknown",
    }
}

wire_enum! {
    /// `IssuesFilter.source`: where a rule comes from.
    RuleSource {
        Pro = "SOURCE_PRO" => "pro",
        Community = "SOURCE_COMMUNITY" => "community",
        Custom = "SOURCE_CUSTOM" => "custom",
    }
}

wire_enum! {
    RepoVisibility {
        Public = "REPOSITORY_VISIBILITY_PUBLIC" => "public",
        Private = "REPOSITORY_VISIBILITY_PRIVATE" => "private",
        Unknown = "REPOSITORY_VISIBILITY_UNKNOWN" => "unknown",
    }
}

wire_enum! {
    /// EPSS bucket of a supply-chain finding.
    EpssProbability {
        High = "EPSS_PROBABILITY_HIGH" => "high",
        Medium = "EPSS_PROBABILITY_MEDIUM" => "medium",
        Low = "EPSS_PROBABILITY_LOW" => "low",
        None = "EPSS_PROBABILITY_NONE" => "none",
    }
}

wire_enum! {
    /// `IssuesFilter.timeFilter`: which time `since` bounds.
    TimeFilter {
        RelevantSince = "TIME_FILTER_RELEVANT_SINCE" => "relevant since",
        TriagedAt = "TIME_FILTER_TRIAGED_AT" => "triaged at",
        FixedAt = "TIME_FILTER_FIXED_AT" => "fixed at",
    }
}

wire_enum! {
    BacklogType {
        Prod = "ISSUE_BACKLOG_TYPE_PROD" => "prod",
        Preprod = "ISSUE_BACKLOG_TYPE_PREPROD" => "preprod",
    }
}

wire_enum! {
    /// `IssuesFilter.relativeSince`: relevant within this span before now.
    RelativeSince {
        OneMinute = "RELATIVE_SINCE_ONE_MINUTE" => "one minute",
        OneDay = "RELATIVE_SINCE_ONE_DAY" => "one day",
        OneWeek = "RELATIVE_SINCE_ONE_WEEK" => "one week",
        OneMonth = "RELATIVE_SINCE_ONE_MONTH" => "one month",
        ThreeMonths = "RELATIVE_SINCE_THREE_MONTHS" => "three months",
        SixMonths = "RELATIVE_SINCE_SIX_MONTHS" => "six months",
        OneYear = "RELATIVE_SINCE_ONE_YEAR" => "one year",
        AllTime = "RELATIVE_SINCE_ALL_TIME" => "all time",
    }
}

wire_enum! {
    /// `IssuesFilter.upgradeGuidance` (deprecated): the kind of breaking change.
    BreakingChangeType {
        ParameterChange = "BREAKING_CHANGE_TYPE_PARAMETER_CHANGE" => "parameter change",
        FunctionOrClassRemoval = "BREAKING_CHANGE_TYPE_FUNCTION_OR_CLASS_REMOVAL" => "function or class removal",
        FunctionRename = "BREAKING_CHANGE_TYPE_FUNCTION_RENAME" => "function rename",
        LogicChange = "BREAKING_CHANGE_TYPE_LOGIC_CHANGE" => "logic change",
        NotBreaking = "BREAKING_CHANGE_TYPE_NOT_BREAKING" => "not breaking",
    }
}

wire_enum! {
    ClickToFixPrState {
        Open = "CLICK_TO_FIX_PR_STATE_OPEN" => "open",
        Merged = "CLICK_TO_FIX_PR_STATE_MERGED" => "merged",
        NoPr = "CLICK_TO_FIX_PR_STATE_NO_PR" => "no pr",
    }
}

wire_enum! {
    UpgradeGuidanceSelection {
        Safe = "UPGRADE_GUIDANCE_SELECTION_SAFE" => "safe",
        Breaking = "UPGRADE_GUIDANCE_SELECTION_BREAKING" => "breaking",
    }
}
