//! Wire-format helpers shared by every model type: open enums, int64 values
//! that arrive as numbers or strings, lenient timestamps and floats.
//!
//! The platform is protobuf-JSON based and in alpha (docs/src/api.md §3–6): enums grow
//! new values, int64 arrives as either JSON type, and default values may be
//! omitted. Everything here accepts what such a server sends without failing.

use chrono::{DateTime, Utc};
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serializer};
use std::fmt;

/// A timestamp on the wire (RFC 3339, any offset, with or without fractions).
pub type Timestamp = DateTime<Utc>;

/// Declares an open enum: known variants with their exact wire names and human
/// labels, plus `Other(String)` that keeps any value this build does not know.
#[macro_export]
macro_rules! wire_enum {
    (
        $(#[$meta:meta])*
        $name:ident {
            $( $variant:ident = $wire:literal => $label:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $variant, )+
            /// A value this build does not know; kept verbatim (docs/src/api.md §4).
            Other(String),
        }

        impl $name {
            /// Every known value, in declaration order.
            pub const ALL: &'static [$name] = &[ $( $name::$variant, )+ ];

            /// The exact wire name.
            pub fn as_wire(&self) -> &str {
                match self {
                    $( $name::$variant => $wire, )+
                    $name::Other(raw) => raw,
                }
            }

            /// A short human label; unknown values show as they came.
            pub fn label(&self) -> &str {
                match self {
                    $( $name::$variant => $label, )+
                    $name::Other(raw) => raw,
                }
            }

            /// Parses a wire name; anything unrecognised becomes `Other`.
            pub fn from_wire(raw: &str) -> Self {
                match raw {
                    $( $wire => $name::$variant, )+
                    other => $name::Other(other.to_owned()),
                }
            }

            /// Every known value as (wire name, label): the vocabulary user
            /// input is read with ([`find_name`]).
            ///
            /// [`find_name`]: $crate::wire::find_name
            pub fn names() -> Vec<(&'static str, &'static str)> {
                Self::ALL.iter().map(|v| (v.as_wire(), v.label())).collect()
            }

            /// Parses user input: a wire name, a label, or a wire name
            /// without its enum's prefix ([`find_name`]); `None` when it is
            /// none of them (user input must be known).
            ///
            /// [`find_name`]: $crate::wire::find_name
            pub fn parse_known(input: &str) -> Option<Self> {
                $crate::wire::find_name(&Self::names(), input)
                    .map(|k| Self::ALL[k].clone())
            }

            /// Whether this value is one of the known ones.
            pub fn is_known(&self) -> bool {
                !matches!(self, $name::Other(_))
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.label())
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_wire())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                $crate::wire::deserialize_enum_name(d).map(|raw| Self::from_wire(&raw))
            }
        }
    };
}

/// User input as the enum vocabulary compares it: trimmed, upper-case, with
/// `-` and spaces read as `_`.
fn name_key(s: &str) -> String {
    s.trim()
        .chars()
        .map(|c| match c {
            '-' | ' ' => '_',
            c => c.to_ascii_uppercase(),
        })
        .collect()
}

/// The index of the value `input` names among `(wire name, label)` pairs:
/// its exact wire name, its label (`provisionally ignored`), or its wire name
/// without the prefix all the names share (`critical` for
/// `SEVERITY_CRITICAL`). Case-insensitive; `-`, `_` and a space are alike.
/// The one reading of enum values typed by a user, everywhere.
pub fn find_name(names: &[(&str, &str)], input: &str) -> Option<usize> {
    let key = name_key(input);
    if key.is_empty() {
        return None;
    }
    let prefix = common_prefix(names.iter().map(|n| n.0));
    names
        .iter()
        .position(|(wire, _)| name_key(wire) == key)
        .or_else(|| names.iter().position(|(_, label)| name_key(label) == key))
        .or_else(|| {
            names.iter().position(|(wire, _)| {
                wire.strip_prefix(prefix.as_str())
                    .is_some_and(|rest| name_key(rest) == key)
            })
        })
}

/// A label as it is typed and listed: lower-case, words joined by `-`
/// (`provisionally-ignored`), so it needs no quotes on a command line.
pub fn typed_name(label: &str) -> String {
    label.trim().to_lowercase().replace(' ', "-")
}

/// The prefix up to and including the last `_` that every name shares
/// (`SEVERITY_`, not `SEVERITY_L`), or "".
fn common_prefix<'a>(mut names: impl Iterator<Item = &'a str>) -> String {
    let Some(first) = names.next() else {
        return String::new();
    };
    let mut len = first.len();
    for name in names {
        len = first
            .bytes()
            .zip(name.bytes())
            .take(len)
            .take_while(|(a, b)| a == b)
            .count();
    }
    first[..len]
        .rfind('_')
        .map_or(String::new(), |i| first[..=i].to_owned())
}

