//! The embed's side of the host protocol ([`crate::host`]): in a frame, it carries out the
//! commands its parent window posts (and only its parent's), and posts `ready`, `changed`,
//! `resized` and `error` events back. Outside a frame it does nothing.

use gloo_events::EventListener;
use std::cell::Cell;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Element, MessageEvent, Window};
use yew::prelude::*;

use crate::engine::sim::Change;
use crate::file::FieldValue;
use crate::host::{self, HostCommand, Refusal, MAX_FIELDS, MAX_TEXT};
use crate::i18n::Words;
use crate::state::{Action, PageState};
use crate::tour::Position;

/// The parent window, when the page is in a frame.
fn parent() -> Option<Window> {
    let window = web_sys::window()?;
    let parent = window.parent().ok()??;
    (!js_sys::Object::is(parent.as_ref(), window.as_ref())).then_some(parent)
}

/// Posts one event (JSON text written by [`crate::host`]) to the parent.
fn post(event: &str) {
    if let (Some(parent), Ok(value)) = (parent(), js_sys::JSON::parse(event)) {
        let _ = parent.post_message(&value, "*");
    }
}

/// A message's own fields, as the browser parsed them; at most [`MAX_FIELDS`] + 1 are read
/// and each text is cut at [`MAX_TEXT`] characters, whatever the sender posted.
fn fields(data: &JsValue) -> Vec<(String, FieldValue)> {
    let Some(object) = data.dyn_ref::<js_sys::Object>() else {
        return Vec::new();
    };
    if js_sys::Array::is_array(data) {
        return Vec::new();
    }
    let keys = js_sys::Object::keys(object);
    let mut out = Vec::new();
    for key in keys.iter().take(MAX_FIELDS + 1) {
        let Some(name) = key.as_string() else {
            continue;
        };
        let value = js_sys::Reflect::get(object, &key).unwrap_or(JsValue::NULL);
        let value = if let Some(text) = value.as_string() {
            FieldValue::Text(text.chars().take(MAX_TEXT).collect())
        } else if let Some(n) = value.as_f64() {
            FieldValue::Number(n)
        } else {
            use crate::problem::JsonKind;
            FieldValue::Other(if value.is_null() {
                JsonKind::Null
            } else if value.as_bool().is_some() {
                JsonKind::Boolean
            } else if js_sys::Array::is_array(&value) {
                JsonKind::List
            } else if value.is_object() {
                JsonKind::Object
            } else {
                JsonKind::Other
            })
        };
        out.push((name, value));
    }
    out
}

/// The action for a command (a tour step goes through `go`).
fn carry_out(command: HostCommand, dispatch: &Callback<Action>, go: &Callback<Position>) {
    match command {
        HostCommand::Add(name) => dispatch.emit(Action::AddServer(name.unwrap_or_default())),
        HostCommand::Remove(None) => dispatch.emit(Action::RemoveLast),
        HostCommand::Remove(Some(name)) => dispatch.emit(Action::Apply(Change::Remove(name))),
        HostCommand::Fail(name) => dispatch.emit(Action::Apply(Change::Fail(name))),
        HostCommand::Recover(name) => dispatch.emit(Action::Apply(Change::Recover(name))),
        HostCommand::Scenario(s) => dispatch.emit(Action::Load(*s)),
        HostCommand::Step(p) => go.emit(p),
    }
}

