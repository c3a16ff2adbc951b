//! SVG pictures written as text. The page's SVG charts (the compare scatter, the vnode
//! sweep) are one string each, set as their figure's markup: a line of text per line and
//! dot costs the wasm far less than a virtual-DOM element per line and dot, and the
//! natively run tests read the very markup the page shows.

use super::axes::{ScatterAxes, BREAK_PX};
use super::{scatter_labels, sweep_layout, Box4};
use crate::text::{escape, Fixed};
use crate::words::group_thousands;
use std::fmt::Write;

/// An `<svg>` being written: its elements in drawing order; [`Svg::finish`] closes it.
pub struct Svg(String);

/// A point on the drawing.
pub type Xy = (f64, f64);

impl Svg {
    /// An SVG picture of class `class`, `size` (width, height) in its own units and as
    /// many CSS pixels wide (the page's CSS may scale it to its box), described to screen
    /// readers as `label`.
    pub fn new(class: &str, size: Xy, label: &str) -> Svg {
        let mut s = String::new();
        let w = Fixed(size.0, 0);
        let _ = write!(
            s,
            r#"<svg class="{class}" width="{w}" viewBox="0 0 {w} {}" role="img" aria-label="{}">"#,
            Fixed(size.1, 0),
            escape(label)
        );
        Svg(s)
    }

    /// A line from `a` to `b`.
    pub fn line(&mut self, class: &str, a: Xy, b: Xy) {
        let _ = write!(
            self.0,
            r#"<line class="{class}" x1="{}" y1="{}" x2="{}" y2="{}"/>"#,
            Fixed(a.0, 1),
            Fixed(a.1, 1),
            Fixed(b.0, 1),
            Fixed(b.1, 1)
        );
    }

    /// A dot of radius `r` at `at`.
    pub fn circle(&mut self, class: &str, at: Xy, r: f64) {
        let _ = write!(
            self.0,
            r#"<circle class="{class}" cx="{}" cy="{}" r="{}"/>"#,
            Fixed(at.0, 1),
            Fixed(at.1, 1),
            Fixed(r, 1)
        );
    }

