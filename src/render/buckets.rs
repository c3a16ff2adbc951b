//! The bucket algorithms' own picture, read from their own state: the inner ring of the
//! buckets in use (who holds each), and what each algorithm keeps besides — the ranges of
//! bucket numbers JumpBack, Flip, Power and Binomial draw a key in, Anchor's whole anchor
//! with its removal stack, Dx's array of its capacity, Memento's replacements. Nothing here
//! works an answer out again: the numbers come from [`Placement::buckets`] and
//! [`Placement::structure`], so the picture shows what the placement holds.
//!
//! Anchor and Dx hold more buckets than are in use (their capacity, at least 100): their
//! whole capacity is drawn as a grid in place of the inner ring, out to the keys, so its
//! cells are big enough to read a key's chain through reserved and removed buckets on (a
//! ring of 100 cells, or a grid inside the ring of buckets, left them ~14 px at 1280×720).
//! The buckets in use are its first cells, in their holders' colours.
//!
//! [`Placement::buckets`]: crate::engine::placement::Placement::buckets
//! [`Placement::structure`]: crate::engine::placement::Placement::structure

use super::scene::{display_cells, Scale};
use super::RingGeometry;
use crate::engine::contract::Structure;
use crate::engine::ring::ServerId;
use crate::engine::sim::Simulation;

/// What a bucket algorithm's picture shows.
#[derive(Clone, Debug, PartialEq)]
pub struct BucketPicture {
    /// Who holds each bucket (`NO_OWNER`: removed); the buckets past them are reserved.
    pub holders: Vec<ServerId>,
    /// Buckets in all: Anchor's and Dx's capacity, the others' bucket count.
    pub capacity: u32,
    /// The inner ring's cells.
    pub ring_cells: u32,
    /// The algorithm's own structure besides.
    pub structure: Structure,
}

impl BucketPicture {
    /// The picture of `sim`'s placement, or `None` when it has no buckets.
    pub fn of(sim: &Simulation) -> Option<BucketPicture> {
        let placement = sim.placement();
        let (holders, capacity) = placement.buckets()?;
        Some(BucketPicture {
            holders: holders.to_vec(),
            capacity,
            ring_cells: display_cells(holders.len()),
            structure: placement.structure(),
        })
    }

    /// True when the capacity is drawn as a grid (it holds more buckets than the ring).
    pub fn has_grid(&self) -> bool {
        self.capacity > self.ring_cells
    }

    /// Anchor's stack from the top down (the first comes back first), at most `n`.
    pub fn stack_top(&self, n: usize) -> Vec<u32> {
        match &self.structure {
            Structure::Stack(stack) => stack.iter().rev().take(n).copied().collect(),
            _ => Vec::new(),
        }
    }
}

/// How many of the first keys' lookups [`traffic`] follows.
pub const TRAFFIC_KEYS: u32 = 600;

/// Where the first keys' lookups went: each hop between buckets jump's and Guava's loops made (from,
/// to) with how many keys made it, and how often each bucket was passed on the way to the
/// one that works (Anchor's and Dx's chains through removed and reserved buckets). This is
/// the work each rule does, in aggregate — the followed key's walk shows it for one key —
/// and it is where rules that end in equal-looking states differ: Dx draws from its whole
/// array again and again, Anchor's re-draws narrow down to the buckets that left last.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Traffic {
    /// Each hop made, (from, to), and how many keys made it, in first-made order.
    pub hops: Vec<((u32, u32), u32)>,
    /// Per bucket of the capacity, how often a chain passed it (not counting its end).
    pub visits: Vec<u32>,
}

/// The [`Traffic`] of the first [`TRAFFIC_KEYS`] keys of `sim` over `capacity` buckets.
pub fn traffic(sim: &Simulation, capacity: u32) -> Traffic {
    use crate::engine::contract::How;
    let mut t = Traffic {
        hops: Vec::new(),
        visits: vec![0; capacity as usize],
    };
    for id in 0..(sim.keys().len() as u32).min(TRAFFIC_KEYS) {
        let Ok(e) = sim.explain(&sim.key_name(id)) else {
            continue;
        };
        match e.how {
            How::Buckets { path, .. } => {
                for hop in path.windows(2) {
                    let pair = (hop[0], hop[1]);
                    match t.hops.iter_mut().find(|h| h.0 == pair) {
                        Some(h) => h.1 += 1,
                        None => t.hops.push((pair, 1)),
                    }
                }
            }
            How::Chain { path, .. } => {
                for &b in &path[..path.len().saturating_sub(1)] {
                    if let Some(v) = t.visits.get_mut(b as usize) {
                        *v += 1;
                    }
                }
            }
            _ => {}
        }
    }
    t
}

