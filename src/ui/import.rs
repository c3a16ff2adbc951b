//! Bringing a scenario in: open a scenario file, paste a system's config (nginx, HAProxy,
//! twemproxy, `CLUSTER NODES`, `nodetool ring`) or a list of keys. Each is read in steps
//! (a 15 MB paste never blocks the page), its progress shown meanwhile, and handed to the
//! state as one action — a loaded scenario, a pasted config ([`Action::PasteConfig`]), new
//! keys — or a notice saying what is wrong.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::look::use_lang;
use super::stepped::{busy_line, Busy, Stepped};
use crate::engine::change::Change;
use crate::engine::import::Imported;
use crate::engine::keys::list_from_lines_paced;
use crate::engine::pace::{Pace, Paused};
use crate::engine::scenario::{repeated_names, Scenario};
use crate::file::{
    check_file_size, field_name_problems, read_scenario_paced, top_level_fields, FieldValue,
    MAX_FIELDS,
};
use crate::problem::{JsonKind, Problem};
use crate::state::{Action, Notice};
use crate::text::fill;
use crate::words::group_thousands;

/// Props of [`ImportForms`].
#[derive(Properties, PartialEq)]
pub struct ImportProps {
    /// Where what was read goes.
    pub on_action: Callback<Action>,
}

/// The scenario file picker and the config and key paste boxes, with the progress of the
/// reading under way (one at a time).
#[component]
pub fn ImportForms(props: &ImportProps) -> Html {
    let w = use_lang().words();
    let progress = use_state(|| None::<Busy>);
    let job = use_mut_ref(Stepped::default);
    let (held_config, held_keys) = (use_state(|| None::<Held>), use_state(|| None::<Held>));
    let open = {
        let (on_action, job, progress) = (props.on_action.clone(), job.clone(), progress.clone());
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let Some(file) = input.files().and_then(|f| f.get(0)) else {
                return;
            };
            input.set_value("");
            if let Err(too_large) = check_file_size(file.size()) {
                on_action.emit(Action::Notify(Notice::BadFile(Rc::from([too_large]))));
                return;
            }
            let Ok(reader) = web_sys::FileReader::new() else {
                return;
            };
            let (on_action, job, progress) = (on_action.clone(), job.clone(), progress.clone());
            let reader_in = reader.clone();
            let onload = Closure::once_into_js(move || {
                let Some(text) = reader_in
                    .result()
                    .ok()
                    .and_then(|r| r.dyn_into::<js_sys::JsString>().ok())
                else {
                    on_action.emit(Action::Notify(Notice::BadFile(Rc::from([
                        Problem::Unreadable,
                    ]))));
                    return;
                };
                read_in_steps(
                    &job,
                    &progress,
                    |pace| Paused::new(scenario_from_text(text, pace)),
                    move |read| {
                        on_action.emit(match read {
                            Ok(scenario) => Action::Load(scenario),
                            Err(reason) => Action::Notify(Notice::BadFile(reason.into())),
                        })
                    },
                );
            });
            reader.set_onload(Some(onload.unchecked_ref()));
            let _ = reader.read_as_text(&file);
        })
    };
    // A pasted nginx upstream or HAProxy backend: its system, servers, weights and down
    // ones over the current scenario's other settings.
    let use_config = {
        let on_action = props.on_action.clone();
        let (job, progress) = (job.clone(), progress.clone());
        Callback::from(move |text: js_sys::JsString| {
            let on_action = on_action.clone();
            read_in_steps(
                &job,
                &progress,
                |pace| Paused::new(read_config(text, pace)),
                move |read| {
                    on_action.emit(match read {
                        Ok(imported) => Action::PasteConfig(Rc::new(imported)),
                        Err(problem) => Action::Reject(problem),
                    })
                },
            );
        })
    };
    // The user's own keys, one per line: they replace the key set (and go into the link).
    let use_keys = {
        let on_action = props.on_action.clone();
        let (job, progress) = (job.clone(), progress.clone());
        Callback::from(move |text: js_sys::JsString| {
            let on_action = on_action.clone();
            read_in_steps(
                &job,
                &progress,
                |mut pace| {
                    Paused::new(async move {
                        let text = text_in_steps(text, &mut pace).await;
                        list_from_lines_paced(&text, &mut pace).await
                    })
                },
                move |read| {
                    on_action.emit(match read {
                        Ok(keys) => Action::Apply(Change::SetKeys(keys)),
                        Err(problem) => Action::Reject(problem),
                    })
                },
            );
        })
    };
    html! {
        <>
            <div class="buttons">
                <label class="file-button">
                    {w.open_scenario}
                    <input type="file" id="open-scenario" accept=".json,application/json" onchange={open} />
                </label>
            </div>
            {paste_box(w, &PasteBox { id: "config-text", label: w.paste_config, placeholder: "",
                button: w.use_config, button_class: "use-config", busy: progress.is_some(),
                on_use: use_config, held: &held_config })}
            {paste_box(w, &PasteBox { id: "keys-text", label: w.paste_keys, placeholder: "user:42",
                button: w.use_keys, button_class: "use-keys", busy: progress.is_some(),
                on_use: use_keys, held: &held_keys })}
            if let Some(busy) = *progress {
                <p class="export-progress" role="status">
                    {busy_line(w, busy)}
                    <progress max={busy.total().max(1).to_string()} value={busy.done().to_string()}></progress>
                </p>
            }
        </>
    }
}

