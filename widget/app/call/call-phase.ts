/** Where a call is, and what the call UI may do with it (issue 30). */

/**
 * `calling`: people are rung; `talking`: with a person; `ai`: with the AI; `ringing`: with the AI,
 * which handed over, while people are rung; `waiting`: with the AI after a handover nobody could
 * take now (a person answers in the chat).
 */
export type CallPhase = 'calling' | 'talking' | 'ai' | 'ringing' | 'waiting' | 'ended' | 'missed' | 'failed';

export interface PlacedCall {
  hangUp(): void;
  mute(muted: boolean): void;
}
