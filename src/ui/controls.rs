//! The control components: the server list (the "Keys per server" table with weight,
//! vnodes, fail/recover and remove), the scenario settings, and the key lookup. Each reads
//! the state and dispatches actions; validation lives in the reducer and the engine.

use crate::text::fill;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use crate::i18n::Words;

use crate::engine::hash::HashFn;
use crate::engine::keys::KeySpec;
use crate::engine::placement::{weighted_vnodes, Algorithm};
use crate::engine::scenario::{
    parse_algorithm, parse_balance, parse_hash, parse_probes, parse_table, parse_vnodes,
    parse_weight, Scenario,
};
use crate::engine::sim::{Change, Server, Simulation};
use crate::render::palette::Palette;
use crate::render::server_colour;
use crate::state::{Action, Lookup, PageState};
use crate::text::parse_decimal;
use crate::text::{Fixed, Shortest};
use crate::words::change_title;
use crate::words::group_thousands;
use std::rc::Rc;

/// Props for views that also act.
#[derive(Properties, PartialEq)]
pub struct ControlProps {
    /// The page state.
    pub state: PageState,
    /// Where actions go.
    pub on_action: Callback<Action>,
    /// Outlined: a tour step points here.
    #[prop_or_default]
    pub focused: bool,
    /// The embed view's small version: fewer columns, no form.
    #[prop_or_default]
    pub compact: bool,
}

fn input_value(e: &Event) -> String {
    e.target_unchecked_into::<HtmlInputElement>().value()
}

fn select_value(e: &Event) -> String {
    e.target_unchecked_into::<HtmlSelectElement>().value()
}

/// A server's colour chip. Drawn as SVG (a `fill` attribute, not a `style`), so the page
/// needs no inline styles under its Content-Security-Policy. A plain function, not a
/// component: it has no state, and every component costs the page its own yew machinery.
pub fn swatch(colour: String) -> Html {
    html! {
        <svg class="swatch" viewBox="0 0 14 14" aria-hidden="true">
            <rect width="14" height="14" rx="4" fill={colour} />
        </svg>
    }
}

/// Props of [`ServerRow`].
#[derive(Properties, PartialEq)]
pub struct ServerRowProps {
    /// The server.
    pub server: Server,
    /// Its keys.
    pub count: u64,
    /// Its share of all keys.
    pub share: f64,
    /// Its vnodes, when the algorithm has them.
    pub vnodes: Option<u32>,
    /// Whether weights matter (the weight field is shown).
    pub weighted: bool,
    /// Where actions go.
    pub on_action: Callback<Action>,
}

/// One row of the "Keys per server" table: weight, vnodes, keys, share, fail/recover, remove.
pub fn server_row(w: &'static Words, colours: &Palette, props: &ServerRowProps) -> Html {
    let s = &props.server;
    let name = s.name.clone();
    let act = |make: fn(String) -> Change| {
        let name = name.clone();
        props
            .on_action
            .reform(move |_| Action::Apply(make(name.clone())))
    };
    let remove = act(Change::Remove);
    let toggle = act(if s.up { Change::Fail } else { Change::Recover });
    let weight = {
        let name = name.clone();
        props
            .on_action
            .reform(move |e: Event| match parse_weight(&input_value(&e)) {
                Ok(w) => Action::Apply(Change::SetWeight(name.clone(), w)),
                Err(msg) => Action::Reject(msg),
            })
    };
    html! {
        <tr class={classes!((!s.up).then_some("down"))}>
            <td>{swatch(server_colour(s.id, colours))}</td>
            <th scope="row" class="name" title={name.clone()}><span class="name-text">{name.clone()}</span>{ if s.up { html!{} } else { html!{ <span class="badge">{w.badge_down}</span> } } }</th>
            if props.weighted {
                <td class="num"><input class="weight" type="number" min="0.01" max="100" step="0.5" value={Shortest(s.weight).to_string()}
                    aria-label={fill(w.weight_of, &[&name])} onchange={weight} /></td>
            }
            if let Some(v) = props.vnodes { <td class="num vnodes">{v}</td> }
            <td class="num count">{group_thousands(props.count)}</td>
            <td class="num share-col">{format!("{}%", Fixed(100.0 * props.share, 1))}</td>
            <td class="actions">
                <button type="button" class="small" aria-label={if s.up { fill(w.fail_server, &[&name]) } else { fill(w.recover_server, &[&name]) }}
                    title={if s.up { w.fail_hint } else { w.recover_hint }} onclick={toggle}>
                    { if s.up { w.fail } else { w.recover } }
                </button>
                <button type="button" class="icon" title={fill(w.remove_server_named, &[&name])} aria-label={fill(w.remove_server_named, &[&name])} onclick={remove}>{"✕"}</button>
            </td>
        </tr>
    }
}