/// A reading step's budget in [`Pace`] units (about a byte each: ~40 ms of the page).
const READ_STEP: usize = 1_000_000;

/// Runs the reading `read` makes of a pace, a step per browser task with its progress in
/// `busy` meanwhile, and hands its answer to `done`. A reading already under way is not
/// started twice.
fn read_in_steps<T: 'static>(
    job: &Rc<RefCell<Stepped>>,
    busy: &UseStateHandle<Option<Busy>>,
    read: impl FnOnce(Pace) -> Paused<T>,
    done: impl FnOnce(T) + 'static,
) {
    if job.borrow().is_running() {
        return;
    }
    let pace = Pace::per_step(READ_STEP);
    let progress = pace.progress();
    let mut reading = read(pace);
    let (mut done, mut answer) = (Some(done), None);
    let busy = busy.clone();
    busy.set(Some(Busy::Reading(progress.get())));
    // The answer is handed over in a task of its own (loading what was read is work too).
    *job.borrow_mut() = Stepped::start(move || {
        if let Some(answer) = answer.take() {
            if let Some(done) = done.take() {
                done(answer);
            }
            return false;
        }
        answer = reading.step();
        busy.set(match answer {
            Some(_) => None,
            None => Some(Busy::Reading(progress.get())),
        });
        true
    });
}

/// Reads a scenario file's text: the browser parses the JSON, [`read_scenario_paced`]
/// checks it. The field names are scanned, the JSON parsed and its values copied each in a
/// step of its own; a million tokens or keys are then read a step at a time.
async fn scenario_from_text(
    text: js_sys::JsString,
    mut pace: Pace,
) -> Result<Scenario, Vec<Problem>> {
    let text = text_in_steps(text, &mut pace).await;
    // A file with more fields than a scenario has is judged by their names alone, before
    // the browser parses it into 100,000 values.
    let found = top_level_fields(&text);
    if found.count > MAX_FIELDS {
        return Err(field_name_problems(&found));
    }
    pace.pause().await;
    let value = js_sys::JSON::parse(&text).map_err(|_| vec![Problem::NotJson])?;
    drop(text);
    if !value.is_object() || js_sys::Array::is_array(&value) {
        return Err(vec![Problem::NotObject]);
    }
    // JSON.parse keeps the last of a repeated field: refuse the file instead (the URL
    // refuses repeats too).
    let repeated = repeated_names(found.names.iter().map(String::as_str));
    if !repeated.is_empty() {
        return Err(crate::problem::capped(repeated));
    }
    pace.pause().await;
    let object: js_sys::Object = value.unchecked_into();
    let fields: Vec<(String, FieldValue)> = js_sys::Object::entries(&object)
        .iter()
        .filter_map(|entry| {
            let pair: js_sys::Array = entry.unchecked_into();
            let key = pair.get(0).as_string()?;
            let v = pair.get(1);
            let value = if let Some(s) = v.as_string() {
                FieldValue::Text(s)
            } else if let Some(n) = v.as_f64() {
                FieldValue::Number(n)
            } else if v.is_null() {
                FieldValue::Other(JsonKind::Null)
            } else if js_sys::Array::is_array(&v) {
                FieldValue::Other(JsonKind::List)
            } else if v.is_object() {
                FieldValue::Other(JsonKind::Object)
            } else {
                FieldValue::Other(JsonKind::Boolean)
            };
            Some((key, value))
        })
        .collect();
    pace.pause().await;
    read_scenario_paced(&fields, &mut pace).await
}

/// What a pasted config describes, read at `pace` (the state applies it).
async fn read_config(text: js_sys::JsString, mut pace: Pace) -> Result<Imported, Problem> {
    let text = text_in_steps(text, &mut pace).await;
    crate::engine::import::read_config_paced(&text, &mut pace).await
}

/// A paste longer than this is held by the page instead of shown in the box: a browser
/// lays out every character a text box holds, again whenever the page around it changes
/// (a 15 MB paste took seconds per layout).
const HELD_PASTE_BYTES: usize = 64 * 1024;

