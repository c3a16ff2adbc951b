//! A followed key's lookup, walked on the algorithm's own picture: what the ring's overlay
//! draws for the key the reader follows, taken from the placement's own account of that
//! lookup ([`Explanation`], the steps `Placement::explain` runs) — never worked out again
//! in the view, so the picture cannot disagree with the answer.
//!
//! Jump and its kin hop over bucket numbers on the inner ring of buckets; Anchor, Memento
//! and Dx follow their chain from a removed bucket to a working one; multi-probe marks its
//! probes and the point each reaches, the nearest winning; rendezvous and CARP score every
//! server, one bar each, the best marked; mod-N writes its arithmetic.

use super::buckets::BucketPicture;
use super::scene::display_cells;
use super::workings::Workings;
use crate::engine::contract::{Best, Explanation, How, Probe, Score};
use crate::engine::ring::{ServerId, NO_OWNER};
use crate::engine::sim::Simulation;
use crate::i18n::Words;
use crate::text::fill;

/// What the overlay draws for a followed key: the steps of its [`Explanation`], borrowed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Walk<'a> {
    /// Bucket algorithms: the buckets visited, in order, on the inner ring of `cells`
    /// cells (or on the capacity grid, Anchor's and Dx's); the last one holds the key.
    /// `holders[b]` holds bucket `b` (`NO_OWNER`: removed).
    Hops {
        /// The inner ring's cells.
        cells: u32,
        /// The capacity, when the hops are drawn on the capacity grid.
        grid: Option<u32>,
        /// The buckets visited, in order.
        path: &'a [u32],
        /// Who holds each bucket.
        holders: &'a [ServerId],
    },
    /// Multi-probe: each probe, the server point it reaches, and the probe that won (the
    /// nearest).
    Probes {
        /// The probes, in order.
        probes: &'a [Probe],
        /// The winning probe.
        best: Option<usize>,
    },
    /// Rendezvous and CARP: every live server's score, in list order, and the server whose
    /// score wins.
    Scores {
        /// (server, score).
        scores: &'a [(ServerId, Score)],
        /// The winner.
        winner: ServerId,
    },
    /// Maglev: the key's cell of the lookup table (`hash mod size`), drawn on the ring
    /// where the table's cells are, and the server the table gives it.
    Cell {
        /// The cell.
        cell: u32,
        /// The table's size M.
        size: u32,
        /// The cell's server.
        owner: ServerId,
        /// A Ceph placement group (its number by `ceph_stable_mod`, not `h mod M`).
        group: bool,
    },
    /// mod-N: the key's hash `value` and the live servers; `value mod live.len()` indexes
    /// them.
    Modulo {
        /// The hash.
        value: u32,
        /// The live servers in list order.
        live: &'a [ServerId],
    },
}

