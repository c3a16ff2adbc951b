//! What the page says: titles, one-sentence intros, change summaries, lookup explanations
//! and progress lines, made from the engine's values. The engine says *what* happened
//! ([`Movement`], [`Explanation`]); this module says it in words. Pure and tested natively,
//! so every sentence a user reads is checked without a browser.

use crate::engine::placement::{Algorithm, Explanation, How};
use crate::engine::ring::{ServerId, NO_OWNER};
use crate::engine::scorers::{Best, Score};
use crate::engine::sim::{Change, Movement, Phase, Simulation};
use crate::i18n::{reason, Words};
use crate::math;
use crate::notice::Notice;
use crate::problem::Problem;
use crate::text::fill;
use crate::text::Fixed;

/// `12345` → `12,345`.
pub fn group_thousands(v: u64) -> String {
    with_commas(&v.to_string())
}

/// `x` with `decimals` decimals and its whole part grouped as counts are: `1,591.7` from
/// 1591.73 with one decimal (a standard deviation beside a mean of `4,000`).
pub fn grouped(x: f64, decimals: usize) -> String {
    with_commas(&Fixed(x, decimals).to_string())
}

/// `text` with a comma between each three digits of its whole part (after a minus sign).
fn with_commas(text: &str) -> String {
    let from = usize::from(text.starts_with('-'));
    let end = from + text[from..].bytes().take_while(u8::is_ascii_digit).count();
    let mut out = String::with_capacity(text.len() + (end - from) / 3);
    for (i, c) in text.char_indices() {
        if i > from && i < end && (end - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `0.2431` → `24.3%`.
pub fn percent(x: f64) -> String {
    format!("{}%", Fixed(100.0 * x, 1))
}

/// A measured time with two significant digits (`1,234.5` → `1,200`, `87.3` → `87`,
/// `4.56` → `4.6`): the measurement is not more precise than that.
pub fn significant(x: f64) -> String {
    if x <= 0.0 || !x.is_finite() {
        return "0".to_owned();
    }
    let digits = math::log10(x).floor() as i32;
    if digits >= 1 {
        let unit = 10f64.powi(digits - 1);
        group_thousands(((x / unit).round() * unit) as u64)
    } else {
        let places = (1 - digits) as usize;
        Fixed(x, places).to_string()
    }
}

/// A mean count with the precision its size needs: `12,500` from 12,500.2, `33.3` from
/// 33.33, `1.33` from 4/3 — never a whole number that hides a fraction a reader can see
/// in the chart.
pub fn mean(x: f64) -> String {
    if x >= 1000.0 {
        group_thousands(x.round() as u64)
    } else {
        let text = if x >= 100.0 {
            Fixed(x, 1).to_string()
        } else {
            Fixed(x, 2).to_string()
        };
        let text = text.trim_end_matches('0').trim_end_matches('.');
        text.to_owned()
    }
}

/// The algorithm's title in `w`'s language ("Jump hash (2014)").
/// (its id when the catalog has no entry for it, which a test forbids).
pub fn algorithm_title(w: &Words, algo: Algorithm) -> &'static str {
    match (w.algorithms)(algo.name()).0 {
        "" => algo.name(),
        title => title,
    }
}

/// One sentence on how the algorithm places a key and what a change will do.
pub fn intro(w: &Words, algo: Algorithm) -> &'static str {
    (w.algorithms)(algo.name()).1
}

/// How to read a followed key's walk on the algorithm's picture, for a lookup that went
/// `how` ("" where the picture is the ring itself, whose keys walk clockwise as drawn, or
/// the slot table).
pub fn picture_hint(w: &Words, how: &How) -> &'static str {
    let kind = match how {
        How::Buckets { .. } | How::Chain { .. } => 0,
        How::Probes { .. } => 1,
        How::BestScore { .. } => 2,
        How::Modulo { .. } => 3,
        How::TableCell { .. } => 4,
        How::PlacementGroup { .. } => 5,
        _ => return "",
    };
    w.pic_hints[kind]
}

