//! The compare view (`view=compare`): the current scenario's servers and keys, one change,
//! every algorithm — a table captioned "Algorithms compared", a one-sentence verdict (fewest
//! keys moved, best balance) and a scatter of moved against peak/mean (SVG). The work runs
//! in steps between frames ([`CompareWork`]), rows appearing as they finish.

use yew::prelude::*;

use super::ring_view::now_ms;
use super::stepped::Stepped;
use super::use_look;
use crate::chart::{scatter, scatter_labels};
use crate::engine::compare::TIMED_LOOKUPS;
use crate::engine::compare::{verdict, CompareChange, CompareRow, CompareWork};
use crate::engine::placement::Algorithm;
use crate::engine::scenario::Scenario;
use crate::engine::text::Fixed;
use crate::i18n::Words;
use crate::state::STEP_COST;
use crate::words::{algorithm_title, group_thousands, percent};

/// Props of [`CompareView`].
#[derive(Properties, PartialEq)]
pub struct CompareProps {
    /// The scenario whose servers and keys every algorithm gets.
    pub scenario: Scenario,
}

/// The comparison of every algorithm under one change.
#[component]
pub fn CompareView(props: &CompareProps) -> Html {
    let look = use_look();
    let w = look.lang.words();
    let change = use_state(|| 0usize);
    let rows = use_state(Vec::<CompareRow>::new);
    let error = use_state(|| None::<crate::problem::Problem>);
    let job = use_mut_ref(Stepped::default);
    {
        let (rows, error, job) = (rows.clone(), error.clone(), job.clone());
        use_effect_with(
            (props.scenario.clone(), *change),
            move |(scenario, change)| {
                let which = [
                    CompareChange::Add,
                    CompareChange::Remove,
                    CompareChange::Fail,
                ][*change]
                    .clone();
                rows.set(Vec::new());
                error.set(None);
                match CompareWork::new(scenario, &which, Algorithm::ALL.to_vec(), TIMED_LOOKUPS) {
                    Ok(mut work) => {
                        let (rows, error) = (rows.clone(), error.clone());
                        *job.borrow_mut() = Stepped::start(move || {
                            if let Err(e) = work.advance(STEP_COST, &now_ms) {
                                error.set(Some(e));
                                return false;
                            }
                            rows.set(work.rows.clone());
                            !work.is_finished()
                        });
                    }
                    Err(e) => {
                        job.borrow().stop();
                        error.set(Some(e));
                    }
                }
            },
        );
    }
    let on_change = {
        let change = change.clone();
        Callback::from(move |e: Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            change.set(v.parse().unwrap_or(0));
        })
    };
    let total = Algorithm::ALL.len();
    let busy = rows.len() < total && error.is_none();
    // The verdict (engine::compare::verdict): consistent first, then nearest the ideal,
    // then balance.
    let judged = (!busy).then(|| verdict(&rows)).flatten();
    let verdict_text = judged.map(|v| {
        let closest = rows.iter().find(|r| r.algo == v.closest);
        let balanced = rows.iter().find(|r| r.algo == v.balanced);
        (w.compare_verdict)(
            algorithm_title(w, v.closest),
            &closest.map_or_else(String::new, |r| percent(r.moved_fraction())),
            &closest
                .and_then(|r| r.ideal)
                .map_or_else(|| "—".to_owned(), percent),
            algorithm_title(w, v.balanced),
            &balanced.map_or_else(String::new, |r| Fixed(r.peak_to_mean, 3).to_string()),
            v.inconsistent,
        )
    });
    // The scatter names each dot by its row's number in the table (short, and the same in
    // every language).
    let points: Vec<(String, f64, f64)> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            (
                (i + 1).to_string(),
                100.0 * r.moved_fraction(),
                r.peak_to_mean,
            )
        })
        .collect();
    let c = &w.compare_columns;
    html! {
        <section class="card compare">
            <div class="compare-head">
                <label for="compare-change">{w.compare_change}</label>
                <select id="compare-change" onchange={on_change}>
                    { for w.compare_changes.iter().enumerate().map(|(i, label)| html! {
                        <option value={i.to_string()} selected={i == *change}>{*label}</option>
                    }) }
                </select>
            </div>
            if let Some(e) = &*error {
                <p class="error" role="alert">{(w.not_applied)(&crate::i18n::reason(w, e))}</p>
            }
            if busy {
                <p class="working" role="status">{(w.comparing)(rows.len(), total)}
                    <progress max={total.to_string()} value={rows.len().to_string()}></progress></p>
            }
            if let Some(v) = verdict_text {
                <p class="verdict" role="status">{v}</p>
            }
            <table class="compared">
                <caption>{w.compared}</caption>
                <thead><tr>{ for c.iter().enumerate().map(|(i, h)| html! {
                    <th scope="col" class={classes!((i > 0).then_some("num"))}>{*h}</th>
                }) }</tr></thead>
                <tbody>
                    { for rows.iter().enumerate().map(|(i, r)| {
                        let ideal = r.ideal.map_or_else(|| "—".to_owned(), percent);
                        let best_moved = judged.is_some_and(|v| v.closest == r.algo);
                        let best_balance = judged.is_some_and(|v| v.balanced == r.algo);
                        html! {
                            <tr data-algo={r.algo.name()}>
                                <th scope="row" data-no={(i + 1).to_string()}>{algorithm_title(w, r.algo)}</th>
                                <td class={classes!("num", "moved", best_moved.then_some("best"))}>
                                    {format!("{} {} ({ideal})", group_thousands(r.moved), percent(r.moved_fraction()))}</td>
                                <td class={classes!("num", "between", (r.between_survivors > 0).then_some("bad"))}>{group_thousands(r.between_survivors)}</td>
                                <td class={classes!("num", "peak", best_balance.then_some("best"))}>{Fixed(r.peak_to_mean, 3).to_string()}</td>
                                <td class="num">{crate::words::grouped(r.stddev, 1)}</td>
                                <td class="num ns">{if r.lookup_ns > 0.0 { crate::words::significant(r.lookup_ns) } else { "…".to_owned() }}</td>
                                <td class="num">{group_thousands(r.bytes as u64)}</td>
                                <td class="num">{Fixed(r.build_ms, 2).to_string()}</td>
                            </tr>
                        }
                    }) }
                </tbody>
            </table>
            if !points.is_empty() {
                {scatter_chart(w, &points, rows.first().and_then(|r| r.ideal).map(|i| 100.0 * i))}
            }
        </section>
    }
}

