/**
 * The server's command line: `npm start` and the container image run the same one, and the Node flags in it
 * (docs/operations.md, "Memory and garbage collection") are accepted by this Node and take effect.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, startCommand } from '../helpers/build.ts';

const startWords = startCommand();
const start = startWords.join(' ');

function dockerCmd(): string[] {
  const line = readFileSync(join(ROOT, 'Dockerfile'), 'utf8').split('\n').filter((l) => l.startsWith('CMD ')).at(-1);
  assert.ok(line, 'the Dockerfile has a CMD');
  return JSON.parse(line.slice(4)) as string[];
}

describe('the server command line', () => {
  it('npm start is node, its flags, bin/vigil.js serve; the image runs the same words', () => {
    assert.equal(startWords[0], 'node');
    assert.deepEqual(startWords.slice(-2), ['bin/vigil.js', 'serve']);
    assert.deepEqual(dockerCmd(), startWords);
  });

  it('its Node flags give V8 a fixed young generation of the size they name, far above the default start', () => {
    const flags = startWords.slice(1, -2);
    const size = (name: string) => Number(flags.find((f) => f.startsWith(`--${name}=`))?.split('=')[1]);
    const mib = size('min-semi-space-size');
    assert.ok(mib >= 16, `--min-semi-space-size in ${start}`);
    assert.equal(size('max-semi-space-size'), mib, 'the same ceiling, so V8 does not shrink or grow it');
    const script = "const s = require('node:v8').getHeapSpaceStatistics().find((x) => x.space_name === 'new_space'); process.stdout.write(String(s.space_size));";
    const withFlags = Number(execFileSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' }));
    const without = Number(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }));
    // new_space's size is one semi-space's capacity: the flag's MiB, against about 1 MiB when Node starts without it.
    assert.equal(withFlags, mib * 1024 * 1024, `new space ${withFlags} bytes with ${flags.join(' ')}`);
    assert.ok(without < withFlags, `new space ${without} bytes without the flags`);
  });
});
