//! The yew components: thin views that read [`PageState`], dispatch [`Action`]s, and call
//! the canvas and chart drawing. No placement logic lives here.

mod charts;
mod compare;
mod controls;
mod handout;
mod host_bridge;
mod import;
mod look;
mod notes;
mod readout;
mod ring_canvas;
mod ring_view;
mod stepped;
mod sweep;
mod tools;
mod tour_panel;

use std::rc::Rc;

use gloo_events::{EventListener, EventListenerOptions};
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use crate::engine::scenario::Scenario;
use crate::i18n::Lang;
use crate::link::{self, Link, View};
use crate::render::palette::Theme;
use crate::screen::{Flag, Screen, ScreenAction};
use crate::shortcuts::Shortcut;
use crate::state::{Action, Notice, PageState};
use crate::tour::{self, Focus, Position, Tour, TourId};
use crate::words;

pub use charts::{load_chart, share_chart, ViewProps};
pub use compare::CompareView;
pub use controls::{
    lookup_box, scenario_controls, server_actions, server_controls, swatch, ControlProps,
    ScenarioProps,
};
pub use look::{use_lang, use_look, Look};
pub use readout::{moved_short, readout_card};
pub use ring_view::RingView;
pub use sweep::SweepPanel;
pub use tools::{qr_dialog, shortcuts_dialog, ExportCard, ShareCard};
pub use tour_panel::{store_panel, tour_panel, tour_picker, TourPanelProps, TourPickerProps};

/// Mounts the app on the page's body, in place of the static shell that index.html paints
/// before the wasm has run (taken away in the same task as the first render: no frame
/// shows neither). The link is read here, once, and its first state computed once.
///
/// When the link asks for the plain page and its scenario is placed at once (not in steps),
/// the ring is drawn into the shell first and the app is mounted after the frame that shows
/// it: the ring with its data is on screen before the app's first render and layout
/// (its first paint against a plain-JavaScript page: docs/PERFORMANCE.md; how it came to
/// be: `git log -- src/ui/mod.rs`).
pub fn start() {
    let first = Rc::new(First::of_page());
    if draw_in_shell(&first) {
        let frame = gloo_render::request_animation_frame(move |_| {
            gloo_timers::callback::Timeout::new(0, move || mount(first)).forget();
        });
        std::mem::forget(frame);
    } else {
        mount(first);
    }
}

fn mount(first: Rc<First>) {
    if let Some(shell) = shell() {
        shell.remove();
    }
    yew::Renderer::<App>::with_props(AppProps { first }).render();
    link_icon();
}

/// Gives the page its icon (copied beside index.html by the page's build, relative like
/// every asset), in place of the empty one index.html starts with.
fn link_icon() {
    let icon = tools::document().and_then(|d| d.query_selector("link[rel=icon]").ok().flatten());
    if let Some(icon) = icon {
        let _ = icon.set_attribute("href", "favicon.svg");
    }
}

fn shell() -> Option<web_sys::Element> {
    tools::document()?.get_element_by_id("shell")
}

/// Draws the link's ring into the shell, in place of its empty track, when the link asks
/// for the plain page (no tour, comparison, notes, embed or presentation: each lays the
/// page out otherwise or shows another scenario) and its scenario is placed at once.
/// Returns whether it did.
fn draw_in_shell(first: &First) -> bool {
    let view = first.link.view;
    let plain = view.tour.is_none() && !view.compare && !view.notes && !view.embed && !view.present;
    if !plain || first.state.pending.is_some() {
        return false;
    }
    let Some(track) = shell().and_then(|s| s.query_selector(".shell-ring").ok().flatten()) else {
        return false;
    };
    let Some(canvas) = tools::document()
        .and_then(|d| d.create_element("canvas").ok())
        .and_then(|c| c.dyn_into::<web_sys::HtmlCanvasElement>().ok())
    else {
        return false;
    };
    canvas.set_class_name("ring");
    let _ = canvas.set_attribute("aria-hidden", "true");
    if track.replace_with_with_node_1(&canvas).is_err() {
        return false;
    }
    let look = Look {
        lang: first.lang,
        theme: view.theme.unwrap_or(first.system_theme),
        present: false,
    };
    ring_view::draw_first(&canvas, &first.state, look);
    true
}

/// What the page starts from, each read or computed once: its link, the state it asks for,
/// the language (the link's, else the browser's) and the system's theme. The ring drawn
/// into the shell and the app's first frame start from the same values.
pub struct First {
    link: Link,
    state: PageState,
    lang: Lang,
    system_theme: Theme,
}

