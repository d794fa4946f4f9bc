import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';

/** Screenshots to look at after a run: e2e/output/<name>.png */
export const outputDir = path.resolve(import.meta.dirname, '../output');

export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(outputDir, { recursive: true });
  await page.screenshot({ path: path.join(outputDir, `${name}.png`), fullPage: true });
}
