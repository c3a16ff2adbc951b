//! The vnode sweep panel: σ of keys per server as vnodes go 1 → 1,000 for the current
//! scenario's servers, hash and keys (seed 003's experiment), drawn as the points arrive.
//! The sweep runs in steps between frames; a change of servers, hash or keys starts over,
//! a change of the vnode setting alone keeps the curve (it does not depend on it).

use yew::prelude::*;

use super::look::use_lang;
use super::stepped::Stepped;
use crate::chart::svg::sweep_svg;
use crate::chart::table::sweep_table;
use crate::engine::scenario::Scenario;
use crate::engine::sweep::{Sweep, SWEEP_VNODES};
use crate::i18n::Words;
use crate::state::STEP_COST;
use crate::words::group_thousands;

/// Props of [`SweepPanel`].
#[derive(Properties, PartialEq)]
pub struct SweepProps {
    /// The scenario to sweep (shared: it may hold a million listed keys).
    pub scenario: std::rc::Rc<Scenario>,
    /// Start at once (the sweep tour); otherwise on the button.
    #[prop_or_default]
    pub auto_run: bool,
    /// Outlined by the tour.
    #[prop_or_default]
    pub focused: bool,
}

/// What the sweep's curve depends on: everything but the vnode setting.
fn sweep_key(s: &Scenario) -> Scenario {
    let mut key = s.clone();
    key.settings.vnodes = 1;
    key
}

/// The sweep chart with its table and a run button.
#[component]
pub fn SweepPanel(props: &SweepProps) -> Html {
    let w = use_lang().words();
    let points = use_state(Vec::<(u32, f64)>::new);
    let running = use_mut_ref(Stepped::default);
    let key = sweep_key(&props.scenario);
    let start = {
        let (points, running, scenario) = (points.clone(), running.clone(), key.clone());
        Callback::from(move |_: ()| {
            let Ok(mut sweep) = Sweep::new(&scenario) else {
                return;
            };
            points.set(Vec::new());
            let points = points.clone();
            // A step per task, publishing the points after each.
            *running.borrow_mut() = Stepped::start(move || {
                if sweep.advance(STEP_COST).is_err() {
                    return false;
                }
                let measured = sweep.points().iter().map(|p| (p.vnodes, p.stddev));
                points.set(measured.collect());
                !sweep.is_finished()
            });
        })
    };
    {
        let (points, running, start) = (points.clone(), running.clone(), start.clone());
        use_effect_with((key.clone(), props.auto_run), move |(_, auto)| {
            // Another scenario: the old curve no longer applies.
            running.borrow().stop();
            points.set(Vec::new());
            if *auto {
                start.emit(());
            }
        });
    }
    let busy = running.borrow().is_running();
    let servers = props.scenario.nodes.len();
    let keys = group_thousands(props.scenario.settings.keys.len() as u64);
    html! {
        <section class={classes!("card", "sweep", props.focused.then_some("focus"))}>
            <h2>{w.sweep_heading}</h2>
            <p class="muted">{(w.sweep_setup)(servers, &keys)}</p>
            if points.is_empty() && !busy {
                <button type="button" class="run-sweep" onclick={start.reform(|_| ())}>{w.sweep_run}</button>
            } else {
                {sweep_chart(w, &points)}
                if busy {
                    <progress max={SWEEP_VNODES.len().to_string()} value={points.len().to_string()}></progress>
                }
                {Html::from_html_unchecked(sweep_table(w, &points).into())}
            }
        </section>
    }
}

/// σ against vnodes on a log axis with the 1/√v trend dashed ([`sweep_svg`]), and what
/// its lines are (a plain function).
fn sweep_chart(w: &Words, points: &[(u32, f64)]) -> Html {
    html! {
        <figure class="sweep-figure">
            {Html::from_html_unchecked(sweep_svg(points, w.sweep_chart_label).into())}
            <figcaption>
                <span class="axis">{"↑ "}{w.sweep_y}</span>
                <span class="axis">{"→ "}{w.sweep_x}</span>
                <span class="key measured">{w.sweep_measured}</span>
                <span class="key trend">{w.sweep_trend}</span>
            </figcaption>
        </figure>
    }
}
