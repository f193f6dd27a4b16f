//! SCM configs in the demo: the list (docs/src/api.md §15), cursor paged and
//! sorted, and the PATCH (docs/src/api.md §14): a partial update; absent fields
//! are left as they are, and an explicit `false` is a change like any other.

use super::cursor::{self, Cursor};
use super::query::BadRequest;
use chrono::{DateTime, Utc};
use findings_model::*;
use std::cmp::Ordering;

/// The query of List SCM configs, as published (every value a string).
#[derive(Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ListQuery {
    pub limit: Option<String>,
    pub cursor: Option<String>,
    pub sort_direction: Option<String>,
    pub sort_by: Option<String>,
}

/// One page of `configs` as `query` asks: sorted (ties by ascending id,
/// docs/src/api.md §10; by id ascending when no sort is given), cut at the
/// query's cursor.
pub fn list_page(
    configs: &[ScmConfig],
    query: &ListQuery,
) -> Result<ListScmConfigsResponse, BadRequest> {
    let limit = match query.limit.as_deref().map(str::trim) {
        None | Some("") => DEFAULT_PAGE_SIZE,
        Some(raw) => match raw.parse::<i64>() {
            Ok(n) if n < 0 => {
                return Err(BadRequest(format!("limit must not be negative (got {n})")));
            }
            Ok(0) => DEFAULT_PAGE_SIZE,
            Ok(n) => n.min(MAX_PAGE_SIZE),
            Err(_) => return Err(BadRequest("limit must be an integer".into())),
        },
    };
    // Positive and at most a page here: exact.
    let limit = usize::try_from(limit).unwrap_or(0);
    let sort_by = match query.sort_by.as_deref() {
        None | Some("" | "SCM_CONFIG_SORT_BY_UNSPECIFIED") => ScmConfigSortBy::Id,
        Some(raw) => {
            let v = ScmConfigSortBy::from_wire(raw);
            known(v.clone(), v.is_known(), raw, "sortBy")?
        }
    };
    let direction = match query.sort_direction.as_deref() {
        None | Some("" | "SORT_DIRECTION_UNSPECIFIED") => SortDirection::Asc,
        Some(raw) => {
            let v = SortDirection::from_wire(raw);
            known(v.clone(), v.is_known(), raw, "sortDirection")?
        }
    };
    let fingerprint = cursor::fingerprint("scm-configs", &(sort_by.as_wire(), direction.as_wire()));
    let start = Cursor::decode_for(query.cursor.as_deref(), fingerprint)?;
    let mut order: Vec<&ScmConfig> = configs.iter().collect();
    order.sort_by(|a, b| {
        let key = match sort_by {
            ScmConfigSortBy::Name => {
                let name = |c: &ScmConfig| c.namespace.clone().unwrap_or_default().to_lowercase();
                name(a).cmp(&name(b))
            }
            ScmConfigSortBy::LastSuccessfulSyncAt => {
                a.last_successful_sync_at.cmp(&b.last_successful_sync_at)
            }
            _ => Ordering::Equal,
        };
        let key = if direction == SortDirection::Desc {
            key.reverse()
        } else {
            key
        };
        // The id decides ties, and is the whole order for SORT_BY_ID.
        let by_id = by_id(a, b);
        match (
            sort_by == ScmConfigSortBy::Id,
            direction == SortDirection::Desc,
        ) {
            (true, true) => by_id.reverse(),
            (true, false) => by_id,
            _ => key.then(by_id),
        }
    });
    let end = start.saturating_add(limit).min(order.len());
    let page = order
        .get(start..end)
        .unwrap_or_default()
        .iter()
        .map(|c| (*c).clone())
        .collect();
    Ok(ListScmConfigsResponse {
        configs: page,
        cursor: (end < order.len()).then(|| {
            Cursor {
                position: end,
                fingerprint,
            }
            .encode()
        }),
    })
}

/// `value` when this build knows it, else 400 naming the field.
fn known<T>(value: T, is_known: bool, raw: &str, field: &str) -> Result<T, BadRequest> {
    if is_known {
        Ok(value)
    } else {
        Err(BadRequest(format!(
            "unknown value {:?} for {field}",
            findings_base::text::truncate(raw, 60)
        )))
    }
}

/// Ids are decimal: compared as numbers, then as text.
fn by_id(a: &ScmConfig, b: &ScmConfig) -> Ordering {
    let id = |c: &ScmConfig| c.id.clone().unwrap_or_default();
    let (a, b) = (id(a), id(b));
    match (a.parse::<u64>(), b.parse::<u64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y),
        _ => a.cmp(&b),
    }
}

