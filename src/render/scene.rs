//! The ring view's scene, computed without a canvas: sizes, the owned-arc band at screen
//! resolution, server markers and their labels (placed so they never overlap each other,
//! a tick label, or the canvas edge), keys in motion, the animation clock, and what is
//! under the pointer. `ui::ring_canvas` strokes the result.

use crate::math;
use crate::text::fill;
use std::f64::consts::TAU;

use super::{angle_of, circular_distance, nearest, RingGeometry, RING_SPAN};
use crate::engine::keys::splitmix64;
use crate::engine::placement::Shape;
use crate::engine::ring::{arc_len, Ring, ServerId};
use crate::engine::sim::Simulation;
use crate::i18n::Words;
use crate::state::LastChange;
use crate::words::group_thousands;

/// Keys drawn one by one up to this many in view; beyond it, a density band.
pub const MAX_KEY_DOTS: usize = 2_000;
/// How long the changed arcs stay highlighted.
pub const HIGHLIGHT_MS: f64 = 4_000.0;
/// How long moved keys take to walk to their new owner, at speed 1.
pub const WALK_MS: f64 = 1_600.0;

/// Sizes derived from the ring's on-screen radius (at zoom 1) and the canvas.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    /// Width of the owned-arc band.
    pub band: f64,
    /// Label font size.
    pub font_px: f64,
    /// Canvas width in CSS pixels.
    pub width: f64,
    /// Canvas height in CSS pixels.
    pub height: f64,
    /// How much larger than usual key dots are drawn (1 on a screen, more on a projector).
    pub dot_scale: f64,
}

/// Presenting, the smallest text on the ring (ticks, key names) is at least this fraction
/// of the screen's height: 24 px on a 1080p projector, 16 px at 720p — what the back row
/// of a lecture hall reads.
pub const PRESENT_TEXT_FRACTION: f64 = 1.0 / 45.0;

/// Tick and key-name text is this fraction of the server labels' size.
const TICK_RATIO: f64 = 0.85;

impl Scale {
    /// Scale for a canvas whose fitted (zoom 1) ring has radius `base_radius`.
    pub fn new(base_radius: f64, width: f64, height: f64) -> Scale {
        Scale {
            band: (base_radius * 0.06).clamp(6.0, 30.0),
            font_px: (base_radius * 0.055).clamp(11.0, 30.0),
            width,
            height,
            dot_scale: 1.0,
        }
    }

    /// The same, bolder for a projector `screen_height` pixels high: thicker arcs, larger
    /// labels and dots, and no text under [`PRESENT_TEXT_FRACTION`] of the screen.
    pub fn emphasised(self, screen_height: f64) -> Scale {
        let smallest = screen_height * PRESENT_TEXT_FRACTION;
        Scale {
            band: (self.band * 1.5).min(44.0),
            font_px: (self.font_px * 1.3).max(smallest / TICK_RATIO).min(40.0),
            dot_scale: 1.6,
            ..self
        }
    }

    /// The tick labels' (and key names') font size: the smallest text on the ring.
    pub fn tick_font_px(&self) -> f64 {
        self.font_px * TICK_RATIO
    }

    /// The radius of a key's dot (`named`: one of a handful of named keys, drawn larger).
    pub fn key_dot(&self, named: bool) -> f64 {
        (self.width * 0.0045).clamp(1.6, 5.0) * if named { 1.8 } else { 1.0 } * self.dot_scale
    }

    /// The radius of a moving (or moved, marked) key's dot.
    pub fn moving_dot(&self) -> f64 {
        (self.width * 0.005).clamp(2.0, 4.0) * self.dot_scale
    }
}

/// The radius at which key dots start (just inside the band).
pub fn key_radius(g: &RingGeometry, s: &Scale) -> f64 {
    g.radius - s.band * 1.2
}

/// A stretch of the band drawn in one server's colour: the arc `(after, upto]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Segment {
    /// Exclusive start.
    pub after: u32,
    /// Inclusive end.
    pub upto: u32,
    /// The owner.
    pub server: ServerId,
}

/// Below this many pixels of ring per point in view, arcs of one server cannot be told
/// from their neighbours' (a ring of 800 vnodes × 4 servers on a 2,000-pixel circle reads
/// as confetti): the band then shows each server's share instead.
pub const MIN_ARC_PX: f64 = 4.0;

/// Whether `points` arcs over `arc_px` pixels of ring are too fine to tell apart.
pub fn too_fine(points: usize, arc_px: f64) -> bool {
    points > 0 && arc_px / (points as f64) < MIN_ARC_PX
}

/// Each server's share of the ring as one arc, clockwise from 0 in the order of `shares`
/// (indexed by server id, as [`Ring::shares`] gives them): the band's level of detail
/// when its vnodes are too fine to draw. The arcs tile the ring, each as long as all of
/// its server's arcs together.
pub fn share_arcs(shares: &[f64]) -> Vec<Segment> {
    let total: f64 = shares.iter().sum();
    let mut out = Vec::new();
    let mut start = 0u64;
    let mut sum = 0.0;
    for (id, &share) in shares.iter().enumerate() {
        if share <= 0.0 {
            continue;
        }
        sum += share;
        let end = ((sum / total.max(f64::MIN_POSITIVE)) * RING_SPAN + 0.5)
            .floor()
            .min(RING_SPAN) as u64;
        if end > start {
            out.push(Segment {
                after: (start as u32).wrapping_sub(1),
                upto: (end - 1) as u32,
                server: ServerId::try_from(id).unwrap_or(ServerId::MAX),
            });
        }
        start = end;
    }
    out
}

/// The owned-arc band over the visible arc `(from, span)`, in at most about `resolution`
/// segments: each point's own arc when few points are in view, otherwise the owner at each
/// of `resolution` equal steps (a step is under a pixel, so the picture is the same) —
/// so a ring of a million vnodes costs what a ring of a thousand does. Neighbouring
/// segments of one server are merged.
pub fn band_segments(ring: &Ring, from: u32, span: u64, resolution: usize) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    if ring.is_empty() {
        return out;
    }
    let mut push = |after: u32, upto: u32, server: ServerId| match out.last_mut() {
        Some(last) if last.server == server && last.upto == after => last.upto = upto,
        _ => out.push(Segment {
            after,
            upto,
            server,
        }),
    };
    let in_view = visible_points(ring, from, span);
    let count: usize = in_view.iter().map(|r| r.len()).sum();
    if count <= resolution {
        // Exact arcs: every point whose arc reaches into the view, and the one after the
        // view that owns its end.
        let positions = ring.positions();
        let after_view = ring.successor_index(from.wrapping_add((span.max(1) - 1) as u32));
        let mut indexes: Vec<usize> = in_view.into_iter().flatten().collect();
        if let Some(i) = after_view.filter(|i| span < 1 << 32 && !indexes.contains(i)) {
            indexes.push(i);
        }
        for i in indexes {
            let upto = positions[i];
            let after = ring.arc_start(i);
            if after == upto && ring.len() > 1 {
                continue; // a tied point owns nothing
            }
            push(after, upto, ring.points()[i].server);
        }
        return out;
    }
    let steps = resolution.max(1) as u64;
    let mut prev = from.wrapping_sub(1);
    for k in 1..=steps {
        let upto = from.wrapping_add(((span * k / steps).max(1) - 1) as u32);
        push(prev, upto, ring.owner_of(upto));
        prev = upto;
    }
    out
}

/// Indexes of the ring points inside the visible arc `(from − 1, from + span − 1]`, as at
/// most two ranges (the arc may wrap past 2^32 − 1).
pub fn visible_points(ring: &Ring, from: u32, span: u64) -> [std::ops::Range<usize>; 2] {
    let positions = ring.positions();
    if span >= 1 << 32 {
        return [0..positions.len(), 0..0];
    }
    let lo = from;
    let hi = from.wrapping_add((span.max(1) - 1) as u32);
    let start = |p: u32| positions.partition_point(|&x| x < p);
    let end = |p: u32| positions.partition_point(|&x| x <= p);
    if lo <= hi {
        [start(lo)..end(hi), 0..0]
    } else {
        [start(lo)..positions.len(), 0..end(hi)]
    }
}

