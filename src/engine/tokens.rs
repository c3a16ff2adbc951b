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

use std::sync::{Arc, OnceLock};

use super::order;
use super::pace::{run_to_end, Pace};
use crate::problem::Problem;
use crate::text::quote;

/// Each server's given tokens, by its place in the server list (shared: a change copies
/// the configuration, not the tokens).
#[derive(Clone, Debug)]
pub struct TokenMap(Arc<Tokens>);

#[derive(Debug)]
struct Tokens {
    entries: Vec<Vec<i64>>,
    /// The first token held twice (with the places of its two holders), once looked for:
    /// a million tokens are sorted once, not at every change that checks the scenario.
    held_twice: OnceLock<Option<(i64, usize, usize)>>,
}

impl PartialEq for TokenMap {
    fn eq(&self, other: &TokenMap) -> bool {
        self.0.entries == other.0.entries
    }
}

impl Eq for TokenMap {}

impl TokenMap {
    /// Reads a `tokens=` value (syntax only: [`TokenMap::check`] checks it against the
    /// servers).
    pub fn parse(text: &str) -> Result<TokenMap, Problem> {
        run_to_end(TokenMap::parse_paced(text, &mut Pace::unlimited()))
    }

    /// [`TokenMap::parse`] at `pace` (a file's million tokens are read in steps by the page).
    pub async fn parse_paced(text: &str, pace: &mut Pace) -> Result<TokenMap, Problem> {
        pace.begin(text.len());
        let mut entries = Vec::new();
        for entry in text.split(',') {
            let mut tokens = Vec::new();
            if !entry.trim().is_empty() {
                for t in entry.split('+') {
                    pace.tick(t.len() + 1).await;
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
        TokenMap(Arc::new(Tokens {
            entries,
            held_twice: OnceLock::new(),
        }))
    }

    /// Checks the map against the servers (`names`, in list order): one entry each, at most
    /// `limit` tokens in all, no token held twice.
    pub fn check(&self, names: &[&str], limit: usize) -> Result<(), Problem> {
        run_to_end(self.check_paced(names, limit, &mut Pace::unlimited()))
    }

    /// [`TokenMap::check`] at `pace`.
    pub async fn check_paced(
        &self,
        names: &[&str],
        limit: usize,
        pace: &mut Pace,
    ) -> Result<(), Problem> {
        let entries = &self.0.entries;
        if entries.len() != names.len() {
            return Err(Problem::EntriesPerServer {
                param: "tokens",
                given: entries.len(),
                servers: names.len(),
            });
        }
        let count: usize = entries.iter().map(Vec::len).sum();
        if count > limit {
            return Err(Problem::TooManyTokens { limit });
        }
        let held_twice = match self.0.held_twice.get() {
            Some(found) => *found,
            None => {
                let found = first_held_twice(entries, count, pace).await;
                *self.0.held_twice.get_or_init(|| found)
            }
        };
        match held_twice {
            Some((token, first, second)) => Err(Problem::TokenHeldTwice {
                token,
                first: quote(names[first]),
                second: quote(names[second]),
            }),
            None => Ok(()),
        }
    }

    /// Every server's entry, in list order.
    pub fn entries(&self) -> &[Vec<i64>] {
        &self.0.entries
    }

    /// One server's entry as the `tokens=` value writes it (`-12+40`).
    pub fn entry_text(tokens: &[i64]) -> String {
        let mut text = String::new();
        for (i, token) in tokens.iter().enumerate() {
            if i > 0 {
                text.push('+');
            }
            text.push_str(&token.to_string());
        }
        text
    }

    /// The tokens given to the server at `index` of the list (None: it draws its own).
    pub fn of(&self, index: usize) -> Option<&[i64]> {
        self.0
            .entries
            .get(index)
            .filter(|t| !t.is_empty())
            .map(Vec::as_slice)
    }

    /// The token count most given nodes have (what a node added to the cluster gets; a tie
    /// goes to the count seen first), or None when no node has tokens.
    pub fn common_count(&self) -> Option<usize> {
        // (count, nodes with it): clusters have one count or a few.
        let mut seen: Vec<(usize, usize)> = Vec::new();
        for n in self.0.entries.iter().map(Vec::len).filter(|&n| n > 0) {
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
        let mut entries = self.0.entries.to_vec();
        entries.push(Vec::new());
        TokenMap::new(entries)
    }

    /// The map after the server at `index` has left the list; None once no server has given
    /// tokens.
    pub fn removed(&self, index: usize) -> Option<TokenMap> {
        let mut entries = self.0.entries.to_vec();
        if index < entries.len() {
            entries.remove(index);
        }
        entries
            .iter()
            .any(|t| !t.is_empty())
            .then(|| TokenMap::new(entries))
    }
}

/// The first token (in ring order) that two entries hold, with the places of the two.
async fn first_held_twice(
    entries: &[Vec<i64>],
    count: usize,
    pace: &mut Pace,
) -> Option<(i64, usize, usize)> {
    pace.begin(count * 3);
    let mut all: Vec<(i64, u32)> = Vec::with_capacity(count);
    for (server, tokens) in entries.iter().enumerate() {
        pace.tick(tokens.len()).await;
        all.extend(tokens.iter().map(|&t| (t, server as u32)));
    }
    // The one long step: a linear radix sort (a million tokens: ~20 ms of the page).
    order::sort_by_key(&mut all, |p| p.0 as u64);
    pace.tick(count).await;
    let twice = all.windows(2).find(|w| w[0].0 == w[1].0);
    pace.tick(count).await;
    twice.map(|w| (w[0].0, w[0].1 as usize, w[1].1 as usize))
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
        for (server, tokens) in self.0.entries.iter().enumerate() {
            if server > 0 {
                f.write_str(",")?;
            }
            f.write_str(&TokenMap::entry_text(tokens))?;
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
