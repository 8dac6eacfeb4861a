import { BRAIN_LANGUAGES, feedbackChoicesIn } from './texts.ts';

/**
 * What a customer's words ask for, beyond a question: a person, the end of the chat, or whether
 * the last answer helped. Each is read in English, German, Spanish and French whatever the
 * conversation's locale (a customer may write in any of them); the feedback buttons' values in
 * every language of the brain's (texts.ts).
 *
 * Words with accents ("tschüss", "adiós", "génial") are not words to JavaScript's `\b`, which knows
 * only ASCII letters: patterns here mark a word's ends as "no letter or digit of any script beside".
 */

const PERSON_EN =
  '(?:human|person|someone|somebody|agent|representative|operator|staff|people|real person|team member)';
const PERSON_DE = '(?:mensch(?:en)?|person|jemandem|mitarbeiter(?:in)?|berater(?:in)?|kundendienst|kundenservice)';
const PERSON_ES = '(?:persona|humano|alguien|agente|operador(?:a)?|representante|asesor(?:a)?)';
const PERSON_FR = "(?:personne|humain|quelqu'un|agent|conseill(?:er|ère)|opérat(?:eur|rice)|interlocuteur)";

const ASKS_FOR_PERSON = [
  new RegExp(`\\b(?:talk|speak|chat|connect|transfer|put)\\b.{0,40}\\b${PERSON_EN}\\b`, 'i'),
  new RegExp(
    `\\b(?:want|need|get|give)\\b.{0,20}\\b(?:a|an|the|some)?\\s*(?:human|real person|live agent|representative|operator)\\b`,
    'i',
  ),
  /^\s*(?:human|agent|person|operator|representative)\b[\s!.,]*(?:please)?[\s!.]*$/i,
  // German: "Ich möchte mit einem Menschen sprechen", "Verbinden Sie mich bitte mit einem Mitarbeiter"
  new RegExp(
    `(?:^|\\s)(?:mit|zu)\\s+(?:einem|einer|einen|jemandem)?\\s*${PERSON_DE}(?=[\\s,.!?]|$).{0,40}(?:sprechen|reden|chatten|verbinden|verbunden|schreiben)`,
    'iu',
  ),
  new RegExp(
    `(?:sprechen|reden|chatten|verbinden|verbunden)\\b.{0,30}(?:^|\\s)mit\\s+(?:einem|einer|jemandem)?\\s*${PERSON_DE}(?=[\\s,.!?]|$)`,
    'iu',
  ),
  // Spanish: "quiero hablar con una persona", "pásame con un agente"
  new RegExp(
    `(?:hablar|comunicarme|pasar|pásame|pasarme|conectar|atender)(?=\\s).{0,30}\\scon\\s+(?:una?|el|la|algún|alguna)?\\s*${PERSON_ES}(?=[\\s,.!?]|$)`,
    'iu',
  ),
  // French: "je voudrais parler à une personne", "mettez-moi en relation avec un conseiller"
  new RegExp(
    `(?:parler|discuter|échanger|relation)(?=\\s).{0,30}\\s(?:à|a|avec)\\s+(?:une?|le|la)?\\s*${PERSON_FR}`,
    'iu',
  ),
];

export function asksForPerson(text: string): boolean {
  return ASKS_FOR_PERSON.some((pattern) => pattern.test(text));
}

/** The phrases of a list written `one | two words | three`, across lines as it fits. */
const phrases = (list: string): string[] => list.trim().split(/\s*\|\s*/);

/** A pattern that matches one of `list`'s phrases standing as a word, in any script (see above). */
const asWord = (list: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${phrases(list).join('|')})(?![\\p{L}\\p{N}])`, 'iu');

const THANKS_OR_BYE = [
  asWord(`thanks | thank you | thank u | thx | ty | cheers | much appreciated | bye | goodbye | good bye | see you
    | that's all | that is all | all good | perfect | great`),
  asWord(`danke | dankeschön | vielen dank | besten dank | herzlichen dank | tschüss | tschüs | auf wiedersehen
    | bis bald | schönen tag | das war's | das wars | das war alles | perfekt | prima`),
  asWord(`gracias | adiós | adios | hasta luego | hasta pronto | chao | eso es todo | perfecto | genial | estupendo`),
  asWord(`merci | au revoir | bonne journée | bonne soirée | à bientôt | a bientôt | a bientot | c'est tout | parfait
    | génial | super`),
];

/** A short thank-you or goodbye that asks nothing more ("Thanks!", "Vielen Dank", "¡Gracias!", "Merci, au revoir"). */
export function saysThanksOrBye(text: string): boolean {
  if (text.length > 80 || /[?¿？؟]/.test(text)) return false;
  const said = text.replaceAll('’', "'");
  return THANKS_OR_BYE.some((pattern) => pattern.test(said));
}

/**
 * The words of a reply to "did that help?", per language: what says yes, what says no (a no, or a
 * "not" that turns the words after it: "nicht wirklich", "ça ne m'a pas aidé"), and what says
 * neither but may stand beside them ("thanks", "it", "really"). A phrase is its words with one
 * space between them.
 */
