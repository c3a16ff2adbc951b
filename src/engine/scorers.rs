//! The per-key scorers, rendezvous (highest random weight) and seed 004's CARP: every live
//! server scores every key and the best score wins, so a lookup costs one hash per server.
//!
//! **Keeping the winners' ranks.** A simulation keeps each key's winning score as one
//! number, its [`Rank`] (8 bytes a key). A server that joins then needs only its own score
//! for each key, compared with the kept rank (Thaler & Ravishankar's "only the newcomer can
//! win"), and a server that leaves needs only its own keys scored again. Keys come in
//! batches ([`Ranked`]), so that CARP digests four `server + key` at once.

pub use super::contract::{Best, Rank, Ranked, Scale, Score};
use super::contract::{Explanation, How, LiveServer, Placement};
use super::hash::HashFn;
use super::ring::{ServerId, NO_OWNER};

impl Score {
    /// The score as a [`Rank`]: larger when better under `best`. Hashes and the first 8
    /// bytes of a digest read as unsigned numbers; a weighted score is a positive `f64`
    /// (`−w / ln u` with `u < 1`), whose bits order as its values do.
    pub fn rank(&self, best: Best) -> Rank {
        let raw = match self {
            Score::Hash(h) => u64::from(*h),
            Score::Weighted { score, .. } => score.to_bits(),
            Score::Digest(d) => {
                u64::from_be_bytes([d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]])
            }
            Score::Straw2(d) => (*d as u64) ^ (1 << 63),
        };
        match best {
            Best::Highest => raw,
            Best::Lowest => !raw,
        }
    }

    /// True when `self` beats `other` under `best` (a tie does not beat).
    pub fn beats(&self, other: &Score, best: Best) -> bool {
        let order = match (self, other) {
            (Score::Hash(a), Score::Hash(b)) => a.partial_cmp(b),
            (Score::Weighted { score: a, .. }, Score::Weighted { score: b, .. }) => {
                a.partial_cmp(b)
            }
            (Score::Digest(a), Score::Digest(b)) => a.partial_cmp(b),
            (Score::Straw2(a), Score::Straw2(b)) => a.partial_cmp(b),
            _ => None,
        };
        match best {
            Best::Highest => order == Some(std::cmp::Ordering::Greater),
            Best::Lowest => order == Some(std::cmp::Ordering::Less),
        }
    }
}

/// The first of `scores` that nothing later beats: the winner under `best`, with its score.
fn top_score(
    scores: impl Iterator<Item = (ServerId, Score)>,
    best: Best,
) -> Option<(ServerId, Score)> {
    let mut top: Option<(ServerId, Score)> = None;
    for (id, score) in scores {
        if top.is_none_or(|(_, t)| score.beats(&t, best)) {
            top = Some((id, score));
        }
    }
    top
}

/// Each server id's index in `servers` (`u16::MAX` for ids not among them), so that a
/// challenge finds its two servers without scanning the list for every key.
fn list_order(servers: &[LiveServer]) -> Vec<u16> {
    let len = servers
        .iter()
        .map(|s| usize::from(s.id) + 1)
        .max()
        .unwrap_or(0);
    let mut order = vec![u16::MAX; len];
    for (i, s) in servers.iter().enumerate() {
        order[usize::from(s.id)] = i as u16;
    }
    order
}

/// Bytes of a list of live servers as the per-key algorithms keep it.
fn servers_bytes(servers: &[LiveServer]) -> usize {
    servers
        .iter()
        .map(|s| std::mem::size_of::<LiveServer>() + s.name.len())
        .sum()
}

/// What rendezvous and CARP differ in: how a server scores a key, and which end wins.
pub trait ServerScore {
    /// Whether the highest or the lowest score wins.
    const BEST: Best;
    /// The scale of its scores' ranks.
    fn scale(&self) -> Scale;
    /// Server `s`'s score for `key`; `joined` is scratch space for `server + key`.
    fn score(&self, s: &LiveServer, key: &str, joined: &mut String) -> Score;

    /// Appends to `out` the score of each (server, key) pair, in order: one at a time,
    /// unless the scorer can do several at once.
    fn score_pairs(&self, pairs: &[(&LiveServer, &str)], out: &mut Vec<Score>) {
        let mut joined = String::new();
        out.extend(pairs.iter().map(|(s, key)| self.score(s, key, &mut joined)));
    }
}

/// Highest random weight: the server with the largest `hash(server + key)` wins; weighted
/// servers score `−weight / ln(h / 2^32)`. The first server in list order wins ties.
pub struct HighestRandomWeight {
    /// The hash applied to `server + key`.
    pub hash: HashFn,
    /// True when any weight differs from 1 (scores are then weighted).
    pub weighted: bool,
}

impl ServerScore for HighestRandomWeight {
    const BEST: Best = Best::Highest;

