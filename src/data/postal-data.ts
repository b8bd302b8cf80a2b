import type { DatasetInfo } from '../intel/country/facts.ts';
import { DatasetError } from './import/dataset-store.ts';
import { GEONAMES_POSTAL, GEONAMES_POSTAL_HEADER, placeKey } from './import/geonames-postal.ts';
import { ImportedDataset, watchDatasets } from './import/imported.ts';

/**
 * Postal codes for points, from the imported `geonames-postal` dataset (1.2 M rows in 117
 * countries): "which postal code is this IP's (country, city, lat, lon)?".
 *
 * Per country, over typed arrays (no object or string per point):
 *
 * - Locations: the distinct coordinates, sorted by (latitude strip of 0.01 degree, about 1.1 km;
 *   longitude; latitude), so the points of one strip between two longitudes are one binary search
 *   away. Distinct matters: GeoNames gives many codes one point (Portugal's 207 k rows have 15 k
 *   distinct points, 9,165 rows sit on central Lisbon's). A 0.25 degree grid would not do either:
 *   Singapore puts 100 k distinct points in a handful of such cells.
 * - Nearest search visits strips from the query's outwards and, inside a strip, points from the
 *   query's longitude outwards, each direction stopping once nothing further on can beat the best
 *   so far. A dense city is settled in a few hundred metres; empty sea costs one binary search
 *   per strip of the maxKm box.
 * - Place names: the distinct name keys (placeKey: no diacritics, lower case) sorted in code-unit
 *   order and concatenated into one string with offsets, so 'paris', 'paris 01' ... 'paris 20'
 *   are one id range; each name's entries list its locations in location order, so the same
 *   strip search runs over one name's points.
 *
 * Longitudes wrap at the antimeridian (Chukotka, the Aleutians, Fiji would work).
 */

const EARTH_KM = 6371.0088;
const RAD = Math.PI / 180;
const KM_PER_DEG = EARTH_KM * RAD;
/** Coordinates are stored to 4 decimals: as integers of 1e-4 degree, shifted to be >= 0. */
const E4 = 10_000;
const LAT_SHIFT = 90 * E4;
const LON_SHIFT = 180 * E4;
const LON_STEPS = 360 * E4 + 1;
/** A strip is 100 steps of latitude (0.01 degree, about 1.1 km). */
const STRIP = 100;
const MAX_STRIP = (180 * E4) / STRIP;
/** A name range with at most this many entries is scanned entry by entry (cheaper than the strip search). */
const BRUTE_FORCE = 64;
/** Half the Earth's circumference: every point is within this distance. */
const MAX_KM = Math.PI * EARTH_KM;

/**
 * A location's sort key, exact and ordered by (strip, longitude, latitude inside the strip):
 * (strip * LON_STEPS + lon) * STRIP + lat % STRIP, at most 6.5e12, well inside a double's exact
 * integers. Points are stored to 4 decimals, so equal keys are equal coordinates.
 */
const locKey = (latE4: number, lonE4: number): number => {
  const la = latE4 + LAT_SHIFT;
  const rem = la % STRIP;
  return (((la - rem) / STRIP) * LON_STEPS + lonE4 + LON_SHIFT) * STRIP + rem;
};

interface CountryIndex {
  /**
   * Distinct locations, ascending by locKey. Distinct matters: GeoNames gives many codes one
   * point (Portugal's 207 k rows have 15 k distinct points, 9,165 of them central Lisbon's), and
   * scanning such a pile on every lookup would cost far more than the search itself.
   */
  readonly locs: number;
  readonly key: Float64Array;
  readonly lat: Float32Array;
  readonly lon: Float32Array;
  /** cos(lat), for the haversine formula without a cosine per candidate. */
  readonly cos: Float32Array;
  /** The entry whose zip a location answers with when no place name is involved. */
  readonly locZip: Uint32Array;
  /**
   * Entries: one per (place name, location), grouped by name (names in code-unit order), within a
   * name by location (so by key). entryLoc[e] is e's location; its zip the characters
   * zips[zipOff[e] .. zipOff[e + 1]). Character codes in a typed array rather than a string per
   * zip: a million small strings cost more to make (and to collect) than the rest of the load.
   * Uint8Array unless some zip of the country has a character above U+00FF.
   */
  readonly entryLoc: Uint32Array;
  readonly zips: Uint8Array | Uint16Array;
  readonly zipOff: Uint32Array;
  /** Distinct place keys in code-unit order; name u is names.slice(nameOff[u], nameOff[u + 1]), its entries nameFirst[u] .. nameFirst[u + 1]. */
  readonly names: string;
  readonly nameOff: Uint32Array;
  readonly nameFirst: Uint32Array;
}

