//! Key sets: one text syntax shared by the command line and the page's URL, and the
//! sorted-by-position layout that makes ring assignment a linear merge.
//!
//! Key *names* are never stored for generated sets: a key is its index, and its name is
//! rebuilt from the spec on demand. What is stored per key is its ring position and its
//! index (8 bytes), kept sorted by position, so that the keys inside an arc of the ring are
//! one contiguous run found by binary search — the basis of incremental updates.

use std::fmt;

use super::hash::{HashError, HashFn};
use super::pace::{run_to_end, Pace};
use crate::problem::{KeyNumber, Problem};
use crate::text::{first_hidden, quote};

/// The most keys a key set may hold.
pub const MAX_KEYS: u64 = 10_000_000;
/// The longest key name accepted in `list:` specs and templates.
pub const MAX_KEY_LEN: usize = 200;

/// A set of key names, written as `A..B`, `TEMPLATE:A..B`, `list:k1,k2,...` or
/// `random:COUNT`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeySpec {
    /// The integers `start..end` (end exclusive), each formatted into `template`
    /// (the literal pieces around each `{i}`; a bare range has the pieces `["", ""]`).
    Range {
        /// Literal text around the `{i}` placeholders.
        pieces: Vec<String>,
        /// First integer (inclusive).
        start: u64,
        /// Last integer (exclusive).
        end: u64,
    },
    /// An explicit list of key names, shared: a scenario is copied with every state and
    /// every piece of work, and a list may hold a million keys.
    List(std::sync::Arc<[String]>),
    /// `count` pseudo-random keys, derived deterministically from the scenario seed.
    Random {
        /// How many keys.
        count: u64,
    },
    /// Keys named by a source outside the engine (the command line's `--keys @FILE`: one
    /// key per line, read from the file again when names are needed, never all held).
    External(Source),
}

/// Where the names of an external key set come from.
pub trait KeySource: fmt::Debug + Send + Sync {
    /// How many keys.
    fn len(&self) -> usize;
    /// Whether there are none (a checked source always has some).
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Writes the name of key `index` into `out` (cleared first); names are asked for in
    /// increasing order most of the time, which a source may make cheap.
    fn write_name(&self, index: u32, out: &mut String);
    /// Calls `each` with the name of every key in `indices`, in that order: a run of keys
    /// asked for at once, which a source may read in one sweep (a key file forward, with
    /// no lock or copy per key).
    fn for_each_name(&self, indices: &mut dyn Iterator<Item = u32>, each: &mut dyn FnMut(&str)) {
        let mut name = String::new();
        for index in indices {
            self.write_name(index, &mut name);
            each(&name);
        }
    }
    /// How the set is written back (`@FILE`).
    fn describe(&self) -> &str;
}

/// A shared external source: equal only to itself.
#[derive(Clone, Debug)]
pub struct Source(pub std::sync::Arc<dyn KeySource>);

