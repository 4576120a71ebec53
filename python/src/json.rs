//! Python objects from a [`Tape`]: the half of reading a command's JSON
//! that needs the GIL, and no more of it than making the objects. A
//! `dgn layout --seeds` line is a few kilobytes and hundreds of small
//! objects; made this way `dgnkit.layouts()` is several times
//! `json.loads`' speed.
//!
//! What the tape names is made once and kept here: strings (Python's are
//! immutable, so sharing them is invisible) and short objects, whose kept
//! dict is copied for each use, with the dicts inside it, so that every
//! answer has dicts of its own.

use crate::tape::{self, Op, Tape, NONE};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};

/// A short object kept: a dict whose values are immutable but for the
/// flat dicts `nested` names (a branch's ends).
struct Kept {
    dict: Py<PyDict>,
    nested: Vec<(Py<PyString>, Py<PyDict>)>,
}

impl Kept {
    /// `d` to keep (the tape names only objects without arrays and with
    /// flat objects inside).
    fn of(d: &Bound<'_, PyDict>) -> PyResult<Kept> {
        let mut nested = Vec::new();
        for (k, v) in d.iter() {
            if let (Ok(inner), Ok(k)) = (v.cast::<PyDict>(), k.cast_into::<PyString>()) {
                nested.push((k.unbind(), inner.copy()?.unbind()));
            }
        }
        Ok(Kept {
            dict: d.copy()?.unbind(),
            nested,
        })
    }

    /// A copy that shares nothing mutable with the kept dict.
    fn fresh<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let copy = self.dict.bind(py).copy()?;
        for (k, inner) in &self.nested {
            copy.set_item(k.bind(py), inner.bind(py).copy()?)?;
        }
        Ok(copy)
    }
}

/// A dict of a shape's keys that objects of that shape are copied from:
/// a copy takes the keys' table whole, where a new dict grows its table
/// as the keys come (three times for an xlogfile's 26 fields). A member
/// whose value is the very object the dict holds (a string a line
/// repeats, `None`, a small int) is not set again.
struct Template {
    dict: Py<PyDict>,
    /// The dict's keys and values, in order.
    keys: Vec<Py<PyAny>>,
    values: Vec<Py<PyAny>>,
}

/// The strings and objects the tapes of one stream have named, made.
#[derive(Default)]
pub struct Builder {
    strings: Vec<Option<Py<PyString>>>,
    objects: Vec<Option<Kept>>,
    /// Each named key's last string value ([`Op::Slot`]).
    slots: Vec<Option<Py<PyAny>>>,
    /// The dict of each shape ([`Op::Dict`]).
    templates: Vec<Option<Template>>,
}

impl Builder {
    /// The tape's values, one per line read.
    ///
    /// Python's cyclic garbage collector is paused meanwhile (unless the
    /// program has it off): what is made here holds no cycle, and a
    /// collection every few hundred of the thousands of containers a
    /// layout or an xlogfile's rows make would cost a quarter of the time,
    /// walking every list made so far. It runs again as soon as it is back
    /// on.
    pub fn build<'py>(&mut self, py: Python<'py>, tape: &Tape) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let gc = py.import(pyo3::intern!(py, "gc"))?;
        let was_on = gc
            .call_method0(pyo3::intern!(py, "isenabled"))?
            .is_truthy()?;
        if was_on {
            gc.call_method0(pyo3::intern!(py, "disable"))?;
        }
        let mut at = 0;
        let values = (0..tape.values)
            .map(|_| self.value(py, tape, &mut at))
            .collect();
        if was_on {
            gc.call_method0(pyo3::intern!(py, "enable"))?;
        }
        values
    }

    fn value<'py>(
        &mut self,
        py: Python<'py>,
        tape: &Tape,
        at: &mut usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let op = tape.ops[*at];
        *at += 1;
        Ok(match op {
            Op::Null => py.None().into_bound(py),
            Op::Bool(b) => PyBool::new(py, b).to_owned().into_any(),
            Op::Int(n) => {
                let Ok(n) = n.into_pyobject(py);
                n.into_any()
            }
            // Beyond 64 bits: Python's own int().
            Op::Big(s, l) => py.get_type::<PyInt>().call1((tape.str(s, l),))?,
            Op::Float(f) => PyFloat::new(py, f).into_any(),
            Op::Str(s, l) => PyString::new(py, tape.str(s, l)).into_any(),
            Op::Named(id) => named(&self.strings, id)?.bind(py).clone().into_any(),
            Op::Slot(key) => named(&self.slots, key)?.bind(py).clone(),
            Op::NewNamed(id, s, l) => {
                let made = PyString::new(py, tape.str(s, l));
                put(&mut self.strings, id, made.clone().unbind());
                made.into_any()
            }
            Op::List(n) => {
                let items = (0..n)
                    .map(|_| self.value(py, tape, at))
                    .collect::<PyResult<Vec<_>>>()?;
                PyList::new(py, items)?.into_any()
            }
            Op::Dict(n, shape) => self.dict(py, tape, at, n, shape)?.into_any(),
            Op::Object(id) => named(&self.objects, id)?.fresh(py)?.into_any(),
            Op::NewObject(id) => {
                let v = self.value(py, tape, at)?;
                let kept = Kept::of(v.cast::<PyDict>()?)?;
                put(&mut self.objects, id, kept);
                v
            }
        })
    }
}

