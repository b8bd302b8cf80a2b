import type { GulfBank } from '../intel/iban/types.ts';

/**
 * National bank codes of Saudi Arabia and the United Arab Emirates, the part of the BBAN that names
 * the bank (SA: 2 digits, AE: 3 digits). Written in the project from public facts: the banks'
 * published SWIFT BICs (checked against the SWIFT directory snapshot in swift-bic-codes), SAMA's
 * SARIE participant codes and CBUAE's bank codes as printed on the banks' own IBANs. Merged banks
 * keep their code (old IBANs stay in use) and name the bank they merged into. Kuwait, Bahrain,
 * Qatar and Jordan need no table: their IBAN bank code is the BIC's first four letters, so their
 * banks come from the imported BIC directory (src/data/import/swift-bic.ts).
 * docs/api-decisions.md "IBAN" lists how certain each table is.
 */
export const GULF_BANKS_VERSION = '2026-11-22';

const SNB = 'The Saudi National Bank (SNB)';
const SAB = 'Saudi Awwal Bank (SAB)';

/** Saudi Arabia: SAMA (Saudi Central Bank) SARIE bank codes. */
export const SA_BANKS: readonly GulfBank[] = [
  { code: '05', name: 'Alinma Bank', nameAr: 'مصرف الإنماء', swift: 'INMASARI', mergedInto: null },
  // NCB absorbed Samba in 2021 and took the name The Saudi National Bank; code 10 stayed.
  { code: '10', name: SNB, nameAr: 'البنك الأهلي السعودي', swift: 'NCBKSAJE', mergedInto: null },
  { code: '15', name: 'Bank AlBilad', nameAr: 'بنك البلاد', swift: 'ALBISARI', mergedInto: null },
  { code: '20', name: 'Riyad Bank', nameAr: 'بنك الرياض', swift: 'RIBLSARI', mergedInto: null },
  { code: '30', name: 'Arab National Bank', nameAr: 'البنك العربي الوطني', swift: 'ARNBSARI', mergedInto: null },
  { code: '40', name: 'Samba Financial Group', nameAr: 'مجموعة سامبا المالية', swift: 'SAMBSARI', mergedInto: SNB },
  // SABB absorbed Alawwal in 2019 and was renamed Saudi Awwal Bank in 2023; code 45 stayed.
  { code: '45', name: SAB, nameAr: 'البنك السعودي الأول', swift: 'SABBSARI', mergedInto: null },
  { code: '50', name: 'Alawwal Bank', nameAr: 'البنك الأول', swift: 'AAALSARI', mergedInto: SAB },
  { code: '55', name: 'Banque Saudi Fransi', nameAr: 'البنك السعودي الفرنسي', swift: 'BSFRSARI', mergedInto: null },
  { code: '60', name: 'Bank AlJazira', nameAr: 'بنك الجزيرة', swift: 'BJAZSAJE', mergedInto: null },
  { code: '65', name: 'Saudi Investment Bank', nameAr: 'البنك السعودي للاستثمار', swift: 'SIBCSARI', mergedInto: null },
  { code: '71', name: 'National Bank of Bahrain', nameAr: 'بنك البحرين الوطني', swift: 'NBOBSARI', mergedInto: null },
  { code: '75', name: 'National Bank of Kuwait', nameAr: 'بنك الكويت الوطني', swift: 'NBOKSAJE', mergedInto: null },
  { code: '76', name: 'Bank Muscat', nameAr: 'بنك مسقط', swift: 'BMUSSARI', mergedInto: null },
  { code: '80', name: 'Al Rajhi Bank', nameAr: 'مصرف الراجحي', swift: 'RJHISARI', mergedInto: null },
  { code: '81', name: 'Deutsche Bank', nameAr: 'دويتشه بنك', swift: 'DEUTSARI', mergedInto: null },
  { code: '82', name: 'National Bank of Pakistan', nameAr: 'بنك باكستان الوطني', swift: 'NBPASARI', mergedInto: null },
  { code: '83', name: 'State Bank of India', nameAr: 'بنك الدولة الهندي', swift: 'SBINSAJE', mergedInto: null },
  { code: '84', name: 'T.C. Ziraat Bankasi', nameAr: 'بنك زراعات التركي', swift: 'TCZBSAJE', mergedInto: null },
  { code: '85', name: 'BNP Paribas', nameAr: 'بي إن بي باريبا', swift: 'BNPASARI', mergedInto: null },
  { code: '86', name: 'J.P. Morgan Chase Bank', nameAr: 'جي بي مورقان تشيس', swift: 'CHASSARI', mergedInto: null },
  { code: '87', name: 'Industrial and Commercial Bank of China', nameAr: 'البنك الصناعي والتجاري الصيني', swift: 'ICBKSARI', mergedInto: null },
  { code: '90', name: 'Gulf International Bank', nameAr: 'بنك الخليج الدولي', swift: 'GULFSARI', mergedInto: null },
  { code: '95', name: 'Emirates NBD', nameAr: 'بنك الإمارات دبي الوطني', swift: 'EBILSARI', mergedInto: null },
];