impl PartialEq for Source {
    fn eq(&self, other: &Source) -> bool {
        std::sync::Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Source {}

fn parse_count(text: &str, which: KeyNumber) -> Result<u64, Problem> {
    text.trim()
        .parse::<u64>()
        .map_err(|_| Problem::KeyNotNumber {
            which,
            given: quote(text),
        })
}

fn check_count(count: u64) -> Result<(), Problem> {
    if count == 0 {
        return Err(Problem::KeySetEmpty);
    }
    if count > MAX_KEYS {
        return Err(Problem::TooManyKeys {
            count,
            max: MAX_KEYS,
        });
    }
    Ok(())
}

/// The most keys a pasted key list may hold: the list lives in the page's link.
pub const MAX_PASTED_KEYS: usize = 10_000;

/// A pasted key list, one key per line (spaces around a key and blank lines dropped), as
/// the `list:` key set the page's link carries: what is wrong is said with its line.
pub fn list_from_lines(text: &str) -> Result<KeySpec, Problem> {
    run_to_end(list_from_lines_paced(text, &mut Pace::unlimited()))
}

/// [`list_from_lines`] at `pace` (the page reads a long paste in steps).
pub async fn list_from_lines_paced(text: &str, pace: &mut Pace) -> Result<KeySpec, Problem> {
    let mut keys = Vec::new();
    pace.begin(text.len());
    for (n, line) in text.lines().enumerate() {
        pace.tick(line.len() + 1).await;
        let key = line.trim();
        if key.is_empty() {
            continue;
        }
        let on_line = |problem| Problem::OnLine {
            line: n + 1,
            problem: Box::new(problem),
        };
        if key.len() > MAX_KEY_LEN {
            return Err(on_line(Problem::KeyListItem {
                max: MAX_KEY_LEN,
                given: quote(key),
            }));
        }
        if let Some(hidden) = first_hidden(key) {
            return Err(on_line(Problem::KeyListHidden { hidden }));
        }
        if key.contains(',') {
            return Err(on_line(Problem::KeyHasComma { given: quote(key) }));
        }
        keys.push(key.to_owned());
        if keys.len() > MAX_PASTED_KEYS {
            // The count said is the paste's (its lines from here are only counted).
            let rest = text[line_end(text, line)..].lines();
            let mut count = keys.len();
            for more in rest {
                pace.tick(more.len() + 1).await;
                count += usize::from(!more.trim().is_empty());
            }
            return Err(Problem::TooManyKeys {
                count: count as u64,
                max: MAX_PASTED_KEYS as u64,
            });
        }
    }
    if keys.is_empty() {
        return Err(Problem::KeySetEmpty);
    }
    Ok(KeySpec::List(keys.into()))
}

/// The byte offset in `text` just past `line`, a line `text.lines()` gave.
fn line_end(text: &str, line: &str) -> usize {
    let start = line.as_ptr() as usize - text.as_ptr() as usize;
    let end = start + line.len();
    // Past the line break too (`\n` or `\r\n`).
    match text[end..].find('\n') {
        Some(i) => end + i + 1,
        None => text.len(),
    }
}

impl KeySpec {
    /// Parses the text form.
    pub fn parse(text: &str) -> Result<KeySpec, Problem> {
        run_to_end(KeySpec::parse_paced(text, &mut Pace::unlimited()))
    }

    /// [`KeySpec::parse`] at `pace` (a scenario file's list of a million keys is read in
    /// steps by the page).
    pub async fn parse_paced(text: &str, pace: &mut Pace) -> Result<KeySpec, Problem> {
        let text = text.trim();
        if let Some(list) = text.strip_prefix("list:") {
            pace.begin(list.len());
            let mut keys: Vec<String> = Vec::new();
            // Every item's length is checked before any is searched for hidden characters
            // (the first problem said is the same whatever the list's size).
            for key in list.split(',') {
                pace.tick(key.len() + 1).await;
                if key.is_empty() || key.len() > MAX_KEY_LEN {
                    return Err(Problem::KeyListItem {
                        max: MAX_KEY_LEN,
                        given: quote(key),
                    });
                }
                keys.push(key.to_owned());
            }
            for key in &keys {
                pace.tick(key.len() + 1).await;
                if let Some(hidden) = first_hidden(key) {
                    return Err(Problem::KeyListHidden { hidden });
                }
            }
            check_count(keys.len() as u64)?;
            return Ok(KeySpec::List(keys.into()));
        }
        if let Some(count) = text.strip_prefix("random:") {
            let count = parse_count(count, KeyNumber::Count)?;
            check_count(count)?;
            return Ok(KeySpec::Random { count });
        }
        let (template, range) = match text.rfind(':') {
            Some(colon) => (Some(&text[..colon]), &text[colon + 1..]),
            None => (None, text),
        };
        let Some((a, b)) = range.split_once("..") else {
            return Err(Problem::KeySyntax { given: quote(text) });
        };
        let (start, end) = (
            parse_count(a, KeyNumber::RangeStart)?,
            parse_count(b, KeyNumber::RangeEnd)?,
        );
        if end <= start {
            return Err(Problem::EmptyRange { start, end });
        }
        check_count(end - start)?;
        let pieces = match template {
            None => vec![String::new(), String::new()],
            Some(t) => {
                if !t.contains("{i}") {
                    return Err(Problem::PatternNeedsIndex { given: quote(t) });
                }
                if let Some(hidden) = first_hidden(t) {
                    return Err(Problem::PatternHidden { hidden });
                }
                if t.len() > MAX_KEY_LEN {
                    return Err(Problem::TemplateTooLong { max: MAX_KEY_LEN });
                }
                t.split("{i}").map(str::to_owned).collect()
            }
        };
        Ok(KeySpec::Range { pieces, start, end })
    }

    /// How many keys the set holds.
    pub fn len(&self) -> usize {
        match self {
            KeySpec::Range { start, end, .. } => (end - start) as usize,
            KeySpec::List(keys) => keys.len(),
            KeySpec::Random { count } => *count as usize,
            KeySpec::External(source) => source.0.len(),
        }
    }

    /// Always false: a parsed spec is never empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Writes the name of key `index` (0-based) into `out`, replacing its contents.
    pub fn write_name(&self, index: u32, seed: u64, out: &mut String) {
        out.clear();
        match self {
            KeySpec::Range { pieces, start, .. } => {
                let mut digits = itoa::Buffer::new();
                let number = digits.format(start + u64::from(index));
                for (n, piece) in pieces.iter().enumerate() {
                    if n > 0 {
                        out.push_str(number);
                    }
                    out.push_str(piece);
                }
            }
            KeySpec::List(keys) => out.push_str(&keys[index as usize]),
            KeySpec::External(source) => source.0.write_name(index, out),
            KeySpec::Random { .. } => {
                // `r` and the top 48 bits in 12 lower-case hex digits, written by hand: the
                // formatter costs more than the rest of naming, a million times per change.
                let value = splitmix64(seed ^ u64::from(index).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                // (A plain loop: the page is built for size, where iterator adapters stay calls.)
                let mut name = [b'r'; 13];
                let mut rest = value >> 16;
                let mut i = 12;
                while i > 0 {
                    name[i] = b"0123456789abcdef"[(rest & 0xF) as usize];
                    rest >>= 4;
                    i -= 1;
                }
                out.push_str(std::str::from_utf8(&name).unwrap_or_default());
            }
        }
    }

    /// Calls `each` with the name of every key in `indices`, in that order (a key file
    /// reads such a run in one sweep).
    pub fn for_each_name(
        &self,
        mut indices: impl Iterator<Item = u32>,
        seed: u64,
        mut each: impl FnMut(&str),
    ) {
        if let KeySpec::External(source) = self {
            return source.0.for_each_name(&mut indices, &mut each);
        }
        let mut name = String::new();
        for index in indices {
            self.write_name(index, seed, &mut name);
            each(&name);
        }
    }

    /// The name of key `index`.
    pub fn name(&self, index: u32, seed: u64) -> String {
        let mut out = String::new();
        self.write_name(index, seed, &mut out);
        out
    }
}

impl fmt::Display for KeySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KeySpec::Range { pieces, start, end } => {
                if pieces.iter().all(String::is_empty) && pieces.len() == 2 {
                    write!(f, "{start}..{end}")
                } else {
                    write!(f, "{}:{start}..{end}", pieces.join("{i}"))
                }
            }
            KeySpec::List(keys) => write!(f, "list:{}", keys.join(",")),
            KeySpec::Random { count } => write!(f, "random:{count}"),
            KeySpec::External(source) => write!(f, "@{}", source.0.describe()),
        }
    }
}

