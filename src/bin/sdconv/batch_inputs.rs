//! `sdconv batch`: which files to convert and where each one's output goes.
//!
//! Inputs are files (taken as named), folders (recursed in name order; hidden entries, the output
//! folder and symbolic links to folders are not followed; `--include`/`--exclude` globs select)
//! and `-` (one path a line on standard input, each a file or a folder). A folder's files keep
//! their place below it in the output folder; a file named directly goes to the output folder's
//! top. Two inputs that would write the same output are caught here, before anything runs.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};
use sdconv::Format;

use crate::Failure;

/// One input file and where its output goes.
#[derive(Debug, Clone)]
pub struct Job {
    /// The input file, as found.
    pub input: PathBuf,
    /// What is renamed into place once the output is complete: the output file, or the
    /// document's folder for formats that write several files (`html`, `markdown`).
    pub target: PathBuf,
    /// The main output file: `target` itself, or the page / text inside the folder.
    pub main: PathBuf,
    /// Why this input cannot be converted before trying (its output collides with another's).
    pub conflict: Option<String>,
}

/// How the output of a format is laid out.
pub struct Layout {
    /// The extension of a single-file output (`docx`, `sdxml.zip`), or `None`: a folder per
    /// document.
    extension: Option<&'static str>,
    to: Format,
}

impl Layout {
    /// The layout for output format `to`.
    pub fn new(to: Format) -> Self {
        let extension = match to {
            // Several files per document: the page with style.css and images/, the text with its
            // images/. Each document gets a folder so two documents' images never mix.
            Format::Html | Format::Markdown => None,
            Format::Sdxml => Some("sdxml.zip"),
            Format::Parsx => Some("parsx.zip"),
            Format::HtmlAllInOne => Some("html"),
            Format::Word => Some("docx"),
            Format::Pdf => Some("pdf"),
            Format::Json => Some("json"),
        };
        Layout { extension, to }
    }

    /// The target and the main file for an input whose output sits at `rel` (relative to the
    /// output folder, still with the input's extension).
    fn place(&self, out_dir: &Path, rel: &Path) -> (PathBuf, PathBuf) {
        let stem = stem(rel);
        let parent = out_dir.join(rel.parent().unwrap_or(Path::new("")));
        match self.extension {
            Some(ext) => {
                let file = parent.join(format!("{stem}.{ext}"));
                (file.clone(), file)
            }
            None => {
                let folder = parent.join(&stem);
                let main = match self.to {
                    Format::Markdown => format!("{stem}.md"),
                    _ => "index.html".to_string(),
                };
                (folder.clone(), folder.join(main))
            }
        }
    }
}

/// The name an output takes from its input: the file name without its extension, and without
/// the format of a `name.sdxml.zip`.
fn stem(rel: &Path) -> String {
    let stem = Path::new(rel.file_stem().unwrap_or_default());
    let zipped_format = rel
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("zip"))
        && Format::from_path(stem).is_some();
    let stem = if zipped_format {
        Path::new(stem.file_stem().unwrap_or_default())
    } else {
        stem
    };
    stem.to_string_lossy().into_owned()
}

/// `--include` / `--exclude`: a pattern without `/` matches a file's name, one with `/` its path
/// below the folder given (`*` stays within one folder there, `**` crosses folders).
pub struct Filter {
    include: Option<(GlobSet, GlobSet)>,
    exclude: (GlobSet, GlobSet),
}

impl Filter {
    /// Compiles the patterns; a malformed one is a usage error naming it.
    pub fn new(include: &[String], exclude: &[String]) -> Result<Self, Failure> {
        Ok(Filter {
            include: if include.is_empty() {
                None
            } else {
                Some(compile(include)?)
            },
            exclude: compile(exclude)?,
        })
    }

    /// Whether a file found below a folder is taken. Without `--include`, the files sdconv can
    /// read are (by extension: Word, sd.xml, Markdown, JSON, and `.zip`, told apart by content).
    fn takes(&self, rel: &Path) -> bool {
        let name = Path::new(rel.file_name().unwrap_or_default());
        let matches =
            |(names, paths): &(GlobSet, GlobSet)| names.is_match(name) || paths.is_match(rel);
        if matches(&self.exclude) {
            return false;
        }
        match &self.include {
            Some(include) => matches(include),
            None => {
                Format::from_path(rel).is_some_and(Format::can_read)
                    || rel
                        .extension()
                        .is_some_and(|e| e.eq_ignore_ascii_case("zip"))
            }
        }
    }
}

/// The patterns matched against names and against paths.
fn compile(patterns: &[String]) -> Result<(GlobSet, GlobSet), Failure> {
    let mut names = GlobSetBuilder::new();
    let mut paths = GlobSetBuilder::new();
    for pattern in patterns {
        let bad = |e: globset::Error| Failure::Usage(format!("bad glob {pattern:?}: {e}"));
        if pattern.contains('/') {
            let glob = GlobBuilder::new(pattern.trim_start_matches("./"))
                .literal_separator(true)
                .build()
                .map_err(bad)?;
            paths.add(glob);
        } else {
            names.add(Glob::new(pattern).map_err(bad)?);
        }
    }
    let build = |b: GlobSetBuilder| {
        b.build()
            .map_err(|e| Failure::Usage(format!("bad glob: {e}")))
    };
    Ok((build(names)?, build(paths)?))
}