/// Where each server's marker goes: the angle of its bucket (bucket algorithms), its first
/// vnode on the ring, the middle of its first slot range, its first Maglev cell, its
/// multi-probe point, or (for the other per-key algorithms) evenly around the circle.
pub fn marker_positions(sim: &Simulation) -> Vec<(ServerId, u32)> {
    // Bucket algorithms: at the angle of the server's bucket on the inner ring.
    if let Some((holders, _)) = sim.placement().buckets() {
        let cells = u64::from(display_cells(holders.len()));
        return holders
            .iter()
            .enumerate()
            .filter(|(_, &h)| h != crate::engine::ring::NO_OWNER)
            .map(|(i, &h)| (h, (((2 * i as u64 + 1) << 31) / cells) as u32))
            .collect();
    }
    match (sim.settings().algo.shape(), sim.ring(), sim.slot_table()) {
        (Shape::Vnodes, Some(ring), _) => spread_markers(ring),
        (Shape::SlotRanges, _, Some(table)) => {
            let ranges = table.ranges();
            sim.servers()
                .iter()
                .filter_map(|s| {
                    let (a, b, _) = ranges.iter().find(|r| r.2 == s.id)?;
                    let mid = (u32::from(*a) + u32::from(*b) + 1)
                        << (crate::engine::slots::SLOT_SHIFT - 1);
                    Some((s.id, mid))
                })
                .collect()
        }
        // Maglev: the server's cell nearest the spot its id gives it (its cells are spread
        // over the whole table, so one is always near; the first ones all sit at 0).
        (Shape::TableCells, Some(ring), _) => sim
            .servers()
            .iter()
            .filter_map(|s| {
                let target = golden_position(s.id);
                let p = ring
                    .points()
                    .iter()
                    .filter(|p| p.server == s.id)
                    .min_by_key(|p| circular_distance(p.position, target))?;
                Some((s.id, p.position))
            })
            .collect(),
        // Multi-probe: each server's one point, where its name hashes.
        (Shape::NamePoints, _, _) => sim
            .servers()
            .iter()
            .filter_map(|s| Some((s.id, sim.settings().hash.position(&s.name).ok()?)))
            .collect(),
        // Algorithms without ring positions (mod-N, rendezvous, CARP, the jump family):
        // each server where its id puts it, so adding or removing one moves no other.
        _ => sim
            .servers()
            .iter()
            .map(|s| (s.id, golden_position(s.id)))
            .collect(),
    }
}

/// Each server's marker on a drawn ring: the server's point nearest the spot its id gives
/// it (`golden_position`), so that markers are spread round the ring, each one of the
/// server's own points, and adding or removing a server moves no other marker. A point
/// within 1/(8n) of the ring of a marker placed before it is passed over for the next
/// nearest (HAProxy's first points stood four at 3 o'clock; groupcache's and
/// ingress-nginx's first points were all one server's).
fn spread_markers(ring: &Ring) -> Vec<(ServerId, u32)> {
    let points = ring.points();
    let mut ids: Vec<ServerId> = points.iter().map(|p| p.server).collect();
    crate::engine::order::sort(&mut ids);
    ids.dedup();
    let gap = (RING_SPAN / (8.0 * ids.len().max(1) as f64)).min(RING_SPAN / 48.0) as u32;
    let n = points.len();
    let mut placed: Vec<(ServerId, u32)> = Vec::with_capacity(ids.len());
    for id in ids {
        let target = golden_position(id);
        let start = ring.successor_index(target).unwrap_or(0);
        // Outward from the target, clockwise and counter-clockwise in turn: the server's
        // nearest point that is clear of the markers before it, else its nearest point.
        let mut nearest = None;
        let found = (0..n)
            .flat_map(|k| [(start + k) % n, (start + n - 1 - k % n) % n])
            // A bounded search (a ring of a million points is drawn every frame it
            // changes); a server with no point near its spot still gets its first one.
            .take(2 * n.min(1 << 14))
            .filter(|&i| points[i].server == id)
            .map(|i| points[i].position)
            .find(|&p| {
                nearest.get_or_insert(p);
                placed.iter().all(|&(_, q)| circular_distance(p, q) >= gap)
            });
        let anywhere = || points.iter().find(|p| p.server == id).map(|p| p.position);
        if let Some(p) = found.or(nearest).or_else(anywhere) {
            placed.push((id, p));
        }
    }
    crate::engine::order::sort_by_key(&mut placed, |m| u64::from(m.1));
    placed
}

/// How far out from the centre a picture inside the ring may reach: the keys start at
/// about 0.77 radii (the loupe and the capacity grid keep inside this).
pub fn inside_keys(g: &RingGeometry) -> f64 {
    g.radius * 0.74
}

/// The radius of the bucket algorithms' inner ring of buckets.
pub fn bucket_radius(g: &RingGeometry) -> f64 {
    g.radius * 0.6
}

/// How many cells the inner ring of buckets is drawn with for `used` buckets: a power of
/// two, at least 8, so adding a bucket (jump's n → n + 1) leaves every other where it was
/// until the count passes a power of two; and buckets the algorithm only reserves
/// (Anchor's and Dx's capacity) are not drawn as empty cells that squeeze the used ones
/// together.
pub fn display_cells(used: usize) -> u32 {
    (used.max(1) as u32).next_power_of_two().max(8)
}

/// The golden angle's turn of 2³²: ids 0, 1, 2, … land spread round the ring, each new one
/// in the widest gap left, whatever happened to the others.
pub fn golden_position(id: ServerId) -> u32 {
    u32::from(id).wrapping_mul(0x9E37_79B9)
}

/// Where keys are drawn when their algorithm gives them no ring position (mod-N,
/// rendezvous, CARP, the jump family, the bucket algorithms): in a fan around their
/// owner's marker, so a change shows each moved key leaving one fan for another — not at
/// their hash, which means nothing to these algorithms.
#[derive(Clone, Debug, PartialEq)]
pub struct Fans {
    anchors: Vec<(ServerId, u32)>,
    half_width: u32,
}

impl Fans {
    /// The fans of `sim`'s servers, or `None` when its keys have ring positions.
    pub fn of(sim: &Simulation) -> Option<Fans> {
        if sim.ring().is_some() || sim.slot_table().is_some() {
            return None;
        }
        let mut anchors = marker_positions(sim);
        crate::engine::order::sort_by_key(&mut anchors, |a| u64::from(a.1));
        // Each fan takes 40% of the narrowest gap on either side of its marker.
        let gap = anchors
            .iter()
            .zip(anchors.iter().cycle().skip(1))
            .map(|(a, b)| b.1.wrapping_sub(a.1))
            .filter(|&g| g > 0)
            .min()
            .unwrap_or(u32::MAX);
        let half_width = (f64::from(gap) * 0.4).min(RING_SPAN / 12.0) as u32;
        crate::engine::order::sort_by_key(&mut anchors, |a| u64::from(a.0));
        Some(Fans {
            anchors,
            half_width,
        })
    }

    /// Where every key of `sim` is drawn, in key-layout order.
    pub fn positions(&self, sim: &Simulation) -> Vec<u32> {
        let keys = sim.keys();
        keys.ids
            .iter()
            .zip(sim.owners())
            .map(|(&id, &owner)| self.position(owner, id))
            .collect()
    }

    /// Where key `key_id` owned by `owner` is drawn: in `owner`'s fan at a spot fixed by
    /// the key, so the same key always sits at the same spot of a fan. A server the
    /// change took away keeps the place its id gives it.
    pub fn position(&self, owner: ServerId, key_id: u32) -> u32 {
        let anchor = self
            .anchors
            .binary_search_by_key(&owner, |a| a.0)
            .map_or_else(|_| golden_position(owner), |i| self.anchors[i].1);
        let spot = (splitmix64(u64::from(key_id)) >> 11) as f64 / (1u64 << 53) as f64;
        let offset = ((spot * 2.0 - 1.0) * f64::from(self.half_width)) as i64;
        (i64::from(anchor) + offset).rem_euclid(1 << 32) as u32
    }
}

/// A rectangle in CSS pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left.
    pub x: f64,
    /// Top.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Rect {
    /// True when the two rectangles share any area (touching edges do not count).
    pub fn overlaps(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }

    /// True when the rectangle lies inside `0..width` × `0..height` with `margin` to spare.
    pub fn inside(&self, width: f64, height: f64, margin: f64) -> bool {
        self.x >= margin
            && self.y >= margin
            && self.x + self.w <= width - margin
            && self.y + self.h <= height - margin
    }
}

/// The box of a text of `width` × `height` hung outside the ring at the point (`x`, `y`)
/// on the ray at `angle`: it grows away from the centre on the side it stands.
fn hang(x: f64, y: f64, angle: f64, width: f64, height: f64) -> Rect {
    let (sin, cos) = (math::sin(angle), math::cos(angle));
    let left = if sin > 0.3 {
        x
    } else if sin < -0.3 {
        x - width
    } else {
        x - width / 2.0
    };
    let top = if cos > 0.3 {
        y - height
    } else if cos < -0.3 {
        y
    } else {
        y - height / 2.0
    };
    Rect {
        x: left,
        y: top,
        w: width,
        h: height,
    }
}

/// The ring's four tick marks: position and label.
pub const TICKS: [(u32, &str); 4] = [
    (0, "0"),
    (1 << 30, "2³⁰"),
    (1 << 31, "2³¹"),
    (3 << 30, "3·2³⁰"),
];

/// A text to draw: its box (the text's top-left corner and size).
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// What it says.
    pub text: String,
    /// Where it goes.
    pub rect: Rect,
}

