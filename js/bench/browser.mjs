// Paired benchmark in Chromium (Debian's, driven by playwright-core): large.docx → HTML with
// this package and with mammoth's browser build (mammoth.browser.min.js from npm's mammoth
// 1.13), alternating in one page, pictures inlined as data URIs by both.
// Usage: node bench/browser.mjs [file.docx] [rounds]

import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const js = fileURLToPath(new URL('..', import.meta.url));
const file = process.argv[2] ?? join(js, '../../shared/bench/large.docx');
const rounds = Number(process.argv[3] ?? 5);

const PAGE = `<!doctype html><meta charset="utf-8">
<script src="/mammoth.browser.min.js"></script>
<script type="module">
import { convert, init } from '/pkg/index.js';
const bytes = new Uint8Array(await (await fetch('/input.docx')).arrayBuffer());
await init();
await convert(bytes, 'html', { images: 'inline' });
await mammoth.convertToHtml({ arrayBuffer: bytes.slice().buffer });
const times = { sdconv: [], mammoth: [] };
for (let i = 0; i < ${rounds}; i++) {
  let t = performance.now();
  await convert(bytes, 'html', { images: 'inline' });
  times.sdconv.push(performance.now() - t);
  t = performance.now();
  await mammoth.convertToHtml({ arrayBuffer: bytes.slice().buffer });
  times.mammoth.push(performance.now() - t);
}
window.times = times;
</script>`;

const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm' };
const server = createServer((req, res) => {
  const path = new URL(req.url, 'http://127.0.0.1').pathname;
  try {
    if (path === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (path === '/input.docx') return res.writeHead(200).end(readFileSync(file));
    if (path === '/mammoth.browser.min.js') {
      return res.writeHead(200, { 'content-type': 'text/javascript' })
        .end(readFileSync(join(js, 'node_modules/mammoth/mammoth.browser.min.js')));
    }
    const rel = path.slice('/pkg/'.length);
    if (path.startsWith('/pkg/') && ['index.js', 'core.js', 'wasm/sdconv.js', 'wasm/sdconv_bg.wasm'].includes(rel)) {
      return res.writeHead(200, { 'content-type': TYPES[extname(rel)] }).end(readFileSync(join(js, rel)));
    }
  } catch (e) {
    return res.writeHead(500).end(String(e));
  }
  res.writeHead(404).end();
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const browser = await chromium.launch({ executablePath: process.env.SDCONV_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error(e));
  await page.goto(`http://127.0.0.1:${server.address().port}/`);
  await page.waitForFunction(() => window.times, null, { timeout: 30 * 60_000, polling: 1000 });
  const times = await page.evaluate(() => window.times);
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const s = median(times.sdconv);
  const m = median(times.mammoth);
  console.log(`${file}, Chromium, ${rounds} rounds, medians:`);
  console.log(`  sdconv  ${s.toFixed(0)} ms`);
  console.log(`  mammoth ${m.toFixed(0)} ms`);
  console.log(`  sdconv is ${(m / s).toFixed(1)}× faster`);
} finally {
  await browser.close();
  server.close();
}