impl First {
    /// The page's own link (its address's query) and what follows from it.
    fn of_page() -> First {
        let link = Link::read(&url_pairs());
        let state = initial_state(&link);
        let lang = link.view.lang.unwrap_or_else(preferred_lang);
        First {
            link,
            state,
            lang,
            system_theme: system_theme(),
        }
    }
}

/// Props of [`App`]. The default reads the page's link (what a test mounting the app gets).
pub struct AppProps {
    first: Rc<First>,
}

impl Default for AppProps {
    fn default() -> Self {
        AppProps {
            first: Rc::new(First::of_page()),
        }
    }
}

impl Properties for AppProps {
    type Builder = ();
    fn builder() -> Self::Builder {}
}

impl PartialEq for AppProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.first, &other.first)
    }
}

/// What the reader has chosen, opened or turned on, as yew's reducer.
#[derive(Clone, Copy, PartialEq)]
pub struct ScreenStore(pub Screen);

impl Reducible for ScreenStore {
    type Action = ScreenAction;

    fn reduce(self: Rc<Self>, action: ScreenAction) -> Rc<Self> {
        Rc::new(ScreenStore(self.0.reduce(action)))
    }
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
/// default with a notice naming every problem of the link.
fn initial_state(link: &Link) -> PageState {
    let loaded = link
        .scenario
        .as_ref()
        .map(|s| PageState::loading(s).map_err(|e| Notice::LinkNotLoaded(std::rc::Rc::from([e]))));
    let mut state = match loaded {
        Some(Ok(state)) => state,
        Some(Err(e)) => {
            let mut state = default_state();
            state.link_notice = Some(e);
            return state;
        }
        None => default_state(),
    };
    state.link_notice = link.notice();
    state
}

fn default_state() -> PageState {
    PageState::new(&Scenario::default())
        .unwrap_or_else(|e| panic!("the default scenario always builds: {e}"))
}

/// The page's language when the link names none: the first of the browser's that it has.
fn preferred_lang() -> Lang {
    let tags = browser_languages();
    Lang::from_preferences(tags.iter().map(String::as_str))
}

/// The browser's preferred languages, most preferred first.
fn browser_languages() -> Vec<String> {
    let Some(navigator) = web_sys::window().map(|w| w.navigator()) else {
        return Vec::new();
    };
    let mut tags: Vec<String> = js_sys::Array::from(&navigator.languages())
        .iter()
        .filter_map(|v| v.as_string())
        .collect();
    if let Some(tag) = navigator.language() {
        tags.push(tag);
    }
    tags
}

/// Writes the scenario and the page parameters into the address bar (without a new
/// history entry), so the page's URL always reproduces what is on screen. Not before the
/// first change: until then the address bar keeps the link the user came with, even one
/// that could not be loaded.
fn sync_url(version: u64, scenario_query: &str, params: &View, touched: bool) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if version == 0 && !touched {
        return;
    }
    let query = link::with_page_params(scenario_query.to_owned(), &params.pairs(), &url_pairs());
    if query.len() > link::MAX_LINK_BYTES {
        // Longer than a browser opens: the address keeps the last link that fits, and the
        // share card says to save the scenario as a file.
        return;
    }
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

/// The scenario on screen and its query, built once per state of the simulation (not at
/// every render: a million listed keys or tokens make a query of megabytes).
#[hook]
fn use_shown_scenario(state: &PageState) -> Rc<(Rc<Scenario>, Option<String>)> {
    use_memo(Rc::as_ptr(&state.sim) as usize, {
        let sim = state.sim.clone();
        move |_| {
            let scenario = Rc::new(sim.scenario());
            // None: longer than a browser opens (not written out past that).
            let query = scenario.to_query_within(link::MAX_LINK_BYTES);
            (scenario, query)
        }
    })
}

/// Writes the scenario and page parameters into the address bar after every change, and
/// keeps `<html lang>` and the title in the page's language.
#[hook]
fn use_url_sync(version: u64, shown: &Rc<(Rc<Scenario>, Option<String>)>, params: View) {
    let shown = shown.clone();
    let first = use_mut_ref(|| Some(params));
    use_effect_with((version, params), move |_| {
        // The page parameters count as a change once they differ from the link's.
        let touched = first.borrow().is_some_and(|p| p != params);
        if touched {
            *first.borrow_mut() = None;
        }
        // A link longer than a browser opens is not written: the address keeps the last
        // one that fits, and the share card says to save the scenario as a file.
        if let Some(query) = &shown.1 {
            sync_url(version, query, &params, first.borrow().is_none());
        }
    });
    // Only when the language changes: setting `<html lang>` restyles the whole page.
    use_effect_with(params.lang.unwrap_or_default(), |lang| {
        if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
            if let Some(root) = doc.document_element() {
                let _ = root.set_attribute("lang", lang.code());
            }
            doc.set_title(lang.words().page_title);
        }
    });
}