/// The status line while work is under way: "Hashing keys: 300,000 of 1,000,000…".
pub fn progress(w: &Words, phase: Phase, done: usize, total: usize) -> String {
    let what = match phase {
        Phase::HashingKeys => w.phases[0],
        Phase::PlacingVnodes => w.phases[1],
        Phase::FillingTable => w.phases[3],
        Phase::AssigningKeys | Phase::Done => w.phases[2],
    };
    fill(
        w.progress,
        &[
            what,
            &group_thousands(done as u64),
            &group_thousands(total as u64),
        ],
    )
}

/// What a change did, in a few words ("Added K").
pub fn change_title(w: &Words, change: &Change) -> String {
    match change {
        Change::Add { name, .. } => fill(w.added, &[&name_in_text(name)]),
        Change::Remove(n) => fill(w.removed, &[&name_in_text(n)]),
        Change::Fail(n) => fill(w.failed, &[&name_in_text(n)]),
        Change::Recover(n) => fill(w.recovered, &[&name_in_text(n)]),
        Change::SetWeight(n, x) => (w.weight_set)(&name_in_text(n), *x),
        Change::SetVnodes(v) => (w.vnodes_set)(*v),
        Change::SetKeys(k) => fill(w.keys_set, &[&key_set(w, k)]),
        Change::SetAlgorithm(a) => fill(w.algorithm_set, &[algorithm_title(w, *a)]),
        Change::SetHash(h) => fill(w.hash_set, &[h.name()]),
        Change::AddHost { host, osds, .. } => fill(
            w.host_added,
            &[&name_in_text(host), &osds.len().to_string()],
        ),
        Change::RemoveHost(host) => fill(w.host_removed, &[&name_in_text(host)]),
        Change::SetPgNum(n) => fill(w.pg_num_set, &[&group_thousands(u64::from(*n))]),
    }
}

/// A key set as a sentence names it: its spec, or for a list of the user's own keys, how
/// many and the first few (a pasted list may hold 10,000).
pub fn key_set(w: &Words, keys: &crate::engine::keys::KeySpec) -> String {
    match keys {
        crate::engine::keys::KeySpec::List(list) => {
            let mut first: Vec<&str> = list.iter().take(3).map(String::as_str).collect();
            if list.len() > first.len() {
                first.push("…");
            }
            fill(
                w.keys_list,
                &[&group_thousands(list.len() as u64), &first.join(", ")],
            )
        }
        other => other.to_string(),
    }
}

/// A server name as a sentence writes it: quoted when it reads as a number ("to “0” 3,
/// “1” 3" rather than "to 0 3, 1 3"), as it is otherwise.
pub fn name_in_text(name: &str) -> String {
    // Digits with at most one point: "4", "1.5" (an address such as 10.0.0.5 reads as one).
    let numeric = name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_digit() || c == '.')
        && name.matches('.').count() <= 1;
    if numeric {
        format!("“{name}”")
    } else {
        name.to_owned()
    }
}

/// The most characters of the status line before the servers it lists are counted together:
/// what two lines of the status hold beside the ring at 1280 px, presenting in Chinese too.
const STATUS_CHARS: usize = 100;

/// How many Latin characters `text` is as wide as: a CJK character takes two.
fn width(text: &str) -> usize {
    text.chars().map(|c| 1 + usize::from(c >= '\u{2E80}')).sum()
}

