//! `hashring_lab._native`: the engine of the page and the command line as a Python module.
//!
//! A [`Cluster`] is a scenario as the page's parameters hold it (`algo`, `nodes`, `down`,
//! `slotmap`, `tokens`, …) plus the steps applied since (`add:E`, `fail:B`), built by the
//! same code as `hashring-lab simulate` ([`hashring_lab::cli::assemble`], a system's config
//! read by [`hashring_lab::cli::read_config_text`]). Placement is per key and stateless once
//! the cluster is built, so batches are placed with the interpreter's lock released, and a
//! cluster travels to another process (a Spark executor) as its parameters and steps.
//!
//! Columns come in and go out through the Arrow C data interface (PyCapsules, via
//! pyo3-arrow): a pyarrow, Polars or DuckDB column is read where it lies, and the owners are
//! written to Arrow buffers — no Python object per key.
//!
//! The engine's simulation is not `Send` (its placements are shared by `Rc`), so each thread
//! builds a cluster's simulation once and keeps the last few it used ([`built`]).

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::cast::AsArray;
use arrow_array::types::{
    Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};
use pyo3_arrow::input::AnyArray;
use pyo3_arrow::{PyArray, PyChunkedArray, PyTable};

use hashring_lab::engine::change::Change;
use hashring_lab::engine::ring::{ServerId, NO_OWNER};
use hashring_lab::engine::scenario::{Scenario, PARAMS};
use hashring_lab::engine::sim::Simulation;

create_exception!(
    hashring_lab,
    Error,
    PyValueError,
    "Something given to hashring_lab is wrong; the message says what, and what is allowed."
);
create_exception!(
    hashring_lab,
    ScenarioError,
    Error,
    "A cluster's parameters are wrong (the command line's flags and the page's link say the same)."
);
create_exception!(
    hashring_lab,
    ConfigError,
    Error,
    "A system's config (nginx, HAProxy, twemproxy, Envoy, Redis Cluster, Cassandra, Ceph) could not be read."
);
create_exception!(
    hashring_lab,
    StepError,
    Error,
    "A change (add, remove, fail, recover, weight, …) cannot be applied to the cluster."
);
create_exception!(
    hashring_lab,
    KeyColumnError,
    Error,
    "The keys are of a type that is not placed (keys are text, UTF-8 binary or integers), or a key cannot be hashed."
);

/// Each cluster's number, the key of the per-thread simulations.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Simulations a thread keeps, most recent last: a migration list needs two clusters, a
/// sweep over changes a few more.
const KEPT_PER_THREAD: usize = 8;

thread_local! {
    static BUILT: RefCell<Vec<(u64, Rc<Simulation>)>> = const { RefCell::new(Vec::new()) };
}

/// What went wrong, before it becomes a Python exception (built without the interpreter's
/// lock, raised with it).
#[derive(Debug)]
enum Failure {
    Config(String),
    Scenario(String),
    Step(String),
    Keys(String),
}

impl From<Failure> for PyErr {
    fn from(f: Failure) -> PyErr {
        match f {
            Failure::Config(m) => ConfigError::new_err(m),
            Failure::Scenario(m) => ScenarioError::new_err(m),
            Failure::Step(m) => StepError::new_err(m),
            Failure::Keys(m) => KeyColumnError::new_err(m),
        }
    }
}

/// A cluster: an algorithm over servers, as `hashring-lab` builds it from its flags or a
/// system's config, and the changes applied since. Immutable: a change makes a new cluster.
#[pyclass(frozen, module = "hashring_lab")]
struct Cluster {
    id: u64,
    /// The scenario, as the page's parameters (every one, defaults included).
    pairs: Vec<(String, String)>,
    /// Changes applied since, in the command line's `--step` syntax.
    steps: Vec<String>,
    /// What the config said that the cluster leaves out (backups, replicas, …).
    notes: Vec<String>,
}

impl Cluster {
    fn new_checked(
        pairs: Vec<(String, String)>,
        steps: Vec<String>,
        notes: Vec<String>,
    ) -> Result<Cluster, Failure> {
        let cluster = Cluster {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            pairs,
            steps,
            notes,
        };
        cluster.simulation()?;
        Ok(cluster)
    }

