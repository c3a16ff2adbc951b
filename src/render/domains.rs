//! Ceph's failure domains, drawn from the CRUSH layout the placement itself uses: an
//! inner ring of the OSDs, each host's side by side on its own arc (and each rack's hosts
//! under a rack's arc), so that a student sees the map CRUSH descends — and, for a
//! followed object, its group's copies joined to their OSDs, which never share a host.
//!
//! The outer ring stays the placement groups (a cell each, in its primary's colour): that
//! is where objects hash. The inner ring is where the copies go. An OSD's spot is one of
//! equal slots in the map's own order (a depth-first walk from its roots), with an empty
//! slot before each host and another before each rack, so the groups read apart; weights
//! are the load chart's to show, not the spots'.

use super::scene::{distance_from, name_choices, Label, Rect, Scale};
use super::RingGeometry;
use crate::engine::crush::layout::{CrushLayout, LayoutBucket};
use crate::engine::ring::ServerId;
use crate::engine::sim::Simulation;
use crate::math;

/// One OSD's spot on the inner ring.
#[derive(Clone, Debug, PartialEq)]
pub struct OsdSpot {
    /// Its server.
    pub server: ServerId,
    /// Its slot, clockwise from 12 o'clock.
    pub slot: u32,
    /// The bucket that holds it (an index into [`Domains::arcs`]); `None` for an OSD a
    /// root holds itself.
    pub bucket: Option<usize>,
}

/// A bucket below the roots, drawn as an arc over its OSDs' spots.
#[derive(Clone, Debug, PartialEq)]
pub struct DomainArc {
    /// Its name (`node-a`).
    pub name: String,
    /// Its type (`host`, `rack`).
    pub kind: String,
    /// 0 for a bucket that holds OSDs (a host), one more for each level above.
    pub level: u32,
    /// Its first and last OSD's slots.
    pub slots: (u32, u32),
}

/// The inner ring of a Ceph cluster with a CRUSH hierarchy.
#[derive(Clone, Debug, PartialEq)]
pub struct Domains {
    /// Each OSD, in the map's order.
    pub osds: Vec<OsdSpot>,
    /// The buckets below the roots, each before the buckets it holds.
    pub arcs: Vec<DomainArc>,
    /// Slots round the ring: the OSDs' and the gaps between buckets.
    pub slots: u32,
}

impl Domains {
    /// The domains of `sim`'s CRUSH layout (`None` without one).
    pub fn of(sim: &Simulation) -> Option<Domains> {
        let layout = sim.settings().crush.as_deref()?;
        let server = |name: &str| sim.servers().iter().find(|s| s.name == name).map(|s| s.id);
        Some(Domains::walk(layout, &server))
    }

    /// The depth-first walk of `layout` from its roots; `server` names each OSD's server
    /// (an OSD with none is left out).
    fn walk(layout: &CrushLayout, server: &dyn Fn(&str) -> Option<ServerId>) -> Domains {
        let is_child = |b: &LayoutBucket| layout.buckets.iter().any(|p| p.items.contains(&b.name));
        let mut domains = Domains {
            osds: Vec::new(),
            arcs: Vec::new(),
            slots: 0,
        };
        for root in layout.buckets.iter().filter(|b| !is_child(b)) {
            domains.visit(layout, root, None, server);
        }
        domains.slots = domains.slots.max(1);
        domains
    }

    /// Visits `bucket` (an arc unless it is a root, `arc` `None`); returns its level.
    fn visit(
        &mut self,
        layout: &CrushLayout,
        bucket: &LayoutBucket,
        arc: Option<usize>,
        server: &dyn Fn(&str) -> Option<ServerId>,
    ) -> Option<u32> {
        let holds_osds = bucket
            .items
            .iter()
            .any(|i| bucket_named(layout, i).is_none());
        // The gap before a bucket: one before a host, two before a rack.
        if arc.is_some() {
            self.slots += if holds_osds { 1 } else { 2 };
        }
        let (first_osd, mut level) = (self.osds.len(), None);
        for item in &bucket.items {
            match bucket_named(layout, item) {
                Some(child) => {
                    let at = self.arcs.len();
                    self.arcs.push(DomainArc {
                        name: child.name.clone(),
                        kind: child.kind.clone(),
                        level: 0,
                        slots: (0, 0),
                    });
                    match self.visit(layout, child, Some(at), server) {
                        Some(l) => level = level.max(Some(l + 1)),
                        // An empty bucket has no arc.
                        None => {
                            self.arcs.remove(at);
                        }
                    }
                }
                None => {
                    if let Some(id) = server(item) {
                        self.osds.push(OsdSpot {
                            server: id,
                            slot: self.slots,
                            bucket: arc,
                        });
                        self.slots += 1;
                        level = level.max(Some(0));
                    }
                }
            }
        }
        let (first, last) = (self.osds.get(first_osd)?.slot, self.osds.last()?.slot);
        if let Some(at) = arc {
            self.arcs[at].level = level.unwrap_or(0);
            self.arcs[at].slots = (first, last);
        }
        level
    }

