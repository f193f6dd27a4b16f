//! The API token: never printed, never logged.

use std::fmt;

/// A bearer token. `Debug` and `Display` print `***`; the only way to the
/// secret is [`Token::expose`], called where the header is built.
#[derive(Clone, PartialEq, Eq)]
pub struct Token(String);

impl Token {
    /// The secret is registered with [`crate::redact`] as it enters the
    /// process: every sink masks it from then on.
    pub fn new(secret: impl Into<String>) -> Self {
        let secret = secret.into();
        crate::redact::register(&secret);
        Token(secret)
    }

    /// The secret, for the Authorization header only.
    pub fn expose(&self) -> &str {
        &self.0
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_and_display_mask_the_secret() {
        let t = Token::new("s3cr3t-value");
        assert_eq!(format!("{t:?}"), "***");
        assert_eq!(format!("{t}"), "***");
        assert_eq!(format!("{:?}", Some(t.clone())), "Some(***)");
        assert_eq!(t.expose(), "s3cr3t-value");
    }
}
