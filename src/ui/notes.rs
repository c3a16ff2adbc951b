//! Speaker notes: a second window (`notes=1`) for the presenter's own screen that follows
//! the presenting window's tour step, and moves it. Both windows run the same tour script,
//! so each computes the same narration from its own state; they only tell each other
//! positions ("carp 2") over a same-origin `BroadcastChannel`.
//!
//! The notes show the step's narration (with the prediction question, when the step asks
//! one), what to point at, and what the next step does.

use crate::text::fill;
use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{BroadcastChannel, MessageEvent};
use yew::prelude::*;

use crate::i18n::Words;
use crate::tour::{Focus, Position, Tour};
use crate::words::change_title;

/// The channel the tour windows of one page share.
const CHANNEL: &str = "hashring-lab-tour";

/// Keeps this window's tour in step with the page's other tour windows once `enabled` (the
/// notes window, and a window that opened notes): posts its position after every step,
/// and goes where another window went. Other tabs of the page are left alone.
#[hook]
pub fn use_tour_channel(enabled: bool, position: Option<Position>, go: &Callback<Position>) {
    let current = use_mut_ref(|| position);
    *current.borrow_mut() = position;
    let go_now = use_mut_ref(|| go.clone());
    *go_now.borrow_mut() = go.clone();
    let channel = use_memo(enabled, {
        let (current, go_now) = (current.clone(), go_now.clone());
        move |&enabled| enabled.then(|| open_channel(current, go_now)).flatten()
    });
    use_effect_with(position, move |position| {
        if let (Some((channel, _)), Some(p)) = (channel.as_ref(), position) {
            let _ = channel.post_message(&p.to_message().into());
        }
    });
}

type Listener = Closure<dyn FnMut(MessageEvent)>;

fn open_channel(
    current: Rc<RefCell<Option<Position>>>,
    go: Rc<RefCell<Callback<Position>>>,
) -> Option<(BroadcastChannel, Listener)> {
    let channel = BroadcastChannel::new(CHANNEL).ok()?;
    let listener: Listener = Closure::new(move |e: MessageEvent| {
        let told = e
            .data()
            .as_string()
            .and_then(|t| Position::from_message(&t));
        if let Some(p) = told.filter(|p| *current.borrow() != Some(*p)) {
            go.borrow().emit(p);
        }
    });
    channel.set_onmessage(Some(listener.as_ref().unchecked_ref()));
    Some((channel, listener))
}

/// What a tour step points at, as the notes say it.
fn focus_name(w: &Words, focus: Focus) -> &'static str {
    match focus {
        Focus::Ring => w.focus_ring,
        Focus::Readout => w.focus_readout,
        Focus::Table => w.focus_table,
        Focus::Load => w.focus_load,
        Focus::Lookup => w.focus_lookup,
        Focus::Store => w.focus_store,
        Focus::Sweep => w.focus_sweep,
    }
}

/// What the step after `p` does: its changes, its lookup, or a new scenario
/// ("Next step: Added redis5.").
fn next_step_preview(w: &Words, p: Position) -> String {
    let Some(next) = p.moved(1) else {
        return w.notes_end.to_owned();
    };
    let tour = Tour::get(next.tour);
    let step = tour.step(next.step);
    let mut parts: Vec<String> = if step.load.is_some() {
        vec![w.notes_new_scenario.to_owned()]
    } else {
        step.changes.iter().map(|c| change_title(w, c)).collect()
    };
    parts.extend(step.lookup.map(|key| fill(w.notes_lookup, &[key])));
    if parts.is_empty() {
        parts.push(w.notes_same.to_owned());
    }
    fill(w.notes_next, &[&parts.join(w.list_separator)])
}

/// The notes window: what is wrong with the link (the presenter must see it too), the
/// step's panel (narration, question, Previous / Next), then what to point at and what
/// comes next.
pub fn notes_view(
    w: &'static Words,
    position: Option<Position>,
    panel: Option<Html>,
    picker: Html,
    notice: Option<Html>,
) -> Html {
    html! {
        <main class="notes-view">
            <header class="notes-top">
                <h1>{w.notes}</h1>
                {picker}
            </header>
            {notice.unwrap_or_default()}
            if let (Some(p), Some(panel)) = (position, panel) {
                {panel}
                <ul class="notes-tips">
                    <li class="point">{fill(w.notes_point, &[focus_name(w, Tour::get(p.tour).step(p.step).focus)])}</li>
                    <li class="next">{next_step_preview(w, p)}</li>
                </ul>
            } else {
                <p class="muted">{w.notes_no_tour}</p>
            }
            <p class="muted notes-follow">{w.notes_follow}</p>
        </main>
    }
}
