//! The vnode sweep panel: σ of keys per server as vnodes go 1 → 1,000 for the current
//! scenario's servers, hash and keys (seed 003's experiment), drawn as the points arrive.
//! The sweep runs in steps between frames; a change of servers, hash or keys starts over,
//! a change of the vnode setting alone keeps the curve (it does not depend on it).

use yew::prelude::*;

use super::stepped::Stepped;
use super::use_lang;
use crate::chart::sweep_layout;
use crate::engine::scenario::Scenario;
use crate::engine::sweep::{Sweep, SWEEP_VNODES};
use crate::engine::text::Fixed;
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
                <table class="sweep-table">
                    <caption>{w.sweep_chart_label}</caption>
                    <tbody>
                        <tr><th scope="row">{w.col_vnodes}</th>{ for points.iter().map(|p| html! { <td>{p.0}</td> }) }</tr>
                        <tr><th scope="row">{"σ"}</th>{ for points.iter().map(|p| html! { <td>{Fixed(p.1, 0).to_string()}</td> }) }</tr>
                    </tbody>
                </table>
            }
        </section>
    }
}

/// σ against vnodes on a log axis with the 1/√v trend dashed, as SVG (a plain function).
fn sweep_chart(w: &Words, points: &[(u32, f64)]) -> Html {
    let (width, height, pad) = (640.0, 360.0, 44.0);
    let (measured, trend, y_max) = sweep_layout(points, width, height, pad);
    let f = |v: f64| Fixed(v, 1).to_string();
    let line = |pts: &[(f64, f64)]| {
        pts.iter()
            .map(|(x, y)| format!("{},{}", Fixed(*x, 1), Fixed(*y, 1)))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let decades = [1.0f64, 10.0, 100.0, 1000.0];
    html! {
        <figure class="sweep-figure">
            <svg class="sweep-chart" viewBox={format!("0 0 {} {}", Fixed(width, 0), Fixed(height, 0))} role="img" aria-label={w.sweep_chart_label}>
                <line class="axis" x1={f(pad)} y1={f(height - pad)} x2={f(width - pad)} y2={f(height - pad)} />
                <line class="axis" x1={f(pad)} y1={f(pad)} x2={f(pad)} y2={f(height - pad)} />
                { for decades.iter().enumerate().map(|(i, d)| {
                    let x = pad + i as f64 / 3.0 * (width - 2.0 * pad);
                    html! { <text class="tick mid" x={f(x)} y={f(height - pad + 18.0)}>{Fixed(*d, 0).to_string()}</text> }
                }) }
                <text class="tick end" x={f(pad - 6.0)} y={f(height - pad)}>{"0"}</text>
                <text class="tick end" x={f(pad - 6.0)} y={f(pad + 4.0)}>{group_thousands(y_max.round() as u64)}</text>
                <polyline class="trend" points={line(&trend)} />
                <polyline class="measured" points={line(&measured)} />
                { for measured.iter().map(|(x, y)| html! { <circle cx={f(*x)} cy={f(*y)} r="4" /> }) }
            </svg>
            <figcaption>
                <span class="axis">{"↑ "}{w.sweep_y}</span>
                <span class="axis">{"→ "}{w.sweep_x}</span>
                <span class="key measured">{w.sweep_measured}</span>
                <span class="key trend">{w.sweep_trend}</span>
            </figcaption>
        </figure>
    }
}