/// The tick labels, hung just outside the band; `measure` gives a text's width at the
/// tick font.
pub fn tick_labels(g: &RingGeometry, s: &Scale, measure: &dyn Fn(&str) -> f64) -> Vec<Label> {
    let h = s.tick_font_px() * 1.2;
    TICKS
        .iter()
        .map(|&(pos, text)| {
            let (x, y) = g.point(pos, g.radius + s.band * 1.4);
            Label {
                text: text.to_owned(),
                rect: hang(x, y, angle_of(pos), measure(text), h),
            }
        })
        .collect()
}

/// One server label, placed.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerLabel {
    /// The server.
    pub server: ServerId,
    /// Its marker's ring position.
    pub position: u32,
    /// The label and where it goes.
    pub label: Label,
    /// The leader line from the marker's edge to the label, when the label stands away
    /// from its marker.
    pub leader: Option<((f64, f64), (f64, f64))>,
}

/// How many steps (each about a line height along the ring) a label may move round the
/// ring from its marker, counting both directions.
const NUDGES: i32 = 40;

/// The corner that the zoom buttons cover (they sit over the canvas's top right): labels
/// keep out of it. Matches `.zoom` in static/style.css.
pub fn zoom_buttons_rect(width: f64) -> Rect {
    Rect {
        x: width - 48.0,
        y: 0.0,
        w: 48.0,
        h: 126.0,
    }
}

/// A key's name placed inside the ring near its dot; `moved` when it had to leave its
/// natural spot, so that a leader line joins it to its dot.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyLabel {
    /// The name and its box.
    pub label: Label,
    /// The dot it names.
    pub dot: (f64, f64),
    /// Whether it stands away from its natural spot.
    pub moved: bool,
}

/// Places the names of the few keys drawn named (a tour's objects) inside the ring, so that
/// no two overlap and none covers an obstacle (the centre's title) or leaves the canvas. Each
/// `(position, dot radius, name)` tries the spot just inside its dot, then spots further in
/// and to either side along the ring; a name with no free spot is left out. `first` (the key
/// the narration is about) is placed before the others, so it always has its spot.
pub fn place_key_labels(
    g: &RingGeometry,
    s: &Scale,
    keys: &[(u32, f64, String)],
    first: Option<usize>,
    obstacles: &[Rect],
    measure: &dyn Fn(&str) -> f64,
) -> Vec<KeyLabel> {
    let h = s.tick_font_px() * 1.2;
    let gap = s.tick_font_px() * 0.35;
    let mut order: Vec<usize> = (0..keys.len()).collect();
    crate::engine::order::sort_by_key(&mut order, |&i| {
        (u64::from(first != Some(i)) << 32) | u64::from(keys[i].0)
    });
    let mut taken: Vec<Rect> = obstacles.to_vec();
    let mut placed = Vec::new();
    for i in order {
        let (pos, dot_radius, text) = &keys[i];
        let w = measure(text);
        let at = |depth: u8, nudge: i8| {
            let radius = dot_radius - gap - f64::from(depth) * h * 0.8;
            let angle = angle_of(*pos) + f64::from(nudge) * h / radius.max(h);
            let (sin, cos) = (math::sin(angle), math::cos(angle));
            // The box's centre, far enough in that the box's edge is at `radius`.
            let reach = radius - (sin.abs() * w + cos.abs() * h) / 2.0;
            let rect = Rect {
                x: g.cx + reach * sin - w / 2.0,
                y: g.cy - reach * cos - h / 2.0,
                w,
                h,
            };
            (reach > 0.0 && rect.inside(s.width, s.height, 0.0)).then_some(rect)
        };
        let spot = (0..6)
            .flat_map(|depth| [0, 1, -1, 2, -2, 3, -3].map(|nudge| (depth, nudge)))
            .find_map(|(depth, nudge)| {
                at(depth, nudge)
                    .filter(|r| taken.iter().all(|t| !t.overlaps(r)))
                    .map(|r| (r, depth > 0 || nudge != 0))
            })
            // The narration's key is named even where only an obstacle leaves room.
            .or_else(|| {
                (first == Some(i))
                    .then(|| at(0, 0).map(|r| (r, false)))
                    .flatten()
            });
        if let Some((rect, moved)) = spot {
            taken.push(rect);
            placed.push(KeyLabel {
                label: Label {
                    text: text.clone(),
                    rect,
                },
                dot: g.point(*pos, *dot_radius),
                moved,
            });
        }
    }
    placed
}

/// A server's marker as drawn: where on the ring it stands, how far outside the ring line
/// it is lifted (0, unless another marker stands on the same spot), and its label's names.
#[derive(Clone, Debug, PartialEq)]
pub struct Marker {
    /// The server.
    pub server: ServerId,
    /// Its ring position.
    pub position: u32,
    /// How far outside the ring line its centre is drawn.
    pub lift: f64,
    /// Its label's names, the full one first (see [`name_choices`]).
    pub names: Vec<String>,
}

impl Marker {
    /// The marker's radius on scale `s`.
    pub fn radius(s: &Scale) -> f64 {
        s.band * 0.75
    }

    /// The marker's centre.
    pub fn centre(&self, g: &RingGeometry) -> (f64, f64) {
        g.point(self.position, g.radius + self.lift)
    }
}

/// The markers for `(server, position)` pairs with their names: a marker that would cover
/// one drawn before it (two servers' points a pixel apart: multi-probe's names that hash
/// near each other) is lifted outward, off the ring, until it is clear — a stack that says
/// "here are two", each still on its own point's ray.
pub fn stack_markers(
    g: &RingGeometry,
    s: &Scale,
    at: &[(ServerId, u32)],
    names: Vec<Vec<String>>,
) -> Vec<Marker> {
    let r = Marker::radius(s);
    let mut drawn: Vec<Marker> = Vec::with_capacity(at.len());
    for (&(server, position), names) in at.iter().zip(names) {
        let mut m = Marker {
            server,
            position,
            lift: 0.0,
            names,
        };
        while drawn.iter().any(|d| {
            let ((x, y), (u, v)) = (d.centre(g), m.centre(g));
            math::hypot(x - u, y - v) < 2.0 * r + 1.0
        }) && m.lift < 20.0 * r
        {
            m.lift += 2.0 * r + 2.0;
        }
        drawn.push(m);
    }
    drawn
}

/// Places one label per marker, in ring order, so that no label covers data — the band,
/// the keys inside it, a marker — nor another label, a tick label or anything in
/// `obstacles`, and all stay on the canvas. Each marker comes with its names, the full one
/// first and then shorter ones (`text::fit_names`): the label tries its natural spot just
/// outside the band, then spots further out and further round the ring, with each name in
/// turn — shortened only when the full name finds no room. A label away from its marker
/// gets a leader line that crosses no other label. A label with no free spot is left out
/// (the table, the hover card and the screen reader's list still name the server).
pub fn place_labels(
    g: &RingGeometry,
    s: &Scale,
    markers: &[Marker],
    obstacles: &[Rect],
    measure: &dyn Fn(&str) -> f64,
) -> Vec<ServerLabel> {
    // A long name placed first can take the room two short ones needed: when some label
    // finds no spot, every label starts from a shorter name, level by level, and the
    // layout that names the most servers wins (the longest names among equals).
    let levels = markers.iter().map(|m| m.names.len()).max().unwrap_or(1);
    let mut best: Vec<ServerLabel> = Vec::new();
    for level in 0..levels {
        let placed = place_labels_from(g, s, markers, level, obstacles, measure);
        if placed.len() > best.len() {
            best = placed;
        }
        if best.len() == markers.len() {
            break;
        }
    }
    best
}

