//! Images: `![alt](images/name)` with the caption on the line under it as the HTML shows it
//! (`*Figure 3: caption*`, one paragraph with the image, which the reader takes back as the
//! caption), an inline image's caption as its title; and the files they refer to, named
//! uniquely, or put into the text as `data:` URIs ([`inline_pictures`]).

use std::collections::{HashMap, HashSet};

use base64::Engine as _;
use bytes::Bytes;

use super::links::destination;
use super::render::Render;
use super::{Ctx, Writer};
use crate::ast::numbering::BlockNumber;
use crate::ast::{Align, Image};
use crate::report::WarningKind;

impl Writer<'_> {
    pub(super) fn image_lines(&mut self, img: &Image, n: &BlockNumber) -> Vec<String> {
        if img.width_percent.is_some() || img.extent.is_some() || img.align != Align::Left {
            self.warn_once(
                "image-size",
                WarningKind::Lossy,
                "image width, size and alignment are not written",
            );
        }
        let mut r = Render::new(Ctx::Para);
        self.image(&mut r, &img.media, img.alt.as_deref(), None);
        let mut lines = vec![r.finish()];
        let figure = self.lang.figure();
        if let Some(caption) = caption_text(figure, img.caption.as_deref(), n.caption) {
            // Emphasis cannot start or end at white space; the caption's edges are not text.
            let mut r = Render::new(Ctx::Para);
            r.raw("*");
            r.text(caption.trim());
            r.raw("*");
            lines.push(r.finish());
        }
        lines
    }

    pub(super) fn image(
        &mut self,
        r: &mut Render,
        media: &str,
        alt: Option<&str>,
        caption: Option<&str>,
    ) {
        let path = self.image_path(media);
        r.raw("![");
        // The reader trims alt text (white space at its edges is not part of the description):
        // trimmed here too, the text reads back as written.
        if let Some(alt) = alt.map(str::trim) {
            r.text(alt);
        }
        r.raw("](");
        r.raw(&destination(&path));
        if let Some(c) = caption.filter(|c| !c.is_empty()) {
            r.raw(" \"");
            let mut escaped = String::new();
            for ch in c.chars() {
                match ch {
                    // `|` too: in a table cell it would end the cell even inside a title.
                    '"' | '\\' | '|' => {
                        escaped.push('\\');
                        escaped.push(ch);
                    }
                    '&' => escaped.push_str("\\&"),
                    '\n' | '\r' => escaped.push(' '),
                    _ => escaped.push(ch),
                }
            }
            r.raw(&escaped);
            r.raw("\"");
        }
        r.raw(")");
    }

    /// `images/<file>` for media `name`, registering the bytes for [`super::MarkdownOutput::files`].
    pub(super) fn image_path(&mut self, media: &str) -> String {
        if let Some(name) = self.image_names.get(media) {
            return format!("images/{name}");
        }
        let name = unique_file_name(media, &mut self.taken);
        match self.doc.media.get(media) {
            // Read when the files are written, in parallel (a broken one is warned there).
            Some(item) => {
                self.files.insert(format!("images/{name}"), item.clone());
            }
            None => self.warn(
                WarningKind::MissingMedia,
                format!("image {media:?} is not in the media store; referenced without a file"),
            ),
        }
        self.image_names.insert(media.to_string(), name.clone());
        format!("images/{name}")
    }
}

/// A caption as the HTML shows it: `Figure 3: text`, `Figure 3` for a numbered caption with
/// no text, the text alone when unnumbered; `None` when there is nothing to show. `word` is
/// the localised `Figure` or `Table`.
pub(super) fn caption_text(
    word: &str,
    caption: Option<&str>,
    number: Option<u32>,
) -> Option<String> {
    let caption = caption?;
    match number {
        Some(n) if caption.trim().is_empty() => Some(format!("{word} {n}")),
        Some(n) => Some(format!("{word} {n}: {caption}")),
        None if caption.trim().is_empty() => None,
        None => Some(caption.to_string()),
    }
}

/// A file name safe to write next to the Markdown, unique ignoring case.
fn unique_file_name(media: &str, taken: &mut HashSet<String>) -> String {
    let base: String = media
        .rsplit(['/', '\\'])
        .next()
        .unwrap_or("")
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let base = if base.is_empty() || base.chars().all(|c| c == '.') {
        "image".to_string()
    } else {
        base
    };
    let (stem, ext) = match base.rfind('.') {
        Some(i) if i > 0 => (&base[..i], &base[i..]),
        _ => (base.as_str(), ""),
    };
    let mut candidate = base.clone();
    let mut n = 2u32;
    while !taken.insert(candidate.to_lowercase()) {
        candidate = format!("{stem}-{n}{ext}");
        n += 1;
    }
    candidate
}

/// `text` with each `](images/<name>` the writer made pointing at a `data:` URI of that
/// picture instead; `pictures` holds each file's MIME type and bytes by its name
/// (`images/a.png`). The writer names picture files with letters, digits, `.`, `-` and `_` only
/// ([`unique_file_name`]), so a destination is written as it is and ends at the first other
/// character, which must be the `)` or the space before a title that the writer puts there:
/// anything else is not a reference the writer made and stays as it is. The base64 goes
/// straight into the text, no copy of it in between.
pub(super) fn inline_pictures(text: &str, pictures: &HashMap<&str, (&str, &Bytes)>) -> String {
    const OPEN: &str = "](images/";
    let room: usize = pictures.values().map(|(_, b)| b.len() * 4 / 3 + 32).sum();
    let mut out = String::with_capacity(text.len() + room);
    let mut rest = text;
    while let Some(at) = rest.find(OPEN) {
        let start = at + "](".len();
        let after = &rest[start + "images/".len()..];
        let len = after
            .find(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '-' | '_')))
            .unwrap_or(after.len());
        let name = &rest[start..start + "images/".len() + len];
        let ends_destination = matches!(after[len..].chars().next(), Some(')' | ' '));
        out.push_str(&rest[..start]);
        match pictures.get(name) {
            Some((mime, bytes)) if ends_destination => {
                out.push_str("data:");
                out.push_str(mime);
                out.push_str(";base64,");
                base64::engine::general_purpose::STANDARD.encode_string(bytes, &mut out);
                rest = &rest[start + name.len()..];
            }
            _ => rest = &rest[start..],
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_writers_references_to_known_files_become_data_uris() {
        let png = Bytes::from_static(b"\x89PNG");
        let pictures = HashMap::from([("images/a.png", ("image/png", &png))]);
        let text = "![a](images/a.png \"cap\") ![b](images/a.png) images/a.png \
                    ![c](images/unknown.png) ![d](images/a.png%20x) ![e](images/a.png";
        assert_eq!(
            inline_pictures(text, &pictures),
            "![a](data:image/png;base64,iVBORw== \"cap\") ![b](data:image/png;base64,iVBORw==) \
             images/a.png ![c](images/unknown.png) ![d](images/a.png%20x) ![e](images/a.png"
        );
        assert_eq!(
            inline_pictures("no pictures", &HashMap::new()),
            "no pictures"
        );
    }
}
