import { describe, expect, it } from 'vitest';
import { answersHelped, asksForPerson, saysThanksOrBye } from './intents.ts';
import { BRAIN_LANGUAGES, feedbackChoicesIn, personRequestIn } from './texts.ts';

describe('a request for a person', () => {
  it.each([
    'I want to talk to a person',
    'Ich möchte mit einem Menschen sprechen',
    'Können Sie mich bitte mit einem Mitarbeiter verbinden?',
    'Ich will mit jemandem reden, nicht mit einem Bot',
    'Quiero hablar con una persona',
    '¿Me puedes pasar con un agente?',
    'Je voudrais parler à un conseiller',
    "Mettez-moi en relation avec quelqu'un, s'il vous plaît",
  ])('hands over for "%s"', (text) => {
    expect(asksForPerson(text)).toBe(true);
  });

  it.each([
    'Mein Paket wurde an eine andere Person geliefert',
    'Kann ich mit PayPal bezahlen?',
    '¿Puedo hablar de mi pedido aquí?',
    'La personne qui a reçu le colis est mon voisin',
    'How do I return an item?',
  ])('does not hand over for "%s", which asks for no person', (text) => {
    expect(asksForPerson(text)).toBe(false);
  });

  it("is what the person button sends in every language of the brain's, and is read as one", () => {
    for (const language of BRAIN_LANGUAGES) expect(asksForPerson(personRequestIn(language)), language).toBe(true);
    expect(personRequestIn('de-AT')).toBe('Ich möchte bitte mit einer Person sprechen.');
    expect(personRequestIn('ja')).toBe('I would like to talk to a person, please.');
  });
});

describe('a thank-you or goodbye', () => {
  it.each([
    'Thanks!',
    'Thank you, bye',
    'Great, cheers',
    'Danke!',
    'Vielen Dank, tschüss',
    'Das war’s, danke schön',
    '¡Muchas gracias!',
    'Adiós, hasta luego',
    'Merci beaucoup !',
    'Au revoir, bonne journée',
    'Génial, merci',
  ])('is read in "%s"', (text) => {
    expect(saysThanksOrBye(text)).toBe(true);
  });

  it.each([
    'Danke, aber wie lange dauert die Lieferung?',
    '¿Gracias, y cuánto cuesta el envío?',
    'Merci, mais quel est le délai ?',
    'Ist das Paket schon unterwegs',
    'Tengo una pregunta sobre mi pedido',
    'Quelle est votre politique de retour',
    // A word that holds a thank-you word is not one ("supervisor", "gracioso", "Dankesbrief").
    'I need a supervisor',
    'Es un chiste gracioso',
    'Ich schreibe einen Dankesbrief an den Kundendienst',
  ])('is not read in "%s", which asks or says something else', (text) => {
    expect(saysThanksOrBye(text)).toBe(false);
  });
});

describe('the answer to "did that help?"', () => {
  it.each([
    'yes',
    'Yes thanks',
    'yes, it did',
    'Yep, that helped a lot!',
    'perfect',
    'ja',
    'Ja danke',
    'ja, das hat mir sehr geholfen',
    'Super, danke!',
    'sí',
    'Si, gracias',
    'perfecto, gracias',
    'Sí, me sirvió mucho',
    'oui',
    'Oui merci',
    "Parfait, ça m'a beaucoup aidé",
    'はい',
    'نعم، شكرا',
  ])('is a yes in "%s"', (text) => {
    expect(answersHelped(text)).toBe(true);
  });

  it.each([
    'no',
    'No.',
    'not really',
    "no, it didn't",
    'Nope, not helpful',
    'nein',
    'nicht wirklich',
    'Nein, leider nicht',
    'das hat nicht geholfen',
    'no, para nada',
    'No me ha ayudado',
    'non',
    'Pas vraiment',
    "ça ne m'a pas aidé",
    'いいえ',
    'لا',
  ])('is a no in "%s"', (text) => {
    expect(answersHelped(text)).toBe(false);
  });

  it.each([
    // A new question stays a question, whether it asks with a question mark or not.
    'no, how long is delivery?',
    'no, how long is delivery',
    'Ja, und wie lange dauert der Versand?',
    'Nein, ich brauche die Größentabelle',
    'Sí, pero ¿cuánto cuesta el envío?',
    "Non, je voudrais retourner l'article",
    '¿Sí?',
    // Yes and no at once says neither.
    'yes and no',
    'ja, nicht wirklich',
    // Thanks alone is a thank-you (saysThanksOrBye), not an answer.
    'thanks',
    'danke',
    'merci',
    // Longer than a yes or a no, though every word is one of theirs.
    'yes yes yes it really did help me',
    '',
    '   ',
    'How do I return an item?',
  ])('is neither in "%s"', (text) => {
    expect(answersHelped(text)).toBeUndefined();
  });

  it("reads every feedback button's value, in every language of the brain's, as its answer", () => {
    for (const language of BRAIN_LANGUAGES) {
      const [yes, no] = feedbackChoicesIn(language);
      expect(answersHelped(yes!.value), `${language}: ${yes!.value}`).toBe(true);
      expect(answersHelped(no!.value), `${language}: ${no!.value}`).toBe(false);
    }
  });

  it('reads a button value typed in other case and without its punctuation too', () => {
    expect(answersHelped('nein das hat nicht geholfen')).toBe(false);
    expect(answersHelped("NON, ÇA NE M'A PAS AIDÉ")).toBe(false);
    expect(answersHelped('Yes, that helped')).toBe(true);
  });

  it('reads a long message as neither, without reading its words', () => {
    expect(answersHelped('yes '.repeat(50_000))).toBeUndefined();
  });
});
