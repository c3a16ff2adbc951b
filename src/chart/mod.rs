//! Charts drawn with plotters, generic over the drawing backend: the page draws them on a
//! canvas (plotters-canvas), the tests draw them to SVG natively and check what came out.
//!
//! The load chart follows the best existing visualizers: bars in each server's colour, the
//! previous counts as outlined "ghost" bars so a change's movement is visible, and the mean
//! as a dashed line.

pub mod axes;
pub mod svg;
pub mod table;

use crate::math;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::text::{fit_names, Fixed};
use crate::words::group_thousands;

/// One server's bar.
#[derive(Clone, Debug, PartialEq)]
pub struct LoadBar {
    /// Server name (the x label).
    pub label: String,
    /// Keys now.
    pub count: u64,
    /// Keys before the last change, when there was one.
    pub before: Option<u64>,
    /// Server colour.
    pub rgb: (u8, u8, u8),
}

/// Colours of the chart chrome.
#[derive(Clone, Copy, Debug)]
pub struct Theme {
    /// Background.
    pub background: RGBColor,
    /// Axis lines and labels.
    pub foreground: RGBColor,
    /// Grid lines.
    pub grid: RGBColor,
}

/// The page's dark theme.
pub const DARK: Theme = Theme {
    background: RGBColor(0x12, 0x17, 0x22),
    foreground: RGBColor(0xc9, 0xd1, 0xe0),
    grid: RGBColor(0x2a, 0x32, 0x44),
};

/// The page's light theme.
pub const LIGHT: Theme = Theme {
    background: RGBColor(0xff, 0xff, 0xff),
    foreground: RGBColor(0x2a, 0x32, 0x44),
    grid: RGBColor(0xe1, 0xe5, 0xec),
};

/// How bar values are written on the y axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// Whole counts, grouped in thousands.
    Count,
    /// Parts per million, written as percentages.
    PartsPerMillion,
}

impl Unit {
    /// The axis label for `v`.
    pub fn format(self, v: u64) -> String {
        match self {
            Unit::Count => group_thousands(v),
            Unit::PartsPerMillion => format!("{}%", Fixed(v as f64 / 10_000.0, 0)),
        }
    }
}

/// How many value labels (at most 5, at least 3) fit a chart `height_px` tall with labels
/// `font_px` high: each needs about twice its height, and the plot loses the x labels' band.
/// plotters gives fewer than three labels only as a lone 0, so three is the least.
pub fn y_label_count(height_px: u32, font_px: u32) -> usize {
    let plot = height_px.saturating_sub(font_px * 2 + 16);
    (plot / (font_px * 2).max(1)).clamp(3, 5) as usize
}

/// The axes' type size: `wanted`, but never more than a sixth of the chart's height, so a
/// chart squeezed short (presenting on a 720-pixel screen) keeps its labels apart.
pub fn axis_font_px(wanted: u32, height_px: u32) -> u32 {
    wanted.min(height_px / 6).max(1)
}

/// A chart's plot area in the drawing's pixels: left, top, width, height.
pub type PlotBox = (i32, i32, i32, i32);