export interface PostalIndex {
  /** Rows loaded (postal codes with their place and point). */
  readonly points: number;
  readonly countries: ReadonlyMap<string, CountryIndex>;
}

const EMPTY: PostalIndex = { points: 0, countries: new Map() };

/** Rows of one country as read from the file, in file order (place-key order when the importer wrote it). */
interface Builder {
  /** Rows filled so far (arrays are sized by a first counting pass). */
  m: number;
  loc: Float64Array;
  /** The zip is content.slice(zipAt, zipAt + zipLen): cut out only for the entries kept. */
  zipAt: Uint32Array;
  zipLen: Uint16Array;
  /** Place key of the row: keys[keyId]; a new id whenever the key changes from the row before. */
  keyId: Uint32Array;
  keys: string[];
}

/** Where the last degrees() field ended (its tab, or the line end): saves an indexOf per field. */
let fieldEnd = 0;

/**
 * The degrees field starting at `from` (ending at a tab or at lineEnd) as an integer of 1e-4
 * degree, read digit by digit when written with at most 4 decimals ('52.517', '-0.1257': every
 * stored value), through Number otherwise. Sets fieldEnd.
 */
function degrees(s: string, from: number, lineEnd: number): number {
  let i = from;
  const neg = s.charCodeAt(i) === 45;
  if (neg) i++;
  let v = 0;
  let digits = 0;
  let decimals = -1;
  let plain = true;
  for (; i < lineEnd; i++) {
    const c = s.charCodeAt(i);
    if (c === 9) break;
    if (c >= 48 && c <= 57) {
      v = v * 10 + (c - 48);
      digits++;
      if (decimals >= 0) decimals++;
    } else if (c === 46 && decimals < 0) decimals = 0;
    else plain = false;
  }
  fieldEnd = i;
  if (!plain || digits === 0 || digits > 9 || decimals > 4) return Math.round(Number(s.slice(from, i)) * E4);
  for (let d = Math.max(decimals, 0); d < 4; d++) v *= 10;
  return neg ? -v : v;
}

/**
 * The stored `postal.tsv` (see import/geonames-postal.ts) into the per-country index. A first
 * pass counts each country's lines, so the second fills typed arrays sized once: no string or
 * array element per row on the heap, which keeps garbage collection out of the load time.
 */
