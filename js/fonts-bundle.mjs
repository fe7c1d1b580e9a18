// Packs the engine's bundled fonts (templates/pdf/fonts/*.ttf) into wasm/sdconv_fonts.bin, the
// file the package loads on the first export that needs them (js/build.sh runs this). Layout,
// read by `provideFonts` in js/src/fonts.rs: `SDCFONT1`, a u32 count, then for each file a u16
// name length, the name, a u32 data length and the data (little-endian).

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [dir, out] = process.argv.slice(2);
const names = readdirSync(dir).filter((n) => n.endsWith('.ttf')).sort();
const parts = [Buffer.from('SDCFONT1'), u32(names.length)];
for (const name of names) {
  const data = readFileSync(join(dir, name));
  const nameBytes = Buffer.from(name);
  const len = Buffer.alloc(2);
  len.writeUInt16LE(nameBytes.length);
  parts.push(len, nameBytes, u32(data.length), data);
}
writeFileSync(out, Buffer.concat(parts));

function u32(n) {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}
