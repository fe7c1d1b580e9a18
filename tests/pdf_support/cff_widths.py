"""Cross-checks the glyph widths of every CID-keyed CFF font (CIDFontType0C) in a PDF: the
width each glyph's charstring gives (read with fontTools, through the font's FDSelect and each
font dictionary's own nominal and default widths) against the PDF font's /W and /DW.

Usage: python cff_widths.py QDF_PDF  (a PDF rewritten by `qpdf --qdf --object-streams=disable`,
so every object stands alone and every stream is uncompressed). Prints one line per glyph whose
widths differ, then `checked N glyphs in M fonts`; exits 1 if any differ.

tests/pdf_export.rs runs it when the validator `page` reports a glyph width mismatch in such a
font: the validator reads per-FD widths wrongly in fonts with several font dictionaries (fontTools
and poppler agree with the writer there)."""
import io
import re
import sys

from fontTools.cffLib import CFFFontSet
from fontTools.misc.psCharStrings import T2WidthExtractor

pdf = open(sys.argv[1], "rb").read()


def obj(num):
    m = re.search(rb"\n%d 0 obj\n(.*?)\nendobj" % num, pdf, re.S)
    if not m:
        sys.exit(f"object {num} not found")
    return m.group(1)


def widths_of(font):
    """CID -> width from /W (both forms) and /DW."""
    dw = re.search(rb"/DW (\d+(?:\.\d+)?)", font)
    default = float(dw.group(1)) if dw else 1000.0
    m = re.search(rb"/W \[(.*?)\n  \]", font, re.S)
    nums = re.findall(rb"\[|\]|-?\d+(?:\.\d+)?", m.group(1)) if m else []
    out, i = {}, 0
    while i < len(nums):
        first = int(nums[i])
        if nums[i + 1] == b"[":
            j = i + 2
            while nums[j] != b"]":
                out[first + j - i - 2] = float(nums[j])
                j += 1
            i = j + 1
        else:
            for c in range(first, int(nums[i + 1]) + 1):
                out[c] = float(nums[i + 2])
            i += 3
    return out, default


bad, glyphs, fonts = 0, 0, 0
for m in re.finditer(rb"\n(\d+) 0 obj\n(<<(?:(?!endobj).)*?/Subtype /CIDFontType0\n.*?)\nendobj", pdf, re.S):
    font = m.group(2)
    desc = obj(int(re.search(rb"/FontDescriptor (\d+) 0 R", font).group(1)))
    ref = re.search(rb"/FontFile3 (\d+) 0 R", desc)
    if not ref:
        continue
    stream = re.search(rb"stream\n(.*)\nendstream", obj(int(ref.group(1))), re.S).group(1)
    cff = CFFFontSet()
    cff.decompile(io.BytesIO(stream), None)
    top = cff[cff.fontNames[0]]
    declared, default = widths_of(font)
    fonts += 1
    for gid, name in enumerate(top.charset):
        cid = int(name[3:]) if name.startswith("cid") else gid
        fd = top.FDArray[top.FDSelect[gid] if top.FDSelect is not None else 0].Private
        cs = top.CharStrings[name]
        cs.decompile()
        ex = T2WidthExtractor(getattr(fd, "Subrs", []), [], fd.nominalWidthX, fd.defaultWidthX)
        ex.execute(cs)
        want = declared.get(cid, default)
        glyphs += 1
        if abs(ex.width - want) > 1.0:
            bad += 1
            print(f"{cff.fontNames[0]}: CID {cid} is {ex.width} wide in the program, {want} in /W")
print(f"checked {glyphs} glyphs in {fonts} fonts")
sys.exit(1 if bad or not fonts else 0)