/// Reads an enum value: a string, or a number (protobuf JSON may send the
/// numeric form), which is kept as its decimal text.
pub fn deserialize_enum_name<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    struct EnumName;
    impl Visitor<'_> for EnumName {
        type Value = String;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an enum name (string)")
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<String, E> {
            Ok(v.to_owned())
        }
        fn visit_string<E: de::Error>(self, v: String) -> Result<String, E> {
            Ok(v)
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<String, E> {
            Ok(v.to_string())
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<String, E> {
            Ok(v.to_string())
        }
    }
    d.deserialize_any(EnumName)
}

struct Int64Visitor;

impl Visitor<'_> for Int64Visitor {
    type Value = Option<i64>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an integer, as a JSON number or a decimal string")
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Some(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        i64::try_from(v)
            .map(Some)
            .map_err(|_| E::custom(format!("integer {v} is out of range")))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        // protobuf JSON may write 3 as 3.0; anything fractional is an error.
        if v.fract() == 0.0 && v.abs() < 9.0e18 {
            // Whole and below 2^63 in magnitude: the cast is exact.
            #[allow(clippy::cast_possible_truncation)]
            let n = v as i64;
            Ok(Some(n))
        } else {
            Err(E::custom(format!("{v} is not an integer")))
        }
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        let t = v.trim();
        if t.is_empty() {
            return Ok(None);
        }
        t.parse::<i64>()
            .map(Some)
            .map_err(|_| E::custom(format!("{:?} is not a decimal integer", truncate(v, 40))))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
}

fn truncate(s: &str, max: usize) -> String {
    s.chars().take(max).collect()
}

/// int64 fields the platform sends as strings (`total`, `reviewCount`, ...):
/// accept a number or a string, write a string.
pub mod int64_string {
    use super::*;
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
        d.deserialize_any(Int64Visitor)
    }
    pub fn serialize<S: Serializer>(v: &Option<i64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(n) => s.serialize_str(&n.to_string()),
            None => s.serialize_none(),
        }
    }
}

/// int64 fields the platform sends as numbers (`line`, `limit`, ...):
/// accept a number or a string, write a number.
pub mod int64_number {
    use super::*;
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
        d.deserialize_any(Int64Visitor)
    }
    pub fn serialize<S: Serializer>(v: &Option<i64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(n) => s.serialize_i64(*n),
            None => s.serialize_none(),
        }
    }
}

/// Floats (EPSS score, percentile): a number or a numeric string.
pub mod float {
    use super::*;
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
        struct F;
        impl Visitor<'_> for F {
            type Value = Option<f64>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number, or a numeric string")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
                Ok(Some(v))
            }
            // A float field written as an integer: the nearest f64 is what
            // it means (exact below 2^53), as any JSON parser would read it.
            #[allow(clippy::cast_precision_loss)]
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
                Ok(Some(v as f64))
            }
            #[allow(clippy::cast_precision_loss)]
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
                Ok(Some(v as f64))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                let t = v.trim();
                if t.is_empty() {
                    return Ok(None);
                }
                t.parse::<f64>()
                    .map(Some)
                    .map_err(|_| E::custom(format!("{:?} is not a number", truncate(v, 40))))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
        }
        d.deserialize_any(F)
    }
    pub fn serialize<S: Serializer>(v: &Option<f64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(n) => s.serialize_f64(*n),
            None => s.serialize_none(),
        }
    }
}

/// Timestamps: RFC 3339; `null` and `""` (a protobuf default) mean absent.
pub mod timestamp {
    use super::*;
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Timestamp>, D::Error> {
        // Parsed inside the visitor, so serde_json places an error at the
        // value itself and the decode error names its field.
        struct T;
        impl Visitor<'_> for T {
            type Value = Option<Timestamp>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an RFC 3339 timestamp")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                let t = v.trim();
                if t.is_empty() {
                    return Ok(None);
                }
                DateTime::parse_from_rfc3339(t)
                    .map(|dt| Some(dt.with_timezone(&Utc)))
                    .map_err(|e| {
                        E::custom(format!(
                            "{:?} is not an RFC 3339 timestamp ({e})",
                            truncate(t, 40)
                        ))
                    })
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(None)
            }
        }
        d.deserialize_any(T)
    }
    pub fn serialize<S: Serializer>(v: &Option<Timestamp>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(t) => s.serialize_str(&t.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)),
            None => s.serialize_none(),
        }
    }
}

