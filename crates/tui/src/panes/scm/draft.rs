//! The draft of one config's update: what the form shows, what changed
//! against the config as it was when the draft began, and the checked
//! request (docs/src/api.md §14: only the changed fields, a `false` written
//! out).
//!
//! The access token is a secret: kept only here (and in the request handed
//! to the worker), never drawn, masked in `Debug`.

use findings_model::{AutoScanSettings, ScmConfig, ScmConfigPatch, ScmField, ScmValue};

/// The rows of the form, top to bottom.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    ConfigId,
    Namespace,
    AccessToken,
    AutoScan,
    NetworkBroker,
    Subscribe,
    DiffEnabled,
    Review,
}

impl Row {
    pub const ALL: [Row; 8] = [
        Row::ConfigId,
        Row::Namespace,
        Row::AccessToken,
        Row::AutoScan,
        Row::NetworkBroker,
        Row::Subscribe,
        Row::DiffEnabled,
        Row::Review,
    ];

    /// The label shown (the wire name for the toggles).
    pub fn label(self) -> &'static str {
        match self {
            Row::ConfigId => "config id",
            Row::Namespace => "namespace",
            Row::AccessToken => "access token",
            Row::AutoScan => "autoScan",
            Row::NetworkBroker => "useNetworkBroker",
            Row::Subscribe => "subscribe",
            Row::DiffEnabled => "diffEnabled",
            Row::Review => "[ Review ]",
        }
    }

    pub fn is_text(self) -> bool {
        matches!(self, Row::ConfigId | Row::Namespace | Row::AccessToken)
    }

    pub fn is_toggle(self) -> bool {
        matches!(
            self,
            Row::AutoScan | Row::NetworkBroker | Row::Subscribe | Row::DiffEnabled
        )
    }

    /// The config field the row edits, when the config shows it back.
    pub fn field(self) -> Option<ScmField> {
        match self {
            Row::Namespace => Some(ScmField::Namespace),
            Row::AutoScan => Some(ScmField::AutoScan),
            Row::NetworkBroker => Some(ScmField::UseNetworkBroker),
            Row::DiffEnabled => Some(ScmField::DiffEnabled),
            _ => None,
        }
    }
}

/// What the user has set for one config. `None` toggles and namespace are
/// "as it is" and are not sent; so is a value equal to the config's.
#[derive(Clone, Default, PartialEq)]
pub struct Draft {
    pub config_id: String,
    /// The config when the draft began (from the list, or the last
    /// answer): the values the form starts from. `None` when the config
    /// was opened by its id without them: every field then starts
    /// "unchanged".
    pub base: Option<ScmConfig>,
    pub namespace: Option<String>,
    /// "" = unchanged. Private: only [`Draft::has_token`] tells about it.
    pub(super) access_token: String,
    pub auto_scan: Option<bool>,
    pub use_network_broker: Option<bool>,
    pub subscribe: Option<bool>,
    pub diff_enabled: Option<bool>,
}

impl std::fmt::Debug for Draft {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Draft")
            .field("config_id", &self.config_id)
            .field("base", &self.base.as_ref().map(|_| "known"))
            .field("namespace", &self.namespace)
            .field("access_token", &self.has_token().then_some("***"))
            .field("auto_scan", &self.auto_scan)
            .field("use_network_broker", &self.use_network_broker)
            .field("subscribe", &self.subscribe)
            .field("diff_enabled", &self.diff_enabled)
            .finish()
    }
}

impl Draft {
    /// A draft of config `id` with nothing changed, starting from `base`.
    pub fn new(id: &str, base: Option<ScmConfig>) -> Draft {
        Draft {
            config_id: id.trim().to_owned(),
            base,
            ..Draft::default()
        }
    }

    /// Whether a new access token has been entered (its value is never
    /// exposed).
    pub fn has_token(&self) -> bool {
        !self.access_token.is_empty()
    }

    /// The config's value of a row, when the config is known.
    pub fn current(&self, row: Row) -> Option<ScmValue> {
        Some(row.field()?.of_config(self.base.as_ref()?))
    }

