// The race lesson, as a test sees it.
import assert from 'node:assert/strict';

export class RacePage {
  constructor(page) {
    this.page = page;
  }

  static async open(browser, base, query = '') {
    const { openPage } = await import('./browser.mjs');
    const page = await openPage(browser, `${base}?lesson=race${query}`);
    const lesson = new RacePage(page);
    await page.getByTestId('model-player').waitFor();
    return lesson;
  }

  testId(id) {
    return this.page.getByTestId(id);
  }

  async text(id) {
    return (await this.testId(id).textContent()).trim();
  }

  async number(id) {
    return Number(await this.text(id));
  }

  /** "step 3 / 9" → [3, 9] */
  async stepIndex(name = 'model') {
    const id = name === 'model' ? 'step-index' : `${name}-step-index`;
    const m = (await this.text(id)).match(/step (\d+) \/ (\d+)/);
    return [Number(m[1]), Number(m[2])];
  }

  async gpuState() {
    const status = this.testId('gpu-status');
    await this.page.waitForFunction(
      () => document.querySelector('[data-testid=gpu-status]')?.dataset.state !== 'connecting',
    );
    return status.getAttribute('data-state');
  }

  async chooseVariant(name) {
    await this.testId(`variant-${name}`).click();
  }

  async chooseSchedule(name) {
    await this.testId('schedule').selectOption(name);
  }

  async setGpuSize(invocations, workgroup) {
    await this.testId('gpu-invocations').fill(String(invocations));
    await this.testId('gpu-workgroup').fill(String(workgroup));
  }

  /** Presses a run button and waits for the report of that many runs. */
  async runGpu(button = 'gpu-run', runs = 1) {
    await this.testId(button).click();
    await this.page.waitForFunction(
      (runs) =>
        document.querySelector('[data-testid=gpu-error]') ||
        (document.querySelector('[data-testid=gpu-runs]')?.textContent.trim() === String(runs) &&
          !document.querySelector('[data-testid=gpu-run]').disabled),
      runs,
      { timeout: 60_000 },
    );
    const error = await this.testId('gpu-error').count();
    assert.equal(error, 0, error ? await this.text('gpu-error') : '');
  }

  async finals() {
    return (await this.testId('gpu-finals').textContent()).split(',').map(Number);
  }

  assertNoConsoleErrors() {
    assert.deepEqual(this.page.errors, [], 'console errors');
  }
}