    /// The ring position of a slot's middle.
    pub fn position(&self, slot: f64) -> u32 {
        ((slot + 0.5) / f64::from(self.slots) * 4_294_967_296.0) as u64 as u32
    }

    /// The spot of `server`'s OSD.
    pub fn spot(&self, server: ServerId) -> Option<&OsdSpot> {
        self.osds.iter().find(|o| o.server == server)
    }

    /// The host-level bucket (level 0) that holds `server`'s OSD.
    pub fn host_of(&self, server: ServerId) -> Option<&DomainArc> {
        self.spot(server)?.bucket.map(|b| &self.arcs[b])
    }
}

fn bucket_named<'a>(layout: &'a CrushLayout, name: &str) -> Option<&'a LayoutBucket> {
    layout.buckets.iter().find(|b| b.name == name)
}

/// Where the inner ring is drawn, for a ring of geometry `g`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DomainRing {
    /// The radius the OSDs' spots are on.
    pub radius: f64,
    /// An OSD spot's radius.
    pub dot: f64,
    /// The host arcs' band width.
    pub band: f64,
    /// How far out from the centre the centre's words may reach, left and right.
    pub clear: f64,
    /// Where the centre's words are: the title (on two lines when squeezed), the counts,
    /// a followed object's sum (from 3 lines above the centre to 3.3 below,
    /// [`DomainRing::clear`] either side).
    pub centre_words: Rect,
    /// How far out the racks' arcs and names may reach (the keys start beyond).
    pub outer: f64,
}

impl DomainRing {
    /// The inner ring for `slots` slots inside `g`'s keys.
    pub fn fit(g: &RingGeometry, s: &Scale, slots: u32) -> DomainRing {
        let radius = g.radius * 0.6;
        let slot = std::f64::consts::TAU * radius / f64::from(slots.max(1));
        let dot = (slot * 0.36).clamp(2.0, s.font_px * 0.5);
        let band = dot * 2.0 + 6.0;
        // Room inside the band for a name and a half at 3 o'clock, at most 0.45 radii out:
        // the centre's words are fitted inside it.
        let clear = (radius - band / 2.0 - 4.0 - 1.5 * label_height(s)).min(g.radius * 0.45);
        DomainRing {
            radius,
            dot,
            band,
            clear,
            centre_words: Rect {
                x: g.cx - clear,
                y: g.cy - 3.0 * s.font_px,
                w: 2.0 * clear,
                h: 6.3 * s.font_px,
            },
            outer: super::scene::inside_keys(g),
        }
    }

    /// The centre of an OSD's spot.
    pub fn spot_centre(&self, g: &RingGeometry, d: &Domains, spot: &OsdSpot) -> (f64, f64) {
        g.point(d.position(f64::from(spot.slot)), self.radius)
    }

    /// The racks' (and higher buckets') arcs: each level's radius, outside the hosts'.
    pub fn level_radius(&self, level: u32) -> f64 {
        self.radius + self.band / 2.0 + 5.0 * f64::from(level)
    }
}

/// The font size of the buckets' names.
pub fn label_px(s: &Scale) -> f64 {
    s.font_px * 0.9
}

fn label_height(s: &Scale) -> f64 {
    label_px(s) * 1.25
}

