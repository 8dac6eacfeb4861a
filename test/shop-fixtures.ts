import { DEMO_ACTIONS } from '../demo/actions.ts';
import { readKnowledge } from '../demo/seed.ts';

/**
 * A shop to test the engine against, built from the demo store's data: its actions (look up an
 * order, …) and its knowledge base (returns, delivery, payment…). Engine and BFF tests take it
 * from here, not from `demo/` itself, so each room's tests depend on their own room and `test/`.
 */
export const shopActions = DEMO_ACTIONS;

/** The shop's knowledge documents, `{title, body}`, read from its markdown files. */
export const shopKnowledge = (): Promise<{ title: string; body: string }[]> => readKnowledge();