/// [`place_labels`] with each marker's names tried from the `level`-th on (its shortest,
/// when it has fewer).
fn place_labels_from(
    g: &RingGeometry,
    s: &Scale,
    markers: &[Marker],
    level: usize,
    obstacles: &[Rect],
    measure: &dyn Fn(&str) -> f64,
) -> Vec<ServerLabel> {
    let h = s.font_px * 1.25;
    let mut taken: Vec<Rect> = obstacles.to_vec();
    // A lifted marker stands outside the band, where labels go: it is kept clear too.
    let r = Marker::radius(s);
    taken.extend(markers.iter().filter(|m| m.lift > 0.0).map(|m| {
        let (x, y) = m.centre(g);
        Rect {
            x: x - r,
            y: y - r,
            w: 2.0 * r,
            h: 2.0 * r,
        }
    }));
    let mut leaders: Vec<((f64, f64), (f64, f64))> = Vec::new();
    // Ties keep the markers' order (a stable sort).
    let mut order: Vec<&Marker> = markers.iter().collect();
    crate::engine::order::sort_by_key(&mut order, |m| u64::from(m.position));
    let base = g.radius + s.band * 1.4;
    // Nothing of a label may come nearer the centre than the band's outer edge and the
    // markers standing on it.
    let clear_of_data = g.radius + s.band * 0.8;
    // Angular nudges: about a line height along the ring at the base radius.
    let step = (h / base.max(1.0)).min(0.3);
    let mut placed = Vec::new();
    for marker in order {
        let angle = angle_of(marker.position);
        let anchor = g.point(marker.position, clear_of_data + marker.lift);
        let from = level.min(marker.names.len().saturating_sub(1));
        let spot = marker.names[from..].iter().find_map(|text| {
            let w = measure(text);
            (0..6)
                .flat_map(|k| (0..=NUDGES).map(move |n: i32| (k, n)))
                .find_map(|(k, n)| {
                    let nudge = if n % 2 == 0 { n / 2 } else { -(n + 1) / 2 };
                    let r = base + f64::from(k) * h;
                    let a = angle + f64::from(nudge) * step;
                    let rect = hang(g.cx + r * math::sin(a), g.cy - r * math::cos(a), a, w, h);
                    let displaced = k > 0 || nudge != 0;
                    let leader = (anchor, nearest_in(&rect, anchor));
                    let free = rect.inside(s.width, s.height, 2.0)
                        && distance_from(&rect, (g.cx, g.cy)) >= clear_of_data
                        && !taken.iter().any(|t| t.overlaps(&rect))
                        && !leaders.iter().any(|&(a, b)| crosses(a, b, &rect))
                        && !(displaced
                            && (taken.iter().any(|t| crosses(leader.0, leader.1, t))
                                || reach(leader, (g.cx, g.cy)) < clear_of_data - 1.0));
                    free.then(|| (text, rect, displaced.then_some(leader)))
                })
        });
        if let Some((text, rect, leader)) = spot {
            taken.push(rect);
            leaders.extend(leader);
            placed.push(ServerLabel {
                server: marker.server,
                position: marker.position,
                label: Label {
                    text: text.clone(),
                    rect,
                },
                leader,
            });
        }
    }
    placed
}

/// Each label's names for [`place_labels`]: the full one, then shorter ones (the page's
/// rule, `text::fit_names`: the names of one cluster told apart by where they differ) down
/// to four characters — "…1…A" names a server where no longer name finds room (a 300-px
/// embed's corner under the zoom buttons), and the hover card and table give it whole.
pub fn name_choices(full: &[String]) -> Vec<Vec<String>> {
    let refs: Vec<&str> = full.iter().map(String::as_str).collect();
    let shorter = [18, 12, 8, 4].map(|max| crate::text::fit_names(&refs, max));
    (0..full.len())
        .map(|i| {
            let mut names = vec![full[i].clone()];
            for short in &shorter {
                if names.last() != Some(&short[i]) {
                    names.push(short[i].clone());
                }
            }
            names
        })
        .collect()
}

/// The point of `r` nearest `p`.
fn nearest_in(r: &Rect, p: (f64, f64)) -> (f64, f64) {
    (p.0.clamp(r.x, r.x + r.w), p.1.clamp(r.y, r.y + r.h))
}

/// How far the nearest point of `r` is from `p`.
pub(super) fn distance_from(r: &Rect, p: (f64, f64)) -> f64 {
    let q = nearest_in(r, p);
    math::hypot(q.0 - p.0, q.1 - p.1)
}

/// How near the segment `(a, b)` comes to `p`.
fn reach((a, b): ((f64, f64), (f64, f64)), p: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let length = dx * dx + dy * dy;
    let t = if length > 0.0 {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / length).clamp(0.0, 1.0)
    } else {
        0.0
    };
    math::hypot(a.0 + t * dx - p.0, a.1 + t * dy - p.1)
}

/// True when the segment `a`–`b` passes through the inside of `r` (Liang–Barsky clipping;
/// touching an edge does not count).
fn crosses(a: (f64, f64), b: (f64, f64), r: &Rect) -> bool {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [
        (-dx, a.0 - r.x),
        (dx, r.x + r.w - a.0),
        (-dy, a.1 - r.y),
        (dy, r.y + r.h - a.1),
    ] {
        if p == 0.0 {
            if q <= 0.0 {
                return false;
            }
        } else {
            let t = q / p;
            if p < 0.0 {
                t0 = t0.max(t);
            } else {
                t1 = t1.min(t);
            }
        }
    }
    t1 - t0 > 1e-9
}

/// A key in motion: from its own position clockwise to its owner's point — or, drawn in
/// fans, from its old owner's fan to its new one, the shorter way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Walker {
    /// Start position (the key's hash, or its place in the old owner's fan).
    pub from: u32,
    /// End position (the owning vnode or range end, or its place in the new owner's fan).
    pub to: u32,
    /// Where the key is drawn once the change is done: its hash, or `to` in fans.
    pub rest: u32,
    /// Walks the shorter way round (between fans), not clockwise.
    pub direct: bool,
    /// Colour before (the old owner).
    pub was: ServerId,
    /// Colour after (the new owner).
    pub now: ServerId,
    /// Phase offset in 0..1, so a stream of walkers does not move in lockstep.
    pub phase: f64,
}

/// The moved keys of the last change as walkers (at most `cap`, evenly sampled).
pub fn moved_walkers(sim: &Simulation, last: Option<&LastChange>, cap: usize) -> Vec<Walker> {
    let Some(last) = last else {
        return Vec::new();
    };
    let m = &last.movement;
    let keys = sim.keys();
    if m.moved_places.is_empty() || keys.is_empty() {
        return Vec::new();
    }
    let fans = Fans::of(sim);
    let step = (m.moved_places.len() / cap.max(1)).max(1);
    (0..m.moved_places.len())
        .step_by(step)
        .take(cap)
        .filter_map(|i| {
            let place = *m.moved_places.get(i)? as usize;
            let now = *sim.owners().get(place)?;
            let was = m.moved_from[i];
            Some(match &fans {
                Some(fans) => {
                    let id = keys.ids[place];
                    let to = fans.position(now, id);
                    Walker {
                        from: fans.position(was, id),
                        to,
                        rest: to,
                        direct: true,
                        was,
                        now,
                        phase: 0.0,
                    }
                }
                None => {
                    let from = *keys.positions.get(place)?;
                    Walker {
                        from,
                        to: walk_end(sim, from, now),
                        rest: from,
                        direct: false,
                        was,
                        now,
                        phase: 0.0,
                    }
                }
            })
        })
        .collect()
}

/// Whether keys bunch up on the ring — because of the hash, not the picture: twemproxy's
/// fnv1a_64, cut to 32 bits, puts 3,000 sequential names in ~30 spikes in one quadrant,
/// which reads as a broken page unless it is said. A sample of up to 4,096 positions
/// (every k-th) goes into 256 equal arcs; the keys bunch up when they fill under half of
/// the arcs a uniform hash would (n into B arcs fill B·(1 − (1 − 1/B)ⁿ) on average).
pub fn keys_cluster(positions: &[u32]) -> bool {
    const ARCS: usize = 256;
    if positions.len() < 200 {
        return false;
    }
    let stride = positions.len().div_ceil(4096);
    let mut filled = [false; ARCS];
    let mut n = 0usize;
    for &p in positions.iter().step_by(stride) {
        filled[(p >> 24) as usize] = true;
        n += 1;
    }
    let expected = ARCS as f64 * (1.0 - math::powf(1.0 - 1.0 / ARCS as f64, n as f64));
    (filled.iter().filter(|&&f| f).count() as f64) < expected * 0.5
}

/// The arcs a change handed over, as the ring draws them: each arc itself while they are
/// fewer than `bins` (a bin a pixel of the circle), else binned — each bin covered by a
/// changed arc in its old owner's colour, runs of one owner joined — so a change that hands
/// over a hundred thousand arcs (a Ceph host added to a pool of a million groups) is drawn
/// in as many strokes as the circle has pixels, not one stroke an arc every frame (1.1 s).
pub fn arc_runs(arcs: &[crate::engine::ring::ArcChange], bins: usize) -> Vec<Segment> {
    let bins = bins.max(1);
    if arcs.len() <= bins {
        let arc = |a: &crate::engine::ring::ArcChange| Segment {
            after: a.after,
            upto: a.upto,
            server: a.from,
        };
        return arcs.iter().map(arc).collect();
    }
    let width = RING_SPAN / bins as f64;
    let bin_of = |at: u32| ((f64::from(at) / width) as usize).min(bins - 1);
    let mut cover: Vec<Option<ServerId>> = vec![None; bins];
    for a in arcs {
        let (first, last) = (bin_of(a.after.wrapping_add(1)), bin_of(a.upto));
        let mut bin = first;
        loop {
            cover[bin] = Some(a.from);
            if bin == last {
                break;
            }
            bin = (bin + 1) % bins;
        }
    }
    bin_runs(cover.into_iter(), bins)
}

/// Runs of neighbouring bins of one server, the ring cut into `bins` equal bins, `owners`
/// giving each bin's server (`None`: a bin not drawn).
fn bin_runs(owners: impl Iterator<Item = Option<ServerId>>, bins: usize) -> Vec<Segment> {
    let width = RING_SPAN / bins.max(1) as f64;
    let edge = |bin: usize| ((bin as f64 * width) as u64).min(u64::from(u32::MAX)) as u32;
    let mut runs: Vec<Segment> = Vec::new();
    for (bin, owner) in owners.enumerate() {
        let Some(server) = owner else { continue };
        let (after, upto) = (edge(bin), edge(bin + 1).max(edge(bin) + 1));
        match runs.last_mut() {
            Some(run) if run.server == server && run.upto == after => run.upto = upto,
            _ => runs.push(Segment {
                after,
                upto,
                server,
            }),
        }
    }
    runs
}

