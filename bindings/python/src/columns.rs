//! Owners and migration lists as Arrow columns: each key's owner, the keys that move
//! (`key, old_server, new_server`, the key column keeping its own name), and row by row
//! where each key moves (a struct, null where it stays). The names are SQL-safe: `from`
//! and `to`, the command line's CSV header, are reserved words every query had to quote.

use std::rc::Rc;
use std::sync::Arc;

use arrow_array::builder::StringBuilder;
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::{DataType, Field, Schema};

use hashring_lab::engine::owners::KeyOwners;
use hashring_lab::engine::sim::Simulation;

use crate::keys::for_each_key;
use crate::Failure;

/// What the columns are computed from: a cluster's simulation on this thread (the
/// `Cluster` class implements it; the columns do not know the class).
pub(crate) trait Simulated {
    /// The simulation, built on this thread when it is not yet.
    fn simulation(&self) -> Result<Rc<Simulation>, Failure>;
}

/// Each key's owner, as a string column (null for a null key or when no server is up).
pub(crate) fn locate_array(cluster: &dyn Simulated, keys: &dyn Array) -> Result<ArrayRef, Failure> {
    let sim = cluster.simulation()?;
    let owners = KeyOwners::of(&sim).map_err(Failure::Keys)?;
    let mut out = StringBuilder::with_capacity(keys.len(), keys.len() * 8);
    for_each_key(keys, &mut |key| {
        let owner = key.map(|k| owners.owner(&sim, k)).transpose();
        match owner.map_err(Failure::Keys)?.flatten() {
            Some(name) => out.append_value(name),
            None => out.append_null(),
        }
        Ok(())
    })?;
    Ok(Arc::new(out.finish()))
}

/// The migration list's columns, the key column named `key`.
pub(crate) fn moved_schema(key: &str) -> Arc<Schema> {
    Arc::new(Schema::new(vec![
        Field::new(key, DataType::Utf8, false),
        Field::new("old_server", DataType::Utf8, true),
        Field::new("new_server", DataType::Utf8, true),
    ]))
}

/// Two clusters' simulations on this thread, with their servers' names: a key's owner in
/// each.
pub(crate) struct Transition {
    before: (Rc<Simulation>, KeyOwners),
    after: (Rc<Simulation>, KeyOwners),
}

impl Transition {
    fn of(before: &dyn Simulated, after: &dyn Simulated) -> Result<Transition, Failure> {
        let side = |c: &dyn Simulated| -> Result<_, Failure> {
            let sim = c.simulation()?;
            let owners = KeyOwners::of(&sim).map_err(Failure::Keys)?;
            Ok((sim, owners))
        };
        Ok(Transition {
            before: side(before)?,
            after: side(after)?,
        })
    }

    /// `key`'s owner before and after (None: no server up).
    fn owners(&self, key: &str) -> Result<(Option<&str>, Option<&str>), Failure> {
        let (before, after) = (&self.before, &self.after);
        Ok((
            before.1.owner(&before.0, key).map_err(Failure::Keys)?,
            after.1.owner(&after.0, key).map_err(Failure::Keys)?,
        ))
    }
}

/// The keys whose owner differs between `before` and `after`: key, old server, new server
/// (null: no server up), in the keys' order, as `schema` names them; null keys are left out.
pub(crate) fn moved_batch(
    before: &dyn Simulated,
    after: &dyn Simulated,
    keys: &dyn Array,
    schema: &Arc<Schema>,
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
    RecordBatch::try_new(Arc::clone(schema), columns).map_err(|e| Failure::Keys(e.to_string()))
}

/// Row by row, where each key moves from `before` to `after`: a struct `(old_server,
/// new_server)` for a
/// key whose owner changes, null for one that stays (and for a null key) — the migration
/// list in a column of the keys' length, as SQL's scalar functions return it.
pub(crate) fn moves_array(
    before: &dyn Simulated,
    after: &dyn Simulated,
    keys: &dyn Array,
) -> Result<ArrayRef, Failure> {
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
    let fields = moved_schema("key").fields()[1..].to_vec();
    let children: Vec<ArrayRef> = vec![Arc::new(from_out.finish()), Arc::new(to_out.finish())];
    let validity = arrow_buffer::NullBuffer::new(moved.finish());
    arrow_array::StructArray::try_new(fields.into(), children, Some(validity))
        .map(|a| Arc::new(a) as ArrayRef)
        .map_err(|e| Failure::Keys(e.to_string()))
}