    fn scale(&self) -> Scale {
        if self.weighted {
            Scale::Weighted
        } else {
            Scale::Hash
        }
    }

    fn score(&self, s: &LiveServer, key: &str, joined: &mut String) -> Score {
        joined.clear();
        joined.push_str(&s.name);
        joined.push_str(key);
        // Identity is rejected for rendezvous by scenario validation; 0 is a safe fallback.
        let hash = self.hash.position(joined).unwrap_or(0);
        if self.weighted {
            let unit = f64::from(hash) / 4_294_967_296.0;
            Score::Weighted {
                hash,
                weight: s.weight,
                score: -s.weight / unit.ln(),
            }
        } else {
            Score::Hash(hash)
        }
    }
}

/// Seed 004: MD5 of `server + key` compared as 16 raw bytes; the smallest digest wins, the
/// first server on ties. (The seed's prose says "max", its code takes the min; we follow the
/// code.) The scenario's hash function only places keys on the drawing.
pub struct CarpScore;

impl ServerScore for CarpScore {
    const BEST: Best = Best::Lowest;

    fn scale(&self) -> Scale {
        Scale::Digest
    }

    fn score(&self, s: &LiveServer, key: &str, _joined: &mut String) -> Score {
        Score::Digest(short_md5::md5_concat(s.name.as_bytes(), key.as_bytes()))
    }

    /// Four digests at a time ([`short_md5::md5_concat4`]).
    fn score_pairs(&self, pairs: &[(&LiveServer, &str)], out: &mut Vec<Score>) {
        let mut fours = pairs.chunks_exact(4);
        for four in &mut fours {
            let digests = short_md5::md5_concat4([0, 1, 2, 3].map(|i| pair_bytes(&four[i])));
            out.extend(digests.map(Score::Digest));
        }
        let rest = fours.remainder().iter().map(|p| {
            let (a, b) = pair_bytes(p);
            Score::Digest(short_md5::md5_concat(a, b))
        });
        out.extend(rest);
    }
}

/// A (server, key) pair as the bytes CARP digests.
fn pair_bytes<'a>((s, key): &(&'a LiveServer, &'a str)) -> (&'a [u8], &'a [u8]) {
    (s.name.as_bytes(), key.as_bytes())
}

/// A per-key scorer over the live servers: every server scores the key, the best wins.
pub struct Scorers<S> {
    /// Live servers in list order.
    pub servers: Vec<LiveServer>,
    /// Each server id's index in `servers` ([`list_order`]).
    pub order: Vec<u16>,
    /// How a server scores a key.
    pub scorer: S,
}

impl<S> Scorers<S> {
    /// `scorer` over `servers`.
    pub fn new(servers: Vec<LiveServer>, scorer: S) -> Scorers<S> {
        Scorers {
            order: list_order(&servers),
            servers,
            scorer,
        }
    }

    /// Where the live server `id` stands in the list.
    fn index(&self, id: ServerId) -> Option<usize> {
        self.order
            .get(usize::from(id))
            .map(|&i| usize::from(i))
            .filter(|&i| i < self.servers.len())
    }
}

impl<S: ServerScore> Placement for Scorers<S> {
    fn memory_bytes(&self) -> usize {
        servers_bytes(&self.servers)
    }

    fn owner(&self, key: &str, _position: u32) -> ServerId {
        let mut joined = String::new();
        let scores = self
            .servers
            .iter()
            .map(|s| (s.id, self.scorer.score(s, key, &mut joined)));
        top_score(scores, S::BEST).map_or(NO_OWNER, |t| t.0)
    }

    fn explain(&self, key: &str, position: u32) -> Explanation {
        let mut joined = String::new();
        let scores: Vec<(ServerId, Score)> = self
            .servers
            .iter()
            .map(|s| (s.id, self.scorer.score(s, key, &mut joined)))
            .collect();
        Explanation {
            position,
            owner: top_score(scores.iter().copied(), S::BEST).map_or(NO_OWNER, |t| t.0),
            how: How::BestScore {
                best: S::BEST,
                scores,
            },
        }
    }

    fn ranked(&self) -> Option<&dyn Ranked> {
        Some(self)
    }
}

impl<S: ServerScore> Ranked for Scorers<S> {
    fn scale(&self) -> Scale {
        self.scorer.scale()
    }

    fn owners_ranked(&self, keys: &[&str], out: &mut Vec<(ServerId, Rank)>) {
        let mut pairs = Vec::with_capacity(self.servers.len());
        let mut scores = Vec::with_capacity(self.servers.len());
        for key in keys {
            pairs.clear();
            pairs.extend(self.servers.iter().map(|s| (s, *key)));
            scores.clear();
            self.scorer.score_pairs(&pairs, &mut scores);
            let ids = self.servers.iter().map(|s| s.id);
            let top = top_score(ids.zip(scores.iter().copied()), S::BEST);
            out.push(top.map_or((NO_OWNER, 0), |(id, score)| (id, score.rank(S::BEST))));
        }
    }

