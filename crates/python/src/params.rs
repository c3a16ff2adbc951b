//! Python values to the page's parameters (`nodes` as a list or a dict of weights, numbers
//! as text), the scenario they make (the command line's `assemble`), and a cluster's link.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use hashring_lab::engine::scenario::Scenario;

use crate::{Failure, ScenarioError};

/// A parameter's value as the page's text: `str` as it is, numbers as Python prints them.
pub(crate) fn text_of(value: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = value.cast::<PyString>() {
        return s.extract::<String>();
    }
    if value.is_instance_of::<pyo3::types::PyBool>() {
        return Err(ScenarioError::new_err(
            "a parameter is True or False; give a number or text",
        ));
    }
    value.str()?.extract::<String>()
}

/// `nodes` as the page's text: `"A,B*2"`, a list of names (`["A", "B*2"]`) or a dict of
/// name → weight.
pub(crate) fn nodes_text(nodes: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(s) = nodes.cast::<PyString>() {
        return s.extract::<String>();
    }
    if let Ok(d) = nodes.cast::<PyDict>() {
        let mut parts = Vec::with_capacity(d.len());
        for (name, weight) in d.iter() {
            parts.push(format!("{}*{}", text_of(&name)?, text_of(&weight)?));
        }
        return Ok(parts.join(","));
    }
    let mut parts = Vec::new();
    for item in nodes.try_iter().map_err(|_| {
        ScenarioError::new_err("nodes: give a list of names, a dict of name → weight, or \"A,B*2\"")
    })? {
        parts.push(text_of(&item?)?);
    }
    Ok(parts.join(","))
}

/// The parameters both constructors take by name.
pub(crate) const OPTIONS: [&str; 8] = [
    "hash", "vnodes", "label", "probes", "table", "pg_num", "c", "seed",
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
        let name: String = name.extract()?;
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
            nodes_text(&value)?
        } else {
            text_of(&value)?
        };
        pairs.push((known, text));
    }
    Ok(pairs)
}

/// The scenario of `given` pairs (and a config read), with `vnodes` and the table size
/// apart as [`hashring_lab::cli::assemble`] takes them; keys are the caller's, so the
/// scenario holds one.
pub(crate) fn assemble(
    given: Vec<(&'static str, String)>,
    imported: Option<hashring_lab::engine::import::Imported>,
) -> Result<Vec<(String, String)>, Failure> {
    let find = |name: &str| given.iter().find(|p| p.0 == name).map(|p| p.1.as_str());
    let table = find("table");
    let mut pairs: Vec<(&str, &str)> = given
        .iter()
        .filter(|p| !matches!(p.0, "table" | "vnodes"))
        .map(|(k, v)| (*k, v.as_str()))
        .collect();
    pairs.push(("keys", "0..1"));
    let scenario = hashring_lab::cli::assemble(&pairs, find("vnodes"), table, imported).map_err(
        |m| match m.strip_prefix("--config: ") {
            Some(config) => Failure::Config(config.to_owned()),
            None => Failure::Scenario(m),
        },
    )?;
    Ok(scenario
        .to_pairs()
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v))
        .collect())
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