/// SplitMix64: a tiny, well-known mixing function for deterministic pseudo-random keys.
pub fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[cfg(test)]
mod random_names {
    use super::*;

    #[test]
    fn random_names_are_r_and_twelve_hex_digits_of_the_top_48_bits() {
        let spec = KeySpec::parse("random:1000").unwrap();
        for index in [0u32, 1, 999] {
            let value = splitmix64(7 ^ u64::from(index).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            assert_eq!(spec.name(index, 7), format!("r{:012x}", value >> 16));
        }
    }
}

/// What a per-key algorithm reads of a key's name: a 64-bit value, the same for every
/// placement of the algorithm (whatever its servers). Two are the same value when their
/// ids are.
#[derive(Clone, Copy, Debug)]
pub struct KeyValue {
    /// Which value it is (`digest`, `xxh64`, …).
    pub id: &'static str,
    /// The value of a key under the scenario's hash.
    pub of: fn(crate::engine::hash::HashFn, &str) -> u64,
}

impl PartialEq for KeyValue {
    fn eq(&self, other: &KeyValue) -> bool {
        self.id == other.id
    }
}

impl Eq for KeyValue {}

/// The scenario hash's digest ([`crate::engine::hash::key_digest`]): xxh3-64, or the key's
/// own number under the identity hash — what the bucket algorithms read.
pub const DIGEST: KeyValue = KeyValue {
    id: "digest",
    of: crate::engine::hash::key_digest,
};

/// Keys sorted by ring position: `positions[k]` is the position of key `ids[k]`.
/// Ties keep index order, so the layout is a pure function of the spec and the hash.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KeySet {
    /// Ring positions, ascending.
    pub positions: Vec<u32>,
    /// The key index (into the spec) at each sorted place.
    pub ids: Vec<u32>,
    /// Each key's value by sorted place, when an algorithm reads one 64-bit value of a
    /// key's name (empty otherwise), and which value under which hash it is.
    pub values: Vec<u64>,
    /// Which value `values` holds, under which hash.
    pub value_of: Option<(KeyValue, HashFn)>,
}