    fn challenges(
        &self,
        keys: &[&str],
        held: &[(ServerId, Rank)],
        challenger: ServerId,
        out: &mut Vec<(ServerId, Rank)>,
    ) {
        let Some(c) = self.index(challenger) else {
            return self.owners_ranked(keys, out);
        };
        let mut joined = String::new();
        let newcomer = &self.servers[c];
        let pairs: Vec<(&LiveServer, &str)> = keys.iter().map(|key| (newcomer, *key)).collect();
        let mut scores = Vec::with_capacity(pairs.len());
        self.scorer.score_pairs(&pairs, &mut scores);
        for ((key, &(holder, kept)), score) in keys.iter().zip(held).zip(scores) {
            let Some(h) = self.index(holder) else {
                self.owners_ranked(&[key], out);
                continue;
            };
            let rank = score.rank(S::BEST);
            let challenger_wins = if rank != kept {
                rank > kept
            } else {
                // Equal ranks: compare the whole scores; the earlier server in the list
                // wins a tie.
                let kept = self.scorer.score(&self.servers[h], key, &mut joined);
                if c < h {
                    !kept.beats(&score, S::BEST)
                } else {
                    score.beats(&kept, S::BEST)
                }
            };
            out.push(if challenger_wins {
                (challenger, rank)
            } else {
                (holder, kept)
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Scores that tie often (a hash cut to 0..3), so that ties and their list-order
    /// tie-break are exercised.
    struct Coarse;

    impl ServerScore for Coarse {
        const BEST: Best = Best::Highest;

        fn scale(&self) -> Scale {
            Scale::Hash
        }

        fn score(&self, s: &LiveServer, key: &str, joined: &mut String) -> Score {
            joined.clear();
            joined.push_str(&s.name);
            joined.push_str(key);
            Score::Hash(HashFn::Xxh3.position(joined).unwrap_or(0) % 3)
        }
    }

    fn live(names: &[String]) -> Vec<LiveServer> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| LiveServer {
                id: i as ServerId,
                name: n.clone(),
                weight: 1.0,
                slot: i as u32,
            })
            .collect()
    }

    proptest! {
        /// A rank orders scores as `beats` does: a higher rank always beats, and a score
        /// that beats never ranks lower.
        #[test]
        fn ranks_order_scores_as_they_compare(
            a in any::<u32>(), b in any::<u32>(),
            da in any::<[u8; 16]>(), db in any::<[u8; 16]>(),
            wa in 0.1f64..10.0, wb in 0.1f64..10.0,
        ) {
            let weighted = |hash: u32, weight: f64| Score::Weighted {
                hash,
                weight,
                score: -weight / (f64::from(hash) / 4_294_967_296.0).ln(),
            };
            let pairs = [
                (Score::Hash(a), Score::Hash(b)),
                (Score::Digest(da), Score::Digest(db)),
                (Score::Digest(da), Score::Digest({ let mut d = da; d[15] = db[15]; d })),
                (weighted(a, wa), weighted(b, wb)),
                (weighted(0, wa), weighted(b, wb)),
            ];
            for (x, y) in pairs {
                for best in [Best::Highest, Best::Lowest] {
                    if x.rank(best) > y.rank(best) {
                        prop_assert!(x.beats(&y, best), "{x:?} {y:?} {best:?}");
                    }
                    if x.beats(&y, best) {
                        prop_assert!(x.rank(best) >= y.rank(best), "{x:?} {y:?} {best:?}");
                    }
                }
            }
        }

        /// A newcomer challenging each key's holder with the holder's kept rank finds the
        /// owner a full scoring finds, ties included, wherever the newcomer stands in the list.
        #[test]
        fn a_challenge_equals_scoring_everyone(
            count in 1usize..6,
            at in 0usize..6,
            keys in prop::collection::vec("[a-z0-9]{1,6}", 1..40),
        ) {
            let names: Vec<String> = (0..=count).map(|i| format!("s{i}")).collect();
            let all = live(&names);
            let newcomer = all[count].id;
            let mut before = all[..count].to_vec();
            let mut after = before.clone();
            after.insert(at.min(count), all[count].clone());
            before.sort_by_key(|s| s.id);
            let (before, after) = (Scorers::new(before, Coarse), Scorers::new(after, Coarse));
            let keys: Vec<&str> = keys.iter().map(String::as_str).collect();
            let (mut held, mut challenged, mut fresh) = (Vec::new(), Vec::new(), Vec::new());
            before.owners_ranked(&keys, &mut held);
            after.challenges(&keys, &held, newcomer, &mut challenged);
            after.owners_ranked(&keys, &mut fresh);
            prop_assert_eq!(challenged, fresh);
        }
    }
}
