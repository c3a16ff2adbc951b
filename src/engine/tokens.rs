//! A Cassandra cluster's own tokens as a scenario writes them (`tokens=`): for each server of
//! the list, in list order, its tokens — signed 64-bit numbers as `nodetool ring` prints
//! them — joined by `+`, with `,` between servers. An empty entry is a node whose tokens are
//! drawn (one added later: a real node bootstraps with tokens of its own). A pasted `nodetool
//! ring` reaches a link this way, so the link reproduces the cluster's ring exactly instead
//! of drawing every node's tokens from its name and the seed.
//!
//! The map follows the server list through changes: a node added gets an empty entry, a node
//! removed takes its entry along (added again, it draws new tokens, as a node that rejoins
//! does).

use std::sync::Arc;

use super::order;
use super::text::quote;
use crate::problem::Problem;

/// Each server's given tokens, by its place in the server list (shared: a change copies
/// the configuration, not the tokens).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenMap(Arc<Vec<Vec<i64>>>);

impl TokenMap {
    /// Reads a `tokens=` value (syntax only: [`TokenMap::check`] checks it against the
    /// servers).
    pub fn parse(text: &str) -> Result<TokenMap, Problem> {
        let mut entries = Vec::new();
        for entry in text.split(',') {
            let mut tokens = Vec::new();
            if !entry.trim().is_empty() {
                for t in entry.split('+') {
                    let t = t.trim();
                    tokens.push(
                        parse_token(t).ok_or_else(|| Problem::TokensSyntax { given: quote(t) })?,
                    );
                }
            }
            entries.push(tokens);
        }
        Ok(TokenMap::new(entries))
    }

    /// A map of these entries, one per server in list order.
    pub fn new(entries: Vec<Vec<i64>>) -> TokenMap {
        TokenMap(Arc::new(entries))
    }

    /// Checks the map against the servers (`names`, in list order): one entry each, at most
    /// `limit` tokens in all, no token held twice.
    pub fn check(&self, names: &[&str], limit: usize) -> Result<(), Problem> {
        if self.0.len() != names.len() {
            return Err(Problem::EntriesPerServer {
                param: "tokens",
                given: self.0.len(),
                servers: names.len(),
            });
        }
        let mut all: Vec<(i64, usize)> = Vec::new();
        for (server, tokens) in self.0.iter().enumerate() {
            all.extend(tokens.iter().map(|&t| (t, server)));
        }
        if all.len() > limit {
            return Err(Problem::TooManyTokens { limit });
        }
        order::sort_by_key(&mut all, |p| p.0 as u64);
        match all.windows(2).find(|w| w[0].0 == w[1].0) {
            Some(w) => Err(Problem::TokenHeldTwice {
                token: w[0].0,
                first: quote(names[w[0].1]),
                second: quote(names[w[1].1]),
            }),
            None => Ok(()),
        }
    }

    /// The tokens given to the server at `index` of the list (None: it draws its own).
    pub fn of(&self, index: usize) -> Option<&[i64]> {
        self.0
            .get(index)
            .filter(|t| !t.is_empty())
            .map(Vec::as_slice)
    }

    /// The token count most given nodes have (what a node added to the cluster gets; a tie
    /// goes to the count seen first), or None when no node has tokens.
    pub fn common_count(&self) -> Option<usize> {
        // (count, nodes with it): clusters have one count or a few.
        let mut seen: Vec<(usize, usize)> = Vec::new();
        for n in self.0.iter().map(Vec::len).filter(|&n| n > 0) {
            match seen.iter_mut().find(|s| s.0 == n) {
                Some(s) => s.1 += 1,
                None => seen.push((n, 1)),
            }
        }
        let most = seen.iter().map(|s| s.1).max()?;
        seen.iter().find(|s| s.1 == most).map(|s| s.0)
    }

    /// The map after a server is added at the end of the list (it draws its tokens).
    pub fn pushed(&self) -> TokenMap {
        let mut entries = self.0.to_vec();
        entries.push(Vec::new());
        TokenMap::new(entries)
    }