/// Server list (the "Keys per server" table), add and remove.
pub fn server_controls(w: &'static Words, colours: &Palette, props: &ControlProps) -> Html {
    let state = &props.state;
    let sim = &state.sim;
    let total = sim.keys().len().max(1) as f64;
    let algo = sim.settings().algo;
    let compact = props.compact;
    let (weighted, is_ring) = (
        algo.uses_weights() && !compact,
        algo.uses_vnodes() && !compact,
    );
    let vnodes = sim.settings().vnodes;
    let rows = sim.servers().iter().map(|s| {
        let count = sim.count(s.id);
        html! {
            {server_row(w, colours, &ServerRowProps {
                server: s.clone(),
                count,
                share: count as f64 / total,
                vnodes: is_ring.then(|| weighted_vnodes(vnodes, s.weight)),
                weighted,
                on_action: props.on_action.clone(),
            })}
        }
    });
    html! {
        <section class={classes!("card", "servers", props.focused.then_some("focus"))}>
            <table class="counts">
                <caption>{w.keys_per_server}</caption>
                <thead><tr>
                    <td></td><th scope="col">{w.col_server}</th>
                    if weighted { <th scope="col" class="num">{w.col_weight}</th> }
                    if is_ring { <th scope="col" class="num">{w.col_vnodes}</th> }
                    <th scope="col" class="num">{w.col_keys}</th><th scope="col" class="num share-col">{w.col_share}</th><td></td>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
        </section>
    }
}

/// The changes a visitor comes to make, beside the ring: add a server (named, or with the
/// suggested name) and remove the last one.
pub fn server_actions(w: &'static Words, state: &PageState, on_action: &Callback<Action>) -> Html {
    let add = {
        let on_action = on_action.clone();
        Callback::from(move |e: SubmitEvent| {
            e.prevent_default();
            let field = input_by_id("new-server");
            let name = field.as_ref().map(|f| f.value()).unwrap_or_default();
            on_action.emit(Action::AddServer(name));
            if let Some(f) = field {
                f.set_value("");
            }
        })
    };
    // Ceph over a hierarchy adds and removes a host of OSDs.
    let (word, hint) = match state.host_to_add("") {
        Some(_) => (w.add_host, w.add_host_hint),
        None => (w.add_server, w.add_server_hint),
    };
    let (remove, remove_hint) = match state.host_to_remove() {
        Some(_) => (w.remove_host, w.remove_host_hint),
        None => (w.remove_server, w.remove_server_hint),
    };
    html! {
        <form class="add actions" onsubmit={add}>
            <label for="new-server" class="visually-hidden">{w.new_server_name}</label>
            <input id="new-server" type="text" maxlength="64" placeholder={state.suggested_name()} autocomplete="off" />
            <button type="submit" class="primary" title={hint} aria-label={word}>
                <span class="word">{word}</span><span class="short">{w.add_short}</span></button>
            <button type="button" title={remove_hint} aria-label={remove} onclick={on_action.reform(|_| Action::RemoveLast)}>
                <span class="word">{remove}</span><span class="short">{w.remove_short}</span></button>
            {fail_pick(w, state, on_action)}
        </form>
    }
}