    /// This thread's simulation of the cluster, built on first use.
    fn simulation(&self) -> Result<Rc<Simulation>, Failure> {
        if let Some(sim) = built(self.id) {
            return Ok(sim);
        }
        let sim = Rc::new(self.build()?);
        BUILT.with_borrow_mut(|kept| {
            if kept.len() == KEPT_PER_THREAD {
                kept.remove(0);
            }
            kept.push((self.id, Rc::clone(&sim)));
        });
        Ok(sim)
    }

    fn build(&self) -> Result<Simulation, Failure> {
        let scenario =
            Scenario::from_pairs(self.pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
                .map_err(|e| Failure::Scenario(e.to_string()))?;
        let mut sim = Simulation::new(&scenario).map_err(|e| Failure::Scenario(e.to_string()))?;
        for step in &self.steps {
            let change = Change::parse(step).map_err(|e| Failure::Step(e.to_string()))?;
            sim.apply(&change)
                .map_err(|e| Failure::Step(format!("step {step}: {e}")))?;
        }
        Ok(sim)
    }

    fn with_step(&self, step: String) -> Result<Cluster, Failure> {
        let mut steps = self.steps.clone();
        steps.push(step);
        Cluster::new_checked(self.pairs.clone(), steps, self.notes.clone())
    }

    fn scenario(&self) -> Result<Scenario, Failure> {
        Ok(self.simulation()?.scenario())
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Only this thread's copy can be let go; other threads' age out.
        let id = self.id;
        let _ = BUILT.try_with(|b| {
            if let Ok(mut kept) = b.try_borrow_mut() {
                kept.retain(|(k, _)| *k != id);
            }
        });
    }
}

/// The simulation this thread built for cluster `id`, if it still keeps it.
fn built(id: u64) -> Option<Rc<Simulation>> {
    BUILT.with_borrow(|kept| {
        kept.iter()
            .find(|(k, _)| *k == id)
            .map(|(_, sim)| Rc::clone(sim))
    })
}

/// A parameter's value as the page's text: `str` as it is, numbers as Python prints them.
fn text_of(value: &Bound<'_, PyAny>) -> PyResult<String> {
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
fn nodes_text(nodes: &Bound<'_, PyAny>) -> PyResult<String> {
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
const OPTIONS: [&str; 8] = [
    "hash", "vnodes", "label", "probes", "table", "pg_num", "c", "seed",
];
/// The parameters only `Cluster(…)` takes: a config sets them itself.
const CLUSTER_OPTIONS: [&str; 3] = ["down", "slotmap", "tokens"];

/// Named parameters as (parameter, text) pairs, each one of `allowed` (None: not given).
fn option_pairs(
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
fn assemble(
    given: Vec<(&'static str, String)>,
    imported: Option<hashring_lab::engine::import::Imported>,
) -> Result<Vec<(String, String)>, Failure> {
    let find = |name: &str| given.iter().find(|p| p.0 == name).map(|p| p.1.as_str());
    let table = match (find("table"), find("pg_num")) {
        (Some(_), Some(_)) => {
            return Err(Failure::Scenario(
                "table and pg_num both set the table's size; give one".to_owned(),
            ))
        }
        (table, pg_num) => table.or(pg_num),
    };
    let mut pairs: Vec<(&str, &str)> = given
        .iter()
        .filter(|p| !matches!(p.0, "table" | "pg_num" | "vnodes"))
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

/// One key column's keys, each as text (or None for a null), to `each`; integers are
/// placed as their decimal text, binary keys must be UTF-8.
fn for_each_key(
    array: &dyn Array,
    each: &mut dyn FnMut(Option<&str>) -> Result<(), Failure>,
) -> Result<(), Failure> {
    macro_rules! integers {
        ($t:ty) => {{
            let mut buffer = itoa::Buffer::new();
            for v in array.as_primitive::<$t>().iter() {
                each(v.map(|v| buffer.format(v)))?;
            }
            Ok(())
        }};
    }
    let bytes = |key: Option<&[u8]>, each: &mut dyn FnMut(Option<&str>) -> Result<(), Failure>| {
        let text = key
            .map(|b| {
                std::str::from_utf8(b).map_err(|_| {
                    Failure::Keys(
                        "a binary key is not UTF-8 text; keys are placed as text".to_owned(),
                    )
                })
            })
            .transpose()?;
        each(text)
    };
    match array.data_type() {
        DataType::Utf8 => array.as_string::<i32>().iter().try_for_each(each),
        DataType::LargeUtf8 => array.as_string::<i64>().iter().try_for_each(each),
        DataType::Utf8View => array.as_string_view().iter().try_for_each(each),
        DataType::Binary => array.as_binary::<i32>().iter().try_for_each(|k| bytes(k, each)),
        DataType::LargeBinary => array.as_binary::<i64>().iter().try_for_each(|k| bytes(k, each)),
        DataType::BinaryView => array.as_binary_view().iter().try_for_each(|k| bytes(k, each)),
        DataType::Int8 => integers!(Int8Type),
        DataType::Int16 => integers!(Int16Type),
        DataType::Int32 => integers!(Int32Type),
        DataType::Int64 => integers!(Int64Type),
        DataType::UInt8 => integers!(UInt8Type),
        DataType::UInt16 => integers!(UInt16Type),
        DataType::UInt32 => integers!(UInt32Type),
        DataType::UInt64 => integers!(UInt64Type),
        DataType::Dictionary(_, _) => {
            let dictionary = array.as_any_dictionary();
            let plain = arrow_select::take::take(dictionary.values(), dictionary.keys(), None)
                .map_err(|e| Failure::Keys(e.to_string()))?;
            for_each_key(&plain, each)
        }
        DataType::Null => (0..array.len()).try_for_each(|_| each(None)),
        other => Err(Failure::Keys(format!(
            "the key column is {other}; keys are text (string, large_string, string_view), binary holding UTF-8, or integers (placed as their decimal text)"
        ))),
    }
}

/// Server names by id, for one simulation.
fn names_by_id(sim: &Simulation) -> Vec<Option<String>> {
    let mut names = Vec::new();
    for s in sim.servers() {
        let at = usize::from(s.id);
        if names.len() <= at {
            names.resize(at + 1, None);
        }
        names[at] = Some(s.name.clone());
    }
    names
}

/// The owner's name of `key`, None when no server is up.
fn owner<'a>(
    sim: &Simulation,
    names: &'a [Option<String>],
    key: &str,
) -> Result<Option<&'a str>, Failure> {
    let (_, id): (u32, ServerId) = sim
        .lookup(key)
        .map_err(|e| Failure::Keys(format!("key {}: {e}", hashring_lab::text::quote(key))))?;
    if id == NO_OWNER {
        return Ok(None);
    }
    Ok(names.get(usize::from(id)).and_then(|n| n.as_deref()))
}

/// The page's link parameters of a cluster: the keys are the caller's, so the page's own; a
/// table size only where the algorithm has a table.
fn link_of(mut scenario: Scenario) -> String {
    let page = Scenario::default().settings;
    scenario.settings.keys = page.keys;
    let knobs = scenario.settings.algo.spec().knobs;
    if !knobs.table && !knobs.pg_num {
        scenario.settings.table = page.table;
    }
    format!("?{}", scenario.to_query())
}

/// Refuses what cannot be placed key by key.
fn check_per_key(sim: &Simulation) -> Result<(), Failure> {
    if sim.settings().algo.depends_on_key_set() {
        return Err(Failure::Keys(format!(
            "{} places each key by the keys before it (capacities and arrival order), not key by key; use `hashring-lab simulate` with the whole key set",
            sim.settings().algo.name()
        )));
    }
    Ok(())
}

/// Each key's owner, as a string column (null for a null key or when no server is up).
fn locate_array(cluster: &Cluster, keys: &dyn Array) -> Result<ArrayRef, Failure> {
    let sim = cluster.simulation()?;
    check_per_key(&sim)?;
    let names = names_by_id(&sim);
    let mut out = StringBuilder::with_capacity(keys.len(), keys.len() * 8);
    for_each_key(keys, &mut |key| {
        match key.map(|k| owner(&sim, &names, k)).transpose()?.flatten() {
            Some(name) => out.append_value(name),
            None => out.append_null(),
        }
        Ok(())
    })?;
    Ok(Arc::new(out.finish()))
}

/// The migration list's columns.
fn moved_schema() -> Arc<Schema> {
    Arc::new(Schema::new(vec![
        Field::new("key", DataType::Utf8, false),
        Field::new("from", DataType::Utf8, true),
        Field::new("to", DataType::Utf8, true),
    ]))
}

/// Two clusters' simulations on this thread, with their servers' names: a key's owner in
/// each.
struct Transition {
    before: (Rc<Simulation>, Vec<Option<String>>),
    after: (Rc<Simulation>, Vec<Option<String>>),
}

impl Transition {
    fn of(before: &Cluster, after: &Cluster) -> Result<Transition, Failure> {
        let side = |c: &Cluster| -> Result<_, Failure> {
            let sim = c.simulation()?;
            check_per_key(&sim)?;
            let names = names_by_id(&sim);
            Ok((sim, names))
        };
        Ok(Transition {
            before: side(before)?,
            after: side(after)?,
        })
    }

    /// `key`'s owner before and after (None: no server up).
    fn owners(&self, key: &str) -> Result<(Option<&str>, Option<&str>), Failure> {
        Ok((
            owner(&self.before.0, &self.before.1, key)?,
            owner(&self.after.0, &self.after.1, key)?,
        ))
    }
}

/// The keys whose owner differs between `before` and `after`: key, from, to (null: no
/// server up), in the keys' order; null keys are left out.
fn moved_batch(
    before: &Cluster,
    after: &Cluster,
    keys: &dyn Array,
) -> Result<RecordBatch, Failure> {
    let change = Transition::of(before, after)?;
    let mut key_out = StringBuilder::new();
    let mut from_out = StringBuilder::new();
    let mut to_out = StringBuilder::new();
    for_each_key(keys, &mut |key| {
        let Some(key) = key else { return Ok(()) };
        let (from, to) = change.owners(key)?;
        if from != to {
            key_out.append_value(key);
            from_out.append_option(from);
            to_out.append_option(to);
        }
        Ok(())
    })?;
    let columns: Vec<ArrayRef> = vec![
        Arc::new(key_out.finish()),
        Arc::new(from_out.finish()),
        Arc::new(to_out.finish()),
    ];
    RecordBatch::try_new(moved_schema(), columns).map_err(|e| Failure::Keys(e.to_string()))
}

/// Row by row, where each key moves from `before` to `after`: a struct `(from, to)` for a
/// key whose owner changes, null for one that stays (and for a null key) — the migration
/// list in a column of the keys' length, as SQL's scalar functions return it.
fn moves_array(before: &Cluster, after: &Cluster, keys: &dyn Array) -> Result<ArrayRef, Failure> {
    let change = Transition::of(before, after)?;
    let mut from_out = StringBuilder::new();
    let mut to_out = StringBuilder::new();
    let mut moved = arrow_buffer::BooleanBufferBuilder::new(keys.len());
    for_each_key(keys, &mut |key| {
        let pair = match key {
            Some(key) => Some(change.owners(key)?),
            None => None,
        };
        match pair {
            Some((from, to)) if from != to => {
                from_out.append_option(from);
                to_out.append_option(to);
                moved.append(true);
            }
            _ => {
                from_out.append_null();
                to_out.append_null();
                moved.append(false);
            }
        }
        Ok(())
    })?;
    let fields = moved_schema().fields()[1..].to_vec();
    let children: Vec<ArrayRef> = vec![Arc::new(from_out.finish()), Arc::new(to_out.finish())];
    let validity = arrow_buffer::NullBuffer::new(moved.finish());
    arrow_array::StructArray::try_new(fields.into(), children, Some(validity))
        .map(|a| Arc::new(a) as ArrayRef)
        .map_err(|e| Failure::Keys(e.to_string()))
}

/// Keys given as Python text: one `str`, or a list or tuple of them (None allowed).
enum PythonKeys {
    One(String),
    Many(Vec<Option<String>>),
}

fn python_keys(keys: &Bound<'_, PyAny>) -> PyResult<Option<PythonKeys>> {
    if let Ok(s) = keys.cast::<PyString>() {
        return Ok(Some(PythonKeys::One(s.extract::<String>()?)));
    }
    if keys.is_instance_of::<PyList>() || keys.is_instance_of::<PyTuple>() {
        let mut out = Vec::new();
        for item in keys.try_iter()? {
            let item = item?;
            out.push(if item.is_none() {
                None
            } else {
                Some(text_of(&item).map_err(|_| KeyColumnError::new_err("a key is not text"))?)
            });
        }
        return Ok(Some(PythonKeys::Many(out)));
    }
    Ok(None)
}

/// Arrow keys: one array, or a stream of them (a chunked array, a Polars series).
fn arrow_keys(keys: &Bound<'_, PyAny>) -> PyResult<AnyArray> {
    keys.extract::<AnyArray>().map_err(|_| {
        KeyColumnError::new_err(format!(
            "keys: give a str, a list of str, or an Arrow column (pyarrow, Polars, DuckDB); got {}",
            keys.get_type()
                .name()
                .map_or_else(|_| "?".to_owned(), |n| n.to_string())
        ))
    })
}

fn string_array(keys: &[Option<String>]) -> ArrayRef {
    Arc::new(arrow_array::StringArray::from_iter(
        keys.iter().map(|k| k.as_deref()),
    ))
}

#[pymethods]
impl Cluster {
    /// A cluster of `algo` over `nodes`, with the page's other parameters by name (`hash`,
    /// `vnodes`, `label`, `down`, `probes`, `table`, `pg_num`, `c`, `slotmap`, `tokens`,
    /// `seed`).
    #[new]
    #[pyo3(signature = (algo="ring", nodes=None, **options))]
    fn py_new(
        py: Python<'_>,
        algo: &str,
        nodes: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Cluster> {
        let mut given = option_pairs(options, &[&OPTIONS[..], &CLUSTER_OPTIONS[..]].concat())?;
        given.push(("algo", algo.to_owned()));
        if let Some(nodes) = nodes.filter(|n| !n.is_none()) {
            given.push(("nodes", nodes_text(nodes)?));
        }
        py.detach(|| {
            let pairs = assemble(given, None)?;
            Cluster::new_checked(pairs, Vec::new(), Vec::new())
        })
        .map_err(PyErr::from)
    }

    /// The cluster a system's config describes: an nginx `upstream`, an HAProxy `backend`,
    /// a twemproxy pool, an Envoy cluster, Redis Cluster's `CLUSTER NODES`/`SHARDS`,
    /// Cassandra's `nodetool ring` or a Ceph CRUSH map (`crushtool -d`); the parameters the
    /// config does not set by name (`hash`, `vnodes`, `label`, `probes`, `table`, `pg_num`,
    /// `c`, `seed`).
    #[staticmethod]
    #[pyo3(signature = (text, **options))]
    fn from_config(
        py: Python<'_>,
        text: &str,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Cluster> {
        let given = option_pairs(options, &OPTIONS)?;
        let text = text.to_owned();
        py.detach(move || {
            let imported = hashring_lab::cli::read_config_text(&text).map_err(Failure::Config)?;
            let mut notes: Vec<String> = imported
                .backups
                .iter()
                .map(|b| format!("backup server {b} (the hash places keys on the primary servers; backups serve only when none is up)"))
                .collect();
            notes.extend(imported.left_out.iter().map(ToString::to_string));
            let pairs = assemble(given, Some(imported))?;
            Cluster::new_checked(pairs, Vec::new(), notes)
        })
        .map_err(PyErr::from)
    }

    /// The cluster of a page link (`https://…/?algo=nginx&nodes=…`, or its query alone);
    /// the link's other parameters (tour, language, …) are not the cluster's.
    #[staticmethod]
    fn from_link(py: Python<'_>, link: &str) -> PyResult<Cluster> {
        let query = link.split_once('?').map_or(link, |(_, q)| q);
        let query = query.split_once('#').map_or(query, |(q, _)| q);
        let mut given: Vec<(&'static str, String)> = Vec::new();
        for (name, value) in hashring_lab::host::query_pairs(query) {
            if let Some(known) = PARAMS.iter().find(|p| **p == name && name != "keys") {
                given.push((known, value));
            }
        }
        py.detach(|| {
            let pairs = assemble(given, None)?;
            Cluster::new_checked(pairs, Vec::new(), Vec::new())
        })
        .map_err(PyErr::from)
    }

    /// The cluster after one change, in the command line's `--step` syntax: `add:NAME[*W]`,
    /// `remove:NAME`, `fail:NAME`, `recover:NAME`, `weight:NAME*W`, `vnodes:N`, `algo:NAME`,
    /// `hash:NAME`.
    fn step(&self, py: Python<'_>, change: &str) -> PyResult<Cluster> {
        if change.starts_with("keys:") {
            return Err(StepError::new_err(
                "keys: a cluster places the keys it is given; give them to locate or moved",
            ));
        }
        let change = change.to_owned();
        py.detach(|| self.with_step(change)).map_err(PyErr::from)
    }

    /// The cluster with server `name` added (weight `weight`).
    #[pyo3(signature = (name, weight=1.0))]
    fn add(&self, py: Python<'_>, name: &str, weight: f64) -> PyResult<Cluster> {
        match weight {
            1.0 => self.step(py, &format!("add:{name}")),
            _ => self.step(py, &format!("add:{name}*{weight}")),
        }
    }

    /// The cluster without server `name`.
    fn remove(&self, py: Python<'_>, name: &str) -> PyResult<Cluster> {
        self.step(py, &format!("remove:{name}"))
    }

    /// The cluster with server `name` failed (down): its keys go elsewhere.
    fn fail(&self, py: Python<'_>, name: &str) -> PyResult<Cluster> {
        self.step(py, &format!("fail:{name}"))
    }

    /// The cluster with failed server `name` back up.
    fn recover(&self, py: Python<'_>, name: &str) -> PyResult<Cluster> {
        self.step(py, &format!("recover:{name}"))
    }

    /// Each key's owner: a `str` for a `str` (None when no server is up), a list for a list,
    /// and for an Arrow column (pyarrow, Polars, DuckDB) a pyarrow string column of the
    /// same length — chunked when the keys were.
    fn locate<'py>(
        &self,
        py: Python<'py>,
        keys: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match python_keys(keys)? {
            Some(PythonKeys::One(key)) => {
                let owners = py.detach(|| locate_array(self, &*string_array(&[Some(key)])))?;
                let owners = owners.as_string::<i32>();
                Ok(owners
                    .is_valid(0)
                    .then(|| owners.value(0).to_owned())
                    .into_pyobject(py)?)
            }
            Some(PythonKeys::Many(list)) => {
                let owners = py.detach(|| locate_array(self, &*string_array(&list)))?;
                let owners = owners.as_string::<i32>();
                let out: Vec<Option<&str>> = owners.iter().collect();
                Ok(out.into_pyobject(py)?)
            }
            None => match arrow_keys(keys)? {
                AnyArray::Array(array) => {
                    let (array, _) = array.into_inner();
                    let owners = py.detach(|| locate_array(self, &*array))?;
                    py.import("pyarrow")?
                        .getattr("array")?
                        .call1((PyArray::from_array_ref(owners),))
                }
                AnyArray::Stream(stream) => {
                    let chunks = stream.into_chunked_array()?;
                    let out = py.detach(|| {
                        chunks
                            .chunks()
                            .iter()
                            .map(|c| locate_array(self, &**c))
                            .collect::<Result<Vec<_>, _>>()
                    })?;
                    let field = Arc::new(Field::new("owner", DataType::Utf8, true));
                    PyChunkedArray::try_new(out, field)?.into_pyarrow(py)
                }
            },
        }
    }

    /// How the algorithm found `key`'s owner, in its own steps (`hashring-lab locate`'s
    /// explanation).
    fn explain(&self, key: &str) -> PyResult<String> {
        let sim = self.simulation()?;
        let e = sim
            .explain(key)
            .map_err(|e| KeyColumnError::new_err(e.to_string()))?;
        Ok(hashring_lab::words::explain(&hashring_lab::i18n::EN, &sim, key, &e).sentence)
    }

    /// Where each key moves to `after`, row by row: a pyarrow struct column `(from, to)` of
    /// the keys' length, null where the key stays (what SQL's `hashring_moves` returns).
    fn moves<'py>(
        &self,
        py: Python<'py>,
        after: &Cluster,
        keys: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let (array, _) = match arrow_keys(keys)? {
            AnyArray::Array(array) => array.into_inner(),
            AnyArray::Stream(_) => {
                return Err(KeyColumnError::new_err(
                    "moves takes one Arrow array (combine a chunked column's chunks first)",
                ))
            }
        };
        let out = py.detach(|| moves_array(self, after, &*array))?;
        py.import("pyarrow")?
            .getattr("array")?
            .call1((PyArray::from_array_ref(out),))
    }

    /// The migration list from this cluster to `after` over `keys`: a pyarrow Table of
    /// `key, from, to` for the keys whose owner changes, in the keys' order — the rows of
    /// `hashring-lab simulate --moved` (a null `from`/`to`: no server up; null keys are
    /// left out).
    fn moved<'py>(
        &self,
        py: Python<'py>,
        after: &Cluster,
        keys: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let chunks: Vec<ArrayRef> = match python_keys(keys)? {
            Some(PythonKeys::One(key)) => vec![string_array(&[Some(key)])],
            Some(PythonKeys::Many(list)) => vec![string_array(&list)],
            None => arrow_keys(keys)?.into_chunked_array()?.into_inner().0,
        };
        let batches = py.detach(|| {
            chunks
                .iter()
                .map(|c| moved_batch(self, after, &**c))
                .collect::<Result<Vec<_>, _>>()
        })?;
        PyTable::try_new(batches, moved_schema())?.into_pyarrow(py)
    }

    /// The algorithm's id (`nginx`, `ketama`, `ring`, …).
    #[getter]
    fn algorithm(&self) -> PyResult<String> {
        Ok(self.scenario()?.settings.algo.name().to_owned())
    }

    /// The servers in list order: (name, weight, up).
    #[getter]
    fn servers(&self) -> PyResult<Vec<(String, f64, bool)>> {
        let sim = self.simulation()?;
        Ok(sim
            .servers()
            .iter()
            .map(|s| (s.name.clone(), s.weight, s.up))
            .collect())
    }

    /// The page's link query for this cluster (`?algo=…`): the page's address followed by it
    /// opens the cluster in the page.
    #[getter]
    fn link(&self) -> PyResult<String> {
        Ok(link_of(self.scenario()?))
    }

    /// What the config said that the cluster leaves out (backup servers, replicas, …).
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    /// The changes applied since the cluster was made, in `--step` syntax.
    #[getter]
    fn steps(&self) -> Vec<String> {
        self.steps.clone()
    }

    /// The parameters and steps, for pickling (a Spark executor rebuilds the cluster).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.get();
        let restore = py.import("hashring_lab._native")?.getattr("_restore")?;
        let args = (me.pairs.clone(), me.steps.clone(), me.notes.clone());
        PyTuple::new(py, [restore, args.into_pyobject(py)?.into_any()])
    }

    fn __repr__(&self) -> PyResult<String> {
        let sim = self.simulation()?;
        Ok(format!(
            "Cluster(algo={:?}, servers={}, steps={:?}, link={:?})",
            sim.settings().algo.name(),
            sim.servers().len(),
            self.steps,
            link_of(sim.scenario())
        ))
    }
}

/// Rebuilds a pickled cluster.
#[pyfunction]
fn _restore(
    py: Python<'_>,
    pairs: Vec<(String, String)>,
    steps: Vec<String>,
    notes: Vec<String>,
) -> PyResult<Cluster> {
    py.detach(|| Cluster::new_checked(pairs, steps, notes))
        .map_err(PyErr::from)
}

/// The migration list from `before` to `after` over `keys` (see `Cluster.moved`).
#[pyfunction]
fn moved<'py>(
    py: Python<'py>,
    before: &Cluster,
    after: &Cluster,
    keys: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    before.moved(py, after, keys)
}

/// The algorithms' ids, in the registry's order.
#[pyfunction]
fn algorithms() -> Vec<&'static str> {
    hashring_lab::engine::placement::Algorithm::ALL
        .iter()
        .map(|a| a.name())
        .collect()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Cluster>()?;
    m.add_function(wrap_pyfunction!(moved, m)?)?;
    m.add_function(wrap_pyfunction!(algorithms, m)?)?;
    m.add_function(wrap_pyfunction!(_restore, m)?)?;
    m.add("Error", py.get_type::<Error>())?;
    m.add("ScenarioError", py.get_type::<ScenarioError>())?;
    m.add("ConfigError", py.get_type::<ConfigError>())?;
    m.add("StepError", py.get_type::<StepError>())?;
    m.add("KeyColumnError", py.get_type::<KeyColumnError>())?;
    Ok(())
}
