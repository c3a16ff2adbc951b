//! The readout beside the ring: after a change, how many keys moved against the ideal,
//! how many moved between servers the change left alone, and the from → to table (with
//! each cell also in words for screen readers). The numbers come from
//! [`crate::readout::Readout`]; this file only lays them out (the from → to table is
//! written as text by [`crate::readout::flows_markup`]).

use crate::text::fill;
use yew::prelude::*;

use crate::i18n::Words;
use crate::readout::flows_markup;
use crate::render::palette::Palette;
use crate::render::server_colour;
use crate::state::PageState;
use crate::words::{change_title, group_thousands, percent};

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
                .map(|(n, f)| fill(w.readout_ideal, &[&group_thousands(n), &percent(f)]));
            let between = fill(w.readout_between, &[&group_thousands(r.between_survivors)]);
            let groups = state.last.as_ref().and_then(|l| l.groups).map(|g| {
                let n = [
                    g.remapped,
                    g.groups,
                    g.copies_moved,
                    g.copies,
                    g.primaries_changed,
                ];
                let n = n.map(group_thousands);
                fill(w.readout_groups, &[&n[0], &n[1], &n[2], &n[3], &n[4]])
            });
            html! {
                <>
                    <p class="moved-line">{fill(w.readout_moved, &[&group_thousands(r.moved), &group_thousands(r.keys), &percent(r.fraction())])}</p>
                    if let Some(groups) = groups { <p class="groups-line">{groups}</p> }
                    <p class="ideal-line">
                        if let Some(ideal) = ideal { <span class="ideal">{ideal}</span> }
                        <span class={classes!("between", (r.between_survivors > 0).then_some("bad"))}>{between}</span>
                    </p>
                    if !r.cells.is_empty() {
                        {Html::from_html_unchecked(flows_markup(w, &r, &|id| server_colour(id, colours)).into())}
                    }
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
