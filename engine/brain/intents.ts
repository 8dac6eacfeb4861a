/** What a customer's words ask for, beyond a question: a person, or the end of the chat. */

const PERSON = '(?:human|person|someone|somebody|agent|representative|operator|staff|people|real person|team member)';
const ASKS_FOR_PERSON = [
  new RegExp(`\\b(?:talk|speak|chat|connect|transfer|put)\\b.{0,40}\\b${PERSON}\\b`, 'i'),
  new RegExp(
    `\\b(?:want|need|get|give)\\b.{0,20}\\b(?:a|an|the|some)?\\s*(?:human|real person|live agent|representative|operator)\\b`,
    'i',
  ),
  /^\s*(?:human|agent|person|operator|representative)\b[\s!.,]*(?:please)?[\s!.]*$/i,
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