/// Fail (or recover) a server from the actions, beside Add and Remove: on a phone the
/// server table's buttons are a long scroll away. A menu of buttons (arrowing through it
/// fails nothing); it closes once one is pressed.
fn fail_pick(w: &'static Words, state: &PageState, on_action: &Callback<Action>) -> Html {
    let item = |s: &Server| {
        let (label, change) = if s.up {
            (
                fill(w.fail_server, &[&s.name]),
                Change::Fail(s.name.clone()),
            )
        } else {
            (
                fill(w.recover_server, &[&s.name]),
                Change::Recover(s.name.clone()),
            )
        };
        let on_action = on_action.clone();
        let onclick = Callback::from(move |e: MouseEvent| {
            if let Some(menu) = e
                .target_dyn_into::<web_sys::Element>()
                .and_then(|b| b.closest("details").ok().flatten())
            {
                let _ = menu.remove_attribute("open");
            }
            on_action.emit(Action::Apply(change.clone()));
        });
        html! { <li><button type="button" class="link" {onclick}>{label}</button></li> }
    };
    html! {
        <details class="fail-pick">
            <summary title={w.fail_hint}>{w.fail_pick}</summary>
            <ul>{ for state.sim.servers().iter().map(item) }</ul>
        </details>
    }
}

/// Props of [`ScenarioControls`].
#[derive(Properties, PartialEq)]
pub struct ScenarioProps {
    /// The page state and where actions go.
    pub state: PageState,
    /// Where actions go.
    pub on_action: Callback<Action>,
    /// Whether the key stream plays.
    pub playing: bool,
    /// Toggle play/pause.
    pub on_toggle_play: Callback<()>,
    /// Animation speed.
    pub speed: f64,
    /// New animation speed.
    pub on_speed: Callback<f64>,
}