export function parsePostalTsv(content: string): PostalIndex {
  const headerEnd = content.indexOf('\n');
  if (headerEnd < 0 || content.slice(0, headerEnd) !== GEONAMES_POSTAL_HEADER) {
    throw new DatasetError(`${GEONAMES_POSTAL}: stored file does not start with the expected header`);
  }
  const n = content.length;
  const counts = new Map<string, number>();
  for (let i = headerEnd + 1; i < n; ) {
    // Lines of one country follow each other: look the country up once per run of lines.
    const cc = content.slice(i, i + 2);
    let run = 0;
    while (i < n && content.startsWith(cc, i)) {
      const end = content.indexOf('\n', i);
      run++;
      i = end < 0 ? n : end + 1;
    }
    if (run === 0) {
      // A line shorter than a country code: skipped by the second pass too.
      const end = content.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
    } else counts.set(cc, (counts.get(cc) ?? 0) + run);
  }
  const builders = new Map<string, Builder>();
  for (const [cc, count] of counts) {
    builders.set(cc, { m: 0, loc: new Float64Array(count), zipAt: new Uint32Array(count), zipLen: new Uint16Array(count), keyId: new Uint32Array(count), keys: [] });
  }

  let b: Builder | undefined;
  let c0 = -1;
  let c1 = -1;
  let prevPlace = '';
  let prevKey = '';
  let rows = 0;
  for (let i = headerEnd + 1; i < n; ) {
    let end = content.indexOf('\n', i);
    if (end < 0) end = n;
    // country \t zip \t place \t lat \t lon [\t state]: two tabs found by indexOf, the degrees
    // read in place.
    const t2 = content.indexOf('\t', i + 3);
    const t3 = t2 < 0 || t2 > end ? -1 : content.indexOf('\t', t2 + 1);
    const zipLen = t2 - i - 3;
    if (content.charCodeAt(i + 2) !== 9 || t3 < 0 || t3 > end || zipLen <= 0 || zipLen > 0xffff) {
      i = end + 1;
      continue;
    }
    const lat = degrees(content, t3 + 1, end);
    const lon = fieldEnd < end ? degrees(content, fieldEnd + 1, end) : Number.NaN;
    if (Number.isFinite(lat) && Number.isFinite(lon) && Math.abs(lat) <= 90 * E4 && Math.abs(lon) <= 180 * E4) {
      if (content.charCodeAt(i) !== c0 || content.charCodeAt(i + 1) !== c1) {
        c0 = content.charCodeAt(i);
        c1 = content.charCodeAt(i + 1);
        b = builders.get(content.slice(i, i + 2));
        prevPlace = '';
        prevKey = '';
      }
      if (b !== undefined) {
        // Rows of one place follow each other in the stored order: normalise each name once.
        if (b.keys.length === 0 || t3 - t2 - 1 !== prevPlace.length || !content.startsWith(prevPlace, t2 + 1)) {
          prevPlace = content.slice(t2 + 1, t3);
          const key = placeKey(prevPlace);
          if (b.keys.length === 0 || key !== prevKey) b.keys.push(key);
          prevKey = key;
        }
        const r = b.m++;
        b.loc[r] = locKey(lat, lon);
        b.zipAt[r] = i + 3;
        b.zipLen[r] = zipLen;
        b.keyId[r] = b.keys.length - 1;
        rows++;
      }
    }
    i = end + 1;
  }
  const countries = new Map<string, CountryIndex>();
  for (const [cc, rowsOf] of builders) if (rowsOf.m > 0) countries.set(cc, buildCountry(rowsOf, content));
  return { points: rows, countries };
}

