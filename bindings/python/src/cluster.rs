//! The `Cluster` class: a scenario's parameters and the steps applied since, and the
//! simulation each thread builds of it once (the engine's is not `Send`).

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use arrow_array::{Array, ArrayRef};
use arrow_schema::Field;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use pyo3_arrow::{PyArray, PyChunkedArray, PyTable};

use hashring_lab::engine::change::Change;
use hashring_lab::engine::owners::KeyOwners;
use hashring_lab::engine::scenario::Scenario;
use hashring_lab::engine::sim::Simulation;
use hashring_lab::text::quote;

use crate::columns::{locate_array, moved_batch, moved_schema, moves_array, Simulated};
use crate::keys::{keys_of, string_array, Keys};
use crate::params::{
    assemble, assemble_marking_down, link_of, nodes_text, option_pairs, str_of, text_of,
    CLUSTER_OPTIONS, CONFIG_OPTIONS, OPTIONS,
};
use crate::stream::ArrowKeys;
use crate::{Failure, KeyColumnError, StepError};

/// Each cluster's number, the key of the per-thread simulations.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Changes applied to simulations in this process (`_native._changes_applied()`): what a
/// test counts to see that a chain of `add`s applies each change once.
pub(crate) static CHANGES_APPLIED: AtomicU64 = AtomicU64::new(0);

/// Simulations a thread keeps, most recent last: a migration list needs two clusters, a
/// sweep over changes a few more.
const KEPT_PER_THREAD: usize = 8;

thread_local! {
    static BUILT: RefCell<Vec<(u64, Rc<Simulation>)>> = const { RefCell::new(Vec::new()) };
}

/// A cluster: an algorithm over servers, as `hashring-lab` builds it from its flags or a
/// system's config, and the changes applied since. Immutable: a change makes a new cluster.
#[pyclass(frozen, module = "hashring_lab")]
pub(crate) struct Cluster {
    id: u64,
    /// The scenario, as the page's parameters (every one, defaults included).
    pairs: Vec<(String, String)>,
    /// Changes applied since, in the command line's `--step` syntax.
    steps: Vec<String>,
    /// What the config said that the cluster leaves out (backups, replicas, …).
    notes: Vec<String>,
}

impl Cluster {
    pub(crate) fn new_checked(
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
        // A cluster places the keys it is given, one by one: an algorithm that needs the
        // whole key set is refused now, saying why, not at the first `locate`.
        KeyOwners::check(&*cluster.simulation()?).map_err(Failure::Scenario)?;
        Ok(cluster)
    }

    /// This thread's simulation of the cluster, built on first use.
    pub(crate) fn simulation(&self) -> Result<Rc<Simulation>, Failure> {
        if let Some(sim) = built(self.id) {
            return Ok(sim);
        }
        let sim = Rc::new(self.build()?);
        keep(self.id, Rc::clone(&sim));
        Ok(sim)
    }

