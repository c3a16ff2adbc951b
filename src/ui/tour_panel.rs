//! The guided tour's views: the tour menu, the narration panel with Previous / Next /
//! Leave, and the stale-data story's table of stored values. The narration is made from
//! the facts on screen ([`Facts::read`]), so it always states what the page shows.

use yew::prelude::*;

use crate::i18n::Words;
use crate::state::PageState;
use crate::tour::{Facts, Position, StoreView, Tour, TourId};

/// Props of [`TourPicker`].
#[derive(Properties, PartialEq)]
pub struct TourPickerProps {
    /// Where the tour is, if one is open.
    pub position: Option<Position>,
    /// Opens a tour (or leaves with `None`).
    pub on_open: Callback<Option<TourId>>,
}

/// The tour menu in the header.
pub fn tour_picker(w: &'static Words, props: &TourPickerProps) -> Html {
    let on_change = props.on_open.reform(|e: Event| {
        let value = e
            .target_unchecked_into::<web_sys::HtmlSelectElement>()
            .value();
        TourId::from_id(&value)
    });
    let current = props.position.map(|p| p.tour);
    html! {
        <label class="tour-picker">
            <span class="visually-hidden">{w.tours}</span>
            <select id="tour" onchange={on_change} aria-label={w.tours}>
                <option value="" selected={current.is_none()}>{w.choose_tour}</option>
                { for TourId::ALL.iter().map(|t| html! {
                    <option value={t.id()} selected={current == Some(*t)}>
                        {w.tour_words[t.index()].title}
                    </option>
                }) }
            </select>
        </label>
    }
}

/// Props of [`TourPanel`].
#[derive(Properties, PartialEq)]
pub struct TourPanelProps {
    /// The page state (the narration reads its facts).
    pub state: PageState,
    /// Where the tour is.
    pub position: Position,
    /// Moves by ±1 step.
    pub on_step: Callback<isize>,
    /// Leaves the tour (with `None`).
    pub on_open: Callback<Option<TourId>>,
}

/// The narration of the current step, with its counter and buttons.
pub fn tour_panel(w: &'static Words, props: &TourPanelProps) -> Html {
    let p = props.position;
    let tour = Tour::get(p.tour);
    let words = &w.tour_words[p.tour.index()];
    let busy = props.state.pending.is_some();
    let facts = Facts::read(&props.state, tour.store_at(p.step));
    let narration = words.steps.get(p.step - 1).map(|n| n(&facts));
    html! {
        <section class="tour" aria-labelledby="tour-title" data-tour={p.tour.id()} data-step={p.step.to_string()}>
            <header>
                <h2 id="tour-title">{words.title}</h2>
                <span class="step-count">{(w.step_of)(p.step, tour.len())}</span>
            </header>
            <p class="narration" role="status" aria-live="polite" aria-busy={busy.to_string()}>
                { if busy { String::new() } else { narration.unwrap_or_default() } }
            </p>
            <nav class="tour-buttons">
                <button type="button" class="prev" disabled={p.moved(-1).is_none() || busy}
                    onclick={props.on_step.reform(|_| -1)}>{w.previous}</button>
                <button type="button" class="next primary" disabled={p.moved(1).is_none() || busy}
                    onclick={props.on_step.reform(|_| 1)}>
                    { match p.moved(1) {
                        Some(next) if next.tour != p.tour => (w.next_tour)(w.tour_words[next.tour.index()].title),
                        _ => w.next.to_owned(),
                    } }
                </button>
                <button type="button" class="link leave" onclick={props.on_open.reform(|_| None)}>{w.leave_tour}</button>
            </nav>
        </section>
    }
}

/// What each server stores for the stale-data story's key, and what a read returns (a
/// plain function: no state of its own).
pub fn store_panel(w: &Words, s: &StoreView, focused: bool) -> Html {
    let value = |v: Option<u64>| v.map_or_else(|| w.nothing_stored.to_owned(), |v| v.to_string());
    let reader = s.read.as_ref().map(|r| r.0.clone());
    html! {
        <section class={classes!("card", "store", focused.then_some("focus"))}>
            <table class="stored">
                <caption>{(w.stored_values)(s.key)}</caption>
                <thead><tr><th scope="col">{w.col_server}</th><th scope="col" class="num">{w.col_value}</th></tr></thead>
                <tbody>
                    { for s.values.iter().map(|(server, v)| html! {
                        <tr class={classes!((reader.as_deref() == Some(server.as_str())).then_some("read"))}>
                            <th scope="row">{server.clone()}</th><td class="num">{value(*v)}</td>
                        </tr>
                    }) }
                </tbody>
            </table>
            if let Some((server, v)) = &s.read {
                <p class="read-result">{(w.read_returns)(s.key, server, &value(*v))}</p>
            }
        </section>
    }
}