/** First index in a[from..to) whose value is >= v. */
function lowerBound(a: Float64Array, v: number, from = 0, to = a.length): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((a[mid] as number) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function buildCountry(rows: Builder, content: string): CountryIndex {
  const m = rows.m;
  // Locations: the distinct keys, sorted by the typed array's own numeric sort.
  const sortedKeys = rows.loc.slice(0, m).sort();
  let locs = 0;
  for (let k = 0; k < m; k++) if (k === 0 || sortedKeys[k] !== sortedKeys[k - 1]) sortedKeys[locs++] = sortedKeys[k] as number;
  const key = sortedKeys.slice(0, locs);
  const lat = new Float32Array(locs);
  const lon = new Float32Array(locs);
  const cos = new Float32Array(locs);
  for (let l = 0; l < locs; l++) {
    const kv = key[l] as number;
    const rem = kv % STRIP;
    const t = (kv - rem) / STRIP;
    const lonU = t % LON_STEPS;
    const strip = (t - lonU) / LON_STEPS;
    lat[l] = (strip * STRIP + rem - LAT_SHIFT) / E4;
    lon[l] = (lonU - LON_SHIFT) / E4;
    cos[l] = Math.cos((lat[l] as number) * RAD);
  }

  // Name order: the importer stores rows sorted by place key, so keys (one per change) ascend;
  // sort rows only if someone else wrote the file.
  const keys = rows.keys;
  let byName: Uint32Array | null = null;
  for (let u = 1; u < keys.length; u++) {
    if ((keys[u - 1] as string) >= (keys[u] as string)) {
      const order = Array.from({ length: m }, (_, x) => x).sort((x, y) => {
        const a = keys[rows.keyId[x] as number] as string;
        const c = keys[rows.keyId[y] as number] as string;
        return a < c ? -1 : a > c ? 1 : x - y;
      });
      byName = Uint32Array.from(order);
      break;
    }
  }

  // Entries: per name, its distinct locations in key order; where a name has several rows at one
  // location the first row (the smallest zip, as the importer sorts) speaks for it. A name's rows
  // are sorted as location * m + row in a scratch typed array (numeric sort, no comparator).
  const entryLoc = new Uint32Array(m);
  let zipTotal = 0;
  for (let k = 0; k < m; k++) zipTotal += rows.zipLen[k] as number;
  let zips: Uint8Array | Uint16Array = new Uint8Array(zipTotal);
  const zipOff = new Uint32Array(m + 1);
  const nameParts: string[] = [];
  const nameOffs: number[] = [];
  const nameFirsts: number[] = [];
  const locZip = new Uint32Array(locs).fill(0xffffffff);
  const scratch = new Float64Array(m);
  let entries = 0;
  let zipLen = 0;
  let nameLen = 0;
  let groupStart = 0;
  const flush = (groupEnd: number): void => {
    const size = groupEnd - groupStart;
    if (size > 16) scratch.subarray(groupStart, groupEnd).sort();
    else {
      // Insertion sort: most names have one to a few rows, too few to pay for a subarray and sort call.
      for (let g = groupStart + 1; g < groupEnd; g++) {
        const v = scratch[g] as number;
        let h = g - 1;
        for (; h >= groupStart && (scratch[h] as number) > v; h--) scratch[h + 1] = scratch[h] as number;
        scratch[h + 1] = v;
      }
    }
    let last = -1;
    for (let g = groupStart; g < groupEnd; g++) {
      const v = scratch[g] as number;
      const l = Math.floor(v / m);
      if (l === last) continue;
      last = l;
      entryLoc[entries] = l;
      if (locZip[l] === 0xffffffff) locZip[l] = entries;
      const r = v - l * m;
      const at = rows.zipAt[r] as number;
      const len = rows.zipLen[r] as number;
      zipOff[entries] = zipLen;
      for (let c = 0; c < len; c++) {
        const code = content.charCodeAt(at + c);
        if (code > 0xff && zips instanceof Uint8Array) zips = Uint16Array.from(zips);
        zips[zipLen++] = code;
      }
      entries++;
    }
    groupStart = groupEnd;
  };
  let prev: string | null = null;
  let lastValue = -1;
  let lastLoc = 0;
  for (let j = 0; j < m; j++) {
    const k = byName === null ? j : (byName[j] as number);
    const name = keys[rows.keyId[k] as number] as string;
    if (name !== prev) {
      flush(j);
      prev = name;
      nameParts.push(name);
      nameOffs.push(nameLen);
      nameFirsts.push(entries);
      nameLen += name.length;
    }
    // Rows of a place often share one point (Lisbon: 9 k): skip the binary search for repeats.
    const v = rows.loc[k] as number;
    if (v !== lastValue) {
      lastValue = v;
      lastLoc = lowerBound(key, v);
    }
    scratch[j] = lastLoc * m + k;
  }
  flush(m);
  zipOff[entries] = zipLen;
  nameOffs.push(nameLen);
  nameFirsts.push(entries);
  // join builds a flat string, so the slices of the stored file can be collected; slice() trims
  // the arrays sized for one entry per row to the entries there are.
  return {
    locs, key, lat, lon, cos, locZip,
    entryLoc: entryLoc.slice(0, entries), zips: zips.slice(0, zipLen), zipOff: zipOff.slice(0, entries + 1),
    names: nameParts.join(''), nameOff: Uint32Array.from(nameOffs), nameFirst: Uint32Array.from(nameFirsts),
  };
}

/** Strip of a latitude, clamped to the valid strips. */
function stripOf(lat: number): number {
  return Math.min(MAX_STRIP, Math.max(0, Math.floor((lat * E4 + LAT_SHIFT) / STRIP)));
}

/**
 * Largest longitude gap (degrees) at which a point could still beat bestA: a >= cosLat *
 * cos(point) * sin^2(dLon / 2), and cos(point) >= stripCos. Plus 1e-4 degree: points are ordered
 * by longitude rounded to that step, and stored as float32.
 */
function gapLimit(bestA: number, cosLat: number, stripCos: number): number {
  const r = bestA / (cosLat * stripCos);
  return r >= 1 || !Number.isFinite(r) ? 360 : (2 * Math.asin(Math.sqrt(r))) / RAD + 1e-4;
}

// Hot paths use methods and top-level functions, no closures: tsx (esbuild keepNames) wraps every
// named inner function in a defineProperty call, which dominated a lookup's time.

/** Best so far: index j into the searched range, compared on the haversine term `a` (monotonic in distance: no sqrt or asin per point). */
interface Best {
  j: number;
  a: number;
}

/** Haversine `a` for a distance in km. */
const aOfKm = (km: number): number => Math.sin(Math.min(km / EARTH_KM, Math.PI) / 2) ** 2;

class Query {
  readonly cosLat: number;
  readonly lonE4: number;
  constructor(
    readonly ix: CountryIndex,
    readonly lat: number,
    readonly lon: number,
  ) {
    this.cosLat = Math.cos(lat * RAD);
    this.lonE4 = Math.round(lon * E4) + LON_SHIFT;
  }

  /** Haversine `a` between the query and location l. */
  a(l: number): number {
    const ix = this.ix;
    const sLat = Math.sin(((ix.lat[l] as number) - this.lat) * RAD / 2);
    const sLon = Math.sin(((ix.lon[l] as number) - this.lon) * RAD / 2);
    return sLat * sLat + this.cosLat * (ix.cos[l] as number) * sLon * sLon;
  }

  /**
   * The range is j in [from, to): location sub[j] (entries of some names), or location j itself
   * when sub is null (every location of the country). Either way ascending by key.
   */
  scanAll(sub: Uint32Array | null, from: number, to: number, best: Best): void {
    for (let j = from; j < to; j++) {
      const a = this.a(sub === null ? j : (sub[j] as number));
      if (a < best.a) {
        best.a = a;
        best.j = j;
      }
    }
  }

  /**
   * Nearest of the range within maxKm; improves best. Strips are visited from the query's own
   * outwards, and inside a strip points from the query's longitude outwards, each direction
   * stopping once no point further on can beat the best so far (by its latitude gap, or its
   * longitude gap at the strip's widest cos(lat)): in a dense city the first few hundred metres
   * settle it, in empty country only the strips' binary searches are paid.
   */
  search(sub: Uint32Array | null, from: number, to: number, maxKm: number, best: Best): void {
    if (best.a > aOfKm(maxKm)) {
      best.a = aOfKm(maxKm) * (1 + 1e-12);
      best.j = -1;
    }
    const dLat = maxKm / KM_PER_DEG;
    const stripLo = stripOf(this.lat - dLat);
    const stripHi = stripOf(this.lat + dLat);
    const far = Math.min(90, Math.max(Math.abs(this.lat - dLat), Math.abs(this.lat + dLat)));
    // Widest longitude span of the maxKm circle inside the latitude band (with a margin for the
    // small-angle approximation); near the poles every longitude.
    const dLon = far >= 89.5 ? 360 : (dLat / Math.cos(far * RAD)) * 1.01 + 1 / E4;
    const maxLon = LON_STEPS - 1;
    let lo1 = 0;
    let hi1 = maxLon;
    let lo2 = 1;
    let hi2 = 0; // empty second range unless the box crosses the antimeridian
    if (dLon < 180) {
      lo1 = Math.floor((this.lon - dLon) * E4) + LON_SHIFT;
      hi1 = Math.ceil((this.lon + dLon) * E4) + LON_SHIFT;
      if (lo1 < 0) {
        lo2 = lo1 + maxLon;
        hi2 = maxLon;
        lo1 = 0;
      } else if (hi1 > maxLon) {
        lo2 = 0;
        hi2 = hi1 - maxLon;
        hi1 = maxLon;
      }
    }
    const centre = stripOf(this.lat);
    this.visit(sub, from, to, centre, centre, lo1, hi1, lo2, hi2, best);
    for (let s = centre + 1; s <= stripHi && this.visit(sub, from, to, s, centre, lo1, hi1, lo2, hi2, best); s++);
    for (let s = centre - 1; s >= stripLo && this.visit(sub, from, to, s, centre, lo1, hi1, lo2, hi2, best); s--);
  }

  /** Scans strip s; false when it, and so every strip beyond it, is too far to hold a better point. */
  private visit(sub: Uint32Array | null, from: number, to: number, s: number, centre: number, lo1: number, hi1: number, lo2: number, hi2: number, best: Best): boolean {
    const south = (s * STRIP - LAT_SHIFT) / E4;
    const north = ((s + 1) * STRIP - LAT_SHIFT) / E4;
    // The latitude gap to the strip's near edge bounds the distance of all its points.
    const gap = s > centre ? south - this.lat : s < centre ? this.lat - north : 0;
    const g = Math.sin((Math.max(0, gap) * RAD) / 2);
    if (g * g >= best.a) return false;
    const stripCos = Math.cos(Math.min(90, Math.max(Math.abs(south), Math.abs(north))) * RAD);
    const base = s * LON_STEPS;
    this.strip(sub, from, to, base, lo1, hi1, stripCos, best);
    if (lo2 <= hi2) this.strip(sub, from, to, base, lo2, hi2, stripCos, best);
    return true;
  }

  /** The part of the range in strip `base` between longitude steps lo and hi, from the query's longitude outwards. */
  private strip(sub: Uint32Array | null, from: number, to: number, base: number, lo: number, hi: number, stripCos: number, best: Best): void {
    const key = this.ix.key;
    const lonOf = this.ix.lon;
    const kLo = (base + lo) * STRIP;
    const kHi = (base + hi) * STRIP + STRIP - 1;
    const kq = (base + Math.min(hi, Math.max(lo, this.lonE4))) * STRIP;
    let start = from;
    let end = to;
    while (start < end) {
      const mid = (start + end) >>> 1;
      if ((key[sub === null ? mid : (sub[mid] as number)] as number) < kq) start = mid + 1;
      else end = mid;
    }
    let maxGap = gapLimit(best.a, this.cosLat, stripCos);
    for (let j = start; j < to; j++) {
      const l = sub === null ? j : (sub[j] as number);
      if ((key[l] as number) > kHi) break;
      const d = Math.abs((lonOf[l] as number) - this.lon);
      if ((d > 180 ? 360 - d : d) > maxGap) break;
      const a = this.a(l);
      if (a < best.a) {
        best.a = a;
        best.j = j;
        maxGap = gapLimit(best.a, this.cosLat, stripCos);
      }
    }
    for (let j = start - 1; j >= from; j--) {
      const l = sub === null ? j : (sub[j] as number);
      if ((key[l] as number) < kLo) break;
      const d = Math.abs((lonOf[l] as number) - this.lon);
      if ((d > 180 ? 360 - d : d) > maxGap) break;
      const a = this.a(l);
      if (a < best.a) {
        best.a = a;
        best.j = j;
        maxGap = gapLimit(best.a, this.cosLat, stripCos);
      }
    }
  }
}

/** First name id whose name is >= s (code-unit order, as stored). */
function nameLowerBound(ix: CountryIndex, s: string): number {
  let lo = 0;
  let hi = ix.nameOff.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ix.names.slice(ix.nameOff[mid], ix.nameOff[mid + 1]) < s) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Nearest entry whose place is the city, 'city …' or 'city<digit>…' (GeoNames' 'Berlin Mitte', 'Paris 01'). */
function nearestNamed(q: Query, city: string, maxKm: number, best: Best): void {
  const ix = q.ix;
  // [city, city + '!') is the city itself plus every 'city ' + anything (' ' is the only
  // character below '!' a stored name can hold); [city + '0', city + ':') the digit suffixes.
  for (const [lo, hi] of [[city, `${city}!`], [`${city}0`, `${city}:`]] as const) {
    const a = nameLowerBound(ix, lo);
    const z = nameLowerBound(ix, hi);
    if (a >= z) continue;
    const from = ix.nameFirst[a] as number;
    const to = ix.nameFirst[z] as number;
    if (to - from <= BRUTE_FORCE) {
      q.scanAll(ix.entryLoc, from, to, best);
      continue;
    }
    // Many points ('Lisboa' has 9 k rows, 'Paris' 20 arrondissements): name by name, each name's
    // entries being in key order.
    for (let u = a; u < z; u++) {
      const f = ix.nameFirst[u] as number;
      const t = ix.nameFirst[u + 1] as number;
      if (t - f <= BRUTE_FORCE) q.scanAll(ix.entryLoc, f, t, best);
      else q.search(ix.entryLoc, f, t, maxKm, best);
    }
  }
}

const zipOf = (ix: CountryIndex, e: number): string => String.fromCharCode(...ix.zips.subarray(ix.zipOff[e], ix.zipOff[e + 1]));

export function lookupZip(index: PostalIndex, countryCode: string, cityName: string | null, lat: number, lon: number, maxKm = 25): string | null {
  if (!Number.isFinite(lat) || !Number.isFinite(lon) || lat < -90 || lat > 90 || lon < -180 || lon > 180) return null;
  if (!(maxKm > 0)) return null;
  const km = Math.min(maxKm, MAX_KM);
  const ix = index.countries.get(countryCode.toUpperCase());
  if (ix === undefined || ix.locs === 0) return null;
  const q = new Query(ix, lat, lon);
  const limit = aOfKm(km);
  const city = cityName === null ? '' : placeKey(cityName);
  if (city !== '') {
    const named: Best = { j: -1, a: Number.POSITIVE_INFINITY };
    nearestNamed(q, city, km, named);
    if (named.j >= 0 && named.a <= limit) return zipOf(ix, named.j);
  }
  const best: Best = { j: -1, a: Number.POSITIVE_INFINITY };
  q.search(null, 0, ix.locs, km, best);
  return best.j >= 0 && best.a <= limit ? zipOf(ix, ix.locZip[best.j] as number) : null;
}

export interface PostalData {
  /**
   * Postal code for a point: the nearest point (within maxKm, default 25) whose place name is the
   * city ('München' = 'Munchen' = 'MUNCHEN'; 'Berlin' also matches 'Berlin Mitte', 'Paris' also
   * 'Paris 01'); else the nearest postal point of the country within maxKm; else null. city may be
   * null; an unknown country, or no import yet, gives null.
   */
  zipFor(countryCode: string, cityName: string | null, lat: number, lon: number, maxKm?: number): string | null;
  /** name, version ('none' until imported), source, license. */
  readonly info: DatasetInfo;
  /** Postal points loaded (0 until imported). */
  readonly points: number;
  /** Re-reads the dataset if a new version was imported (also done every reloadMs); true when one was loaded. */
  refresh(): boolean;
  /** Stops the periodic reload. */
  close(): void;
}

/** The imported `geonames-postal` dataset (empty until `vigil data import`), re-read when a new version appears. */
export function loadPostalData(opts: { dataDir: string | null; reloadMs?: number; onReloadError?: (err: unknown) => void }): PostalData {
  const dataset = new ImportedDataset<PostalIndex>(GEONAMES_POSTAL, opts.dataDir, parsePostalTsv, EMPTY, opts.onReloadError);
  dataset.refresh();
  const stop = opts.dataDir === null ? () => undefined : watchDatasets([dataset], opts.reloadMs ?? 5000);
  return {
    zipFor: (countryCode, cityName, lat, lon, maxKm) => lookupZip(dataset.value, countryCode, cityName, lat, lon, maxKm),
    get info() {
      return dataset.info;
    },
    get points() {
      return dataset.value.points;
    },
    refresh: () => dataset.refresh(),
    close: stop,
  };
}