/// One sentence for a change, e.g. "Added E: 13,060 of 50,000 keys moved (26.1%; ideal
/// 20.0%) — from C 3,512, D 3,421, A 3,159, B 2,968". `name` names a server id, including
/// servers the change removed or added.
pub fn summarize(
    w: &Words,
    change: &Change,
    m: &Movement,
    name: &dyn Fn(ServerId) -> String,
) -> String {
    let what = change_title(w, change);
    let mut s = fill(
        w.moved_of,
        &[
            &what,
            &group_thousands(m.moved),
            &group_thousands(m.keys),
            &percent(m.moved_fraction()),
        ],
    );
    if let Some(ideal) = m.ideal_fraction {
        s.push_str(&fill(w.ideal, &[&percent(ideal)]));
    }
    s.push_str(w.close_paren);
    if m.moved > 0 {
        // Name the side the title does not already name: where an added or recovered
        // server's keys came from, where a removed or failed server's went — else the side
        // that has several servers.
        let sources = dedup(m.flows.iter().map(|f| f.from));
        let targets = dedup(m.flows.iter().map(|f| f.to));
        let named = match change {
            Change::Add { name, .. } | Change::Recover(name) => Some((name, true)),
            Change::Remove(name) | Change::Fail(name) => Some((name, false)),
            _ => None,
        };
        let only = |side: &[ServerId], who: &str| side.len() == 1 && name(side[0]) == who;
        let by_source = match named {
            Some((who, true)) if only(&targets, who) => true,
            Some((who, false)) if only(&sources, who) => false,
            _ => targets.len() == 1 && sources.len() > 1,
        };
        let side = if by_source { &sources } else { &targets };
        let mut totals: Vec<(ServerId, u64)> = side
            .iter()
            .map(|&id| {
                let keys: u64 = m
                    .flows
                    .iter()
                    .filter(|f| (if by_source { f.from } else { f.to }) == id)
                    .map(|f| f.keys)
                    .sum();
                (id, keys)
            })
            .collect();
        // The biggest first; as many as fit the status line's two lines, the rest counted
        // together — so a line of long names is never cut in the middle of a number.
        crate::engine::order::sort_by_key(&mut totals, |&(_, keys)| u64::MAX - keys);
        let says = if by_source { w.moved_from } else { w.moved_to };
        let lead = width(&s) + width(&fill(says, &[""]));
        let mut list = String::new();
        for (n, &(id, keys)) in totals.iter().enumerate() {
            let who = if id == NO_OWNER {
                w.nobody.to_owned()
            } else {
                name_in_text(&name(id))
            };
            let item = format!("{who} {}", group_thousands(keys));
            let rest = &totals[n..];
            if n > 0 && lead + width(&list) + width(&item) > STATUS_CHARS {
                let keys: u64 = rest.iter().map(|r| r.1).sum();
                list.push_str(w.list_separator);
                list.push_str(&format!(
                    "{} {}",
                    (w.flows_others)(rest.len()),
                    group_thousands(keys)
                ));
                break;
            }
            if n > 0 {
                list.push_str(w.list_separator);
            }
            list.push_str(&item);
        }
        s.push_str(&fill(says, &[&list]));
    }
    s
}

fn dedup(ids: impl Iterator<Item = ServerId>) -> Vec<ServerId> {
    let mut v: Vec<ServerId> = ids.collect();
    crate::engine::order::sort(&mut v);
    v.dedup();
    v
}

