//! The PDF standards the writer can be asked to meet (PDF/UA-1 for accessibility, PDF/A-2 and
//! PDF/A-3 for archiving), how each is asked of krilla, and the reasons a document cannot meet
//! one, in plain words.
//!
//! krilla writes what a standard requires that does not depend on the document (identification
//! in the XMP metadata, an output intent with an sRGB ICC profile for PDF/A, `DisplayDocTitle`
//! and `Suspects` for PDF/UA) and validates what does, refusing the file when something is
//! missing. The writer checks the document first for what it can name better than krilla (a
//! character without a glyph, a picture without a description) and turns krilla's findings
//! into the same kind of reasons, so a caller gets [`crate::Error::Nonconforming`] naming every
//! problem instead of a PDF that claims what it is not.

use krilla::configure::{Configuration, ValidationError, Validator};

/// A standard the PDF must conform to. Every PDF the writer makes is tagged (it has a
/// structure tree); these add the standard's identification and checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum PdfStandard {
    /// Tagged PDF 1.7, no standard claimed (the default).
    #[default]
    None,
    /// PDF/UA-1 (ISO 14289-1): accessible.
    Ua1,
    /// PDF/A-2b (ISO 19005-2, basic): archivable, looks the same everywhere.
    A2b,
    /// PDF/A-2u: PDF/A-2b with every character mapped to Unicode.
    A2u,
    /// PDF/A-3b (ISO 19005-3, basic).
    A3b,
    /// PDF/A-2b and PDF/UA-1 at once.
    A2bUa1,
}

impl PdfStandard {
    /// Every standard, in the CLI's order.
    pub const ALL: [PdfStandard; 6] = [
        PdfStandard::None,
        PdfStandard::Ua1,
        PdfStandard::A2b,
        PdfStandard::A2u,
        PdfStandard::A3b,
        PdfStandard::A2bUa1,
    ];

    /// The CLI's spelling (`none`, `ua1`, `a2b`, `a2u`, `a3b`, `a2b+ua1`).
    pub fn as_str(self) -> &'static str {
        match self {
            PdfStandard::None => "none",
            PdfStandard::Ua1 => "ua1",
            PdfStandard::A2b => "a2b",
            PdfStandard::A2u => "a2u",
            PdfStandard::A3b => "a3b",
            PdfStandard::A2bUa1 => "a2b+ua1",
        }
    }

    /// The standard's own name (`PDF/A-2b`, `PDF/A-2b and PDF/UA-1`).
    pub fn name(self) -> &'static str {
        match self {
            PdfStandard::None => "tagged PDF",
            PdfStandard::Ua1 => "PDF/UA-1",
            PdfStandard::A2b => "PDF/A-2b",
            PdfStandard::A2u => "PDF/A-2u",
            PdfStandard::A3b => "PDF/A-3b",
            PdfStandard::A2bUa1 => "PDF/A-2b and PDF/UA-1",
        }
    }

    /// Parses the CLI's spelling, case-insensitively.
    pub fn parse(s: &str) -> Option<PdfStandard> {
        let s = s.trim().to_ascii_lowercase();
        PdfStandard::ALL.into_iter().find(|p| p.as_str() == s)
    }

    /// Whether PDF/UA-1 is asked for.
    pub fn accessible(self) -> bool {
        matches!(self, PdfStandard::Ua1 | PdfStandard::A2bUa1)
    }

    /// Whether a PDF/A part is asked for (which needs a document date).
    pub fn archival(self) -> bool {
        matches!(
            self,
            PdfStandard::A2b | PdfStandard::A2u | PdfStandard::A3b | PdfStandard::A2bUa1
        )
    }

    /// krilla's configuration: its validators (which also make it write the identification)
    /// and PDF 1.7, which every one of these allows.
    pub(crate) fn configuration(self) -> Configuration {
        use krilla::configure::{Accessibility, Archival};
        let validators: &[Validator] = match self {
            PdfStandard::None => &[],
            PdfStandard::Ua1 => &[Validator::Ua(Accessibility::UA1)],
            PdfStandard::A2b => &[Validator::A(Archival::A2_B)],
            PdfStandard::A2u => &[Validator::A(Archival::A2_U)],
            PdfStandard::A3b => &[Validator::A(Archival::A3_B)],
            PdfStandard::A2bUa1 => &[
                Validator::A(Archival::A2_B),
                Validator::Ua(Accessibility::UA1),
            ],
        };
        let mut builder = krilla::configure::ConfigurationBuilder::new();
        for v in validators {
            builder = builder.set_validator(*v);
        }
        // The validators above all allow PDF 1.7; should a combination ever not, the default
        // configuration (tagged PDF 1.7) is written and krilla's validation is skipped, which
        // the tests would catch.
        builder.finish().unwrap_or_default()
    }
}

