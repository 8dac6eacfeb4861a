/**
 * What a customer's words ask for, beyond a question: a person, or the end of the chat. A request
 * for a person is read in English, German, Spanish and French, whatever the conversation's locale
 * (a customer may write in any of them); thanks and goodbyes in English.
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

const THANKS_OR_BYE =
  /\b(?:thanks|thank you|thank u|thx|ty|cheers|much appreciated|bye|goodbye|good bye|see you|that's all|that is all|all good|perfect|great)\b/i;

/** A short thank-you or goodbye that asks nothing more. */
export function saysThanksOrBye(text: string): boolean {
  return text.length <= 80 && !text.includes('?') && THANKS_OR_BYE.test(text);
}