/// Moved % against peak/mean, one labelled dot per algorithm, as SVG (a plain function).
fn scatter_chart(w: &Words, points: &[(String, f64, f64)], ideal: Option<f64>) -> Html {
    let (width, height, pad) = (640.0, 300.0, 36.0);
    let xy: Vec<(f64, f64)> = points.iter().map(|p| (p.1, p.2)).collect();
    let (placed, x_max, y_max) = scatter(&xy, width, height, pad);
    let names: Vec<&str> = points.iter().map(|p| p.0.as_str()).collect();
    let ideal_x = ideal
        .map(|i| pad + i / x_max * (width - 2.0 * pad))
        .filter(|x| *x <= width - pad);
    let y_top = Fixed(y_max, 2).to_string();
    let x_end = format!("{}%", Fixed(x_max, 0));
    let ideal_text = format!("{} {}%", w.ideal_word, Fixed(ideal.unwrap_or(0.0), 1));
    // The tick labels' boxes (7 px a character, 14 px a line): the dots' labels keep off.
    let text_box = |x: f64, baseline: f64, text: &str, anchor: f64| {
        let w = text.chars().count() as f64 * 7.0;
        (x - anchor * w, baseline - 11.0, w, 14.0)
    };
    let ticks = [
        text_box(pad, height - pad + 16.0, "0%", 0.0),
        text_box(width - pad, height - pad + 16.0, &x_end, 1.0),
        text_box(pad - 4.0, height - pad, "1.00", 1.0),
        text_box(pad - 4.0, pad + 4.0, &y_top, 1.0),
        // Off the chart when there is no ideal line.
        text_box(ideal_x.unwrap_or(-width), pad - 6.0, &ideal_text, 0.5),
    ];
    let labels = scatter_labels(
        &placed,
        &names,
        9.0,
        (7.0, 14.0),
        (width, height),
        5.0,
        &ticks,
    );
    let f = |v: f64| Fixed(v, 1).to_string();
    html! {
        <figure class="compare-figure">
            <svg class="compare-chart" viewBox={format!("0 0 {} {}", Fixed(width, 0), Fixed(height, 0))} role="img" aria-label={w.compare_chart_label}>
                <line class="axis" x1={f(pad)} y1={f(height - pad)} x2={f(width - pad)} y2={f(height - pad)} />
                <line class="axis" x1={f(pad)} y1={f(pad)} x2={f(pad)} y2={f(height - pad)} />
                <text class="tick" x={f(pad)} y={f(height - pad + 16.0)}>{"0%"}</text>
                <text class="tick end" x={f(width - pad)} y={f(height - pad + 16.0)}>{x_end}</text>
                <text class="tick end" x={f(pad - 4.0)} y={f(height - pad)}>{"1.00"}</text>
                <text class="tick end" x={f(pad - 4.0)} y={f(pad + 4.0)}>{y_top}</text>
                // The ideal share moved: a consistent, balanced algorithm sits on this line.
                if let Some(x) = ideal_x {
                    <line class="ideal" x1={f(x)} y1={f(pad)} x2={f(x)} y2={f(height - pad)} />
                    <text class="tick mid" x={f(x)} y={f(pad - 6.0)}>{ideal_text}</text>
                }
                { for placed.iter().map(|(x, y)| html! {
                    <circle cx={f(*x)} cy={f(*y)} r="5" />
                }) }
                { for labels.iter().map(|l| html! {
                    <text x={f(l.at.0)} y={f(l.at.1)}>
                        { for l.lines.iter().enumerate().map(|(i, line)| html! {
                            <tspan x={f(l.at.0)} dy={if i == 0 { "0" } else { "14" }}>{line.clone()}</tspan>
                        }) }
                    </text>
                }) }
            </svg>
            <figcaption>
                <span class="axis">{w.compare_axes[0]}</span>
                <span class="axis">{w.compare_axes[1]}</span>
            </figcaption>
        </figure>
    }
}
