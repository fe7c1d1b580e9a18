"""markitdown-sdconv: a markitdown plugin that converts Word (.docx) files with sdconv.

Installed beside markitdown, it is used by ``MarkItDown(enable_plugins=True)``; markitdown finds
it through the ``markitdown.plugin`` entry point and calls :func:`register_converters`.
"""

from ._plugin import (
    ACCEPTED_FILE_EXTENSIONS,
    ACCEPTED_MIME_TYPE_PREFIXES,
    PRIORITY,
    SdconvDocxConverter,
    SdconvResult,
    __plugin_interface_version__,
    register_converters,
)

__version__ = "0.1.0"

__all__ = [
    "ACCEPTED_FILE_EXTENSIONS",
    "ACCEPTED_MIME_TYPE_PREFIXES",
    "PRIORITY",
    "SdconvDocxConverter",
    "SdconvResult",
    "__plugin_interface_version__",
    "register_converters",
]
