/**
 * Project-written training sentences added to the tweets' training split (never to the held-out
 * split): abuse that uses no listed word, and listed-looking words used harmlessly, which the
 * tweets barely contain. Kept short on purpose; each line is plain, reviewable text.
 */
import type { Example } from '../intel/text/train.ts';

const ABUSIVE = [
  'nobody would miss you if you disappeared',
  'you are pathetic and useless',
  'kill yourself nobody wants you here',
  'you are a waste of oxygen',
  'i hope you die in a fire',
  'you are so ugly nobody could love you',
  'shut up you brainless clown',
  'you disgusting pig',
  'crawl back under your rock, loser',
  'go jump off a bridge',
  'you are garbage and everyone knows it',
  'your mother should have drowned you at birth',
  'i will find you and hurt you',
  'you are the dumbest person alive',
  'get lost you filthy rat',
  'drop dead',
  'people like you should be exterminated',
  'you are a worthless piece of trash',
  'i hope you get cancer',
  'you freak, nobody invited you',
];

const CLEAN = [
  'we had cocktails at the hotel bar in scunthorpe',
  'my favourite author is charles dickens',
  'the assassin in the film was brilliant',
  'the cockpit of the plane was small',
  'hello, how are you today?',
  'thank you so much for your help with the order',
  'the weather is lovely, let us go to the park',
  'i love my dog and my cat',
  'the meeting is moved to thursday at ten',
  'please send me the invoice for last month',
  'congratulations on your new job',
  'we analysed the class results with the assistant',
  'the grass is green and the sky is blue',
  'can you recommend a good book about history',
  'my daughter scored a goal in the match',
  'the package arrived on time, great service',
  'i am cooking pasta with basil tonight',
  'happy birthday, have a wonderful day',
  'the museum has a new exhibition about birds',
  'see you at the concert next week',
];

export const SUPPLEMENT: readonly Example[] = [
  ...ABUSIVE.map((text): Example => ({ text, label: 1 })),
  ...CLEAN.map((text): Example => ({ text, label: 0 })),
];
