//! The readout beside the ring: after a change, how many keys moved against the ideal,
//! how many moved between servers the change left alone, and the from → to table (with
//! each cell also in words for screen readers). The numbers come from
//! [`crate::readout::Readout`]; this file only lays them out.

use yew::prelude::*;

use super::swatch;
use crate::engine::text::fit_names;
use crate::i18n::Words;
use crate::readout::{Party, Readout};
use crate::render::palette::Palette;
use crate::render::server_colour;
use crate::state::PageState;
use crate::words::{change_title, group_thousands, name_in_text, percent};

/// A party's name and swatch.
fn party(w: &Words, colours: &Palette, p: &Party) -> (String, Html) {
    match p {
        Party::Server { id, name, .. } => (name.clone(), swatch(server_colour(*id, colours))),
        Party::Nobody => (w.nobody.to_owned(), Html::default()),
        Party::Others(n) => ((w.flows_others)(*n), Html::default()),
    }
}

/// The from → to table: rows are the old owners, columns the new ones — except after a
/// removal or failure (every key from one server), where the receivers are listed down and
/// the one sender heads the column: the side with several servers always runs down, which
/// fits beside the ring and on a phone.
fn flows_table(w: &'static Words, colours: &Palette, r: &Readout) -> Html {
    // Headings show the part of each server's name that differs (`…1:80`, `…6:80`), in at
    // most 8 characters (6 with five columns): every column then fits the card beside the
    // ring. The full name is the tooltip and what a screen reader says.
    let names: Vec<&str> = r
        .from
        .iter()
        .chain(&r.to)
        .filter_map(Party::server_name)
        .collect();
    let room = if r.to.len() > 4 { 6 } else { 8 };
    let short = fit_names(&names, room);
    let shown = |name: &str| {
        names
            .iter()
            .position(|n| *n == name)
            .map_or(name, |i| short[i].as_str())
            .to_owned()
    };
    let head = |p: &Party, scope: &'static str| {
        let (name, colour) = party(w, colours, p);
        let visible = shown(&name);
        html! {
            <th scope={scope} title={name.clone()}>{colour}
                if visible == name {
                    <span class="name-text">{name}</span>
                } else {
                    <span class="name-text" aria-hidden="true">{visible}</span>
                    <span class="visually-hidden">{name}</span>
                }
            </th>
        }
    };
    let cell = |row: usize, col: usize| {
        let n = r.cell(row, col);
        let between = n > 0 && r.between(row, col);
        html! {
            <td class={classes!("num", (n == 0).then_some("zero"), between.then_some("between"))}
                title={between.then_some(w.flow_between_hint)}>
                { if n == 0 { "·".to_owned() } else { group_thousands(n) } }
            </td>
        }
    };
    let transposed = r.from.len() == 1 && r.to.len() > 1;
    let (corner, heads, rows) = if transposed {
        let heads = head(&r.from[0], "col");
        let rows: Html =
            r.to.iter()
                .enumerate()
                .map(|(col, p)| html! { <tr>{head(p, "row")}{cell(0, col)}</tr> })
                .collect();
        (w.flows_corner_transposed, heads, rows)
    } else {
        let heads: Html = r.to.iter().map(|p| head(p, "col")).collect();
        let rows: Html = r
            .from
            .iter()
            .enumerate()
            .map(|(row, p)| {
                html! {
                    <tr>{head(p, "row")}{ for (0..r.to.len()).map(|col| cell(row, col)) }</tr>
                }
            })
            .collect();
        (w.flows_corner, heads, rows)
    };
    // The same cells as sentences, for readers who do not see the grid.
    let mut spoken = Vec::new();
    for (row, from) in r.from.iter().enumerate() {
        for (col, to) in r.to.iter().enumerate() {
            let n = r.cell(row, col);
            if n > 0 {
                spoken.push((w.flow_words)(
                    &name_in_text(&party(w, colours, from).0),
                    &name_in_text(&party(w, colours, to).0),
                    &group_thousands(n),
                ));
            }
        }
    }
    html! {
        <>
            <div class="flows-wrap">
                <table class={classes!("flows", transposed.then_some("transposed"))}>
                    <caption>{w.flows_caption}</caption>
                    <thead><tr><td class="corner">{corner}</td>{heads}</tr></thead>
                    <tbody>{rows}</tbody>
                </table>
            </div>
            <p class="visually-hidden">{spoken.join(w.list_separator)}</p>
        </>
    }
}

/// What the last change moved, or what this panel will show once something changes.
pub fn readout_card(
    w: &'static Words,
    colours: &Palette,
    state: &PageState,
    focused: bool,
    marks: (bool, &Callback<()>),
) -> Html {
    // After a change the heading names it ("Added K"), as the status line does.
    let heading = state.last.as_ref().map_or_else(
        || w.readout_heading.to_owned(),
        |l| change_title(w, &l.change),
    );
    let body = match state.readout() {
        None => html! { <p class="muted idle">{w.readout_idle}</p> },
        Some(r) => {
            let ideal = r
                .ideal
                .zip(r.ideal_fraction)
                .map(|(n, f)| (w.readout_ideal)(&group_thousands(n), &percent(f)));
            let between = (w.readout_between)(&group_thousands(r.between_survivors));
            html! {
                <>
                    <p class="moved-line">{(w.readout_moved)(&group_thousands(r.moved), &group_thousands(r.keys), &percent(r.fraction()))}</p>
                    <p class="ideal-line">
                        if let Some(ideal) = ideal { <span class="ideal">{ideal}</span> }
                        <span class={classes!("between", (r.between_survivors > 0).then_some("bad"))}>{between}</span>
                    </p>
                    if !r.cells.is_empty() { {flows_table(w, colours, &r)} }
                    if r.moved > 0 {
                        <label class="mark-moved">
                            <input type="checkbox" checked={marks.0} onchange={marks.1.reform(|_| ())} />
                            {" "}{w.mark_moved}
                        </label>
                    }
                </>
            }
        }
    };
    html! {
        <section class={classes!("card", "readout", focused.then_some("focus"))} aria-label={w.readout_heading}>
            <h2>{heading}</h2>
            {body}
        </section>
    }
}

/// A small embed's one line: "1,204 of 5,000 moved — ideal 1,000" after a change (what to
/// do before one), never hidden, whatever the frame's size.
pub fn moved_short(w: &'static Words, state: &PageState) -> Html {
    // Only the totals: no need to build the from → to table here.
    let text = match &state.last {
        Some(last) => {
            let m = &last.movement;
            (w.moved_short)(
                &group_thousands(m.moved),
                &group_thousands(m.keys),
                m.ideal_keys().map(group_thousands).as_deref(),
                (m.between_survivors > 0)
                    .then(|| group_thousands(m.between_survivors))
                    .as_deref(),
            )
        }
        None => w.embed_idle.to_owned(),
    };
    html! { <p class={classes!("moved-short", state.last.is_none().then_some("idle"))}>{text}</p> }
}
