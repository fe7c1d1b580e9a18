//! What sdconv's Word reader and Word writer agree on beyond ECMA-376: the marks a document
//! written by sdconv carries so that reading it back restores what was written, and the
//! measures both sides compute the same way. Neither side owns them, so neither depends on the
//! other.

/// Indentation step of `indent` (0-15) in twips (0.25 in).
pub(crate) const INDENT_STEP_TWIPS: u32 = 360;

/// The `w:tag` of the content control around a page header taken from the template (the title
/// line), so a reader can tell it from a header the document itself had.
pub(crate) const TEMPLATE_HEADER_TAG: &str = "sdconv:template-header";

/// The `w:tag` prefix of the content control carrying a code block's language.
pub(crate) const CODE_LANGUAGE_TAG: &str = "sdconv:code-language=";

/// Left plus right cell margin of the table styles, twips. The reader measures pictures in a
/// cell against the same inner width the writer gives them.
pub(crate) const CELL_MARGINS: u32 = 216;

/// The narrowest inner width a cell's content is given, twips (half an inch).
pub(crate) const MIN_CELL_TEXT: u32 = 720;

/// The WordprocessingML main namespace.
pub(crate) const W: &str = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
/// The relationships namespace of `r:id` attributes.
pub(crate) const R: &str = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";
/// The XML declaration Word writes at the top of a part.
pub(crate) const XML_DECL: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n";
