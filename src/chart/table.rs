//! The compare view's table and the vnode sweep's written as text: 26 rows of 8 cells as
//! one string set as the table's markup costs the wasm far less than a virtual-DOM element
//! per cell (the same reason the SVG charts are text, [`super::svg`]), and the natively run
//! tests read the very markup the page shows.

use crate::engine::compare::{CompareRow, Verdict};
use crate::i18n::Words;
use crate::text::{escape, Fixed};
use crate::words::{algorithm_title, group_thousands, grouped, percent, significant};
use std::fmt::Write;

/// The compare table (`table.compared`: caption, head, body) for `rows`, the verdict's picks
/// marked `best`, the moves between untouched servers `bad`; the ideal share moved
/// (`ideal`, the same on every row) said once, under the "Keys moved" heading.
pub fn compare_table(
    w: &Words,
    rows: &[CompareRow],
    judged: Option<&Verdict>,
    ideal: &str,
) -> String {
    // The whole table: its parts alone, set as markup, would not be parsed as a table's.
    let mut s = format!(
        r#"<table class="compared"><caption>{}</caption><thead><tr>"#,
        escape(w.compared)
    );
    for (i, heading) in w.compare_columns.iter().enumerate() {
        let _ = write!(
            s,
            r#"<th scope="col"{}>{}"#,
            if i > 0 { r#" class="num""# } else { "" },
            escape(heading)
        );
        if i == 1 {
            let _ = write!(
                s,
                r#"<span class="ideal">{} {}</span>"#,
                escape(w.ideal_word),
                escape(ideal)
            );
        }
        s.push_str("</th>");
    }
    s.push_str("</tr></thead><tbody>");
    let mark = |on: bool, class: &'static str| if on { class } else { "" };
    for (i, r) in rows.iter().enumerate() {
        let (closest, balanced) = judged.map_or((false, false), |v| {
            (v.closest == r.algo, v.balanced == r.algo)
        });
        let ns = if r.lookup_ns > 0.0 {
            significant(r.lookup_ns)
        } else {
            "…".to_owned()
        };
        let _ = write!(
            s,
            concat!(
                r#"<tr data-algo="{}"><th scope="row" data-no="{}">{}</th>"#,
                r#"<td class="num moved{}">{} {}</td>"#,
                r#"<td class="num between{}">{}</td>"#,
                r#"<td class="num peak{}">{}</td>"#,
                r#"<td class="num">{}</td><td class="num ns">{}</td>"#,
                r#"<td class="num">{}</td><td class="num">{}</td></tr>"#
            ),
            r.algo.name(),
            i + 1,
            escape(algorithm_title(w, r.algo)),
            mark(closest, " best"),
            group_thousands(r.moved),
            percent(r.moved_fraction()),
            mark(r.between_survivors > 0, " bad"),
            group_thousands(r.between_survivors),
            mark(balanced, " best"),
            Fixed(r.peak_to_mean, 3),
            grouped(r.stddev, 1),
            ns,
            group_thousands(r.bytes as u64),
            Fixed(r.build_ms, 2),
        );
    }
    s.push_str("</tbody></table>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::placement::Algorithm;

    fn row(algo: Algorithm, moved: u64, between: u64) -> CompareRow {
        CompareRow {
            algo,
            moved,
            keys: 1000,
            ideal: Some(0.25),
            between_survivors: between,
            peak_to_mean: 1.25,
            stddev: 12.5,
            bytes: 1234,
            build_ms: 0.5,
            lookup_ns: 0.0,
        }
    }

    /// The table's markup: the ideal said once under its heading, the verdict's picks
    /// marked, moves between untouched servers marked bad, names escaped.
    #[test]
    fn the_compare_table_marks_the_picks_and_the_bad_rows() {
        let rows = [row(Algorithm::RING, 250, 0), row(Algorithm::MODN, 750, 500)];
        let verdict = Verdict {
            closest: Algorithm::RING,
            balanced: Algorithm::RING,
            inconsistent: 1,
        };
        let html = compare_table(&crate::i18n::EN, &rows, Some(&verdict), "25.0%");
        assert_eq!(html.matches("<tr data-algo=").count(), 2);
        assert_eq!(html.matches(r#"<span class="ideal">"#).count(), 1);
        assert!(
            html.contains(r#"<td class="num moved best">250 25.0%</td>"#),
            "{html}"
        );
        assert!(
            html.contains(r#"<td class="num between bad">500</td>"#),
            "{html}"
        );
        assert!(
            html.contains(r#"<td class="num peak best">1.250</td>"#),
            "{html}"
        );
        assert!(html.contains(r#"<td class="num ns">…</td>"#));
        assert_eq!(html.matches("<th scope=\"col\"").count(), 8);
    }
}

/// The vnode sweep's numbers as a table (`table.sweep-table`): a row of virtual-node counts
/// and a row of the standard deviation measured at each, as the sweep's chart draws them.
pub fn sweep_table(w: &Words, points: &[(u32, f64)]) -> String {
    let mut s = format!(
        r#"<table class="sweep-table"><caption>{}</caption><tbody><tr><th scope="row">{}</th>"#,
        escape(w.sweep_chart_label),
        escape(w.col_vnodes)
    );
    for p in points {
        let _ = write!(s, "<td>{}</td>", p.0);
    }
    s.push_str(r#"</tr><tr><th scope="row">σ</th>"#);
    for p in points {
        let _ = write!(s, "<td>{}</td>", Fixed(p.1, 0));
    }
    s.push_str("</tr></tbody></table>");
    s
}

#[cfg(test)]
mod sweep_tests {
    use super::*;

    #[test]
    fn the_sweep_table_has_a_row_of_vnodes_and_one_of_sigma() {
        let s = sweep_table(&crate::i18n::EN, &[(1, 412.6), (10, 131.2), (100, 40.0)]);
        assert!(
            s.starts_with(r#"<table class="sweep-table"><caption>"#),
            "{s}"
        );
        assert!(
            s.contains(r#"<th scope="row">Vnodes</th><td>1</td><td>10</td><td>100</td></tr>"#),
            "{s}"
        );
        assert!(
            s.contains(r#"<th scope="row">σ</th><td>413</td><td>131</td><td>40</td></tr>"#),
            "{s}"
        );
        assert!(s.ends_with("</tr></tbody></table>"));
    }
}