/// Draws one bar per server (in its colour), outlined ghosts for the previous values, and
/// a dashed reference line (the mean, or the ideal share). Returns where the plot (inside
/// the axes) is, when there are bars.
pub fn draw_bar_chart<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    bars: &[LoadBar],
    reference: f64,
    unit: Unit,
    theme: Theme,
    font_px: u32,
) -> Result<Option<PlotBox>, DrawingAreaErrorKind<DB::ErrorType>> {
    area.fill(&theme.background)?;
    if bars.is_empty() {
        return Ok(None);
    }
    let height_px = area.dim_in_pixel().1;
    let font_px = axis_font_px(font_px, height_px);
    let peak = bars
        .iter()
        .map(|b| b.count.max(b.before.unwrap_or(0)))
        .max()
        .unwrap_or(0)
        .max(reference.ceil() as u64)
        .max(1);
    let y_max = peak + peak / 8 + 1;
    let n = bars.len() as i32;
    let font = (FontFamily::SansSerif, font_px)
        .into_font()
        .color(&theme.foreground);
    let mut chart = ChartBuilder::on(area)
        .margin(8)
        .x_label_area_size(font_px * 2)
        .y_label_area_size(font_px * 5)
        .build_cartesian_2d((0..n - 1).into_segmented(), 0u64..y_max)?;
    // Each label gets its bar's width, names told apart where they differ
    // ([`fit_names`]: "127.0.0.1" … "127.0.0.5" → "…1" … "…5", not "1….1" for all).
    let plot_px = f64::from(area.dim_in_pixel().0) - f64::from(font_px) * 5.0 - 16.0;
    let per_label = plot_px / f64::from(n.max(1)) - 8.0;
    let max_chars = (per_label / (f64::from(font_px) * 0.72)).floor().max(2.0) as usize;
    let names: Vec<&str> = bars.iter().map(|b| b.label.as_str()).collect();
    let labels = fit_names(&names, max_chars);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(theme.background)
        .bold_line_style(theme.grid)
        .axis_style(theme.foreground)
        .label_style(font.clone())
        .x_labels(bars.len().min(24))
        .x_label_formatter(&|v| match v {
            SegmentValue::CenterOf(i) => labels.get(*i as usize).cloned().unwrap_or_default(),
            _ => String::new(),
        })
        // As many value labels as fit the plot's height (a short chart, presenting, has room
        // for two or three; five would print over each other).
        .y_labels(y_label_count(height_px, font_px))
        .y_label_formatter(&|v| unit.format(*v))
        .draw()?;

    chart.draw_series(
        Histogram::vertical(&chart)
            .margin(6)
            .style_func(|x, _| {
                let i = segment_index(x);
                let (r, g, b) = bars[i].rgb;
                RGBColor(r, g, b).filled()
            })
            .data(bars.iter().enumerate().map(|(i, b)| (i as i32, b.count))),
    )?;
    // Ghosts: the previous counts as outlines over the new bars.
    chart.draw_series(
        Histogram::vertical(&chart)
            .margin(6)
            .style(theme.foreground.mix(0.85).stroke_width(2))
            .data(
                bars.iter()
                    .enumerate()
                    .filter_map(|(i, b)| b.before.filter(|&v| v != b.count).map(|v| (i as i32, v))),
            ),
    )?;
    let reference_y = reference.round() as u64;
    chart.draw_series(DashedLineSeries::new(
        [
            (SegmentValue::Exact(0), reference_y),
            (SegmentValue::Exact(n), reference_y),
        ],
        6,
        4,
        theme.foreground.mix(0.9).stroke_width(1),
    ))?;
    area.present()?;
    let (xs, ys) = chart.plotting_area().get_pixel_range();
    Ok(Some((
        xs.start,
        ys.start,
        xs.end - xs.start,
        ys.end - ys.start,
    )))
}

/// Points of an SVG line, in the drawing's coordinates.
pub type Polyline = Vec<(f64, f64)>;

/// The vnode sweep laid out for SVG in a `width` × `height` box with `pad` on every side:
/// vnodes on a log axis (1 to 1,000), σ from 0 to the largest measured plus a tenth. Returns
/// the measured points, the 1/√v trend through the first point (61 samples), and y's top.
pub fn sweep_layout(
    points: &[(u32, f64)],
    width: f64,
    height: f64,
    pad: f64,
) -> (Polyline, Polyline, f64) {
    let y_max = points.iter().map(|p| p.1).fold(1.0, f64::max) * 1.1;
    let at = |v: f64, sigma: f64| {
        (
            pad + math::log10(v) / 3.0 * (width - 2.0 * pad),
            height - pad - sigma.min(y_max) / y_max * (height - 2.0 * pad),
        )
    };
    let measured = points.iter().map(|&(v, s)| at(f64::from(v), s)).collect();
    let trend = match points.first() {
        Some(&(v1, s1)) => {
            let first = s1 * f64::from(v1).sqrt();
            (0..=60)
                .map(|i| {
                    let v = math::powf(10.0, f64::from(i) / 20.0);
                    at(v, first / v.sqrt())
                })
                .collect()
        }
        None => Vec::new(),
    };
    (measured, trend, y_max)
}

/// A box on a chart: (left, top, width, height).
pub type Box4 = (f64, f64, f64, f64);

/// One label of a scatter: the names of the points drawn close together, and where the
/// label's first line goes.
#[derive(Clone, Debug, PartialEq)]
pub struct ScatterLabel {
    /// Indexes of the points it names.
    pub points: Vec<usize>,
    /// Lines of text (a few names each).
    pub lines: Vec<String>,
    /// The first line's baseline.
    pub at: (f64, f64),
    /// When the label stands away from its first point: a line from the label's box to
    /// that point (from, to).
    pub leader: Option<((f64, f64), (f64, f64))>,
}