/// One range of a ranges picture as drawn: the bucket numbers `low..high`, drawn `level`
/// bands in from the buckets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RangeBand {
    /// First bucket.
    pub low: u32,
    /// One past the last bucket.
    pub high: u32,
    /// How many bands in from the inner ring of buckets.
    pub level: u32,
    /// Where the buckets a draw may land on but no server holds begin (Flip's enclosing
    /// power of two past the bucket count: a draw there is drawn again).
    pub redrawn_from: Option<u32>,
}

/// How the ranges of `algo` (its [`Structure::Ranges`], over `used` buckets) are laid out, by
/// the rule each follows — so that two algorithms with near-equal ranges draw what differs
/// between them: JumpBack walks *back* from its highest range, one band further in per
/// range it falls back to; Flip draws in the whole enclosing power of two (its outer band,
/// the part past the last bucket hatched: drawn again there) and flips the bits of one of
/// the power-of-two ranges inside it; the others (Power's two ranges, Binomial's two trees)
/// go one band further in when a range overlaps one drawn before.
pub fn range_bands(algo: &str, ranges: &[(u32, u32)], used: u32) -> Vec<RangeBand> {
    let band = |(low, high): (u32, u32), level: usize| RangeBand {
        low,
        high,
        level: level as u32,
        redrawn_from: None,
    };
    match algo {
        "jumpback" => ranges
            .iter()
            .enumerate()
            .map(|(i, &r)| band(r, ranges.len() - 1 - i))
            .collect(),
        "flip" => {
            let top = ranges.iter().map(|r| r.1).max().unwrap_or(0);
            let enclosing = RangeBand {
                redrawn_from: (top > used).then_some(used),
                ..band((0, top), 0)
            };
            std::iter::once(enclosing)
                .chain(ranges.iter().map(|&r| band(r, 1)))
                .collect()
        }
        _ => ranges
            .iter()
            .enumerate()
            .map(|(i, &(low, high))| {
                let level = ranges[..i]
                    .iter()
                    .filter(|r| r.0 < high && low < r.1)
                    .count();
                band((low, high), level)
            })
            .collect(),
    }
}

/// Bounded loads' own state as bars: each live server's keys (`Bounded::loads`) as a share
/// of the capacity every server has, in list order, that capacity — a full server's bar
/// reaches the capacity line, and a key that finds it full walks on — and how many keys
/// walked on so (`Bounded::forwarded`).
pub fn capacity_bars(sim: &Simulation) -> Option<CapacityBars> {
    let bounded = crate::engine::algorithms::bounded::Bounded::of(sim.placement())?;
    let capacity = bounded.capacity.max(1);
    let bars = sim
        .servers()
        .iter()
        .filter(|s| s.up)
        .map(|s| {
            let load = bounded.loads.get(s.id as usize).copied().unwrap_or(0);
            (s.id, f64::from(load) / f64::from(capacity))
        })
        .collect();
    Some(CapacityBars {
        bars,
        capacity,
        forwarded: bounded.forwarded,
    })
}

/// Bounded loads as the picture draws them ([`capacity_bars`]).
#[derive(Clone, Debug, PartialEq)]
pub struct CapacityBars {
    /// Each live server's keys as a share of the capacity, in list order.
    pub bars: Vec<(ServerId, f64)>,
    /// The most keys a server takes.
    pub capacity: u32,
    /// The keys that found their first server clockwise full and were forwarded.
    pub forwarded: u32,
}

/// Where the capacity grid is drawn: square cells in rows of ten (twenty, … for a larger
/// capacity), each row numbered in a gutter on its left, under the centre's words and in
/// place of the inner ring of buckets, out to the keys.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    /// Left edge of the cells (the gutter of row numbers is a cell wide, left of it).
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// A cell's side.
    pub cell: f64,
    /// Cells per row.
    pub cols: u32,
}

