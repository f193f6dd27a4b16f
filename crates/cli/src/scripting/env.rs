//! What `env` and `$ENV` show a `--jq` expression: the environment, less
//! the API token and every variable that holds a secret this process
//! holds. The output's masking is no guard here: an expression can encode
//! what it reads (`env.FINDINGS_TOKEN | @base64`, `explode`) past it, and
//! an expression may come from a shared script or a saved recipe.
//!
//! Withheld: `FINDINGS_TOKEN` by name (read or not), and any variable
//! whose value holds a registered secret: the token however the
//! configuration resolved it (`token_command`, `token_file`, a profile, the
//! stored login), an SCM access token. The rest is jq's `env` as it is.

use jaq_json::Val;

/// Withheld by name, whatever they hold.
const WITHHELD: &[&str] = &["FINDINGS_TOKEN"];

/// The name `$ENV` is bound under (jaq's global variables keep the `$`).
pub(super) const ENV_VAR: &str = "$ENV";

/// The environment an expression may read, as one object. Variables that
/// are not UTF-8 are shown lossily (jaq's own `env` panics on them).
pub(super) fn visible() -> Val {
    let vars = std::env::vars_os().filter_map(|(name, value)| {
        let name = name.to_string_lossy().into_owned();
        let value = value.to_string_lossy().into_owned();
        shown(&name, &value).then(|| (Val::from(name), Val::from(value)))
    });
    Val::obj(vars.collect())
}

/// Whether the variable `name`, holding `value`, is shown.
fn shown(name: &str, value: &str) -> bool {
    !WITHHELD.contains(&name) && !findings_base::redact::holds_secret(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_token_and_what_holds_a_secret_are_withheld_the_rest_shown() {
        findings_base::redact::register("env-secret-7373");
        assert!(!shown("FINDINGS_TOKEN", "anything"));
        assert!(!shown("GH_TOKEN", "env-secret-7373"));
        assert!(!shown("HEADER", "Bearer env-secret-7373"));
        assert!(shown("HOME", "/home/me"));
        assert!(shown("FINDINGS_DEPLOYMENT", "1234"));
    }
}