/// One paste box: its words, its state and where its text goes ([`paste_box`]).
struct PasteBox<'a> {
    /// The text box's id (its label points at it).
    id: &'static str,
    /// What to paste.
    label: &'static str,
    /// An example, shown while the box is empty.
    placeholder: &'static str,
    /// The button's words and class.
    button: &'static str,
    button_class: &'static str,
    /// True while a reading is under way (the button waits).
    busy: bool,
    /// Takes the text when the button is pressed.
    on_use: Callback<js_sys::JsString>,
    /// The long paste it holds out of the box, if any (the form's state).
    held: &'a UseStateHandle<Option<Held>>,
}

/// A text box for a pasted config or key list, and its button. A long paste is kept out
/// of the box — held here and said in a line with its size — so that no layout of the
/// page has to shape megabytes of text; typing in the box lets it go.
fn paste_box(w: &'static crate::i18n::Words, props: &PasteBox<'_>) -> Html {
    let held = props.held;
    let onpaste = {
        let held = held.clone();
        Callback::from(move |e: Event| {
            let Some(data) = e
                .dyn_ref::<web_sys::ClipboardEvent>()
                .and_then(web_sys::ClipboardEvent::clipboard_data)
            else {
                return;
            };
            // The text stays a JavaScript string until it is read, in steps.
            let text = clipboard_text(&data);
            if text.length() as usize > HELD_PASTE_BYTES {
                e.prevent_default();
                let box_: HtmlTextAreaElement = e.target_unchecked_into();
                box_.set_value("");
                // Lines as a reader counts them (a last line break ends a line, starts none).
                let breaks = text.split("\n").length() as u64;
                let lines = breaks - u64::from(text.ends_with("\n", text.length() as i32));
                held.set(Some(Held { text, lines }));
            } else {
                held.set(None);
            }
        })
    };
    let oninput = {
        let held = held.clone();
        Callback::from(move |_: InputEvent| held.set(None))
    };
    let onclick = {
        let (id, held, on_use) = (props.id, held.clone(), props.on_use.clone());
        Callback::from(move |_: MouseEvent| match &*held {
            Some(held) => on_use.emit(held.text.clone()),
            None => {
                let area = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.get_element_by_id(id))
                    .and_then(|e| e.dyn_into::<HtmlTextAreaElement>().ok());
                if let Some(area) = area {
                    on_use.emit(js_sys::JsString::from(area.value()));
                }
            }
        })
    };
    let forget = {
        let held = held.clone();
        Callback::from(move |_: MouseEvent| held.set(None))
    };
    html! {
        <>
            <label for={props.id}>{props.label}</label>
            <textarea id={props.id} rows="4" spellcheck="false" placeholder={props.placeholder}
                onpaste={onpaste} oninput={oninput} />
            if let Some(held) = &**held {
                <p class="held-paste" aria-live="polite">
                    {fill(w.held_paste, &[&size_text(held.text.length() as usize), &group_thousands(held.lines)])}
                    {" "}
                    <button type="button" class="forget-paste" onclick={forget}>{w.forget_paste}</button>
                </p>
            }
            <button type="button" class={props.button_class} onclick={onclick} disabled={props.busy}>{props.button}</button>
        </>
    }
}

/// A long paste held out of its box: the text, and its line count.
#[derive(Clone, PartialEq)]
struct Held {
    text: js_sys::JsString,
    lines: u64,
}

/// `DataTransfer.getData('text/plain')` as a JavaScript string (web-sys's `get_data` copies
/// it into the module at once: megabytes in the paste's own task).
fn clipboard_text(data: &web_sys::DataTransfer) -> js_sys::JsString {
    js_sys::Reflect::get(data, &JsValue::from_str("getData"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .and_then(|f| f.call1(data, &JsValue::from_str("text/plain")).ok())
        .and_then(|t| t.dyn_into::<js_sys::JsString>().ok())
        .unwrap_or_default()
}

/// Copies a JavaScript string into the module a slice per step (a 15 MB text took ~130 ms
/// in one piece).
async fn text_in_steps(text: js_sys::JsString, pace: &mut Pace) -> String {
    const SLICE: u32 = 1 << 20;
    let len = text.length();
    let mut out = String::with_capacity(len as usize);
    pace.begin(len as usize);
    let mut at = 0;
    while at < len {
        let mut end = at.saturating_add(SLICE).min(len);
        // Not between the two halves of a surrogate pair.
        if end < len && (0xD800..0xDC00).contains(&(text.char_code_at(end - 1) as u32)) {
            end -= 1;
        }
        out.push_str(&String::from(text.slice(at, end)));
        pace.tick((end - at) as usize).await;
        at = end;
    }
    out
}

/// A size in bytes as people say it: `820 KB`, `14.6 MB`.
fn size_text(bytes: usize) -> String {
    if bytes >= 1024 * 1024 {
        format!(
            "{} MB",
            crate::text::Fixed(bytes as f64 / (1024.0 * 1024.0), 1)
        )
    } else {
        format!("{} KB", bytes.div_ceil(1024))
    }
}