/// Stepped work: one more step after the browser has painted the progress.
#[hook]
fn use_stepper(state: &PageState, dispatch: &Callback<Action>) {
    let dispatch = dispatch.clone();
    let timer = use_mut_ref(|| None::<gloo_timers::callback::Timeout>);
    use_effect_with(state.progress(), move |progress| {
        *timer.borrow_mut() =
            progress.map(|_| stepped::after_paint(move || dispatch.emit(Action::Continue)));
    });
}

/// Keyboard: each key press the page knows ([`Shortcut::for_key`]) goes to `on_key`, not
/// while typing in a field; the keys that would scroll are stopped while they act.
#[hook]
fn use_shortcuts(on_key: &Callback<Shortcut>, touring: bool, notes_window: bool) {
    let on_key = on_key.clone();
    use_effect_with(
        (on_key, touring, notes_window),
        move |(on_key, touring, notes)| {
            let (on_key, touring, notes) = (on_key.clone(), *touring, *notes);
            let document = web_sys::window().and_then(|w| w.document());
            // Not passive: Space and a tour's arrows and Page keys (a clicker's) must not scroll.
            let listener = document.map(|d| {
                EventListener::new_with_options(
                    &d,
                    "keydown",
                    EventListenerOptions::enable_prevent_default(),
                    move |e| {
                        let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
                            return;
                        };
                        if is_typing(e) || e.ctrl_key() || e.meta_key() || e.alt_key() {
                            return;
                        }
                        if let Some(shortcut) = Shortcut::for_key(&e.key(), notes) {
                            if shortcut.stops_default(touring) {
                                e.prevent_default();
                            }
                            on_key.emit(shortcut);
                        }
                    },
                )
            });
            // Dropping the listener removes it.
            move || drop(listener)
        },
    );
}

/// The tour: where it is, and the callbacks that move it. A step is reached through the
/// same actions as the controls; Next from a finished step applies only its own changes.
struct TourControl {
    position: Option<Position>,
    /// Go to a step (a host page's command).
    go: Callback<Position>,
    /// Go `delta` steps (±1).
    step: Callback<isize>,
    /// Open a tour at step 1 (`None` leaves the tour, keeping the state).
    open: Callback<Option<TourId>>,
}

#[hook]
fn use_tour(
    initial: Option<Position>,
    state: &PageState,
    dispatch: &Callback<Action>,
) -> TourControl {
    let position = use_state(|| initial);
    // The version at which the current step's work was done, so Next can continue from it.
    let reached = use_mut_ref(|| None::<(Position, u64)>);
    let awaiting = use_mut_ref(|| initial);
    {
        let dispatch = dispatch.clone();
        use_effect_with((), move |_| {
            if let Some(p) = initial {
                dispatch.emit(tour::script(&Tour::get(p.tour), p.step, false));
            }
        });
    }
    {
        let (reached, awaiting) = (reached.clone(), awaiting.clone());
        use_effect_with(
            (state.version, state.pending.is_some()),
            move |&(version, busy)| {
                if busy {
                    return;
                }
                if let Some(p) = awaiting.borrow_mut().take() {
                    *reached.borrow_mut() = Some((p, version));
                }
            },
        );
    }
    let go = {
        let (position, dispatch, reached, awaiting) = (
            position.clone(),
            dispatch.clone(),
            reached.clone(),
            awaiting.clone(),
        );
        let (version, busy) = (state.version, state.pending.is_some());
        Callback::from(move |target: Position| {
            if busy {
                return;
            }
            let tour = Tour::get(target.tour);
            let continuing = tour::continues(*reached.borrow(), target, version);
            *awaiting.borrow_mut() = Some(target);
            position.set(Some(target));
            dispatch.emit(tour::script(&tour, target.step, continuing));
        })
    };
    let step = {
        let (go, current) = (go.clone(), *position);
        Callback::from(move |delta: isize| {
            if let Some(next) = current.and_then(|p| p.moved(delta)) {
                go.emit(next);
            }
        })
    };
    let open = {
        let (position, go) = (position.clone(), go.clone());
        Callback::from(move |id: Option<TourId>| match id {
            Some(tour) => go.emit(Position { tour, step: 1 }),
            None => position.set(None),
        })
    };
    TourControl {
        position: *position,
        go,
        step,
        open,
    }
}

/// The theme the system prefers (`prefers-color-scheme`).
fn system_theme() -> Theme {
    let light = web_sys::window()
        .and_then(|w| {
            w.match_media("(prefers-color-scheme: light)")
                .ok()
                .flatten()
        })
        .is_some_and(|m| m.matches());
    if light {
        Theme::Light
    } else {
        Theme::Dark
    }
}

