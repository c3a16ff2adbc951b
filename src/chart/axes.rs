//! The compare scatter's axes. Keys moved by 27 algorithms crowd between 15 and 35 % while
//! mod-N moves 80 %: one linear axis from 0 to the outlier squeezed the crowd into a fifth
//! of the width behind grouped labels. So the x axis starts near the crowd, and a few points
//! far to its right get a narrower span of their own after a break; both axes carry ticks at
//! round steps (1, 2 or 5 × 10ⁿ) so a point can be read, not only compared.

use crate::math;

/// One stretch of an axis: data from `from` to `to` drawn over pixels `start` to `end`
/// (`end` < `start` for a y axis, which grows downward).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Span {
    /// The data value at `start`.
    pub from: f64,
    /// The data value at `end`.
    pub to: f64,
    /// Where `from` is drawn.
    pub start: f64,
    /// Where `to` is drawn.
    pub end: f64,
}

impl Span {
    /// Where `v` is drawn (outside the span, on the line through it).
    pub fn at(&self, v: f64) -> f64 {
        self.start + (v - self.from) / (self.to - self.from) * (self.end - self.start)
    }

    /// Whether `v` is within the span.
    pub fn holds(&self, v: f64) -> bool {
        v >= self.from - 1e-9 && v <= self.to + 1e-9
    }
}