impl Grid {
    /// The grid of `capacity` cells for a ring of geometry `g`, or `None` when its cells
    /// would be under 9 px (a small embed: the ring of buckets is drawn instead).
    pub fn fit(g: &RingGeometry, s: &Scale, capacity: u32) -> Option<Grid> {
        // From 0.42 of the room's radius above the centre (the centre's words go above
        // it), the bottom corners on the room's edge: (wide·cell / 2)² + (top +
        // rows·cell)² = r², for the row length that gives the largest cells whose top
        // corners are inside too. Rows of ten, so a cell's bucket number reads off its
        // row's number and its column.
        let r = super::scene::inside_keys(g) - s.band * 0.5;
        let top = -r * 0.42;
        let n = f64::from(capacity.max(1));
        let (cell, cols) = (1..=4)
            .map(|tens| {
                let cols = if capacity < 10 {
                    n
                } else {
                    f64::from(tens * 10)
                };
                let (wide, rows) = (cols + 1.0, (n / cols).ceil());
                let (a, b, k) = (
                    wide * wide / 4.0 + rows * rows,
                    2.0 * top * rows,
                    top * top - r * r,
                );
                let cell = (-b + (b * b - 4.0 * a * k).max(0.0).sqrt()) / (2.0 * a);
                let half = wide * cell / 2.0;
                let inside = half * half + top * top <= r * r;
                (if inside { cell } else { 0.0 }, cols)
            })
            .fold((0.0, 1.0), |best, t| if t.0 > best.0 { t } else { best });
        (cell >= 9.0).then(|| Grid {
            x: g.cx - cell * (cols + 1.0) / 2.0 + cell,
            y: g.cy + top,
            cell,
            cols: cols as u32,
        })
    }

    /// How many rows `capacity` cells take.
    pub fn rows(&self, capacity: u32) -> u32 {
        capacity.div_ceil(self.cols.max(1))
    }

    /// The top-left corner of bucket `b`'s cell.
    pub fn corner(&self, b: u32) -> (f64, f64) {
        (
            self.x + f64::from(b % self.cols) * self.cell,
            self.y + f64::from(b / self.cols) * self.cell,
        )
    }

