//! Counts of the whole filtered set, for the charts the API can count: one
//! request of `limit` 1 per value, with the query's filters narrowed to that
//! value; the answer's `total` is the count.
//!
//! - By severity: a request per severity the query lets through (none when
//!   only one is let through: its count is the query's total, and those not
//!   let through count 0).
//! - The trend: a request per time bucket (`bucketStart` with
//!   `timeBucketSize`), the [`MAX_BUCKETS`] most recent back from now, and
//!   none that ends before the period starts.
//!
//! Every request goes through the one API worker; a new query cancels those
//! in flight, and a new bucket size cancels only the trend's.

use super::SEVERITIES;
use crate::message::{ApiRequest, ApiResponse, ApiResult, Outbox, RequestId};
use chrono::{Duration, Months};
use findings_model::*;

/// The most time buckets the trend asks for (one request each).
pub const MAX_BUCKETS: usize = 12;

/// What a count request counts.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Count {
    Severity(usize),
    Bucket(usize),
}

#[derive(Debug, Clone, Default)]
pub struct Counts {
    /// The requests in flight and what each counts.
    pending: Vec<(RequestId, Count)>,
    /// By severity, in the order of [`SEVERITIES`]; `None` until known.
    pub severity: [Option<i64>; 4],
    /// The one severity the query lets through: its count is the total.
    total_is: Option<usize>,
    /// The trend: each bucket's start and, once known, its count (oldest
    /// first).
    pub buckets: Vec<(Timestamp, Option<i64>)>,
    /// The bucket size of [`Counts::buckets`].
    pub bucket_size: Option<TimeBucketSize>,
    /// Why a count failed (the first failure of the query).
    pub error: Option<String>,
    /// `Esc` stopped counts in flight.
    pub stopped: bool,
}

/// The request counting what `base` matches, narrowed by `narrow`.
fn count_request(base: &ReportRequest, narrow: impl FnOnce(&mut ReportRequest)) -> ReportRequest {
    let mut r = ReportRequest {
        limit: Some(1),
        cursor: None,
        ..base.clone()
    };
    narrow(&mut r);
    r
}

fn filters(r: &mut ReportRequest) -> &mut ReportFilters {
    r.filters.get_or_insert_with(ReportFilters::default)
}

impl Counts {
    pub fn is_loading(&self) -> bool {
        !self.pending.is_empty()
    }

    fn send(&mut self, count: Count, request: ReportRequest, outbox: &mut Outbox) {
        let sent = outbox.in_slot(super::Slot::Counts, |o| o.send(ApiRequest::Report(request)));
        if let Some(id) = sent {
            self.pending.push((id, count));
        }
    }

    /// Starts counting a new query (`base` is its first page's request,
    /// `allowed` the severities it lets through): what was in flight is
    /// cancelled.
    pub fn start(
        &mut self,
        base: &ReportRequest,
        allowed: [bool; 4],
        trend: Trend,
        outbox: &mut Outbox,
    ) {
        self.cancel(outbox);
        *self = Counts::default();
        let only = (allowed.iter().filter(|a| **a).count() == 1)
            .then(|| allowed.iter().position(|a| *a))
            .flatten();
        self.total_is = only;
        for (i, sev) in SEVERITIES.iter().enumerate() {
            if !allowed[i] {
                self.severity[i] = Some(0);
            } else if only.is_none() {
                let r = count_request(base, |r| filters(r).finding_severities = vec![sev.clone()]);
                self.send(Count::Severity(i), r, outbox);
            }
        }
        self.start_trend(base, trend, outbox);
    }

