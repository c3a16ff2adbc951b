//! The followed key's walk, magnified. On a ring of 160 points a server the arc from a key
//! to the point that takes it is a pixel or two long, and the rule that tells the ring
//! systems apart — the first point clockwise (ketama, nginx, Envoy on 64-bit hashes),
//! HAProxy's nearer point on either side, ingress-nginx's point at or below — cannot be
//! seen. The loupe lays the stretch of ring around the key out straight, magnified until
//! its points stand apart, and marks the point the lookup chose. The chosen point comes
//! from the placement's own explanation, never worked out again here, so the loupe cannot
//! disagree with the answer.

use super::scene::{Rect, Scale};
use super::RingGeometry;
use crate::engine::contract::{Explanation, How};
use crate::engine::ring::{ServerId, VNode};
use crate::engine::sim::Simulation;

/// Which rule picked the point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    /// The first point at or after the key, clockwise.
    Clockwise,
    /// The nearer of the points either side of the key (HAProxy).
    Nearer,
    /// The largest point at or below the key (ingress-nginx).
    AtOrBelow,
}

/// The stretch of ring the loupe shows: from `from`, `span` ring units clockwise.
#[derive(Clone, Debug, PartialEq)]
pub struct Loupe {
    /// The rule.
    pub rule: Rule,
    /// The stretch's counter-clockwise end.
    pub from: u32,
    /// Its length in ring units.
    pub span: u32,
    /// The key's position.
    pub key: u32,
    /// The points the lookup chose among, inside the stretch, clockwise.
    pub points: Vec<VNode>,
    /// The point the lookup chose.
    pub chosen: VNode,
    /// The points either side of the key: the last before it, the first at or after it.
    pub around: [VNode; 2],
    /// The point on the key's other side, which lost (HAProxy), when another server's: of
    /// two points of one server, HAProxy takes the next without comparing.
    pub rival: Option<VNode>,
    /// Who owns each part of the stretch, as the ring is drawn: `(from, to, server)`, in
    /// fractions of the stretch. Where the owner changes is the rule made visible: at the
    /// points (clockwise, at or below) or halfway between them (the nearer point).
    pub owners: Vec<(f64, f64, ServerId)>,
}

/// A clockwise walk shorter than this many pixels on the ring is shown magnified.
pub const LEGIBLE_WALK_PX: f64 = 40.0;

/// The points drawn either side of the key, at most.
pub const EACH_SIDE: usize = 6;

impl Loupe {
    /// The loupe for `sim`'s lookup `e`, its ring drawn `circumference_px` round: `None`
    /// when its clockwise walk reads on the ring itself, or the algorithm does not walk to
    /// a point.
    pub fn of(e: &Explanation, sim: &Simulation, circumference_px: f64) -> Option<Loupe> {
        let (rule, chosen) = match e.how {
            How::FirstPointClockwise { point } => (Rule::Clockwise, point?),
            How::NearestPoint { point } => (Rule::Nearer, point?),
            How::AtOrBelow { point } => (Rule::AtOrBelow, point?),
            _ => return None,
        };
        let key = e.position;
        let drawn = sim.ring()?;
        // The points the lookup chose among, clockwise (HAProxy's and ingress-nginx's own,
        // not those their rings are drawn with).
        let compared = sim.placement().compared_points().unwrap_or(drawn);
        let near = compared.near(key, EACH_SIDE);
        // Signed offsets from the key (the stretch is short whenever it is drawn).
        let offset = |p: &VNode| i64::from(p.position.wrapping_sub(key) as i32);
        let before = near
            .iter()
            .filter(|p| offset(p) < 0)
            .max_by_key(|p| offset(p))?;
        let after = near
            .iter()
            .filter(|p| offset(p) >= 0)
            .min_by_key(|p| offset(p))?;
        let ends = [offset(before), offset(after), offset(&chosen)];
        let (low, high) = (ends.iter().min()?.min(&0), ends.iter().max()?.max(&0));
        let pad = (high - low) / 3 + 1;
        let span = high - low + 2 * pad;
        // The ring draws a clockwise walk, legible when long enough; HAProxy's and
        // ingress-nginx's rules read only here, on any stretch shorter than a quarter turn.
        let long = span as f64 / 4_294_967_296.0 * circumference_px >= LEGIBLE_WALK_PX;
        if (long && rule == Rule::Clockwise) || span >= 1 << 30 {
            return None;
        }
        let from = key.wrapping_add((low - pad) as u32);
        let within = |position: u32| u64::from(position.wrapping_sub(from)) <= span as u64;
        // `near` runs clockwise from before the stretch: those inside are in order.
        let points: Vec<VNode> = near
            .iter()
            .copied()
            .filter(|p| within(p.position))
            .collect();
        let rival = [*before, *after]
            .into_iter()
            .find(|p| rule == Rule::Nearer && p.server != chosen.server);
        let mut loupe = Loupe {
            rule,
            from,
            span: span as u32,
            key,
            points,
            chosen,
            around: [*before, *after],
            rival,
            owners: Vec::new(),
        };
        // The drawn ring's arcs across the stretch: each point owns up to itself.
        let drawn_points = drawn.points();
        let first = drawn.successor_index(from)?;
        let mut start = 0.0;
        for i in 0..drawn_points.len() {
            let p = drawn_points[(first + i) % drawn_points.len()];
            let end = loupe.at(p.position).min(1.0);
            loupe.owners.push((start, end, p.server));
            if !within(p.position) {
                break;
            }
            start = end;
        }
        Some(loupe)
    }