/// Labels for scatter points at `placed` named `names`: points within `near` pixels of
/// each other share one label (their names, a few to a line). Each label takes the first
/// spot round its point — right, left, above, below, the corners, then two, three and four
/// times as far — whose box covers no dot (radius `dot`), no other label, nothing `reserved`
/// (the axes' tick labels) and stays inside the `size` (width, height) of the chart; with
/// no such spot, the first one inside the chart (or the first of all). `char_px` and
/// `line_px` size the text.
pub fn scatter_labels(
    placed: &[(f64, f64)],
    names: &[&str],
    near: f64,
    (char_px, line_px): (f64, f64),
    (width, height): (f64, f64),
    dot: f64,
    reserved: &[Box4],
) -> Vec<ScatterLabel> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for i in 0..placed.len() {
        let close = |j: &usize| {
            let (a, b) = (placed[i], placed[*j]);
            math::hypot(a.0 - b.0, a.1 - b.1) <= near
        };
        match groups.iter_mut().find(|g| g.iter().any(close)) {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    let overlaps = |a: &Box4, b: &Box4| {
        a.0 < b.0 + b.2 && b.0 < a.0 + a.2 && a.1 < b.1 + b.3 && b.1 < a.1 + a.3
    };
    let dots: Vec<Box4> = placed
        .iter()
        .map(|&(x, y)| (x - dot, y - dot, 2.0 * dot, 2.0 * dot))
        .collect();
    let mut boxes: Vec<Box4> = reserved.to_vec();
    let mut out = Vec::new();
    for g in groups {
        let lines: Vec<String> = g
            .chunks(4)
            .map(|c| c.iter().map(|&i| names[i]).collect::<Vec<_>>().join(", "))
            .collect();
        let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as f64;
        let (w, h) = (widest * char_px, lines.len() as f64 * line_px);
        let (px, py) = placed[g[0]];
        // Top-left corners round the point, nearest first.
        let gap = dot + 3.0;
        let mut spots = Vec::new();
        for k in [1.0, 2.0, 3.0, 4.0] {
            let d = gap * k;
            spots.extend([
                (px + d, py - h / 2.0),
                (px - d - w, py - h / 2.0),
                (px - w / 2.0, py - d - h),
                (px - w / 2.0, py + d),
                (px + d, py - d - h),
                (px - d - w, py - d - h),
                (px + d, py + d),
                (px - d - w, py + d),
            ]);
        }
        let inside =
            |&(x, y): &(f64, f64)| x >= 0.0 && y >= 0.0 && x + w <= width && y + h <= height;
        // Clear of every dot, and of other labels by a space's width (two labels side by
        // side must not read as one name: "23" "25" as "2325").
        let free = |&(x, y): &(f64, f64)| {
            let b = (x, y, w, h);
            let spaced = (x - 3.0, y, w + 6.0, h);
            !dots.iter().any(|o| overlaps(&b, o)) && !boxes.iter().any(|o| overlaps(&spaced, o))
        };
        // The first free spot inside the chart; else the first inside (or the first).
        let chosen = spots
            .iter()
            .position(|s| inside(s) && free(s))
            .or_else(|| spots.iter().position(inside))
            .unwrap_or(0);
        let (x, y) = spots[chosen];
        boxes.push((x, y, w, h));
        // The box's point nearest the dot; a line from it when it is past the first ring of
        // spots (beside it or at a corner, a label reads as the dot's without one).
        let near = (px.clamp(x, x + w), py.clamp(y, y + h));
        let leader =
            (math::hypot(near.0 - px, near.1 - py) > gap * 1.5).then_some((near, (px, py)));
        out.push(ScatterLabel {
            points: g,
            lines,
            // The first line's baseline, a little above the box's bottom edge of line one.
            at: (x, y + line_px * 0.8),
            leader,
        });
    }
    out
}

fn segment_index(v: &SegmentValue<i32>) -> usize {
    match v {
        SegmentValue::Exact(i) | SegmentValue::CenterOf(i) => (*i).max(0) as usize,
        SegmentValue::Last => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn value_labels_fit_the_chart_height() {
        // A presenting chart squeezed to 90 px: its 27 px type shrinks to 15 px, and three
        // labels (plotters' least above a lone 0), not five over each other.
        assert_eq!(axis_font_px(27, 90), 15);
        assert_eq!(axis_font_px(24, 300), 24);
        assert_eq!(y_label_count(90, 15), 3);
        // Each label has twice its height to itself.
        assert_eq!(y_label_count(300, 24), 4);
        assert_eq!(y_label_count(1000, 12), 5);
        assert!((3..=5).all(|n| (40..2000).step_by(7).any(|h| y_label_count(h, 14) == n)));
    }

    fn bars() -> Vec<LoadBar> {
        vec![
            LoadBar {
                label: "A".into(),
                count: 120,
                before: Some(100),
                rgb: (230, 159, 0),
            },
            LoadBar {
                label: "B".into(),
                count: 80,
                before: Some(100),
                rgb: (86, 180, 233),
            },
        ]
    }

    #[test]
    fn svg_has_one_bar_per_server_ghosts_and_labels() {
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (400, 240)).into_drawing_area();
            let plot = draw_bar_chart(&area, &bars(), 100.0, Unit::Count, DARK, 12).unwrap();
            // The plot lies inside the drawing, right of the value labels (5 × 12 px) and
            // above the names (2 × 12 px), less the 8-px margin.
            let (x, y, w, h) = plot.unwrap();
            assert_eq!((x, y), (8 + 60, 8), "{plot:?}");
            assert_eq!((w, h), (400 - 16 - 60, 240 - 16 - 24), "{plot:?}");
        }
        // Filled bars in each server's colour.
        assert!(svg.contains("fill=\"#E69F00\""), "{svg}");
        assert!(svg.contains("fill=\"#56B4E9\""));
        // Server names on the x axis, thousands on the y axis.
        assert!(
            svg.contains("\nA\n</text>") && svg.contains("\nB\n</text>"),
            "{svg}"
        );
        // Two ghost outlines (both counts changed), nothing else unfilled.
        assert_eq!(svg.matches("fill=\"none\" stroke=\"#C9D1E0\"").count(), 2);
    }

    #[test]
    fn scatter_labels_cover_no_dot_no_label_and_stay_in_the_chart() {
        let placed = [
            (100.0, 100.0),
            (103.0, 101.0),
            (300.0, 50.0),
            (101.0, 112.0),
            (630.0, 5.0),
            (120.0, 100.0),
        ];
        let names = ["1", "2", "3", "4", "5", "16"];
        let size = (640.0, 300.0);
        // A tick label left of the first dot: labels keep off it too.
        let tick = (60.0, 90.0, 30.0, 14.0);
        let labels = scatter_labels(&placed, &names, 8.0, (7.0, 14.0), size, 5.0, &[tick]);
        assert_eq!(labels[0].lines, vec!["1, 2"]);
        assert_eq!(labels.len(), 5);
        let boxes: Vec<(f64, f64, f64, f64)> = labels
            .iter()
            .map(|l| {
                let w = l.lines.iter().map(|t| t.chars().count()).max().unwrap() as f64 * 7.0;
                (l.at.0, l.at.1 - 14.0 * 0.8, w, l.lines.len() as f64 * 14.0)
            })
            .collect();
        for (i, b) in boxes.iter().enumerate() {
            assert!(
                b.0 >= 0.0 && b.1 >= 0.0 && b.0 + b.2 <= size.0 && b.1 + b.3 <= size.1,
                "{b:?}"
            );
            for &(x, y) in &placed {
                let hit =
                    x + 5.0 > b.0 && x - 5.0 < b.0 + b.2 && y + 5.0 > b.1 && y - 5.0 < b.1 + b.3;
                assert!(!hit, "label {i} {b:?} covers the dot at {x},{y}");
            }
            for c in boxes[..i].iter().chain([&tick]) {
                let hit = b.0 < c.0 + c.2 && c.0 < b.0 + b.2 && b.1 < c.1 + c.3 && c.1 < b.1 + b.3;
                assert!(!hit, "label {b:?} overlaps {c:?}");
            }
        }
    }

    /// The compare view's crowd: seventeen algorithms near the ideal and peak/mean 1, in
    /// the corner by the axes' tick labels. Every label finds a free spot — farther out,
    /// with a leader line, when the ones next to its point are taken.
    #[test]
    fn a_crowd_in_the_corner_is_labelled_without_overlap() {
        let mut placed: Vec<(f64, f64)> = (0..17)
            .map(|i| {
                (
                    120.0 + f64::from(i % 3) * 2.0,
                    262.0 - f64::from(i / 3) * 2.0,
                )
            })
            .collect();
        placed.extend([
            (150.0, 250.0),
            (140.0, 240.0),
            (122.0, 200.0),
            (600.0, 255.0),
        ]);
        let names: Vec<String> = (1..=placed.len()).map(|i| i.to_string()).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let ticks = [
            (4.0, 252.0, 28.0, 14.0),
            (36.0, 268.0, 14.0, 14.0),
            (576.0, 268.0, 28.0, 14.0),
        ];
        let labels = scatter_labels(
            &placed,
            &names,
            9.0,
            (7.0, 14.0),
            (640.0, 300.0),
            5.0,
            &ticks,
        );
        let mut boxes: Vec<Box4> = ticks.to_vec();
        for l in &labels {
            let w = l.lines.iter().map(|t| t.chars().count()).max().unwrap() as f64 * 7.0;
            let b = (l.at.0, l.at.1 - 14.0 * 0.8, w, l.lines.len() as f64 * 14.0);
            for c in &boxes {
                let hit = b.0 < c.0 + c.2 && c.0 < b.0 + b.2 && b.1 < c.1 + c.3 && c.1 < b.1 + b.3;
                assert!(!hit, "{:?} overlaps {c:?}", l.lines);
            }
            for &(x, y) in &placed {
                let hit =
                    x + 5.0 > b.0 && x - 5.0 < b.0 + b.2 && y + 5.0 > b.1 && y - 5.0 < b.1 + b.3;
                assert!(!hit, "{:?} covers the dot at {x},{y}", l.lines);
            }
            // A leader runs from the box's edge to the label's first point exactly when
            // the box is more than a step and a half from it.
            let (px, py) = placed[l.points[0]];
            let near = (px.clamp(b.0, b.0 + b.2), py.clamp(b.1, b.1 + b.3));
            let away = math::hypot(near.0 - px, near.1 - py) > 8.0 * 1.5;
            assert_eq!(l.leader, away.then_some((near, (px, py))), "{:?}", l.lines);
            boxes.push(b);
        }
        assert!(
            labels.iter().any(|l| l.leader.is_some()),
            "the crowd pushes some label away from its dot"
        );
        // The crowd's label stays within four steps of its first point.
        let (l, (px, py)) = (&labels[0], placed[0]);
        assert!((l.at.0 - px).abs() < 4.0 * 8.0 + 98.0 && (l.at.1 - py).abs() < 4.0 * 8.0 + 70.0);
    }

    #[test]
    fn a_single_server_fills_one_segment() {
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (400, 240)).into_drawing_area();
            draw_bar_chart(&area, &bars()[..1], 120.0, Unit::Count, DARK, 12).unwrap();
        }
        assert!(svg.contains("fill=\"#E69F00\""));
    }

    #[test]
    fn the_sweep_is_laid_out_on_a_log_axis_with_the_trend() {
        let points = [(1, 3000.0), (10, 1000.0), (100, 300.0), (1000, 100.0)];
        let (measured, trend, y_max) = sweep_layout(&points, 330.0, 230.0, 15.0);
        assert_eq!(measured.len(), 4);
        // Decades are evenly spaced: 1, 10, 100, 1000 at 0, 1/3, 2/3, 1 of the width.
        let xs: Vec<f64> = measured.iter().map(|p| p.0.round()).collect();
        assert_eq!(xs, [15.0, 115.0, 215.0, 315.0]);
        assert!((y_max - 3300.0).abs() < 1e-9);
        assert_eq!(trend.len(), 61);
        assert_eq!(trend[0], measured[0], "the trend starts at the first point");
        assert!(
            trend.windows(2).all(|w| w[1].1 >= w[0].1),
            "σ(1)/√v falls: y grows downward"
        );
    }

    #[test]
    fn shares_are_labelled_as_percentages() {
        assert_eq!(Unit::PartsPerMillion.format(250_000), "25%");
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (400, 240)).into_drawing_area();
            draw_bar_chart(&area, &bars(), 100.0, Unit::PartsPerMillion, DARK, 12).unwrap();
        }
        assert!(svg.contains("\n0%\n"), "{svg}");
    }
}
