//! The guided tour's views: the tour menu, the narration panel with Previous / Next /
//! Leave, and the stale-data story's table of stored values. The narration is made from
//! the facts on screen ([`Facts::read`]), so it always states what the page shows.

use crate::text::fill;
use yew::prelude::*;

use crate::engine::sim::Change;
use crate::i18n::Words;
use crate::state::PageState;
use crate::tour::{Facts, Position, StoreView, Tour, TourId};
use crate::words::{group_thousands, percent};

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
    /// The class's guess for the step it is about: the next step when this one asks for a
    /// prediction, this step when it reveals one.
    pub guess: Option<u64>,
    /// A new guess (`None`: the field was cleared).
    pub on_guess: Callback<Option<u64>>,
    /// Opens the speaker notes (absent in the notes window itself).
    pub on_notes: Option<Callback<()>>,
    /// Prints the tour's handout (absent in the notes window).
    pub on_print: Option<Callback<()>>,
}

/// The narration of the current step, with its counter and buttons.
pub fn tour_panel(w: &'static Words, props: &TourPanelProps) -> Html {
    let p = props.position;
    let tour = Tour::get(p.tour);
    let words = &w.tour_words[p.tour.index()];
    let busy = props.state.pending.is_some();
    let facts = Facts::read(w, &props.state, tour.store_at(p.step));
    let narration = words.steps.get(p.step - 1).map(|n| n(&facts));
    let prediction = (!busy)
        .then(|| {
            tour.prediction_at(p.step)
                .map(|c| predict_form(w, props, c))
        })
        .flatten();
    let reveal = (!busy && tour.step(p.step).predict)
        .then(|| reveal_line(w, props))
        .flatten();
    html! {
        <section class="tour" aria-labelledby="tour-title" data-tour={p.tour.id()} data-step={p.step.to_string()}>
            <header>
                <h2 id="tour-title">{words.title}</h2>
                <span class="step-count">{(w.step_of)(p.step, tour.len())}</span>
            </header>
            <p class="narration" role="status" aria-live="polite" aria-busy={busy.to_string()}>
                { if busy { String::new() } else { narration.unwrap_or_default() } }
            </p>
            {for prediction}
            {for reveal}
            <nav class="tour-buttons">
                <button type="button" class="prev" disabled={p.moved(-1).is_none() || busy}
                    onclick={props.on_step.reform(|_| -1)}>{w.previous}</button>
                <button type="button" class="next primary" disabled={p.moved(1).is_none() || busy}
                    onclick={props.on_step.reform(|_| 1)}>
                    { match p.moved(1) {
                        Some(next) if next.tour != p.tour => fill(w.next_tour, &[w.tour_words[next.tour.index()].title]),
                        _ => w.next.to_owned(),
                    } }
                </button>
                if let Some(on_print) = &props.on_print {
                    <button type="button" class="link print-button" title={w.print_hint}
                        onclick={on_print.reform(|_| ())}>{w.print_handout}</button>
                }
                if let Some(on_notes) = &props.on_notes {
                    <button type="button" class="link notes-button" title={w.notes_hint}
                        onclick={on_notes.reform(|_| ())}>{w.notes}</button>
                }
                <button type="button" class="link leave" onclick={props.on_open.reform(|_| None)}>{w.leave_tour}</button>
            </nav>
        </section>
    }
}

/// The question before a predicted step, with a number field for the class's guess;
/// Enter goes to the step that answers it.
fn predict_form(w: &'static Words, props: &TourPanelProps, change: &Change) -> Html {
    let total = props.state.sim.keys().len() as u64;
    let total_text = group_thousands(total);
    let question = match change {
        Change::Remove(name) => fill(w.predict_remove, &[name, &total_text]),
        Change::Add { name, .. } => fill(w.predict_add, &[name, &total_text]),
        _ => return Html::default(),
    };
    let on_input = props.on_guess.reform(|e: InputEvent| {
        let text = e
            .target_unchecked_into::<web_sys::HtmlInputElement>()
            .value();
        text.trim().parse::<u64>().ok()
    });
    let on_submit = props.on_step.reform(|e: SubmitEvent| {
        e.prevent_default();
        1
    });
    html! {
        <form class="predict" onsubmit={on_submit}>
            <p id="predict-question">{question}</p>
            <label>
                <span>{w.predict_label}</span>
                <input type="number" inputmode="numeric" min="0" max={total.to_string()} step="1"
                    aria-describedby="predict-question"
                    value={props.guess.map(|g| g.to_string()).unwrap_or_default()} oninput={on_input} />
            </label>
        </form>
    }
}

/// At a predicted step: the guess beside what moved and the ideal.
fn reveal_line(w: &'static Words, props: &TourPanelProps) -> Option<Html> {
    let r = props.state.readout()?;
    let text = match props.guess {
        Some(guess) => fill(
            w.reveal,
            &[
                &group_thousands(guess),
                &group_thousands(r.moved),
                &percent(r.fraction()),
                &r.ideal
                    .map(group_thousands)
                    .unwrap_or_else(|| "—".to_owned()),
            ],
        ),
        None => w.no_guess.to_owned(),
    };
    Some(
        html! { <p class={classes!("reveal", props.guess.is_none().then_some("muted"))}>{text}</p> },
    )
}

/// What each server stores for the stale-data story's key, and what a read returns (a
/// plain function: no state of its own).
pub fn store_panel(w: &Words, s: &StoreView, focused: bool) -> Html {
    let value = |v: Option<u64>| v.map_or_else(|| w.nothing_stored.to_owned(), |v| v.to_string());
    let reader = s.read.as_ref().map(|r| r.0.clone());
    html! {
        <section class={classes!("card", "store", focused.then_some("focus"))}>
            <table class="stored">
                <caption>{fill(w.stored_values, &[s.key])}</caption>
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
                <p class="read-result">{fill(w.read_returns, &[s.key, server, &value(*v)])}</p>
            }
        </section>
    }
}
