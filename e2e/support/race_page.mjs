// The race lesson, as a test sees it: the lesson page object with the race's own controls.
import assert from 'node:assert/strict';
import { LessonPage } from './lesson_page.mjs';
import { showGpuPanel } from './browser.mjs';

export class RacePage extends LessonPage {
  static async open(browser, base, query = '') {
    const { openPage } = await import('./browser.mjs');
    const page = await openPage(browser, `${base}?lesson=race${query}`);
    const lesson = new RacePage(page);
    await page.getByTestId('model-player').waitFor();
    return lesson;
  }

  async chooseVariant(name) {
    await this.testId(`variant-${name}`).click();
  }

  async chooseSchedule(name) {
    await this.testId('schedule').selectOption(name);
  }

  async setGpuSize(invocations, workgroup) {
    await showGpuPanel(this.page);
    await this.testId('gpu-invocations').fill(String(invocations));
    await this.testId('gpu-workgroup').fill(String(workgroup));
  }

  /** Presses a run button and waits for the report of that many runs. */
  async runGpu(button = 'gpu-run', runs = 1) {
    await showGpuPanel(this.page);
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
}