impl KeySet {
    /// Hashes every key of `spec` with `position_of` and sorts by position.
    pub fn build(
        spec: &KeySpec,
        seed: u64,
        mut position_of: impl FnMut(&str) -> Result<u32, HashError>,
    ) -> Result<KeySet, HashError> {
        let n = spec.len();
        let mut pairs: Vec<(u32, u32)> = Vec::with_capacity(n);
        let mut name = String::new();
        for index in 0..n as u32 {
            spec.write_name(index, seed, &mut name);
            pairs.push((position_of(&name)?, index));
        }
        Ok(KeySet::from_pairs(pairs))
    }

    /// The layout of (position, key index) pairs given in index order.
    pub fn from_pairs(mut pairs: Vec<(u32, u32)>) -> KeySet {
        // Stable radix sort: equal positions keep index order.
        radsort::sort_by_key(&mut pairs, |&(position, _)| position);
        let (positions, ids) = pairs.into_iter().unzip();
        KeySet {
            positions,
            ids,
            values: Vec::new(),
            value_of: None,
        }
    }

    /// The layout with each key's value (given by key index) kept by place.
    pub fn with_values(mut self, by_index: &[u64], value_of: (KeyValue, HashFn)) -> KeySet {
        self.values = self.ids.iter().map(|&id| by_index[id as usize]).collect();
        self.value_of = Some(value_of);
        self
    }

    /// Where each key sits: `places_by_id()[id]` is the place of key `id` (the inverse of
    /// `ids`), for work that goes through the keys in the order of their ids.
    pub fn places_by_id(&self) -> Vec<u32> {
        let mut places = vec![0u32; self.ids.len()];
        for (place, &id) in self.ids.iter().enumerate() {
            places[id as usize] = place as u32;
        }
        places
    }

    /// The keys' values by place, when they are `wanted`'s.
    pub fn values_of(&self, wanted: Option<(KeyValue, HashFn)>) -> Option<&[u64]> {
        (wanted.is_some() && wanted == self.value_of).then_some(self.values.as_slice())
    }

