/**
 * The line both transcripts show when a call ends (issue 30): "Call, 3 min 12 s"; a call under a
 * minute is "Call, 42 s", one of whole minutes "Call, 2 min".
 */
export function callLine(durationS: number): string {
  const seconds = Math.max(0, Math.round(durationS));
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  if (!minutes) return `Call, ${rest} s`;
  return rest ? `Call, ${minutes} min ${rest} s` : `Call, ${minutes} min`;
}