    /// The map after the server at `index` has left the list; None once no server has given
    /// tokens.
    pub fn removed(&self, index: usize) -> Option<TokenMap> {
        let mut entries = self.0.to_vec();
        if index < entries.len() {
            entries.remove(index);
        }
        entries
            .iter()
            .any(|t| !t.is_empty())
            .then(|| TokenMap::new(entries))
    }
}

/// A token as `nodetool ring` prints it: a signed 64-bit decimal number (read through the
/// unsigned reader the page carries anyway).
pub fn parse_token(text: &str) -> Option<i64> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    if negative && digits.starts_with('+') {
        return None;
    }
    let magnitude: u64 = digits.parse().ok()?;
    match negative {
        false => i64::try_from(magnitude).ok(),
        true if magnitude <= 1 << 63 => Some((magnitude as i64).wrapping_neg()),
        true => None,
    }
}

impl std::fmt::Display for TokenMap {
    /// The `tokens=` value.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (server, tokens) in self.0.iter().enumerate() {
            if server > 0 {
                f.write_str(",")?;
            }
            for (i, token) in tokens.iter().enumerate() {
                if i > 0 {
                    f.write_str("+")?;
                }
                write!(f, "{token}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_writes_the_same_text() {
        let text = "-9223372036854775808+12,,9223372036854775807";
        let map = TokenMap::parse(text).unwrap();
        assert_eq!(map.to_string(), text);
        assert_eq!(map.of(0), Some(&[i64::MIN, 12][..]));
        assert_eq!(map.of(1), None);
        assert_eq!(map.of(2), Some(&[i64::MAX][..]));
        assert_eq!(
            map.common_count(),
            Some(2),
            "a tie goes to the larger count"
        );
        assert_eq!(map.check(&["a", "b", "c"], 3), Ok(()));
    }

    #[test]
    fn tokens_read_as_signed_64_bit_numbers() {
        for text in [
            "0",
            "-0",
            "+7",
            "-1",
            "9223372036854775807",
            "-9223372036854775808",
        ] {
            assert_eq!(parse_token(text), text.parse::<i64>().ok(), "{text}");
        }
        for text in [
            "",
            "-",
            "-+7",
            "+-7",
            "9223372036854775808",
            "-9223372036854775809",
            "1e3",
            " 1",
        ] {
            assert_eq!(parse_token(text), None, "{text}");
        }
    }

    #[test]
    fn what_is_wrong_is_said() {
        let bad = |text: &str| TokenMap::parse(text).unwrap_err().to_string();
        assert!(bad("1+x").ends_with(": 'x'"), "{}", bad("1+x"));
        assert!(bad("9223372036854775808").contains("signed 64-bit"));
        let map = TokenMap::parse("5+7,3+7").unwrap();
        assert_eq!(
            map.check(&["a", "b"], 10).unwrap_err().to_string(),
            "token 7 is held by both 'a' and 'b'"
        );
        assert_eq!(
            TokenMap::parse("3+3")
                .unwrap()
                .check(&["a"], 10)
                .unwrap_err()
                .to_string(),
            "token 3 is listed twice for 'a'"
        );
        assert_eq!(
            map.check(&["a", "b", "c"], 10).unwrap_err().to_string(),
            "tokens has entries for 2 servers; nodes lists 3"
        );
        assert_eq!(
            map.check(&["a", "b"], 3).unwrap_err(),
            Problem::TooManyTokens { limit: 3 }
        );
    }

    #[test]
    fn follows_the_server_list() {
        let map = TokenMap::parse("1+2,3+4").unwrap();
        let added = map.pushed();
        assert_eq!(added.to_string(), "1+2,3+4,");
        assert_eq!(added.of(2), None);
        let removed = added.removed(0).unwrap();
        assert_eq!(removed.to_string(), "3+4,");
        assert_eq!(removed.removed(0), None);
    }
}