/// Full screen on, or off when it is on.
fn toggle_fullscreen() {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if doc.fullscreen_element().is_some() {
        doc.exit_fullscreen();
    } else if let Some(root) = doc.document_element() {
        let _ = root.request_fullscreen();
    }
}

/// The address of the page with `query`, absolute.
fn address(query: &str) -> String {
    let Some(location) = web_sys::window().map(|w| w.location()) else {
        return String::new();
    };
    let base = format!(
        "{}{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_default()
    );
    if query.is_empty() {
        base
    } else {
        format!("{base}?{query}")
    }
}

/// Scrolls the page up to `node` when it is above the screen (the page's own document
/// only: a page that embeds it does not jump). A notice answers controls far down the page
/// too — the config box, the key list, a scenario file — while it stands near the top:
/// without this a refusal there was said out of sight (1,541 px above a phone's screen).
/// A notice below the screen (a link's problem under the ring on a phone) stays there: the
/// ring is what the page opens on.
fn bring_into_view(node: &NodeRef) {
    let (Some(element), Some(window)) = (node.cast::<web_sys::Element>(), web_sys::window()) else {
        return;
    };
    let top = element.get_bounding_client_rect().top();
    if top < 0.0 {
        window.scroll_by_with_x_and_y(0.0, top - 8.0);
    }
}

/// The page: yew's two reducers (the scenario's [`PageState`] and the reader's [`Screen`]),
/// the hooks that keep the page in step with the browser, and [`Page`]'s views.
#[component]
pub fn App(props: &AppProps) -> Html {
    let link = &props.first.link;
    let store = {
        let first = Rc::clone(&props.first);
        use_reducer(move || Store(first.state.clone()))
    };
    let (screen, on_screen) = use_screen(link.view, props.first.lang);
    let s = screen.0;
    let state = &store.0;
    // The tour's printable handout, while it is made and once it is.
    let handout = use_state(|| None::<handout::Handout>);
    use_below_fold(state, s.below_fold, &on_screen);
    let dispatch = use_dispatch(&store);
    let tour = use_tour(link.view.tour, state, &dispatch);
    let params = View {
        lang: Some(s.lang),
        tour: tour.position,
        theme: s.theme,
        present: s.present,
        embed: link.view.embed,
        compare: s.compare,
        notes: link.view.notes,
    };
    notes::use_tour_channel(link.view.notes || s.notes_opened, tour.position, &tour.go);
    let shown = use_shown_scenario(state);
    use_url_sync(state.version, &shown, params);
    let w = s.lang.words();
    host_bridge::use_host_bridge(state, &dispatch, &tour.go, tour.position, w);
    use_stepper(state, &dispatch);
    use_key_shortcuts(&dispatch, &tour, &on_screen, link.view.notes);
    let theme = s.theme.unwrap_or(props.first.system_theme);
    handout::use_handout(&handout, state, tour.position, w, &tour.go);
    handout::use_print_when_done(&handout);
    use_theme_attribute(theme);
    let error_ref = use_notice_in_view(state);
    let page = Page {
        w,
        s,
        state,
        dispatch,
        on_screen,
        tour: &tour,
        focus: tour.position.map(|p| Tour::get(p.tour).step(p.step).focus),
        theme,
        links: Links::of(&shown, params),
        scenario: &shown.0,
        handout: &handout,
        error_ref,
        frozen_ms: link.freeze_ms,
        notes_window: link.view.notes,
        embed: link.view.embed,
        too_long: shown.1.is_none(),
    };
    let look = Look {
        lang: s.lang,
        theme,
        present: s.present,
    };
    html! {
        <ContextProvider<Look> context={look}>{page.view()}</ContextProvider<Look>>
    }
}

/// The reader's choices as yew's reducer, started from the link's view in the page's first
/// language ([`First`]), and the callback that changes them.
#[hook]
fn use_screen(view: View, lang: Lang) -> (UseReducerHandle<ScreenStore>, Callback<ScreenAction>) {
    let screen = use_reducer(move || ScreenStore(Screen::from_view(&view, lang)));
    let dispatcher = screen.dispatcher();
    let on_screen = Callback::from(move |a: ScreenAction| dispatcher.dispatch(a));
    (screen, on_screen)
}

