/** Academic domains and suffixes (swot's list, academic-tld, Vigil's own suffixes). */
export interface EducationIndex {
  /** Registered domains of schools and universities (`stanford.edu`, `ox.ac.uk`, `tum.de`). */
  readonly domains: ReadonlySet<string>;
  /** Suffixes under which every domain is academic (`edu`, `ac.uk`, `edu.au`). */
  readonly suffixes: ReadonlySet<string>;
  /** Domains that look academic but are not, or whose addresses are handed out to anyone (swot's stoplist and abuse list). */
  readonly excluded: ReadonlySet<string>;
}

/**
 * True when the domain or one of its parents is an academic domain, or sits under an academic
 * suffix; the most specific name decides, so an excluded subdomain (`2011.cqut.edu.cn`) is not
 * academic while its parent is.
 */
export function isEducationalDomain(domain: string, index: EducationIndex): boolean {
  const labels = domain.split('.');
  for (let i = 0; i < labels.length; i++) {
    const name = labels.slice(i).join('.');
    if (index.excluded.has(name)) return false;
    if (index.domains.has(name)) return true;
    // A bare suffix (`ac.uk` itself) is not a school; a name under it is.
    if (i > 0 && index.suffixes.has(name)) return true;
  }
  return false;
}