impl Builder {
    /// An object of `n` members, of the shape `shape` (or [`NONE`]).
    fn dict<'py>(
        &mut self,
        py: Python<'py>,
        tape: &Tape,
        at: &mut usize,
        n: u32,
        shape: u32,
    ) -> PyResult<Bound<'py, PyDict>> {
        if shape != NONE {
            if let Some(t) = self
                .templates
                .get_mut(shape as usize)
                .and_then(Option::take)
            {
                let made = self.copied(py, tape, at, &t);
                self.templates[shape as usize] = Some(t);
                return made;
            }
        }
        let dict = PyDict::new(py);
        let mut keys = Vec::new();
        let mut values = Vec::new();
        for _ in 0..n {
            let key = match tape.ops[*at] {
                Op::Named(id) | Op::NewNamed(id, ..) => id,
                _ => NONE,
            };
            let k = self.value(py, tape, at)?;
            let string = matches!(tape.ops[*at], Op::Str(..) | Op::Named(_) | Op::NewNamed(..));
            let v = self.value(py, tape, at)?;
            if key != NONE && string {
                self.keep(py, key, &v);
            }
            if shape != NONE {
                keys.push(k.clone().unbind());
                values.push(v.clone().unbind());
            }
            dict.set_item(k, v)?;
        }
        if shape != NONE {
            put(
                &mut self.templates,
                shape,
                Template {
                    dict: dict.copy()?.unbind(),
                    keys,
                    values,
                },
            );
        }
        Ok(dict)
    }

    /// An object of the shape of `t`, copied from its dict.
    fn copied<'py>(
        &mut self,
        py: Python<'py>,
        tape: &Tape,
        at: &mut usize,
        t: &Template,
    ) -> PyResult<Bound<'py, PyDict>> {
        let dict = t.dict.bind(py).copy()?;
        for (k, kept) in t.keys.iter().zip(&t.values) {
            // The key, which the dict has.
            let key = match tape.ops[*at] {
                Op::Named(id) => {
                    *at += 1;
                    id
                }
                Op::NewNamed(id, ..) => {
                    self.value(py, tape, at)?;
                    id
                }
                _ => {
                    self.value(py, tape, at)?;
                    NONE
                }
            };
            match tape.ops[*at] {
                Op::Slot(s) => {
                    *at += 1;
                    let v = named(&self.slots, s)?;
                    if !v.is(kept) {
                        dict.set_item(k.bind(py), v.bind(py))?;
                    }
                }
                op => {
                    let string = matches!(op, Op::Str(..) | Op::Named(_) | Op::NewNamed(..));
                    let v = self.value(py, tape, at)?;
                    if key != NONE && string {
                        self.keep(py, key, &v);
                    }
                    if !v.is(kept) {
                        dict.set_item(k.bind(py), v)?;
                    }
                }
            }
        }
        Ok(dict)
    }

    /// Keeps `v` as the last string value of `key` ([`Op::Slot`]).
    fn keep(&mut self, py: Python<'_>, key: u32, v: &Bound<'_, PyAny>) {
        let key = key as usize;
        if self.slots.len() <= key {
            self.slots.resize_with(key + 1, || None);
        }
        let slot = &mut self.slots[key];
        if slot.as_ref().is_some_and(|s| s.is(v)) {
            return;
        }
        // Dropped as a Bound: no look at whether this thread holds the GIL.
        if let Some(old) = slot.replace(v.clone().unbind()) {
            drop(old.into_bound(py));
        }
    }
}

/// What a tape names `id`, made before.
fn named<T>(made: &[Option<T>], id: u32) -> PyResult<&T> {
    made.get(id as usize)
        .and_then(Option::as_ref)
        .ok_or_else(|| PyValueError::new_err(format!("dgnkit: a tape names {id}, never made")))
}

fn put<T>(made: &mut Vec<Option<T>>, id: u32, value: T) {
    let id = id as usize;
    if made.len() <= id {
        made.resize_with(id + 1, || None);
    }
    made[id] = Some(value);
}

/// The JSON values of `text`'s lines (blank lines skipped), as Python's
/// `json.loads` reads each; `ValueError` where it is not JSON.
pub fn lines<'py>(py: Python<'py>, text: &[u8]) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let tape = tape::read(text, &mut tape::Names::default())
        .map_err(|f| PyValueError::new_err(format!("dgnkit: {}", f.message(text))))?;
    Builder::default().build(py, &tape)
}
