//! Keys from Python: one `str`, a list of them, or an Arrow column of any text, binary or
//! integer type (each key handed on as text, without a Python object per key).

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Int16Type, Int32Type, Int64Type, Int8Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{Array, ArrayRef};
use arrow_schema::DataType;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyInt, PyList, PyString, PyTuple};

use crate::stream::{arrow_keys_of, ArrowKeys};
use crate::{Failure, KeyColumnError};

/// One key column's keys, each as text (or None for a null), to `each`; integers are
/// placed as their decimal text, binary keys must be UTF-8.
pub(crate) fn for_each_key(
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
        // A one-column table or record batch (a stream of them, from DuckDB or a Parquet
        // reader) stands for its column.
        DataType::Struct(fields) if fields.len() == 1 && array.null_count() == 0 => {
            for_each_key(array.as_struct().column(0), each)
        }
        DataType::Struct(fields) => Err(Failure::Keys(format!(
            "the keys are a table of {} columns; give the key column (e.g. table.column(\"key\"))",
            fields.len()
        ))),
        other => Err(Failure::Keys(format!(
            "the key column is {other}; keys are text (string, large_string, string_view), binary holding UTF-8, or integers (placed as their decimal text)"
        ))),
    }
}

/// Keys as given: one key, a Python list or tuple of them, or an Arrow column.
pub(crate) enum Keys {
    One(String),
    Many(Vec<Option<String>>),
    Arrow(ArrowKeys),
}

/// The keys of `keys`: a `str` (or `bytes` holding UTF-8, or an `int`), a list or tuple of
/// them (None for a null), or an Arrow column (pyarrow, Polars, DuckDB). A Python key follows the Arrow columns' rules: text as it is, UTF-8 bytes as
/// their text, integers as their decimal text; anything else is refused, never placed
/// through its `repr` (an object's repr holds its address, so its owner would change from
/// run to run).
pub(crate) fn keys_of(keys: &Bound<'_, PyAny>) -> PyResult<Keys> {
    if keys.is_instance_of::<PyList>() || keys.is_instance_of::<PyTuple>() {
        let mut out = Vec::new();
        for (at, item) in keys.try_iter()?.enumerate() {
            let item = item?;
            out.push(if item.is_none() {
                None
            } else {
                Some(
                    key_text(&item)
                        .map_err(|why| KeyColumnError::new_err(format!("keys[{at}] {why}")))?,
                )
            });
        }
        return Ok(Keys::Many(out));
    }
    if let Some(arrow) = arrow_keys_of(keys)? {
        return Ok(Keys::Arrow(arrow));
    }
    // A NumPy array (of str, bytes or integers) goes through pyarrow, which reads it
    // without a Python object per element for numbers.
    if keys.get_type().name()? == "ndarray" {
        let array = keys
            .py()
            .import("pyarrow")?
            .call_method1("array", (keys,))?;
        return keys_of(&array);
    }
    key_text(keys).map(Keys::One).map_err(|why| {
        KeyColumnError::new_err(format!(
            "the key {why}; or give a list of keys or an Arrow column (pyarrow, Polars, DuckDB)"
        ))
    })
}

/// One Python key as the text that is hashed, or why it is not a key.
fn key_text(key: &Bound<'_, PyAny>) -> Result<String, String> {
    if let Ok(s) = key.cast::<PyString>() {
        return s.extract::<String>().map_err(|_| {
            "is a str that is not valid Unicode text (it holds a lone surrogate); keys are hashed as UTF-8".to_owned()
        });
    }
    if let Ok(b) = key.cast::<PyBytes>() {
        return std::str::from_utf8(b.as_bytes())
            .map(str::to_owned)
            .map_err(|_| "is bytes that are not UTF-8 text; keys are placed as text".to_owned());
    }
    if key.is_instance_of::<PyInt>() && !key.is_instance_of::<PyBool>() {
        if let Ok(v) = key.extract::<i128>() {
            return Ok(v.to_string());
        }
        return Err("is an integer wider than 128 bits".to_owned());
    }
    Err(format!(
        "is of type {}; keys are str, bytes holding UTF-8, or int (placed as its decimal text), as in an Arrow column",
        key.get_type()
            .name()
            .map_or_else(|_| "?".to_owned(), |n| n.to_string())
    ))
}

pub(crate) fn string_array(keys: &[Option<String>]) -> ArrayRef {
    Arc::new(arrow_array::StringArray::from_iter(
        keys.iter().map(|k| k.as_deref()),
    ))
}
