//! The source-control integration configs of the demo deployment.

use super::Dataset;
use chrono::Duration;
use findings_model::*;

pub(super) fn scm_configs(ds: &Dataset) -> Vec<ScmConfig> {
    let now = ds.anchor;
    let entries: [(&str, ScmType, &str, bool, bool, bool); 5] = [
        ("1001", ScmType::HostA, "acme", true, false, true),
        (
            "1002",
            ScmType::HostAEnterprise,
            "acme-platform",
            true,
            true,
            true,
        ),
        ("1003", ScmType::HostB, "acme-mobile", false, false, false),
        ("1004", ScmType::HostCDatacenter, "ACME", true, true, false),
        ("1005", ScmType::HostD, "acme-labs", false, false, true),
    ];
    entries
        .iter()
        .enumerate()
        .map(
            |(k, (id, scm_type, namespace, auto_scan, broker, healthy))| {
                let host = host_of(scm_type);
                ScmConfig {
                    id: Some((*id).to_owned()),
                    scm_type: Some(scm_type.clone()),
                    namespace: Some((*namespace).to_owned()),
                    source_id: Some(format!("src-{}", 880 + k)),
                    base_url: Some(format!("https://{host}")),
                    app: Some(ScmApp {
                        id: Some(format!("app-{}", 300 + k)),
                        slug: Some("findings-scanner".into()),
                        app_id: Some((41_000 + k).to_string()),
                        scm_type: Some(scm_type.clone()),
                        base_url: Some(format!("https://{host}")),
                        request_id: None,
                        scm_name: Some(format!("{namespace} on {}", scm_type.label())),
                        code_access: Some(true),
                        tenant_id: (k == 3).then(|| "tenant-7f3a".to_owned()),
                    }),
                    status: Some(ScmStatus {
                        checked: Some(now - Duration::minutes(17 + 40 * crate::wire_int(k))),
                        ok: Some(*healthy),
                        error: (!healthy).then(|| {
                            "token expired: the SCM answered 401 when listing repositories"
                                .to_owned()
                        }),
                    }),
                    installed: Some(true),
                    suspended: Some(k == 4),
                    host_a_entity_type: matches!(
                        scm_type,
                        ScmType::HostA | ScmType::HostAEnterprise
                    )
                    .then_some(HostAEntityType::Org),
                    auto_scan: Some(*auto_scan),
                    use_network_broker: Some(*broker),
                    token_scopes: Some(TokenScopes {
                        read_metadata: Some(true),
                        read_pull_request: Some(true),
                        write_pull_request_comment: Some(k != 2),
                        read_contents: Some(true),
                        read_members: Some(k % 2 == 0),
                        manage_webhooks: Some(k < 3),
                        write_contents: Some(k == 0),
                        write_pull_request: Some(k == 0 || k == 1),
                    }),
                    subscriptions: vec![Subscription {
                        scm_url: Some(format!("https://{host}/{namespace}")),
                        events: vec!["push".into(), "pull_request".into()],
                    }],
                    last_successful_sync_at: Some(
                        now - Duration::hours(2 + 5 * crate::wire_int(k)),
                    ),
                    auto_scan_settings: Some(AutoScanSettings {
                        diff_enabled: Some(k % 2 == 0),
                    }),
                    has_access_token: Some(k != 2),
                    scm_id: Some(format!("scm-{}", 9100 + k)),
                }
            },
        )
        .collect()
}

/// The host name the demo gives a source-control kind.
pub fn host_of(t: &ScmType) -> &'static str {
    match t {
        ScmType::HostA => "scm-a.example.com",
        ScmType::HostAEnterprise => "scm-a.acme.internal",
        ScmType::HostB => "scm-b.example.com",
        ScmType::HostBSelfManaged => "scm-b.acme.internal",
        ScmType::HostC => "scm-c.example.com",
        ScmType::HostCDatacenter => "scm-c.acme.internal",
        ScmType::HostD => "scm-d.example.com",
        ScmType::HostE => "scm-e.example.com",
        _ => "scm.example.com",
    }
}
