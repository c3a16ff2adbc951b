//! The yew components: thin views that read [`PageState`], dispatch [`Action`]s, and call
//! the canvas and chart drawing. No placement logic lives here.

mod ring_canvas;

use std::rc::Rc;

use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlInputElement};
use yew::prelude::*;

use crate::chart::{draw_load_chart, group_thousands, LoadBar, DARK};
use crate::engine::scenario::{Scenario, PARAMS};
use crate::render::{server_colour, server_rgb};
use crate::state::{Action, PageState};

pub use ring_canvas::{algorithm_title, MAX_KEY_DOTS};

/// Mounts the app on the page's body.
pub fn start() {
    yew::Renderer::<App>::new().render();
}

/// The shared state, as yew's reducer.
#[derive(Clone, PartialEq)]
pub struct Store(pub PageState);

impl Reducible for Store {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        Rc::new(Store(self.0.reduce(action)))
    }
}

/// The scenario in the page's URL query, or the default with a message on bad input.
fn scenario_from_url() -> (Scenario, Option<String>) {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return (Scenario::default(), None);
    };
    let mut pairs: Vec<(String, String)> = Vec::new();
    let entries = js_sys::try_iter(&params).ok().flatten();
    for entry in entries.into_iter().flatten().flatten() {
        let pair: js_sys::Array = entry.unchecked_into();
        let (k, v) = (pair.get(0).as_string(), pair.get(1).as_string());
        if let (Some(k), Some(v)) = (k, v) {
            if PARAMS.contains(&k.as_str()) {
                pairs.push((k, v));
            }
        }
    }
    match Scenario::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str()))) {
        Ok(s) => (s, None),
        Err(e) => (
            Scenario::default(),
            Some(format!(
                "The link's scenario was not loaded: {e}. Showing the default instead."
            )),
        ),
    }
}

fn initial_state() -> PageState {
    let (scenario, warning) = scenario_from_url();
    let mut state = PageState::new(&scenario)
        .or_else(|e| {
            PageState::new(&Scenario::default()).map(|mut s| {
                s.error = Some(format!("The link's scenario was not loaded: {e}"));
                s
            })
        })
        .expect("the default scenario always builds");
    if warning.is_some() {
        state.error = warning;
    }
    state
}

/// The page.
#[component]
pub fn App() -> Html {
    let store = use_reducer(|| Store(initial_state()));
    let state = &store.0;
    let dispatch = {
        let store = store.clone();
        Callback::from(move |a: Action| store.dispatch(a))
    };
    let summary = state
        .last
        .as_ref()
        .map(|l| l.summary.clone())
        .unwrap_or_else(|| {
            "Each key walks clockwise to the first virtual node at or after its hash; add or remove a server to see which arcs and keys move.".into()
        });
    html! {
        <div class="app">
            <header class="top">
                <h1>{"hashring-lab"}</h1>
                <p class="tagline">{"Consistent hashing on the 0‥2³² ring — see exactly which keys move."}</p>
            </header>
            <main class="layout">
                <section class="stage" aria-label="Hash ring">
                    <RingView state={state.clone()} />
                    <p class="summary" role="status" aria-live="polite">{summary}</p>
                </section>
                <aside class="panel">
                    if let Some(error) = &state.error {
                        <p class="error" role="alert">
                            {error.clone()}
                            <button class="link" onclick={dispatch.reform(|_| Action::DismissError)}>{"Dismiss"}</button>
                        </p>
                    }
                    <ServerControls state={state.clone()} on_action={dispatch.clone()} />
                    <LoadChart state={state.clone()} />
                </aside>
            </main>
        </div>
    }
}

/// Props shared by the views that only read the state.
#[derive(Properties, PartialEq)]
pub struct ViewProps {
    /// The page state.
    pub state: PageState,
}

/// Props for views that also act.
#[derive(Properties, PartialEq)]
pub struct ControlProps {
    /// The page state.
    pub state: PageState,
    /// Where actions go.
    pub on_action: Callback<Action>,
}

/// Sizes a canvas's backing store to its CSS width (and `aspect` × that height) times the
/// device pixel ratio, so drawing is crisp on HiDPI screens; returns (dpr, width, height)
/// in CSS pixels.
fn size_canvas(canvas: &HtmlCanvasElement, aspect: f64) -> (f64, f64, f64) {
    let dpr = web_sys::window()
        .map_or(1.0, |w| w.device_pixel_ratio())
        .max(1.0);
    let width = f64::from(canvas.client_width()).max(200.0);
    let height = (width * aspect).round();
    canvas.set_width((width * dpr) as u32);
    canvas.set_height((height * dpr) as u32);
    (dpr, width, height)
}

/// A sized canvas's 2D context, scaled so that one unit is one CSS pixel.
fn context_in_css_pixels(
    canvas: &HtmlCanvasElement,
    aspect: f64,
) -> Option<(CanvasRenderingContext2d, f64, f64)> {
    let (dpr, width, height) = size_canvas(canvas, aspect);
    let ctx: CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
    let _ = ctx.set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0);
    Some((ctx, width, height))
}

/// The ring canvas.
#[component]
pub fn RingView(props: &ViewProps) -> Html {
    let canvas = use_node_ref();
    {
        let canvas = canvas.clone();
        let state = props.state.clone();
        use_effect_with(props.state.clone(), move |_| {
            if let Some(el) = canvas.cast::<HtmlCanvasElement>() {
                if let Some((ctx, w, h)) = context_in_css_pixels(&el, 1.0) {
                    ring_canvas::draw(&ctx, w, h, &state);
                    mark_first_ring_paint();
                }
            }
        });
    }
    let label = format!(
        "Ring with {} servers and {} keys",
        props.state.sim.servers().len(),
        props.state.sim.keys().len()
    );
    html! { <canvas ref={canvas} class="ring" role="img" aria-label={label} data-version={props.state.version.to_string()} /> }
}

