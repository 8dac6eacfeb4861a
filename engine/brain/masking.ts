/**
 * Hides codes a customer typed before they reach an action request or a stored turn: payment card
 * numbers (13 to 19 digits that pass the Luhn check, keeping the last four) and one-time codes
 * (4 to 8 digits right after a word such as "code", "OTP" or "PIN").
 *
 * Unlike the brain's other steps it reads the whole message, not MESSAGE_READ_CHARS: the whole
 * message is kept, and a card number after the part the brain reads must be hidden too. Its
 * patterns repeat only a bounded number of times, so it takes linear time (issue 26: 10 to 20 ms
 * on 150,000 characters of "code 1234" or "1 1 1", counted to the account's brain time).
 */
const CARD_CANDIDATE = /\b\d(?:[ -]?\d){12,18}\b/g;
const ONE_TIME_CODE = /\b(code|otp|pin|passcode|verification|security code|cvc|cvv)\b([^0-9\n]{0,20}?)(\d{3,8})\b/gi;

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

export function maskCodes(text: string): string {
  return text
    .replace(CARD_CANDIDATE, (match) => {
      const digits = match.replace(/\D/g, '');
      return luhnValid(digits) ? `[card ending ${digits.slice(-4)}]` : match;
    })
    .replace(
      ONE_TIME_CODE,
      (_match, word: string, between: string, code: string) => `${word}${between}${'•'.repeat(code.length)}`,
    );
}