pub fn apply_patch(config: &mut ScmConfig, patch: &ScmConfigPatch, now: DateTime<Utc>) {
    if let Some(v) = patch.auto_scan {
        config.auto_scan = Some(v);
    }
    if let Some(v) = patch.use_network_broker {
        config.use_network_broker = Some(v);
    }
    if let Some(ns) = &patch.namespace {
        config.namespace = Some(ns.clone());
    }
    if let Some(diff) = patch
        .auto_scan_settings
        .as_ref()
        .and_then(|s| s.diff_enabled)
    {
        config
            .auto_scan_settings
            .get_or_insert_with(AutoScanSettings::default)
            .diff_enabled = Some(diff);
    }
    if let Some(subscribe) = patch.subscribe {
        if subscribe {
            if config.subscriptions.is_empty() {
                let base = config.base_url.clone().unwrap_or_default();
                let ns = config.namespace.clone().unwrap_or_default();
                config.subscriptions.push(Subscription {
                    scm_url: Some(format!("{base}/{ns}")),
                    events: vec!["push".into(), "pull_request".into()],
                });
            }
        } else {
            config.subscriptions.clear();
        }
    }
    if patch.access_token.is_some() {
        // The token itself is never stored or returned; only that one exists.
        config.has_access_token = Some(true);
        config.status = Some(ScmStatus {
            checked: Some(now),
            ok: Some(true),
            error: None,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_fields_are_left_unchanged() {
        let mut c = ScmConfig {
            auto_scan: Some(true),
            namespace: Some("acme".into()),
            use_network_broker: Some(false),
            ..ScmConfig::default()
        };
        let patch = ScmConfigPatch {
            use_network_broker: Some(true),
            auto_scan_settings: Some(AutoScanSettings {
                diff_enabled: Some(true),
            }),
            ..ScmConfigPatch::default()
        };
        apply_patch(&mut c, &patch, Utc::now());
        assert_eq!(c.auto_scan, Some(true));
        assert_eq!(c.namespace.as_deref(), Some("acme"));
        assert_eq!(c.use_network_broker, Some(true));
        assert_eq!(
            c.auto_scan_settings.and_then(|s| s.diff_enabled),
            Some(true)
        );
    }

    #[test]
    fn an_explicit_false_is_a_change() {
        let mut c = ScmConfig {
            auto_scan: Some(true),
            use_network_broker: Some(true),
            auto_scan_settings: Some(AutoScanSettings {
                diff_enabled: Some(true),
            }),
            ..ScmConfig::default()
        };
        let patch: ScmConfigPatch = serde_json::from_str(
            r#"{"autoScan":false,"useNetworkBroker":false,"autoScanSettings":{"diffEnabled":false}}"#,
        )
        .unwrap();
        apply_patch(&mut c, &patch, Utc::now());
        assert_eq!(c.auto_scan, Some(false));
        assert_eq!(c.use_network_broker, Some(false));
        assert_eq!(
            c.auto_scan_settings.and_then(|s| s.diff_enabled),
            Some(false)
        );
    }

    fn configs() -> Vec<ScmConfig> {
        let t = |h: i64| Some(Utc::now() - chrono::Duration::hours(h));
        [
            ("1002", "beta", t(1)),
            ("1010", "Alpha", t(5)),
            ("1003", "alpha", None),
        ]
        .into_iter()
        .map(|(id, ns, sync)| ScmConfig {
            id: Some(id.into()),
            namespace: Some(ns.into()),
            last_successful_sync_at: sync,
            ..Default::default()
        })
        .collect()
    }

    fn ids(page: &ListScmConfigsResponse) -> Vec<&str> {
        page.configs
            .iter()
            .filter_map(|c| c.id.as_deref())
            .collect()
    }

    fn query(sort_by: &str, dir: &str) -> ListQuery {
        ListQuery {
            sort_by: Some(sort_by.into()),
            sort_direction: Some(dir.into()),
            ..Default::default()
        }
    }

    #[test]
    fn the_list_sorts_with_ties_by_ascending_id() {
        let all = configs();
        let page = list_page(&all, &ListQuery::default()).unwrap();
        assert_eq!(ids(&page), ["1002", "1003", "1010"]);
        assert_eq!(page.cursor, None);
        let cases = [
            (
                "SCM_CONFIG_SORT_BY_ID",
                "SORT_DIRECTION_DESC",
                ["1010", "1003", "1002"],
            ),
            (
                "SCM_CONFIG_SORT_BY_NAME",
                "SORT_DIRECTION_ASC",
                ["1003", "1010", "1002"],
            ),
            (
                "SCM_CONFIG_SORT_BY_NAME",
                "SORT_DIRECTION_DESC",
                ["1002", "1003", "1010"],
            ),
            (
                "SCM_CONFIG_SORT_BY_LAST_SUCCESSFUL_SYNC_AT",
                "SORT_DIRECTION_ASC",
                ["1003", "1010", "1002"],
            ),
        ];
        for (by, dir, expected) in cases {
            assert_eq!(
                ids(&list_page(&all, &query(by, dir)).unwrap()),
                expected,
                "{by} {dir}"
            );
        }
    }

    #[test]
    fn the_list_pages_by_cursor_bound_to_its_sort() {
        let all = configs();
        let first = list_page(
            &all,
            &ListQuery {
                limit: Some("2".into()),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(ids(&first), ["1002", "1003"]);
        let next = ListQuery {
            limit: Some("2".into()),
            cursor: first.cursor.clone(),
            ..Default::default()
        };
        let second = list_page(&all, &next).unwrap();
        assert_eq!(ids(&second), ["1010"]);
        assert_eq!(second.cursor, None);
        let other_sort = ListQuery {
            cursor: first.cursor,
            ..query("SCM_CONFIG_SORT_BY_NAME", "SORT_DIRECTION_ASC")
        };
        assert!(list_page(&all, &other_sort).is_err());
        for bad in [
            ListQuery {
                limit: Some("-1".into()),
                ..Default::default()
            },
            ListQuery {
                limit: Some("ten".into()),
                ..Default::default()
            },
            query("SCM_CONFIG_SORT_BY_COLOUR", "SORT_DIRECTION_ASC"),
            query("SCM_CONFIG_SORT_BY_ID", "UP"),
        ] {
            assert!(list_page(&all, &bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_new_token_is_never_stored() {
        let mut c = ScmConfig::default();
        let patch = ScmConfigPatch {
            access_token: Some("scm-secret".into()),
            ..Default::default()
        };
        apply_patch(&mut c, &patch, Utc::now());
        assert_eq!(c.has_access_token, Some(true));
        assert!(!serde_json::to_string(&c).unwrap().contains("scm-secret"));
    }
}