    /// The centre of bucket `b`'s cell.
    pub fn centre(&self, b: u32) -> (f64, f64) {
        let (x, y) = self.corner(b);
        (x + self.cell / 2.0, y + self.cell / 2.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::algorithms::anchor::Anchor;
    use crate::engine::algorithms::memento::Memento;
    use crate::engine::ring::NO_OWNER;
    use crate::engine::sim::fixtures::after_removing;

    fn sim(algo: &str, removed: &[&str]) -> Simulation {
        after_removing(algo, "A,B,C,D,E,F,G,H", "0..100", removed)
    }

    /// Anchor after three removals: the stack drawn is the anchor's own, the three removed
    /// buckets on top of the reserve in the order they left — the same as an `Anchor` made
    /// and updated by hand.
    #[test]
    fn the_anchor_stack_drawn_is_the_anchors_removed_list() {
        let picture = BucketPicture::of(&sim("anchor", &["C", "F", "A"])).unwrap();
        let mut anchor = Anchor::new(100, 8);
        for b in [2, 5, 0] {
            anchor.remove(b);
        }
        assert_eq!(picture.capacity, 100);
        assert!(picture.has_grid());
        assert_eq!(picture.stack_top(5), vec![0, 5, 2, 8, 9]);
        let Structure::Stack(stack) = &picture.structure else {
            panic!("{:?}", picture.structure);
        };
        assert_eq!(stack.len(), 92 + 3);
        assert_eq!(
            picture.structure,
            crate::engine::book::BucketChain::structure(&anchor)
        );
        // The removed buckets are crossed out on the ring: no holder.
        assert_eq!(
            picture.holders.iter().filter(|&&h| h == NO_OWNER).count(),
            3
        );
    }

    /// Memento after two removals: each removed bucket with the last working bucket when it
    /// left, in removal order — the engine's table.
    #[test]
    fn memento_draws_its_replacements_in_removal_order() {
        let picture = BucketPicture::of(&sim("memento", &["C", "F"])).unwrap();
        let mut memento = Memento::new(8);
        memento.remove(2);
        memento.remove(5);
        assert_eq!(memento.replacements(), vec![(2, 7), (5, 6)]);
        assert_eq!(
            picture.structure,
            Structure::Replacements(vec![(2, 7), (5, 6)])
        );
        assert!(!picture.has_grid(), "Memento's array is the ring");
    }

    /// The jump family's ranges, for 7 live buckets (8 servers, one removed).
    #[test]
    fn ranges_are_the_algorithms_own() {
        let ranges = |algo| BucketPicture::of(&sim(algo, &["C"])).unwrap().structure;
        // Flip draws in the whole enclosing power of two (and draws again past the last
        // bucket); JumpBack walks back through the ranges below the bucket count.
        assert_eq!(
            ranges("flip"),
            Structure::Ranges(vec![(0, 1), (1, 2), (2, 4), (4, 8)])
        );
        assert_eq!(
            ranges("jumpback"),
            Structure::Ranges(vec![(0, 1), (1, 2), (2, 4), (4, 7)])
        );
        // Power: f over the enclosing 0..8, g over 4..7 (past it, f again below 4).
        assert_eq!(ranges("power"), Structure::Ranges(vec![(0, 8), (4, 7)]));
        assert_eq!(ranges("binomial"), Structure::Ranges(vec![(0, 4), (0, 8)]));
        assert_eq!(ranges("jump"), Structure::None);
        assert_eq!(ranges("guava"), Structure::None);
        // Dx: its array is the grid, every cell of the capacity.
        let dx = BucketPicture::of(&sim("dx", &["C"])).unwrap();
        assert_eq!((dx.capacity, dx.has_grid()), (100, true));
    }

    /// Jump's hops are its loop's own, counted over the first keys; Dx's chains pass its
    /// whole array evenly where Anchor's crowd into the buckets that left last.
    #[test]
    fn traffic_is_the_lookups_own_work() {
        let jump = sim("jump", &["C"]);
        let t = traffic(&jump, 7);
        let made: u32 = t.hops.iter().map(|h| h.1).sum();
        let walked: usize = (0..100)
            .map(|id| match jump.explain(&jump.key_name(id)).unwrap().how {
                crate::engine::contract::How::Buckets { path, .. } => path.len() - 1,
                _ => unreachable!(),
            })
            .sum();
        assert_eq!(made as usize, walked, "every hop of the 100 keys, once");
        assert!(
            t.hops.iter().all(|h| h.0 .0 < h.0 .1),
            "jump only jumps forward"
        );
        assert!(t.visits.iter().all(|&v| v == 0));
        // Over 600 keys (more, so the shares settle): Dx's passes over its reserve are
        // even, Anchor's fall on few buckets.
        let many = |algo| {
            traffic(
                &after_removing(algo, "A,B,C,D,E,F,G,H", "0..600", &["C"]),
                100,
            )
            .visits
        };
        let spread = |v: &[u32]| {
            let reserve = &v[8..];
            let top = *reserve.iter().max().unwrap() as f64;
            let mean = reserve.iter().sum::<u32>() as f64 / reserve.len() as f64;
            top / mean
        };
        let (dx, anchor) = (many("dx"), many("anchor"));
        assert!(spread(&dx) < 2.0, "{dx:?}");
        assert!(spread(&anchor) > 3.0, "{anchor:?}");
    }

    /// Each rule's layout: JumpBack's ranges one band further in per step back from the
    /// top; Flip's enclosing power of two outside its bit ranges, hatched past the buckets;
    /// Binomial's and Power's overlapping ranges nested.
    #[test]
    fn ranges_are_laid_out_by_each_rule() {
        let bands = |algo| {
            let Structure::Ranges(r) = BucketPicture::of(&sim(algo, &["C"])).unwrap().structure
            else {
                panic!("{algo}");
            };
            range_bands(algo, &r, 7)
                .iter()
                .map(|b| (b.low, b.high, b.level, b.redrawn_from))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            bands("jumpback"),
            [
                (0, 1, 3, None),
                (1, 2, 2, None),
                (2, 4, 1, None),
                (4, 7, 0, None)
            ]
        );
        assert_eq!(
            bands("flip"),
            [
                (0, 8, 0, Some(7)),
                (0, 1, 1, None),
                (1, 2, 1, None),
                (2, 4, 1, None),
                (4, 8, 1, None)
            ]
        );
        assert_eq!(bands("power"), [(0, 8, 0, None), (4, 7, 1, None)]);
        assert_eq!(bands("binomial"), [(0, 4, 0, None), (0, 8, 1, None)]);
    }

    /// The grid stays inside the keys at every size it is drawn, row numbers and all, with
    /// room above it for the centre's two lines; its cells are of teaching size on a
    /// desktop (≥ 18 px in the page's 612-px canvas at 1280×720) and it is left out when they would be too small to see.
    #[test]
    fn the_grid_fits_inside_the_keys() {
        for (w, h, least) in [
            (612.0, 612.0, 18.0),
            (390.0, 500.0, 9.0),
            (1920.0, 1080.0, 28.0),
            (480.0, 360.0, 9.0),
        ] {
            let g = RingGeometry::fit(w, h);
            let s = Scale::new(g.radius, w, h);
            let grid = Grid::fit(&g, &s, 100).expect("a grid");
            assert_eq!((grid.cols, grid.rows(100)), (10, 10), "{w}x{h}");
            let inner = super::super::scene::inside_keys(&g);
            for b in [0, grid.cols - 1, 99 - 99 % grid.cols, 99] {
                let (x, y) = grid.corner(b);
                // The row's number is a cell to the left of its first cell.
                let x = if b % grid.cols == 0 { x - grid.cell } else { x };
                for (px, py) in [(x, y), (x + grid.cell, y + grid.cell)] {
                    assert!(math_hypot(px - g.cx, py - g.cy) <= inner, "{w}x{h} {b}");
                }
            }
            // The centre's two lines above it, inside the ring.
            assert!(grid.y - s.font_px * 2.5 > g.cy - inner, "{w}x{h}");
            assert!(grid.cell >= least, "{w}x{h}: {grid:?}");
        }
        let g = RingGeometry::fit(320.0, 240.0);
        let s = Scale::new(g.radius, 320.0, 240.0);
        assert_eq!(Grid::fit(&g, &s, 100), None);
    }

    /// Bounded loads' bars are its own loads against its own capacity: after a removal the
    /// bars are the survivors' keys, none above the line, and some servers full.
    #[test]
    fn bounded_bars_are_its_loads_against_its_capacity() {
        let sim = sim("bounded", &["C"]);
        let bounded =
            crate::engine::algorithms::bounded::Bounded::of(sim.placement()).expect("bounded");
        let CapacityBars {
            bars,
            capacity,
            forwarded,
        } = capacity_bars(&sim).expect("bars");
        assert_eq!(capacity, bounded.capacity);
        // The keys forwarded are those whose owner is not the first server clockwise.
        let owners = sim.owners();
        let first = (0..sim.keys().len())
            .filter(|&i| {
                let position = sim.keys().positions[i];
                let start = bounded.ring.successor_index(position).unwrap();
                bounded.ring.points()[start].server == owners[i]
            })
            .count();
        assert_eq!(forwarded as usize, sim.keys().len() - first);
        assert!(forwarded > 0);
        assert_eq!(bars.len(), 7, "one bar per live server");
        let mut held = 0;
        for &(id, share) in &bars {
            assert!(sim.server(id).is_some_and(|s| s.up));
            let load = bounded.loads[id as usize];
            assert_eq!(share, f64::from(load) / f64::from(capacity));
            assert_eq!(u64::from(load), sim.count(id), "the loads are the owners");
            assert!(share <= 1.0);
            held += load;
        }
        assert_eq!(held as usize, sim.keys().len());
        assert!(bars.iter().any(|b| b.1 == 1.0), "{bars:?}");
        assert_eq!(capacity_bars(&self::sim("ring", &[])), None);
    }

    fn math_hypot(x: f64, y: f64) -> f64 {
        (x * x + y * y).sqrt()
    }
}
