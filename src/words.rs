//! What the page says: titles, one-sentence intros, change summaries, lookup explanations
//! and progress lines, made from the engine's values. The engine says *what* happened
//! ([`Movement`], [`Explanation`]); this module says it in words. Pure and tested natively,
//! so every sentence a user reads is checked without a browser.

use crate::engine::placement::{Algorithm, Best, Explanation, How, Score};
use crate::engine::ring::{ServerId, NO_OWNER};
use crate::engine::sim::{Change, Movement, Phase, Simulation};

/// `12345` → `12,345`.
pub fn group_thousands(v: u64) -> String {
    let digits = v.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `0.2431` → `24.3%`.
pub fn percent(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// The heading shown in the ring's centre and the algorithm menu.
pub fn algorithm_title(algo: Algorithm) -> &'static str {
    match algo {
        Algorithm::Ring => "Consistent-hash ring",
        Algorithm::ModN => "hash mod N",
        Algorithm::Rendezvous => "Rendezvous (HRW)",
        Algorithm::Carp => "CARP (MD5, min)",
        Algorithm::Slots => "Redis Cluster slots",
    }
}

/// One sentence on how the algorithm places a key and what a change will do.
pub fn intro(algo: Algorithm) -> &'static str {
    match algo {
        Algorithm::Ring => "Each key walks clockwise to the first virtual node at or after its hash. Add, remove or fail a server to see which arcs and keys move.",
        Algorithm::ModN => "Each key goes to server number hash(key) mod N. Add or remove a server to change N and watch almost every key move.",
        Algorithm::Rendezvous => "Each key scores every server with hash(server + key) and goes to the highest; a new server takes only the keys it now wins.",
        Algorithm::Carp => "CARP (seed 004): each key goes to the server whose MD5(server + key) is smallest; a new server takes about 1/(N+1) of the keys.",
        Algorithm::Slots => "Redis Cluster: a key's slot is CRC16(key) mod 16384 and each master serves contiguous slot ranges; adding a master moves whole slots to it.",
    }
}

/// The status line while work is under way: "Hashing keys: 300,000 of 1,000,000…".
pub fn progress(phase: Phase, done: usize, total: usize) -> String {
    let what = match phase {
        Phase::HashingKeys => "Hashing keys",
        Phase::PlacingVnodes => "Placing virtual nodes",
        Phase::AssigningKeys | Phase::Done => "Placing keys",
    };
    format!(
        "{what}: {} of {}…",
        group_thousands(done as u64),
        group_thousands(total as u64)
    )
}

/// One sentence for a change, e.g. "Added E: 13,060 of 50,000 keys moved (26.1%; ideal
/// 20.0%) — from A 3,159, B 2,968, C 3,512, D 3,421". `name` names a server id, including
/// servers the change removed or added.
pub fn summarize(change: &Change, m: &Movement, name: &dyn Fn(ServerId) -> String) -> String {
    let what = match change {
        Change::Add { name, .. } => format!("Added {name}"),
        Change::Remove(n) => format!("Removed {n}"),
        Change::Fail(n) => format!("{n} failed"),
        Change::Recover(n) => format!("{n} recovered"),
        Change::SetWeight(n, w) => format!("Weight of {n} set to {w}"),
        Change::SetVnodes(v) => format!("Virtual nodes set to {v}"),
        Change::SetKeys(k) => format!("Keys set to {k}"),
        Change::SetAlgorithm(a) => format!("Switched to {}", algorithm_title(*a)),
        Change::SetHash(h) => format!("Hash switched to {}", h.name()),
    };
    let mut s = format!(
        "{what}: {} of {} keys moved ({}",
        group_thousands(m.moved),
        group_thousands(m.keys),
        percent(m.moved_fraction())
    );
    if let Some(ideal) = m.ideal_fraction {
        s.push_str(&format!("; ideal {}", percent(ideal)));
    }
    s.push(')');
    if m.moved > 0 {
        // Name the side that has several servers: sources on add, targets on remove.
        let sources = dedup(m.flows.iter().map(|f| f.from));
        let targets = dedup(m.flows.iter().map(|f| f.to));
        let by_source = targets.len() == 1 && sources.len() > 1;
        let (word, side) = if by_source {
            ("from", sources)
        } else {
            ("to", targets)
        };
        let list: Vec<String> = side
            .iter()
            .map(|&id| {
                let keys: u64 = m
                    .flows
                    .iter()
                    .filter(|f| (if by_source { f.from } else { f.to }) == id)
                    .map(|f| f.keys)
                    .sum();
                let who = if id == NO_OWNER {
                    "nobody (no server is up)".to_owned()
                } else {
                    name(id)
                };
                format!("{who} {}", group_thousands(keys))
            })
            .collect();
        s.push_str(&format!(" — {word} {}", list.join(", ")));
    }
    s
}