/// Listens to the parent's commands and tells it what happens.
#[hook]
pub fn use_host_bridge(
    state: &PageState,
    dispatch: &Callback<Action>,
    go: &Callback<Position>,
    tour: Option<Position>,
    w: &'static Words,
) {
    let framed = use_memo((), |_| parent().is_some());
    {
        let (dispatch, go, framed) = (dispatch.clone(), go.clone(), *framed);
        use_effect_with(go.clone(), move |_| {
            let window = web_sys::window().filter(|_| framed);
            let listener = window.map(|w| {
                EventListener::new(&w, "message", move |e| {
                    let Some(e) = e.dyn_ref::<MessageEvent>() else {
                        return;
                    };
                    let from_parent = match (e.source(), parent()) {
                        (Some(source), Some(parent)) => {
                            js_sys::Object::is(&source, parent.as_ref())
                        }
                        _ => false,
                    };
                    if !from_parent {
                        return;
                    }
                    match host::read_command(&fields(&e.data())) {
                        Ok(command) => carry_out(command, &dispatch, &go),
                        Err(Refusal::Bad(message)) => post(&host::error_event(1, &message)),
                        Err(Refusal::Foreign) => {}
                    }
                })
            });
            move || drop(listener)
        });
    }
    let busy = state.pending.is_some();
    // `ready` or `changed` once per state of the cluster: when it settles (loaded, or a
    // change landed) — not when a notice comes or goes, nor when work ends refused. Changes
    // that land between two renders (a host's burst of commands) are one `changed`, whose
    // `changes` counts them, so a host can count every change it caused.
    let posted = use_mut_ref(|| None::<u64>);
    {
        let (state, framed) = (state.clone(), *framed);
        use_effect_with((state.version, busy), move |&(version, busy)| {
            if !framed || busy || *posted.borrow() == Some(version) {
                return;
            }
            let before = posted.borrow_mut().replace(version).unwrap_or(0);
            if let Some(last) = state.last.as_ref().filter(|_| version > 0) {
                post(&host::changed_event(
                    w,
                    version.saturating_sub(before).max(1),
                    &last.change,
                    &last.movement,
                    &|id| state.server_name(id),
                ));
            } else {
                let names: Vec<String> =
                    state.sim.servers().iter().map(|s| s.name.clone()).collect();
                post(&host::ready_event(&names, state.sim.keys().len()));
            }
        });
    }
    // One `error` per render with refusals, the same refusal twice included (each bumps
    // `said`): its `count` says how many refusals it reports (a burst of commands can be
    // refused between two renders), with the last one's words; the link's own problems
    // once, when the page opens.
    let said_before = use_mut_ref(|| 0u32);
    {
        let (state, framed) = (state.clone(), *framed);
        use_effect_with(state.said, move |&said| {
            let count = said
                .saturating_sub(std::mem::replace(&mut *said_before.borrow_mut(), said))
                .max(1);
            let notice = if said == 0 {
                state.link_notice.as_ref()
            } else {
                state.error.as_ref()
            };
            if let Some(error) = notice.filter(|n| framed && n.is_refusal()) {
                post(&host::error_event(count, &crate::words::notice(w, error)));
            }
        });
    }
    // The height the content needs: measured when the frame or anything shown in it changes
    // size (a ResizeObserver on the app and the pieces that grow: the readout appearing, a
    // notice, the narration), and the set observed is taken again after the renders that
    // can add or replace a piece (a change landing, work starting or ending, a message,
    // a lookup, a tour step) — not after every render: each stepped-work progress line
    // re-renders the page.
    let framed = *framed;
    let sizer = use_memo((), move |_| framed.then(Sizer::new).flatten());
    let shown = (
        state.version,
        busy,
        state.notice().is_some(),
        state.lookup.is_some(),
        tour,
    );
    use_effect_with(shown, move |_| {
        if let Some(sizer) = sizer.as_ref() {
            sizer.watch();
        }
    });
}

/// Tells the host the content's natural height whenever it changes.
struct Sizer {
    observer: web_sys::ResizeObserver,
    _on_resize: Closure<dyn FnMut()>,
}

impl Sizer {
    fn new() -> Option<Sizer> {
        let sent = Cell::new(0u32);
        let on_resize = Closure::<dyn FnMut()>::new(move || {
            let height = natural_height();
            if height > 0 && sent.replace(height) != height {
                post(&host::resized_event(height));
            }
        });
        let observer = web_sys::ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok()?;
        Some(Sizer {
            observer,
            _on_resize: on_resize,
        })
    }

    /// Observes the app and the pieces now in it (an observation reports at once, so this
    /// also measures).
    fn watch(&self) {
        self.observer.disconnect();
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        let Ok(pieces) = document
            .query_selector_all(".app.embed, .stage > *, .panel > *, section.tour .narration")
        else {
            return;
        };
        for i in 0..pieces.length() {
            if let Some(piece) = pieces.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                self.observer.observe(&piece);
            }
        }
    }
}

impl Drop for Sizer {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

/// The CSS pixels the frame's content needs at the frame's width, whatever height the frame
/// has now: the app laid out for a moment without its fixed height (`.natural` in
/// style.css), which also leaves out what the frame's height decides.
fn natural_height() -> u32 {
    let Some(app) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.query_selector(".app.embed").ok().flatten())
    else {
        return 0;
    };
    let classes = app.class_list();
    let _ = classes.add_1("natural");
    let height = app.get_bounding_client_rect().height().ceil();
    let _ = classes.remove_1("natural");
    height.max(0.0) as u32
}
