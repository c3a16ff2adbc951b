//! The compare view (`view=compare`): the current scenario's servers and keys, one change,
//! every algorithm — a table captioned "Algorithms compared", a one-sentence verdict (fewest
//! keys moved, best balance) and a scatter of moved against peak/mean (SVG). The work runs
//! in steps between frames ([`CompareWork`]), rows appearing as they finish.

use std::rc::Rc;

use yew::prelude::*;

use super::look::use_look;
use super::ring_view::now_ms;
use super::stepped::Stepped;
use crate::chart::svg::{scatter_svg, ScatterPoint};
use crate::chart::table::compare_table;
use crate::engine::compare::TIMED_LOOKUPS;
use crate::engine::compare::{verdict, CompareChange, CompareRow, CompareWork};
use crate::engine::placement::Algorithm;
use crate::engine::scenario::Scenario;
use crate::i18n::Words;
use crate::problem::Problem;
use crate::state::STEP_COST;
use crate::text::Fixed;
use crate::words::{algorithm_title, percent};

/// What the compare view shows — which change, the rows finished so far, what went wrong,
/// the scatter's width — changed only by [`Shown::reduce`] (one hook, and the stepped job's
/// updates cannot overwrite a width measured meanwhile).
#[derive(Clone)]
struct Shown {
    change: usize,
    rows: Vec<CompareRow>,
    error: Option<Rc<Problem>>,
    width: f64,
}

/// What happens to [`Shown`].
enum Event {
    /// The user chose another change (its index in [`CHANGES`]).
    Change(usize),
    /// A comparison starts over: no rows, no error.
    Started,
    /// The rows finished so far.
    Rows(Vec<CompareRow>),
    /// The comparison stopped with this problem.
    Failed(Problem),
    /// The scatter's measured width.
    Width(f64),
}

impl Reducible for Shown {
    type Action = Event;

    fn reduce(self: Rc<Self>, event: Event) -> Rc<Self> {
        let mut next = (*self).clone();
        match event {
            Event::Change(change) => next.change = change,
            Event::Started => {
                next.rows.clear();
                next.error = None;
            }
            Event::Rows(rows) => next.rows = rows,
            Event::Failed(problem) => next.error = Some(Rc::new(problem)),
            Event::Width(width) => next.width = width,
        }
        Rc::new(next)
    }
}

/// The changes offered, in the order of the words' `compare_changes`.
const CHANGES: [CompareChange; 3] = [
    CompareChange::Add,
    CompareChange::Remove,
    CompareChange::Fail,
];

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
    let shown = use_reducer(|| Shown {
        change: 0,
        rows: Vec::new(),
        error: None,
        width: 640.0,
    });
    let job = use_mut_ref(Stepped::default);
    // The scatter is drawn at the width it is shown, 1:1, so its text is 12 px on a phone
    // and on a wall: measured when a comparison starts and when the window resizes.
    let head = use_node_ref();
    {
        let (dispatch, job, head) = (shown.dispatcher(), job.clone(), head.clone());
        use_effect_with(
            (props.scenario.clone(), shown.change),
            move |(scenario, change)| {
                let width = dispatch.clone();
                let measure = move || {
                    if let Some(el) = head.cast::<web_sys::Element>() {
                        let measured = f64::from(el.client_width()).clamp(280.0, 1200.0);
                        width.dispatch(Event::Width(measured));
                    }
                };
                measure();
                let resized = web_sys::window()
                    .map(|w| gloo_events::EventListener::new(&w, "resize", move |_| measure()));
                dispatch.dispatch(Event::Started);
                let which = &CHANGES[*change];
                match CompareWork::new(scenario, which, Algorithm::ALL.to_vec(), TIMED_LOOKUPS) {
                    Ok(mut work) => {
                        *job.borrow_mut() = Stepped::start(move || {
                            if let Err(e) = work.advance(STEP_COST, &now_ms) {
                                dispatch.dispatch(Event::Failed(e));
                                return false;
                            }
                            dispatch.dispatch(Event::Rows(work.rows.clone()));
                            !work.is_finished()
                        });
                    }
                    Err(e) => {
                        job.borrow().stop();
                        dispatch.dispatch(Event::Failed(e));
                    }
                }
                move || drop(resized)
            },
        );
    }
    let on_change = {
        let dispatch = shown.dispatcher();
        Callback::from(move |e: web_sys::Event| {
            let v = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            dispatch.dispatch(Event::Change(v.parse().unwrap_or(0).min(CHANGES.len() - 1)));
        })
    };
    let Shown {
        change,
        rows,
        error,
        width,
    } = &*shown;
    let total = Algorithm::ALL.len();
    let busy = rows.len() < total && error.is_none();
    // The verdict (engine::compare::verdict): consistent first, then nearest the ideal,
    // then balance.
    let judged = (!busy).then(|| verdict(rows)).flatten();
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
            if let Some(e) = error {
                <p class="error" role="alert">{(w.not_applied)(&crate::i18n::reason(w, e))}</p>
            }
            if busy {
                <p class="working" role="status">{(w.comparing)(rows.len(), total)}
                    <progress max={total.to_string()} value={rows.len().to_string()}></progress></p>
            }
            if let Some(v) = verdict_text {
                <p class="verdict" role="status">{v}</p>
            }
            // The scatter under the verdict it pictures, both on the first screen; the
            // table with every number follows.
            if !points.is_empty() {
                {scatter_chart(w, &points, ideal_share.map(|i| 100.0 * i), *width)}
            }
            // Written as text (chart::table): a virtual-DOM element per cell would cost
            // the page several times its bytes.
            {Html::from_html_unchecked(compare_table(w, rows, judged.as_ref(), &ideal).into())}
            // A phone's table keeps the verdict's columns; it says where the others went.
            <p class="compare-narrow muted">{w.compare_narrow}</p>
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
