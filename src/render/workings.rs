//! What mod-N, rendezvous and CARP work out, drawn before any key is followed. These
//! algorithms keep no ring and no buckets: their keys sit in fans by their owners, so
//! without this their pictures were the same fans in other colours (0.5 % of the pixels
//! apart). What tells them apart is the arithmetic each does for every key, and that is
//! what is drawn: mod-N's residues (`hash mod N` picks the server numbered so — one equal
//! slice of the hashes per live server, re-cut whenever N changes), and the per-key
//! scores of rendezvous and CARP for the first few keys of the set (every live server
//! scores the key, the best score wins).
//!
//! The numbers come from the placement's own [`Explanation`]s — the code that places the
//! keys — so the picture cannot say anything the placement does not do.
//!
//! [`Explanation`]: crate::engine::contract::Explanation

use super::scene::Rect;
use super::RingGeometry;
use crate::engine::contract::{Best, How, Score};
use crate::engine::ring::ServerId;
use crate::engine::sim::Simulation;

/// How many keys the score table shows.
pub const SCORED_KEYS: u32 = 5;

/// An algorithm's per-key arithmetic, as its picture draws it.
#[derive(Clone, Debug, PartialEq)]
pub enum Workings {
    /// mod-N: residue `i` of `hash mod N` is the `i`-th live server, in list order.
    Residues {
        /// The live servers in list order.
        live: Vec<ServerId>,
    },
    /// Rendezvous and CARP: the first keys' scores from every live server.
    Scores {
        /// Which end wins.
        best: Best,
        /// One row per key.
        rows: Vec<ScoreRow>,
    },
}

/// One key's scores ([`Workings::Scores`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreRow {
    /// The key.
    pub key: String,
    /// Each live server's score as a share of the row's largest (0 to 1), in list order.
    pub bars: Vec<(ServerId, f64)>,
    /// The server whose score wins: the key's owner.
    pub winner: ServerId,
}

impl Workings {
    /// The workings of `sim`'s algorithm, or `None` when its picture is a ring or buckets
    /// (or it has no key to work on, or no server is up).
    pub fn of(sim: &Simulation) -> Option<Workings> {
        let count = (sim.keys().len() as u32).min(SCORED_KEYS);
        let explain = |id: u32| {
            let key = sim.key_name(id);
            sim.explain(&key).ok().map(|e| (key, e))
        };
        let (_, first) = explain(0).filter(|_| count > 0)?;
        match first.how {
            How::Modulo { live, .. } if !live.is_empty() => Some(Workings::Residues { live }),
            How::BestScore { best, .. } => {
                let rows: Vec<ScoreRow> = (0..count)
                    .filter_map(explain)
                    .filter_map(|(key, e)| match e.how {
                        How::BestScore { scores, .. } if !scores.is_empty() => Some(ScoreRow {
                            key,
                            bars: score_bars(&scores),
                            winner: e.owner,
                        }),
                        _ => None,
                    })
                    .collect();
                // No server up: nothing scores, nothing to draw or say.
                (!rows.is_empty()).then_some(Workings::Scores { best, rows })
            }
            _ => None,
        }
    }
}

/// The bars of a followed key's `Walk::Scores` and of a score table's row: each server's score as a share of the largest (0 to 1),
/// in list order (a digest's first four bytes stand for it).
pub fn score_bars(scores: &[(ServerId, Score)]) -> Vec<(ServerId, f64)> {
    let value = |s: &Score| match *s {
        Score::Hash(h) => f64::from(h),
        Score::Weighted { score, .. } => score,
        Score::Digest(d) => f64::from(u32::from_be_bytes([d[0], d[1], d[2], d[3]])),
        Score::Straw2(d) => d.wrapping_sub(i64::MIN) as f64,
    };
    let top = scores.iter().map(|(_, s)| value(s)).fold(0.0, f64::max);
    scores
        .iter()
        .map(|(id, s)| (*id, if top > 0.0 { value(s) / top } else { 0.0 }))
        .collect()
}

/// Where mod-N's residues are drawn: an annulus `(inner, outer)` radius around the centre's
/// words and inside the keys' fans (which start about 0.8 radii out).
pub fn residue_annulus(g: &RingGeometry) -> (f64, f64) {
    (g.radius * 0.36, g.radius * 0.64)
}

