//! `StrategyFile`: a strategy file of any kind, opened (memory-mapped and checked) by the
//! library's one opener, its header as a dict.

use crate::{json_to_py, stud_error};
use pyo3::prelude::*;
use solver::strategy_file::StrategyFile as File;
use std::path::{Path, PathBuf};

/// A strategy file: heads-up public tree (Kuhn, Leduc, the walkable stud games), heads-up
/// betting tree (the real games), or multiway (three seats or more). Opening maps the file and
/// checks every byte against its checksums, as every command does.
#[pyclass(frozen, module = "stud._stud")]
pub struct StrategyFile {
    /// The opened file.
    pub(crate) file: File,
    /// Where it was opened from.
    path: PathBuf,
}

#[pymethods]
impl StrategyFile {
    /// Opens the strategy file at `path`.
    #[new]
    fn new(py: Python<'_>, path: PathBuf) -> PyResult<StrategyFile> {
        let file = py
            .detach(|| File::open(Path::new(&path)))
            .map_err(stud_error)?;
        Ok(StrategyFile { file, path })
    }

    /// `public`, `betting` or `multiway`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.file {
            File::Public(_) => "public",
            File::Betting(_) => "betting",
            File::Multiway(_) => "multiway",
        }
    }

    /// The path it was opened from.
    #[getter]
    fn path(&self) -> &Path {
        &self.path
    }

    /// The header as a dict: the game, the abstractions, the algorithm, the iterations, the
    /// exploitability measured when it was written, the sizes, plus `kind`.
    #[getter]
    fn header<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = match &self.file {
            File::Multiway(f) => serde_json::to_value(&f.header),
            other => serde_json::to_value(other.header()),
        };
        let mut v = v.map_err(|e| stud_error(e.into()))?;
        // The file stores the game as JSON text: the dict holds it as a dict.
        v["game"] = serde_json::to_value(self.file.game()).map_err(|e| stud_error(e.into()))?;
        v["kind"] = self.kind().into();
        json_to_py(py, &v)
    }

    /// The game the file was solved for, as a dict.
    #[getter]
    fn game<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v = serde_json::to_value(self.file.game()).map_err(|e| stud_error(e.into()))?;
        json_to_py(py, &v)
    }

    /// The byte ranges `(start, end)` in the file of a heads-up tree file's sections, numbered
    /// as solver/src/strategy_file.rs documents them (0 nodes, 1 edges, 2 bucket tables,
    /// 3 buckets per street, 4 stored probabilities): what `stud.arrays` maps with numpy.
    fn section_ranges(&self) -> PyResult<Vec<(usize, usize)>> {
        let ranges = |f: &dyn Fn(usize) -> anyhow::Result<std::ops::Range<usize>>| {
            (0..5)
                .map(|i| f(i).map(|r| (r.start, r.end)))
                .collect::<anyhow::Result<Vec<_>>>()
        };
        match &self.file {
            File::Public(f) => ranges(&|i| f.section_range(i)),
            File::Betting(f) => ranges(&|i| f.section_range(i)),
            File::Multiway(_) => Err(anyhow::anyhow!(
                "{}: a multiway file has its own layout; the arrays are of heads-up tree files",
                self.path.display()
            )),
        }
        .map_err(stud_error)
    }

    fn __repr__(&self) -> String {
        format!("StrategyFile({:?}, kind={:?})", self.path, self.kind())
    }
}
