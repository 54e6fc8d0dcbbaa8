// One page object for every lesson: open it, read its figures, step its model, run it on the
// GPU and wait for the result. It stands in for the Playwright page too (anything it does not
// define is the page's own), so a test can mix both.
import assert from 'node:assert/strict';
import { openPage, showGpuPanel, waitForGpu } from './browser.mjs';

export class LessonPage {
  constructor(page) {
    this.page = page;
  }

  /** Opens `?lesson=<id><query>` on `site` and waits for the model's player. */
  static async open(site, id, query = '', options = {}) {
    const page = await openPage(site.browser, `${site.url}?lesson=${id}${query}`, options);
    await page.getByTestId('model-player').waitFor();
    return new this(page).asPage();
  }

  /** This object, with the Playwright page's own members reachable through it. */
  asPage() {
    return new Proxy(this, {
      get(lesson, key) {
        if (key in lesson) return lesson[key];
        const value = lesson.page[key];
        return typeof value === 'function' ? value.bind(lesson.page) : value;
      },
    });
  }

  testId(id) {
    return this.page.getByTestId(id);
  }

  async text(id) {
    return (await this.testId(id).textContent()).trim();
  }

  async number(id) {
    return Number((await this.text(id)).replaceAll(',', ''));
  }

  /** "step 3 / 9" → [3, 9] */
  async stepIndex(name = 'model') {
    const id = name === 'model' ? 'step-index' : `${name}-step-index`;
    const m = (await this.text(id)).match(/step (\d+) \/ (\d+)/);
    return [Number(m[1]), Number(m[2])];
  }

  /** The model forward `n` steps (→), or to its end. */
  async step(n = 1) {
    for (let i = 0; i < n; i++) await this.page.keyboard.press('ArrowRight');
    await this.movingParts();
  }

  async toEnd() {
    await this.page.keyboard.press('End');
    await this.movingParts();
  }

  /** Waits for the parts a run that has moved shows (the timeline, the tokens, the findings:
   * a chunk fetched at the first step) to replace their placeholders. */
  async movingParts() {
    await this.page.waitForFunction(() => !document.querySelector('[data-pending]'));
  }

  /** Scrolls to the GPU panel, which brings the page's GPU half (see showGpuPanel). */
  async showGpu() {
    await showGpuPanel(this.page);
  }

  /** The adapter's state once it has stopped connecting: ready, none or lost (after bringing
   * the GPU panel into view, which is when the page looks for the GPU). */
  async gpuState() {
    await showGpuPanel(this.page);
    await this.page.waitForFunction(
      () => {
        const state = document.querySelector('[data-testid=gpu-status]')?.dataset.state;
        return state && !['waiting', 'connecting'].includes(state);
      },
    );
    return this.testId('gpu-status').getAttribute('data-state');
  }

  async gpuReady() {
    await waitForGpu(this.page);
  }

  /** Presses a GPU panel's run button (`gpu-run` unless named) once the adapter is ready, and
   * waits until the run has ended in a report or an error. */
  async runOnGpu(button = 'gpu-run', timeout = 120_000) {
    await this.gpuReady();
    await this.testId(button).click();
    await this.page.waitForFunction(
      () => !document.querySelector('[data-testid=gpu-run]').disabled &&
        (document.querySelector('[data-testid=gpu-error]') || document.querySelector('[data-testid=gpu-report]')),
      null,
      { timeout },
    );
  }

  assertNoConsoleErrors() {
    assert.deepEqual(this.page.errors, [], 'console errors');
  }
}