/// Records a `ring-painted` performance mark the first time the ring is drawn, for the
/// page measurement script (tests/perf/measure.mjs).
fn mark_first_ring_paint() {
    if let Some(perf) = web_sys::window().and_then(|w| w.performance()) {
        if perf.get_entries_by_name("ring-painted").length() == 0 {
            let _ = perf.mark("ring-painted");
        }
    }
}

/// Server list (the "Keys per server" table), add and remove.
#[component]
pub fn ServerControls(props: &ControlProps) -> Html {
    let state = &props.state;
    let input = use_node_ref();
    let total = state.sim.keys().len().max(1) as f64;
    let add = {
        let input = input.clone();
        let on_action = props.on_action.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let field = input.cast::<HtmlInputElement>();
            let name = field.as_ref().map(|f| f.value()).unwrap_or_default();
            on_action.emit(Action::AddServer(name));
            if let Some(f) = field {
                f.set_value("");
            }
        })
    };
    let rows = state.sim.servers().iter().map(|s| {
        let count = state.sim.count(s.id);
        let remove = {
            let name = s.name.clone();
            props.on_action.reform(move |_| Action::Apply(crate::engine::sim::Change::Remove(name.clone())))
        };
        html! {
            <tr key={s.id.to_string()} class={classes!((!s.up).then_some("down"))}>
                <td><Swatch colour={server_colour(s.id)} /></td>
                <th scope="row" class="name">{s.name.clone()}</th>
                <td class="num count">{group_thousands(count)}</td>
                <td class="num">{format!("{:.1}%", 100.0 * count as f64 / total)}</td>
                <td><button class="icon" title={format!("Remove {}", s.name)} aria-label={format!("Remove {}", s.name)} onclick={remove}>{"✕"}</button></td>
            </tr>
        }
    });
    html! {
        <section class="card servers">
            <table class="counts">
                <caption>{"Keys per server"}</caption>
                <thead><tr><th></th><th scope="col">{"Server"}</th><th scope="col" class="num">{"Keys"}</th><th scope="col" class="num">{"Share"}</th><th></th></tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            <form class="add" onsubmit={add}>
                <label for="new-server" class="visually-hidden">{"New server name"}</label>
                <input id="new-server" ref={input} type="text" maxlength="64" placeholder={state.suggested_name()} autocomplete="off" />
                <button type="submit" class="primary">{"Add server"}</button>
                <button type="button" onclick={props.on_action.reform(|_| Action::RemoveLast)}>{"Remove server"}</button>
            </form>
        </section>
    }
}

/// The keys-per-server chart with ghost bars and the balance figures.
#[component]
pub fn LoadChart(props: &ViewProps) -> Html {
    let canvas = use_node_ref();
    {
        let canvas = canvas.clone();
        let state = props.state.clone();
        use_effect_with(props.state.clone(), move |_| {
            let bars: Vec<LoadBar> = state
                .sim
                .servers()
                .iter()
                .map(|s| LoadBar {
                    label: s.name.clone(),
                    count: state.sim.count(s.id),
                    before: state.count_before(s.id),
                    rgb: server_rgb(s.id),
                })
                .collect();
            let mean = state.sim.stats().mean;
            if let Some(el) = canvas.cast::<HtmlCanvasElement>() {
                // plotters draws in backing-store pixels, so fonts scale with the ratio.
                let (dpr, _, _) = size_canvas(&el, 0.55);
                if let Some(backend) = CanvasBackend::with_canvas_object(el) {
                    let area = backend.into_drawing_area();
                    let _ = draw_load_chart(&area, &bars, mean, DARK, (12.0 * dpr) as u32);
                }
            }
        });
    }
    let stats = props.state.sim.stats();
    let moved = props
        .state
        .last
        .as_ref()
        .map(|l| format!("{:.1}%", 100.0 * l.movement.moved_fraction()))
        .unwrap_or_else(|| "—".into());
    html! {
        <section class="card chart">
            <h2>{"Load per server"}</h2>
            <canvas ref={canvas} class="load" role="img" aria-label="Bar chart of keys per server; outlines show the counts before the last change" />
            <dl class="figures">
                <div><dt>{"mean"}</dt><dd>{group_thousands(stats.mean.round() as u64)}</dd></div>
                <div><dt>{"std dev"}</dt><dd>{format!("{:.1}", stats.stddev)}</dd></div>
                <div><dt>{"peak / mean"}</dt><dd>{format!("{:.3}", stats.peak_to_mean)}</dd></div>
                <div><dt>{"moved"}</dt><dd>{moved}</dd></div>
            </dl>
        </section>
    }
}

/// Props of [`Swatch`].
#[derive(Properties, PartialEq)]
pub struct SwatchProps {
    /// CSS colour.
    pub colour: String,
}

/// A server's colour chip. Drawn as SVG (a `fill` attribute, not a `style`), so the page
/// needs no inline styles under its Content-Security-Policy.
#[component]
pub fn Swatch(props: &SwatchProps) -> Html {
    html! {
        <svg class="swatch" viewBox="0 0 14 14" aria-hidden="true">
            <rect width="14" height="14" rx="4" fill={props.colour.clone()} />
        </svg>
    }
}