/// The round step (1, 2 or 5 × 10ⁿ) nearest, by ratio, to `want` steps from `lo` to `hi`.
pub fn nice_step(lo: f64, hi: f64, want: usize) -> f64 {
    let raw = ((hi - lo) / want.max(1) as f64).max(1e-9);
    let magnitude = math::powf(10.0, math::log10(raw).floor());
    let off = |s: &f64| if *s > raw { s / raw } else { raw / s };
    [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .min_by(|a, b| off(a).total_cmp(&off(b)))
        .unwrap_or(magnitude)
}

/// The multiples of `step` from `lo` to `hi`.
pub fn ticks(lo: f64, hi: f64, step: f64) -> Vec<f64> {
    let first = (lo / step - 1e-9).ceil() as i64;
    let last = (hi / step + 1e-9).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// The scatter's axes in a `width` × `height` drawing with `pad` round the plot: x (keys
/// moved, %) as one span or the crowd's and the outliers', y (peak / mean) from 1.
#[derive(Clone, Debug, PartialEq)]
pub struct ScatterAxes {
    /// The crowd's span, then (after a break) the outliers' when there are any.
    pub x: Vec<Span>,
    /// Peak / mean from 1 (perfect balance) at the bottom.
    pub y: Span,
    /// The x ticks: (span's index, value).
    pub x_ticks: Vec<(usize, f64)>,
    /// The y ticks' values.
    pub y_ticks: Vec<f64>,
}

/// Pixels between the crowd's span and the outliers'.
pub const BREAK_PX: f64 = 18.0;

impl ScatterAxes {
    /// Axes for `points` (keys moved %, peak / mean) and the `ideal` share moved (%), which
    /// the crowd's span always shows.
    pub fn new(
        points: &[(f64, f64)],
        ideal: Option<f64>,
        width: f64,
        height: f64,
        pad: f64,
    ) -> Self {
        let (left, right) = (pad, width - pad);
        let mut xs: Vec<f64> = points.iter().map(|p| p.0).collect();
        xs.sort_by(f64::total_cmp);
        let (crowd, outliers) = split_outliers(&xs, ideal);
        let (mut lo, mut hi) = crowd;
        if let Some(i) = ideal {
            (lo, hi) = (lo.min(i), hi.max(i));
        }
        let margin = 0.05 * (hi - lo).max(5.0);
        // The far group's width grows with its count: 12 % of the plot for one point, up
        // to 37 % when it holds half of them.
        let far = xs
            .iter()
            .filter(|&&v| outliers.is_some_and(|o| v >= o.0))
            .count();
        let share = 0.12 + 0.5 * far as f64 / xs.len().max(1) as f64;
        let outlier_px = outliers.map_or(0.0, |_| (share * (right - left)).max(56.0));
        let crowd_end = right - outlier_px - if outliers.is_some() { BREAK_PX } else { 0.0 };
        let want = ((crowd_end - left) / 80.0).clamp(2.0, 10.0) as usize;
        // The extent hugs the crowd (ticks fall where they may inside it).
        let (from, to) = ((lo - margin).max(0.0), hi + margin);
        let step = nice_step(from, to, want);
        let mut x = vec![Span {
            from,
            to,
            start: left,
            end: crowd_end,
        }];
        let mut x_ticks: Vec<(usize, f64)> =
            ticks(from, to, step).into_iter().map(|v| (0, v)).collect();
        if let Some((olo, ohi)) = outliers {
            let m = (0.15 * (ohi - olo)).max(1.5);
            let span = Span {
                from: olo - m,
                to: ohi + m,
                start: right - outlier_px,
                end: right,
            };
            let step = nice_step(span.from, span.to, (outlier_px / 80.0).max(1.0) as usize);
            x_ticks.extend(
                ticks(span.from, span.to, step)
                    .into_iter()
                    .filter(|v| span.holds(*v))
                    .map(|v| (1, v)),
            );
            x.push(span);
        }
        let top = points.iter().map(|p| p.1).fold(1.0, f64::max);
        let want = ((height - 2.0 * pad) / 45.0).clamp(2.0, 8.0) as usize;
        let step = nice_step(1.0, top.max(1.01) * 1.01, want);
        let y_to = ((top.max(1.01) * 1.01 - 1.0) / step).ceil() * step + 1.0;
        let y = Span {
            from: 1.0,
            to: y_to,
            start: height - pad,
            end: pad,
        };
        let y_ticks = ticks(1.0, y_to, step)
            .into_iter()
            .filter(|v| y.holds(*v))
            .collect();
        ScatterAxes {
            x,
            y,
            x_ticks,
            y_ticks,
        }
    }

    /// Where a point (keys moved %, peak / mean) is drawn.
    pub fn place(&self, (moved, peak): (f64, f64)) -> (f64, f64) {
        let span = self.x.iter().find(|s| s.holds(moved)).unwrap_or(&self.x[0]);
        (span.at(moved), self.y.at(peak))
    }
}

/// The crowd's extent and, when a few points lie far to its right, the outliers' extent:
/// the widest gap between neighbouring values splits off at most half of the points when it
/// is more than 1.5 times the crowd's own width (5 points at least, and counting the
/// ideal). `xs` is sorted.
fn split_outliers(xs: &[f64], ideal: Option<f64>) -> ((f64, f64), Option<(f64, f64)>) {
    let (Some(&first), Some(&last)) = (xs.first(), xs.last()) else {
        return ((0.0, 10.0), None);
    };
    let widest = xs
        .windows(2)
        .enumerate()
        .max_by(|a, b| (a.1[1] - a.1[0]).total_cmp(&(b.1[1] - b.1[0])));
    if let Some((i, pair)) = widest {
        let above = xs.len() - i - 1;
        let crowd_hi = ideal.map_or(pair[0], |v| v.max(pair[0]));
        let crowd_lo = ideal.map_or(first, |v| v.min(first));
        let gap = pair[1] - crowd_hi;
        if xs.len() >= 5 && above * 2 <= xs.len() && gap > 1.5 * (crowd_hi - crowd_lo).max(5.0) {
            return ((first, pair[0]), Some((pair[1], last)));
        }
    }
    ((first, last), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_are_round() {
        assert_eq!(nice_step(0.0, 100.0, 5), 20.0);
        assert_eq!(nice_step(14.2, 32.1, 7), 2.0, "2.6 is nearer 2 than 5");
        assert_eq!(nice_step(15.0, 35.0, 4), 5.0);
        assert_eq!(nice_step(1.0, 1.7, 4), 0.2);
        assert_eq!(ticks(12.0, 33.0, 5.0), vec![15.0, 20.0, 25.0, 30.0]);
    }

    /// The compare view's points after adding a fifth server to four: 26 algorithms move
    /// 15–32 % of keys, mod-N 79 %.
    fn crowd_and_mod_n() -> Vec<(f64, f64)> {
        let mut points: Vec<(f64, f64)> = (0..26)
            .map(|i| (15.0 + 0.65 * i as f64, 1.04 + 0.02 * i as f64))
            .collect();
        points.push((79.4, 1.025));
        points
    }

    #[test]
    fn a_far_outlier_gets_its_own_span_and_the_crowd_the_width() {
        let axes = ScatterAxes::new(&crowd_and_mod_n(), Some(20.0), 800.0, 300.0, 36.0);
        assert_eq!(axes.x.len(), 2, "{axes:?}");
        let (crowd, outliers) = (axes.x[0], axes.x[1]);
        assert!(crowd.from >= 10.0 && crowd.to <= 40.0, "{crowd:?}");
        assert!(outliers.holds(79.4) && !outliers.holds(32.0));
        // The crowd is spread over most of the plot; the outlier stays at the right.
        let spread = axes.place((31.25, 1.0)).0 - axes.place((15.0, 1.0)).0;
        assert!(spread > 0.7 * (800.0 - 72.0), "the crowd spans {spread} px");
        assert!(axes.place((79.4, 1.0)).0 > axes.place((31.25, 1.0)).0 + BREAK_PX);
        // Ticks at round steps in both spans, each inside its span.
        assert!(
            axes.x_ticks.iter().filter(|t| t.0 == 0).count() >= 5,
            "{:?}",
            axes.x_ticks
        );
        assert!(axes.x_ticks.iter().any(|t| t.0 == 1));
        assert!(axes.x_ticks.iter().all(|&(s, v)| axes.x[s].holds(v)));
        assert!(
            axes.y_ticks.len() >= 4 && axes.y_ticks[0] == 1.0,
            "{:?}",
            axes.y_ticks
        );
    }

    #[test]
    fn points_close_together_keep_one_span() {
        let points = [
            (10.0, 1.0),
            (20.0, 1.2),
            (30.0, 1.5),
            (35.0, 1.1),
            (50.0, 1.3),
        ];
        let axes = ScatterAxes::new(&points, Some(20.0), 400.0, 200.0, 20.0);
        assert_eq!(axes.x.len(), 1);
        assert_eq!(
            axes.place((axes.x[0].from, 1.0)),
            (20.0, 180.0),
            "lower left: the ideal corner"
        );
        let (a, b) = (axes.place(points[0]), axes.place(points[4]));
        assert!(b.0 > a.0 && b.1 < a.1);
        assert!(axes.y.to >= 1.5);
    }

    /// Removing a server: the consistent algorithms move 10–27 %, nine others (mod-N, and
    /// those that renumber) 83–98 % — a far group a third of the points.
    #[test]
    fn a_large_far_group_gets_a_wider_span() {
        let mut points: Vec<(f64, f64)> = (0..18)
            .map(|i| (10.0 + i as f64, 1.0 + 0.02 * i as f64))
            .collect();
        points.extend((0..9).map(|i| (83.0 + 1.8 * i as f64, 1.05)));
        let axes = ScatterAxes::new(&points, Some(16.7), 800.0, 300.0, 36.0);
        assert_eq!(axes.x.len(), 2, "{axes:?}");
        let far = axes.x[1].end - axes.x[1].start;
        assert!(
            far > 0.25 * 728.0 && far < 0.4 * 728.0,
            "the far span is {far} px"
        );
        assert!(axes.x[1].holds(83.0) && axes.x[1].holds(97.4) && !axes.x[1].holds(27.0));
    }
}