/// The inputs as given: `-` replaced by the paths read from standard input.
pub fn expand_stdin(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, Failure> {
    let mut out = Vec::new();
    let mut stdin_read = false;
    for input in inputs {
        if input != Path::new("-") {
            out.push(input.clone());
            continue;
        }
        if stdin_read {
            return Err(Failure::Usage("`-` can be given only once".into()));
        }
        stdin_read = true;
        for line in std::io::stdin().lock().lines() {
            let line =
                line.map_err(|e| Failure::convert("<stdin>", format!("cannot read: {e}")))?;
            // A list made by `find` or typed by hand: blank lines and \r\n endings are no paths.
            let line = line.trim_end_matches('\r');
            if !line.trim().is_empty() {
                out.push(PathBuf::from(line));
            }
        }
    }
    Ok(out)
}

/// Every input file with its output, in a stable order: inputs as given, each folder's files
/// by path.
pub fn plan(inputs: &[PathBuf], out_dir: &Path, filter: &Filter, layout: &Layout) -> Vec<Job> {
    // Never convert what an earlier batch wrote into a folder inside the input.
    let out_canonical = std::fs::canonicalize(out_dir).ok();
    let mut found: Vec<(PathBuf, PathBuf)> = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut files = Vec::new();
            walk(input, Path::new(""), out_canonical.as_deref(), &mut files);
            files.retain(|rel| filter.takes(rel));
            found.extend(files.into_iter().map(|rel| (input.join(&rel), rel)));
        } else {
            // A file named directly is taken as it is (a missing one fails in the report).
            let name = input.file_name().map(PathBuf::from).unwrap_or_default();
            found.push((input.clone(), name));
        }
    }
    let mut owners: BTreeMap<PathBuf, PathBuf> = BTreeMap::new();
    found
        .into_iter()
        .map(|(input, rel)| {
            let (target, main) = layout.place(out_dir, &rel);
            let conflict = match owners.get(&target) {
                Some(first) => Some(format!(
                    "its output {} is already the output of {}",
                    target.display(),
                    first.display()
                )),
                None => {
                    owners.insert(target.clone(), input.clone());
                    None
                }
            };
            Job {
                input,
                target,
                main,
                conflict,
            }
        })
        .collect()
}

/// Collects the files below `root/rel`, sorted by name, skipping hidden entries, `skip` (the
/// output folder) and symbolic links to folders (which could loop).
fn walk(root: &Path, rel: &Path, skip: Option<&Path>, files: &mut Vec<PathBuf>) {
    let dir = root.join(rel);
    if skip.is_some_and(|skip| std::fs::canonicalize(&dir).is_ok_and(|d| d == skip)) {
        return;
    }
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        let Ok(file_type) = entry.file_type() else {
            continue;
        };
        let child = rel.join(&name);
        if file_type.is_dir() {
            walk(root, &child, skip, files);
        } else if file_type.is_file() || (file_type.is_symlink() && entry.path().is_file()) {
            files.push(child);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(include: &[&str], exclude: &[&str]) -> Filter {
        let own = |p: &[&str]| p.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        match Filter::new(&own(include), &own(exclude)) {
            Ok(f) => f,
            Err(_) => panic!("bad pattern in test"),
        }
    }

    #[test]
    fn globs_without_slash_match_names_with_slash_paths() {
        let f = filter(&["a*.docx", "keep/**/*.md"], &["*draft*"]);
        assert!(f.takes(Path::new("x/y/abc.docx")));
        assert!(!f.takes(Path::new("x/y/bc.docx")));
        assert!(!f.takes(Path::new("x/a-draft.docx")));
        assert!(f.takes(Path::new("keep/deep/er/n.md")));
        assert!(!f.takes(Path::new("other/n.md")));
        // `*` in a path pattern stays within one folder.
        let f = filter(&["sub/*.docx"], &[]);
        assert!(f.takes(Path::new("sub/a.docx")));
        assert!(!f.takes(Path::new("sub/deeper/a.docx")));
    }

    #[test]
    fn default_filter_takes_readable_formats() {
        let f = filter(&[], &[]);
        assert!(f.takes(Path::new("a/b.docx")));
        assert!(f.takes(Path::new("b.sdxml.zip")));
        assert!(f.takes(Path::new("c.md")));
        assert!(!f.takes(Path::new("notes.txt")));
        assert!(!f.takes(Path::new("page.html")));
    }

    #[test]
    fn bad_glob_is_a_usage_error() {
        let bad = Filter::new(&["a[".to_string()], &[]);
        assert!(matches!(bad, Err(Failure::Usage(m)) if m.contains("a[")));
    }

    #[test]
    fn layout_names_outputs() {
        let out = Path::new("out");
        let (t, m) = Layout::new(Format::Word).place(out, Path::new("a/b.sdxml"));
        assert_eq!(
            (t.as_path(), m.as_path()),
            (Path::new("out/a/b.docx"), Path::new("out/a/b.docx"))
        );
        let (t, m) = Layout::new(Format::Html).place(out, Path::new("a/b.docx"));
        assert_eq!(t, Path::new("out/a/b"));
        assert_eq!(m, Path::new("out/a/b/index.html"));
        let (_, m) = Layout::new(Format::Markdown).place(out, Path::new("b.docx"));
        assert_eq!(m, Path::new("out/b/b.md"));
        let (t, _) = Layout::new(Format::Sdxml).place(out, Path::new("b.docx"));
        assert_eq!(t, Path::new("out/b.sdxml.zip"));
        let (t, _) = Layout::new(Format::Word).place(out, Path::new("b.sdxml.zip"));
        assert_eq!(t, Path::new("out/b.docx"));
        let (t, _) = Layout::new(Format::Word).place(out, Path::new("b.v2.zip"));
        assert_eq!(t, Path::new("out/b.v2.docx"));
    }
}
