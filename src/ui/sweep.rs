//! The vnode sweep panel: σ of keys per server as vnodes go 1 → 1,000 for the current
//! scenario's servers, hash and keys (seed 003's experiment), drawn as the points arrive.
//! The sweep runs in steps between frames; a change of servers, hash or keys starts over,
//! a change of the vnode setting alone keeps the curve (it does not depend on it).

use std::cell::RefCell;
use std::rc::Rc;

use gloo_timers::callback::Timeout;
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::charts::fit_canvas;
use super::{use_lang, use_look};
use crate::chart::draw_sweep_chart;
use crate::engine::scenario::Scenario;
use crate::engine::sweep::{Sweep, SWEEP_VNODES};
use crate::state::STEP_COST;
use crate::words::group_thousands;

/// Props of [`SweepPanel`].
#[derive(Properties, PartialEq)]
pub struct SweepProps {
    /// The scenario to sweep.
    pub scenario: Scenario,
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

struct Running {
    sweep: Option<Sweep>,
    timer: Option<Timeout>,
}

/// Runs the sweep a step per timer tick, publishing the points after each.
fn step(running: Rc<RefCell<Running>>, points: UseStateHandle<Vec<(u32, f64)>>) {
    let mut r = running.borrow_mut();
    let Some(sweep) = r.sweep.as_mut() else {
        return;
    };
    if sweep.advance(STEP_COST).is_err() {
        r.sweep = None;
        return;
    }
    points.set(
        sweep
            .points()
            .iter()
            .map(|p| (p.vnodes, p.stddev))
            .collect(),
    );
    if sweep.is_finished() {
        r.sweep = None;
        r.timer = None;
        return;
    }
    let next = running.clone();
    r.timer = Some(Timeout::new(0, move || step(next, points)));
}

/// The sweep chart with its table and a run button.
#[component]
pub fn SweepPanel(props: &SweepProps) -> Html {
    let w = use_lang().words();
    let points = use_state(Vec::<(u32, f64)>::new);
    let running = use_mut_ref(|| Running {
        sweep: None,
        timer: None,
    });
    let key = sweep_key(&props.scenario);
    let start = {
        let (points, running, scenario) = (points.clone(), running.clone(), key.clone());
        Callback::from(move |_: ()| {
            let Ok(sweep) = Sweep::new(&scenario) else {
                return;
            };
            points.set(Vec::new());
            running.borrow_mut().sweep = Some(sweep);
            let (r, p) = (running.clone(), points.clone());
            running.borrow_mut().timer = Some(Timeout::new(0, move || step(r, p)));
        })
    };
    {
        let (points, running, start) = (points.clone(), running.clone(), start.clone());
        use_effect_with((key.clone(), props.auto_run), move |(_, auto)| {
            // Another scenario: the old curve no longer applies.
            let mut r = running.borrow_mut();
            r.sweep = None;
            r.timer = None;
            drop(r);
            points.set(Vec::new());
            if *auto {
                start.emit(());
            }
        });
    }
    let busy = running.borrow().sweep.is_some();
    let servers = props.scenario.nodes.len();
    let keys = group_thousands(props.scenario.settings.keys.len() as u64);
    html! {
        <section class={classes!("card", "sweep", props.focused.then_some("focus"))}>
            <h2>{w.sweep_heading}</h2>
            <p class="muted">{(w.sweep_setup)(servers, &keys)}</p>
            if points.is_empty() && !busy {
                <button type="button" class="run-sweep" onclick={start.reform(|_| ())}>{w.sweep_run}</button>
            } else {
                <SweepCanvas points={(*points).clone()} />
                if busy {
                    <progress max={SWEEP_VNODES.len().to_string()} value={points.len().to_string()}></progress>
                }
                <table class="sweep-table">
                    <caption>{w.sweep_chart_label}</caption>
                    <tbody>
                        <tr><th scope="row">{w.col_vnodes}</th>{ for points.iter().map(|p| html! { <td>{p.0}</td> }) }</tr>
                        <tr><th scope="row">{"σ"}</th>{ for points.iter().map(|p| html! { <td>{format!("{:.0}", p.1)}</td> }) }</tr>
                    </tbody>
                </table>
            }
        </section>
    }
}

/// Props of [`SweepCanvas`].
#[derive(Properties, PartialEq)]
struct SweepCanvasProps {
    points: Vec<(u32, f64)>,
}

#[component]
fn SweepCanvas(props: &SweepCanvasProps) -> Html {
    let look = use_look();
    let w = look.lang.words();
    let canvas = use_node_ref();
    {
        let canvas = canvas.clone();
        use_effect_with(
            (props.points.clone(), look.theme),
            move |(points, theme)| {
                let Some(el) = canvas.cast::<HtmlCanvasElement>() else {
                    return;
                };
                let (width, dpr) = fit_canvas(&el);
                if let Some(backend) = CanvasBackend::with_canvas_object(el) {
                    let font = ((width / 40.0).clamp(12.0, 22.0) * dpr) as u32;
                    let _ = draw_sweep_chart(
                        &backend.into_drawing_area(),
                        points,
                        theme.palette().chart,
                        font,
                    );
                }
            },
        );
    }
    html! {
        <figure class="sweep-figure">
            <canvas ref={canvas} class="sweep-chart" role="img" aria-label={w.sweep_chart_label} />
            <figcaption>
                <span class="axis">{"↑ "}{w.sweep_y}</span>
                <span class="axis">{"→ "}{w.sweep_x}</span>
                <span class="key measured">{w.sweep_measured}</span>
                <span class="key trend">{w.sweep_trend}</span>
            </figcaption>
        </figure>
    }
}
