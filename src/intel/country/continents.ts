import type { ContinentCode, ContinentFacts } from './facts.ts';

/**
 * The seven continents with their GeoNames ids (the fixed continent features 6255146-6255152)
 * and names. Names are Unicode CLDR 48's region names, read once through
 * `Intl.DisplayNames(lang, { type: 'region' })` for UN M.49 areas 002 (Africa), 142 (Asia),
 * 150 (Europe), 003 (North America), 005 (South America), 009 (Oceania) and territory AQ, and
 * frozen here so answers do not change with the runtime's ICU. One edit: CLDR's Japanese name
 * for 003 is "北アメリカ大陸" while 005 is "南アメリカ"; we use "北アメリカ" to match.
 */
export const CONTINENTS: Readonly<Record<ContinentCode, ContinentFacts>> = {
  AF: {
    code: 'AF',
    geonameId: 6255146,
    names: { EN: 'Africa', AR: 'أفريقيا', DE: 'Afrika', FR: 'Afrique', ES: 'África', JA: 'アフリカ', ZH: '非洲', RU: 'Африка' },
  },
  AS: {
    code: 'AS',
    geonameId: 6255147,
    names: { EN: 'Asia', AR: 'آسيا', DE: 'Asien', FR: 'Asie', ES: 'Asia', JA: 'アジア', ZH: '亚洲', RU: 'Азия' },
  },
  EU: {
    code: 'EU',
    geonameId: 6255148,
    names: { EN: 'Europe', AR: 'أوروبا', DE: 'Europa', FR: 'Europe', ES: 'Europa', JA: 'ヨーロッパ', ZH: '欧洲', RU: 'Европа' },
  },
  NA: {
    code: 'NA',
    geonameId: 6255149,
    names: {
      EN: 'North America',
      AR: 'أمريكا الشمالية',
      DE: 'Nordamerika',
      FR: 'Amérique du Nord',
      ES: 'América del Norte',
      JA: '北アメリカ',
      ZH: '北美洲',
      RU: 'Северная Америка',
    },
  },
  SA: {
    code: 'SA',
    geonameId: 6255150,
    names: {
      EN: 'South America',
      AR: 'أمريكا الجنوبية',
      DE: 'Südamerika',
      FR: 'Amérique du Sud',
      ES: 'Sudamérica',
      JA: '南アメリカ',
      ZH: '南美洲',
      RU: 'Южная Америка',
    },
  },
  OC: {
    code: 'OC',
    geonameId: 6255151,
    names: { EN: 'Oceania', AR: 'أوقيانوسيا', DE: 'Ozeanien', FR: 'Océanie', ES: 'Oceanía', JA: 'オセアニア', ZH: '大洋洲', RU: 'Океания' },
  },
  AN: {
    code: 'AN',
    geonameId: 6255152,
    names: { EN: 'Antarctica', AR: 'أنتاركتيكا', DE: 'Antarktis', FR: 'Antarctique', ES: 'Antártida', JA: '南極', ZH: '南极洲', RU: 'Антарктида' },
  },
};

/** Narrows a data string to a continent code. */
export function isContinentCode(value: string): value is ContinentCode {
  return Object.hasOwn(CONTINENTS, value);
}