const FEEDBACK_WORDS: { yes: string; no: string; neither: string }[] = [
  {
    yes: `yes | yeah | yep | yup | sure | of course | ok | okay | perfect | great | awesome | excellent | exactly
      | absolutely | definitely | indeed | correct | helped | helpful | did | it does | does | got it | that's it`,
    no: `no | nope | nah | not | didn't | didnt | did not | doesn't | doesnt | does not | wasn't | was not | unhelpful
      | nothing`,
    neither: `thanks | thank you | thx | ty | cheers | it | that | this | was | very | really | so | much | a lot | lot
      | quite | help | helps | me | unfortunately | sadly | at all | i think`,
  },
  {
    yes: `ja | jap | jep | jo | jawohl | genau | klar | alles klar | perfekt | super | prima | toll | gut | passt
      | geholfen | weitergeholfen | hilfreich | stimmt | ok | okay`,
    no: `nein | nee | nö | nicht | kein | keine | gar nicht | überhaupt nicht`,
    neither: `danke | dankeschön | danke schön | vielen dank | das | es | hat | mir | sehr | wirklich | echt | so | ganz
      | leider | schon`,
  },
  {
    yes: `sí | si | claro | por supuesto | perfecto | perfecta | genial | vale | ok | de acuerdo | exacto | correcto
      | sirvió | servido | ayudó | ayudado | útil | excelente | estupendo | bien | muy bien`,
    no: `no | nada | para nada | tampoco`,
    neither: `gracias | muchas gracias | me | ha | lo | eso | esto | muy | mucho | la verdad | realmente | de verdad`,
  },
  {
    yes: `oui | ouais | si | parfait | super | génial | d'accord | ok | exactement | tout à fait | aidé | c'est bon
      | impeccable | nickel | utile | très bien | bien | ça marche`,
    no: `non | pas | ne | n'a | n'était | pas du tout`,
    neither: `merci | merci beaucoup | ça | cela | m'a | a | vraiment | très | beaucoup | été | du tout`,
  },
  { yes: `نعم | أجل | بالتأكيد | ساعدني`, no: `لا | كلا | لم`, neither: `شكرا | شكرًا | شكراً | لقد | ذلك | يساعدني` },
  {
    yes: `はい | ええ | うん | 役に立ちました | 助かりました | 助かった | 解決しました`,
    no: `いいえ | いや | ううん | 役に立ちませんでした | 解決しませんでした`,
    neither: `ありがとう | ありがとうございます | ありがとうございました`,
  },
];

type FeedbackWord = 'yes' | 'no' | 'neither';

const FEEDBACK_PHRASES = new Map<string, FeedbackWord>();
for (const language of FEEDBACK_WORDS)
  for (const kind of ['neither', 'no', 'yes'] as const)
    for (const phrase of phrases(language[kind])) FEEDBACK_PHRASES.set(phrase, kind);
const LONGEST_PHRASE = Math.max(...[...FEEDBACK_PHRASES.keys()].map((phrase) => phrase.split(' ').length));

/** A reply's words, lower-case; an apostrophe stays in its word ("didn't", "m'a"), marks join their letter (Arabic). */
const wordsOf = (text: string): string[] =>
  text
    .toLowerCase()
    .normalize('NFC')
    .replaceAll('’', "'")
    .match(/[\p{L}\p{M}\p{N}']+/gu) ?? [];

/** Every feedback button's value, in every language, by its words: true for a Yes, false for a No. */
const BUTTON_VALUES = new Map<string, boolean>(
  BRAIN_LANGUAGES.flatMap((language) => {
    const [yes, no] = feedbackChoicesIn(language);
    return [
      [wordsOf(yes!.value).join(' '), true],
      [wordsOf(no!.value).join(' '), false],
    ] as const;
  }),
);

/** A reply longer than this many words is a message of its own, not a yes or a no. */
const FEEDBACK_WORDS_MAX = 6;

/**
 * The customer's answer to "did that help?": true for a yes, false for a no, undefined when the
 * message is neither and must be read as a message of its own (a new question).
 *
 * A feedback button's value, in any language, is its answer ("Nein, das hat nicht geholfen.").
 * Otherwise a reply is a yes or a no only when it is short (at most FEEDBACK_WORDS_MAX words), asks
 * nothing (no question mark of any script), and every word of it is a yes-word, a no-word, or a word
 * that says neither ("yes thanks", "ja danke", "perfecto, gracias", "not really", "nicht wirklich").
 * One word outside those makes it a message: "no, how long is delivery" is a question. After a
 * no-word, yes-words are what is denied ("das hat nicht geholfen", "ça ne m'a pas aidé"); a yes
 * before a no ("ja, nicht wirklich") is undecided. Thanks alone is neither ("danke" is the thanks
 * intent's).
 *
 * @example answersHelped('Ja danke') // true
 * @example answersHelped('no, how long is delivery?') // undefined
 */
export function answersHelped(text: string): boolean | undefined {
  if (text.length > 200) return undefined;
  const words = wordsOf(text);
  const button = BUTTON_VALUES.get(words.join(' '));
  if (button !== undefined) return button;
  if (/[?¿？؟]/.test(text) || words.length === 0 || words.length > FEEDBACK_WORDS_MAX) return undefined;
  let yes = false;
  let no = false;
  for (let at = 0; at < words.length;) {
    const found = longestPhraseAt(words, at);
    if (!found) return undefined;
    if (found.kind === 'no') no = true;
    else if (found.kind === 'yes' && !no) yes = true;
    at += found.length;
  }
  if (yes === no) return undefined;
  return yes;
}

/** The longest feedback phrase that starts at word `at`, and how many words it takes. */
function longestPhraseAt(words: readonly string[], at: number): { kind: FeedbackWord; length: number } | undefined {
  for (let length = Math.min(LONGEST_PHRASE, words.length - at); length > 0; length--) {
    const kind = FEEDBACK_PHRASES.get(words.slice(at, at + length).join(' '));
    if (kind) return { kind, length };
  }
  return undefined;
}