    /// A line through `points`.
    pub fn polyline(&mut self, class: &str, points: &[Xy]) {
        let _ = write!(self.0, r#"<polyline class="{class}" points=""#);
        for (i, p) in points.iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            let _ = write!(self.0, "{sep}{},{}", Fixed(p.0, 1), Fixed(p.1, 1));
        }
        self.0.push_str(r#""/>"#);
    }

    /// Text whose first line's baseline starts at `at`, one line below the other
    /// `line_px` apart.
    pub fn text(&mut self, class: &str, at: Xy, lines: &[&str], line_px: f64) {
        let (x, y) = (Fixed(at.0, 1), Fixed(at.1, 1));
        let _ = write!(self.0, r#"<text class="{class}" x="{x}" y="{y}">"#);
        for (i, line) in lines.iter().enumerate() {
            let dy = if i == 0 { 0.0 } else { line_px };
            let _ = write!(
                self.0,
                r#"<tspan x="{x}" dy="{}">{}</tspan>"#,
                Fixed(dy, 0),
                escape(line)
            );
        }
        self.0.push_str("</text>");
    }

    /// The finished markup.
    pub fn finish(mut self) -> String {
        self.0.push_str("</svg>");
        self.0
    }
}

/// One algorithm on the compare scatter: its row's number, keys moved (%), peak/mean, and
/// how the verdict took it — `picked`, `weighed` or `left-out`, its dot's class.
pub struct ScatterPoint {
    /// The table row's number.
    pub name: String,
    /// Keys moved, in percent.
    pub moved: f64,
    /// Peak / mean load.
    pub peak: f64,
    /// How the verdict took it.
    pub kind: &'static str,
}

/// The compare view's scatter, moved % against peak/mean, `width` units wide and 300 high
/// (the page draws it as wide as it is shown, so its 12 px text stays 12 px): axes with
/// their extents, the ideal share dashed and labelled `ideal_text`, one dot per algorithm
/// classed by the verdict (its picks larger), each label placed clear of dots, ticks and
/// other labels, with a leader line when it stands away from its dot.
pub fn scatter_svg(
    points: &[ScatterPoint],
    ideal: Option<f64>,
    width: f64,
    label: &str,
    ideal_text: &str,
) -> String {
    let (height, pad) = (300.0, 36.0);
    let xy: Vec<Xy> = points.iter().map(|p| (p.moved, p.peak)).collect();
    let axes = ScatterAxes::new(&xy, ideal, width, height, pad);
    let placed: Vec<Xy> = xy.iter().map(|&p| axes.place(p)).collect();
    let names: Vec<&str> = points.iter().map(|p| p.name.as_str()).collect();
    let ideal_x = ideal.map(|i| axes.x[0].at(i));
    let bottom = height - pad;
    // The ticks: (class, anchor's x, baseline, text, how much of its width is left of x).
    let mut ticks: Vec<(&str, f64, f64, String, f64)> = Vec::new();
    for &(span, v) in &axes.x_ticks {
        let x = axes.x[span].at(v);
        ticks.push((
            "tick mid",
            x,
            bottom + 16.0,
            format!("{}%", Fixed(v, 0)),
            0.5,
        ));
    }
    for &v in &axes.y_ticks {
        let y = axes.y.at(v);
        ticks.push(("tick end", pad - 4.0, y + 4.0, Fixed(v, 2).to_string(), 1.0));
    }
    if let Some(x) = ideal_x {
        ticks.push(("tick mid", x, pad - 6.0, ideal_text.to_owned(), 0.5));
    }
    // Their boxes (7 px a character, 14 px a line): the dots' labels keep off them.
    let reserved: Vec<Box4> = ticks
        .iter()
        .map(|(_, x, baseline, text, anchor)| {
            let w = text.chars().count() as f64 * 7.0;
            (x - anchor * w, baseline - 11.0, w, 14.0)
        })
        .collect();
    let labels = scatter_labels(
        &placed,
        &names,
        9.0,
        (7.0, 14.0),
        (width, height),
        5.0,
        &reserved,
    );
    let mut svg = Svg::new("compare-chart", (width, height), label);
    // Faint lines at the ticks, so a dot can be read against them.
    for &(span, v) in &axes.x_ticks {
        let x = axes.x[span].at(v);
        svg.line("grid", (x, pad), (x, bottom));
    }
    for &v in &axes.y_ticks {
        let y = axes.y.at(v);
        svg.line("grid", (pad, y), (width - pad, y));
    }
    // The x axis, broken between the crowd's span and the outliers' (two slashes).
    for s in &axes.x {
        svg.line("axis", (s.start, bottom), (s.end, bottom));
    }
    for s in axes.x.iter().skip(1) {
        for dx in [-BREAK_PX * 0.7, -BREAK_PX * 0.3] {
            let x = s.start + dx;
            svg.line("axis", (x - 3.0, bottom + 5.0), (x + 3.0, bottom - 5.0));
        }
    }
    svg.line("axis", (pad, pad), (pad, bottom));
    // The ideal share moved: a consistent, balanced algorithm sits on this line.
    if let Some(x) = ideal_x {
        svg.line("ideal", (x, pad), (x, bottom));
    }
    for (class, x, y, text, _) in &ticks {
        svg.text(class, (*x, *y), &[text], 14.0);
    }
    for (from, to) in labels.iter().filter_map(|l| l.leader) {
        svg.line("leader", from, to);
    }
    // The verdict's picks last, on top of any dot they share a spot with.
    for picks in [false, true] {
        for (&at, p) in placed.iter().zip(points) {
            if (p.kind == "picked") == picks {
                svg.circle(p.kind, at, if picks { 6.5 } else { 5.0 });
            }
        }
    }
    for l in &labels {
        let lines: Vec<&str> = l.lines.iter().map(String::as_str).collect();
        svg.text("name", l.at, &lines, 14.0);
    }
    svg.finish()
}

/// The vnode sweep: σ against vnodes on a log axis (1 to 1,000), the 1/√v trend through
/// the first point dashed, 640 × 360 units.
pub fn sweep_svg(points: &[(u32, f64)], label: &str) -> String {
    let (width, height, pad) = (640.0, 360.0, 44.0);
    let (measured, trend, y_max) = sweep_layout(points, width, height, pad);
    let mut svg = Svg::new("sweep-chart", (width, height), label);
    svg.line("axis", (pad, height - pad), (width - pad, height - pad));
    svg.line("axis", (pad, pad), (pad, height - pad));
    for (i, decade) in ["1", "10", "100", "1000"].iter().enumerate() {
        let x = pad + i as f64 / 3.0 * (width - 2.0 * pad);
        svg.text("tick mid", (x, height - pad + 18.0), &[decade], 18.0);
    }
    svg.text("tick end", (pad - 6.0, height - pad), &["0"], 18.0);
    let top = group_thousands(y_max.round() as u64);
    svg.text("tick end", (pad - 6.0, pad + 4.0), &[&top], 18.0);
    svg.polyline("trend", &trend);
    svg.polyline("measured", &measured);
    for &at in &measured {
        svg.circle("", at, 4.0);
    }
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elements_are_written_in_order_with_one_decimal_and_text_escaped() {
        let mut svg = Svg::new("chart", (640.0, 300.0), "A & B <\"x\">");
        svg.line("axis", (36.0, 264.0), (604.0, 264.0));
        svg.circle("picked", (100.26, 50.0), 6.5);
        svg.polyline("trend", &[(1.0, 2.0), (3.04, 4.06)]);
        svg.text("tick", (10.0, 20.0), &["1, 2", "3 < 4"], 14.0);
        assert_eq!(
            svg.finish(),
            concat!(
                r#"<svg class="chart" width="640" viewBox="0 0 640 300" role="img" aria-label="A &amp; B &lt;&quot;x&quot;&gt;">"#,
                r#"<line class="axis" x1="36.0" y1="264.0" x2="604.0" y2="264.0"/>"#,
                r#"<circle class="picked" cx="100.3" cy="50.0" r="6.5"/>"#,
                r#"<polyline class="trend" points="1.0,2.0 3.0,4.1"/>"#,
                r#"<text class="tick" x="10.0" y="20.0"><tspan x="10.0" dy="0">1, 2</tspan><tspan x="10.0" dy="14">3 &lt; 4</tspan></text>"#,
                "</svg>"
            )
        );
    }

    /// The scatter as the compare view draws it on a phone (330 units wide, so 1:1): every
    /// algorithm one dot of its verdict's class, the picks larger, and a leader line for
    /// each label that stands away from its dot — ending on that dot.
    #[test]
    fn the_scatter_draws_each_dot_by_the_verdict_and_leads_far_labels_to_their_dots() {
        let kinds = ["picked", "weighed", "left-out"];
        let points: Vec<ScatterPoint> = (0..20)
            .map(|i| ScatterPoint {
                name: (i + 1).to_string(),
                moved: if i == 19 {
                    83.0
                } else {
                    13.0 + f64::from(i % 4) * 0.15
                },
                peak: if i == 19 {
                    1.3
                } else {
                    1.02 + f64::from(i / 4) * 0.02
                },
                kind: kinds[[0, 1, 1, 1][i as usize % 4].max(usize::from(i == 19) * 2)],
            })
            .collect();
        let svg = scatter_svg(&points, Some(14.3), 330.0, "Scatter", "ideal 14.3%");
        assert!(svg.starts_with(r#"<svg class="compare-chart" width="330" viewBox="0 0 330 300""#));
        assert_eq!(svg.matches("<circle ").count(), 20);
        assert_eq!(svg.matches(r#"<circle class="picked""#).count(), 5);
        assert_eq!(svg.matches(r#"<circle class="left-out""#).count(), 1);
        assert_eq!(svg.matches(r#"r="6.5""#).count(), 5);
        assert!(svg.contains(">ideal 14.3%</tspan>"));
        // The crowd near the ideal cannot all sit beside their dots: some labels lead.
        let leaders: Vec<&str> = svg.split(r#"<line class="leader""#).skip(1).collect();
        assert!(!leaders.is_empty(), "{svg}");
        let dots: Vec<(String, String)> = svg
            .split("<circle ")
            .skip(1)
            .map(|c| (attr(c, "cx"), attr(c, "cy")))
            .collect();
        for l in leaders {
            let end = (attr(l, "x2"), attr(l, "y2"));
            assert!(dots.contains(&end), "a leader ends on a dot: {end:?}");
        }
    }

    fn attr(element: &str, name: &str) -> String {
        let from = element.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        element[from..].split('"').next().unwrap().to_owned()
    }
}
