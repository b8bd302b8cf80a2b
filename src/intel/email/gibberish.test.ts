import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gibberishSigns, isGibberish } from './gibberish.ts';

/**
 * Real-looking local parts in many languages: none may be flagged (the detector is conservative).
 * Romanised names of several scripts, names with rare letter pairs or long consonant runs, and
 * the usual shapes of real addresses (initials, years, tags).
 */
const NAMES = [
  // the examples
  'jean.dupont', 'mueller.hans', 'sato.hiroshi', 'olusegun.obasanjo', 'xiaoming.wang', 'ivanov.ivan',
  // French, German, Dutch, Scandinavian
  'marie-claire.lefebvre', 'francois.gueguen', 'jacques.chirac', 'schwarzkopf', 'nietzsche', 'angstschweiss', 'schmidt',
  'hans-juergen.schroeder', 'müller.jürgen', 'dijkstra', 'van.der.berg', 'kjell.andersen', 'bjorn.ostergaard', 'søren.kierkegaard',
  // English, Irish, Welsh, Scottish
  'siobhan.oconnor', 'aoife', 'llewellyn', 'rhys.ap.gwilym', 'fitzgerald', 'mcbride', 'maxwell', 'foxworthy', 'crawford.hawkins',
  'campbell', 'john.smith1985', 'j.smith', 'jsmith', 'typewriter',
  // Slavic, Baltic, Balkan, Caucasus
  'krzysztof.szczepanski', 'przemyslaw', 'wojciechowski', 'brzeczyszczykiewicz', 'strzelczyk', 'zbigniew.grzegorz', 'kowalczyk',
  'tkachenko', 'dzhugashvili', 'mkrtchyan', 'hrvoje', 'zvonimir', 'evgeny.petrov', 'gjergj.xhaka', 'vladislav.vasilievich',
  // Arabic, Persian, Turkish, South Asian
  'mohammed.alqahtani', 'abdulrahman', 'iqbal', 'taqwa.ahmed', 'luqman', 'aqsa', 'saqr', 'ozturk.mehmet', 'srinivasan',
  'venkataraghavan', 'chakraborty', 'bhattacharya', 'priyanka.chopra',
  // East and South-East Asian
  'nguyen.van.anh', 'tran.thi.thu', 'zhang.xiuying', 'qiu.qing', 'xu.xiaoqing', 'zhou.xun', 'yamaguchi', 'ryuichi.sakamoto',
  'tsubasa', 'kim.jiwoo', 'park.seojun',
  // African
  'chukwuemeka', 'ngozi.okonjo', 'kwame.nkrumah', 'tshabalala', 'mbappe', 'nkosazana', 'oluwaseun', 'mthunzi',
  // Latin America, Iberia, Italy, Greece
  'xochitl', 'joao.goncalves', 'maria.jose.lopez', 'giuseppe.verdi', 'papadopoulos',
  // Non-Latin scripts are not judged
  'иван.иванов', '王小明', 'さとう', 'محمد',
];

/** Random or keyboard-mashed: flagged. */
const MASHES = ['asdfghjkl', 'xkqzvbwp', 'qwpoeirut', 'zxcvbnm', 'lkjhgfdsa', 'qwertyuiop', 'kdjfhgur', 'a8f3k29dj4', 'xq7zk2vb9w', 'bvcxzq'];

describe('isGibberish', () => {
  for (const name of NAMES) {
    it(`keeps ${name}`, () => assert.equal(isGibberish(name), false, gibberishSigns(name).signs.join('; ')));
  }
  for (const mash of MASHES) {
    it(`flags ${mash}`, () => assert.equal(isGibberish(mash), true, gibberishSigns(mash).signs.join('; ')));
  }
  it('says what it saw', () => {
    const s = gibberishSigns('asdfghjkl');
    assert.ok(s.points >= 2);
    assert.ok(s.signs.some((x) => x.includes('keyboard')));
  });
  it('does not judge short runs or digits alone', () => {
    for (const local of ['xkq', 'bob', '123456789', '2024', 'x1']) assert.equal(isGibberish(local), false, local);
  });
});
