// The package in a browser: Debian's Chromium (driven by playwright-core, no browser download)
// opens a page served on 127.0.0.1 that imports the package (the default export condition,
// which fetches the .wasm beside the module), converts a .docx and shows the HTML.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { jsDir, sample } from './helpers.js';
import { convert } from '../node.js';

const chromium = process.env.SDCONV_CHROMIUM ?? '/usr/bin/chromium';
const skip = !existsSync(chromium) && `no Chromium at ${chromium} (set SDCONV_CHROMIUM)`;

const PAGE = `<!doctype html><meta charset="utf-8"><title>sdconv</title>
<input type="file" id="file">
<div id="out"></div>
<script>
addEventListener('error', (e) => { document.title = 'error: ' + e.message; });
addEventListener('unhandledrejection', (e) => { document.title = 'error: ' + e.reason; });
</script>
<script type="module">
import { convert, _crashForTests } from '/pkg/index.js';
const bytes = await (await fetch('/sample.docx')).blob();
const file = new File([bytes], 'sample.docx');
const result = await convert(file, 'html', { images: 'inline' });
const page = new DOMParser().parseFromString(result.text, 'text/html');
document.getElementById('out').replaceChildren(...page.body.childNodes);
// A trapped instance is replaced on the page's main thread too.
let recovered = 'no';
try {
  await _crashForTests();
} catch (e) {
  if (e.kind === 'internal_error') {
    recovered = (await convert(file, 'markdown')).text.length > 0 ? 'yes' : 'empty';
  }
}
document.body.dataset.recovered = recovered;
document.title = 'done: ' + result.warnings.length + ' warnings';
</script>`;

const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };

function serve() {
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    let body = null;
    let type = 'text/html';
    if (url.pathname === '/') body = PAGE;
    else if (url.pathname === '/sample.docx') body = readFileSync(sample);
    else if (url.pathname.startsWith('/pkg/')) {
      const rel = normalize(url.pathname.slice('/pkg/'.length));
      const path = join(jsDir, rel);
      if (!rel.startsWith('..') && ['index.js', 'core.js', 'wasm/sdconv.js', 'wasm/sdconv_bg.wasm'].includes(rel)) {
        body = readFileSync(path);
        type = TYPES[extname(path)];
      }
    }
    if (body === null) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': type }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

test('Chromium converts a .docx with the package and shows it', { skip, timeout: 120_000 }, async () => {
  const { chromium: launcher } = await import('playwright-core');
  const server = await serve();
  const browser = await launcher.launch({ executablePath: chromium, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    const errors = [];
    page.on('pageerror', (e) => errors.push(e));
    page.on('console', (m) => console.log(`page: ${m.text()}`));
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    await page.waitForFunction(() => /^(done|error)/.test(document.title), null, { timeout: 90_000 });
    assert.match(await page.title(), /^done/);
    assert.deepEqual(errors, []);
    // What the page shows is what the same conversion gives in Node.
    const expected = await convert(sample, 'html', { images: 'inline' });
    const firstHeading = /<h1[^>]*>(.*?)<\/h1>/s.exec(expected.text)?.[1].replace(/<[^>]+>/g, '').trim();
    assert.ok(firstHeading, 'the sample has a heading');
    const shown = await page.locator('#out h1').first().innerText();
    assert.equal(shown.trim(), firstHeading);
    const paragraphs = await page.locator('#out p').count();
    assert.ok(paragraphs > 3, `${paragraphs} paragraphs shown`);
    assert.equal(await page.evaluate(() => document.body.dataset.recovered), 'yes');
    const images = await page.locator('#out img').evaluateAll((imgs) => imgs.map((i) => i.complete && i.naturalWidth > 0));
    assert.ok(images.length > 0 && images.every(Boolean), `pictures drawn: ${images}`);
  } finally {
    await browser.close();
    server.close();
  }
});
