//! `sdconv convert`: read, import, export, write; warnings to stderr.

use std::io::Write;
use std::path::Path;

use sdconv::{ExportOptions, Format, ImportOptions, Warning};

use crate::detect::{input_format, output_format, read_input};
use crate::{Failure, WarningStyle};

/// Converts `input` to `to` (or the format `output`'s name implies).
pub fn run(
    input_path: &Path,
    output: Option<&Path>,
    from: Option<Format>,
    to: Option<Format>,
    style: WarningStyle,
) -> Result<(), Failure> {
    // Settle the command line before touching any file.
    let to = output_format(to, output)?;
    let input = read_input(input_path)?;
    let from = input_format(&input, from, input_path)?;

    let imported = sdconv::import(from, &input.bytes, &ImportOptions::default())
        .map_err(|e| Failure::convert(&input.name, e))?;
    let mut warnings = imported.warnings;
    let exported = sdconv::export(&imported.value, to, &ExportOptions::default());
    // Warnings gathered so far are worth seeing even when the export then fails.
    let exported = match exported {
        Ok(out) => out,
        Err(e) => {
            print_warnings(&warnings, style);
            return Err(Failure::convert(&input.name, e));
        }
    };
    warnings.extend(exported.warnings);
    print_warnings(&warnings, style);
    write_output(output, &exported.value)
}

/// Prints warnings on stderr: one line each, or one JSON array (`[]` when there are none, so a
/// script can always parse it).
pub fn print_warnings(warnings: &[Warning], style: WarningStyle) {
    match style {
        WarningStyle::Text => {
            for w in warnings {
                eprintln!("warning: {w}");
            }
        }
        WarningStyle::Json => {
            // Serialising plain strings and enums cannot fail.
            let json = serde_json::to_string(warnings).unwrap_or_else(|_| "[]".into());
            eprintln!("{json}");
        }
    }
}

/// Writes the result to `output`, or to standard output for `None` and `-`. The result exists
/// whole in memory before this runs, so a failed conversion never truncates an existing file.
fn write_output(output: Option<&Path>, bytes: &[u8]) -> Result<(), Failure> {
    match output.filter(|p| *p != Path::new("-")) {
        Some(path) => std::fs::write(path, bytes).map_err(|e| {
            Failure::convert(path.display().to_string(), format!("cannot write: {e}"))
        }),
        None => {
            let mut stdout = std::io::stdout().lock();
            match stdout.write_all(bytes).and_then(|()| stdout.flush()) {
                Ok(()) => Ok(()),
                // The reader went away (`sdconv … | head`): nothing left to do, not a failure.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
                Err(e) => Err(Failure::convert("<stdout>", format!("cannot write: {e}"))),
            }
        }
    }
}