    fn build(&self) -> Result<Simulation, Failure> {
        let scenario =
            Scenario::from_pairs(self.pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
                .map_err(|e| Failure::Scenario(e.to_string()))?;
        let mut sim = Simulation::new(&scenario).map_err(|e| Failure::Scenario(e.to_string()))?;
        for step in &self.steps {
            let change = Change::parse(step).map_err(|e| Failure::Step(e.to_string()))?;
            CHANGES_APPLIED.fetch_add(1, Ordering::Relaxed);
            sim.apply(&change)
                .map_err(|e| Failure::Step(format!("step {}: {e}", quote(step))))?;
        }
        Ok(sim)
    }

    /// The cluster after `step`. The change is applied to a copy of this cluster's
    /// simulation, not replayed from the first step: a loop of `c = c.add(…)` costs one
    /// change per call, not all the changes so far (which made 400 adds take 14.5 s).
    fn with_step(&self, step: String) -> Result<Cluster, Failure> {
        let change = Change::parse(&step).map_err(|e| Failure::Step(e.to_string()))?;
        let mut sim = (*self.simulation()?).clone();
        CHANGES_APPLIED.fetch_add(1, Ordering::Relaxed);
        sim.apply(&change)
            .map_err(|e| Failure::Step(format!("step {}: {e}", quote(&step))))?;
        KeyOwners::check(&sim)
            .map_err(|why| Failure::Step(format!("step {}: {why}", quote(&step))))?;
        let mut steps = self.steps.clone();
        steps.push(step);
        let cluster = Cluster {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            pairs: self.pairs.clone(),
            steps,
            notes: self.notes.clone(),
        };
        keep(cluster.id, Rc::new(sim));
        Ok(cluster)
    }

    fn scenario(&self) -> Result<Scenario, Failure> {
        Ok(self.simulation()?.scenario())
    }
}

impl Cluster {
    /// The cluster after `change`, in `--step` syntax (`keys:` is refused: a cluster places
    /// the keys it is given).
    fn step_text(&self, py: Python<'_>, change: String) -> PyResult<Cluster> {
        if change.starts_with("keys:") {
            return Err(StepError::new_err(
                "keys: a cluster places the keys it is given; give them to locate or moved",
            ));
        }
        py.detach(|| self.with_step(change)).map_err(PyErr::from)
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

impl Simulated for Cluster {
    fn simulation(&self) -> Result<Rc<Simulation>, Failure> {
        Cluster::simulation(self)
    }
}

/// Keeps `sim` as this thread's simulation of cluster `id`, letting go of the oldest.
fn keep(id: u64, sim: Rc<Simulation>) {
    BUILT.with_borrow_mut(|kept| {
        if kept.len() == KEPT_PER_THREAD {
            kept.remove(0);
        }
        kept.push((id, sim));
    });
}

/// The simulation this thread built for cluster `id`, if it still keeps it.
pub(crate) fn built(id: u64) -> Option<Rc<Simulation>> {
    BUILT.with_borrow(|kept| {
        kept.iter()
            .find(|(k, _)| *k == id)
            .map(|(_, sim)| Rc::clone(sim))
    })
}

#[pymethods]
impl Cluster {
    /// A cluster of `algo` over `nodes`, with the page's other parameters by name (`hash`,
    /// `vnodes`, `label`, `down`, `probes`, `table`, `pg_num`, `c`, `slotmap`, `tokens`,
    /// `seed`).
    #[new]
    #[pyo3(signature = (algo=None, nodes=None, **options))]
    fn py_new(
        py: Python<'_>,
        algo: Option<&Bound<'_, PyAny>>,
        nodes: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Cluster> {
        let mut given = option_pairs(options, &[&OPTIONS[..], &CLUSTER_OPTIONS[..]].concat())?;
        let algo = match algo.filter(|a| !a.is_none()) {
            Some(algo) => str_of(algo, "algo")?,
            None => "ring".to_owned(),
        };
        given.push(("algo", algo));
        if let Some(nodes) = nodes.filter(|n| !n.is_none()) {
            given.push(("nodes", nodes_text(nodes, "nodes")?));
        }
        py.detach(|| {
            let pairs = assemble(given, None)?;
            Cluster::new_checked(pairs, Vec::new(), Vec::new())
        })
        .map_err(PyErr::from)
    }

    /// The cluster a system's config describes: an nginx `upstream`, an HAProxy `backend`,
    /// a twemproxy pool, an Envoy cluster, Redis Cluster's `CLUSTER NODES`/`SHARDS`,
    /// Cassandra's `nodetool ring` or a Ceph CRUSH map (`crushtool -d`, flat or hosts and
    /// racks); the parameters the config does not set by name (`hash`, `vnodes`, `label`,
    /// `probes`, `table`, `pg_num`, `c`, `seed`), and `down`: servers of the config marked
    /// down after it (an OSD out).
    #[staticmethod]
    #[pyo3(signature = (text, **options))]
    fn from_config(
        py: Python<'_>,
        text: &Bound<'_, PyAny>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Cluster> {
        let mut given = option_pairs(options, &CONFIG_OPTIONS)?;
        // `down` names the config's servers, so it is applied after the config (an OSD
        // marked out, which a CRUSH map cannot say), as the command line's `--down` is.
        let mut take = |name: &str| {
            let at = given.iter().position(|(k, _)| *k == name)?;
            Some(given.remove(at).1)
        };
        let down = take("down");
        // A CRUSH map's rule for the pool (name or id), as the command line's `--rule`.
        let rule = take("rule");
        let text = str_of(text, "the config")?;
        py.detach(move || {
            let imported =
                hashring_lab::configs::read_config_text_with_rule(&text, rule.as_deref())
                    .map_err(Failure::Config)?;
            let mut notes: Vec<String> = imported
                .backups
                .iter()
                .map(|b| format!("backup server {b} (the hash places keys on the primary servers; backups serve only when none is up)"))
                .collect();
            notes.extend(imported.left_out.iter().map(ToString::to_string));
            let pairs = match down {
                None => assemble(given, Some(imported))?,
                Some(down) => assemble_marking_down(given, imported, &down)?,
            };
            Cluster::new_checked(pairs, Vec::new(), notes)
        })
        .map_err(PyErr::from)
    }

    /// The cluster of a page link (`https://…/?algo=nginx&nodes=…`, or its query alone,
    /// `?algo=…` or `algo=…`); the link's other parameters (tour, language, keys, …) are the
    /// page's, not the cluster's. Text that is no page link, or a parameter the page does not
    /// know (a misspelt `algorithm=`), is refused, never read as the default cluster.
    #[staticmethod]
    fn from_link(py: Python<'_>, link: &Bound<'_, PyAny>) -> PyResult<Cluster> {
        let link = str_of(link, "the link")?;
        let given = hashring_lab::configs::link_cluster_params(&link).map_err(Failure::from)?;
        py.detach(|| {
            let pairs = assemble(given, None)?;
            Cluster::new_checked(pairs, Vec::new(), Vec::new())
        })
        .map_err(PyErr::from)
    }

    /// The cluster after one change, in the command line's `--step` syntax: `add:NAME[*W]`,
    /// `remove:NAME`, `fail:NAME`, `recover:NAME`, `weight:NAME*W`, `vnodes:N`, `algo:NAME`,
    /// `hash:NAME`, and for Ceph over a CRUSH map with hosts
    /// `add-host:HOST@PARENT=osd.N[*W][:CLASS]+…`.
    fn step(&self, py: Python<'_>, change: &Bound<'_, PyAny>) -> PyResult<Cluster> {
        let change = str_of(change, "the step")?;
        self.step_text(py, change)
    }

    /// The cluster with server `name` added (weight `weight`).
    #[pyo3(signature = (name, weight=None))]
    fn add(
        &self,
        py: Python<'_>,
        name: &Bound<'_, PyAny>,
        weight: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Cluster> {
        let name = str_of(name, "the server's name")?;
        match weight.filter(|w| !w.is_none()) {
            None => self.step_text(py, format!("add:{name}")),
            Some(w) => {
                let w = text_of(w, "weight")?;
                self.step_text(py, format!("add:{name}*{w}"))
            }
        }
    }

    /// The cluster without server `name`.
    fn remove(&self, py: Python<'_>, name: &Bound<'_, PyAny>) -> PyResult<Cluster> {
        let name = str_of(name, "the server's name")?;
        self.step_text(py, format!("remove:{name}"))
    }

    /// The cluster with server `name` failed (down): its keys go elsewhere.
    fn fail(&self, py: Python<'_>, name: &Bound<'_, PyAny>) -> PyResult<Cluster> {
        let name = str_of(name, "the server's name")?;
        self.step_text(py, format!("fail:{name}"))
    }

    /// The cluster with failed server `name` back up.
    fn recover(&self, py: Python<'_>, name: &Bound<'_, PyAny>) -> PyResult<Cluster> {
        let name = str_of(name, "the server's name")?;
        self.step_text(py, format!("recover:{name}"))
    }
    /// Each key's owner: a `str` for one key (None when no server is up), a list for a list,
    /// and for an Arrow column (pyarrow, Polars, DuckDB) a pyarrow string column of the
    /// same length — chunked when the keys were.
    fn locate<'py>(
        &self,
        py: Python<'py>,
        keys: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        in_shape_of(py, keys_of(keys)?, "owner", &|array| {
            locate_array(self, array)
        })
    }

    /// How the algorithm found `key`'s owner, in its own steps (`hashring-lab locate`'s
    /// explanation).
    fn explain(&self, key: &Bound<'_, PyAny>) -> PyResult<String> {
        let Keys::One(key) = keys_of(key)? else {
            return Err(KeyColumnError::new_err(
                "explain takes one key (a str, UTF-8 bytes or an int)",
            ));
        };
        let key = key.as_str();
        let sim = self.simulation()?;
        let e = sim
            .explain(key)
            .map_err(|e| KeyColumnError::new_err(e.to_string()))?;
        Ok(hashring_lab::words::explain(&hashring_lab::i18n::EN, &sim, key, &e).sentence)
    }

    /// Where each key moves to `after`, row by row: for an Arrow column a pyarrow struct
    /// column `(from, to)` of the keys' length (chunked when the keys were), null where the
    /// key stays (what SQL's `hashring_moves` returns); a dict or None for one key, a list
    /// of them for a list.
    fn moves<'py>(
        &self,
        py: Python<'py>,
        after: &Cluster,
        keys: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        in_shape_of(py, keys_of(keys)?, "moves", &|array| {
            moves_array(self, after, array)
        })
    }

    /// The migration list from this cluster to `after` over `keys`: a pyarrow Table of
    /// `key, from, to` for the keys whose owner changes, in the keys' order — the rows of
    /// `hashring-lab simulate --moved` (a null `from`/`to`: no server up; null keys are
    /// left out).
    pub(crate) fn moved<'py>(
        &self,
        py: Python<'py>,
        after: &Cluster,
        keys: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut batches = Vec::new();
        let keys = keys_of(keys)?;
        let name = match &keys {
            Keys::Arrow(arrow) => arrow.name().unwrap_or("key").to_owned(),
            _ => "key".to_owned(),
        };
        let schema = moved_schema(&name);
        let batch = |array: &dyn Array| moved_batch(self, after, array, &schema);
        match keys {
            Keys::One(key) => batches.push(py.detach(|| batch(&*string_array(&[Some(key)])))?),
            Keys::Many(list) => batches.push(py.detach(|| batch(&*string_array(&list)))?),
            Keys::Arrow(ArrowKeys::Array(array, _)) => batches.push(py.detach(|| batch(&*array))?),
            // A stream (a Parquet dataset's scanner, a DuckDB relation) is read a batch at a
            // time: only the moved rows are kept, never the whole keyspace.
            Keys::Arrow(ArrowKeys::Stream(stream)) => {
                for chunk in stream {
                    let chunk = chunk?;
                    batches.push(py.detach(|| batch(&*chunk))?);
                }
            }
        }
        // `RecordBatchReader.from_stream(…).read_all()`, not `pyarrow.table(…)`: the latter
        // asks whether its argument is a pandas frame, importing pandas (1.3 s) if installed.
        let table = PyTable::try_new(batches, schema)?.into_pyobject(py)?;
        py.import("pyarrow")?
            .getattr("RecordBatchReader")?
            .call_method1("from_stream", (table,))?
            .call_method0("read_all")
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

    /// The link of the cluster as it was made, and the steps applied since: what the DuckDB
    /// extension is given to build the same cluster (the link of the cluster after the steps
    /// could not say the order servers left, which Anchor's and Dx's placement keeps).
    fn _origin(&self) -> PyResult<(String, Vec<String>)> {
        let scenario =
            Scenario::from_pairs(self.pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())))
                .map_err(|e| Failure::Scenario(e.to_string()))?;
        Ok((link_of(scenario), self.steps.clone()))
    }

