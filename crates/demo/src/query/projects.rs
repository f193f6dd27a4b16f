//! The deployments and projects the token can see
//! (`DeploymentsService_ListDeployments`, `ProjectsService_ListProjects`):
//! the demo's one deployment, and the findings' repositories as projects
//! (the same id, name, SCM type, primary ref id and tags).

use super::BadRequest;
use crate::cursor::{self, Cursor};
use crate::dataset::{Dataset, host_of};
use crate::deployment::DEMO_DISPLAY_NAME;
use chrono::{TimeZone, Utc};
use findings_model::*;

/// The largest `pageSize` published for List projects.
pub const MAX_PROJECT_PAGE: i64 = 3000;

/// The one deployment of the token (the id the other paths take).
pub fn list_deployments(ds: &Dataset) -> ListDeploymentsResponse {
    ListDeploymentsResponse {
        deployments: vec![DeploymentV2 {
            id: ds.deployment.parse().ok(),
            name: Some(DEMO_DISPLAY_NAME.into()),
        }],
    }
}

/// What the findings say of one repository: its first finding's creation
/// and its last finding's row (the scan that saw it last is the latest).
#[derive(Clone, Copy, Default)]
struct Seen {
    first_created: Option<i64>,
    last_row: Option<usize>,
}

/// A page of the projects `req.filter` keeps, by ascending id.
pub fn list_projects(
    ds: &Dataset,
    req: &ListProjectsRequest,
) -> Result<ListProjectsResponse, BadRequest> {
    let limit = match req.page_size {
        None | Some(0) => DEFAULT_PAGE_SIZE,
        Some(n) if !(1..=MAX_PROJECT_PAGE).contains(&n) => {
            return Err(BadRequest(format!(
                "pageSize must be from 1 to {MAX_PROJECT_PAGE} (got {n})"
            )));
        }
        Some(n) => n,
    };
    // Positive and at most a page here: exact.
    let limit = usize::try_from(limit).unwrap_or(0);
    let filter = req.filter.clone().unwrap_or_default();
    require_known_all!(filter.statuses, "filter.statuses");
    let fingerprint = cursor::fingerprint("projects", &filter);
    let start = Cursor::decode_for(req.page_token.as_deref(), fingerprint)?;
    let mut seen = vec![Seen::default(); ds.repos.len()];
    for (i, row) in ds.rows.iter().enumerate() {
        let s = &mut seen[row.repo as usize];
        let created = row.created.min(row.first_detected);
        s.first_created = Some(s.first_created.map_or(created, |c| c.min(created)));
        s.last_row = Some(i);
    }
    let mut kept: Vec<usize> = (0..ds.repos.len())
        .filter(|&k| keeps(ds, k, seen[k].last_row.is_some(), &filter))
        .collect();
    let id_of = |k: usize| ds.repos[k].id.parse::<i64>().ok();
    kept.sort_by(|&a, &b| (id_of(a), &ds.repos[a].id).cmp(&(id_of(b), &ds.repos[b].id)));
    let end = start.saturating_add(limit).min(kept.len());
    let projects = kept
        .get(start..end)
        .unwrap_or_default()
        .iter()
        .map(|&k| project(ds, k, seen[k]))
        .collect();
    Ok(ListProjectsResponse {
        projects,
        page_token: (end < kept.len()).then(|| {
            Cursor {
                position: end,
                fingerprint,
            }
            .encode()
        }),
    })
}

/// Whether the filter keeps repository `k`. A repository with findings
/// has been scanned (set up), one without has not; an archived one is
/// archived whatever else. Every demo team is a non-default one.
fn keeps(ds: &Dataset, k: usize, scanned: bool, filter: &ProjectsFilter) -> bool {
    let repo = &ds.catalog.repositories[k];
    let status = if repo.archived {
        ProjectStatus::Archived
    } else if scanned {
        ProjectStatus::Setup
    } else {
        ProjectStatus::NotSetup
    };
    let has_teams = !ds.repos[k].teams.is_empty();
    let statuses: Vec<&ProjectStatus> = filter
        .statuses
        .iter()
        .filter(|s| **s != ProjectStatus::Unspecified)
        .collect();
    (statuses.is_empty() || statuses.contains(&&status))
        && (filter.names.is_empty() || filter.names.iter().any(|n| repo.name.contains(n.as_str())))
        && filter
            .assigned_to_teams
            .is_none_or(|want| want == has_teams)
}

fn project(ds: &Dataset, k: usize, seen: Seen) -> Project {
    let repo = &ds.catalog.repositories[k];
    let info = &ds.repos[k];
    let scm_type = ScmType::from_wire(&repo.scm_type);
    Project {
        id: info.id.parse().ok(),
        name: Some(repo.name.clone()),
        create_time: seen
            .first_created
            .and_then(|t| Utc.timestamp_opt(t, 0).single()),
        tags: repo.tags.clone(),
        // The scan ids of the generated findings (a snapshot's are its own).
        latest_scan_id: seen
            .last_row
            .filter(|_| ds.offline.is_none())
            .map(|i| crate::wire_int(crate::materialize::last_scan_id(i))),
        url: Some(format!("https://{}/{}", host_of(&scm_type), repo.name)),
        primary_branch_id: Some(info.primary_ref_id.clone()),
        default_branch_id: Some(info.primary_ref_id.clone()),
        scm_type: Some(scm_type),
    }
}
