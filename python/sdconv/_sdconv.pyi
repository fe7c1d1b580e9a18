"""Type stubs of the Rust extension module behind :mod:`sdconv` (use the package, not this)."""

from os import PathLike
from typing import Callable, Optional, Union

__version__: str

_Path = Union[str, PathLike[str]]
# (kind, message, part, element, block)
_RawWarning = tuple[str, str, Optional[str], Optional[str], Optional[int]]
# (format, is_text, main file, [(name, bytes)], warnings, title)
_RawResult = tuple[str, bool, bytes, list[tuple[str, bytes]], list[_RawWarning], Optional[str]]

class Error(Exception):
    """Any failure of sdconv: the base of the other exceptions."""

class InvalidInput(Error):
    """The input is not a readable document of its format (not a zip, malformed XML, a
    missing part, a truncated file, …)."""

class InvalidOption(Error):
    """An option is wrong (an unknown style set or routine, a bad style mapping or Word
    settings, an unknown language, …)."""

class LimitExceeded(Error):
    """The input passes one of the engine's limits (a zip bomb, too deep nesting, a huge
    picture)."""

class UnsupportedFormat(Error):
    """A format sdconv does not know, or cannot convert in this direction (PDF input, …)."""

class ConversionFailed(Error):
    """The engine could not finish a conversion for a reason that is not the input's or the
    options' fault."""

class Image:
    """A picture of a document, as ``describe_image`` gets it."""

    @property
    def name(self) -> str:
        """The picture's name in the document."""
    @property
    def data(self) -> bytes:
        """The picture's bytes (PNG, JPEG, …)."""
    @property
    def mime(self) -> str:
        """Its MIME type (``image/png``)."""
    @property
    def width(self) -> Optional[int]:
        """Its width in pixels, when its header tells."""
    @property
    def height(self) -> Optional[int]:
        """Its height in pixels, when its header tells."""
    @property
    def alt(self) -> Optional[str]:
        """The alt text the document gives it, if any."""
    @property
    def caption(self) -> Optional[str]:
        """Its caption, if any."""

class ImportSpec:
    """Reading options, checked once by the engine."""

    def __init__(
        self,
        from_: Optional[str] = None,
        style_mapping: Optional[str] = None,
        magic: Optional[str] = None,
        routines: Optional[list[str]] = None,
        max_size: Optional[int] = None,
    ) -> None: ...

class ExportSpec:
    """Writing options, checked once by the engine."""

    def __init__(
        self,
        to: str,
        images: str = "files",
        language: Optional[str] = None,
        settings: Optional[str] = None,
        template: Optional[str] = None,
        track_changes: str = "all",
        comments: Optional[bool] = None,
        paper: str = "a4",
        tables: str = "auto",
        headers_footers: bool = False,
        page_breaks: Optional[str] = None,
        pdf_standard: Optional[str] = None,
        hyphenate: bool = False,
    ) -> None: ...
    @property
    def to(self) -> str:
        """The output format's name."""

class RawDocument:
    """A document read once."""

    def export(
        self, spec: ExportSpec, describe_image: Optional[Callable[[Image], Optional[str]]] = None
    ) -> _RawResult:
        """Writes the document as ``spec`` asks."""
    def to_json(self) -> str:
        """The tree's JSON dump."""
    def metadata_json(self) -> str:
        """The metadata as JSON."""
    def warnings(self) -> list[_RawWarning]:
        """The reader's warnings."""
    def counts(self) -> dict[str, int]:
        """How many blocks of each kind the document has."""
    def images(self) -> list[Image]:
        """The pictures the document shows."""

def read(spec: ImportSpec, data: Optional[bytes] = None, path: Optional[_Path] = None) -> RawDocument:
    """Reads a document from ``data`` or the file at ``path``."""

def convert(
    import_spec: ImportSpec,
    export_spec: ExportSpec,
    data: Optional[bytes] = None,
    path: Optional[_Path] = None,
    describe_image: Optional[Callable[[Image], Optional[str]]] = None,
) -> _RawResult:
    """Reads and writes a document in one call."""

def convert_many(
    import_spec: ImportSpec,
    export_spec: ExportSpec,
    sources: list[tuple[Optional[bytes], Optional[_Path]]],
    workers: Optional[int] = None,
) -> list[Union[_RawResult, BaseException]]:
    """Converts many documents in parallel; failures come back as exception values."""

def formats() -> list[tuple[str, bool, bool]]:
    """The formats: ``(name, can_read, can_write)``."""

def register_fonts(data: Optional[bytes] = None, path: Optional[_Path] = None) -> int:
    """Registers a font's bytes, a font file or a folder's font files; the faces added."""
