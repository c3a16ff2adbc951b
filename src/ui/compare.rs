//! The compare view (`view=compare`): the current scenario's servers and keys, one change,
//! every algorithm — a table captioned "Algorithms compared", a one-sentence verdict (fewest
//! keys moved, best balance) and a scatter of moved against peak/mean (SVG). The work runs
//! in steps between frames ([`CompareWork`]), rows appearing as they finish.

use yew::prelude::*;

use super::ring_view::now_ms;
use super::stepped::Stepped;
use super::use_look;
use crate::chart::svg::{scatter_svg, ScatterPoint};
use crate::chart::table::compare_table;
use crate::engine::compare::TIMED_LOOKUPS;
use crate::engine::compare::{verdict, CompareChange, CompareRow, CompareWork};
use crate::engine::placement::Algorithm;
use crate::engine::scenario::Scenario;
use crate::i18n::Words;
use crate::state::STEP_COST;
use crate::text::Fixed;
use crate::words::{algorithm_title, percent};

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
    // The scatter is drawn at the width it is shown, 1:1, so its text is 12 px on a phone
    // and on a wall: measured when a comparison starts and when the window resizes.
    let head = use_node_ref();
    let chart_width = use_state(|| 640.0);
    {
        let (rows, error, job) = (rows.clone(), error.clone(), job.clone());
        let (head, chart_width) = (head.clone(), chart_width.clone());
        use_effect_with(
            (props.scenario.clone(), *change),
            move |(scenario, change)| {
                let measure = move || {
                    if let Some(el) = head.cast::<web_sys::Element>() {
                        chart_width.set(f64::from(el.client_width()).clamp(280.0, 1200.0));
                    }
                };
                measure();
                let resized = web_sys::window()
                    .map(|w| gloo_events::EventListener::new(&w, "resize", move |_| measure()));
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
                move || drop(resized)
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
    let points: Vec<ScatterPoint> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| ScatterPoint {
            name: (i + 1).to_string(),
            moved: 100.0 * r.moved_fraction(),
            peak: r.peak_to_mean,
            kind: if judged.is_some_and(|v| v.closest == r.algo || v.balanced == r.algo) {
                "picked"
            } else if r.between_survivors > 0 {
                "left-out"
            } else {
                "weighed"
            },
        })
        .collect();
    // The ideal share moved is the scenario's, the same on every row.
    let ideal_share = rows.first().and_then(|r| r.ideal);
    let ideal = ideal_share.map_or_else(|| "—".to_owned(), percent);
    html! {
        <section class="card compare">
            <div class="compare-head" ref={head}>
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
            // Written as text (chart::table): a virtual-DOM element per cell would cost
            // the page several times its bytes.
            {Html::from_html_unchecked(compare_table(w, &rows, judged.as_ref(), &ideal).into())}
            // A phone's table keeps the verdict's columns; it says where the others went.
            <p class="compare-narrow muted">{w.compare_narrow}</p>
            if !points.is_empty() {
                {scatter_chart(w, &points, ideal_share.map(|i| 100.0 * i), *chart_width)}
            }
        </section>
    }
}

/// The scatter ([`scatter_svg`]) and its legend: what the axes are and how the verdict
/// took each dot (a plain function). `width` is the drawing's width in its own units.
fn scatter_chart(w: &Words, points: &[ScatterPoint], ideal: Option<f64>, width: f64) -> Html {
    let ideal_text = format!("{} {}%", w.ideal_word, Fixed(ideal.unwrap_or(0.0), 1));
    let svg = scatter_svg(points, ideal, width, w.compare_chart_label, &ideal_text);
    html! {
        <figure class="compare-figure">
            {Html::from_html_unchecked(svg.into())}
            <figcaption>
                <span class="axis">{w.compare_axes[0]}</span>
                <span class="axis">{w.compare_axes[1]}</span>
                { for w.compare_legend.iter().zip(["picked", "weighed", "left-out"]).map(|(text, kind)| html! {
                    <span class={classes!("legend", kind)}>{*text}</span>
                }) }
            </figcaption>
        </figure>
    }
}