    /// The tri-state of a toggle row (`None` for other rows).
    pub fn toggle(&self, row: Row) -> Option<Option<bool>> {
        match row {
            Row::AutoScan => Some(self.auto_scan),
            Row::NetworkBroker => Some(self.use_network_broker),
            Row::Subscribe => Some(self.subscribe),
            Row::DiffEnabled => Some(self.diff_enabled),
            _ => None,
        }
    }

    fn toggle_mut(&mut self, row: Row) -> Option<&mut Option<bool>> {
        match row {
            Row::AutoScan => Some(&mut self.auto_scan),
            Row::NetworkBroker => Some(&mut self.use_network_broker),
            Row::Subscribe => Some(&mut self.subscribe),
            Row::DiffEnabled => Some(&mut self.diff_enabled),
            _ => None,
        }
    }

    /// Space on a toggle: with the config's value known, flips it and back
    /// (on → off → as it is); else unchanged → on → off → unchanged.
    /// `false` when the row is no toggle.
    pub fn cycle(&mut self, row: Row) -> bool {
        let now = match self.current(row) {
            Some(ScmValue::Switch(b)) => Some(b),
            _ => None,
        };
        let Some(v) = self.toggle_mut(row) else {
            return false;
        };
        *v = match (now, *v) {
            (Some(now), None) => Some(!now),
            (Some(_), Some(_)) => None,
            (None, None) => Some(true),
            (None, Some(true)) => Some(false),
            (None, Some(false)) => None,
        };
        true
    }

    /// The text a text row starts an edit from (never the token).
    pub fn edit_start(&self, row: Row) -> Option<String> {
        match row {
            Row::ConfigId => Some(self.config_id.clone()),
            Row::Namespace => self.namespace.clone().or_else(|| match self.current(row) {
                Some(ScmValue::Text(t)) => Some(t),
                _ => Some(String::new()),
            }),
            _ => None,
        }
    }

    /// A namespace typed: empty, or the config's own, is "as it is".
    pub fn set_namespace(&mut self, value: String) {
        let same =
            matches!(self.current(Row::Namespace), Some(ScmValue::Text(t)) if t == value.trim());
        self.namespace = (!value.is_empty() && !same).then_some(value);
    }

    pub fn set_token(&mut self, value: String) {
        self.access_token = value;
    }

    /// Resets a row to "as it is".
    pub fn reset(&mut self, row: Row) {
        if let Some(t) = self.toggle_mut(row) {
            *t = None;
        }
        match row {
            Row::Namespace => self.namespace = None,
            Row::AccessToken => self.access_token.clear(),
            _ => {}
        }
    }

    /// The body's fields: only those that differ from the config
    /// (docs/src/api.md §14), diffEnabled inside `autoScanSettings`, a `false`
    /// as `Some(false)` (written out on the wire).
    pub fn patch(&self) -> ScmConfigPatch {
        let base = self.base.as_ref();
        let differs = |field: ScmField, v: ScmValue| {
            base.is_none_or(|b| field.of_config(b) != v).then_some(v)
        };
        let switch = |field: ScmField, v: Option<bool>| match differs(field, ScmValue::Switch(v?)) {
            Some(ScmValue::Switch(b)) => Some(b),
            _ => None,
        };
        let namespace = self.namespace.as_ref().and_then(|n| {
            let shown = n.trim().to_owned();
            // A blank namespace is kept as typed, for `prepare` to refuse.
            let sent = if shown.is_empty() { n.clone() } else { shown };
            match differs(ScmField::Namespace, ScmValue::Text(sent)) {
                Some(ScmValue::Text(t)) => Some(t),
                _ => None,
            }
        });
        ScmConfigPatch {
            deployment_id: None,
            config_id: None,
            access_token: self
                .has_token()
                .then(|| self.access_token.trim().to_owned()),
            auto_scan: switch(ScmField::AutoScan, self.auto_scan),
            use_network_broker: switch(ScmField::UseNetworkBroker, self.use_network_broker),
            namespace,
            subscribe: self.subscribe,
            auto_scan_settings: switch(ScmField::DiffEnabled, self.diff_enabled).map(|d| {
                AutoScanSettings {
                    diff_enabled: Some(d),
                }
            }),
        }
    }