    /// Which of its captions tells the rule ([`crate::i18n::Words::loupe`]) under the
    /// algorithm named `algo`: Envoy's clockwise walk compares 64-bit hashes; HAProxy
    /// compares distances only between two servers' points, else takes the next.
    pub fn told(&self, algo: &str) -> usize {
        match (self.rule, algo) {
            (Rule::Clockwise, "envoy-ring") => 1,
            (Rule::Clockwise, _) => 0,
            (Rule::Nearer, _) if self.rival.is_none() => 4,
            (Rule::Nearer, _) => 2,
            (Rule::AtOrBelow, _) => 3,
        }
    }

    /// Where `position` lies along the loupe, 0 at its counter-clockwise end, 1 at the other.
    pub fn at(&self, position: u32) -> f64 {
        f64::from(position.wrapping_sub(self.from)) / f64::from(self.span.max(1))
    }
}

/// Where the loupe is drawn on a ring of geometry `g`: under the centre's words and their
/// notes (3.3 lines below the centre), a radius wide — narrower when that leaves no room
/// for its caption, ruler and names — its bottom corners 0.74 radii out, inside the keys
/// (from about 0.77). `None` when even that is too small to read, or the centre is off
/// the canvas.
pub fn place(g: &RingGeometry, s: &Scale) -> Option<Rect> {
    let (tick, r, top) = (
        s.tick_font_px(),
        super::scene::inside_keys(g),
        s.font_px * 3.3,
    );
    let least = top + tick * 5.0;
    let wide = g.radius.min(2.0 * (r * r - least * least).max(0.0).sqrt());
    let bottom = (r * r - wide * wide / 4.0).max(0.0).sqrt();
    let fits = bottom - top >= tick * 5.0 && wide >= tick * 14.0;
    let seen = g.cx > 0.0 && g.cx < s.width && g.cy + bottom < s.height;
    (fits && seen).then(|| Rect {
        x: g.cx - wide / 2.0,
        y: g.cy + top,
        w: wide,
        h: bottom - top,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::Scenario;

    /// Six servers of 160 points each (ketama-like density) under `algo`, and a key on it.
    fn walk(algo: &str, key: &str) -> (Simulation, Explanation) {
        let scenario = Scenario::from_pairs([
            ("algo", algo),
            ("nodes", "a,b,c,d,e,f"),
            ("vnodes", "160"),
            ("keys", "random:10"),
        ])
        .unwrap();
        let sim = Simulation::new(&scenario).unwrap();
        let e = sim.explain(key).unwrap();
        (sim, e)
    }

    fn loupe(sim: &Simulation, e: &Explanation, round: f64) -> Option<Loupe> {
        Loupe::of(e, sim, round)
    }

    #[test]
    fn each_ring_system_shows_its_rule_with_the_chosen_point_and_its_neighbours() {
        for (algo, rule) in [
            ("ketama", Rule::Clockwise),
            ("envoy-ring", Rule::Clockwise),
            ("haproxy", Rule::Nearer),
            ("ingress-nginx", Rule::AtOrBelow),
        ] {
            for key in ["key-7", "user:1001", "a"] {
                let (sim, e) = walk(algo, key);
                let l = loupe(&sim, &e, 1500.0).expect(algo);
                assert_eq!(l.rule, rule, "{algo}");
                assert_eq!(l.chosen.server, e.owner, "{algo} {key}");
                // The key and the chosen point lie inside, with room at both ends.
                for at in [l.at(l.key), l.at(l.chosen.position)] {
                    assert!((0.2..=0.8).contains(&at), "{algo} {key}: {at}");
                }
                assert!(l.points.contains(&l.chosen), "{algo} {key}");
                // Clockwise, as drawn left to right.
                assert!(l
                    .points
                    .windows(2)
                    .all(|w| l.at(w[0].position) <= l.at(w[1].position)));
                // Points either side of the key are shown: the reader sees what was passed over.
                let (k, ps) = (l.at(l.key), &l.points);
                assert!(ps.iter().any(|p| l.at(p.position) < k), "{algo} {key}");
                assert!(ps.iter().any(|p| l.at(p.position) >= k), "{algo} {key}");
                match rule {
                    Rule::Clockwise => assert!(l.at(l.chosen.position) >= k),
                    Rule::AtOrBelow => assert!(l.at(l.chosen.position) <= k),
                    Rule::Nearer => {
                        let far = |p: u32| (l.at(p) - k).abs();
                        if let Some(rival) = l.rival {
                            assert!(far(l.chosen.position) <= far(rival.position), "{key}");
                            assert_ne!(rival.server, l.chosen.server);
                            assert_eq!(l.told(algo), 2);
                        } else {
                            // One server either side: HAProxy takes the next, and says so.
                            assert_eq!(l.chosen, l.around[1], "{key}");
                            assert_eq!(l.told(algo), 4);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_loupe_sits_inside_the_keys_under_the_words_or_nowhere() {
        // A desktop ring (radius 229 px): a radius wide, its corners inside 0.75 radii.
        let g = RingGeometry {
            cx: 300.0,
            cy: 300.0,
            radius: 229.0,
        };
        let s = Scale::new(229.0, 600.0, 600.0);
        let r = place(&g, &s).expect("room on a desktop ring");
        assert_eq!(r.w, 229.0);
        assert!(r.y >= g.cy + s.font_px * 3.3);
        for (x, y) in [(r.x, r.y + r.h), (r.x + r.w, r.y + r.h)] {
            assert!(((x - g.cx).powi(2) + (y - g.cy).powi(2)).sqrt() <= 0.74 * 229.0 + 1e-9);
        }
        assert!(r.h >= s.tick_font_px() * 5.0);
        // A phone's (135 px) has no room for its words; nor a ring zoomed off the canvas.
        let phone = RingGeometry {
            cx: 178.0,
            cy: 178.0,
            radius: 135.0,
        };
        assert_eq!(place(&phone, &Scale::new(135.0, 356.0, 356.0)), None);
        let away = RingGeometry { cx: -400.0, ..g };
        assert_eq!(place(&away, &s), None);
    }

    #[test]
    fn a_walk_that_reads_on_the_ring_is_not_magnified() {
        let scenario = Scenario::from_pairs([("algo", "ring"), ("nodes", "a,b,c")]).unwrap();
        let sim = Simulation::new(&scenario).unwrap();
        let e = sim.explain("key-7").unwrap();
        assert_eq!(loupe(&sim, &e, 1500.0), None);
        // A dense ring's walk is magnified, unless the ring is drawn a million times larger.
        let (sim, e) = walk("ketama", "key-7");
        assert!(loupe(&sim, &e, 1500.0).is_some());
        assert_eq!(loupe(&sim, &e, 1.5e9), None);
        // Nor does a lookup without a point to walk to (mod-N), whatever the ring.
        let modn = Scenario::from_pairs([("algo", "modn"), ("nodes", "a,b")]).unwrap();
        let e = Simulation::new(&modn).unwrap().explain("key-7").unwrap();
        assert_eq!(Loupe::of(&e, &sim, 1500.0), None);
    }
}
