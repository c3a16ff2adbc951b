//! Python values to the page's parameters (`nodes` as a list or a dict of weights, numbers
//! as text), the scenario they make (the command line's `assemble`), and a cluster's link.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use hashring_lab::engine::scenario::Scenario;

use crate::{Failure, ScenarioError};

/// Python text as Rust text, or a `ScenarioError` naming `what` (a `str` holding a lone
/// surrogate is not Unicode text, and is refused rather than raising `UnicodeEncodeError`).
pub(crate) fn str_of(value: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    let Ok(s) = value.cast::<PyString>() else {
        return Err(ScenarioError::new_err(format!(
            "{what} must be text (str), not {}",
            type_name(value)
        )));
    };
    s.extract::<String>().map_err(|_| {
        ScenarioError::new_err(format!(
            "{what} is not valid Unicode text (it holds a lone surrogate)"
        ))
    })
}

/// A value's Python type name, for messages.
pub(crate) fn type_name(value: &Bound<'_, PyAny>) -> String {
    value
        .get_type()
        .name()
        .map_or_else(|_| "?".to_owned(), |n| n.to_string())
}

/// A parameter's value as the page's text: `str` as it is, numbers (int, float) as Python
/// prints them; anything else is refused, naming the parameter.
pub(crate) fn text_of(value: &Bound<'_, PyAny>, what: &str) -> PyResult<String> {
    if value.is_instance_of::<PyString>() {
        return str_of(value, what);
    }
    if value.is_instance_of::<pyo3::types::PyBool>() {
        return Err(ScenarioError::new_err(format!(
            "{what} is True or False; give a number or text"
        )));
    }
    if value.is_instance_of::<pyo3::types::PyInt>()
        || value.is_instance_of::<pyo3::types::PyFloat>()
    {
        return value.str()?.extract::<String>();
    }
    Err(ScenarioError::new_err(format!(
        "{what} must be a number or text, not {}",
        type_name(value)
    )))
}

/// One server from a list (a name, `*W` after it for a weight) or a dict's name: text
/// without the page's separator `,` (it would make two servers) — nor `*` in a dict's name,
/// whose weight is the dict's value.
fn name_of(value: &Bound<'_, PyAny>, what: &str, weight_allowed: bool) -> PyResult<String> {
    let name = str_of(value, what)?;
    let refused = |c: &char| *c == ',' || (*c == '*' && !weight_allowed);
    if let Some(c) = name.chars().find(refused) {
        return Err(ScenarioError::new_err(format!(
            "{what} {} contains '{c}', which cannot be in one server's name (',' separates servers, '*' gives a weight)",
            hashring_lab::text::quote(&name)
        )));
    }
    Ok(name)
}

/// `nodes` (or `down`, named by `param`) as the page's text: `"A,B*2"`, a list or tuple of
/// names (`["A", "B"]`) or a dict of name → weight. Each listed name is one server: text,
/// with no `,` or `*` in it.
pub(crate) fn nodes_text(nodes: &Bound<'_, PyAny>, param: &str) -> PyResult<String> {
    if nodes.is_instance_of::<PyString>() {
        return str_of(nodes, param);
    }
    if let Ok(d) = nodes.cast::<PyDict>() {
        let mut parts = Vec::with_capacity(d.len());
        for (name, weight) in d.iter() {
            let name = name_of(&name, &format!("{param}: a server's name"), false)?;
            if !(weight.is_instance_of::<pyo3::types::PyInt>()
                || weight.is_instance_of::<pyo3::types::PyFloat>())
                || weight.is_instance_of::<pyo3::types::PyBool>()
            {
                return Err(ScenarioError::new_err(format!(
                    "{param}: the weight of {} must be a number, not {}",
                    hashring_lab::text::quote(&name),
                    type_name(&weight)
                )));
            }
            parts.push(format!("{name}*{}", weight.str()?.extract::<String>()?));
        }
        return Ok(parts.join(","));
    }
    if !(nodes.is_instance_of::<pyo3::types::PyList>()
        || nodes.is_instance_of::<pyo3::types::PyTuple>())
    {
        return Err(ScenarioError::new_err(format!(
            "{param}: give a list of names, a dict of name → weight, or \"A,B*2\"; not {}",
            type_name(nodes)
        )));
    }
    let mut parts = Vec::new();
    for (at, item) in nodes.try_iter()?.enumerate() {
        parts.push(name_of(&item?, &format!("{param}[{at}]"), true)?);
    }
    Ok(parts.join(","))
}