/// `null` for a collection or string means the default (docs/src/api.md §5).
pub fn null_as_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

/// Skips writing empty collections, as protobuf JSON does.
pub fn is_empty<T>(v: &[T]) -> bool {
    v.is_empty()
}

/// A text field that holds an enum-like value the contract does not
/// enumerate: a string, a number (kept as its decimal text) or `null`.
pub fn opt_enum_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    struct Text;
    impl Visitor<'_> for Text {
        type Value = Option<String>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
            Ok(Some(v.to_owned()))
        }
        fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
            Ok(Some(v))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
            Ok(Some(v.to_string()))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
            Ok(Some(v.to_string()))
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
    }
    d.deserialize_any(Text)
}

thread_local! {
    /// The most items a page being decoded on this thread may hold: what
    /// the answer's weight allows (see [`with_page_limit`]).
    static PAGE_LIMIT: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// Runs `decode` with page arrays ([`page_items`]) limited to `limit`
/// items. Decoding is synchronous, so the limit holds for exactly the
/// decode of one answer.
pub fn with_page_limit<R>(limit: Option<usize>, decode: impl FnOnce() -> R) -> R {
    let before = PAGE_LIMIT.with(|l| l.replace(limit));
    let out = decode();
    PAGE_LIMIT.with(|l| l.set(before));
    out
}

/// The message of a page that holds more items than were asked for.
pub const TOO_MANY_ITEMS: &str = "the page holds more items than the";

/// A page's items (`null` read as none), at most as many as the answer's
/// weight allows ([`with_page_limit`]): one more is an error, found before
/// it is built, so a hostile answer of a million `{}` costs little.
pub fn page_items<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    struct Items<T>(std::marker::PhantomData<T>);
    impl<'de, T: Deserialize<'de>> Visitor<'de> for Items<T> {
        type Value = Vec<T>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an array of items")
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
            let limit = PAGE_LIMIT.with(std::cell::Cell::get);
            let mut items = Vec::with_capacity(limit.unwrap_or(0).min(1024));
            loop {
                if limit.is_some_and(|n| items.len() >= n) {
                    // One more, read without being built, is one too many.
                    return match seq.next_element::<de::IgnoredAny>()? {
                        None => Ok(items),
                        Some(_) => Err(de::Error::custom(format!(
                            "{TOO_MANY_ITEMS} {} an answer of its size may hold",
                            items.len()
                        ))),
                    };
                }
                match seq.next_element()? {
                    Some(item) => items.push(item),
                    None => return Ok(items),
                }
            }
        }
    }
    d.deserialize_any(Items(std::marker::PhantomData))
}

/// Finding ids the ticketing operations carry as int32 numbers
/// (`issueIds`), kept as the strings every other operation gives them:
/// read from numbers or strings (`null` as none), written as numbers (an
/// id that is no number is written as the string it is, for the server to
/// refuse; the callers check ids first, [`numeric_id`]).
pub mod id_numbers {
    use super::*;
    use serde::ser::SerializeSeq;

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
        struct Ids;
        impl<'de> Visitor<'de> for Ids {
            type Value = Vec<String>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of ids")
            }
            fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Vec::new())
            }
            fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
                Ok(Vec::new())
            }
            fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut ids = Vec::new();
                while let Some(id) = seq.next_element::<Id>()? {
                    ids.extend(id.0);
                }
                Ok(ids)
            }
        }
        d.deserialize_any(Ids)
    }

    pub fn serialize<S: Serializer>(ids: &[String], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(ids.len()))?;
        for id in ids {
            match int32_of(id) {
                Some(n) => seq.serialize_element(&n)?,
                None => seq.serialize_element(id)?,
            }
        }
        seq.end()
    }

    /// An id as the int32 the schema types it: a finding's id, or a
    /// negative one a server echoes back (`-5` is an int32, no finding's).
    fn int32_of(id: &str) -> Option<i32> {
        numeric_id(id).or_else(|| {
            id.parse::<i32>()
                .ok()
                .filter(|n| *n < 0 && n.to_string() == id)
        })
    }

    /// One id: a number or a string (`null` skipped).
    struct Id(Option<String>);

    impl<'de> Deserialize<'de> for Id {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            Ok(Id(d.deserialize_any(Int64Visitor)?.map(|n| n.to_string())))
        }
    }
}

/// A finding id as the number the ticketing operations send, when it is
/// one (decimal digits, within int32 as published).
pub fn numeric_id(id: &str) -> Option<i32> {
    if id.is_empty() || !id.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    id.parse().ok()
}
