/**
 * The generator's seeded randomness: mulberry32 (Tommy Ettinger's 32-bit generator, public domain),
 * small and fast, good enough for synthetic data and the same on every platform, so one seed always
 * gives the same file.
 */
import { prng } from '../../src/intel/text/train.ts';

export type Rng = () => number;

/** Uniform floats in [0, 1) from a 32-bit seed: the text trainer's mulberry32, so both stay one function. */
export const mulberry32: (seed: number) => Rng = prng;

/** Helpers over one generator. */
export class Random {
  constructor(readonly next: Rng) {}
  /** Integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  float(min: number, max: number): number {
    return min + this.next() * (max - min);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    if (xs.length === 0) throw new Error('pick from an empty list');
    return xs[Math.floor(this.next() * xs.length)]!;
  }
  /** One key of `weights`, each with probability weight / total. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as Array<[K, number]>;
    let r = this.next() * entries.reduce((s, [, w]) => s + w, 0);
    for (const [k, w] of entries) if ((r -= w) < 0) return k;
    return entries[entries.length - 1]![0];
  }
  /** Standard normal (Box-Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
  /** Log-normal with the given median and sigma of ln. */
  logNormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }
  hex(length: number): string {
    let s = '';
    for (let i = 0; i < length; i++) s += Math.floor(this.next() * 16).toString(16);
    return s;
  }
  digits(length: number): string {
    let s = '';
    for (let i = 0; i < length; i++) s += String(Math.floor(this.next() * 10));
    return s;
  }
}
