//! The outbox panes put their requests, effects and app events in.

use super::*;

/// Where panes put their requests, effects and app events. It records who
/// sent each request (the app says who is acting before it hands the
/// outbox to a pane or the detail), so a reply goes back to its sender.
#[derive(Debug, Default)]
pub struct Outbox {
    pub(super) next_id: RequestId,
    pub effects: Vec<Effect>,
    pub events: Vec<AppEvent>,
    /// Set by `--read-only`: writes are refused here, where they are made.
    pub read_only: bool,
    /// Why, as a refusal says it ([`READ_ONLY_FLAG`] when empty).
    pub read_only_why: &'static str,
    /// Who the requests sent now are for.
    pub(super) acting: Option<Owner>,
    pub(super) owners: HashMap<RequestId, Owner>,
}

impl Outbox {
    pub fn new(read_only: bool) -> Self {
        Outbox {
            read_only,
            ..Outbox::default()
        }
    }

    /// Requests sent from now on are `owner`'s.
    pub fn act_for(&mut self, owner: Owner) {
        self.acting = Some(owner);
    }

    /// Runs `send` with the requests it makes filed under `slot` of the
    /// pane acting (their replies come back to the pane in that slot).
    pub fn in_slot<R>(&mut self, slot: impl ReplySlot, send: impl FnOnce(&mut Outbox) -> R) -> R {
        let before = self.acting;
        if let Some(Owner::Pane(pane, _)) = self.acting {
            self.acting = Some(Owner::Pane(pane, slot.slot()));
        }
        let result = send(self);
        self.acting = before;
        result
    }

    /// The slot request `id` was filed under (for tests and tools; the
    /// request is not forgotten).
    pub fn slot_of(&self, id: RequestId) -> Slot {
        match self.owners.get(&id) {
            Some(Owner::Pane(_, slot)) => *slot,
            _ => Slot::default(),
        }
    }

    /// Queues a request and returns its id. Writes are refused in read-only
    /// mode (`None`).
    pub fn send(&mut self, request: ApiRequest) -> Option<RequestId> {
        if self.read_only && request.is_write() {
            self.events.push(AppEvent::Error {
                title: "Read-only".into(),
                message: format!(
                    "{}: {} is not sent.",
                    self.why_read_only(),
                    request.write_name()
                ),
            });
            return None;
        }
        self.next_id += 1;
        let id = self.next_id;
        self.owners.insert(id, self.acting.unwrap_or(Owner::App));
        self.effects.push(Effect::Send { id, request });
        Some(id)
    }

    /// Who sent request `id`; the request is forgotten (a reply comes once).
    /// `None` for a request cancelled or never sent.
    pub fn owner_of(&mut self, id: RequestId) -> Option<Owner> {
        self.owners.remove(&id)
    }

    /// Who sent request `id`, which goes on (a stream's page came).
    pub fn owner_so_far(&self, id: RequestId) -> Option<Owner> {
        self.owners.get(&id).copied()
    }

    /// The requests queued so far, with their ids (for tests and tools).
    pub fn requests(&self) -> Vec<(RequestId, &ApiRequest)> {
        self.effects
            .iter()
            .filter_map(|e| match e {
                Effect::Send { id, request } => Some((*id, request)),
                _ => None,
            })
            .collect()
    }

    /// The cancellations queued so far.
    pub fn cancelled(&self) -> Vec<RequestId> {
        self.effects
            .iter()
            .filter_map(|e| match e {
                Effect::Cancel(id) => Some(*id),
                _ => None,
            })
            .collect()
    }

    pub fn cancel(&mut self, id: Option<RequestId>) {
        if let Some(id) = id {
            self.owners.remove(&id);
            self.effects.push(Effect::Cancel(id));
        }
    }

    pub fn error(&mut self, title: &str, err: &ApiError) {
        self.events.push(AppEvent::Error {
            title: title.to_owned(),
            message: err.to_string(),
        });
    }

    pub fn status(&mut self, text: impl Into<String>) {
        self.events.push(AppEvent::Status(text.into()));
    }
}
