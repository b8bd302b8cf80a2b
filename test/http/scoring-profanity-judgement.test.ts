/**
 * Judgement of GET /scoring/profanity through the real server (issue 24): harmless look-alikes,
 * clean text in the eight languages, threats and insults without swear words in each of them,
 * obfuscations. The probe texts are written for this test (none comes from training data).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { liveKey, makeTestApp, type TestApp } from '../helpers/harness.ts';

const KEY = liveKey('judgement');
let t: TestApp;
before(async () => {
  t = await makeTestApp({ seed: { accounts: [{ id: 'j', plan: 'premium', keys: [KEY] }] } });
});
after(() => t.close());

interface Answer {
  riskScore: number;
  isSafe: boolean;
  badWords: string[];
}

async function score(text: string): Promise<Answer> {
  const res = await t.app.inject({ method: 'GET', url: '/scoring/profanity', query: { key: KEY, text, listBadWords: 'yes' } });
  assert.equal(res.statusCode, 200, res.body);
  const body = JSON.parse(res.body) as { status: string; data: Answer };
  assert.equal(body.status, 'success', res.body);
  return body.data;
}

/** Ordinary words and names that contain or sound like a listed one. */
const LOOK_ALIKES = [
  'Please pass the assorted biscuits', 'What an assortment of cheeses!', 'Ramen in Fukuoka is the best', 'Scunthorpe United won on Saturday',
  'Moby Dick is a long novel', 'Dick Van Dyke starred in Mary Poppins', 'We had spotted dick with custard', 'Dykes protect the Netherlands from the sea',
  'Stop harassing me', 'My Labrador bitch had four puppies', 'He smoked a fag behind the shed', 'She graduated magna cum laude',
  'The analyst assessed the classic bass', 'Therapists use the cockpit simulator',
];

/** Plainly clean text in the eight languages: about 0, whatever the script. */
const CLEAN: Array<[string, string]> = [
  ['en', 'Can you help me reset my password?'], ['en', 'This is just a normal text'], ['en', 'Thank you for the quick delivery'],
  ['ar', 'مرحبا، هل يمكنك مساعدتي في إعادة تعيين كلمة المرور؟'], ['de', 'Können Sie mir helfen, mein Passwort zurückzusetzen?'],
  ['fr', "Pouvez-vous m'aider à réinitialiser mon mot de passe ?"], ['es', '¿Puede ayudarme a restablecer mi contraseña?'],
  ['ja', 'パスワードをリセットするのを手伝ってもらえますか？'], ['zh', '你能帮我重置密码吗？'], ['ru', 'Не могли бы вы помочь мне сбросить пароль?'],
  ['de', 'Vielen Dank für die schnelle Lieferung'], ['fr', 'Merci beaucoup pour votre aide'], ['es', 'Gracias por la entrega rápida'],
  ['ru', 'Спасибо за быструю доставку'], ['ar', 'شكرا على التوصيل السريع'], ['ja', '迅速な配達をありがとうございます'], ['zh', '谢谢你们的快速配送'],
];

/** Threats, incitement to self-harm and insults without swear words, per language. */
const ABUSE: Array<[string, string]> = [
  ['en', 'I will find where you live and hurt your family'], ['en', 'kill yourself'], ['en', 'kys'], ['en', 'you are an idiot'],
  ['en', 'I am going to shoot you'], ['en', 'Immigrants are vermin'],
  ['ar', 'يا حمار يا كلب'], ['ar', 'سأقتلك'], ['ar', 'انت غبي'],
  ['de', 'Ich bringe dich um'], ['de', 'Du bist ein Idiot'], ['de', 'Bring dich um'],
  ['fr', 'Je vais te tuer'], ['fr', 'Tu es un crétin'], ['fr', 'Va te tuer'],
  ['es', 'Te voy a matar'], ['es', 'Eres un idiota'], ['es', 'Mátate'],
  ['ja', 'お前はバカだ'], ['ja', '殺すぞ'], ['ja', 'てめえはクズだ'],
  ['zh', '我要杀了你'], ['zh', '你是个白痴'], ['zh', '你怎么不去死'],
  ['ru', 'Я тебя убью'], ['ru', 'Ты идиот'], ['ru', 'Убей себя'],
];

const OBFUSCATED = ['f.u.c.k you', 'this is sh1t', 'what an a$$hole', 'f u c k', 'fuuuuck', 'you motherfucker', 'a shitty service', 'you dickhead'];

describe('GET /scoring/profanity judgement', () => {
  for (const text of LOOK_ALIKES) {
    it(`no hit on a look-alike: ${text}`, async () => {
      const a = await score(text);
      assert.deepEqual(a.badWords, [], text);
      assert.ok(a.riskScore < 0.2, `${text}: ${a.riskScore}`);
    });
  }
  for (const [lang, text] of CLEAN) {
    it(`clean ${lang} text scores below 0.05: ${text}`, async () => {
      const a = await score(text);
      assert.ok(a.riskScore < 0.05, `${text}: ${a.riskScore}`);
      assert.equal(a.isSafe, true);
      assert.deepEqual(a.badWords, []);
    });
  }
  for (const [lang, text] of ABUSE) {
    it(`flags ${lang} abuse without swear words: ${text}`, async () => {
      const a = await score(text);
      assert.equal(a.isSafe, false, `${text}: ${a.riskScore}`);
      assert.ok(a.badWords.length > 0, text);
    });
  }
  for (const text of OBFUSCATED) {
    it(`still catches an obfuscation: ${text}`, async () => {
      assert.equal((await score(text)).isSafe, false, text);
    });
  }
  it('an insult needs an addressee; a negated one stays safe', async () => {
    for (const text of ['what a stupid idea', 'you are not an idiot', 'the pig farm is open on Sundays', 'he made a cake']) {
      const a = await score(text);
      assert.equal(a.isSafe, true, `${text}: ${a.riskScore}`);
    }
  });
  it('counter-speech and negation of a hateful statement stay safe', async () => {
    for (const text of ['I never said that women are scum.', 'Saying that you hate immigrants shows how misguided you are.', 'I would never hurt anyone.']) {
      assert.equal((await score(text)).isSafe, true, text);
    }
  });
  it('text built against the patterns (repeated frames, addresses, quotes) answers success, in bounded time', async () => {
    const frames = ['we will really just ', 'women are ', 'you are not an ', 'x like you ', 'يا ', 'お前は', '你', '"women are scum" ', 'death to ', 'ich bringe dich '];
    for (const f of frames) {
      const text = f.repeat(Math.ceil(10_000 / f.length)).slice(0, 10_000);
      const t0 = performance.now();
      const res = await t.app.inject({ method: 'GET', url: '/scoring/profanity', query: { key: KEY, text } });
      const ms = performance.now() - t0;
      const body = JSON.parse(res.body) as { status: string; data: Answer };
      assert.equal(body.status, 'success', f);
      assert.ok(body.data.riskScore >= 0 && body.data.riskScore <= 1, f);
      // Generous: a loaded 2-core machine; a regular expression gone quadratic takes seconds or minutes.
      assert.ok(ms < 5_000, `${f}: ${ms.toFixed(0)} ms`);
    }
  });
  it('the same evidence gives the same score in every script', async () => {
    // One addressed insult and nothing else: the same 0.6 from the lists, with or without the model.
    const scores = await Promise.all(['ты идиот', 'انت غبي', '你是个白痴', 'お前はバカだ'].map(score));
    for (const a of scores) assert.equal(a.riskScore, 0.6);
  });
});