    /// Counts the trend anew (a new bucket size): only the trend's requests
    /// in flight are cancelled.
    pub fn start_trend(&mut self, base: &ReportRequest, trend: Trend, outbox: &mut Outbox) {
        let (buckets, others): (Vec<_>, Vec<_>) = self
            .pending
            .iter()
            .partition(|(_, s)| matches!(s, Count::Bucket(_)));
        for (id, _) in buckets {
            outbox.cancel(Some(id));
        }
        self.pending = others;
        self.bucket_size = trend.size.clone();
        self.buckets = match &trend.size {
            Some(size) => bucket_starts(size, trend.now, trend.since)
                .into_iter()
                .map(|s| (s, None))
                .collect(),
            None => Vec::new(),
        };
        if let Some(size) = &trend.size {
            for (i, (start, _)) in self.buckets.clone().iter().enumerate() {
                let r = count_request(base, |r| {
                    filters(r).time_bucket_size = Some(size.clone());
                    r.bucket_start = Some(*start);
                });
                self.send(Count::Bucket(i), r, outbox);
            }
        }
    }

    /// The query's total arrived (with its first page).
    pub fn total(&mut self, total: Option<i64>) {
        if let Some(i) = self.total_is {
            self.severity[i] = total;
        }
    }

    /// Takes the answer to a count request (one no longer waited for is
    /// dropped).
    pub fn take(&mut self, id: RequestId, result: ApiResult) {
        let Some(at) = self.pending.iter().position(|(p, _)| *p == id) else {
            return;
        };
        let (_, slot) = self.pending.remove(at);
        let count = match result {
            Ok(ApiResponse::Report(r)) => r.total.ok_or("the answer has no total".to_owned()),
            Ok(other) => Err(other.unexpected().to_string()),
            Err(e) => Err(e.to_string()),
        };
        match count {
            Ok(n) => match slot {
                Count::Severity(i) => self.severity[i] = Some(n.max(0)),
                Count::Bucket(i) => {
                    if let Some(b) = self.buckets.get_mut(i) {
                        b.1 = Some(n.max(0));
                    }
                }
            },
            Err(e) => {
                self.error.get_or_insert(e);
            }
        }
    }

    /// Cancels the counts in flight; whether there were any.
    pub fn cancel(&mut self, outbox: &mut Outbox) -> bool {
        let any = !self.pending.is_empty();
        for (id, _) in self.pending.drain(..) {
            outbox.cancel(Some(id));
        }
        self.stopped |= any;
        any
    }

    /// The severity counts once all are known.
    pub fn severities(&self) -> Option<[i64; 4]> {
        let mut out = [0; 4];
        for (o, s) in out.iter_mut().zip(self.severity) {
            *o = s?;
        }
        Some(out)
    }

    /// The trend's counts once all are known.
    pub fn trend(&self) -> Option<Vec<(Timestamp, i64)>> {
        self.buckets
            .iter()
            .map(|(t, n)| Some((*t, (*n)?)))
            .collect()
    }
}

/// What the trend counts: buckets of `size` (none: no trend) up to `now`,
/// none ending before `since`.
#[derive(Debug, Clone)]
pub struct Trend {
    pub size: Option<TimeBucketSize>,
    pub now: Timestamp,
    pub since: Option<Timestamp>,
}

/// `k` buckets of `size` before `start`.
fn back(size: &TimeBucketSize, start: Timestamp, k: u32) -> Option<Timestamp> {
    match size {
        TimeBucketSize::Week => start.checked_sub_signed(Duration::weeks(i64::from(k))),
        TimeBucketSize::Month => start.checked_sub_months(Months::new(k)),
        _ => start.checked_sub_signed(Duration::days(i64::from(k))),
    }
}

/// The starts of the trend's buckets, oldest first: the bucket of `now`
/// and those before it, at most [`MAX_BUCKETS`], back to the one holding
/// `since`.
pub fn bucket_starts(
    size: &TimeBucketSize,
    now: Timestamp,
    since: Option<Timestamp>,
) -> Vec<Timestamp> {
    let current = size.floor(now);
    let mut starts = Vec::new();
    for k in (0u32..).take(MAX_BUCKETS) {
        let Some(start) = back(size, current, k) else {
            break;
        };
        starts.push(start);
        if since.is_some_and(|s| start <= s) {
            break;
        }
    }
    starts.reverse();
    starts
}