/// Moved keys' marks as runs along the ring, for when there are too many to draw one by
/// one (removing one of four servers of 800 vnodes moves 12,000 keys: their outlined dots
/// merged into a froth). The ring is cut into `bins` equal arcs; each arc holding a mark is
/// drawn in its marks' majority new owner (Boyer–Moore's vote, one pass), and neighbouring
/// arcs of one owner are joined — the arcs that changed hands, in who took them.
pub fn mark_runs(marks: impl Iterator<Item = (u32, ServerId)>, bins: usize) -> Vec<Segment> {
    let bins = bins.max(1);
    let width = RING_SPAN / bins as f64;
    // (candidate, its lead) per bin.
    let mut vote: Vec<Option<(ServerId, u32)>> = vec![None; bins];
    for (at, owner) in marks {
        let bin = ((f64::from(at) / width) as usize).min(bins - 1);
        vote[bin] = match vote[bin] {
            None | Some((_, 0)) => Some((owner, 1)),
            Some((o, lead)) if o == owner => Some((o, lead + 1)),
            Some((o, lead)) => Some((o, lead - 1)),
        };
    }
    bin_runs(
        vote.into_iter().map(|cast| cast.map(|(server, _)| server)),
        bins,
    )
}

/// Whether `count` outlined dots of radius `dot` along a circle of `circumference` pixels
/// would cover more than half of it: past this, [`mark_runs`] draws them.
pub fn marks_crowd(count: usize, dot: f64, circumference: f64) -> bool {
    count as f64 * 2.0 * (dot + 1.0) > circumference * 0.5
}

/// A steady sample of keys walking to their owners (the "play" animation).
pub fn idle_walkers(sim: &Simulation, cap: usize) -> Vec<Walker> {
    let keys = sim.keys();
    if keys.is_empty() {
        return Vec::new();
    }
    let fans = Fans::of(sim);
    let step = (keys.len() / cap.max(1)).max(1);
    (0..keys.len())
        .step_by(step)
        .take(cap)
        .map(|place| {
            let now = sim.owners()[place];
            let from = fans
                .as_ref()
                .map_or(keys.positions[place], |f| f.position(now, keys.ids[place]));
            Walker {
                from,
                to: walk_end(sim, from, now),
                rest: from,
                direct: false,
                was: now,
                now,
                phase: (splitmix64(place as u64) >> 11) as f64 / (1u64 << 53) as f64,
            }
        })
        .collect()
}

/// Where a key at `from` owned by `owner` walks to: the first point of its owner clockwise
/// (under bounded loads, past the points of full servers), or nowhere (per-key algorithms).
fn walk_end(sim: &Simulation, from: u32, owner: ServerId) -> u32 {
    let Some(ring) = sim.ring() else {
        return from;
    };
    let Some(start) = ring.successor_index(from) else {
        return from;
    };
    let points = ring.points();
    if sim.placement().arrival_order().is_none() || points[start].server == owner {
        return points[start].position;
    }
    (0..points.len())
        .map(|step| points[(start + step) % points.len()])
        .find(|p| p.server == owner)
        .map_or(from, |p| p.position)
}

/// The animation clock at one instant: a pure input, so a frame is a function of (state,
/// view, clock).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    /// Milliseconds since the last change (None before any change).
    pub since_change_ms: Option<f64>,
    /// Milliseconds since the page started (drives the idle stream).
    pub clock_ms: f64,
    /// Animation speed multiplier.
    pub speed: f64,
    /// Whether the idle stream plays.
    pub playing: bool,
}

impl Clock {
    /// True while something on the overlay moves or fades.
    pub fn is_animating(&self) -> bool {
        self.playing
            || self
                .since_change_ms
                .is_some_and(|t| t < HIGHLIGHT_MS.max(WALK_MS / self.speed))
    }

    /// The changed arcs' opacity: 1 right after a change, fading to 0.
    pub fn highlight(&self) -> f64 {
        self.since_change_ms
            .map_or(0.0, |t| 1.0 - (t / HIGHLIGHT_MS).clamp(0.0, 1.0))
    }

    /// How far the moved keys have walked, 0..=1 (1 when there is no walk).
    pub fn walked(&self) -> f64 {
        self.since_change_ms
            .map_or(1.0, |t| (t * self.speed / WALK_MS).clamp(0.0, 1.0))
    }

    /// Where walker `phase` of the idle stream is in its cycle, 0..1.
    pub fn idle_progress(&self, phase: f64) -> f64 {
        (self.clock_ms * self.speed / (WALK_MS * 1.5) + phase).fract()
    }
}

/// What is under the pointer at (`x`, `y`): a title and detail lines for the card.
pub fn describe(
    w: &Words,
    sim: &Simulation,
    g: &RingGeometry,
    s: &Scale,
    x: f64,
    y: f64,
) -> Option<(String, Vec<String>)> {
    let (pos, dist) = g.position_at(x, y);
    let tolerance = hit_tolerance(g);
    let position_line = |p: u32| (w.hover_position)(&group_thousands(u64::from(p)), p);
    if (dist - g.radius).abs() <= s.band {
        if let Some(ring) = sim.ring() {
            if let Some(i) = nearest(ring.positions(), pos, tolerance) {
                let p = ring.points()[i];
                let server = sim.server(p.server)?;
                let share = arc_len(ring.arc_start(i), p.position) as f64 / RING_SPAN;
                let title = match sim.settings().algo.shape() {
                    Shape::SlotRanges => (w.hover_slots)(p.replica, &server.name),
                    Shape::TableCells => (w.hover_cell)(p.replica, &server.name),
                    _ => sim.settings().label.render(&server.name, p.replica),
                };
                return Some((
                    title,
                    vec![
                        position_line(p.position),
                        fill(w.hover_server, &[&server.name]),
                        (w.hover_share)(share),
                    ],
                ));
            }
        }
    }
    let i = key_index_at(sim, g, s, x, y)?;
    let keys = sim.keys();
    let owner = sim.owners()[i];
    Some((
        fill(w.hover_key, &[&sim.key_name(keys.ids[i])]),
        vec![
            position_line(keys.positions[i]),
            fill(
                w.hover_owner,
                &[sim.server(owner).map_or(w.nobody, |s| s.name.as_str())],
            ),
        ],
    ))
}

/// How far (in ring units) a pointer may be from a point and still be on it: about 8 px
/// along the ring.
fn hit_tolerance(g: &RingGeometry) -> u32 {
    let units_per_px = RING_SPAN / (TAU * g.radius.max(1.0));
    (units_per_px * 8.0).min(RING_SPAN / 4.0) as u32
}

/// The index of the key dot under pixel (x, y), if any: on the keys' circle, within a few
/// pixels along the ring.
fn key_index_at(sim: &Simulation, g: &RingGeometry, s: &Scale, x: f64, y: f64) -> Option<usize> {
    let (pos, dist) = g.position_at(x, y);
    let tolerance = hit_tolerance(g);
    let inner = key_radius(g, s);
    if !(dist < inner + 2.0 && dist > inner - g.radius * 0.3) {
        return None;
    }
    let Some(fans) = Fans::of(sim) else {
        return nearest(&sim.keys().positions, pos, tolerance / 2);
    };
    // Keys in fans are drawn only while few: the nearest drawn one.
    if sim.keys().len() > MAX_KEY_DOTS {
        return None;
    }
    fans.positions(sim)
        .iter()
        .enumerate()
        .map(|(i, &p)| (i, circular_distance(p, pos)))
        .filter(|&(_, d)| d <= tolerance / 2)
        .min_by_key(|&(_, d)| d)
        .map(|(i, _)| i)
}