const ADCB = 'Abu Dhabi Commercial Bank';
const DIB = 'Dubai Islamic Bank';

/**
 * United Arab Emirates: CBUAE bank codes (the first three digits of the BBAN, also digits 2-4 of the
 * bank's 9-digit UAEFTS routing codes). Checked 2026-11-22 against HSBC UAE's "List of Beneficiary
 * Bank Codes for AutoPay Services" (March 2022, business.hsbc.ae), as transcribed with the routing
 * codes in public code (the index did not name the repositories), and against IBAN pages: RAKBANK
 * 040 (rakbank.ae IBAN FAQ), Emirates NBD 026 (iwebreader.blogspot.com, 2011). ADCB 003, ADIB 050,
 * Sharjah Islamic Bank 041 and Noor Bank 052 also match checksum-valid IBANs that customers of those
 * banks publish with the bank's BIC. The HSBC list has 030 for Investbank (IBTFAEAS), not ADCB, and
 * 044 for Standard Chartered (SCBLAEAD), not Union National Bank, which is 045 (UNBEAEAA).
 */
export const AE_BANKS: readonly GulfBank[] = [
  { code: '003', name: ADCB, nameAr: 'بنك أبوظبي التجاري', swift: 'ADCBAEAA', mergedInto: null },
  { code: '023', name: 'Commercial Bank of Dubai', nameAr: 'بنك دبي التجاري', swift: 'CBDUAEAD', mergedInto: null },
  { code: '024', name: DIB, nameAr: 'بنك دبي الإسلامي', swift: 'DUIBAEAD', mergedInto: null },
  { code: '026', name: 'Emirates NBD', nameAr: 'بنك الإمارات دبي الوطني', swift: 'EBILAEAD', mergedInto: null },
  { code: '033', name: 'Mashreq Bank', nameAr: 'بنك المشرق', swift: 'BOMLAEAD', mergedInto: null },
  { code: '034', name: 'Emirates Islamic', nameAr: 'الإمارات الإسلامي', swift: 'MEBLAEAD', mergedInto: null },
  { code: '035', name: 'First Abu Dhabi Bank', nameAr: 'بنك أبوظبي الأول', swift: 'NBADAEAA', mergedInto: null },
  { code: '038', name: 'National Bank of Fujairah', nameAr: 'بنك الفجيرة الوطني', swift: 'NBFUAEAF', mergedInto: null },
  { code: '040', name: 'National Bank of Ras Al Khaimah (RAKBANK)', nameAr: 'بنك رأس الخيمة الوطني', swift: 'NRAKAEAK', mergedInto: null },
  { code: '041', name: 'Sharjah Islamic Bank', nameAr: 'مصرف الشارقة الإسلامي', swift: 'NBSHAEAS', mergedInto: null },
  // Union National Bank merged into ADCB in 2019, Noor Bank into Dubai Islamic Bank in 2020.
  { code: '045', name: 'Union National Bank', nameAr: 'بنك الاتحاد الوطني', swift: 'UNBEAEAA', mergedInto: ADCB },
  { code: '050', name: 'Abu Dhabi Islamic Bank', nameAr: 'مصرف أبوظبي الإسلامي', swift: 'ABDIAEAD', mergedInto: null },
  { code: '052', name: 'Noor Bank', nameAr: 'بنك نور', swift: 'NISLAEAD', mergedInto: DIB },
];

const KFH = 'Kuwait Finance House';
const RAYAN = 'Masraf Al Rayan';
const DUKHAN = 'Dukhan Bank';

