//! Demo cursors (docs/src/api.md §9): opaque to clients, they encode the position in
//! the sorted order and a fingerprint of the query, so a cursor replayed with
//! another filter or sort is refused.

use super::bad_request::BadRequest;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    pub position: usize,
    pub fingerprint: u64,
}

impl Cursor {
    pub fn encode(&self) -> String {
        URL_SAFE_NO_PAD.encode(format!("v1.{}.{:016x}", self.position, self.fingerprint))
    }

    fn decode(raw: &str) -> Option<Cursor> {
        let bytes = URL_SAFE_NO_PAD.decode(raw.trim()).ok()?;
        let text = String::from_utf8(bytes).ok()?;
        let mut parts = text.split('.');
        if parts.next()? != "v1" {
            return None;
        }
        let position = parts.next()?.parse().ok()?;
        let fingerprint = u64::from_str_radix(parts.next()?, 16).ok()?;
        parts.next().is_none().then_some(Cursor {
            position,
            fingerprint,
        })
    }

    /// The start position a request's cursor asks for: 0 for none or "",
    /// 400 for garbage or a cursor of another query.
    pub fn decode_for(raw: Option<&str>, fingerprint: u64) -> Result<usize, BadRequest> {
        match raw {
            None | Some("") => Ok(0),
            Some(raw) => match Cursor::decode(raw) {
                None => Err(BadRequest("invalid cursor".into())),
                Some(c) if c.fingerprint != fingerprint => Err(BadRequest(
                    "cursor does not belong to this query (the filter or sort changed)".into(),
                )),
                Some(c) => Ok(c.position),
            },
        }
    }
}

/// FNV-1a over the canonical JSON of a request's shape: stable across runs
/// and builds, unlike the standard library's seeded hasher.
pub fn fingerprint<T: Serialize>(operation: &str, shape: &T) -> u64 {
    let json = serde_json::to_vec(shape).unwrap_or_default();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in operation.as_bytes().iter().chain(&[0]).chain(&json) {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_reject_other_queries() {
        let c = Cursor {
            position: 1234,
            fingerprint: 0xabc,
        };
        assert_eq!(Cursor::decode_for(Some(&c.encode()), 0xabc), Ok(1234));
        assert!(Cursor::decode_for(Some(&c.encode()), 0xabd).is_err());
        assert!(Cursor::decode_for(Some("garbage!"), 0xabc).is_err());
        assert_eq!(Cursor::decode_for(Some(""), 1), Ok(0));
        assert_eq!(Cursor::decode_for(None, 1), Ok(0));
    }
}
