// Shared by the tests: where the corpus and the native CLI are, and a small zip writer for
// hostile inputs made on the spot.

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import zlib from 'node:zlib';

export const jsDir = dirname(dirname(fileURLToPath(import.meta.url)));
export const repo = dirname(jsDir);
/** The shared corpus beside the checkout (`../shared`), or SDCONV_SHARED. */
export const shared = process.env.SDCONV_SHARED ?? join(dirname(repo), 'shared');
export const corpus = join(shared, 'corpus');
export const haveCorpus = existsSync(corpus);
/** Why corpus tests skip, printed by node --test. */
export const noCorpus = haveCorpus ? false : `no corpus at ${corpus} (set SDCONV_SHARED)`;

/** The native command line to compare with: SDCONV_CLI, else a release or debug build. */
export const cli = [
  process.env.SDCONV_CLI,
  join(repo, 'target/release/sdconv'),
  join(repo, 'target/debug/sdconv'),
].find((p) => p && existsSync(p));

export const sample = join(repo, 'samples/sample.docx');

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 of the zip format (zlib.crc32 is missing before Node 20.15). */
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * A zip of `entries` (`[name, bytes, deflate?]`), as small as the format allows: enough to make
 * Word files with a given part, or a bomb.
 */
export function zip(entries) {
  const locals = [];
  const central = [];
  let offset = 0;
  for (const [name, content, deflate] of entries) {
    const data = Buffer.from(content);
    const stored = deflate ? zlib.deflateRawSync(data) : data;
    const nameBytes = Buffer.from(name);
    const crc = crc32(data);
    // The local header and the central directory entry share a run of fields (version needed,
    // flags, method, time, date, CRC, sizes, name length), at offset 4 and 6.
    const shared = (buffer, at) => {
      buffer.writeUInt16LE(20, at);
      buffer.writeUInt16LE(deflate ? 8 : 0, at + 4);
      buffer.writeUInt32LE(crc, at + 10);
      buffer.writeUInt32LE(stored.length, at + 14);
      buffer.writeUInt32LE(data.length, at + 18);
      buffer.writeUInt16LE(nameBytes.length, at + 22);
    };
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    shared(header, 4);
    locals.push(header, nameBytes, stored);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    shared(entry, 6);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, nameBytes);
    offset += 30 + nameBytes.length + stored.length;
  }
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, dir, end]));
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
</Types>`;
const RELS = `<?xml version="1.0" encoding="UTF-8"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
</Relationships>`;

/** A minimal Word file whose main part is `documentXml` (deflated when `deflate`). */
export function docx(documentXml, deflate = true) {
  return zip([
    ['[Content_Types].xml', CONTENT_TYPES, true],
    ['_rels/.rels', RELS, true],
    ['word/document.xml', documentXml, deflate],
  ]);
}

/** A Word body holding `xml`. */
export function body(xml) {
  return `<?xml version="1.0" encoding="UTF-8"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${xml}</w:body></w:document>`;
}

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
