import { describe, expect, it } from 'vitest';
import { asksForPerson } from './intents.ts';
import { BRAIN_LANGUAGES, personRequestIn } from './texts.ts';

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