fn dedup(ids: impl Iterator<Item = ServerId>) -> Vec<ServerId> {
    let mut v: Vec<ServerId> = ids.collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// A lookup in words: one sentence, and (for scoring algorithms) a row per server with
/// its score as text and whether it won.
#[derive(Clone, Debug, PartialEq)]
pub struct ExplanationWords {
    /// How the owner was found, in one sentence.
    pub sentence: String,
    /// (server name, score, wins) per live server, for rendezvous and CARP.
    pub scores: Vec<(String, String, bool)>,
}

/// Words for the engine's explanation of `key` in `sim`.
pub fn explain(sim: &Simulation, key: &str, e: &Explanation) -> ExplanationWords {
    let name = |id: ServerId| {
        sim.server(id)
            .map_or_else(|| format!("#{id}"), |s| s.name.clone())
    };
    let hash = sim.settings().hash.name();
    let position = e.position;
    let nobody = "no server is up, so no server owns it";
    let sentence = match &e.how {
        How::FirstPointClockwise { point } => match point {
            Some(p) => format!(
                "{hash} of \"{key}\" = 0x{position:08x}; the first virtual node clockwise is {} at 0x{:08x} → server {}",
                sim.settings().label.render(&name(p.server), p.replica),
                p.position,
                name(p.server)
            ),
            None => format!("{hash} of \"{key}\" = 0x{position:08x}, but {nobody}"),
        },
        How::Slot {
            slot,
            hash_tag,
            master,
            point,
        } => {
            let tagged = hash_tag
                .as_ref()
                .map(|t| format!(" (hash tag \"{t}\")"))
                .unwrap_or_default();
            let served = match point {
                None => format!("slot {slot}'s master {} is down and {nobody}", name(*master)),
                Some(p) if p.server != *master => format!(
                    "slot {slot}'s master {} is down, so the next live range clockwise serves it: {}",
                    name(*master),
                    name(p.server)
                ),
                Some(_) => format!("slot {slot} is served by {}", name(*master)),
            };
            format!("CRC16(\"{key}\"){tagged} mod 16384 = slot {slot}; {served}")
        }
        How::Modulo { value, live } => {
            if live.is_empty() {
                format!("{hash} of \"{key}\" = {value}, but {nobody}")
            } else {
                let n = live.len();
                let i = *value as usize % n;
                format!(
                    "{hash} of \"{key}\" = {value}; {value} mod {n} = {i} → server number {i} of the {n} that are up: {}",
                    name(live[i])
                )
            }
        }
        How::BestScore { best, scores } => {
            if scores.is_empty() {
                format!("\"{key}\" would be scored by every server, but {nobody}")
            } else {
                let (what, rule) = match (sim.settings().algo, best) {
                    (Algorithm::Carp, _) => ("MD5(server + key)", "smallest"),
                    (_, Best::Lowest) => (hash, "lowest"),
                    (_, Best::Highest)
                        if scores.iter().any(|s| matches!(s.1, Score::Weighted { .. })) =>
                    {
                        ("−weight / ln(hash(server + key) / 2³²)", "highest")
                    }
                    (_, Best::Highest) => (hash, "highest"),
                };
                let what = if what == hash {
                    format!("{hash}(server + \"{key}\")")
                } else {
                    what.replace("key", &format!("\"{key}\""))
                };
                format!(
                    "every server scores the key with {what}; the {rule} score wins → {}",
                    name(e.owner)
                )
            }
        }
    };
    let scores = match &e.how {
        How::BestScore { scores, .. } => scores
            .iter()
            .map(|(id, score)| (name(*id), score_text(score), *id == e.owner))
            .collect(),
        _ => Vec::new(),
    };
    ExplanationWords { sentence, scores }
}

/// A score as the page shows it.
pub fn score_text(score: &Score) -> String {
    match score {
        Score::Hash(h) => format!("0x{h:08x}"),
        Score::Weighted {
            hash,
            weight,
            score,
        } => format!("{score:.6} (hash 0x{hash:08x}, weight {weight})"),
        Score::Digest(d) => d.iter().map(|b| format!("{b:02x}")).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::Scenario;

    fn sim(pairs: &[(&str, &str)]) -> Simulation {
        Simulation::new(&Scenario::from_pairs(pairs.iter().copied()).unwrap()).unwrap()
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(group_thousands(0), "0");
        assert_eq!(group_thousands(999), "999");
        assert_eq!(group_thousands(1000), "1,000");
        assert_eq!(group_thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn a_new_server_is_named_in_the_summary() {
        let mut s = sim(&[("nodes", "A")]);
        let m = s.apply(&Change::add("B")).unwrap();
        let name = |id| s.server(id).map(|s| s.name.clone()).unwrap_or_default();
        let text = summarize(&Change::add("B"), &m, &name);
        assert!(text.contains("— to B "), "{text}");
        assert!(!text.contains('#'), "{text}");
    }

    #[test]
    fn with_no_server_up_lookups_say_so() {
        for algo in ["ring", "modn", "rendezvous", "carp", "slots"] {
            let s = sim(&[("algo", algo), ("nodes", "A"), ("down", "A")]);
            let e = s.explain("user:42").unwrap();
            assert_eq!(e.owner, NO_OWNER);
            let words = explain(&s, "user:42", &e);
            assert!(
                words.sentence.contains("no server is up"),
                "{algo}: {}",
                words.sentence
            );
            assert!(!words.sentence.contains("mod 0"), "{}", words.sentence);
        }
    }

    #[test]
    fn weighted_rendezvous_shows_the_weighted_scores_and_the_winner_has_the_best() {
        let s = sim(&[("algo", "rendezvous"), ("nodes", "A*0.1,B,C*5,D*2")]);
        for key in ["user:1", "user:2", "k", "order-77", "x"] {
            let e = s.explain(key).unwrap();
            let words = explain(&s, key, &e);
            let winner = words.scores.iter().find(|r| r.2).unwrap();
            let value = |t: &str| t.split(' ').next().unwrap().parse::<f64>().unwrap();
            assert!(
                words.scores.iter().all(|r| value(&r.1) <= value(&winner.1)),
                "{key}: {:?}",
                words.scores
            );
            assert!(words.sentence.contains("weight"), "{}", words.sentence);
        }
    }
}
