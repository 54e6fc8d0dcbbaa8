import { launch, showGpuPanel } from './support/browser.mjs';
import { serve } from './support/server.mjs';
const browser = await launch();
const server = await serve({ root: process.env.SYNCSCOPE_DIST });
const [id, query, width, scheme, out, full] = process.argv.slice(2);
const ctx = await browser.newContext({ viewport: { width: Number(width), height: 900 }, colorScheme: scheme, deviceScaleFactor: 1 });
const page = await ctx.newPage();
const errors = [];
page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
await page.goto(`${server.url}?lesson=${id}${query}`);
await page.getByTestId('model-step').waitFor();
await page.keyboard.press('End');
await page.waitForTimeout(400);
if (full === 'gpu') {
  await showGpuPanel(page);
  await page.waitForTimeout(1500);
  await page.getByTestId('gpu-run').click();
  await page.getByTestId('gpu-report').waitFor({ timeout: 60000 });
  await page.getByTestId('gpu-report').scrollIntoViewIfNeeded();
  await page.screenshot({ path: out });
} else if (full === 'full') {
  await page.screenshot({ path: out, fullPage: true });
} else {
  await page.getByTestId('scene').scrollIntoViewIfNeeded();
  await page.screenshot({ path: out });
}
console.log('errors', errors);
await browser.close(); process.exit(0);