/// A message for the user in `w`'s language.
pub fn notice(w: &Words, notice: &Notice) -> String {
    let reasons = |list: &[Problem]| {
        list.iter()
            .map(|r| reason(w, r))
            .collect::<Vec<_>>()
            .join(w.reason_separator)
    };
    match notice {
        Notice::Refused(r) => (w.not_applied)(&reason(w, r)),
        Notice::LinkNotLoaded(list) => (w.link_not_loaded)(&reasons(list)),
        Notice::LinkProblem(list) => fill(w.link_problem, &[&reasons(list)]),
        Notice::Busy(n) => (w.busy)(*n),
        Notice::Ignored(n) => (w.ignored)(*n),
        Notice::BadFile(list) => fill(w.bad_file, &[&reasons(list)]),
        Notice::BackupsLeftOut(names) => fill(w.backups_left_out, &[&names.join(", ")]),
    }
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
#[allow(clippy::too_many_lines)] // One arm per kind of lookup (`How`): a table of sentences.
pub fn explain(w: &Words, sim: &Simulation, key: &str, e: &Explanation) -> ExplanationWords {
    let name = |id: ServerId| {
        sim.server(id)
            .map_or_else(|| format!("#{id}"), |s| s.name.clone())
    };
    // A system with its own key hash (nginx's crc32) names that one.
    let hash = sim
        .settings()
        .algo
        .spec()
        .key_hash
        .map_or(sim.settings().hash.name(), |k| k.name);
    let position = e.position;
    let sentence = match &e.how {
        How::FirstPointClockwise { point } => match point {
            Some(p) => (w.explain_ring)(
                hash,
                key,
                position,
                &sim.settings().label.render(&name(p.server), p.replica),
                p.position,
                &name(p.server),
            ),
            None => (w.explain_nobody)(hash, key, position),
        },
        How::AtOrBelow { point } => match point {
            Some(p) => (w.explain_below)(
                hash,
                key,
                position,
                &sim.settings().label.render(&name(p.server), p.replica),
                p.position,
                &name(p.server),
            ),
            None => (w.explain_nobody)(hash, key, position),
        },
        How::NearestPoint { point } => match point {
            Some(p) => (w.explain_nearest)(
                hash,
                key,
                position,
                &sim.settings().label.render(&name(p.server), p.replica),
                p.position,
                &name(p.server),
            ),
            None => (w.explain_nobody)(hash, key, position),
        },
        How::Slot {
            slot,
            hash_tag,
            master,
            point,
        } => {
            let tagged = hash_tag
                .as_ref()
                .map(|t| fill(w.explain_tag, &[t]))
                .unwrap_or_default();
            let served = match point {
                None => (w.slot_nobody)(*slot, &name(*master)),
                Some(p) if p.server != *master => {
                    (w.slot_failover)(*slot, &name(*master), &name(p.server))
                }
                Some(_) => (w.slot_served)(*slot, &name(*master)),
            };
            (w.explain_slot)(key, &tagged, *slot, &served)
        }
        How::Modulo { value, live } => {
            if live.is_empty() {
                (w.explain_modulo_nobody)(hash, key, *value)
            } else {
                let n = live.len();
                let i = *value as usize % n;
                (w.explain_modulo)(hash, key, *value, n, i, &name(live[i]))
            }
        }
        How::Buckets {
            digest,
            path,
            live,
            hops,
        } => match path.last() {
            Some(&b) if !hops => (w.explain_bucket)(
                sim.settings().algo.name(),
                digest_name(sim),
                key,
                *digest,
                live.len(),
                b,
                &name(live[b as usize]),
            ),
            Some(&b) => {
                let steps: Vec<String> = path.iter().map(u32::to_string).collect();
                (w.explain_jump)(
                    digest_name(sim),
                    key,
                    *digest,
                    &steps.join(" → "),
                    live.len(),
                    &name(live[b as usize]),
                )
            }
            None => fill(w.explain_no_bucket, &[key]),
        },
        How::Probes { probes, best } => match best.map(|b| probes[b]) {
            Some(p) => (w.explain_probes)(
                probes.len(),
                key,
                p.position,
                &name(p.point.server),
                p.point.position,
                &group_thousands(u64::from(p.distance)),
                &name(p.point.server),
            ),
            None => fill(w.explain_no_bucket, &[key]),
        },
        How::Chain {
            digest,
            path,
            holders,
        } => match path.last() {
            Some(&b) => {
                let steps: Vec<String> = path
                    .iter()
                    .map(|&p| {
                        if holders.get(p as usize).is_none_or(|&h| h == NO_OWNER) {
                            format!("{p}✗")
                        } else {
                            p.to_string()
                        }
                    })
                    .collect();
                (w.explain_chain)(
                    sim.settings().algo.name(),
                    digest_name(sim),
                    key,
                    *digest,
                    &steps.join(" → "),
                    b,
                    &name(holders[b as usize]),
                )
            }
            None => fill(w.explain_no_bucket, &[key]),
        },
        How::Bounded { walk, capacity } => match (walk.first, walk.point) {
            (Some(first), Some(p)) => {
                let skipped: Vec<String> = walk.skipped.iter().map(|&s| name(s)).collect();
                (w.explain_bounded)(
                    hash,
                    key,
                    position,
                    *capacity,
                    &name(first.server),
                    &skipped.join(", "),
                    &name(p.server),
                )
            }
            _ => (w.explain_nobody)(hash, key, position),
        },
        How::TableCell { cell, size } => {
            if e.owner == NO_OWNER {
                fill(w.explain_no_bucket, &[key])
            } else {
                (w.explain_cell)(digest_name(sim), key, *cell, *size, &name(e.owner))
            }
        }
        // Every OSD out: the group's draws find none (not a set of `NO_OWNER`s).
        How::PlacementGroup { hash: ps, .. } if e.owner == NO_OWNER => {
            (w.explain_nobody)("rjenkins", key, *ps)
        }
        How::PlacementGroup {
            hash: ps,
            pg,
            pg_num,
            replicas,
            domains: Some((kind, domains)),
            ..
        } => {
            let copies: Vec<String> = std::iter::once(e.owner)
                .chain(replicas.iter().copied())
                .zip(domains)
                .map(|(id, domain)| format!("{} ({kind} {domain})", name(id)))
                .collect();
            (w.explain_pg_hierarchy)(
                key,
                *ps,
                *pg,
                *pg_num,
                kind,
                &copies.join(", "),
                &name(e.owner),
            )
        }
        How::PlacementGroup {
            hash: ps,
            pg,
            pg_num,
            rejected,
            replicas,
            ..
        } => {
            let names =
                |ids: &[ServerId]| ids.iter().map(|&s| name(s)).collect::<Vec<_>>().join(", ");
            (w.explain_pg)(
                key,
                *ps,
                *pg,
                *pg_num,
                &names(rejected),
                &name(e.owner),
                &names(replicas),
            )
        }
        How::BestScore { best, scores } => {
            if scores.is_empty() {
                (w.explain_scores_nobody)(key)
            } else {
                let quoted = format!("\"{key}\"");
                let (what, highest) = match (sim.settings().algo, best) {
                    // CARP's scores are MD5 digests of `server + key`, whatever the hash.
                    _ if scores.iter().any(|s| matches!(s.1, Score::Digest(_))) => {
                        (format!("MD5(server + {quoted})"), false)
                    }
                    (_, Best::Lowest) => (format!("{hash}(server + {quoted})"), false),
                    (_, Best::Highest)
                        if scores.iter().any(|s| matches!(s.1, Score::Weighted { .. })) =>
                    {
                        (
                            format!("−weight / ln({hash}(server + {quoted}) / 2³²)"),
                            true,
                        )
                    }
                    (_, Best::Highest) => (format!("{hash}(server + {quoted})"), true),
                };
                (w.explain_scores)(&what, highest, &name(e.owner))
            }
        }
    };
    let scores: &[(ServerId, Score)] = match &e.how {
        How::BestScore { scores, .. } => scores,
        How::PlacementGroup { draws, .. } => draws,
        _ => &[],
    };
    let scores = scores
        .iter()
        .map(|(id, score)| (name(*id), score_text(w, score), *id == e.owner))
        .collect();
    ExplanationWords { sentence, scores }
}

/// What the bucket and table algorithms hash a key with.
fn digest_name(sim: &Simulation) -> &'static str {
    // A system with its own key hash (Envoy's XXH64) names that one.
    if let Some(own) = sim.settings().algo.spec().key_hash {
        return own.name;
    }
    match sim.settings().hash {
        crate::engine::hash::HashFn::Identity => "identity",
        _ => "xxh3-64",
    }
}