/**
 * Kuwait, Bahrain, Qatar and Jordan: the IBAN bank code is the BIC's first four letters. The BIC
 * directory (imported `swift-bic-codes`) names every institution; this table adds, for the main
 * banks, the name as the bank writes it, the Arabic name, the head-office BIC and later mergers
 * (AUB Kuwait into KFH 2023, Al Khalij into Masraf Al Rayan 2021, IBQ into Barwa, renamed Dukhan
 * Bank, 2019-2020). It answers even before the directory is imported.
 */
export const BIC_CODE_BANKS: Readonly<Record<'KW' | 'BH' | 'QA' | 'JO', readonly GulfBank[]>> = {
  KW: [
    { code: 'ABKK', name: 'Al Ahli Bank of Kuwait', nameAr: 'البنك الأهلي الكويتي', swift: 'ABKKKWKW', mergedInto: null },
    { code: 'BBYN', name: 'Boubyan Bank', nameAr: 'بنك بوبيان', swift: 'BBYNKWKW', mergedInto: null },
    { code: 'BKME', name: 'Ahli United Bank (Kuwait)', nameAr: 'البنك الأهلي المتحد', swift: 'BKMEKWKW', mergedInto: KFH },
    { code: 'BRGN', name: 'Burgan Bank', nameAr: 'بنك برقان', swift: 'BRGNKWKW', mergedInto: null },
    { code: 'CBKU', name: 'Central Bank of Kuwait', nameAr: 'بنك الكويت المركزي', swift: 'CBKUKWKW', mergedInto: null },
    { code: 'COMB', name: 'Commercial Bank of Kuwait', nameAr: 'البنك التجاري الكويتي', swift: 'COMBKWKW', mergedInto: null },
    { code: 'GULB', name: 'Gulf Bank', nameAr: 'بنك الخليج', swift: 'GULBKWKW', mergedInto: null },
    { code: 'IBKU', name: 'Industrial Bank of Kuwait', nameAr: 'بنك الكويت الصناعي', swift: 'IBKUKWKW', mergedInto: null },
    { code: 'KFHO', name: KFH, nameAr: 'بيت التمويل الكويتي', swift: 'KFHOKWKW', mergedInto: null },
    { code: 'KWIB', name: 'Kuwait International Bank', nameAr: 'بنك الكويت الدولي', swift: 'KWIBKWKW', mergedInto: null },
    { code: 'NBOK', name: 'National Bank of Kuwait', nameAr: 'بنك الكويت الوطني', swift: 'NBOKKWKW', mergedInto: null },
    { code: 'WRBA', name: 'Warba Bank', nameAr: 'بنك وربة', swift: 'WRBAKWKW', mergedInto: null },
  ],
  BH: [
    { code: 'ABIB', name: 'Al Baraka Islamic Bank', nameAr: 'بنك البركة الإسلامي', swift: 'ABIBBHBM', mergedInto: null },
    { code: 'ALSA', name: 'Al Salam Bank', nameAr: 'بنك السلام', swift: 'ALSABHBM', mergedInto: null },
    { code: 'AUBB', name: 'Ahli United Bank', nameAr: 'البنك الأهلي المتحد', swift: 'AUBBBHBM', mergedInto: null },
    { code: 'BIBB', name: 'Bahrain Islamic Bank', nameAr: 'بنك البحرين الإسلامي', swift: 'BIBBBHBM', mergedInto: null },
    { code: 'BMAG', name: 'Central Bank of Bahrain', nameAr: 'مصرف البحرين المركزي', swift: 'BMAGBHBM', mergedInto: null },
    { code: 'ESKB', name: 'Eskan Bank', nameAr: 'بنك الإسكان', swift: 'ESKBBHBM', mergedInto: null },
    { code: 'KHCB', name: 'Khaleeji Bank', nameAr: 'الخليجي التجاري', swift: 'KHCBBHBM', mergedInto: null },
    { code: 'NBOB', name: 'National Bank of Bahrain', nameAr: 'بنك البحرين الوطني', swift: 'NBOBBHBM', mergedInto: null },
  ],
  QA: [
    { code: 'ABQQ', name: 'Ahli Bank', nameAr: 'البنك الأهلي', swift: 'ABQQQAQA', mergedInto: null },
    { code: 'BRWA', name: DUKHAN, nameAr: 'بنك دخان', swift: 'BRWAQAQA', mergedInto: null },
    { code: 'CBQA', name: 'The Commercial Bank', nameAr: 'البنك التجاري', swift: 'CBQAQAQA', mergedInto: null },
    { code: 'DOHB', name: 'Doha Bank', nameAr: 'بنك الدوحة', swift: 'DOHBQAQA', mergedInto: null },
    { code: 'IBOQ', name: 'International Bank of Qatar', nameAr: 'بنك قطر الدولي', swift: 'IBOQQAQA', mergedInto: DUKHAN },
    { code: 'KLJI', name: 'Al Khalij Commercial Bank', nameAr: 'بنك الخليجي التجاري', swift: 'KLJIQAQA', mergedInto: RAYAN },
    { code: 'MAFR', name: RAYAN, nameAr: 'مصرف الريان', swift: 'MAFRQAQA', mergedInto: null },
    { code: 'QIIB', name: 'Qatar International Islamic Bank', nameAr: 'بنك قطر الدولي الإسلامي', swift: 'QIIBQAQA', mergedInto: null },
    { code: 'QISB', name: 'Qatar Islamic Bank', nameAr: 'مصرف قطر الإسلامي', swift: 'QISBQAQA', mergedInto: null },
    { code: 'QMAG', name: 'Qatar Central Bank', nameAr: 'مصرف قطر المركزي', swift: 'QMAGQAQA', mergedInto: null },
    { code: 'QNBA', name: 'Qatar National Bank', nameAr: 'بنك قطر الوطني', swift: 'QNBAQAQA', mergedInto: null },
  ],
  JO: [
    { code: 'AJIB', name: 'Arab Jordan Investment Bank', nameAr: 'بنك الاستثمار العربي الأردني', swift: 'AJIBJOAX', mergedInto: null },
    { code: 'ARAB', name: 'Arab Bank', nameAr: 'البنك العربي', swift: 'ARABJOAX', mergedInto: null },
    { code: 'BJOR', name: 'Bank of Jordan', nameAr: 'بنك الأردن', swift: 'BJORJOAX', mergedInto: null },
    { code: 'CAAB', name: 'Cairo Amman Bank', nameAr: 'بنك القاهرة عمان', swift: 'CAABJOAM', mergedInto: null },
    { code: 'CBJO', name: 'Central Bank of Jordan', nameAr: 'البنك المركزي الأردني', swift: 'CBJOJOAX', mergedInto: null },
    { code: 'EFBK', name: 'Capital Bank of Jordan', nameAr: 'بنك المال الأردني', swift: 'EFBKJOAM', mergedInto: null },
    { code: 'HBHO', name: 'The Housing Bank for Trade and Finance', nameAr: 'بنك الإسكان للتجارة والتمويل', swift: 'HBHOJOAX', mergedInto: null },
    { code: 'IIBA', name: 'Islamic International Arab Bank', nameAr: 'البنك العربي الإسلامي الدولي', swift: 'IIBAJOAM', mergedInto: null },
    { code: 'JDIB', name: 'Safwa Islamic Bank', nameAr: 'مصرف صفوة الإسلامي', swift: 'JDIBJOAM', mergedInto: null },
    { code: 'JGBA', name: 'Jordan Commercial Bank', nameAr: 'البنك التجاري الأردني', swift: 'JGBAJOAM', mergedInto: null },
    { code: 'JIBA', name: 'Jordan Islamic Bank', nameAr: 'البنك الإسلامي الأردني', swift: 'JIBAJOAM', mergedInto: null },
    { code: 'JIFB', name: 'Invest Bank', nameAr: 'البنك الاستثماري', swift: 'JIFBJOAM', mergedInto: null },
    { code: 'JKBA', name: 'Jordan Kuwait Bank', nameAr: 'البنك الأردني الكويتي', swift: 'JKBAJOAM', mergedInto: null },
    { code: 'JONB', name: 'Jordan Ahli Bank', nameAr: 'البنك الأهلي الأردني', swift: 'JONBJOAX', mergedInto: null },
    { code: 'UBSI', name: 'Bank al Etihad', nameAr: 'بنك الاتحاد', swift: 'UBSIJOAX', mergedInto: null },
  ],
};

/** The national tables by country, keyed by bank code. */
export const NATIONAL_BANK_TABLES: ReadonlyMap<string, ReadonlyMap<string, GulfBank>> = new Map([
  ['SA', new Map(SA_BANKS.map((b) => [b.code, b]))],
  ['AE', new Map(AE_BANKS.map((b) => [b.code, b]))],
]);
