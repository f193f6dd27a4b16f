//! The value parsers that offer a flag's values to shell completion: in
//! their own module so that every subcommand's flags may use them without
//! importing the command line's root.

use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};

/// The value parser of a flag whose values are a fixed set that the flag's
/// own code checks: it takes any text, as a plain `String` flag does (so
/// the names, spellings and errors stay the flag's), and offers `values` to
/// shell completion, which would otherwise offer file names.
pub(super) fn offer(values: impl IntoIterator<Item = &'static str>) -> Offering<StringValueParser> {
    offer_to(StringValueParser::new(), values)
}

/// `inner`, parsing as it does, with `values` offered to shell completion.
pub(super) fn offer_to<P>(inner: P, values: impl IntoIterator<Item = &'static str>) -> Offering<P> {
    Offering {
        inner,
        values: values.into_iter().collect(),
    }
}

/// See [`offer`].
#[derive(Clone)]
pub(super) struct Offering<P> {
    inner: P,
    values: Vec<&'static str>,
}

impl<P: TypedValueParser> TypedValueParser for Offering<P> {
    type Value = P::Value;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<Self::Value, clap::Error> {
        self.inner.parse_ref(cmd, arg, value)
    }

    fn parse(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: std::ffi::OsString,
    ) -> Result<Self::Value, clap::Error> {
        self.inner.parse(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(self.values.iter().map(|&v| PossibleValue::new(v))))
    }
}