/// Algorithm, hash, vnodes, keys, seed and animation settings.
#[allow(clippy::too_many_lines)] // One form: a callback per field, then the fields' markup.
pub fn scenario_controls(w: &'static Words, props: &ScenarioProps) -> Html {
    let sim = &props.state.sim;
    let on_algo = props
        .on_action
        .reform(|e: Event| match parse_algorithm(&select_value(&e)) {
            Ok(a) => Action::Apply(Change::SetAlgorithm(a)),
            Err(problem) => Action::Reject(problem),
        });
    let on_hash = props
        .on_action
        .reform(|e: Event| match parse_hash(&select_value(&e)) {
            Ok(h) => Action::Apply(Change::SetHash(h)),
            Err(problem) => Action::Reject(problem),
        });
    let on_vnodes = props
        .on_action
        .reform(|e: Event| match parse_vnodes(&input_value(&e)) {
            Ok(v) => Action::Apply(Change::SetVnodes(v)),
            Err(msg) => Action::Reject(msg),
        });
    let on_seed = props
        .on_action
        .reform(|e: Event| Action::SetSeed(input_value(&e)));
    // Probes, the table size and c rebuild the scenario with the new value — when it is
    // typed, not at every render (a scenario of a million listed keys is megabytes).
    fn reload<T: 'static>(
        on_action: &Callback<Action>,
        sim: &Rc<Simulation>,
        parse: fn(&str) -> Result<T, crate::problem::Problem>,
        set: fn(&mut Scenario, T),
    ) -> Callback<Event> {
        let sim = sim.clone();
        on_action.reform(move |e: Event| match parse(&input_value(&e)) {
            Ok(v) => {
                let mut next = sim.scenario();
                set(&mut next, v);
                Action::Load(next)
            }
            Err(msg) => Action::Reject(msg),
        })
    }
    let on_action = &props.on_action;
    let on_probes = reload(on_action, sim, parse_probes, |s, v| s.settings.probes = v);
    let on_table = reload(on_action, sim, parse_table, |s, v| s.settings.table = v);
    let on_balance = reload(on_action, sim, parse_balance, |s, v| s.settings.c = v);
    let on_speed = props
        .on_speed
        .reform(|e: Event| parse_decimal(&select_value(&e)).unwrap_or(1.0));
    let algo = sim.settings().algo;
    html! {
        <section class="card settings">
            <h2>{w.scenario}</h2>
            <div class="grid">
                <label for="algo">{w.algorithm}</label>
                <select id="algo" onchange={on_algo}>
                    { for Algorithm::ALL.iter().map(|a| html! {
                        <option value={a.name()} selected={*a == sim.settings().algo}>{crate::words::algorithm_title(w, *a)}</option>
                    }) }
                </select>
                if algo.uses_hash() {
                    <label for="hash">{w.hash}</label>
                    <select id="hash" onchange={on_hash}>
                        { for HashFn::ALL.iter().map(|h| html! {
                            <option value={h.name()} selected={*h == sim.settings().hash}>{h.name()}</option>
                        }) }
                    </select>
                }
                if algo.uses_vnodes() {
                    <label for="vnodes">{w.virtual_nodes}</label>
                    <div class="pair">
                        <input id="vnodes-range" type="range" min="1" max="1000" value={sim.settings().vnodes.to_string()}
                            aria-label={w.vnodes_slider} onchange={on_vnodes.clone()} />
                        <input id="vnodes" type="number" min="1" max="1000" value={sim.settings().vnodes.to_string()} onchange={on_vnodes} />
                    </div>
                }
                if algo.spec().knobs.probes {
                    <label for="probes">{w.probes}</label>
                    <input id="probes" type="number" min="1" max="256" value={sim.settings().probes.to_string()} onchange={on_probes} />
                }
                if algo.spec().knobs.table {
                    <label for="table">{w.table_size}</label>
                    <input id="table" type="number" min="2" value={sim.settings().table.to_string()} onchange={on_table} />
                }
                if algo.spec().knobs.balance {
                    <label for="c">{w.balance}</label>
                    <input id="c" type="number" min="1" max="10" step="0.05" value={Shortest(sim.settings().c).to_string()} onchange={on_balance} />
                }
                <label for="key-count">{w.keys}</label>
                {keys_form(w, &KeysFormProps { keys: sim.settings().keys.clone(), on_action: props.on_action.clone() })}
                <label for="seed">{w.seed}</label>
                <input id="seed" type="number" min="0" value={sim.settings().seed.to_string()} onchange={on_seed} />
                <label for="speed">{w.animation}</label>
                <div class="pair">
                    <button type="button" class="play" aria-pressed={props.playing.to_string()} title={w.play_hint}
                        onclick={props.on_toggle_play.reform(|_| ())}>{ if props.playing { w.pause } else { w.play } }</button>
                    <select id="speed" onchange={on_speed} aria-label={w.speed}>
                        { for [0.25, 0.5, 1.0, 2.0, 4.0].iter().map(|s| html! {
                            <option value={Shortest(*s).to_string()} selected={*s == props.speed}>{format!("{}×", Shortest(*s))}</option>
                        }) }
                    </select>
                </div>
            </div>
        </section>
    }
}

/// The text field with this id (the forms read their fields when submitted).
fn input_by_id(id: &str) -> Option<HtmlInputElement> {
    use wasm_bindgen::JsCast;
    web_sys::window()?
        .document()?
        .get_element_by_id(id)?
        .dyn_into::<HtmlInputElement>()
        .ok()
}

/// Props of [`keys_form`].
#[derive(Properties, PartialEq)]
pub struct KeysFormProps {
    /// The current keys.
    pub keys: KeySpec,
    /// Where actions go.
    pub on_action: Callback<Action>,
}