/// The buckets' names, each on its arc where it fits: hosts' inside their band (between
/// it and the centre's words), racks' outside it (before the keys). A name is shortened
/// when it does not fit (`name_choices`) and left out when nothing fits; `measure` gives a
/// text's width at `px`.
pub fn domain_labels(
    g: &RingGeometry,
    ring: &DomainRing,
    d: &Domains,
    px: f64,
    measure: &dyn Fn(&str) -> f64,
) -> Vec<(usize, Label)> {
    let full: Vec<String> = d.arcs.iter().map(|a| a.name.clone()).collect();
    // A host's whole name, then its first label (`ceph-osd-01` of
    // `ceph-osd-01.prod.example.com`: what an operator calls it), then shorter.
    let heads: Vec<String> = full
        .iter()
        .map(|n| n.split('.').next().unwrap_or_default().to_owned())
        .collect();
    let distinct = (1..heads.len()).all(|i| !heads[..i].contains(&heads[i]));
    let choices: Vec<Vec<String>> = if distinct && heads != full {
        let shorter = name_choices(&heads);
        (full.iter().zip(shorter))
            .map(|(whole, short)| std::iter::once(whole.clone()).chain(short).collect())
            .collect()
    } else {
        name_choices(&full)
    };
    let h = px * 1.25;
    let mut placed: Vec<(usize, Label)> = Vec::new();
    // Hosts first (the names a student reads), then each level above.
    let mut order: Vec<usize> = (0..d.arcs.len()).collect();
    order.sort_by_key(|&i| d.arcs[i].level);
    for i in order {
        let arc = &d.arcs[i];
        let (a, b) = (f64::from(arc.slots.0), f64::from(arc.slots.1));
        let span = b - a + 0.9;
        // Along the arc from its middle outwards; a host's name inside its band, else
        // outside it (a rack's outside).
        let along = [0.0, -0.2, 0.2, -0.35, 0.35, -0.45, 0.45].map(|t| (a + b) / 2.0 + t * span);
        let sides: &[bool] = if arc.level == 0 {
            &[true, false]
        } else {
            &[false]
        };
        let tries: Vec<(f64, bool)> = sides
            .iter()
            .flat_map(|&inside| along.map(|slot| (slot, inside)))
            .collect();
        let found = choices[i].iter().find_map(|text| {
            let w = measure(text);
            tries.iter().find_map(|&(slot, inside)| {
                let angle = super::angle_of(d.position(slot));
                let (sin, cos) = (math::sin(angle), math::cos(angle));
                // How far the box reaches along the ray.
                let extent = (sin.abs() * w + cos.abs() * h) / 2.0;
                let r = if inside {
                    ring.radius - ring.band / 2.0 - 3.0 - extent
                } else {
                    ring.level_radius(arc.level) + 4.0 + extent
                };
                let (x, y) = (g.cx + r * sin, g.cy - r * cos);
                let rect = Rect {
                    x: x - w / 2.0,
                    y: y - h / 2.0,
                    w,
                    h,
                };
                // Between the centre's words and the band, or the band and the keys (a
                // box's corner reaches further out than its middle).
                let fits = if inside {
                    !rect.overlaps(&ring.centre_words)
                        && farthest_distance(g, &rect) <= ring.radius - ring.band / 2.0
                } else {
                    farthest_distance(g, &rect) <= ring.outer
                        && distance_from(&rect, (g.cx, g.cy)) >= ring.level_radius(arc.level)
                };
                let free = placed.iter().all(|(_, l)| !l.rect.overlaps(&rect));
                (fits && free).then(|| Label {
                    text: text.clone(),
                    rect,
                })
            })
        });
        if let Some(label) = found {
            placed.push((i, label));
        }
    }
    placed
}

