import type { EngineAccounts } from '../engine-link/engine-accounts.ts';
import type { EngineClient } from '../engine-link/engine-client.ts';
import type { Environment } from '../store/inboxes.ts';

/** How long what an engine said about its speech is believed: a config read asks it once a minute at most. */
export const SPEECH_KEPT_MS = 60_000;

const told = new WeakMap<Pick<EngineClient, 'me'>, { speaks: Promise<boolean>; until: number }>();

/**
 * Whether customers can call the AI of this engine (issue 30): it has speech (STT and TTS), as
 * `GET /v1/me` says in `ai_calls`. Kept per engine client for SPEECH_KEPT_MS, so that the widget's
 * config and the availability pushes do not ask the engine each time; an engine that does not
 * answer, or is older than `ai_calls`, does not speak.
 */
export function engineSpeaks(engine: Pick<EngineClient, 'me'>, now: Date): Promise<boolean> {
  const kept = told.get(engine);
  if (kept && kept.until > now.getTime()) return kept.speaks;
  const speaks = engine.me().then(
    (me) => me.ai_calls === true,
    () => false,
  );
  told.set(engine, { speaks, until: now.getTime() + SPEECH_KEPT_MS });
  return speaks;
}

/** Whether the engine of the inbox's conversations in `environment` speaks; false when the BFF has no key for it. */
export async function inboxEngineSpeaks(
  engines: Pick<EngineAccounts, 'forInbox'>,
  inboxId: string,
  environment: Environment,
  now: Date,
): Promise<boolean> {
  try {
    return await engineSpeaks(await engines.forInbox(inboxId, environment), now);
  } catch {
    return false;
  }
}