/// How many keys, and their name pattern; the reducer checks both.
pub fn keys_form(w: &'static Words, props: &KeysFormProps) -> Html {
    let on_keys = props.on_action.reform(move |e: SubmitEvent| {
        e.prevent_default();
        let value = |id| input_by_id(id).map(|i| i.value()).unwrap_or_default();
        Action::SetKeys {
            count: value("key-count"),
            pattern: value("key-pattern"),
        }
    });
    let pattern = match &props.keys {
        KeySpec::Range { pieces, .. } if pieces.iter().any(|p| !p.is_empty()) => pieces.join("{i}"),
        _ => String::new(),
    };
    html! {
        <form class="pair" onsubmit={on_keys}>
            <input id="key-count" type="text" inputmode="numeric" value={props.keys.len().to_string()} aria-label={fill(w.key_count_label, &[&group_thousands(crate::state::PAGE_MAX_KEYS as u64)])} />
            <input id="key-pattern" type="text" value={pattern} placeholder="key-{i}" aria-label={w.key_pattern_label} />
            <button type="submit">{w.set}</button>
        </form>
    }
}

/// A pinned key's owners, change by change (newest last), the moves marked.
fn history(w: &'static Words, l: &Lookup) -> Html {
    let owner = |o: &Option<String>| o.clone().unwrap_or_else(|| w.nobody.to_owned());
    let mut before: Option<&Option<String>> = None;
    let items: Html = l
        .history
        .iter()
        .map(|v| {
            let now = owner(&v.owner);
            let moved = before.is_some_and(|b| *b != v.owner);
            before = Some(&v.owner);
            let text = match &v.change {
                None => fill(w.history_pinned, &[&now]),
                Some(c) if moved => fill(w.history_moved, &[&change_title(w, c), &now]),
                Some(c) => fill(w.history_stayed, &[&change_title(w, c), &now]),
            };
            html! { <li class={classes!(moved.then_some("moved"))}>{text}</li> }
        })
        .collect();
    html! {
        <div class="history">
            <p class="history-heading">{w.history_heading}{" — "}<code>{l.key.clone()}</code></p>
            <ol>{items}</ol>
        </div>
    }
}

/// Type a key (or click its dot on the ring); see where it hashes and which server owns
/// it, and why — and, once pinned, where each change sends it.
pub fn lookup_box(w: &'static Words, props: &ControlProps) -> Html {
    let on_submit = props.on_action.reform(move |e: SubmitEvent| {
        e.prevent_default();
        Action::Lookup(
            input_by_id("lookup-key")
                .map(|i| i.value())
                .unwrap_or_default(),
        )
    });
    let state = &props.state;
    // Before a key is followed: how the picture will draw its walk (any key's lookup goes
    // the same kind of way).
    let hint = match (&state.lookup, state.sim.explain("")) {
        (None, Ok(e)) => crate::words::picture_hint(w, &e.how),
        _ => "",
    };
    html! {
        <section class={classes!("card", "lookup", props.focused.then_some("focus"))}>
            <form class="add" onsubmit={on_submit}>
                <label for="lookup-key" class="visually-hidden">{w.lookup_label}</label>
                <input id="lookup-key" type="text" maxlength="200" placeholder={w.lookup_placeholder} autocomplete="off" />
                <button type="submit">{w.look_up}</button>
            </form>
            if !hint.is_empty() {
                <p class="hint">{hint}</p>
            }
            {lookup_explained(w, state)}
        </section>
    }
}

/// The followed key explained: the sentence, its owners change by change, and — for the
/// score-based algorithms — every server's score, the winner marked. Shown under the
/// lookup box and printed on the handout's pages.
pub fn lookup_explained(w: &'static Words, state: &PageState) -> Html {
    let Some(l) = state.lookup.as_ref() else {
        return html! {};
    };
    let words = crate::words::explain(w, &state.sim, &l.key, &l.explanation);
    html! {
        <>
            <p class="explain" aria-live="polite">{words.sentence.clone()}</p>
            if l.history.len() > 1 { {history(w, l)} }
            if !words.scores.is_empty() {
                <table class="scores">
                    <caption>{w.scores_caption}</caption>
                    <tbody>
                        { for words.scores.iter().map(|(name, score, won)| html! {
                            <tr class={classes!(won.then_some("winner"))}>
                                <th scope="row">{name.clone()}</th><td><code>{score.clone()}</code></td>
                                <td>{ if *won { w.wins } else { "" } }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            }
        </>
    }
}