/// Below the fold (the panel: the tables, the settings, the share and export cards) is
/// rendered once the ring has shown the link's scenario, in the task after the frame that
/// paints it: the first screen's ring does not wait for what is under it.
#[hook]
fn use_below_fold(state: &PageState, shown: bool, on_screen: &Callback<ScreenAction>) {
    let below_fold = on_screen.reform(|()| ScreenAction::Set(Flag::BelowFold, true));
    let opening = state
        .pending
        .as_ref()
        .is_some_and(|p| matches!(p.goal, crate::state::Goal::Open(_)));
    use_effect_with(opening || shown, move |&wait| {
        let frame = (!wait).then(|| {
            gloo_render::request_animation_frame(move |_| {
                gloo_timers::callback::Timeout::new(0, move || below_fold.emit(())).forget();
            })
        });
        move || drop(frame)
    });
}

/// One callback for the page's lifetime, so views whose state did not change do not
/// re-render while stepped work advances.
#[hook]
fn use_dispatch(store: &UseReducerHandle<Store>) -> Callback<Action> {
    let dispatcher = store.dispatcher();
    (*use_memo((), move |_| {
        Callback::from(move |a: Action| dispatcher.dispatch(a))
    }))
    .clone()
}

/// The keyboard's shortcuts, each to the action, the view change or the tour step it
/// stands for.
#[hook]
fn use_key_shortcuts(
    dispatch: &Callback<Action>,
    tour: &TourControl,
    on_screen: &Callback<ScreenAction>,
    notes_window: bool,
) {
    let on_key = {
        let (dispatch, tour_step, on_screen) =
            (dispatch.clone(), tour.step.clone(), on_screen.clone());
        Callback::from(move |shortcut: Shortcut| {
            let view = |a: ScreenAction| on_screen.emit(a);
            match shortcut {
                Shortcut::AddServer => dispatch.emit(Action::AddServer(String::new())),
                Shortcut::RemoveLast => dispatch.emit(Action::RemoveLast),
                Shortcut::TogglePlay => view(ScreenAction::Toggle(Flag::Playing)),
                Shortcut::ZoomIn => view(ScreenAction::Zoom(1)),
                Shortcut::ZoomOut => view(ScreenAction::Zoom(-1)),
                Shortcut::ZoomReset => view(ScreenAction::Zoom(0)),
                Shortcut::NextStep => tour_step.emit(1),
                Shortcut::PreviousStep => tour_step.emit(-1),
                Shortcut::FullScreen => toggle_fullscreen(),
                Shortcut::Present => view(ScreenAction::Toggle(Flag::Present)),
                Shortcut::Help => view(ScreenAction::Toggle(Flag::Help)),
                Shortcut::Qr => view(ScreenAction::Toggle(Flag::Qr)),
                Shortcut::Close => view(ScreenAction::CloseDialogs),
            }
        })
    };
    use_shortcuts(&on_key, tour.position.is_some(), notes_window);
}

/// The document's `data-theme`, which the page's CSS reads.
#[hook]
fn use_theme_attribute(theme: Theme) {
    use_effect_with(theme, |theme| {
        let root = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element());
        if let Some(root) = root {
            let _ = root.set_attribute("data-theme", theme.name());
        }
    });
}

/// Where the notice is drawn, brought into view each time one is said (`said` counts them,
/// the same refusal again too) and on the first render when the link has one.
#[hook]
fn use_notice_in_view(state: &PageState) -> NodeRef {
    let error_ref = use_node_ref();
    {
        let error_ref = error_ref.clone();
        use_effect_with(
            (state.said, state.notice().is_some()),
            move |&(_, shown)| {
                if shown {
                    bring_into_view(&error_ref);
                }
            },
        );
    }
    error_ref
}

/// The scenario's addresses in the other views (the animation clock left out); all empty
/// when the scenario is longer than a browser opens (it is offered as a file instead).
struct Links {
    /// The full page, for an embed's "open" link and the share card.
    full_page: String,
    /// The embed, for the share card's code.
    embed: String,
    /// The plain view phones in the room open (the QR code): not presentation mode.
    phone: String,
    /// The speaker-notes window.
    notes: String,
}

impl Links {
    fn of(shown: &(Rc<Scenario>, Option<String>), params: View) -> Links {
        let link_to = |view: View| {
            let Some(scenario_query) = &shown.1 else {
                return String::new();
            };
            let mut set = view.pairs();
            set.push(("freeze", None));
            address(&link::with_page_params(scenario_query.clone(), &set, &[]))
        };
        let plain = View {
            present: false,
            embed: false,
            ..params
        };
        Links {
            full_page: link_to(View {
                embed: false,
                ..params
            }),
            embed: link_to(View {
                embed: true,
                ..params
            }),
            phone: link_to(plain),
            notes: link_to(View {
                notes: true,
                ..plain
            }),
        }
    }
}