impl<'a> Walk<'a> {
    /// The walk of `e`, for the algorithms drawn with one (the ring family's walk is the
    /// arc the key travels, drawn as before). Anchor's and Dx's chains start anywhere in
    /// their whole capacity (`capacity`, the placement's `buckets()`), more than the inner
    /// ring draws: they are walked on the capacity grid.
    pub fn of(e: &'a Explanation, capacity: u32) -> Option<Walk<'a>> {
        Some(match &e.how {
            How::Buckets { path, live, .. } => Walk::Hops {
                cells: display_cells(live.len()),
                grid: None,
                path,
                holders: live,
            },
            How::Chain { path, holders, .. } => {
                let cells = display_cells(holders.len());
                Walk::Hops {
                    cells,
                    grid: (capacity > cells).then_some(capacity),
                    path,
                    holders,
                }
            }
            How::Probes { probes, best } => Walk::Probes {
                probes,
                best: *best,
            },
            How::BestScore { scores, .. } => Walk::Scores {
                scores,
                winner: e.owner,
            },
            How::TableCell { cell, size } => Walk::Cell {
                cell: *cell,
                size: *size,
                owner: e.owner,
                group: false,
            },
            // A placement group is a cell of the table of pg_num groups.
            How::PlacementGroup { pg, pg_num, .. } => Walk::Cell {
                cell: *pg,
                size: *pg_num,
                owner: e.owner,
                group: true,
            },
            How::Modulo { value, live } => Walk::Modulo {
                value: *value,
                live,
            },
            _ => return None,
        })
    }

    /// The server the drawn walk ends at, read from the walk alone: the last bucket's
    /// holder, the winning probe's server, the winning bar, the indexed server.
    pub fn ends_at(self) -> ServerId {
        match self {
            Walk::Hops { path, holders, .. } => path
                .last()
                .and_then(|&b| holders.get(b as usize).copied())
                .unwrap_or(NO_OWNER),
            Walk::Probes { probes, best } => best
                .and_then(|i| probes.get(i))
                .map_or(NO_OWNER, |p| p.point.server),
            Walk::Scores { winner, .. } | Walk::Cell { owner: winner, .. } => winner,
            Walk::Modulo { value, live } => match live.len() {
                0 => NO_OWNER,
                n => live[value as usize % n],
            },
        }
    }

    /// What kind of walk is drawn, for tests (`data-walk`).
    pub fn kind(self) -> &'static str {
        match self {
            Walk::Hops { .. } => "hops",
            Walk::Probes { .. } => "probes",
            Walk::Scores { .. } => "scores",
            Walk::Modulo { .. } => "modulo",
            Walk::Cell { .. } => "cell",
        }
    }
}