    /// Number of keys.
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// True when there are no keys.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// The sorted places of the keys whose positions lie in the half-open arc
    /// `(after, upto]` going clockwise; `after == upto` means the whole circle.
    /// Returned as at most two ranges (the arc may wrap past 2^32−1).
    pub fn places_in_arc(&self, after: u32, upto: u32) -> [std::ops::Range<usize>; 2] {
        let first_above = |p: u32| self.positions.partition_point(|&x| x <= p);
        let n = self.positions.len();
        if after < upto {
            [first_above(after)..first_above(upto), 0..0]
        } else {
            [first_above(after)..n, 0..first_above(upto)]
        }
    }
}

#[cfg(test)]
mod pasted_tests {
    use super::*;

    #[test]
    fn a_pasted_list_keeps_its_keys_and_names_the_bad_line() {
        let spec = list_from_lines("user:1\r\n\n  user:2 \nuser:3\n").unwrap();
        assert_eq!(
            spec,
            KeySpec::List(vec!["user:1".into(), "user:2".into(), "user:3".into()].into())
        );
        // The link's form reads back as the same set.
        assert_eq!(KeySpec::parse(&spec.to_string()).unwrap(), spec);
        let line = |text: &str| list_from_lines(text).unwrap_err().to_string();
        assert_eq!(
            line("a\nb,c\n"),
            "line 2: keys: a key in a link cannot hold a comma, got 'b,c'"
        );
        assert!(line(&format!("a\n\n{}", "x".repeat(201)))
            .starts_with("line 3: keys: list items must be 1..=200"));
        assert!(
            line("ok\nzero\u{200b}width").starts_with("line 2: keys: list items must not contain")
        );
        let many: String = (0..10_001).map(|i| format!("k{i}\n")).collect();
        assert_eq!(
            list_from_lines(&many).unwrap_err(),
            Problem::TooManyKeys {
                count: 10_001,
                max: 10_000
            }
        );
        assert_eq!(
            list_from_lines("\n \r\n").unwrap_err(),
            Problem::KeySetEmpty
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form_and_prints_it_back() {
        for text in [
            "0..50000",
            "key-{i}:0..1000",
            "list:a,b,c",
            "random:500",
            "u{i}x{i}:5..7",
        ] {
            let spec = KeySpec::parse(text).unwrap();
            assert_eq!(spec.to_string(), text);
        }
        let spec = KeySpec::parse("u{i}x{i}:5..7").unwrap();
        assert_eq!(spec.name(1, 0), "u6x6");
        assert_eq!(KeySpec::parse("10..13").unwrap().name(2, 0), "12");
    }

    #[test]
    fn rejects_malformed_specs_with_a_reason() {
        for (text, needle) in [
            ("", "expected"),
            ("5..5", "empty"),
            ("9..3", "empty"),
            ("a..3", "not a whole number"),
            ("key:0..10", "{i}"),
            ("list:a,,b", "list items"),
            ("random:0", "empty"),
            ("random:x", "not a whole number"),
            ("0..99999999999", "limit"),
        ] {
            let err = KeySpec::parse(text).unwrap_err().to_string();
            assert!(err.contains(needle), "{text}: {err}");
        }
    }

    #[test]
    fn random_keys_are_deterministic_per_seed() {
        let spec = KeySpec::parse("random:3").unwrap();
        assert_eq!(spec.name(0, 7), spec.name(0, 7));
        assert_ne!(spec.name(0, 7), spec.name(0, 8));
        assert_ne!(spec.name(0, 7), spec.name(1, 7));
    }

    #[test]
    fn arcs_select_contiguous_runs_and_wrap() {
        let spec = KeySpec::parse("list:10,20,30,40").unwrap();
        let set = KeySet::build(&spec, 0, |k| Ok(k.parse().unwrap())).unwrap();
        assert_eq!(set.places_in_arc(10, 30), [1..3, 0..0]);
        assert_eq!(set.places_in_arc(30, 10), [3..4, 0..1]);
        // The whole circle.
        assert_eq!(set.places_in_arc(20, 20), [2..4, 0..2]);
    }
}