impl std::str::FromStr for PdfStandard {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PdfStandard::parse(s).ok_or_else(|| {
            let all: Vec<&str> = PdfStandard::ALL.iter().map(|p| p.as_str()).collect();
            format!("unknown PDF standard {s:?} (one of {})", all.join(", "))
        })
    }
}

impl std::fmt::Display for PdfStandard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One of krilla's validation findings in plain words.
pub(crate) fn reason(e: &ValidationError) -> String {
    match e {
        ValidationError::TooLongString => "a text is longer than 32,767 characters".into(),
        ValidationError::TooLongName => "a name is longer than 127 bytes".into(),
        ValidationError::TooLongArray | ValidationError::TooLongDictionary => {
            "the document has more items in one list than the standard allows".into()
        }
        ValidationError::TooLargeFloat => "a number is too large for the standard".into(),
        ValidationError::TooManyIndirectObjects => {
            "the document has more objects than the standard allows".into()
        }
        ValidationError::TooHighQNestingLevel => "drawing is nested too deeply".into(),
        ValidationError::ContainsPostScript(_) => "the document contains PostScript".into(),
        ValidationError::MissingCMYKProfile => {
            "a CMYK picture has no colour profile (convert it to RGB)".into()
        }
        ValidationError::InconsistentSeparationFallback(_) => {
            "a spot colour is used with two different fallbacks".into()
        }
        ValidationError::ContainsNotDefGlyph(_, _, text) => {
            format!("the text {text:?} has a character no font has a glyph for")
        }
        ValidationError::NoCodepointMapping(_, g, _) => {
            format!("glyph {} cannot be mapped back to a character", g.to_u32())
        }
        ValidationError::InvalidCodepointMapping(_, g, c, _)
        | ValidationError::UnicodePrivateArea(_, g, c, _) => format!(
            "glyph {} stands for U+{:04X}, which is not a character a reader can use",
            g.to_u32(),
            *c as u32
        ),
        ValidationError::RestrictedLicense(_) => {
            "a font's licence does not allow embedding it".into()
        }
        ValidationError::NoDocumentLanguage => "the document has no language".into(),
        ValidationError::NoDocumentTitle => "the document has no title".into(),
        ValidationError::MissingAltText(_) => "a picture or formula has no description".into(),
        ValidationError::MissingHeadingTitle => "a heading has no text".into(),
        ValidationError::MissingDocumentOutline => "the document has no outline".into(),
        ValidationError::MissingAnnotationAltText(_) => "a link has no description".into(),
        ValidationError::MissingDocumentDate => "the document has no date".into(),
        ValidationError::Transparency(_) => "the document uses transparency".into(),
        ValidationError::ImageInterpolation(_) => "a picture asks for interpolation".into(),
        ValidationError::EmbeddedFile(..) => {
            "an embedded file lacks what the standard requires".into()
        }
        ValidationError::MissingTagging => "the document is not tagged".into(),
        ValidationError::EmbeddedPDF(_) => "the document embeds another PDF".into(),
        ValidationError::RequiresNewerPdfVersion(..) => {
            "a feature needs a newer PDF version than the standard allows".into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_round_trip() {
        for s in PdfStandard::ALL {
            assert_eq!(PdfStandard::parse(s.as_str()), Some(s));
            assert_eq!(s.as_str().parse::<PdfStandard>(), Ok(s));
            // Every one is a configuration krilla accepts.
            let c = s.configuration();
            assert_eq!(c.validators().is_empty(), s == PdfStandard::None, "{s}");
        }
        assert_eq!(PdfStandard::parse("A2B+UA1"), Some(PdfStandard::A2bUa1));
        assert!("a4".parse::<PdfStandard>().is_err());
        assert!(PdfStandard::A2bUa1.accessible() && PdfStandard::A2bUa1.archival());
        assert!(!PdfStandard::Ua1.archival());
    }
}