/// Where a score table is drawn, under the centre's words: the first keys' scores before a
/// key is followed, the followed key's own in its place after: as large as the inside of
/// the ring allows (its corners within 0.8 radii of the centre, inside the keys' fans),
/// the centre's words above it.
pub fn score_table_rect(g: &RingGeometry) -> Rect {
    Rect {
        x: g.cx - g.radius * 0.56,
        y: g.cy - g.radius * 0.28,
        w: g.radius * 1.12,
        h: g.radius * 0.84,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::change::Change;
    use crate::engine::sim::fixtures::after_removing;

    fn sim(algo: &str) -> Simulation {
        after_removing(algo, "A,B,C,D,E", "key-{i}:0..100", &["C"])
    }

    /// mod-N's residues are its live servers in list order: after C left, residue 2 is D.
    #[test]
    fn residues_are_the_live_servers_in_list_order() {
        let sim = sim("modn");
        let Some(Workings::Residues { live }) = Workings::of(&sim) else {
            panic!("{:?}", Workings::of(&sim));
        };
        let names: Vec<&str> = live
            .iter()
            .map(|&id| sim.server(id).unwrap().name.as_str())
            .collect();
        assert_eq!(names, ["A", "B", "D", "E"]);
        // And that is where the placement sends a key: its hash's residue among them.
        for id in 0..20 {
            let key = sim.key_name(id);
            let (position, owner) = sim.lookup(&key).unwrap();
            // mod-N's hash is the key's ring position.
            assert_eq!(owner, live[position as usize % live.len()], "{key}");
        }
    }

    /// The score table's rows are the first keys, their bars every live server's score
    /// scaled to the row's best, and the winner the key's owner — the highest bar for
    /// rendezvous, the lowest for seed 004's CARP.
    #[test]
    fn score_rows_are_the_first_keys_and_their_winners_own_them() {
        for (algo, wanted) in [("rendezvous", Best::Highest), ("carp", Best::Lowest)] {
            let sim = sim(algo);
            let Some(Workings::Scores { best, rows }) = Workings::of(&sim) else {
                panic!("{algo}");
            };
            assert_eq!(best, wanted);
            let keys: Vec<&str> = rows.iter().map(|r| r.key.as_str()).collect();
            assert_eq!(
                keys,
                ["key-0", "key-1", "key-2", "key-3", "key-4"],
                "{algo}"
            );
            for row in &rows {
                assert_eq!(
                    row.winner,
                    sim.lookup(&row.key).unwrap().1,
                    "{algo} {}",
                    row.key
                );
                assert_eq!(row.bars.len(), 4, "one bar per live server");
                let top = row.bars.iter().map(|b| b.1).fold(0.0, f64::max);
                assert_eq!(top, 1.0);
                let won = row.bars.iter().find(|b| b.0 == row.winner).unwrap().1;
                match best {
                    Best::Highest => assert_eq!(won, 1.0, "{algo} {}", row.key),
                    Best::Lowest => assert!(
                        row.bars.iter().all(|b| b.1 >= won),
                        "{algo} {}: {:?}",
                        row.key,
                        row.bars
                    ),
                }
            }
        }
    }

    /// With every server failed nothing scores: no table (nor an empty one said in words).
    #[test]
    fn no_server_up_has_no_workings() {
        for algo in ["modn", "rendezvous", "carp"] {
            let mut sim = sim(algo);
            for name in ["A", "B", "D", "E"] {
                sim.apply(&Change::Fail(name.to_owned())).unwrap();
            }
            assert_eq!(Workings::of(&sim), None, "{algo}");
        }
    }

    /// The ring, slot and bucket algorithms draw their own structures instead.
    #[test]
    fn other_algorithms_have_no_workings() {
        for algo in [
            "ring",
            "ketama",
            "jump",
            "anchor",
            "slots",
            "maglev",
            "multiprobe",
        ] {
            assert_eq!(Workings::of(&sim(algo)), None, "{algo}");
        }
    }

    /// The score table stays inside the keys' fans and below the centre's title.
    #[test]
    fn the_score_table_stays_inside_the_fans() {
        let g = RingGeometry::fit(1280.0, 720.0);
        let r = score_table_rect(&g);
        for (x, y) in [(r.x, r.y), (r.x + r.w, r.y + r.h), (r.x, r.y + r.h)] {
            assert!(((x - g.cx).powi(2) + (y - g.cy).powi(2)).sqrt() <= g.radius * 0.8);
        }
        let (inner, outer) = residue_annulus(&g);
        assert!(inner < outer && outer <= g.radius * 0.8);
    }
}
