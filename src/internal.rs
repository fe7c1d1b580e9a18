//! Plumbing that the project's own command line, tests, benches and fuzz targets reach into:
//! the zip layer, the sample documents, the XML helpers and the sd.xml extension markers. Not
//! part of the public face: it may change with any release.

/// The zip layer (reading and writing archives, raw entries).
pub mod archive {
    pub use crate::archive::*;
}

/// Generated sample documents and pictures.
pub mod sample {
    pub use crate::sample::*;
}

/// The streaming XML reader and escaping helpers.
pub mod xml {
    pub use crate::xml::*;
}

/// The sd.xml extension processing instructions.
pub mod sdxml_ext {
    pub use crate::sdxml_ext::*;
}
