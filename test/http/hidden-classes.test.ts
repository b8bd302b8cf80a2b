/**
 * Objects built for every request share their hidden classes (V8 maps) from one request to the next.
 * On Node 20 an object literal with a per-request accessor, or a spread copy that later gets another
 * property, gets a map of its own each time; the old-space map then kept the request's young objects
 * alive across young-generation GCs, so every request was promoted to old space (docs/benchmarks.md,
 * 2026-11-24). The probe runs under --allow-natives-syntax to ask V8 directly.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { AnswerNotes, NoteKey } from '../../src/http/answer-notes.ts';

describe('per-request objects', () => {
  it('the context, IP answer, security block, policy view and decision record of two /lookup/ip requests share their maps', () => {
    const run = spawnSync(process.execPath, ['--allow-natives-syntax', '--import', 'tsx', 'test/helpers/hidden-class-probe.ts'], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(run.status, 0, run.stderr);
    const same = JSON.parse(run.stdout) as Record<string, boolean>;
    assert.ok(Object.keys(same).length >= 9, run.stdout);
    for (const [object, shared] of Object.entries(same)) assert.equal(shared, true, `${object} gets a hidden class of its own per request`);
  });
});

describe('AnswerNotes', () => {
  it('keeps a value per key and answer object, and nothing for others', () => {
    const notes = new AnswerNotes();
    const region = new NoteKey<string>('region');
    const flagged = new NoteKey<true>('flagged');
    const a = {};
    const b = {};
    assert.equal(notes.get(region, a), undefined);
    notes.set(region, a, 'GB');
    notes.set(region, b, 'DE');
    notes.set(flagged, b, true);
    assert.equal(notes.get(region, a), 'GB');
    assert.equal(notes.get(region, b), 'DE');
    assert.equal(notes.get(flagged, a), undefined);
    assert.equal(notes.get(flagged, b), true);
    assert.equal(notes.get(region, { ...a }), undefined, 'a copy of an answer is another answer');
    notes.set(region, a, 'FR');
    assert.equal(notes.get(region, a), 'FR');
  });
});