    /// How many fields would be sent (besides the ids).
    pub fn changes(&self) -> usize {
        let p = self.patch();
        [
            p.namespace.is_some(),
            p.access_token.is_some(),
            p.auto_scan.is_some(),
            p.use_network_broker.is_some(),
            p.subscribe.is_some(),
            p.auto_scan_settings.is_some(),
        ]
        .iter()
        .filter(|c| **c)
        .count()
    }

    /// Whether the draft is that of config `id`.
    pub fn is_for(&self, id: &str) -> bool {
        self.config_id == id.trim()
    }

    /// Checks the draft and builds the request. The ids are added by the
    /// client, as [`Prepared::shown_body`] shows. `reset_key` is the key
    /// that resets a field, for the messages.
    pub fn prepare(&self, reset_key: &str) -> Result<Prepared, String> {
        let config_id = self.config_id.trim();
        if config_id.is_empty() {
            return Err("the config id is required".into());
        }
        if !config_id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err("the config id may hold only letters, digits, '-' and '_'".into());
        }
        if self.namespace.as_ref().is_some_and(|n| n.trim().is_empty()) {
            return Err(format!(
                "the namespace must not be blank (reset it with {reset_key} to leave it as it is)"
            ));
        }
        if self.has_token() && self.access_token.trim().is_empty() {
            return Err(format!(
                "the access token must not be blank (reset it with {reset_key} to leave it as it is)"
            ));
        }
        let patch = self.patch();
        if !patch.has_changes() {
            return Err("nothing to change: set at least one field".into());
        }
        Ok(Prepared {
            config_id: config_id.to_owned(),
            patch,
            before: self.base.clone(),
        })
    }
}

/// A checked request: what Confirm sends, exactly.
#[derive(Debug, Clone, PartialEq)]
pub struct Prepared {
    pub config_id: String,
    /// Without the ids: the client adds `deploymentId` and `configId`.
    pub patch: ScmConfigPatch,
    /// The config as the draft began from it (for `from → to`, and to
    /// check the answer against).
    pub before: Option<ScmConfig>,
}

impl Prepared {
    /// The request line.
    pub fn request_line(&self, deployment: &str) -> String {
        format!(
            "PATCH /api/scm/deployments/{deployment}/configs/{}",
            self.config_id
        )
    }

    /// Each field sent, as `name: from → to` (the token never shown).
    pub fn changes(&self) -> Vec<String> {
        let mut out = Vec::new();
        for field in ScmField::ALL {
            if let Some(to) = field.of_patch(&self.patch) {
                let from = self
                    .before
                    .as_ref()
                    .map_or("(not known)".to_owned(), |b| field.of_config(b).to_string());
                out.push(format!("{}: {from} → {to}", field.name()));
            }
        }
        if let Some(s) = self.patch.subscribe {
            out.push(format!(
                "subscribe: → {} (the config shows subscriptions, not this switch)",
                ScmValue::Switch(s)
            ));
        }
        if self.patch.access_token.is_some() {
            out.push("accessToken: a new token (never shown)".into());
        }
        out
    }

    /// The body as the client sends it (with `deploymentId` and
    /// `configId`), pretty-printed, the access token masked.
    /// The fields come in the order the client serialises them; the content
    /// is `masked_json()` of the body sent (a test holds the two together).
    pub fn shown_body(&self, deployment: &str) -> String {
        let shown = ScmConfigPatch {
            deployment_id: Some(deployment.to_owned()),
            config_id: Some(self.config_id.clone()),
            ..self.without_secret().patch
        };
        findings_base::json::pretty(&shown).unwrap_or_default()
    }

    /// A copy that no longer holds the token (it still shows as `***`).
    pub fn without_secret(&self) -> Prepared {
        let mut copy = self.clone();
        if copy.patch.access_token.is_some() {
            copy.patch.access_token = Some("***".into());
        }
        copy
    }
}
