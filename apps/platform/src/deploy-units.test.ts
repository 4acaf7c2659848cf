/**
 * The systemd units under deploy/systemd pass `systemd-analyze verify` (unit syntax, dependencies
 * between the units, executables present). Skipped where systemd-analyze is not installed.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

const UNITS = fileURLToPath(new URL('../../../deploy/systemd', import.meta.url));
const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
const verify = (dir: string) => {
  const files = readdirSync(dir).map((f) => join(dir, f));
  return spawnSync('systemd-analyze', ['verify', ...files], { encoding: 'utf8' });
};

describe.skipIf(!hasAnalyze)('deployment units', () => {
  it('pass systemd-analyze verify', () => {
    const r = verify(UNITS);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('would be caught with a mistake (a unit depending on one that is not there)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'units-'));
    try {
      writeFileSync(join(dir, 'platform-erp.service'), readFileSync(join(UNITS, 'platform-erp.service'), 'utf8'));
      const r = verify(dir);
      expect(r.status).not.toBe(0);
      expect(r.stderr).toMatch(/platform-migrate\.service not found/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('start every service the platform has', () => {
    const target = readFileSync(join(UNITS, 'platform.target'), 'utf8');
    for (const s of ['migrate', 'erp', 'landing', 'worker', 'control', 'docs'])
      expect(target).toContain(`platform-${s}.service`);
    expect(
      execFileSync('node', [
        '-e',
        `const p=require(${JSON.stringify(join(UNITS, '../../package.json'))});for (const s of ['start:erp','start:landing','start:worker','start:control','start:docs','migrate']) if(!p.scripts[s]) process.exit(1)`,
      ]).toString(),
    ).toBe('');
  });

  it('run the control plane after the migrations, restarted on failure, as the platform user', () => {
    const unit = readFileSync(join(UNITS, 'platform-control.service'), 'utf8');
    expect(unit).toMatch(/^ExecStart=\/usr\/bin\/npm run --silent start:control$/m);
    expect(unit).toMatch(/^Requires=platform-migrate\.service$/m);
    expect(unit).toMatch(/^After=.*platform-migrate\.service/m);
    expect(unit).toMatch(/^User=platform$/m);
    expect(unit).toMatch(/^Restart=on-failure$/m);
    expect(unit).toMatch(/^EnvironmentFile=\/etc\/platform\/platform\.env$/m);
  });
});
