// Paired benchmark in Node: large.docx → HTML with sdconv (this package) and mammoth 1.13, one
// after the other in each round, so both see the same machine state. Pictures are inlined as
// data URIs by both (mammoth's default). Usage: node bench/node.mjs [file.docx] [rounds]

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import mammoth from 'mammoth';
import { convert, init } from '../node.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const file = process.argv[2] ?? join(here, '../../../shared/bench/large.docx');
const rounds = Number(process.argv[3] ?? 5);
const bytes = new Uint8Array(readFileSync(file));

await init();
// One warm-up each: compilation, first-use tables.
await convert(bytes, 'html', { images: 'inline' });
await mammoth.convertToHtml({ buffer: Buffer.from(bytes) });

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const times = { sdconv: [], mammoth: [] };
for (let i = 0; i < rounds; i++) {
  let t = performance.now();
  const ours = await convert(bytes, 'html', { images: 'inline' });
  times.sdconv.push(performance.now() - t);
  t = performance.now();
  const theirs = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) });
  times.mammoth.push(performance.now() - t);
  if (i === 0) {
    console.log(`output: sdconv ${ours.text.length} chars, mammoth ${theirs.value.length} chars`);
  }
}
const s = median(times.sdconv);
const m = median(times.mammoth);
console.log(`${file} (${bytes.length} bytes), ${rounds} rounds, medians:`);
console.log(`  sdconv  ${s.toFixed(0)} ms`);
console.log(`  mammoth ${m.toFixed(0)} ms`);
console.log(`  sdconv is ${(m / s).toFixed(1)}× faster`);
