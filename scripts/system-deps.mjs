// The system packages printing needs, installed with apt-get when missing (as root), else the one
// command to run is printed. Shared by `npm start` (scripts/start.mjs) and `npm test` (test-all.mjs).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

/** Documents: LibreOffice Writer with its UNO bridge (.docx -> PDF) and fonts with Cyrillic. */
export const OFFICE_PACKAGES = ['libreoffice-writer-nogui', 'python3-uno', 'fonts-liberation2', 'fonts-crosextra-carlito'];
/** The test suite also reads PDFs back (pdftotext). */
export const TEST_PACKAGES = ['poppler-utils'];
/** Programmes and registration lists (HTML -> PDF), and the browser tests. */
export const CHROMIUM_PACKAGES = ['chromium'];

const officePresent = () =>
  fs.existsSync('/usr/bin/soffice') && fs.existsSync('/usr/lib/python3/dist-packages/uno.py') && fs.existsSync('/usr/share/fonts/truetype/liberation2');
const CHECKS = {
  office: officePresent,
  test: () => fs.existsSync('/usr/bin/pdftotext'),
  chromium: () => fs.existsSync('/usr/bin/chromium'),
};
const PACKAGES = { office: OFFICE_PACKAGES, test: TEST_PACKAGES, chromium: CHROMIUM_PACKAGES };

/** The one command that installs the packages. */
export function installCommand(packages) {
  return `sudo apt-get update && sudo apt-get install -y --no-install-recommends ${packages.join(' ')}`;
}

/**
 * Makes sure the named groups ('office', 'test', 'chromium') are installed. Installs what is missing
 * with apt-get when running as root on a system that has it; otherwise prints the command and returns
 * false. Returns true when everything is there.
 */
export function ensureSystemPackages(groups, { purpose = 'печати документов' } = {}) {
  const missing = groups.filter((g) => !CHECKS[g]());
  if (missing.length === 0) return true;
  const packages = missing.flatMap((g) => PACKAGES[g]);
  const canInstall = typeof process.getuid === 'function' && process.getuid() === 0 && fs.existsSync('/usr/bin/apt-get');
  if (!canInstall) {
    console.log(
      `\n  Для ${purpose} не хватает системных пакетов: ${packages.join(', ')}.\n  Установите их одной командой:\n\n    ${installCommand(packages)}\n`,
    );
    return false;
  }
  console.log(`\n=== Installing ${packages.join(', ')} (apt-get)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const update = spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  const install = spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { stdio: 'inherit', env });
  return update.status === 0 && install.status === 0 && missing.every((g) => CHECKS[g]());
}