/// A score as the page shows it.
pub fn score_text(w: &Words, score: &Score) -> String {
    match score {
        Score::Hash(h) => format!("0x{h:08x}"),
        Score::Weighted {
            hash,
            weight,
            score,
        } => (w.weighted_score)(*score, *hash, *weight),
        Score::Digest(d) => d.iter().map(|b| format!("{b:02x}")).collect(),
        // 2²⁸·log2(u) / weight: shown as ln(u) / weight.
        Score::Straw2(i64::MIN) => "—".into(),
        Score::Straw2(d) => Fixed(
            *d as f64 * std::f64::consts::LN_2 / f64::from(1u32 << 28),
            4,
        )
        .to_string(),
    }
}

/// mod-N's arithmetic for a hash among `n` servers: `3,287,854,159 mod 7 = 2`; after a
/// change that made N `before` something else, the old sum and the new:
/// `3,287,854,159 mod 6 = 1 → mod 7 = 2`.
pub fn modulo_sum(value: u32, n: usize, before: Option<usize>) -> String {
    let n = n.max(1);
    let now = format!("mod {n} = {}", value as usize % n);
    match before.filter(|&b| b > 0 && b != n) {
        // The last change changed N: the same hash, the old sum and the new.
        Some(b) => format!(
            "{} mod {b} = {} → {now}",
            group_thousands(u64::from(value)),
            value as usize % b
        ),
        None => format!("{} {now}", group_thousands(u64::from(value))),
    }
}