/// What the page's views are drawn from, once per render.
struct Page<'a> {
    w: &'static crate::i18n::Words,
    s: Screen,
    state: &'a PageState,
    dispatch: Callback<Action>,
    on_screen: Callback<ScreenAction>,
    tour: &'a TourControl,
    /// What the tour's step points at (its tour read once a render).
    focus: Option<Focus>,
    theme: Theme,
    links: Links,
    scenario: &'a Rc<Scenario>,
    handout: &'a UseStateHandle<Option<handout::Handout>>,
    error_ref: NodeRef,
    frozen_ms: Option<f64>,
    notes_window: bool,
    embed: bool,
    /// The scenario is longer than a browser opens (offered as a file; the links empty).
    too_long: bool,
}

impl Page<'_> {
    /// `f` set to `on` by a click (or any event).
    fn set(&self, f: Flag, on: bool) -> Callback<()> {
        self.on_screen.reform(move |()| ScreenAction::Set(f, on))
    }

    fn toggle(&self, f: Flag) -> Callback<()> {
        self.on_screen.reform(move |()| ScreenAction::Toggle(f))
    }

    /// Whether a tour step points at `f`.
    fn focused(&self, f: Focus) -> bool {
        self.focus == Some(f)
    }

    /// The speaker-notes window, the embed or the full page.
    fn view(&self) -> Html {
        if self.notes_window {
            let picker = tour_picker(
                self.w,
                &TourPickerProps {
                    position: self.tour.position,
                    on_open: self.tour.open.clone(),
                },
            );
            return html! {
                <div class={classes!("app", "notes", self.s.present.then_some("present"))}>
                    {notes::notes_view(self.w, self.tour.position, self.tour_panel(), picker, self.error())}
                </div>
            };
        }
        if self.embed {
            return self.embed();
        }
        self.full()
    }

    fn classes(&self) -> Classes {
        let embed = self.embed;
        classes!(
            "app",
            embed.then_some("embed"),
            (embed && self.tour.position.is_some()).then_some("touring"),
            self.s.present.then_some("present")
        )
    }

    /// The status line: what the last change did, or the work under way.
    fn status(&self) -> Html {
        let summary = self.state.status_line(self.w);
        // Before any change it says what the algorithm does, told whole (Ceph's is four lines).
        let intro = self.state.last.is_none() && self.state.progress().is_none();
        html! {
            <p class={classes!("summary", intro.then_some("intro"))} role="status" aria-live="polite">
                if let Some((_, done, total)) = self.state.progress() {
                    <span class="working">{summary}</span>
                    <progress max={total.to_string()} value={done.to_string()}></progress>
                } else {
                    {summary}
                }
            </p>
        }
    }

    fn error(&self) -> Option<Html> {
        self.state.notice().map(|error| html! {
            <p class="error" role="alert" ref={self.error_ref.clone()}>
                {words::notice(self.w, error)}
                <button class="link" onclick={self.dispatch.reform(|_| Action::DismissError)}>{self.w.dismiss}</button>
            </p>
        })
    }

    fn tour_panel(&self) -> Option<Html> {
        let position = self.tour.position?;
        // The guess belongs to the predicted step: the next one while asking, this one
        // while revealing.
        let about = Tour::get(position.tour)
            .prediction_at(position.step)
            .and_then(|_| position.moved(1))
            .unwrap_or(position);
        let handout = self.handout.clone();
        let props = TourPanelProps {
            state: self.state.clone(),
            position,
            on_step: self.tour.step.clone(),
            on_open: self.tour.open.clone(),
            guess: self.s.guess_for(about),
            on_guess: self
                .on_screen
                .reform(move |g: Option<u64>| ScreenAction::Guess(about, g)),
            on_notes: (!self.notes_window && !self.too_long).then(|| {
                let (opened, url) = (self.set(Flag::NotesOpened, true), self.links.notes.clone());
                Callback::from(move |()| {
                    opened.emit(());
                    if let Some(window) = web_sys::window() {
                        let _ = window.open_with_url_and_target_and_features(
                            &url,
                            "hashring-lab-notes",
                            "popup,width=960,height=720",
                        );
                    }
                })
            }),
            on_print: (!self.notes_window).then(|| {
                Callback::from(move |()| {
                    handout.set(Some(handout::Handout {
                        tour: position.tour,
                        back_to: position,
                        pages: Vec::new(),
                    }))
                })
            }),
        };
        Some(tour_panel(self.w, &props))
    }

    fn ring(&self) -> Html {
        let s = &self.s;
        html! {
            <RingView state={self.state.clone()} playing={s.playing} speed={s.speed} zoom_request={s.zoom} frozen_ms={self.frozen_ms} show_moved={s.marks}
                on_pin={self.dispatch.reform(Action::Lookup)} />
        }
    }

    fn readout(&self) -> Html {
        let toggle_marks = self.toggle(Flag::Marks);
        readout_card(
            self.w,
            self.theme.palette(),
            self.state,
            self.focused(Focus::Readout),
            (self.s.marks, &toggle_marks),
        )
    }

    fn load(&self) -> Html {
        load_chart(
            self.w,
            self.theme.palette(),
            &ViewProps {
                state: self.state.clone(),
                focused: self.focused(Focus::Load),
            },
            self.s.below_fold,
        )
    }

    fn servers(&self, compact: bool) -> Html {
        server_controls(
            self.w,
            self.theme.palette(),
            &self.controls(Focus::Table, compact),
        )
    }

    fn controls(&self, focus: Focus, compact: bool) -> ControlProps {
        ControlProps {
            state: self.state.clone(),
            on_action: self.dispatch.clone(),
            focused: self.focused(focus),
            compact,
        }
    }

    /// A frame in a documentation page: the ring, worded buttons, and one line that always
    /// says what moved; from 720×460 up, the readout, the load chart and the table (folded)
    /// beside it. Nothing scrolls inside the frame.
    fn embed(&self) -> Html {
        let (w, s, dispatch) = (self.w, &self.s, &self.dispatch);
        html! {
            <div class={self.classes()}>
                <main class="layout">
                    <section class={classes!("stage", self.focused(Focus::Ring).then_some("focus"))} aria-label={w.ring_section}>
                        {self.ring()}
                        {moved_short(w, self.state)}
                        <div class="embed-bar">
                            <button type="button" class="primary" title={w.add_server_hint} aria-label={w.add_server}
                                onclick={dispatch.reform(|_| Action::AddServer(String::new()))}>{"+ "}<span class="word">{w.add_server}</span><span class="short">{w.add_short}</span></button>
                            <button type="button" title={w.remove_server_hint} aria-label={w.remove_server}
                                onclick={dispatch.reform(|_| Action::RemoveLast)}>{"− "}<span class="word">{w.remove_server}</span><span class="short">{w.remove_short}</span></button>
                            <button type="button" class="play" aria-pressed={s.playing.to_string()} title={w.play_hint}
                                onclick={self.toggle(Flag::Playing).reform(|_| ())}>{ if s.playing { w.pause } else { w.play } }</button>
                            <a class="open-full" href={self.links.full_page.clone()} target="_blank" rel="noopener">
                                <span class="word">{w.open_full}</span><span class="short">{w.open_full_short}</span></a>
                        </div>
                        {self.status()}
                    </section>
                    <aside class="panel">
                        {for self.tour_panel()}
                        {for self.error()}
                        {self.readout()}
                        {self.load()}
                        <details class="card folded">
                            <summary><h2>{w.keys_per_server}</h2></summary>
                            {self.servers(true)}
                        </details>
                    </aside>
                </main>
            </div>
        }
    }

    fn header(&self) -> Html {
        let (w, s, theme) = (self.w, &self.s, self.theme);
        let on_lang = {
            let on_screen = self.on_screen.clone();
            Callback::from(move |e: Event| {
                let value = e
                    .target_unchecked_into::<web_sys::HtmlSelectElement>()
                    .value();
                if let Some(l) = Lang::from_code(&value) {
                    on_screen.emit(ScreenAction::Lang(l));
                }
            })
        };
        let toggle_theme = self.on_screen.reform(move |_: MouseEvent| {
            ScreenAction::Theme(match theme {
                Theme::Dark => Theme::Light,
                Theme::Light => Theme::Dark,
            })
        });
        html! {
            <header class="top">
                <h1>{"hashring-lab"}</h1>
                <p class="tagline">{w.tagline}</p>
                <div class="header-tools">
                    <button type="button" class="compare-button" aria-pressed={s.compare.to_string()}
                        onclick={self.toggle(Flag::Compare).reform(|_| ())}>
                        { if s.compare { w.back_to_ring } else { w.compare_view } }
                    </button>
                    {tour_picker(w, &TourPickerProps { position: self.tour.position, on_open: self.tour.open.clone() })}
                    <button type="button" class="theme" onclick={toggle_theme}>
                        { if theme == Theme::Dark { w.to_light } else { w.to_dark } }
                    </button>
                    <button type="button" class="present-button" aria-pressed={s.present.to_string()} title={w.present_hint}
                        onclick={self.toggle(Flag::Present).reform(|_| ())}>{ if s.present { w.end_present } else { w.present } }</button>
                    if s.present {
                        <button type="button" class="qr-button" title={w.qr_hint}
                            onclick={self.set(Flag::Qr, true).reform(|_| ())}>{w.qr_code}</button>
                    }
                    <button type="button" class="help-button" title={w.shortcuts} aria-label={w.shortcuts}
                        onclick={self.set(Flag::Help, true).reform(|_| ())}>{"?"}</button>
                    <label class="lang">
                        <span class="visually-hidden">{w.language}</span>
                        <select id="lang" onchange={on_lang} aria-label={w.language}>
                            { for Lang::ALL.iter().map(|l| html! {
                                <option value={l.code()} lang={l.code()} selected={*l == s.lang}>{l.native_name()}</option>
                            }) }
                        </select>
                    </label>
                </div>
            </header>
        }
    }

    /// The full page: the header, the stage (the ring and, beside it, what the reader came
    /// for) or the compare view, the panel below the fold, and the dialogs.
    fn full(&self) -> Html {
        let (w, s, state) = (self.w, &self.s, self.state);
        let beside = |f: Focus| self.focused(f) && !s.compare;
        // Presenting without a tour, the lookup comes beside the ring: the presenter
        // follows keys there, in the room's view.
        let lookup_beside =
            beside(Focus::Lookup) || (s.present && self.tour.position.is_none() && !s.compare);
        let lookup = lookup_box(w, &self.controls(Focus::Lookup, false));
        let store = self
            .tour
            .position
            .and_then(|p| Tour::get(p.tour).store_at(p.step))
            .map(|store| store_panel(w, &store, self.focused(Focus::Store)));
        let sweeps = state.sim.settings().algo.balance_follows_vnodes();
        // The sweep tour shows the sweep first, and keeps it (and its curve) through its steps.
        let sweep_tour = self.tour.position.is_some_and(|p| p.tour == TourId::Sweep);
        let sweep_beside = (sweep_tour && sweeps).then(|| html! {
            <SweepPanel scenario={Rc::clone(self.scenario)} auto_run=true focused={self.focused(Focus::Sweep)} />
        });
        let title = (w.embed_title)(
            words::algorithm_title(w, self.scenario.settings.algo),
            self.scenario.nodes.len(),
            &words::group_thousands(self.scenario.settings.keys.len() as u64),
        );
        html! {
            <div class={self.classes()}>
                {self.header()}
                <main class={classes!("layout", s.compare.then_some("compare-layout"))}>
                    if s.compare {
                        <CompareView scenario={Scenario::clone(self.scenario)} />
                    } else {
                        // The stage answers "what moved?" on one screen: the ring, and beside
                        // it the changes to make, what happened, the from → to table and the
                        // load. A tour step's subject (the lookup, the table, the stored
                        // values, the sweep) comes beside the ring too, under the narration.
                        <section class="stage" aria-label={w.ring_section}>
                            // Presenting, the load sits under the ring, as wide as the ring,
                            // for the back row; the words have the side's whole height.
                            <div class={classes!("ring-col", self.focused(Focus::Ring).then_some("focus"))}>
                                {self.ring()}
                                if s.present { {self.load()} }
                            </div>
                            <div class="side">
                                {for self.tour_panel()}
                                {for store}
                                {for sweep_beside}
                                if lookup_beside { {lookup.clone()} }
                                if beside(Focus::Table) { {self.servers(false)} }
                                {server_actions(w, state, &self.dispatch)}
                                {self.status()}
                                {for self.error()}
                                {self.readout()}
                                if !s.present { {self.load()} }
                            </div>
                        </section>
                    }
                    <div class="panel">
                        if s.below_fold {
                        if s.compare { {for self.error()} }
                        if !lookup_beside { {lookup} }
                        if !beside(Focus::Table) { {self.servers(false)} }
                        {scenario_controls(w, &ScenarioProps { state: state.clone(), on_action: self.dispatch.clone(), playing: s.playing,
                            on_toggle_play: self.toggle(Flag::Playing), speed: s.speed, on_speed: self.on_screen.reform(ScreenAction::Speed) })}
                        {share_chart(w, self.theme.palette(), &ViewProps { state: state.clone(), focused: false })}
                        if sweeps && !sweep_tour {
                            <SweepPanel scenario={Rc::clone(self.scenario)} />
                        }
                        <ShareCard link={self.links.full_page.clone()} embed_link={self.links.embed.clone()} title={title} too_long={self.too_long}
                            on_qr={self.set(Flag::Qr, true)} />
                        <ExportCard state={state.clone()} on_action={self.dispatch.clone()} />
                        }
                    </div>
                </main>
                if s.help {
                    {shortcuts_dialog(w, self.set(Flag::Help, false))}
                }
                if let Some(h) = self.handout.as_ref().filter(|h| h.is_done()) {
                    {handout::handout_view(w, h)}
                }
                if s.qr {
                    {qr_dialog(w, &self.links.phone, self.set(Flag::Qr, false))}
                }
            </div>
        }
    }
}
