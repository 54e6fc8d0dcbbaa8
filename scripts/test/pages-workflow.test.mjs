// The GitHub Pages workflow cannot run here: it is held to the commands the tests already run.
// It sets up and builds with the project's own scripts, in that order and nothing else, and
// publishes the folder the build writes; the README says how to switch it on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const workflow = fs.readFileSync(path.join(ROOT, '.github/workflows/pages.yml'), 'utf8');

test('the Pages workflow builds with set-up then the build script, and publishes dist/', () => {
  const runs = [...workflow.matchAll(/^\s+run:\s*(.+)$/gm)].map((m) => m[1].trim());
  assert.deepEqual(runs, ['scripts/setup.sh', 'scripts/build.sh']);
  for (const script of runs) {
    const file = path.join(ROOT, script);
    assert.ok(fs.existsSync(file), `${script} exists`);
    assert.ok(fs.statSync(file).mode & 0o111, `${script} is executable`);
  }
  // The build writes dist/ (scripts/build.sh's own words), and that is what is uploaded.
  assert.match(fs.readFileSync(path.join(ROOT, 'scripts/build.sh'), 'utf8'), /into dist\//);
  assert.match(workflow, /uses: actions\/upload-pages-artifact@v\d+\s+with:\s+path: dist\s/);
  assert.match(workflow, /uses: actions\/deploy-pages@v\d+/);
  assert.match(workflow, /pages: write/);
  assert.match(workflow, /id-token: write/);
  assert.match(workflow, /branches: \[main\]/);
});

test('the README says where the workflow is and how to switch it on', () => {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  assert.match(readme, /\.github\/workflows\/pages\.yml/);
  assert.match(readme, /Settings → Pages/);
  assert.match(readme, /GitHub Actions/);
});