/// The arithmetic for a key's cell: Maglev's `h mod 65,537 = 1,234`, a Ceph placement
/// group's `stable_mod(h, 12) = 5` (`h & 15`, folded onto the first half when that is
/// past the last group).
pub fn cell_sum(cell: u32, size: u32, group: bool) -> String {
    let (open, close) = if group {
        ("stable_mod(h, ", ")")
    } else {
        ("h mod ", "")
    };
    format!(
        "{open}{}{close} = {}",
        group_thousands(u64::from(size)),
        group_thousands(u64::from(cell))
    )
}

/// `a..b` as the bucket numbers it holds: `4–7`, or `4` alone.
pub fn range_text(a: u32, b: u32) -> String {
    if b > a + 1 {
        format!("{a}–{}", b - 1)
    } else {
        a.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// mod-N's sum, and after a change of N the old sum beside the new: the same hash, a
    /// different remainder — why almost every key moves.
    #[test]
    fn modulo_sums_say_n_before_and_after_a_change() {
        assert_eq!(modulo_sum(89_715_579, 5, None), "89,715,579 mod 5 = 4");
        assert_eq!(modulo_sum(89_715_579, 5, Some(5)), "89,715,579 mod 5 = 4");
        assert_eq!(
            modulo_sum(89_715_579, 6, Some(5)),
            "89,715,579 mod 5 = 4 → mod 6 = 3"
        );
        assert_eq!(modulo_sum(7, 0, Some(0)), "7 mod 1 = 0");
    }
    use crate::engine::scenario::Scenario;
    use crate::i18n::EN;

    #[test]
    fn times_keep_two_significant_digits() {
        assert_eq!(significant(1234.5), "1,200");
        assert_eq!(significant(87.3), "87");
        assert_eq!(significant(4.56), "4.6");
        assert_eq!(significant(0.0123), "0.012");
        assert_eq!(significant(0.0), "0");
    }

    #[test]
    fn a_spread_is_grouped_as_counts_are() {
        assert_eq!(grouped(1591.73, 1), "1,591.7");
        assert_eq!(grouped(91.46, 1), "91.5");
        assert_eq!(grouped(1_234_567.0, 0), "1,234,567");
        assert_eq!(grouped(-2048.25, 2), "-2,048.25");
        assert_eq!(grouped(0.0, 1), "0.0");
        assert_eq!(grouped(f64::NAN, 1), "NaN");
        assert_eq!(group_thousands(1_234_567), "1,234,567");
        assert_eq!(group_thousands(999), "999");
        assert_eq!(group_thousands(u64::MAX), "18,446,744,073,709,551,615");
    }

    #[test]
    fn a_mean_keeps_the_digits_that_matter() {
        assert_eq!(mean(4.0 / 3.0), "1.33");
        assert_eq!(mean(2.0), "2");
        assert_eq!(mean(33.333), "33.33");
        assert_eq!(mean(250.04), "250");
        assert_eq!(mean(250.26), "250.3");
        assert_eq!(mean(12_500.2), "12,500");
    }

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

    /// The summary names the side its title does not: where an added server's keys came
    /// from (even when one server gave them all: "Added B … — to B" said nothing new),
    /// where a removed server's went, and the side with several servers otherwise.
    #[test]
    fn the_summary_names_the_side_its_title_does_not() {
        let mut s = sim(&[("nodes", "A")]);
        let m = s.apply(&Change::add("B")).unwrap();
        let name = |id| s.server(id).map(|s| s.name.clone()).unwrap_or_default();
        let text = summarize(&EN, &Change::add("B"), &m, &name);
        assert!(text.contains("— from A "), "{text}");
        assert!(!text.contains('#'), "{text}");
        let remove = Change::Remove("B".to_owned());
        let m = s.apply(&remove).unwrap();
        let name = |id| s.server(id).map(|s| s.name.clone()).unwrap_or_default();
        let text = summarize(&EN, &remove, &m, &name);
        assert!(text.contains("— to A "), "{text}");
        // Several givers: each is named.
        let mut s = sim(&[("nodes", "A,B,C")]);
        let m = s.apply(&Change::add("D")).unwrap();
        let name = |id| s.server(id).map(|s| s.name.clone()).unwrap_or_default();
        let text = summarize(&EN, &Change::add("D"), &m, &name);
        assert!(
            text.contains("— from A ") && text.contains(", C "),
            "{text}"
        );
        // Long names: the biggest listed first, the rest counted together, the sentence
        // short enough for the status's two lines and ending with a whole number.
        let hosts: Vec<String> = (1..=5).map(|i| format!("10.0.0.{i}:80")).collect();
        let mut s = sim(&[
            ("algo", "envoy-ring"),
            ("nodes", &hosts.join(",")),
            ("keys", "0..20000"),
        ]);
        let add = Change::add("10.0.0.6:80");
        let m = s.apply(&add).unwrap();
        let name = |id| s.server(id).map(|s| s.name.clone()).unwrap_or_default();
        let text = summarize(&EN, &add, &m, &name);
        assert!(text.chars().count() <= STATUS_CHARS + 20, "{text}");
        assert!(text.contains("— to 10.0.0.6:80 3,334, "), "{text}");
        assert!(text.contains(" others "), "{text}");
        assert!(text.ends_with(|c: char| c.is_ascii_digit()), "{text}");
        // In Chinese a character is twice as wide: a removal's three receivers no longer
        // fit: the first is named and the others counted (a presenting tour cut "10.0.0.4:8…").
        let hosts: Vec<String> = (1..=4).map(|i| format!("10.0.0.{i}:80")).collect();
        let mut s = sim(&[
            ("algo", "haproxy"),
            ("nodes", &hosts.join(",")),
            ("keys", "0..20000"),
        ]);
        let remove = Change::Remove("10.0.0.1:80".to_owned());
        let names: Vec<String> = s.servers().iter().map(|s| s.name.clone()).collect();
        let m = s.apply(&remove).unwrap();
        let name = |id: ServerId| names[usize::from(id)].clone();
        let text = summarize(crate::i18n::Lang::ZhCn.words(), &remove, &m, &name);
        assert!(width(&text) <= STATUS_CHARS + 20, "{text}");
        assert!(text.contains("、其他 2 台 "), "{text}");
        assert!(text.ends_with(|c: char| c.is_ascii_digit()), "{text}");
    }

    #[test]
    fn with_no_server_up_lookups_say_so() {
        for algo in ["ring", "modn", "rendezvous", "carp", "slots"] {
            let s = sim(&[("algo", algo), ("nodes", "A"), ("down", "A")]);
            let e = s.explain("user:42").unwrap();
            assert_eq!(e.owner, NO_OWNER);
            let words = explain(&EN, &s, "user:42", &e);
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
            let words = explain(&EN, &s, key, &e);
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

    #[test]
    fn names_that_read_as_numbers_are_quoted_in_sentences() {
        assert_eq!(name_in_text("4"), "“4”");
        assert_eq!(name_in_text("1.5"), "“1.5”");
        for plain in ["A", "10.0.0.5", "127.1.1.1#A", "node-7000", "", "4a"] {
            assert_eq!(name_in_text(plain), plain);
        }
    }
}
