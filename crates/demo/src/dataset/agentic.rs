//! The agentic-workflow issues Search issues answers with.

use super::{AgenticRecord, DAY, Dataset, stream, ts};
use crate::rng::Rng;
use findings_model::*;

impl Dataset {
    pub(super) fn generate_agentic(&self, i: usize) -> AgenticRecord {
        let m = &self.catalog.agentic;
        let mut r = Rng::for_item(self.seed, stream::AGENTIC, i as u64);
        let now = self.generated_now();
        // Under 120 days in seconds: exact in f64 and back.
        #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
        let created = now - (r.unit().powf(1.5) * 120.0 * DAY as f64) as i64;
        let last_detected = created + r.range(0, (now - 60 - created).clamp(0, 20 * DAY));
        let severity = Severity::ALL[r.weighted(&[6, 18, 30, 26, 20])].clone();
        let triage_state = AgenticTriageState::ALL[r.weighted(&[45, 10, 8, 5, 14, 6, 12])].clone();
        let triaged = triage_state != AgenticTriageState::Open;
        let triage_reason = matches!(
            triage_state,
            AgenticTriageState::Ignored | AgenticTriageState::ProvisionallyIgnored
        )
        .then(|| r.pick(AgenticTriageReason::ALL).clone());
        let detection_state = DetectionState::ALL[r.weighted(&[60, 10, 10, 20])].clone();
        let pick_some = |r: &mut Rng, items: &[String], lo: usize, hi: usize| -> Vec<String> {
            let k = r.range(crate::wire_int(lo), crate::wire_int(hi));
            let k = usize::try_from(k).unwrap_or(0);
            r.sample(items.len(), k)
                .into_iter()
                .map(|j| items[j].clone())
                .collect()
        };
        let story = r.below(m.titles.len());
        let repo_count = usize::try_from(r.range(1, 2)).unwrap_or(1);
        let repos = r.sample(self.repos.len(), repo_count);
        let issue = AgenticIssue {
            id: Some(format!("agw-{:05}", 7001 + i)),
            deployment_id: Some(self.deployment.clone()),
            // Entry k of titles, descriptions and reasonings tell one story.
            title: Some(m.titles[story].clone()),
            description: m.descriptions.get(story).cloned(),
            reasoning: m.reasonings.get(story).cloned(),
            created_at: Some(ts(created)),
            last_detected_at: Some(ts(last_detected)),
            triaged_at: triaged.then(|| {
                ts(last_detected + r.range(0, (now - 30 - last_detected).clamp(0, 5 * DAY)))
            }),
            detection_state: Some(detection_state),
            severity: Some(severity),
            triage_state: Some(triage_state),
            triage_reason,
            actions: pick_some(&mut r, &m.actions, 1, 3),
            workflow_ids: pick_some(&mut r, &m.workflow_ids, 1, 2),
            identities: pick_some(&mut r, &m.identities, 1, 2),
            trigger_sources: pick_some(&mut r, &m.trigger_sources, 1, 2),
            project_ids: repos.iter().map(|&k| self.repos[k].id.clone()).collect(),
            ref_ids: repos
                .iter()
                .map(|&k| self.repos[k].primary_ref_id.clone())
                .collect(),
            file_paths: pick_some(&mut r, &m.file_paths, 1, 3),
            dependency_paths: pick_some(&mut r, &m.dependency_paths, 0, 2),
            direct_dependencies: pick_some(&mut r, &m.direct_dependencies, 0, 2),
            domains: pick_some(&mut r, &m.domains, 0, 3),
            cwes: pick_some(&mut r, &m.cwes, 1, 2),
            owasps: pick_some(&mut r, &m.owasps, 1, 1),
        };
        AgenticRecord {
            issue,
            workflow_job_ids: pick_some(&mut r, &m.workflow_job_ids, 1, 3),
        }
    }
}