/// The ring picture's own structure and the followed key's walk on it, in words, for the
/// canvas's accessible name: what a sighted reader sees drawn — the structure, then the
/// lookup card's sentence, which names the steps drawn (buckets visited, the probe that won,
/// the winning score, `h mod N`) and the owner (empty when the algorithm's picture is the
/// ring and nobody is followed).
pub fn picture_words(w: &Words, sim: &Simulation, lookup: Option<(&str, &Explanation)>) -> String {
    use crate::engine::contract::Structure;
    let mut told: Vec<String> = Vec::new();
    let list = |items: Vec<String>| items.join(", ");
    if let Some(p) = BucketPicture::of(sim) {
        let capacity = p.capacity.to_string();
        let (template, args) = match &p.structure {
            Structure::Ranges(r) => (
                w.pic_ranges,
                vec![list(
                    r.iter()
                        .map(|&(a, b)| crate::words::range_text(a, b))
                        .collect(),
                )],
            ),
            Structure::Stack(_) => (
                w.pic_stack,
                vec![
                    capacity,
                    list(p.stack_top(5).iter().map(u32::to_string).collect()),
                ],
            ),
            Structure::Replacements(r) => (
                w.pic_replacements,
                vec![list(r.iter().map(|(a, b)| format!("{a} → {b}")).collect())],
            ),
            Structure::None if p.has_grid() => (w.pic_grid, vec![capacity]),
            Structure::None => (w.pic_jumps, Vec::new()),
        };
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        told.push(fill(template, &args));
    }
    let name = |id: ServerId| sim.server(id).map_or("?", |s| s.name.as_str());
    match super::workings::Workings::of(sim) {
        Some(Workings::Residues { live }) => told.push(fill(
            w.pic_residues,
            &[
                &live.len().to_string(),
                &live
                    .iter()
                    .map(|&id| name(id))
                    .collect::<Vec<_>>()
                    .join(", "),
            ],
        )),
        Some(Workings::Scores { best, rows }) => {
            let mut winners = String::new();
            for r in &rows {
                if !winners.is_empty() {
                    winners.push_str(", ");
                }
                winners.push_str(&r.key);
                winners.push_str(" → ");
                winners.push_str(name(r.winner));
            }
            told.push(fill(
                w.pic_scores,
                &[&winners, w.pic_best[usize::from(best == Best::Lowest)]],
            ));
        }
        None => {}
    }
    if let Some(c) = super::buckets::capacity_bars(sim) {
        told.push(fill(
            w.pic_capacity,
            &[
                &c.capacity.to_string(),
                &crate::words::group_thousands(c.forwarded.into()),
            ],
        ));
    }
    // The followed key's walk: how the picture draws it, and the lookup card's own
    // sentence (its steps, its owner).
    if let Some((key, e)) = lookup {
        told.push(crate::words::picture_hint(w, &e.how).to_owned());
        told.push(crate::words::explain(w, sim, key, e).sentence);
    }
    told.retain(|t| !t.is_empty());
    told.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::sim::fixtures::after_removing;
    use crate::engine::spec::Shape;
    use crate::render::workings::score_bars;

    /// Eight servers, the third removed (a bucket algorithm's harder case), and many keys:
    /// for every algorithm with a walk, the walk drawn ends at the owner the lookup names,
    /// and its steps are the placement's own (the buckets its chain visits, the probes it
    /// made, one score per live server).
    #[test]
    fn every_drawn_walk_ends_at_the_owner_and_is_the_placements_own() {
        for algo in crate::engine::placement::Algorithm::ALL {
            let sim = after_removing(algo.name(), "A,B,C,D,E,F,G,H", "key-{i}:0..200", &["C"]);
            let placement = sim.placement();
            let places = sim.keys().places_by_id();
            let mut walked = 0;
            for (i, &place) in places.iter().enumerate() {
                let key = format!("key-{i}");
                let e = sim.explain(&key).unwrap();
                let capacity = placement.buckets().map_or(0, |b| b.1);
                let Some(walk) = Walk::of(&e, capacity) else {
                    continue;
                };
                walked += 1;
                // Where the drawn walk ends is the owner the placement gave the key when
                // it placed them all (not only what this lookup says).
                let owner = sim.owners()[place as usize];
                assert_eq!(walk.ends_at(), owner, "{} {key}: {walk:?}", algo.name());
                match walk {
                    Walk::Hops {
                        holders,
                        cells,
                        grid,
                        path,
                    } => {
                        // The inner ring drawn has the placement's own buckets.
                        let (drawn, _) = placement.buckets().unwrap();
                        assert_eq!(holders, drawn, "{}", algo.name());
                        // Every bucket visited has a cell: on the ring, or on the grid of
                        // the whole capacity (Anchor, Dx).
                        let drawn = grid.unwrap_or(cells);
                        assert_eq!(grid.is_some(), matches!(algo.name(), "anchor" | "dx"));
                        assert!(
                            path.iter().all(|&b| b < drawn),
                            "{} {path:?} {drawn}",
                            algo.name()
                        );
                    }
                    Walk::Probes { probes, best } => {
                        // The paper's probes: 21 of them, evenly spaced from the key's own
                        // position, each reaching the first server point clockwise of
                        // those drawn on the ring; the one nearest its point wins.
                        let points = crate::render::scene::marker_positions(&sim);
                        assert_eq!(probes.len(), 21);
                        assert_eq!(probes[0].position, e.position);
                        let step = probes[1].position.wrapping_sub(probes[0].position);
                        for p in probes.iter() {
                            let first = points
                                .iter()
                                .min_by_key(|(_, at)| at.wrapping_sub(p.position))
                                .unwrap();
                            assert_eq!(*first, (p.point.server, p.point.position));
                            assert_eq!(p.point.position.wrapping_sub(p.position), p.distance);
                        }
                        assert!(probes
                            .windows(2)
                            .all(|w| w[1].position.wrapping_sub(w[0].position) == step));
                        let won = probes[best.unwrap()].distance;
                        assert!(probes.iter().all(|p| p.distance >= won));
                    }
                    Walk::Scores { scores, .. } => {
                        let bars = score_bars(scores);
                        assert_eq!(bars.len(), 7, "one bar per live server");
                        assert!(bars.iter().any(|b| b.1 == 1.0));
                        assert!(bars.iter().all(|b| (0.0..=1.0).contains(&b.1)));
                    }
                    Walk::Modulo { live, .. } => assert_eq!(live.len(), 7),
                    Walk::Cell {
                        cell, size, owner, ..
                    } => {
                        // The cell drawn is the ring's (the table's cells are its arcs):
                        // the server holding its end holds the key.
                        let end = ((u64::from(cell + 1) << 32) / u64::from(size) - 1) as u32;
                        assert_eq!(sim.ring().unwrap().owner_of(end), owner);
                    }
                }
            }
            // What the registry says is drawn as a walk: the fans of the bucket and
            // scoring algorithms, the table's cells, multi-probe's probes.
            let walks =
                matches!(algo.shape(), Shape::Fans | Shape::TableCells) || algo.spec().knobs.probes;
            assert_eq!(walked > 0, walks, "{}", algo.name());
            if walks {
                assert_eq!(walked, 200, "{}: every key has its walk", algo.name());
            }
        }
    }

    #[test]
    fn a_walk_ends_at_its_last_bucket_or_its_index() {
        let hops = Walk::Hops {
            cells: 8,
            grid: None,
            path: &[5, 2, 7],
            holders: &[0, 1, 2, 3, 4, 5, 6, 7],
        };
        assert_eq!((hops.kind(), hops.ends_at()), ("hops", 7));
        let m = Walk::Modulo {
            value: 17,
            live: &[4, 5, 6, 7, 8],
        };
        assert_eq!((m.kind(), m.ends_at()), ("modulo", 6));
    }

    /// The pictures in words: Anchor's grid and stack, JumpBack's ranges, a followed key's
    /// hops (how to read them, then the walk) ending at its owner — in English and Chinese.
    #[test]
    fn the_pictures_and_walks_are_said_in_words() {
        let sim = |algo: &str| after_removing(algo, "A,B,C,D,E,F,G,H", "key-{i}:0..100", &["C"]);
        let anchor = sim("anchor");
        assert_eq!(
            picture_words(&crate::i18n::EN, &anchor, None),
            "The grid: the anchor's 100 buckets; the numbered ones are its removal stack, \
             1 comes back first (buckets 2, 8, 9, 10, 11). The others are shaded by how \
             often the first keys' lookups passed them."
        );
        let zh = crate::i18n::Lang::ZhCn.words();
        assert!(picture_words(zh, &anchor, None).contains("锚点的 100 个桶"));
        assert_eq!(
            picture_words(&crate::i18n::EN, &sim("jumpback"), None),
            "Bands inside the buckets: the ranges a key is drawn in (0, 1, 2–3, 4–6)."
        );
        assert_eq!(picture_words(&crate::i18n::EN, &sim("ring"), None), "");
        let jump = sim("jump");
        let e = jump.explain("key-7").unwrap();
        let owner = &jump.server(e.owner).unwrap().name;
        let words = picture_words(&crate::i18n::EN, &jump, Some(("key-7", &e)));
        let sentence = crate::words::explain(&crate::i18n::EN, &jump, "key-7", &e).sentence;
        // The first keys' jumps, how to read the hops, then the lookup card's own sentence.
        assert_eq!(
            words,
            format!(
                "{} {} {sentence}",
                crate::i18n::EN.pic_jumps,
                crate::i18n::EN.pic_hints[0]
            )
        );
        // mod-N's slices and rendezvous' table, said as drawn.
        assert_eq!(
            picture_words(&crate::i18n::EN, &sim("modn"), None),
            "The slices: hash mod 7 picks the slice of that number, and slice i is live \
             server i (A, B, D, E, F, G, H)."
        );
        let rendezvous = picture_words(&crate::i18n::EN, &sim("rendezvous"), None);
        assert!(
            rendezvous.starts_with(
                "The table: every live server scores each of the first keys, and the highest \
                 score wins (key-0 → "
            ),
            "{rendezvous}"
        );
        assert!(
            words.contains(" → ") && words.ends_with(owner.as_str()),
            "{words}"
        );
    }
}
