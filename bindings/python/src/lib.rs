//! `hashring_lab._native`: the engine of the page and the command line as a Python module.
//!
//! A [`Cluster`] is a scenario as the page's parameters hold it (`algo`, `nodes`, `down`,
//! `slotmap`, `tokens`, …) plus the steps applied since (`add:E`, `fail:B`), built by the
//! same code as `hashring-lab simulate` ([`hashring_lab::configs::assemble`], a system's config
//! read by [`hashring_lab::configs::read_config_text`]). Placement is per key and stateless once
//! the cluster is built, so batches are placed with the interpreter's lock released, and a
//! cluster travels to another process (a Spark executor) as its parameters and steps.
//!
//! Columns come in and go out through the Arrow C data interface (PyCapsules, via
//! pyo3-arrow): a pyarrow, Polars or DuckDB column is read where it lies, and the owners are
//! written to Arrow buffers — no Python object per key.
//!
//! The engine's simulation is not `Send` (its placements are shared by `Rc`), so each thread
//! builds a cluster's simulation once and keeps the last few it used (`cluster.rs`).
//!
//! The files: `cluster.rs` (the `Cluster` class and its per-thread simulations), `params.rs`
//! (Python values to the page's parameters, and back to a link), `keys.rs` (keys from Python
//! and Arrow), `stream.rs` (Arrow columns and streams, validated before a key is read), `columns.rs` (owners and migration lists as Arrow columns).

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

mod cluster;
mod columns;
mod keys;
mod params;
mod plugin;
mod stream;

use cluster::Cluster;

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

/// What went wrong, before it becomes a Python exception (built without the interpreter's
/// lock, raised with it).
#[derive(Debug)]
pub(crate) enum Failure {
    Config(String),
    Scenario(String),
    Step(String),
    Keys(String),
}

impl From<hashring_lab::configs::SpecError> for Failure {
    fn from(e: hashring_lab::configs::SpecError) -> Failure {
        match e {
            hashring_lab::configs::SpecError::Config(m) => Failure::Config(m),
            hashring_lab::configs::SpecError::Scenario(m) => Failure::Scenario(m),
        }
    }
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

/// How many changes this process has applied to clusters (for the package's tests).
#[pyfunction]
fn _changes_applied() -> u64 {
    cluster::CHANGES_APPLIED.load(std::sync::atomic::Ordering::Relaxed)
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
    m.add_function(wrap_pyfunction!(_changes_applied, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("Error", py.get_type::<Error>())?;
    m.add("ScenarioError", py.get_type::<ScenarioError>())?;
    m.add("ConfigError", py.get_type::<ConfigError>())?;
    m.add("StepError", py.get_type::<StepError>())?;
    m.add("KeyColumnError", py.get_type::<KeyColumnError>())?;
    Ok(())
}