/// How far from the centre the farthest corner of `r` is.
fn farthest_distance(g: &RingGeometry, r: &Rect) -> f64 {
    let dx = (r.x - g.cx).abs().max((r.x + r.w - g.cx).abs());
    let dy = (r.y - g.cy).abs().max((r.y + r.h - g.cy).abs());
    crate::math::hypot(dx, dy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::scenario::Scenario;

    /// The scenario of a link's query (`?a=b&c=d`, values as written).
    fn sim(link: &str) -> Simulation {
        let pairs = link
            .trim_start_matches('?')
            .split('&')
            .map(|p| p.split_once('=').unwrap());
        Simulation::new(&Scenario::from_pairs(pairs).unwrap()).unwrap()
    }

    const THREE_HOSTS: &str = "?algo=ceph&nodes=osd.0,osd.1*2,osd.2*0.5,osd.3*1.5,osd.4,osd.5,osd.6*3,osd.7,osd.8*2,osd.9*0.25,osd.10,osd.11&pg_num=64&crush=rule:take:default,chooseleaf:0:host,emit;host:node-a:-1:hdd:-5:ssd:-9(osd.0:hdd,osd.1:hdd,osd.2:ssd,osd.3:hdd);host:node-b:-2:hdd:-6:ssd:-10(osd.4:hdd,osd.5:ssd,osd.6:hdd,osd.7:hdd);host:node-c:-3:hdd:-7:ssd:-11(osd.8:hdd,osd.9:ssd,osd.10:hdd,osd.11:hdd);root:default:-4:hdd:-8:ssd:-12(node-a,node-b,node-c)";

    /// Each arc: its bucket's name, level and first and last slots.
    fn arcs(d: &Domains) -> Vec<(&str, u32, (u32, u32))> {
        let arcs = d.arcs.iter();
        arcs.map(|a| (a.name.as_str(), a.level, a.slots)).collect()
    }

    /// The names placed in a `w` × `h` frame, measured as 0.6 em a character.
    fn placed(d: &Domains, w: f64, h: f64) -> (RingGeometry, DomainRing, Vec<(usize, Label)>) {
        let g = RingGeometry::fit(w, h);
        let scale = Scale::new(g.radius, w, h);
        let ring = DomainRing::fit(&g, &scale, d.slots);
        let px = label_px(&scale);
        let labels = domain_labels(&g, &ring, d, px, &|t| t.chars().count() as f64 * px * 0.6);
        (g, ring, labels)
    }

    /// Each host's OSDs take consecutive slots, in the map's order, with a gap before each
    /// host; the arcs are the hosts'.
    #[test]
    fn a_hosts_osds_sit_side_by_side() {
        let s = sim(THREE_HOSTS);
        let d = Domains::of(&s).unwrap();
        let name = |id| s.server(id).unwrap().name.clone();
        let order: Vec<(String, u32)> = d.osds.iter().map(|o| (name(o.server), o.slot)).collect();
        let expected: Vec<(String, u32)> = (0..12)
            .map(|i| (format!("osd.{i}"), i + 1 + i / 4))
            .collect();
        assert_eq!(order, expected);
        assert_eq!(d.slots, 15);
        assert_eq!(
            arcs(&d),
            [
                ("node-a", 0, (1, 4)),
                ("node-b", 0, (6, 9)),
                ("node-c", 0, (11, 14))
            ]
        );
        let id8 = d.osds[8].server;
        assert_eq!(d.host_of(id8).unwrap().name, "node-c");
    }

    /// Racks hold hosts: a rack's arc spans its hosts', one level up, with two gaps
    /// before it.
    #[test]
    fn racks_span_their_hosts() {
        let link = "?algo=ceph&nodes=osd.0,osd.1,osd.2,osd.3&crush=rule:take:default,chooseleaf:0:rack,emit;host:h1:-1(osd.0);host:h2:-2(osd.1);rack:r1:-3(h1,h2);host:h3:-4(osd.2,osd.3);rack:r2:-5(h3);root:default:-6(r1,r2)";
        let d = Domains::of(&sim(link)).unwrap();
        assert_eq!(
            arcs(&d),
            [
                ("r1", 1, (3, 5)),
                ("h1", 0, (3, 3)),
                ("h2", 0, (5, 5)),
                ("r2", 1, (9, 10)),
                ("h3", 0, (9, 10))
            ]
        );
        assert_eq!(d.slots, 11);
    }

    /// The names sit inside the ring of keys and outside the centre's words, clear of one
    /// another and of every OSD's spot, at every size; a long name is shortened first.
    #[test]
    fn the_names_cover_no_spot_and_no_words() {
        let long = THREE_HOSTS.replace("node-", "ceph-osd-host-0");
        let dotted = THREE_HOSTS
            .replace("node-a", "ceph-osd-01.prod.example.com")
            .replace("node-b", "ceph-osd-02.prod.example.com")
            .replace("node-c", "ceph-osd-03.prod.example.com");
        {
            let d = Domains::of(&sim(&dotted)).unwrap();
            let (_, _, labels) = placed(&d, 612.0, 612.0);
            // Each named by its first label, or that shortened to its own number.
            assert_eq!(labels.len(), 3);
            for (i, l) in &labels {
                let n = format!("0{}", i + 1);
                assert!(
                    l.text == format!("ceph-osd-{n}")
                        || l.text.ends_with(&format!("…{n}"))
                        || l.text.ends_with(&format!("-{n}")),
                    "{}",
                    l.text
                );
            }
        }
        for link in [THREE_HOSTS, &long, &dotted] {
            let s = sim(link);
            let d = Domains::of(&s).unwrap();
            for (w, h) in [
                (612.0, 612.0),
                (370.0, 370.0),
                (900.0, 700.0),
                (240.0, 240.0),
            ] {
                let (g, ring, labels) = placed(&d, w, h);
                if w > 300.0 {
                    assert_eq!(labels.len(), 3, "{w}x{h}: {labels:?}");
                }
                for (i, (_, a)) in labels.iter().enumerate() {
                    assert!(!a.rect.overlaps(&ring.centre_words));
                    assert!(farthest_distance(&g, &a.rect) <= ring.outer);
                    for (_, b) in &labels[i + 1..] {
                        assert!(!a.rect.overlaps(&b.rect));
                    }
                    for spot in &d.osds {
                        let (x, y) = ring.spot_centre(&g, &d, spot);
                        let near = distance_from(&a.rect, (x, y));
                        assert!(near >= ring.dot, "{} covers a spot at {w}x{h}", a.text);
                    }
                }
            }
        }
    }
}