    /// The parameters and steps, for pickling (a Spark executor rebuilds the cluster).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let me = slf.get();
        let restore = py.import("hashring_lab._native")?.getattr("_restore")?;
        let args = (me.pairs.clone(), me.steps.clone(), me.notes.clone());
        PyTuple::new(py, [restore, args.into_pyobject(py)?.into_any()])
    }

    /// Two clusters are equal when they were made with the same parameters and changed by
    /// the same steps (so they place every key alike).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Cluster>()
            .is_ok_and(|o| o.get().pairs == self.pairs && o.get().steps == self.steps)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (&self.pairs, &self.steps).hash(&mut hasher);
        hasher.finish()
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

/// `place`'s answers in the shape the keys came in: a Python value for one key, a list for
/// a list, a pyarrow array for an array, a chunked array (its field `name`) for a stream —
/// placed a batch at a time, each let go once placed.
fn in_shape_of<'py>(
    py: Python<'py>,
    keys: Keys,
    name: &str,
    place: &(dyn Fn(&dyn Array) -> Result<ArrayRef, Failure> + Sync),
) -> PyResult<Bound<'py, PyAny>> {
    let to_pyarrow = |array: ArrayRef| -> PyResult<Bound<'py, PyAny>> {
        py.import("pyarrow")?
            .getattr("array")?
            .call1((PyArray::from_array_ref(array),))
    };
    match keys {
        Keys::One(key) => {
            let out = py.detach(|| place(&*string_array(&[Some(key)])))?;
            to_pyarrow(out)?.get_item(0)?.call_method0("as_py")
        }
        Keys::Many(list) => {
            let out = py.detach(|| place(&*string_array(&list)))?;
            to_pyarrow(out)?.call_method0("to_pylist")
        }
        Keys::Arrow(ArrowKeys::Array(array, _)) => to_pyarrow(py.detach(|| place(&*array))?),
        Keys::Arrow(ArrowKeys::Stream(stream)) => {
            let mut out = Vec::new();
            let mut data_type = None;
            for chunk in stream {
                let chunk = chunk?;
                let placed = py.detach(|| place(&*chunk))?;
                data_type = Some(placed.data_type().clone());
                out.push(placed);
            }
            // An empty stream still answers with its column's type.
            let data_type = match data_type {
                Some(t) => t,
                None => place(&*string_array(&[]))?.data_type().clone(),
            };
            let field = Arc::new(Field::new(name, data_type, true));
            PyChunkedArray::try_new(out, field)?.into_pyarrow(py)
        }
    }
}
