// Opens a single-file HTML export in headless Chromium and checks it the way a reader would see it:
//   node check.mjs PAGE.html headings=H tables=T images=I [--folder] [--screenshot OUT.png]
// - every <img> is decoded (naturalWidth > 0) and is a data: URI — or, with --folder (the `html`
//   form: index.html + style.css + images/), a file beside the page;
// - the page loads nothing from elsewhere (a single file must be self-contained);
// - content headings (h1-h6 other than generated list titles) and tables match the counts given;
// - no script elements or on* attributes; the stylesheet applied; every internal link (#id) has a target; no script errors.
import { chromium } from 'playwright-core';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const args = process.argv.slice(2);
const file = args.shift();
if (!file) {
  console.error('usage: node check.mjs PAGE.html headings=H tables=T images=I [--screenshot OUT.png]');
  process.exit(2);
}
const expected = {};
let screenshot = null;
let folder = false;
while (args.length) {
  const a = args.shift();
  if (a === '--screenshot') screenshot = args.shift();
  else if (a === '--folder') folder = true;
  else {
    const [k, v] = a.split('=');
    expected[k] = Number(v);
  }
}

const profile = mkdtempSync(join(tmpdir(), 'sdconv-chromium-'));
const failures = [];
const fail = (msg) => failures.push(msg);
let context;
try {
  context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync',
    ],
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const url = pathToFileURL(resolve(file)).href;
  const base = url.slice(0, url.lastIndexOf('/') + 1);
  page.on('pageerror', (e) => fail(`script error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') fail(`console error: ${m.text()}`); });
  page.on('request', (r) => {
    const u = r.url();
    const beside = folder && u.startsWith(base) && !u.slice(base.length).includes('..');
    if (u !== url && !u.startsWith('data:') && !beside) fail(`external request: ${u}`);
  });
  await page.goto(url, { waitUntil: 'load' });
  // Decoding is asynchronous even after load: wait for every image to settle.
  await page.evaluate(() => Promise.all([...document.images].map((i) => i.decode().catch(() => {}))));
  const facts = await page.evaluate(() => ({
    images: [...document.images].map((i) => ({
      data: i.getAttribute('src').startsWith('data:'),
      width: i.naturalWidth,
      alt: i.alt,
    })),
    headings: document.querySelectorAll(':is(h1,h2,h3,h4,h5,h6):not(.toc-title):not(.notes-title)').length,
    tables: document.querySelectorAll('table').length,
    brokenLinks: [...document.querySelectorAll('a[href^="#"]')]
      .map((a) => decodeURIComponent(a.getAttribute('href').slice(1)))
      .filter((id) => !document.getElementById(id)),
    // Nothing executable made it into the page.
    scripts: document.scripts.length,
    handlers: [...document.querySelectorAll('*')].flatMap((e) =>
      [...e.attributes].filter((a) => a.name.startsWith('on')).map((a) => `${e.tagName}@${a.name}`)),
    // The stylesheet applied (inline or style.css): it gives the body a measure.
    styled: getComputedStyle(document.body).maxWidth !== 'none',
    title: document.title,
    lang: document.documentElement.lang,
  }));
  facts.images.forEach((img, n) => {
    if (!img.data && !folder) fail(`image ${n} is not a data: URI`);
    if (!(img.width > 0)) fail(`image ${n} (${img.alt}) did not decode (naturalWidth ${img.width})`);
  });
  for (const key of ['headings', 'tables', 'images']) {
    if (key in expected) {
      const got = key === 'images' ? facts.images.length : facts[key];
      if (got !== expected[key]) fail(`${key}: expected ${expected[key]}, page has ${got}`);
    }
  }
  if (facts.scripts) fail(`${facts.scripts} script element(s) in the page`);
  for (const h of facts.handlers) fail(`event handler attribute ${h}`);
  if (!facts.styled) fail('the stylesheet did not apply');
  for (const id of facts.brokenLinks) fail(`internal link to missing id #${id}`);
  if (screenshot) await page.screenshot({ path: screenshot, fullPage: true });
  console.log(`browser check ${file}: ${facts.images.length} images decoded, ${facts.headings} headings, ` +
    `${facts.tables} tables, title "${facts.title}", lang ${facts.lang}`);
} catch (e) {
  fail(`browser: ${e.message}`);
} finally {
  if (context) await context.close();
  rmSync(profile, { recursive: true, force: true });
}
if (failures.length) {
  for (const f of failures) console.error(`FAIL: ${f}`);
  process.exit(1);
}
