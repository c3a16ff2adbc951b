//! The yew components: thin views that read [`PageState`], dispatch [`Action`]s, and call
//! the canvas and chart drawing. No placement logic lives here.

mod charts;
mod controls;
mod ring_canvas;
mod ring_view;

use std::rc::Rc;

use gloo_events::EventListener;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use crate::engine::scenario::Scenario;
use crate::link::{self, Link};
use crate::state::{Action, PageState};

pub use charts::{LoadChart, ShareChart};
pub use controls::{LookupBox, ScenarioControls, ServerControls, Swatch};
pub use ring_view::RingView;

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

/// The page URL's query as decoded (name, value) pairs.
fn url_pairs() -> Vec<(String, String)> {
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return Vec::new();
    };
    let mut pairs = Vec::new();
    let entries = js_sys::try_iter(&params).ok().flatten();
    for entry in entries.into_iter().flatten().flatten() {
        let pair: js_sys::Array = entry.unchecked_into();
        if let (Some(k), Some(v)) = (pair.get(0).as_string(), pair.get(1).as_string()) {
            pairs.push((k, v));
        }
    }
    pairs
}

/// True when a key press goes to a form field, not to the page's shortcuts.
fn is_typing(e: &KeyboardEvent) -> bool {
    e.target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"))
}

/// The state for the page's link: its scenario (loaded in steps when large), or the
/// default with a message naming every problem of the link.
fn initial_state(link: &Link) -> PageState {
    let loaded = link.scenario.as_ref().map(|s| {
        PageState::loading(s).map_err(|e| {
            format!(
                "This link's scenario was not loaded: {e}. Showing the default scenario instead."
            )
        })
    });
    let mut state = match loaded {
        Some(Ok(state)) => state,
        Some(Err(e)) => {
            let mut state = default_state();
            state.error = Some(e);
            return state;
        }
        None => default_state(),
    };
    if let Some(message) = link.message() {
        state.error = Some(message);
    }
    state
}

fn default_state() -> PageState {
    PageState::new(&Scenario::default()).expect("the default scenario always builds")
}

/// Writes the scenario into the address bar (without a new history entry), so the page's
/// URL always reproduces what is on screen. Not before the first change: until then the
/// address bar keeps the link the user came with, even one that could not be loaded.
fn sync_url(state: &PageState) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if state.version == 0 {
        return;
    }
    let query = link::query(&state.sim.scenario(), &url_pairs());
    let path = window.location().pathname().unwrap_or_default();
    let url = if query.is_empty() {
        path
    } else {
        format!("{path}?{query}")
    };
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
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

/// Writes the scenario into the address bar after every change.
#[hook]
fn use_url_sync(state: &PageState) {
    let state = state.clone();
    use_effect_with(state.version, move |_| sync_url(&state));
}

/// Stepped work: one more step after the browser has painted the progress.
#[hook]
fn use_stepper(state: &PageState, dispatch: &Callback<Action>) {
    let dispatch = dispatch.clone();
    let timer = use_mut_ref(|| None::<gloo_timers::callback::Timeout>);
    use_effect_with(state.progress(), move |progress| {
        *timer.borrow_mut() = progress.map(|_| {
            gloo_timers::callback::Timeout::new(0, move || dispatch.emit(Action::Continue))
        });
    });
}

/// Keyboard: A add, R remove last, Space play/pause, + / − / 0 zoom (not while typing).
#[hook]
fn use_shortcuts(
    dispatch: &Callback<Action>,
    playing: &UseStateHandle<bool>,
    zoom_request: &UseStateHandle<(u32, i8)>,
) {
    let (dispatch, playing, zoom_request) =
        (dispatch.clone(), playing.clone(), zoom_request.clone());
    use_effect_with((*playing, *zoom_request), move |_| {
        let document = web_sys::window().and_then(|w| w.document());
        let listener = document.map(|d| {
            EventListener::new(&d, "keydown", move |e| {
                let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
                    return;
                };
                if is_typing(e) || e.ctrl_key() || e.meta_key() || e.alt_key() {
                    return;
                }
                let zoom = |d: i8| zoom_request.set((zoom_request.0 + 1, d));
                match e.key().as_str() {
                    "a" | "A" => dispatch.emit(Action::AddServer(String::new())),
                    "r" | "R" => dispatch.emit(Action::RemoveLast),
                    " " => {
                        e.prevent_default();
                        playing.set(!*playing);
                    }
                    "+" | "=" => zoom(1),
                    "-" | "_" => zoom(-1),
                    "0" => zoom(0),
                    _ => {}
                }
            })
        });
        // Dropping the listener removes it.
        move || drop(listener)
    });
}

/// The page.
#[component]
pub fn App() -> Html {
    let link = use_memo((), |_| Link::read(&url_pairs()));
    let store = {
        let link = link.clone();
        use_reducer(move || Store(initial_state(&link)))
    };
    let playing = use_state(|| false);
    let speed = use_state(|| 1.0f64);
    let zoom_request = use_state(|| (0u32, 0i8));
    let frozen_ms = link.freeze_ms;
    let state = &store.0;
    // One callback for the page's lifetime, so views whose state did not change do not
    // re-render while stepped work advances.
    let dispatch = {
        let dispatcher = store.dispatcher();
        (*use_memo((), move |_| {
            Callback::from(move |a: Action| dispatcher.dispatch(a))
        }))
        .clone()
    };
    use_url_sync(state);
    use_stepper(state, &dispatch);
    use_shortcuts(&dispatch, &playing, &zoom_request);
    let summary = state.status_line();
    let toggle_play = {
        let playing = playing.clone();
        Callback::from(move |()| playing.set(!*playing))
    };
    let set_speed = {
        let speed = speed.clone();
        Callback::from(move |s: f64| speed.set(s))
    };
    html! {
        <div class="app">
            <header class="top">
                <h1>{"hashring-lab"}</h1>
                <p class="tagline">{"Consistent hashing on the 0‥2³² ring — see exactly which keys move."}</p>
            </header>
            <main class="layout">
                <section class="stage" aria-label="Hash ring">
                    <RingView state={state.clone()} playing={*playing} speed={*speed} zoom_request={*zoom_request} frozen_ms={frozen_ms} />
                    <p class="summary" role="status" aria-live="polite">
                        if let Some((_, done, total)) = state.progress() {
                            <span class="working">{summary}</span>
                            <progress max={total.to_string()} value={done.to_string()}></progress>
                        } else {
                            {summary}
                        }
                    </p>
                    <LookupBox state={state.clone()} on_action={dispatch.clone()} />
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
                    <ScenarioControls state={state.clone()} on_action={dispatch.clone()} playing={*playing}
                        on_toggle_play={toggle_play} speed={*speed} on_speed={set_speed} />
                    <ShareChart state={state.clone()} />
                </aside>
            </main>
        </div>
    }
}
