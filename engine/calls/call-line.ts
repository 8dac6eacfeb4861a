/**
 * The line a call leaves in its conversation's messages (issue 30: "Call, 3 min 12 s"). It is kept
 * as a `system` turn: the team and the transcript see it, the AI never reads it as the customer's words.
 *
 * @example callLine(192) // 'Call, 3 min 12 s'
 */
export function callLine(durationS: number): string {
  const hours = Math.floor(durationS / 3600);
  const minutes = Math.floor((durationS % 3600) / 60);
  const seconds = durationS % 60;
  const parts = [hours ? `${hours} h` : '', hours || minutes ? `${minutes} min` : '', `${seconds} s`];
  return `Call, ${parts.filter(Boolean).join(' ')}`;
}