/// The parameters both constructors take by name.
pub(crate) const OPTIONS: [&str; 8] = [
    "hash", "vnodes", "label", "probes", "table", "pg_num", "c", "seed",
];
/// The parameters `Cluster.from_config` takes: the config's others, and `down` (applied
/// after the config).
pub(crate) const CONFIG_OPTIONS: [&str; 10] = [
    "hash", "vnodes", "label", "probes", "table", "pg_num", "c", "seed", "down", "rule",
];
/// The parameters only `Cluster(…)` takes: a config sets them itself.
pub(crate) const CLUSTER_OPTIONS: [&str; 3] = ["down", "slotmap", "tokens"];

/// Named parameters as (parameter, text) pairs, each one of `allowed` (None: not given).
pub(crate) fn option_pairs(
    options: Option<&Bound<'_, PyDict>>,
    allowed: &[&'static str],
) -> PyResult<Vec<(&'static str, String)>> {
    let mut pairs = Vec::new();
    for (name, value) in options.into_iter().flat_map(|d| d.iter()) {
        let name = str_of(&name, "a parameter's name")?;
        let Some(&known) = allowed.iter().find(|a| **a == name) else {
            return Err(ScenarioError::new_err(format!(
                "unknown parameter {}; the parameters are {}",
                hashring_lab::text::quote(&name),
                allowed.join(", ")
            )));
        };
        if value.is_none() {
            continue;
        }
        let text = if known == "down" {
            nodes_text(&value, "down")?
        } else {
            text_of(&value, known)?
        };
        pairs.push((known, text));
    }
    Ok(pairs)
}

/// The scenario of `given` pairs (and a config read), as
/// [`hashring_lab::configs::assemble_cluster`] builds a cluster's, as the page's parameters.
pub(crate) fn assemble(
    given: Vec<(&'static str, String)>,
    imported: Option<hashring_lab::engine::import::Imported>,
) -> Result<Vec<(String, String)>, Failure> {
    let scenario = hashring_lab::configs::assemble_cluster(&given, imported)?;
    Ok(pairs_of(&scenario))
}

/// A scenario's parameters, every one.
fn pairs_of(scenario: &Scenario) -> Vec<(String, String)> {
    scenario
        .to_pairs()
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect()
}

/// [`assemble`], then `down` (comma-separated or a list's text) marked down among the
/// config's servers.
pub(crate) fn assemble_marking_down(
    given: Vec<(&'static str, String)>,
    imported: hashring_lab::engine::import::Imported,
    down: &str,
) -> Result<Vec<(String, String)>, Failure> {
    let mut scenario = hashring_lab::configs::assemble_cluster(&given, Some(imported))?;
    scenario
        .mark_down(down)
        .map_err(|e| Failure::Scenario(format!("down (after the config): {e}")))?;
    Ok(pairs_of(&scenario))
}

/// The page's link parameters of a cluster: the keys are the caller's, so the page's own; a
/// table size or pg_num only where the algorithm has one.
pub(crate) fn link_of(mut scenario: Scenario) -> String {
    let page = Scenario::default().settings;
    scenario.settings.keys = page.keys;
    let knobs = scenario.settings.algo.spec().knobs;
    if !knobs.table {
        scenario.settings.table = page.table;
    }
    if !knobs.pg_num {
        scenario.settings.pg_num = page.pg_num;
    }
    format!("?{}", scenario.to_query())
}
