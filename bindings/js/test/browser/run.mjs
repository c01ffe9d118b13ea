// The vector suite in headless Chromium: Debian's `chromium` (no browser download) driven by
// puppeteer-core, the package loaded by a page through an import map as a user's page would.
// Exits non-zero if any vector fails or the expected counts are not reached.
import puppeteer from 'puppeteer-core';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve, page } from './server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const pkg = resolve(here, '../..');
const vectors = process.env.MLDSA_VECTORS || resolve(pkg, '../../../shared/vectors');
const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';

const EXPECTED = { keyGen: 75, sigGen: 360, sigGenTr1: 720, sigVer: 180, refKat: 300, rspMlDsa: 300, rspRound3: 300 };

const server = await serve(
  { '/package/': pkg, '/node_modules/': resolve(pkg, 'node_modules'), '/vectors/': vectors, '/test/': resolve(pkg, 'test') },
  { '/': page('/test/browser/vectors-page.js'), '/favicon.ico': '' }
);
const browser = await puppeteer.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
let failed = false;
try {
  const tab = await browser.newPage();
  tab.on('pageerror', (e) => console.error('page error:', e.message));
  tab.on('console', (m) => console.log('page:', m.text()));
  tab.on('response', (r) => r.status() >= 400 && console.log(`page: ${r.status()} for ${r.url()}`));
  await tab.goto(server.url + '/');
  await tab.waitForFunction(() => window.__result, { timeout: 15 * 60_000, polling: 500 });
  const r = await tab.evaluate(() => window.__result);
  if (!r.ok) {
    console.error('browser suite failed:', r.error);
    failed = true;
  } else {
    console.log(`# ${r.userAgent}`);
    for (const [part, n] of Object.entries(EXPECTED)) {
      const pass = r[part] === n;
      failed ||= !pass;
      console.log(`${pass ? 'ok' : 'not ok'} - browser ${part}: ${r[part]} of ${n}`);
    }
    console.log(`# browser vector suite: ${r.ms} ms`);
  }
} finally {
  await browser.close();
  server.close();
}
process.exit(failed ? 1 : 0);