/// The name of the key under pixel (x, y): the key a click pins.
pub fn key_at(sim: &Simulation, g: &RingGeometry, s: &Scale, x: f64, y: f64) -> Option<String> {
    key_index_at(sim, g, s, x, y).map(|i| sim.key_name(sim.keys().ids[i]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where each key is drawn: its ring position, or its place in its owner's fan.
    pub fn key_display_positions(sim: &Simulation) -> std::borrow::Cow<'_, [u32]> {
        match Fans::of(sim) {
            None => std::borrow::Cow::Borrowed(&sim.keys().positions),
            Some(fans) => std::borrow::Cow::Owned(fans.positions(sim)),
        }
    }

    use crate::engine::scenario::Scenario;

    fn sim(pairs: &[(&str, &str)]) -> Simulation {
        Simulation::new(&Scenario::from_pairs(pairs.iter().copied()).unwrap()).unwrap()
    }

    /// `PREFIX0,PREFIX1,…`: `n` server names.
    fn node_list(prefix: &str, n: usize) -> String {
        (0..n)
            .map(|i| format!("{prefix}{i}"))
            .collect::<Vec<_>>()
            .join(",")
    }

    fn seed000() -> Simulation {
        sim(&[
            ("hash", "murmur64a-seed"),
            ("vnodes", "200"),
            ("label", "{node}{i}"),
            ("nodes", "127.1.1.1#A,127.2.2.2#B,127.3.3.3#C,127.4.4.4#D"),
            ("keys", "0..5000"),
        ])
    }

    /// A system-ui glyph is about 0.6 em wide.
    fn measure(font: f64) -> impl Fn(&str) -> f64 {
        move |t: &str| t.chars().count() as f64 * font * 0.6
    }

    fn labels(sim: &Simulation, w: f64, h: f64) -> (Vec<ServerLabel>, Vec<Label>, Scale) {
        let g = RingGeometry::fit(w, h);
        let s = Scale::new(g.radius, w, h);
        let ticks = tick_labels(&g, &s, &measure(s.tick_font_px()));
        let at = marker_positions(sim);
        let names = at
            .iter()
            .map(|&(id, _)| vec![sim.server(id).unwrap().name.clone()])
            .collect();
        let markers = stack_markers(&g, &s, &at, names);
        let mut obstacles: Vec<Rect> = ticks.iter().map(|t| t.rect).collect();
        obstacles.push(zoom_buttons_rect(w));
        let placed = place_labels(&g, &s, &markers, &obstacles, &measure(s.font_px));
        (placed, ticks, s)
    }

    #[test]
    fn keys_that_bunch_up_are_told_from_keys_spread_round() {
        // Spread: splitmix64 of 0..3000. Bunched: 3,000 keys in 30 narrow spikes of one
        // quadrant. Too few to say: 100 keys in one spot.
        let spread: Vec<u32> = (0..3000u64).map(|i| (splitmix64(i) >> 32) as u32).collect();
        let bunched: Vec<u32> = (0..3000u32).map(|i| (i % 30) * (1 << 25) + i).collect();
        assert!(!keys_cluster(&spread));
        assert!(keys_cluster(&bunched));
        assert!(!keys_cluster(&[7; 100]));
    }

    #[test]
    fn crowded_marks_become_runs_in_their_majority_owner() {
        let quarter = 1u32 << 30;
        // Bin 0 (of 4): two to server 2, one to 1 → 2. Bin 1: one to 2 → joins bin 0.
        // Bin 3: one to 1. Bin 2 is empty.
        let marks = [
            (5, 2),
            (7, 1),
            (9, 2),
            (quarter + 3, 2),
            (3 * quarter + 1, 1),
        ];
        let runs = mark_runs(marks.into_iter(), 4);
        let expected = [(0, 2 * quarter, 2), (3 * quarter, u32::MAX, 1)];
        let got: Vec<(u32, u32, ServerId)> =
            runs.iter().map(|r| (r.after, r.upto, r.server)).collect();
        assert_eq!(got, expected);
        // 12,000 dots of radius 3 crowd a 2,000-px circle; 40 do not.
        assert!(marks_crowd(12_000, 3.0, 2_000.0));
        assert!(!marks_crowd(40, 3.0, 2_000.0));
    }

    #[test]
    fn presenting_text_reads_from_the_back_row() {
        // The ring's canvas presenting at 1920×1080 (706 px) and 1280×720 (470 px).
        for (side, screen, at_least) in [(706.0, 1080.0, 24.0), (470.0, 720.0, 16.0)] {
            let g = RingGeometry::fit(side, side);
            let s = Scale::new(g.radius, side, side).emphasised(screen);
            assert!(s.tick_font_px() >= at_least, "{side}: {}", s.tick_font_px());
            assert!(s.font_px > s.tick_font_px());
            assert!(s.key_dot(false) > Scale::new(g.radius, side, side).key_dot(false));
        }
    }

    /// Key names placed for `keys` (position, name) on a `size` canvas, every glyph 0.6 of
    /// the font wide, with the centre's title as an obstacle; checks none overlaps another,
    /// the title or the edge, and returns them.
    fn key_names(keys: &[(u32, &str)], first: Option<usize>, size: f64) -> Vec<KeyLabel> {
        let g = RingGeometry::fit(size, size);
        let s = Scale::new(g.radius, size, size).emphasised(size);
        let inner = key_radius(&g, &s);
        let keys: Vec<(u32, f64, String)> = keys
            .iter()
            .map(|&(p, n)| (p, inner - 5.0, n.to_owned()))
            .collect();
        let title = Rect {
            x: g.cx - 60.0,
            y: g.cy - 20.0,
            w: 120.0,
            h: 40.0,
        };
        let glyph = s.tick_font_px() * 0.6;
        let placed = place_key_labels(&g, &s, &keys, first, &[title], &|t| {
            glyph * t.chars().count() as f64
        });
        for (i, a) in placed.iter().enumerate() {
            assert!(a.label.rect.inside(size, size, 0.0), "{}", a.label.text);
            // (Only the narration's key may, where nothing else leaves it room.)
            assert!(
                (i == 0 && first.is_some()) || !a.label.rect.overlaps(&title),
                "{} covers the title",
                a.label.text
            );
        }
        assert_apart(&placed.iter().map(|k| &k.label).collect::<Vec<_>>());
        placed
    }

    /// No two of `labels` overlap.
    fn assert_apart(labels: &[&Label]) {
        for (i, a) in labels.iter().enumerate() {
            for b in &labels[i + 1..] {
                assert!(!a.rect.overlaps(&b.rect), "{} / {}", a.text, b.text);
            }
        }
    }

    #[test]
    fn key_names_never_overlap_and_the_narrations_key_is_always_named() {
        // Twenty keys in four fans (mod-N's picture: keys gathered by owner), key 20 the
        // one the narration is about.
        let fans: Vec<(u32, String)> = (1..=20u32)
            .map(|k| ((k % 4) << 30 | (k / 4) << 22, k.to_string()))
            .collect();
        let keys: Vec<(u32, &str)> = fans.iter().map(|(p, n)| (*p, n.as_str())).collect();
        for size in [320.0, 600.0, 1000.0] {
            let placed = key_names(&keys, Some(19), size);
            assert!(
                placed.iter().any(|k| k.label.text == "20"),
                "{size}: key 20 named"
            );
            assert!(placed.len() >= 12, "{size}: {} of 20 named", placed.len());
        }
        // Keys on one spot: names stacked inward, joined to their dot.
        let same = [(7u32, "a"), (7, "b"), (7, "c")];
        let placed = key_names(&same, None, 600.0);
        assert_eq!(placed.len(), 3);
        assert_eq!(placed.iter().filter(|k| k.moved).count(), 2);
    }

    proptest::proptest! {
        #[test]
        fn key_names_never_overlap_wherever_the_keys_are(
            keys in proptest::collection::vec((proptest::prelude::any::<u32>(), "[a-z0-9:]{1,12}"), 1..24),
            first in 0usize..24,
            size in 200.0f64..1200.0,
        ) {
            let refs: Vec<(u32, &str)> = keys.iter().map(|(p, n)| (*p, n.as_str())).collect();
            let first = (first < refs.len()).then_some(first);
            let placed = key_names(&refs, first, size);
            if let Some(f) = first {
                // The first is placed unless its name is wider than the ring's inside.
                let fits = refs[f].1.len() as f64 * 12.0 < size * 0.25;
                proptest::prop_assert!(!fits || placed.first().is_some_and(|k| k.label.text == refs[f].1));
            }
        }
    }

    #[test]
    fn labels_never_overlap_each_other_a_tick_or_the_edge() {
        let seed = seed000();
        let many = sim(&[("nodes", &node_list("server-", 24)), ("keys", "0..100")]);
        for s in [&seed, &many] {
            for (w, h) in [
                (600.0, 600.0),
                (900.0, 560.0),
                (360.0, 360.0),
                (1600.0, 900.0),
            ] {
                let (placed, ticks, scale) = labels(s, w, h);
                assert_apart(&placed.iter().map(|p| &p.label).collect::<Vec<_>>());
                for a in &placed {
                    assert!(
                        a.label.rect.inside(w, h, 0.0),
                        "{} at {w}x{h}",
                        a.label.text
                    );
                    for t in &ticks {
                        assert!(
                            !a.label.rect.overlaps(&t.rect),
                            "{} covers tick {}",
                            a.label.text,
                            t.text
                        );
                    }
                }
                assert!(scale.font_px >= 11.0);
            }
        }
        // Seed 000's four servers all get a label outside the ring, even on a phone.
        for (w, h) in [(560.0, 560.0), (600.0, 600.0), (340.0, 340.0)] {
            let (placed, _, _) = labels(&seed, w, h);
            assert_eq!(placed.len(), 4, "{w}x{h}");
            let g = RingGeometry::fit(w, h);
            for p in &placed {
                let r = p.label.rect;
                let near = crate::math::hypot(
                    g.cx.clamp(r.x, r.x + r.w) - g.cx,
                    g.cy.clamp(r.y, r.y + r.h) - g.cy,
                );
                assert!(
                    near > g.radius,
                    "{} touches the ring at {w}x{h}",
                    p.label.text
                );
            }
        }
    }

    #[test]
    fn every_algorithm_draws_one_marker_per_server_and_none_on_another() {
        // Issue 49: groupcache and ingress-nginx number their points across the ring, and
        // showed one marker of six; HAProxy's first points put four at 3 o'clock.
        for &algo in crate::engine::placement::Algorithm::ALL {
            let nodes = if algo.name() == "ceph" {
                "osd.0,osd.1,osd.2,osd.3,osd.4,osd.5"
            } else {
                "A,B,C,D,E,F"
            };
            let sim = sim(&[("algo", algo.name()), ("nodes", nodes), ("keys", "0..300")]);
            let markers = marker_positions(&sim);
            let mut ids: Vec<ServerId> = markers.iter().map(|m| m.0).collect();
            crate::engine::order::sort(&mut ids);
            let live: Vec<ServerId> = sim.servers().iter().map(|s| s.id).collect();
            assert_eq!(ids, live, "{algo}: one marker per server");
            if algo.shape() == Shape::Vnodes {
                for (i, a) in markers.iter().enumerate() {
                    for b in &markers[i + 1..] {
                        assert!(
                            circular_distance(a.1, b.1) >= (RING_SPAN / 48.0) as u32,
                            "{algo}: markers of {} and {} a few pixels apart",
                            a.0,
                            b.0
                        );
                    }
                }
            }
        }
    }

    /// A change's arcs are drawn one by one while few; many are binned, every changed arc
    /// still covered (none left out of the drawing) in its old owner's colour.
    #[test]
    fn many_handed_over_arcs_are_drawn_binned_and_whole() {
        use crate::engine::ring::ArcChange;
        let arc = |after: u32, upto: u32, from: ServerId| ArcChange {
            after,
            upto,
            from,
            to: 9,
        };
        let few = [arc(10, 20, 1), arc(u32::MAX - 5, 3, 2)];
        let drawn = arc_runs(&few, 100);
        assert_eq!(drawn.len(), 2);
        assert_eq!(
            (drawn[1].after, drawn[1].upto, drawn[1].server),
            (u32::MAX - 5, 3, 2)
        );
        // 100,000 arcs of one cell each of a million (every tenth cell), owners alternating
        // in runs of 5,000: binned to at most 1,000 strokes, every arc's middle inside one,
        // in its owner's colour away from where the owners change.
        let cell = (1u64 << 32) / 1_000_000;
        let many: Vec<ArcChange> = (0..100_000u64)
            .map(|i| {
                let after = (i * 10 * cell) as u32;
                arc(after, after + cell as u32, (i / 5_000 % 2) as ServerId)
            })
            .collect();
        let drawn = arc_runs(&many, 1000);
        assert!(drawn.len() <= 1000, "{}", drawn.len());
        for a in many.iter().step_by(97) {
            let mid = a.after + (a.upto - a.after) / 2;
            let stroke = drawn.iter().find(|s| s.after <= mid && mid <= s.upto);
            let stroke = stroke.unwrap_or_else(|| panic!("arc at {mid} not drawn"));
            let i = u64::from(a.after) / (10 * cell);
            if i % 5_000 > 200 && i % 5_000 < 4_800 {
                assert_eq!(stroke.server, a.from, "arc {i}");
            }
        }
        let covered: u64 = drawn.iter().map(|s| u64::from(s.upto - s.after)).sum();
        assert!(covered >= (1u64 << 32) * 99 / 100, "{covered}");
    }

    #[test]
    fn long_names_are_shortened_before_a_label_covers_the_ring() {
        let names: Vec<String> = (1..=6)
            .map(|i| format!("cache-0{i}.prod.example.com:11211"))
            .collect();
        let sim = sim(&[
            ("algo", "ketama"),
            ("nodes", &names.join(",")),
            ("keys", "0..300"),
        ]);
        for (w, h) in [(612.0, 612.0), (370.0, 370.0), (900.0, 700.0)] {
            let g = RingGeometry::fit(w, h);
            let s = Scale::new(g.radius, w, h);
            let ticks: Vec<Rect> = tick_labels(&g, &s, &measure(s.tick_font_px()))
                .iter()
                .map(|t| t.rect)
                .collect();
            let choices = name_choices(&names);
            let at = marker_positions(&sim);
            let names = at
                .iter()
                .map(|&(id, _)| choices[usize::from(id)].clone())
                .collect();
            let markers = stack_markers(&g, &s, &at, names);
            let placed = place_labels(&g, &s, &markers, &ticks, &measure(s.font_px));
            assert_eq!(placed.len(), 6, "{w}x{h}: every server named");
            assert_apart(&placed.iter().map(|p| &p.label).collect::<Vec<_>>());
            for p in &placed {
                let r = p.label.rect;
                assert!(
                    distance_from(&r, (g.cx, g.cy)) >= g.radius + s.band * 0.8,
                    "{} covers the band at {w}x{h}",
                    p.label.text
                );
                if let Some(leader) = p.leader {
                    assert!(reach(leader, (g.cx, g.cy)) >= g.radius + s.band * 0.7);
                }
                for q in &placed {
                    if let Some((a, b)) = q.leader.filter(|_| q.server != p.server) {
                        assert!(!crosses(a, b, &r), "a leader crosses {}", p.label.text);
                    }
                }
            }
        }
        // Where there is room, the full name.
        let g = RingGeometry::fit(1600.0, 700.0);
        let s = Scale::new(g.radius, 1600.0, 700.0);
        let at = marker_positions(&sim);
        let choices = at
            .iter()
            .map(|&(id, _)| vec![names[usize::from(id)].clone(), "x".into()])
            .collect();
        let markers = stack_markers(&g, &s, &at, choices);
        let placed = place_labels(&g, &s, &markers, &[], &measure(s.font_px));
        assert!(placed.iter().filter(|p| p.label.text.len() > 20).count() >= 4);
    }

    /// The sample documentation page's second frame: seed 000's four servers on a 300-px
    /// canvas, the zoom buttons over its top-right corner, each marker in the middle of its
    /// server's summed arc (as the page draws 800 vnodes there). 127.1.1.1#A's corner is
    /// under the buttons: it is named by its four-character name, the others in full.
    #[test]
    fn a_small_frames_corner_under_the_zoom_buttons_still_names_its_server() {
        let sim = seed000();
        let (w, h) = (300.0, 300.0);
        let g = RingGeometry::fit(w, h);
        let s = Scale::new(g.radius, w, h);
        let mut obstacles: Vec<Rect> = tick_labels(&g, &s, &measure(s.tick_font_px()))
            .iter()
            .map(|t| t.rect)
            .collect();
        obstacles.push(zoom_buttons_rect(w));
        let at: Vec<(ServerId, u32)> = share_arcs(&sim.ring_shares().unwrap())
            .iter()
            .map(|a| {
                let half = (crate::engine::ring::arc_len(a.after, a.upto) / 2) as u32;
                (a.server, a.after.wrapping_add(half))
            })
            .collect();
        let full: Vec<String> = at
            .iter()
            .map(|&(id, _)| sim.server(id).unwrap().name.clone())
            .collect();
        let markers = stack_markers(&g, &s, &at, name_choices(&full));
        // As the page measures them: the bold label's glyphs and its colour swatch.
        let drawn = |t: &str| t.chars().count() as f64 * s.font_px * 0.63 + s.font_px * 0.95;
        let placed = place_labels(&g, &s, &markers, &obstacles, &drawn);
        let mut named: Vec<&str> = placed.iter().map(|p| p.label.text.as_str()).collect();
        named.sort_unstable();
        assert_eq!(named, ["127.2.2.2#B", "127.3.3.3#C", "127.4.4.4#D", "…1…A"]);
        assert_apart(&placed.iter().map(|p| &p.label).collect::<Vec<_>>());
        for p in &placed {
            assert!(
                obstacles.iter().all(|o| !o.overlaps(&p.label.rect)),
                "{}",
                p.label.text
            );
        }
    }

    #[test]
    fn a_leader_crossing_is_found() {
        let r = Rect {
            x: 10.0,
            y: 10.0,
            w: 10.0,
            h: 10.0,
        };
        assert!(crosses((0.0, 15.0), (30.0, 15.0), &r));
        assert!(crosses((15.0, 0.0), (15.0, 12.0), &r));
        assert!(!crosses((0.0, 0.0), (30.0, 5.0), &r));
        assert!(!crosses((0.0, 10.0), (30.0, 10.0), &r), "along an edge");
        assert!(!crosses((21.0, 0.0), (21.0, 30.0), &r));
    }

    #[test]
    fn the_band_costs_the_same_for_a_million_vnodes() {
        let small = sim(&[("nodes", "A,B"), ("vnodes", "3"), ("keys", "0..10")]);
        let ring = small.ring().unwrap();
        // Few points: exact arcs, which tile the circle.
        let exact = band_segments(ring, 0, 1 << 32, 1000);
        let covered: u64 = exact.iter().map(|s| arc_len(s.after, s.upto)).sum();
        assert_eq!(covered, 1 << 32);
        for s in &exact {
            assert_eq!(ring.owner_of(s.upto), s.server);
        }
        let big = sim(&[
            ("nodes", &node_list("s", 100)),
            ("vnodes", "1000"),
            ("keys", "0..10"),
        ]);
        let ring = big.ring().unwrap();
        let binned = band_segments(ring, 0, 1 << 32, 2000);
        assert!(binned.len() <= 2000, "{}", binned.len());
        for s in &binned {
            assert_eq!(ring.owner_of(s.upto), s.server);
        }
        // Zoomed in on a small arc: exact again.
        let span = 1u64 << 20;
        let zoomed = band_segments(ring, 5 << 28, span, 2000);
        let positions = ring.positions();
        let inside = positions
            .iter()
            .filter(|&&p| p >= 5 << 28 && u64::from(p) < (5u64 << 28) + span)
            .count();
        assert!(zoomed.len() <= inside + 1 && !zoomed.is_empty());
    }

    #[test]
    fn the_clock_fades_and_walks() {
        let c = Clock {
            since_change_ms: Some(0.0),
            clock_ms: 0.0,
            speed: 1.0,
            playing: false,
        };
        assert!(c.is_animating());
        assert_eq!((c.highlight(), c.walked()), (1.0, 0.0));
        let later = Clock {
            since_change_ms: Some(WALK_MS / 2.0),
            ..c
        };
        assert_eq!(later.walked(), 0.5);
        let done = Clock {
            since_change_ms: Some(HIGHLIGHT_MS + 1.0),
            ..c
        };
        assert!(!done.is_animating());
        assert_eq!(done.highlight(), 0.0);
        assert!(Clock {
            playing: true,
            ..done
        }
        .is_animating());
        let quick = Clock {
            since_change_ms: Some(HIGHLIGHT_MS - 1.0),
            speed: 4.0,
            ..c
        };
        assert!(quick.is_animating(), "the highlight outlasts a fast walk");
    }

    #[test]
    fn hovering_names_the_vnode_or_key_under_the_pointer() {
        let s = sim(&[
            ("hash", "identity"),
            ("label", "{node}{i}"),
            ("nodes", "1,2"),
            ("vnodes", "2"),
            ("keys", "list:1000000000,3000000000"),
        ]);
        let g = RingGeometry::fit(400.0, 400.0);
        let sc = Scale::new(g.radius, 400.0, 400.0);
        // Vnode "20" sits at position 20: 12 o'clock, on the band.
        let (x, y) = g.point(20, g.radius);
        let (title, lines) = describe(&crate::i18n::EN, &s, &g, &sc, x, y).unwrap();
        assert_eq!(title, "20");
        assert_eq!(lines[1], "server 2");
        // Key 3000000000 sits at about 8 o'clock, just inside the band.
        let (x, y) = g.point(3_000_000_000, key_radius(&g, &sc) - 1.0);
        let (title, lines) = describe(&crate::i18n::EN, &s, &g, &sc, x, y).unwrap();
        assert_eq!(title, "key 3000000000");
        assert!(lines[1].starts_with("owner "), "{lines:?}");
        // The centre is empty.
        assert_eq!(describe(&crate::i18n::EN, &s, &g, &sc, 200.0, 200.0), None);
    }

    #[test]
    fn walkers_go_to_the_new_owner_point() {
        let state = crate::state::PageState::new(
            &Scenario::from_pairs([("nodes", "A,B,C"), ("keys", "0..3000")]).unwrap(),
        )
        .unwrap()
        .reduce(crate::state::Action::Apply(
            crate::engine::sim::Change::Remove("B".into()),
        ));
        let walkers = moved_walkers(&state.sim, state.last.as_deref(), 100);
        assert_eq!(walkers.len(), 100);
        let ring = state.sim.ring().unwrap();
        for w in &walkers {
            assert_eq!(w.was, 1, "every moved key was B's");
            assert_eq!(ring.successor(w.from).unwrap().position, w.to);
            assert_eq!(ring.owner_of(w.from), w.now);
        }
        assert_eq!(idle_walkers(&state.sim, 240).len(), 240);
    }

    #[test]
    fn per_key_algorithms_keep_their_markers_and_draw_keys_in_their_owners_fan() {
        for algo in [
            "modn",
            "rendezvous",
            "carp",
            "jump",
            "power",
            "anchor",
            "memento",
            "dx",
            "flip",
        ] {
            let before = crate::state::PageState::new(
                &Scenario::from_pairs([("algo", algo), ("nodes", "A,B,C,D"), ("keys", "0..400")])
                    .unwrap(),
            )
            .unwrap();
            let after = before.reduce(crate::state::Action::Apply(
                crate::engine::sim::Change::add("E"),
            ));
            // Adding E moves no other server's marker.
            let (old, new) = (marker_positions(&before.sim), marker_positions(&after.sim));
            for m in &old {
                assert!(new.contains(m), "{algo}: {m:?} moved");
            }
            // Every key sits in its owner's fan, and fans do not overlap.
            let fans = Fans::of(&after.sim).expect(algo);
            let shown = key_display_positions(&after.sim);
            for (place, &owner) in after.sim.owners().iter().enumerate() {
                let (_, anchor) = *new.iter().find(|m| m.0 == owner).unwrap();
                let off = shown[place]
                    .wrapping_sub(anchor)
                    .min(anchor.wrapping_sub(shown[place]));
                assert!(
                    off <= fans.half_width,
                    "{algo}: key {place} outside its fan"
                );
            }
            let mut anchors: Vec<u32> = new.iter().map(|m| m.1).collect();
            anchors.sort_unstable();
            for pair in anchors.windows(2) {
                assert!(
                    pair[1] - pair[0] > 2 * fans.half_width,
                    "{algo}: fans overlap"
                );
            }
            // A moved key walks from its old owner's fan to its new one.
            for w in moved_walkers(&after.sim, after.last.as_deref(), 50) {
                assert!(w.direct && w.rest == w.to, "{algo}");
                if algo != "modn" {
                    assert_eq!(w.now, 4, "{algo}: keys move only to E");
                }
            }
        }
        // Maglev's, Anchor's and Dx's markers spread (over the cells in use, with room to
        // grow) instead of piling at 0.
        for algo in ["maglev", "anchor", "dx"] {
            let state = crate::state::PageState::new(
                &Scenario::from_pairs([("algo", algo), ("nodes", "A,B,C,D"), ("keys", "0..100")])
                    .unwrap(),
            )
            .unwrap();
            let mut at: Vec<u32> = marker_positions(&state.sim).iter().map(|m| m.1).collect();
            at.sort_unstable();
            let widest = at.windows(2).map(|w| w[1] - w[0]).max().unwrap();
            assert!(
                at[3] - at[0] > 1 << 30,
                "{algo}: {at:?} piled up (widest gap {widest})"
            );
        }
        // The ring keeps its keys at their hash.
        let ring = crate::state::PageState::new(
            &Scenario::from_pairs([("nodes", "A,B"), ("keys", "0..10")]).unwrap(),
        )
        .unwrap();
        assert!(Fans::of(&ring.sim).is_none());
        assert_eq!(
            &*key_display_positions(&ring.sim),
            ring.sim.keys().positions.as_slice()
        );
    }

    /// 800 vnodes a server: the band's summary gives each server one arc exactly as long
    /// as all its arcs, tiling the ring; the arcs are too fine at full view and not at 1/64.
    #[test]
    fn a_dense_ring_is_summed_up_as_one_arc_per_server() {
        let sim = sim(&[("vnodes", "800"), ("nodes", "A,B,C,D"), ("keys", "0..10")]);
        let shares = sim.ring_shares().unwrap();
        let arcs = share_arcs(&shares);
        assert_eq!(arcs.len(), 4);
        assert_eq!(arcs[0].after, u32::MAX, "from 0");
        assert_eq!(arcs[3].upto, u32::MAX, "to 2³²");
        let mut total = 0u64;
        for (a, share) in arcs.iter().zip(&shares) {
            let len = arc_len(a.after, a.upto);
            assert!(
                (len as f64 / RING_SPAN - share).abs() < 1e-9,
                "{len} against {share}"
            );
            total += len;
        }
        assert_eq!(total, 1 << 32);
        for pair in arcs.windows(2) {
            assert_eq!(pair[0].upto, pair[1].after, "no gap, no overlap");
        }
        // 3,200 arcs on a 2,000-pixel circle blur; a 64th of it over 1,000 pixels does not.
        assert!(too_fine(3200, 2000.0));
        assert!(!too_fine(3200 / 64, 1000.0));
        assert!(!too_fine(0, 10.0));
    }
}
